//! One HTTP exchange in flight: what it is for and how its body is being read.
//!
//! Like a small ureq-proto state machine: `Pending` (no head yet), then one of `Json`
//! (buffered up to the size limit), `Sse` (decoded incrementally), `Error` (a bounded excerpt
//! of an error body kept for diagnosis) or `Discard`.

use crate::http::ResponseHead;
use crate::sse::SseDecoder;
use alloc::vec::Vec;

/// Bytes of an error body kept for diagnosis.
pub(crate) const ERROR_BODY_LIMIT: usize = 64 * 1024;

/// Why the session asked for this exchange.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Purpose {
    /// A request (application or internal), by pending-request key.
    Call(u64),
    /// A GET that resumes the response stream of a request (`Last-Event-ID`).
    Resume(u64),
    /// A notification or a response to a server request: only the status matters.
    Fire,
    /// The legacy standalone GET stream.
    GetStream,
    /// The 2024-11-05 HTTP+SSE main stream.
    SseMain,
    /// DELETE of the session on close.
    Delete,
}

/// How the body is being read.
#[derive(Debug)]
pub(crate) enum Body {
    /// No response head yet.
    Pending,
    /// `application/json`, buffered.
    Json(Vec<u8>),
    /// `text/event-stream`, decoded as it arrives.
    Sse(SseDecoder),
    /// An error status: a bounded excerpt is kept.
    Error(Vec<u8>),
    /// Nothing to read.
    Discard,
}

/// An exchange in flight.
#[derive(Debug)]
pub(crate) struct Exchange {
    pub purpose: Purpose,
    pub head: Option<ResponseHead>,
    pub body: Body,
}

impl Exchange {
    pub fn new(purpose: Purpose) -> Self {
        Exchange {
            purpose,
            head: None,
            body: Body::Pending,
        }
    }

    /// The status, once the head arrived.
    pub fn status(&self) -> Option<u16> {
        self.head.as_ref().map(|h| h.status)
    }

    /// The last SSE event id seen on this exchange.
    pub fn last_event_id(&self) -> Option<&str> {
        match &self.body {
            Body::Sse(d) => d.last_event_id(),
            _ => None,
        }
    }

    /// The `retry:` the server asked for on this exchange.
    pub fn retry_ms(&self) -> Option<u64> {
        match &self.body {
            Body::Sse(d) => d.retry_ms(),
            _ => None,
        }
    }
}
