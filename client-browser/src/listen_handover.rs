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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const A: RequestHandle = RequestHandle(1);
    const B: RequestHandle = RequestHandle(2);
    const C: RequestHandle = RequestHandle(3);

    fn updated(uri: &str, meta: serde_json::Value) -> ServerNotification {
        ServerNotification::decode(
            "notifications/resources/updated",
            Some(json!({"uri": uri, "_meta": meta})),
        )
        .expect("a valid notification")
    }

    fn acknowledgment() -> ServerNotification {
        ServerNotification::decode(
            "notifications/subscriptions/acknowledged",
            Some(json!({"notifications": {"toolsListChanged": true}})),
        )
        .expect("a valid notification")
    }

    /// Stream `A` being replaced by `B`, which awaits its acknowledgment.
    fn a_replaced_by_b() -> Handover {
        let mut h = Handover::default();
        assert!(h.retire(Some(A)).is_empty(), "nothing was being replaced");
        h.replaced_by(B);
        h
    }

    /// A handover of `A` to `B`, acknowledged: both open during the overlap.
    fn overlapping() -> Handover {
        let mut h = a_replaced_by_b();
        assert_eq!(h.acknowledged(B), vec![A]);
        h
    }

    #[test]
    fn the_old_stream_closes_once_its_successor_is_acknowledged_and_not_before() {
        let mut h = a_replaced_by_b();
        assert!(h.acknowledged(A).is_empty(), "not the successor");
        assert!(h.acknowledged(C).is_empty(), "not the successor");
        assert_eq!(h.acknowledged(B), vec![A]);
        assert!(h.acknowledged(B).is_empty(), "told once");
        // The overlap ends: A closes, and nothing is being replaced any more.
        assert!(h.ended(A).is_empty());
        assert!(h.take_all().is_empty());
    }

    #[test]
    fn a_first_stream_replaces_nothing() {
        let mut h = Handover::default();
        assert!(h.retire(None).is_empty());
        h.replaced_by(A);
        assert!(h.acknowledged(A).is_empty(), "A replaces nothing");
        assert!(h.ended(A).is_empty());
        assert!(h.take_all().is_empty());
    }

    #[test]
    fn a_second_change_closes_at_once_what_the_first_replaced() {
        let mut h = a_replaced_by_b();
        // B is replaced before its acknowledgment: A (which B replaced) closes now, B stays
        // open until C is acknowledged.
        assert_eq!(h.retire(Some(B)), vec![A]);
        h.replaced_by(C);
        assert!(h.acknowledged(B).is_empty(), "B is no longer the successor");
        assert_eq!(h.acknowledged(C), vec![B]);
    }

    #[test]
    fn a_successor_that_ends_unacknowledged_lets_the_old_streams_close_now() {
        let mut h = a_replaced_by_b();
        assert!(
            h.ended(C).is_empty(),
            "another stream's end changes nothing"
        );
        assert_eq!(h.ended(B), vec![A]);
        // Nothing is left to replace: the next stream replaces nothing.
        h.replaced_by(C);
        assert!(h.acknowledged(C).is_empty());
        assert!(h.take_all().is_empty());
    }

    #[test]
    fn a_retired_stream_that_ends_is_not_closed_again() {
        let mut h = a_replaced_by_b();
        assert!(h.ended(A).is_empty(), "A ended on its own");
        assert!(
            h.acknowledged(B).is_empty(),
            "nothing left to close: {:?}",
            h.retiring
        );
        assert!(h.take_all().is_empty());
    }

    #[test]
    fn take_all_closes_every_retiring_stream_and_forgets_the_successor() {
        let mut h = a_replaced_by_b();
        assert_eq!(h.take_all(), vec![A]);
        assert!(h.acknowledged(B).is_empty());
        assert!(h.take_all().is_empty());
    }

    #[test]
    fn a_stream_open_alone_passes_everything_on() {
        let mut h = Handover::default();
        let n = updated("file:///a", json!({}));
        for _ in 0..3 {
            assert!(h.first_copy(A, &n));
        }
        assert!(
            h.unpaired.is_empty(),
            "nothing is remembered for one stream"
        );
    }

    #[test]
    fn while_two_streams_are_open_a_notification_is_passed_on_once() {
        let mut h = overlapping();
        // The same content on both streams, their `_meta` (naming the stream) aside.
        assert!(h.first_copy(A, &updated("file:///a", json!({"s": 1}))));
        assert!(!h.first_copy(B, &updated("file:///a", json!({"s": 2}))));
        // And the other way round.
        assert!(h.first_copy(B, &updated("file:///b", json!({"s": 2}))));
        assert!(!h.first_copy(A, &updated("file:///b", json!({"s": 1}))));
        assert!(h.unpaired.is_empty(), "every copy was paired");
        // Different content is not a copy.
        assert!(h.first_copy(A, &updated("file:///c", json!({}))));
        assert!(h.first_copy(B, &updated("file:///d", json!({}))));
        // Two on one stream are two notifications, and each pairs with one copy.
        assert!(h.first_copy(A, &ServerNotification::ToolListChanged));
        assert!(h.first_copy(A, &ServerNotification::ToolListChanged));
        assert!(!h.first_copy(B, &ServerNotification::ToolListChanged));
        assert!(!h.first_copy(B, &ServerNotification::ToolListChanged));
        assert!(h.first_copy(B, &ServerNotification::ToolListChanged));
    }

    #[test]
    fn acknowledgments_are_always_passed_on() {
        let mut h = overlapping();
        assert!(h.first_copy(A, &acknowledgment()));
        assert!(h.first_copy(B, &acknowledgment()));
        assert!(h.first_copy(B, &acknowledgment()));
        assert!(h.unpaired.is_empty());
    }

    #[test]
    fn once_the_old_stream_is_gone_nothing_is_held_back() {
        let mut h = overlapping();
        assert!(h.first_copy(A, &ServerNotification::ToolListChanged));
        assert!(h.ended(A).is_empty());
        assert!(h.unpaired.is_empty(), "forgotten with the old stream");
        assert!(h.first_copy(B, &ServerNotification::ToolListChanged));
    }

    #[test]
    fn copies_awaited_are_bounded_the_oldest_forgotten_first() {
        let mut h = overlapping();
        for i in 0..=MAX_UNPAIRED {
            assert!(h.first_copy(A, &updated(&format!("file:///{i}"), json!({}))));
        }
        assert_eq!(h.unpaired.len(), MAX_UNPAIRED);
        // The newest's and the next-oldest's copies are still recognised; the oldest's is not.
        assert!(!h.first_copy(B, &updated(&format!("file:///{MAX_UNPAIRED}"), json!({}))));
        assert!(!h.first_copy(B, &updated("file:///1", json!({}))));
        assert!(h.first_copy(B, &updated("file:///0", json!({}))));
    }

    #[test]
    fn content_leaves_out_only_the_meta() {
        assert_eq!(
            content_of(&updated("file:///a", json!({"s": 1}))),
            r#"notifications/resources/updated {"uri":"file:///a"}"#
        );
        assert_eq!(
            content_of(&ServerNotification::ToolListChanged),
            "notifications/tools/list_changed "
        );
        let other = ServerNotification::Other {
            method: "notifications/x".into(),
            params: Some(json!(["_meta"])),
        };
        assert_eq!(content_of(&other), r#"notifications/x ["_meta"]"#);
    }
}
