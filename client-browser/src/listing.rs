//! Reading a paginated list (`tools/list`, `prompts/list`, ...) page by page, and stopping a
//! listing under way.

use crate::client::{Client, PendingCall};
use crate::error::ClientError;
use crate::options::CallOptions;
use client_core::session::{CacheMode, RequestError, RequestHandle};
use client_core::time::Duration;
use futures_util::future::{FutureExt, LocalBoxFuture};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

/// How a listing asks for its pages.
#[derive(Clone, Copy, Debug, Default)]
pub struct ListOptions {
    /// How each page uses the response cache.
    pub cache: CacheMode,
    /// Overrides the client's timeout, for each page.
    pub timeout: Option<Duration>,
}

impl ListOptions {
    /// The options of one page's request.
    fn page(&self) -> CallOptions {
        CallOptions {
            cache: self.cache,
            timeout: self.timeout,
            ..Default::default()
        }
    }
}

/// A listing under way: await it for every item (as the server sent them), or stop it with
/// [`ListingStop::stop`].
pub struct PendingListing {
    /// Stops this listing.
    pub stop: ListingStop,
    fut: LocalBoxFuture<'static, Result<Vec<Value>, ClientError>>,
}

impl Future for PendingListing {
    type Output = Result<Vec<Value>, ClientError>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        self.fut.as_mut().poll(cx)
    }
}

/// Stops a listing: the page under way is cancelled (on the wire, as any request) and no
/// further page is asked for; the listing ends with [`RequestError::Cancelled`].
#[derive(Clone)]
pub struct ListingStop {
    client: Client,
    state: Rc<RefCell<StopState>>,
}

#[derive(Default)]
struct StopState {
    /// The page under way.
    current: Option<RequestHandle>,
    stopped: bool,
}

impl ListingStop {
    /// Stops the listing (nothing happens if it has ended).
    pub fn stop(&self) {
        let current = {
            let mut s = self.state.borrow_mut();
            s.stopped = true;
            s.current.take()
        };
        if let Some(h) = current {
            self.client.cancel(h);
        }
    }

    /// The page under way has ended: nothing to cancel until the next one.
    fn page_ended(&self) {
        self.state.borrow_mut().current = None;
    }

    /// Starts a page unless the listing was stopped.
    fn start(
        &self,
        method: &str,
        params: Option<Value>,
        opts: CallOptions,
    ) -> Result<PendingCall, ClientError> {
        if self.state.borrow().stopped {
            return Err(ClientError::Request(RequestError::Cancelled));
        }
        let call = self.client.start(method, params, opts);
        self.state.borrow_mut().current = Some(call.handle);
        Ok(call)
    }
}

/// How reading a paginated listing failed.
enum Listing {
    /// A page after the first was refused or lost (its cursor may be stale).
    LaterPage(ClientError),
    /// The first page, or a page of the wrong shape.
    Other(ClientError),
}

impl Listing {
    fn into_error(self) -> ClientError {
        match self {
            Listing::LaterPage(e) | Listing::Other(e) => e,
        }
    }
}

impl Client {
    /// [`Client::list_all`], each page using the response cache as `cache` says.
    pub async fn list_all_with(
        &self,
        method: &str,
        key: &str,
        cache: CacheMode,
    ) -> Result<Vec<Value>, ClientError> {
        let options = ListOptions {
            cache,
            ..Default::default()
        };
        self.start_listing(method, key, options).await
    }

    /// Starts reading every item of a paginated list (`tools/list` → `"tools"`, ...),
    /// following `nextCursor` for at most `max_pages` pages. If the server refuses a later
    /// page when the pages before it may have come from the cache, its cursor may be stale:
    /// the listing starts again once, every page fresh from the server (the specification's
    /// advice for invalid cursors; the session has discarded the list's kept pages).
    pub fn start_listing(&self, method: &str, key: &str, options: ListOptions) -> PendingListing {
        let stop = ListingStop {
            client: self.clone(),
            state: Rc::default(),
        };
        // The first page goes out now, as any request does when started.
        let first = stop.start(method, None, options.page());
        let (client, pages) = (self.clone(), stop.clone());
        let (method, key) = (method.to_string(), key.to_string());
        let fut = async move {
            let outcome = client
                .list_from(first, &pages, &method, &key, options)
                .await;
            match outcome {
                Err(Listing::LaterPage(ClientError::Request(RequestError::Rpc(_))))
                    if options.cache == CacheMode::Use =>
                {
                    let fresh = ListOptions {
                        cache: CacheMode::Refresh,
                        ..options
                    };
                    let first = pages.start(&method, None, fresh.page());
                    let again = client.list_from(first, &pages, &method, &key, fresh).await;
                    again.map_err(Listing::into_error)
                }
                outcome => outcome.map_err(Listing::into_error),
            }
        };
        PendingListing {
            stop,
            fut: fut.boxed_local(),
        }
    }

    /// Every item of a listing from the request for its first page, already started (or
    /// refused); later pages are started through `pages`.
    async fn list_from(
        &self,
        first_page: Result<PendingCall, ClientError>,
        pages: &ListingStop,
        method: &str,
        key: &str,
        options: ListOptions,
    ) -> Result<Vec<Value>, Listing> {
        let mut all = Vec::new();
        let mut cursor: Option<String> = None;
        let mut first_page = Some(first_page);
        let changes = self.tasks.borrow().changes;
        for _ in 0..self.inner.options.max_pages {
            let first = cursor.is_none();
            let call = match first_page.take() {
                Some(call) => call,
                None => {
                    let params = cursor.as_ref().map(|c| json!({ "cursor": c }));
                    pages.start(method, params, options.page())
                }
            };
            let page = match call {
                Ok(call) => call.await,
                Err(e) => Err(e),
            };
            pages.page_ended();
            let mut page = page.map_err(|e| match first {
                true => Listing::Other(e),
                false => Listing::LaterPage(e),
            })?;
            let Some(Value::Array(items)) = page.get_mut(key).map(Value::take) else {
                return Err(Listing::Other(ClientError::UnexpectedResult(format!(
                    "the {method} result has no {key} list"
                ))));
            };
            let next = match page.get("nextCursor").and_then(Value::as_str) {
                Some(n) if Some(n) != cursor.as_deref() => Some(n.to_string()),
                _ => None,
            };
            if method == "tools/list" {
                self.tasks.borrow_mut().note_required(first, &items);
            }
            all.extend(items);
            match next {
                Some(n) => cursor = Some(n),
                None => break,
            }
        }
        if method == "tools/list" {
            // The whole list (or as much of it as is read): which tools need a task is known,
            // unless the server said the tools changed while it was being read.
            self.tasks.borrow_mut().tools_listed(changes);
        }
        Ok(all)
    }
}
