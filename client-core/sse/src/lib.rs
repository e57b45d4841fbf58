//! Incremental Server-Sent Events decoder (WHATWG HTML "event stream interpretation").
//!
//! Hand-written because the SSE crates on crates.io either need `std`/an async runtime or
//! buffer whole streams; the core needs a `no_std`, push-based decoder that accepts arbitrary
//! chunk boundaries (a UTF-8 character or a CRLF split across chunks) and caps each event's size.
//!
//! Lines are split at the byte level (CR, LF and CRLF are ASCII and never occur inside a
//! multi-byte UTF-8 sequence), so a character split across chunks is reassembled before it is
//! decoded.
//!
//! Speed ([`SseDecoder::push_with`]): each chunk is checked as UTF-8 once (SIMD, `simdutf8`),
//! its lines are found with `memchr` and handled as `&str` slices of it, and an event whose
//! data is one line inside the chunk is handed to the caller borrowed from the chunk itself:
//! no copy, no allocation. Only data spread over several lines or chunks is gathered in a
//! buffer that is reused from event to event.

#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;

use alloc::collections::VecDeque;
use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Range;

/// One dispatched event, owned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` type; `None` for the default type `message` (absent or explicit).
    pub event: Option<String>,
    /// The data lines joined with `\n` (may be empty: a "priming" event).
    pub data: String,
    /// The last event id in force when this event was dispatched.
    pub id: Option<String>,
}

/// One dispatched event, borrowed for the duration of the [`SseDecoder::push_with`] callback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SseEventRef<'a> {
    /// The `event:` type; `None` for the default type `message` (absent or explicit).
    pub event: Option<&'a str>,
    /// The data lines joined with `\n` (may be empty: a "priming" event).
    pub data: &'a str,
    /// The last event id in force when this event was dispatched.
    pub id: Option<&'a str>,
}

impl SseEventRef<'_> {
    /// An owned copy.
    pub fn to_event(&self) -> SseEvent {
        SseEvent {
            event: self.event.map(String::from),
            data: String::from(self.data),
            id: self.id.map(String::from),
        }
    }
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

/// Where decoded events go: the caller's callback.
type Emit<'e> = dyn FnMut(Result<SseEventRef<'_>, SseError>) + 'e;

/// Push-based SSE decoder. Feed bytes with [`SseDecoder::push_with`] and handle each event as
/// it is decoded (borrowed, no allocation), or with [`SseDecoder::push`] and take owned events
/// with [`SseDecoder::poll`].
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
    /// The data of the event being read, unless it is `data_in_chunk`.
    data: String,
    /// While a chunk is being decoded: the event's data so far is this range of it.
    data_in_chunk: Option<Range<usize>>,
    has_data: bool,
    event_type: Option<String>,
    last_id: Option<String>,
    retry_ms: Option<u64>,
    /// Events decoded by [`SseDecoder::push`], waiting for [`SseDecoder::poll`].
    queue: VecDeque<Result<SseEvent, SseError>>,
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
            data_in_chunk: None,
            has_data: false,
            event_type: None,
            last_id: None,
            retry_ms: None,
            queue: VecDeque::new(),
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

    /// Feeds the next chunk of the stream; its events wait for [`SseDecoder::poll`].
    pub fn push(&mut self, chunk: &[u8]) {
        let mut queue = core::mem::take(&mut self.queue);
        self.push_with(chunk, |e| queue.push_back(e.map(|e| e.to_event())));
        self.queue = queue;
    }

    /// The next event decoded by [`SseDecoder::push`], or a note that one was dropped.
    pub fn poll(&mut self) -> Option<Result<SseEvent, SseError>> {
        self.queue.pop_front()
    }

    /// Feeds the next chunk of the stream and hands each event decoded from it to `emit`, in
    /// order, as soon as it is complete.
    pub fn push_with(
        &mut self,
        chunk: &[u8],
        mut emit: impl FnMut(Result<SseEventRef<'_>, SseError>),
    ) {
        self.push_to(chunk, &mut emit);
    }

    /// [`SseDecoder::push_with`], not generic: compiled once, in this crate, with its speed
    /// settings (a generic function would be compiled in each crate that calls it, with that
    /// crate's size settings).
    #[inline(never)]
    fn push_to(&mut self, mut chunk: &[u8], emit: &mut Emit<'_>) {
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
        let mut rest = chunk;
        // A line begun in an earlier chunk is completed first, from the line buffer.
        if !self.line.is_empty() || self.discarding_line {
            let Some(pos) = memchr::memchr2(b'\n', b'\r', rest) else {
                self.append_line_bytes(rest, emit);
                return;
            };
            self.append_line_bytes(&rest[..pos], emit);
            self.end_line(emit);
            rest = &rest[self.after_line_end(rest, pos)..];
        }
        // Fast path: the chunk is checked as UTF-8 once, in one pass, and its lines are then
        // handled as `&str` slices of it, with no further checks and no copies.
        let text = match simdutf8::basic::from_utf8(rest) {
            Ok(text) => text,
            // Rare (a character cut at the chunk's end, or invalid bytes): find the valid part.
            Err(_) => match core::str::from_utf8(rest) {
                Ok(text) => text,
                Err(e) => core::str::from_utf8(&rest[..e.valid_up_to()]).unwrap_or_default(),
            },
        };
        let bytes = text.as_bytes();
        let mut at = 0;
        loop {
            // The blank line that ends an event needs no search.
            let end = match bytes.get(at) {
                Some(b'\n') => at,
                Some(_) => match memchr::memchr2(b'\n', b'\r', &bytes[at..]) {
                    Some(pos) => at + pos,
                    None => break,
                },
                None => break,
            };
            self.complete_line(text, at..end, emit);
            at = self.after_line_end(rest, end);
        }
        // Slow path, for what follows invalid UTF-8 (or a character cut at the chunk's end):
        // line by line from the bytes, each line decoded on its own.
        let mut tail = &rest[at..];
        while let Some(pos) = memchr::memchr2(b'\n', b'\r', tail) {
            let line = String::from_utf8_lossy(&tail[..pos]);
            self.complete_owned_line(text, &line, pos, emit);
            tail = &tail[self.after_line_end(tail, pos)..];
        }
        // The event goes on in the next chunk: its data can no longer point into this one.
        self.own_data(text);
        self.append_line_bytes(tail, emit);
    }

    /// Where the line ending at `bytes[end]` (a CR or LF) is over: past a CRLF pair; a CR at
    /// the very end of the chunk may be the first half of one.
    fn after_line_end(&mut self, bytes: &[u8], end: usize) -> usize {
        let next = end + 1;
        if bytes[end] == b'\r' {
            match bytes.get(next) {
                Some(b'\n') => return next + 1,
                Some(_) => {}
                None => self.after_cr = true,
            }
        }
        next
    }

    /// Length of the data of the event being read.
    fn data_len(&self) -> usize {
        match &self.data_in_chunk {
            Some(r) => r.len(),
            None => self.data.len(),
        }
    }

    /// Moves data that points into the chunk `text` into the data buffer.
    fn own_data(&mut self, text: &str) {
        if let Some(r) = self.data_in_chunk.take() {
            self.data.clear();
            self.data.push_str(text.get(r).unwrap_or_default());
        }
    }

    /// A complete line of the chunk `text` (the `line` range, without its end).
    fn complete_line(&mut self, text: &str, line: Range<usize>, emit: &mut Emit<'_>) {
        if line.is_empty() {
            self.dispatch(text, emit);
        } else if line.len() + self.data_len() > self.limit.saturating_add(16) {
            self.event_too_large(emit);
        } else {
            self.process_field(text, FieldLine::InChunk(line), emit);
        }
    }

    /// A complete line decoded on its own, `raw_len` bytes long in the stream (the limit
    /// counts the bytes received, before invalid UTF-8 became U+FFFD).
    fn complete_owned_line(&mut self, text: &str, line: &str, raw_len: usize, emit: &mut Emit<'_>) {
        if line.is_empty() {
            self.dispatch(text, emit);
        } else if raw_len + self.data_len() > self.limit.saturating_add(16) {
            self.event_too_large(emit);
        } else {
            self.process_field(text, FieldLine::Owned(line), emit);
        }
    }

    /// Drops the event being read (once) and reports it.
    fn event_too_large(&mut self, emit: &mut Emit<'_>) {
        if !self.discarding_event {
            self.discarding_event = true;
            self.clear_data();
            emit(Err(SseError::EventTooLarge { limit: self.limit }));
        }
    }

    fn clear_data(&mut self) {
        self.data.clear();
        self.data_in_chunk = None;
        self.has_data = false;
    }

    /// Ends the stream. An event not terminated by a blank line is discarded, as the SSE
    /// standard requires; returns true when that happened.
    pub fn finish(&mut self) -> bool {
        let pending = !self.line.is_empty() || self.has_data;
        self.line.clear();
        self.clear_data();
        self.event_type = None;
        self.discarding_event = false;
        self.discarding_line = false;
        pending
    }

    fn append_line_bytes(&mut self, bytes: &[u8], emit: &mut Emit<'_>) {
        if bytes.is_empty() || self.discarding_line {
            return;
        }
        if self.line.len() + bytes.len() + self.data_len() > self.limit.saturating_add(16) {
            self.discarding_line = true;
            self.line.clear();
            self.event_too_large(emit);
            return;
        }
        self.line.extend_from_slice(bytes);
    }

    /// The buffered line is complete.
    fn end_line(&mut self, emit: &mut Emit<'_>) {
        if self.discarding_line {
            self.discarding_line = false;
            self.line.clear();
            return;
        }
        if self.line.is_empty() {
            self.dispatch("", emit);
            return;
        }
        let line = core::mem::take(&mut self.line);
        match core::str::from_utf8(&line) {
            Ok(text) => self.process_field("", FieldLine::Owned(text), emit),
            Err(_) => {
                self.process_field("", FieldLine::Owned(&String::from_utf8_lossy(&line)), emit)
            }
        }
        // Reuse the allocation.
        self.line = line;
        self.line.clear();
    }

    /// One field line (not empty), from the chunk `text` or decoded on its own.
    #[inline(always)]
    fn process_field(&mut self, text: &str, line: FieldLine<'_>, emit: &mut Emit<'_>) {
        let (start, s) = match &line {
            FieldLine::InChunk(r) => (Some(r.start), text.get(r.clone()).unwrap_or_default()),
            FieldLine::Owned(s) => (None, *s),
        };
        // Field names are short: a plain loop finds the colon sooner than `split_once`'s
        // general pattern search.
        let (name, value) = match s.as_bytes().iter().position(|&b| b == b':') {
            Some(0) => return, // comment
            Some(p) => {
                let value = s.get(p + 1..).unwrap_or_default();
                (
                    s.get(..p).unwrap_or_default(),
                    value.strip_prefix(' ').unwrap_or(value),
                )
            }
            None => (s, ""),
        };
        match Field::of(name.as_bytes()) {
            Field::Data => {
                if self.discarding_event {
                    return;
                }
                // The data so far, the line feed that joins this line to it, and this line.
                if self.data_len() + usize::from(self.has_data) + value.len() > self.limit {
                    self.event_too_large(emit);
                    return;
                }
                match start {
                    // The first data line, in the chunk: point at it.
                    Some(line_start) if !self.has_data => {
                        let from = line_start + (s.len() - value.len());
                        self.data_in_chunk = Some(from..from + value.len());
                    }
                    _ => {
                        self.own_data(text);
                        if self.has_data {
                            self.data.push('\n');
                        }
                        self.data.push_str(value);
                    }
                }
                self.has_data = true;
            }
            // `message` is the default type: kept as `None` (no allocation per event).
            Field::Event if is_message(value.as_bytes()) => self.event_type = None,
            Field::Event => self.event_type = Some(String::from(value)),
            Field::Id if !value.as_bytes().contains(&0) => match &mut self.last_id {
                // Most streams repeat or increment ids: reuse the buffer.
                Some(old) if same_bytes(old.as_bytes(), value.as_bytes()) => {}
                Some(old) => {
                    old.clear();
                    old.push_str(value);
                }
                None => self.last_id = Some(String::from(value)),
            },
            Field::Retry if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                // Saturate absurd values instead of overflowing.
                let mut ms: u64 = 0;
                for d in value.bytes() {
                    ms = ms.saturating_mul(10).saturating_add(u64::from(d - b'0'));
                }
                self.retry_ms = Some(ms);
            }
            _ => {}
        }
    }

    /// A blank line: the event is complete.
    fn dispatch(&mut self, text: &str, emit: &mut Emit<'_>) {
        if self.discarding_event {
            self.discarding_event = false;
            self.event_type = None;
            self.clear_data();
            return;
        }
        if !self.has_data {
            self.event_type = None;
            return;
        }
        let data = match &self.data_in_chunk {
            Some(r) => text.get(r.clone()).unwrap_or_default(),
            None => self.data.as_str(),
        };
        emit(Ok(SseEventRef {
            event: self.event_type.as_deref(),
            data,
            id: self.last_id.as_deref(),
        }));
        self.event_type = None;
        self.clear_data();
    }
}

// Field names and values are compared by length and 4-byte words rather than with `==` on
// strings: on wasm32 LLVM leaves a string comparison as a call to a byte-by-byte `memcmp`,
// which costs about 5 % of the decoder's time when it happens on every line.

/// The fields the decoder acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Data,
    Event,
    Id,
    Retry,
    /// Any other name: ignored, as the standard says.
    Other,
}

impl Field {
    /// The field a line's name is.
    #[inline(always)]
    fn of(name: &[u8]) -> Field {
        match name.len() {
            4 if word(name, 0) == u32::from_le_bytes(*b"data") => Field::Data,
            2 if name[0] == b'i' && name[1] == b'd' => Field::Id,
            5 if word(name, 0) == u32::from_le_bytes(*b"even") && name[4] == b't' => Field::Event,
            5 if word(name, 0) == u32::from_le_bytes(*b"retr") && name[4] == b'y' => Field::Retry,
            _ => Field::Other,
        }
    }
}

/// The four bytes of `b` from `at` (the caller has checked the length).
#[inline(always)]
fn word(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// `v == b"message"`, the default event type.
#[inline(always)]
fn is_message(v: &[u8]) -> bool {
    v.len() == 7
        && word(v, 0) == u32::from_le_bytes(*b"mess")
        && word(v, 3) == u32::from_le_bytes(*b"sage")
}

/// `a == b`, four bytes at a time.
#[inline(always)]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let (mut a4, mut b4) = (a.chunks_exact(4), b.chunks_exact(4));
    if (&mut a4)
        .zip(&mut b4)
        .any(|(x, y)| word(x, 0) != word(y, 0))
    {
        return false;
    }
    a4.remainder()
        .iter()
        .zip(b4.remainder())
        .fold(0, |diff, (x, y)| diff | (x ^ y))
        == 0
}

/// A field line: a range of the chunk being decoded, or text decoded on its own.
enum FieldLine<'a> {
    InChunk(Range<usize>),
    Owned(&'a str),
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

    /// `stream` decoded whole and in every cut into two chunks, and with every chunk size:
    /// the same events each time (returned).
    fn decode_every_way(stream: &[u8], limit: usize) -> Vec<Result<SseEvent, SseError>> {
        let whole = decode_all(&[stream], limit);
        for cut in 0..stream.len() {
            let two = decode_all(&[&stream[..cut], &stream[cut..]], limit);
            assert_eq!(two, whole, "cut at {cut}");
        }
        for size in 1..stream.len() {
            let chunks: Vec<&[u8]> = stream.chunks(size).collect();
            assert_eq!(decode_all(&chunks, limit), whole, "chunks of {size}");
        }
        whole
    }

    #[test]
    fn an_event_of_exactly_the_limit_is_kept_and_one_byte_more_is_dropped() {
        let x = |n: usize| "x".repeat(n);
        let stream = alloc::format!(
            "data: {}

",
            x(50)
        );
        assert_eq!(
            decode_every_way(stream.as_bytes(), 50),
            vec![ev(None, &x(50), None)]
        );
        let stream = alloc::format!(
            "data: {}

data: ok

",
            x(51)
        );
        assert_eq!(
            decode_every_way(stream.as_bytes(), 50),
            vec![
                Err(SseError::EventTooLarge { limit: 50 }),
                ev(None, "ok", None)
            ]
        );
        // Two lines count their joining line feed: 24 + 1 + 25 bytes.
        let stream = alloc::format!(
            "data: {}
data: {}

",
            x(24),
            x(25)
        );
        let joined = alloc::format!(
            "{}
{}",
            x(24),
            x(25)
        );
        assert_eq!(
            decode_every_way(stream.as_bytes(), 50),
            vec![ev(None, &joined, None)]
        );
        let stream = alloc::format!(
            "data: {}
data: {}

data: ok

",
            x(24),
            x(26)
        );
        assert_eq!(
            decode_every_way(stream.as_bytes(), 50),
            vec![
                Err(SseError::EventTooLarge { limit: 50 }),
                ev(None, "ok", None)
            ]
        );
    }

    #[test]
    fn a_line_longer_than_the_limit_drops_its_event_before_it_ends() {
        // A line is held back only up to the limit and a little more (for its field name):
        // one without end is not buffered whole.
        let mut d = SseDecoder::new(50);
        let mut got = vec![];
        d.push_with(
            alloc::format!("data: {}", "x".repeat(100)).as_bytes(),
            |e| got.push(e.map(|e| e.to_event())),
        );
        assert_eq!(got, vec![Err(SseError::EventTooLarge { limit: 50 })]);
        // An `id:` line is such a line too: 66 bytes are read, 67 drop the event.
        let stream = alloc::format!(
            "id: {}
data: ok

",
            "7".repeat(62)
        );
        assert_eq!(
            decode_every_way(stream.as_bytes(), 50),
            vec![ev(None, "ok", Some(&"7".repeat(62)))]
        );
        let stream = alloc::format!(
            "id: {}
data: ok

data: next

",
            "7".repeat(63)
        );
        assert_eq!(
            decode_every_way(stream.as_bytes(), 50),
            vec![
                Err(SseError::EventTooLarge { limit: 50 }),
                ev(None, "next", None)
            ]
        );
    }

    #[test]
    fn finish_says_whether_an_unterminated_event_was_dropped() {
        let mut d = SseDecoder::new(100);
        d.push(
            b"data: done

",
        );
        assert!(!d.finish());
        d.push(b"data: cut off");
        assert!(d.finish());
        d.push(
            b"data: x
",
        );
        assert!(d.finish(), "data without its blank line");
        assert!(!d.finish(), "nothing left after finish");
    }

    #[test]
    fn an_id_that_differs_only_in_its_last_bytes_replaces_the_last_one() {
        // Seven bytes: compared four at a time, then the three left one by one.
        let mut d = SseDecoder::new(100);
        d.push(
            b"id: 12345ab
data: 1

id: 12345ba
data: 2

id: 1234xyz
data: 3

",
        );
        let ids: Vec<_> = core::iter::from_fn(|| d.poll())
            .map(|e| e.map(|e| e.id))
            .collect();
        assert_eq!(
            ids,
            vec![
                Ok(Some("12345ab".into())),
                Ok(Some("12345ba".into())),
                Ok(Some("1234xyz".into()))
            ]
        );
        assert_eq!(d.last_event_id(), Some("1234xyz"));
    }

    #[test]
    fn invalid_utf8_becomes_replacement_character() {
        let out = decode_all(&[b"data: a\xFFb\ndata: \xE2\x82\n\n"], 100);
        assert_eq!(out, vec![ev(None, "a\u{FFFD}b\n\u{FFFD}", None)]);
    }

    #[test]
    fn borrowed_and_queued_events_agree_for_every_chunking() {
        let stream = b"id: 1\nevent: progress\ndata: {\"a\":1}\n\ndata: x\r\ndata: y\r\n\r\n: c\nid: 22\ndata: \xC3\xA9\n\ndata: \xFFz\ndata: w\n\n";
        let whole = decode_all(&[stream], 100);
        assert_eq!(whole.len(), 4);
        for size in 1..stream.len() {
            let mut d = SseDecoder::new(100);
            let mut got = vec![];
            for c in stream.chunks(size) {
                d.push_with(c, |e| got.push(e.map(|e| e.to_event())));
            }
            assert_eq!(got, whole, "chunk size {size}");
            // Alternating between the two ways of taking events changes nothing either.
            let mut d = SseDecoder::new(100);
            let mut got = vec![];
            for (i, c) in stream.chunks(size).enumerate() {
                if i % 2 == 0 {
                    d.push(c);
                    while let Some(e) = d.poll() {
                        got.push(e);
                    }
                } else {
                    d.push_with(c, |e| got.push(e.map(|e| e.to_event())));
                }
            }
            assert_eq!(got, whole, "chunk size {size}, alternating");
        }
    }

    #[test]
    fn invalid_bytes_count_as_received_against_the_limit() {
        // 100 invalid bytes become 300 bytes of U+FFFD; the limit counts the 100 received, so
        // the result is the same however the line is cut (found by the sse_decode fuzz target).
        let mut stream = vec![b'x', b':'];
        stream.extend([0x97u8; 100]);
        stream.extend(b"\r\ndata: ok\n\n");
        let whole = decode_all(&[&stream], 256);
        assert_eq!(whole, vec![ev(None, "ok", None)]);
        for cut in 0..stream.len() {
            assert_eq!(
                decode_all(&[&stream[..cut], &stream[cut..]], 256),
                whole,
                "cut at {cut}"
            );
        }
    }

    #[test]
    fn field_names_and_values_are_matched_exactly() {
        assert_eq!(Field::of(b"data"), Field::Data);
        assert_eq!(Field::of(b"event"), Field::Event);
        assert_eq!(Field::of(b"id"), Field::Id);
        assert_eq!(Field::of(b"retry"), Field::Retry);
        for other in [
            &b"dat"[..],
            b"datA",
            b"Data",
            b"datas",
            b"evenT",
            b"eventt",
            b"i",
            b"ix",
            b"xd",
            b"ID",
            b"retr",
            b"retrY",
            b"",
        ] {
            assert_eq!(Field::of(other), Field::Other, "{other:?}");
        }
        assert!(is_message(b"message"));
        for other in [
            &b"messag"[..],
            b"messages",
            b"Message",
            b"messagE",
            b"mess_ge",
        ] {
            assert!(!is_message(other), "{other:?}");
        }
        for (a, b) in [
            ("", ""),
            ("1", "1"),
            ("1234", "1234"),
            ("12345", "12345"),
            ("123456789", "123456789"),
        ] {
            assert!(same_bytes(a.as_bytes(), b.as_bytes()));
        }
        for (a, b) in [
            ("", "1"),
            ("1", "2"),
            ("1234", "1235"),
            ("12345", "12346"),
            ("02345", "12345"),
            ("1234", "12345"),
        ] {
            assert!(!same_bytes(a.as_bytes(), b.as_bytes()), "{a} {b}");
        }
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
