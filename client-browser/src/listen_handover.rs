//! The hand-over from a `subscriptions/listen` stream to the one replacing it (a change of
//! what the client listens for), made before the old one is broken: the specification lets a
//! client keep several streams open.
//!
//! The old stream stays open until the server acknowledges the new one, and for
//! [`OVERLAP_MS`] after: an announcement made just before the new stream subscribed goes on
//! the old stream only, and a server may write it there after the new stream's
//! acknowledgment (the PyPI SDK does: each stream is written by its own task, so no order
//! holds between them). While both are open, an announcement made after the subscription
//! comes on both: it is passed on once.

use client_core::session::RequestHandle;
use client_core::types::ServerNotification;

/// How long a replaced stream stays open once its successor is acknowledged: long enough for
/// what the server wrote on it before to arrive, short enough not to hold a connection.
pub(crate) const OVERLAP_MS: u32 = 2_000;

/// Copies awaited from another open stream at most; the oldest is forgotten first.
const MAX_UNPAIRED: usize = 64;

/// The streams being replaced and the notifications passed on while several are open.
#[derive(Default)]
pub(crate) struct Handover {
    /// Replaced streams still open.
    retiring: Vec<RequestHandle>,
    /// The newest stream, while it awaits its acknowledgment.
    successor: Option<RequestHandle>,
    /// Notifications passed on while several streams are open, by stream and content, whose
    /// copy from another stream has not come (yet).
    unpaired: Vec<(RequestHandle, String)>,
}

impl Handover {
    /// The stream open now (`old`, if it is still open) is to be replaced: it is kept open
    /// until its successor ([`Handover::replaced_by`]) is acknowledged. Returns the streams to
    /// close now, before the successor opens: those `old` itself replaced, whose time was up
    /// once `old` was acknowledged (it is before it is replaced). One stream at a time is
    /// being replaced: each holds a connection, and a browser opens at most six to a server
    /// over HTTP/1.1.
    #[must_use]
    pub(crate) fn retire(&mut self, old: Option<RequestHandle>) -> Vec<RequestHandle> {
        self.successor = None;
        match old {
            Some(old) => core::mem::replace(&mut self.retiring, vec![old]),
            None => Vec::new(),
        }
    }

    /// `new` is the stream that replaces those being retired.
    pub(crate) fn replaced_by(&mut self, new: RequestHandle) {
        self.successor = (!self.retiring.is_empty()).then_some(new);
    }

    /// Every stream being replaced, to close now: nothing replaces them.
    pub(crate) fn take_all(&mut self) -> Vec<RequestHandle> {
        self.successor = None;
        self.unpaired.clear();
        core::mem::take(&mut self.retiring)
    }

    /// The server acknowledged `stream`: if it is the successor, the streams it replaces, to
    /// close after [`OVERLAP_MS`].
    pub(crate) fn acknowledged(&mut self, stream: RequestHandle) -> Vec<RequestHandle> {
        if self.successor != Some(stream) {
            return Vec::new();
        }
        self.successor = None;
        self.retiring.clone()
    }

    /// `stream` ended: if it was the successor (never acknowledged), the streams it was to
    /// replace, to close now (the stream opened after it replaces nothing).
    pub(crate) fn ended(&mut self, stream: RequestHandle) -> Vec<RequestHandle> {
        if self.retiring.is_empty() && self.successor.is_none() {
            return Vec::new();
        }
        if self.successor == Some(stream) {
            return self.take_all();
        }
        self.retiring.retain(|s| *s != stream);
        if self.retiring.is_empty() {
            self.unpaired.clear();
        }
        Vec::new()
    }

    /// Whether to pass on `notification`, which came on `stream`: not when it is the copy of
    /// one passed on from another stream open at the same time.
    pub(crate) fn first_copy(
        &mut self,
        stream: RequestHandle,
        notification: &ServerNotification,
    ) -> bool {
        if self.retiring.is_empty()
            || matches!(
                notification,
                ServerNotification::SubscriptionsAcknowledged(_)
            )
        {
            return true;
        }
        let content = content_of(notification);
        let copy = self
            .unpaired
            .iter()
            .position(|(s, c)| *s != stream && *c == content);
        if let Some(i) = copy {
            self.unpaired.remove(i);
            return false;
        }
        if self.unpaired.len() == MAX_UNPAIRED {
            self.unpaired.remove(0);
        }
        self.unpaired.push((stream, content));
        true
    }
}

/// What a notification says, without what differs from stream to stream (`_meta`, which
/// names the stream).
fn content_of(notification: &ServerNotification) -> String {
    let mut params = notification.params();
    if let Some(serde_json::Value::Object(fields)) = &mut params {
        fields.remove("_meta");
    }
    let params = params.map(|p| p.to_string()).unwrap_or_default();
    format!("{} {params}", notification.method())
}
