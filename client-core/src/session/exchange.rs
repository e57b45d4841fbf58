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
    /// The `Last-Event-ID` this GET resumes from, until its first event: that event, if it
    /// carries this very id, was delivered already (event ids are unique in a session; some
    /// servers replay from the event named instead of after it) and is not handled again.
    pub resumed_from: Option<alloc::string::String>,
}

impl Exchange {
    pub fn new(purpose: Purpose) -> Self {
        Exchange {
            purpose,
            head: None,
            body: Body::Pending,
            resumed_from: None,
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

    /// Whether an event with `id` is the first of this exchange and repeats the event it
    /// resumes from (see [`Exchange::resumed_from`]); only the first event is looked at.
    pub fn repeats_resumed_event(&mut self, id: Option<&str>) -> bool {
        let from = self.resumed_from.take();
        from.is_some() && from.as_deref() == id
    }

    /// The `retry:` the server asked for on this exchange.
    pub fn retry_ms(&self) -> Option<u64> {
        match &self.body {
            Body::Sse(d) => d.retry_ms(),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resumed(from: Option<&str>) -> Exchange {
        let mut ex = Exchange::new(Purpose::GetStream);
        ex.resumed_from = from.map(alloc::string::String::from);
        ex
    }

    #[test]
    fn only_a_first_event_with_the_id_resumed_from_repeats_it() {
        assert!(resumed(Some("7")).repeats_resumed_event(Some("7")));
        // Not resumed, another id first, or no id first: nothing is a repeat, then or later.
        assert!(!resumed(None).repeats_resumed_event(Some("7")));
        let mut ex = resumed(Some("7"));
        assert!(!ex.repeats_resumed_event(Some("8")));
        assert!(!ex.repeats_resumed_event(Some("7")));
        let mut ex = resumed(Some("7"));
        assert!(!ex.repeats_resumed_event(None));
        assert!(!ex.repeats_resumed_event(Some("7")));
    }
}
