//! Incremental Server-Sent Events decoder (WHATWG HTML "event stream interpretation").
//!
//! Hand-written because the SSE crates on crates.io either need `std`/an async runtime or
//! buffer whole streams; the core needs a `no_std`, push-based decoder that accepts arbitrary
//! chunk boundaries (a UTF-8 character or a CRLF split across chunks) and caps each event's size.
//!
//! Lines are split at the byte level (CR, LF and CRLF are ASCII and never occur inside a
//! multi-byte UTF-8 sequence), so a character split across chunks is reassembled before it is
//! decoded.

use alloc::collections::VecDeque;
use alloc::string::String;
use alloc::vec::Vec;

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` type; `None` for the default type `message` (absent or explicit).
    pub event: Option<String>,
    /// The data lines joined with `\n` (may be empty: a "priming" event).
    pub data: String,
    /// The last event id in force when this event was dispatched.
    pub id: Option<String>,
}

/// A problem in the stream that the decoder skipped over.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SseError {
    /// An event's data grew beyond the limit; the event was dropped.
    #[error("an SSE event exceeded the limit of {limit} bytes and was dropped")]
    EventTooLarge {
        /// The per-event limit in force.
        limit: usize,
    },
}

/// Push-based SSE decoder: feed bytes with [`SseDecoder::push`], take events with
/// [`SseDecoder::poll`].
#[derive(Debug)]
pub struct SseDecoder {
    limit: usize,
    /// Bytes of the current, not yet terminated line.
    line: Vec<u8>,
    /// The previous chunk ended with CR: a leading LF in the next chunk belongs to it.
    after_cr: bool,
    /// At stream start: a UTF-8 BOM is still to be skipped.
    at_start: bool,
    /// The current line overflowed the limit and is being discarded.
    discarding_line: bool,
    /// The current event overflowed the limit and is being discarded up to its end.
    discarding_event: bool,
    data: String,
    has_data: bool,
    event_type: Option<String>,
    last_id: Option<String>,
    retry_ms: Option<u64>,
    out: VecDeque<Result<SseEvent, SseError>>,
}

impl SseDecoder {
    /// A decoder that drops any event (or line) whose data exceeds `limit` bytes.
    pub fn new(limit: usize) -> Self {
        SseDecoder {
            limit,
            line: Vec::new(),
            after_cr: false,
            at_start: true,
            discarding_line: false,
            discarding_event: false,
            data: String::new(),
            has_data: false,
            event_type: None,
            last_id: None,
            retry_ms: None,
            out: VecDeque::new(),
        }
    }

    /// A decoder that starts with a known last event id (e.g. after a resumption).
    pub fn with_last_event_id(limit: usize, id: Option<String>) -> Self {
        let mut d = SseDecoder::new(limit);
        d.last_id = id;
        d
    }

    /// The last event id seen (`id:` field), for `Last-Event-ID` on reconnection.
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_id.as_deref()
    }

    /// The reconnection delay the server asked for with `retry:`, in milliseconds.
    pub fn retry_ms(&self) -> Option<u64> {
        self.retry_ms
    }

    /// Feeds the next chunk of the stream.
    pub fn push(&mut self, mut chunk: &[u8]) {
        if self.at_start && !chunk.is_empty() {
            // Skip a BOM, which may itself be split across chunks.
            const BOM: &[u8] = b"\xEF\xBB\xBF";
            let have = self.line.len();
            let need = BOM.len() - have;
            let take = need.min(chunk.len());
            if BOM[have..have + take] == chunk[..take] {
                if take == need {
                    self.line.clear();
                    self.at_start = false;
                } else {
                    self.line.extend_from_slice(&chunk[..take]);
                }
                chunk = &chunk[take..];
                if self.at_start {
                    return;
                }
            } else {
                // Not a BOM: what was held back is ordinary data.
                self.at_start = false;
            }
        }
        if self.after_cr && !chunk.is_empty() {
            self.after_cr = false;
            if chunk[0] == b'\n' {
                chunk = &chunk[1..];
            }
        }
        // Find line ends with memchr (word-at-a-time / SIMD), and decode lines that lie wholly
        // inside this chunk straight from it, without copying them into the line buffer.
        let mut rest = chunk;
        while let Some(pos) = memchr::memchr2(b'\n', b'\r', rest) {
            let (line, tail) = rest.split_at(pos);
            if self.line.is_empty() && !self.discarding_line {
                self.complete_line(line);
            } else {
                self.append_line_bytes(line);
                self.end_line();
            }
            let is_cr = tail[0] == b'\r';
            rest = &tail[1..];
            if is_cr {
                match rest.first() {
                    Some(b'\n') => rest = &rest[1..],
                    Some(_) => {}
                    None => self.after_cr = true,
                }
            }
        }
        self.append_line_bytes(rest);
    }

    /// A complete line that was not buffered.
    fn complete_line(&mut self, line: &[u8]) {
        self.at_start = false;
        if line.is_empty() {
            self.dispatch();
        } else if line.len() + self.data.len() > self.limit.saturating_add(16) {
            if !self.discarding_event {
                self.discarding_event = true;
                self.data.clear();
                self.has_data = false;
                self.out
                    .push_back(Err(SseError::EventTooLarge { limit: self.limit }));
            }
        } else {
            self.process_field(line);
        }
    }

    /// The next decoded event, or a note that one was dropped.
    pub fn poll(&mut self) -> Option<Result<SseEvent, SseError>> {
        self.out.pop_front()
    }

    /// Ends the stream. An event not terminated by a blank line is discarded, as the SSE
    /// standard requires; returns true when that happened.
    pub fn finish(&mut self) -> bool {
        let pending = !self.line.is_empty() || self.has_data;
        self.line.clear();
        self.data.clear();
        self.has_data = false;
        self.event_type = None;
        self.discarding_event = false;
        self.discarding_line = false;
        pending
    }

    fn append_line_bytes(&mut self, bytes: &[u8]) {
        if bytes.is_empty() || self.discarding_line {
            return;
        }
        if self.line.len() + bytes.len() + self.data.len() > self.limit.saturating_add(16) {
            self.discarding_line = true;
            self.line.clear();
            if !self.discarding_event {
                self.discarding_event = true;
                self.out
                    .push_back(Err(SseError::EventTooLarge { limit: self.limit }));
            }
            return;
        }
        self.line.extend_from_slice(bytes);
    }

    fn end_line(&mut self) {
        self.at_start = false;
        if self.discarding_line {
            self.discarding_line = false;
            self.line.clear();
            return;
        }
        if self.line.is_empty() {
            self.dispatch();
            return;
        }
        let line = core::mem::take(&mut self.line);
        self.process_field(&line);
        // Reuse the allocation.
        self.line = line;
        self.line.clear();
    }

    fn process_field(&mut self, line: &[u8]) {
        if line[0] == b':' {
            return; // comment
        }
        let (name, value) = match line.iter().position(|&b| b == b':') {
            Some(p) => {
                let mut v = &line[p + 1..];
                if v.first() == Some(&b' ') {
                    v = &v[1..];
                }
                (&line[..p], v)
            }
            None => (line, &line[line.len()..]),
        };
        match name {
            b"data" => {
                if self.discarding_event {
                    return;
                }
                if self.data.len() + value.len() + 1 > self.limit {
                    self.discarding_event = true;
                    self.data.clear();
                    self.has_data = false;
                    self.out
                        .push_back(Err(SseError::EventTooLarge { limit: self.limit }));
                    return;
                }
                if self.has_data {
                    self.data.push('\n');
                } else {
                    // One allocation for the usual single-line event, not a series of
                    // doublings.
                    self.data.reserve(value.len());
                }
                self.data.push_str(&String::from_utf8_lossy(value));
                self.has_data = true;
            }
            // `message` is the default type: kept as `None` (no allocation per event).
            b"event" if value == b"message" => self.event_type = None,
            b"event" => self.event_type = Some(String::from_utf8_lossy(value).into_owned()),
            b"id" if !value.contains(&0) => {
                // Most streams repeat or increment ids: reuse the buffer.
                let id = String::from_utf8_lossy(value);
                match &mut self.last_id {
                    Some(old) => {
                        old.clear();
                        old.push_str(&id);
                    }
                    None => self.last_id = Some(id.into_owned()),
                }
            }
            b"retry" if !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
                // Saturate absurd values instead of overflowing.
                let mut ms: u64 = 0;
                for d in value {
                    ms = ms.saturating_mul(10).saturating_add(u64::from(d - b'0'));
                }
                self.retry_ms = Some(ms);
            }
            _ => {}
        }
    }

    fn dispatch(&mut self) {
        let event_type = self.event_type.take();
        if self.discarding_event {
            self.discarding_event = false;
            self.data.clear();
            self.has_data = false;
            return;
        }
        if !self.has_data {
            return;
        }
        self.has_data = false;
        let data = core::mem::take(&mut self.data);
        self.out.push_back(Ok(SseEvent {
            event: event_type,
            data,
            id: self.last_id.clone(),
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn decode_all(chunks: &[&[u8]], limit: usize) -> Vec<Result<SseEvent, SseError>> {
        let mut d = SseDecoder::new(limit);
        let mut out = vec![];
        for c in chunks {
            d.push(c);
            while let Some(e) = d.poll() {
                out.push(e);
            }
        }
        out
    }

    fn ev(event: Option<&str>, data: &str, id: Option<&str>) -> Result<SseEvent, SseError> {
        Ok(SseEvent {
            event: event.map(Into::into),
            data: data.into(),
            id: id.map(Into::into),
        })
    }

    #[test]
    fn basic_event_with_type_and_id() {
        let out = decode_all(&[b"event: message\nid: 5\ndata: {\"a\":1}\n\n"], 100);
        // "message" is the default type, reported as None.
        assert_eq!(out, vec![ev(None, "{\"a\":1}", Some("5"))]);
        let out = decode_all(
            &[b"event: endpoint\nid: 5\ndata: /x\n\nid: 6\ndata: y\n\n"],
            100,
        );
        assert_eq!(
            out,
            vec![
                ev(Some("endpoint"), "/x", Some("5")),
                ev(None, "y", Some("6"))
            ]
        );
    }

    #[test]
    fn all_line_endings_and_multiline_data() {
        let out = decode_all(&[b"data: a\r\ndata: b\rdata:c\n\r\n"], 100);
        assert_eq!(out, vec![ev(None, "a\nb\nc", None)]);
    }

    #[test]
    fn crlf_split_across_chunks_is_one_line_end() {
        let out = decode_all(&[b"data: x\r", b"\n", b"\r", b"\n"], 100);
        assert_eq!(out, vec![ev(None, "x", None)]);
    }

    #[test]
    fn utf8_split_mid_character() {
        let s = "data: h\u{e9}\u{1F600}\n\n".as_bytes();
        let out = decode_all(&[&s[..8], &s[8..11], &s[11..]], 100);
        assert_eq!(out, vec![ev(None, "h\u{e9}\u{1F600}", None)]);
    }

    #[test]
    fn bom_is_skipped_even_when_split() {
        let out = decode_all(&[b"\xEF", b"\xBB\xBFdata: 1\n\n"], 100);
        assert_eq!(out, vec![ev(None, "1", None)]);
        // A BOM later in the stream is data, not skipped.
        let out = decode_all(&[b"data: 1\n\n\xEF\xBB\xBFdata: 2\n\n"], 100);
        assert_eq!(out.len(), 1);
    }

    #[test]
    fn comments_and_unknown_fields_are_ignored() {
        let out = decode_all(&[b": keep-alive\nfoo: bar\ndata\n\n"], 100);
        assert_eq!(out, vec![ev(None, "", None)]);
    }

    #[test]
    fn priming_event_with_empty_data_and_id() {
        let out = decode_all(&[b"id: 0\ndata:\n\nid: 1\ndata: {}\n\n"], 100);
        assert_eq!(
            out,
            vec![ev(None, "", Some("0")), ev(None, "{}", Some("1"))]
        );
    }

    #[test]
    fn id_only_block_sets_id_but_dispatches_nothing() {
        let mut d = SseDecoder::new(100);
        d.push(b"id: 9\n\n");
        assert!(d.poll().is_none());
        assert_eq!(d.last_event_id(), Some("9"));
        d.push(b"id: a\0b\n\n");
        assert_eq!(
            d.last_event_id(),
            Some("9"),
            "ids containing NUL are ignored"
        );
    }

    #[test]
    fn retry_field() {
        let mut d = SseDecoder::new(100);
        d.push(b"retry: 1500\nretry: x1\n\n");
        assert_eq!(d.retry_ms(), Some(1500));
        d.push(b"retry: 99999999999999999999999999\n\n");
        assert_eq!(d.retry_ms(), Some(u64::MAX));
    }

    #[test]
    fn oversized_event_is_dropped_and_stream_continues() {
        let big = alloc::format!("data: {}\n\ndata: ok\n\n", "x".repeat(200));
        let out = decode_all(&[big.as_bytes()], 50);
        assert_eq!(
            out,
            vec![
                Err(SseError::EventTooLarge { limit: 50 }),
                ev(None, "ok", None)
            ]
        );
        // The same when the oversized line arrives in small pieces.
        let chunks: Vec<&[u8]> = big.as_bytes().chunks(7).collect();
        assert_eq!(decode_all(&chunks, 50), out);
        // And when many small data lines add up past the limit.
        let many = alloc::format!("{}\ndata: ok\n\n", "data: 0123456789\n".repeat(10));
        assert_eq!(decode_all(&[many.as_bytes()], 50), out);
    }

    #[test]
    fn unterminated_event_is_discarded_at_finish() {
        let mut d = SseDecoder::new(100);
        d.push(b"data: partial");
        assert!(d.poll().is_none());
        assert!(d.finish());
        assert!(d.poll().is_none());
    }
}
