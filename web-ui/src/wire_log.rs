//! The wire log's store: every JSON-RPC message of a connection as JSON text, serialised once
//! when it arrives, bounded in count and in bytes so that a long session or a 50 MB result
//! never grows the tab without end. The oldest lines go first; the log says how many went.

use serde_json::Value;
use std::collections::VecDeque;
use std::sync::Arc;

/// Lines kept; older ones are dropped.
pub const MAX_LINES: usize = 2_000;
/// Bytes of message text kept over all lines; the oldest lines are dropped to stay under it.
pub const MAX_BYTES: usize = 32 << 20;
/// Bytes kept of one message; the rest is counted, not kept.
pub const MAX_MESSAGE_BYTES: usize = 1 << 20;
/// Notifications and log messages kept (see [`Notes`]).
pub const MAX_NOTES: usize = 1_000;

/// A line of the wire log.
#[derive(Clone, Debug, PartialEq)]
pub struct WireLine {
    /// Its place in the connection's log (1 for the first message), unique and increasing.
    pub seq: u64,
    /// Sent by us.
    pub sent: bool,
    /// HTTP status of the response that carried it.
    pub status: Option<u16>,
    /// HTTP headers of the request or response.
    pub headers: Vec<(String, String)>,
    /// The message as JSON text: all of it, or its first [`MAX_MESSAGE_BYTES`].
    pub text: String,
    /// The length of the whole message's JSON text.
    pub bytes: usize,
    /// When it was logged (milliseconds since the Unix epoch, the page's clock).
    pub at_ms: f64,
    /// A response (or error): how long after its request it came, in milliseconds (for an
    /// answer of ours to the server, how long we took).
    pub took_ms: Option<f64>,
}

impl WireLine {
    /// Only the beginning of the message was kept.
    pub fn is_cut(&self) -> bool {
        self.text.len() < self.bytes
    }
}

/// The lines of one connection, oldest first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WireLog {
    lines: VecDeque<Arc<WireLine>>,
    kept_bytes: usize,
    dropped: u64,
    next_seq: u64,
    /// Requests not answered yet: who sent it (true: us), its id as JSON text, when.
    asked: VecDeque<(bool, String, f64)>,
}

/// Requests whose answer is waited for to time it; beyond, the oldest are forgotten (a
/// server that never answers cannot grow the list).
pub const MAX_TIMED: usize = 256;

/// What a message is, for timing: a request (`Some((true, id))`), a response or error
/// (`Some((false, id))`), or a notification (`None`). The id as JSON text.
fn role(message: &Value) -> Option<(bool, String)> {
    let id = message.get("id").filter(|id| !id.is_null())?.to_string();
    if message.get("method").is_some() {
        Some((true, id))
    } else if message.get("result").is_some() || message.get("error").is_some() {
        Some((false, id))
    } else {
        None
    }
}

impl WireLog {
    /// Logs a message at `at_ms` (milliseconds since the Unix epoch), dropping the oldest
    /// lines beyond [`MAX_LINES`] or [`MAX_BYTES`]; a response is timed from its request.
    pub fn push(
        &mut self,
        sent: bool,
        status: Option<u16>,
        headers: Vec<(String, String)>,
        message: &Value,
        at_ms: f64,
    ) {
        let took_ms = match role(message) {
            Some((true, id)) => {
                if self.asked.len() == MAX_TIMED {
                    self.asked.pop_front();
                }
                self.asked.push_back((sent, id, at_ms));
                None
            }
            // An answer goes the other way from its request.
            Some((false, id)) => self
                .asked
                .iter()
                .position(|(by_us, asked, _)| *by_us != sent && *asked == id)
                .and_then(|i| self.asked.remove(i))
                .map(|(_, _, asked_at)| (at_ms - asked_at).max(0.0)),
            None => None,
        };
        let (text, bytes) = serialise_capped(message, MAX_MESSAGE_BYTES);
        self.next_seq += 1;
        self.kept_bytes += text.len();
        self.lines.push_back(Arc::new(WireLine {
            seq: self.next_seq,
            sent,
            status,
            headers,
            text,
            bytes,
            at_ms,
            took_ms,
        }));
        while self.lines.len() > MAX_LINES || self.kept_bytes > MAX_BYTES {
            let Some(old) = self.lines.pop_front() else {
                break;
            };
            self.kept_bytes -= old.text.len();
            self.dropped += 1;
        }
    }

    /// The lines kept, oldest first.
    pub fn lines(&self) -> impl DoubleEndedIterator<Item = &Arc<WireLine>> {
        self.lines.iter()
    }

    /// How many lines are kept.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Nothing logged (or everything dropped).
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// How many of the oldest lines were dropped to stay within the limits.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Bytes of message text kept.
    pub fn kept_bytes(&self) -> usize {
        self.kept_bytes
    }

    /// Forgets every line (asked for by the person: none counts as dropped). Later lines go
    /// on numbering from where the log was, so no number is used twice.
    pub fn clear(&mut self) {
        self.lines.clear();
        self.asked.clear();
        self.kept_bytes = 0;
        self.dropped = 0;
    }
}

/// `message` as JSON text, keeping at most `max` bytes (cut at a character boundary), and the
/// length of the whole text. The whole is never built: a 50 MB result costs a walk, not a copy.
pub fn serialise_capped(message: &Value, max: usize) -> (String, usize) {
    struct Capped {
        kept: Vec<u8>,
        max: usize,
        total: usize,
    }
    impl std::io::Write for Capped {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let room = self.max.saturating_sub(self.kept.len());
            self.kept.extend_from_slice(&buf[..buf.len().min(room)]);
            self.total += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut out = Capped {
        kept: Vec::new(),
        max,
        total: 0,
    };
    // Writing a `Value` to a writer that never fails cannot fail.
    let _ = serde_json::to_writer(&mut out, message);
    let text = match String::from_utf8(out.kept) {
        Ok(t) => t,
        Err(e) => {
            // Cut inside a character: keep what comes before it.
            let valid = e.utf8_error().valid_up_to();
            let mut bytes = e.into_bytes();
            bytes.truncate(valid);
            String::from_utf8(bytes).unwrap_or_default()
        }
    };
    (text, out.total)
}

/// Lines whose text contains `needle` (already lower-cased), ignoring case; all for "".
pub fn matches(line: &WireLine, needle: &str) -> bool {
    if needle.is_empty() {
        return true;
    }
    if needle.is_ascii() {
        // No copy of a large message per keystroke.
        let n = needle.as_bytes();
        return line
            .text
            .as_bytes()
            .windows(n.len())
            .any(|w| w.eq_ignore_ascii_case(n));
    }
    crate::search::lowercase(&line.text).contains(needle)
}

/// The log as JSON lines (one message per line, with its direction, HTTP status and headers,
/// credentials redacted). A message kept only in part is exported as the text kept
/// (`messageStart`) and the whole message's length (`messageBytes`), never as broken JSON.
pub fn export(log: &WireLog) -> String {
    log.lines()
        .map(|l| {
            let headers: serde_json::Map<String, Value> = l
                .headers
                .iter()
                .map(|(k, v)| (k.clone(), Value::String(redact(k, v))))
                .collect();
            let mut head = serde_json::json!({
                "direction": if l.sent { "sent" } else { "received" },
                "atMs": l.at_ms,
                "status": l.status,
                "headers": headers,
            });
            if let Some(took) = l.took_ms {
                head["tookMs"] = took.into();
            }
            if l.is_cut() {
                head["messageStart"] = Value::String(l.text.clone());
                head["messageBytes"] = l.bytes.into();
                return head.to_string();
            }
            // The kept text is the whole message's JSON: spliced in, not parsed again.
            let head = head.to_string();
            format!("{},\"message\":{}}}", &head[..head.len() - 1], l.text)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Hides credentials in logged headers.
pub fn redact(name: &str, value: &str) -> String {
    if name.eq_ignore_ascii_case("authorization") || name.eq_ignore_ascii_case("cookie") {
        let scheme = value.split_whitespace().next().unwrap_or("");
        format!("{scheme} [redacted]")
    } else {
        value.to_string()
    }
}

/// A message we sent over Streamable HTTP as a `curl` command that sends it again: the POST
/// to `url` with the same headers and body. Credentials are not copied: an `Authorization`
/// header becomes `Bearer $MCP_TOKEN` (set it in the shell), a `DPoP` proof (good for one
/// request only) and a `Cookie` are left out. Everything is quoted for a POSIX shell.
pub fn as_curl(url: &str, headers: &[(String, String)], body: &str) -> String {
    let mut cmd = format!("curl -sS -N -X POST {}", shell_quote(url));
    for (name, value) in headers {
        let arg = if name.eq_ignore_ascii_case("authorization") {
            let scheme = value
                .split_whitespace()
                .next()
                .filter(|s| s.chars().all(|c| c.is_ascii_alphanumeric()))
                .unwrap_or("Bearer");
            // The token from the shell's variable, in double quotes so that it is expanded.
            format!(
                "{}\"$MCP_TOKEN\"",
                shell_quote(&format!("{name}: {scheme} "))
            )
        } else if name.eq_ignore_ascii_case("dpop") || name.eq_ignore_ascii_case("cookie") {
            continue;
        } else {
            shell_quote(&format!("{name}: {value}"))
        };
        cmd.push_str(" \\\n  -H ");
        cmd.push_str(&arg);
    }
    cmd.push_str(" \\\n  --data-raw ");
    cmd.push_str(&shell_quote(body));
    cmd
}

/// `text` in single quotes for a POSIX shell (a `'` inside becomes `'\''`).
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// A connection's notifications and log messages, oldest first, each with a number that
/// stays its own (the list on screen is keyed by it: a new note adds one row, not 200).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Notes {
    items: VecDeque<(u64, String)>,
    next: u64,
}

impl Notes {
    /// Appends a note, dropping the oldest beyond `max`.
    pub fn push(&mut self, text: String, max: usize) {
        self.next += 1;
        self.items.push_back((self.next, text));
        while self.items.len() > max {
            self.items.pop_front();
        }
    }
    /// The newest `n` notes, newest first, with their numbers.
    pub fn newest(&self, n: usize) -> Vec<(u64, String)> {
        self.items.iter().rev().take(n).cloned().collect()
    }
    /// How many notes are kept.
    pub fn len(&self) -> usize {
        self.items.len()
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
    /// Forgets every note; later ones go on numbering from where the notes were.
    pub fn clear(&mut self) {
        self.items.clear();
    }
}

#[cfg(test)]
mod tests {

    /// The command run by a real POSIX shell, with a `curl` that prints its arguments: each
    /// comes out exactly as meant, whatever quotes, `$` and backquotes are in the values.
    #[test]
    #[cfg(unix)]
    fn the_curl_command_gives_curl_the_headers_and_body_exactly() {
        let headers: Vec<(String, String)> = [
            ("Content-Type", "application/json"),
            ("Mcp-Session-Id", "a'b"),
            ("Authorization", "Bearer secret-token"),
            ("DPoP", "proof"),
            ("X-Odd", "$HOME `id` \"q\" \\ '"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let body = r#"{"a":"it's $HOME `x` \\ \n"}"#;
        let url = "http://127.0.0.1:1/mcp?x='y'&z=$1";
        let cmd = as_curl(url, &headers, body);
        assert!(
            !cmd.contains("secret-token") && !cmd.contains("proof"),
            "{cmd}"
        );
        let script = format!(
            "curl() {{ for a in \"$@\"; do printf '%s\\0' \"$a\"; done; }}\nMCP_TOKEN=tok\n{cmd}\n"
        );
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(&script)
            .output()
            .unwrap();
        let printed = String::from_utf8(out.stdout).unwrap();
        let args: Vec<&str> = printed.strip_suffix('\0').unwrap().split('\0').collect();
        assert_eq!(
            args,
            vec![
                "-sS",
                "-N",
                "-X",
                "POST",
                url,
                "-H",
                "Content-Type: application/json",
                "-H",
                "Mcp-Session-Id: a'b",
                "-H",
                "Authorization: Bearer tok",
                "-H",
                "X-Odd: $HOME `id` \"q\" \\ '",
                "--data-raw",
                body,
            ]
        );
    }
    use super::*;
    use serde_json::json;

    fn push(log: &mut WireLog, message: &Value) {
        log.push(true, Some(200), vec![], message, 0.0);
    }

    #[test]
    fn an_answer_is_timed_from_its_request_either_way() {
        let mut log = WireLog::default();
        log.push(
            true,
            None,
            vec![],
            &json!({"id": 1, "method": "tools/call"}),
            1_000.0,
        );
        log.push(
            true,
            None,
            vec![],
            &json!({"id": 2, "method": "tools/list"}),
            1_010.0,
        );
        // A server request with the same id as one of ours: another id space.
        log.push(
            false,
            None,
            vec![],
            &json!({"id": 1, "method": "roots/list"}),
            1_020.0,
        );
        log.push(
            false,
            None,
            vec![],
            &json!({"method": "notifications/progress"}),
            1_030.0,
        );
        log.push(
            false,
            Some(200),
            vec![],
            &json!({"id": 2, "result": {}}),
            1_050.0,
        );
        log.push(
            true,
            None,
            vec![],
            &json!({"id": 1, "result": {"roots": []}}),
            1_060.0,
        );
        log.push(
            false,
            Some(200),
            vec![],
            &json!({"id": 1, "error": {"code": 1, "message": "m"}}),
            1_250.0,
        );
        // An answer to nothing asked (or asked twice) is not timed.
        log.push(
            false,
            Some(200),
            vec![],
            &json!({"id": 2, "result": {}}),
            1_300.0,
        );
        let took: Vec<Option<f64>> = log.lines().map(|l| l.took_ms).collect();
        assert_eq!(
            took,
            [
                None,
                None,
                None,
                None,
                Some(40.0),
                Some(40.0),
                Some(250.0),
                None
            ]
        );
        assert_eq!(log.lines().map(|l| l.at_ms).next_back(), Some(1_300.0));
        // Bounded: a server that never answers cannot grow what is waited for.
        for i in 0..(MAX_TIMED + 10) {
            log.push(
                true,
                None,
                vec![],
                &json!({"id": i + 100, "method": "ping"}),
                0.0,
            );
        }
        assert_eq!(log.asked.len(), MAX_TIMED);
        let out = export(&log);
        assert!(
            out.lines()
                .any(|l| l.contains("\"tookMs\":250.0") || l.contains("\"tookMs\":250")),
            "{}",
            &out[..300]
        );
    }

    #[test]
    fn a_message_is_serialised_once_and_whole_when_small() {
        let mut log = WireLog::default();
        let m = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
        push(&mut log, &m);
        let line = log.lines().next().unwrap();
        assert_eq!(line.text, m.to_string());
        assert_eq!(line.bytes, line.text.len());
        assert!(!line.is_cut());
        assert_eq!(line.seq, 1);
    }

    #[test]
    fn a_huge_message_is_kept_in_part_and_its_length_counted() {
        let big = "é".repeat(MAX_MESSAGE_BYTES); // two bytes each
        let m = json!({"result": {"content": [{"type": "text", "text": big}]}});
        let (text, bytes) = serialise_capped(&m, MAX_MESSAGE_BYTES);
        assert_eq!(bytes, m.to_string().len());
        assert!(text.len() <= MAX_MESSAGE_BYTES && text.len() >= MAX_MESSAGE_BYTES - 1);
        assert!(m.to_string().starts_with(&text));
    }

    #[test]
    fn clearing_forgets_every_line_and_note_and_never_reuses_a_number() {
        let mut log = WireLog::default();
        for i in 0..MAX_LINES + 2 {
            push(&mut log, &json!({"id": i}));
        }
        log.clear();
        assert!(log.is_empty());
        assert_eq!((log.dropped(), log.kept_bytes()), (0, 0));
        push(&mut log, &json!({"id": "after"}));
        assert_eq!(log.lines().next().unwrap().seq, (MAX_LINES + 3) as u64);

        let mut notes = Notes::default();
        notes.push("one".into(), 10);
        notes.clear();
        assert!(notes.is_empty());
        notes.push("two".into(), 10);
        assert_eq!(notes.newest(5), vec![(2, "two".to_string())]);
    }

    #[test]
    fn the_oldest_lines_go_beyond_the_count_limit() {
        let mut log = WireLog::default();
        for i in 0..MAX_LINES + 5 {
            push(&mut log, &json!({"id": i}));
        }
        assert_eq!(log.len(), MAX_LINES);
        assert_eq!(log.dropped(), 5);
        assert_eq!(log.lines().next().unwrap().text, r#"{"id":5}"#);
        assert_eq!(log.lines().last().unwrap().seq, (MAX_LINES + 5) as u64);
    }

    #[test]
    fn the_oldest_lines_go_beyond_the_byte_limit() {
        let mut log = WireLog::default();
        let big = json!("x".repeat(MAX_MESSAGE_BYTES * 2));
        // Lines kept up to the limit exactly (each keeps MAX_MESSAGE_BYTES of its text)...
        let fit = MAX_BYTES / MAX_MESSAGE_BYTES;
        for _ in 0..fit {
            push(&mut log, &big);
        }
        assert!(!log.is_empty());
        assert_eq!(
            (log.len(), log.dropped(), log.kept_bytes()),
            (fit, 0, MAX_BYTES)
        );
        // ... and beyond it, the oldest go.
        let n = fit + 3;
        for _ in fit..n {
            push(&mut log, &big);
        }
        assert!(log.kept_bytes() <= MAX_BYTES, "{}", log.kept_bytes());
        assert_eq!(log.len() + log.dropped() as usize, n);
        assert!(log.dropped() >= 3);
        assert!(log
            .lines()
            .all(|l| l.is_cut() && l.bytes == MAX_MESSAGE_BYTES * 2 + 2));
    }

    #[test]
    fn the_filter_ignores_case_without_copying() {
        let mut log = WireLog::default();
        push(
            &mut log,
            &json!({"method": "Tools/Call", "params": {"name": "Äpfel"}}),
        );
        let line = log.lines().next().unwrap();
        assert!(matches(line, ""));
        assert!(matches(line, "tools/call"));
        assert!(!matches(line, "tools/list"));
        assert!(matches(line, "äpfel"));
        // A needle longer than the text.
        assert!(!matches(line, &"x".repeat(500)));
    }

    #[test]
    fn the_export_is_one_json_object_per_line_with_credentials_hidden() {
        let mut log = WireLog::default();
        log.push(
            true,
            None,
            vec![("Authorization".into(), "Bearer secret".into())],
            &json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
            0.0,
        );
        let big = json!({"text": "y".repeat(MAX_MESSAGE_BYTES)});
        log.push(false, Some(200), vec![], &big, 0.0);
        let out = export(&log);
        let lines: Vec<Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0]["direction"], "sent");
        assert_eq!(lines[0]["message"]["method"], "ping");
        assert_eq!(lines[0]["headers"]["Authorization"], "Bearer [redacted]");
        assert!(!out.contains("secret"));
        assert_eq!(lines[1]["status"], 200);
        assert!(lines[1].get("message").is_none());
        assert_eq!(lines[1]["messageBytes"], big.to_string().len());
        assert!(lines[1]["messageStart"]
            .as_str()
            .unwrap()
            .starts_with("{\"text\":\"yyy"));
    }

    #[test]
    fn notes_keep_the_newest_each_with_its_own_number() {
        let mut notes = Notes::default();
        assert!(notes.is_empty());
        for i in 0..12 {
            notes.push(i.to_string(), 10);
        }
        assert!(!notes.is_empty());
        assert_eq!(notes.len(), 10);
        let newest = notes.newest(3);
        assert_eq!(
            newest,
            [
                (12, "11".to_string()),
                (11, "10".to_string()),
                (10, "9".to_string())
            ]
        );
        let all = notes.newest(100);
        assert_eq!(all.len(), 10);
        assert_eq!(all[9], (3, "2".to_string()));
    }
}
