//! The one request a panel has under way (a resource read, a prompt): shown while it runs,
//! cancelled by the user, by a newer request of the panel, or when the panel goes; only the
//! answer to the newest request is taken, and only while the panel is still there.

use crate::connection::Connection;
use client_browser::client_core::session::RequestHandle;
use client_browser::{Client, ClientError, PendingCall};
use leptos::prelude::*;
use serde_json::Value;
use std::future::Future;

/// The request a panel has under way, with what the panel shows of it (`T`: the URI read).
pub struct InFlight<T: Send + Sync + 'static> {
    current: RwSignal<Option<(RequestHandle, T)>>,
    client: StoredValue<Option<Client>, LocalStorage>,
}

impl<T: Send + Sync + 'static> Clone for InFlight<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Send + Sync + 'static> Copy for InFlight<T> {}

impl<T: Clone + Send + Sync + 'static> InFlight<T> {
    /// Nothing under way yet. Owned by the panel being built: when it goes, the request
    /// under way is cancelled (nobody is left to show its answer to).
    pub fn new(conn: &Connection) -> Self {
        let in_flight = InFlight {
            current: RwSignal::new(None),
            client: conn.client,
        };
        on_cleanup(move || in_flight.cancel());
        in_flight
    }

    /// What is under way (reactive), for the panel to show.
    pub fn shown(&self) -> Option<T> {
        self.current
            .with(|c| c.as_ref().map(|(_, shown)| shown.clone()))
    }

    /// Cancels the request under way, if any (it ends as cancelled).
    pub fn cancel(&self) {
        let under_way = self.current.try_get_untracked().flatten();
        if let (Some((h, _)), Some(Some(client))) = (under_way, self.client.try_get_value()) {
            client.cancel(h);
        }
    }

    /// Makes `call` the request under way at once (a request still under way is cancelled),
    /// and waits for it. `None`: a newer request replaced it, or the panel is gone; the
    /// answer is for nobody.
    pub fn run(
        self,
        call: PendingCall,
        shown: T,
    ) -> impl Future<Output = Option<Result<Value, ClientError>>> {
        self.cancel();
        let handle = call.handle;
        self.current.set(Some((handle, shown)));
        async move {
            let outcome = call.await;
            let still_current = self
                .current
                .try_with_untracked(|c| c.as_ref().map(|(h, _)| *h) == Some(handle));
            if still_current != Some(true) {
                return None;
            }
            self.current.set(None);
            Some(outcome)
        }
    }
}
