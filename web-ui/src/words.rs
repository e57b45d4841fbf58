//! Counts in words for people: one of a thing is "1 server", not "1 servers".

/// `n` followed by the noun for that many: `one` for exactly one, else `many`.
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// How many bytes the base64 text `b64` stands for (whitespace ignored, with or without its
/// `=` padding): the size of the file it holds, not of its text.
pub fn base64_decoded_len(b64: &str) -> usize {
    let chars = b64.bytes().filter(|c| !c.is_ascii_whitespace()).count();
    let padding = b64
        .trim_end()
        .bytes()
        .rev()
        .take(2)
        .take_while(|&c| c == b'=')
        .count();
    chars.saturating_sub(padding) * 3 / 4
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_counted_as_one() {
        assert_eq!(counted(1, "server", "servers"), "1 server");
        assert_eq!(counted(0, "server", "servers"), "0 servers");
        assert_eq!(counted(12, "byte", "bytes"), "12 bytes");
    }

    #[test]
    fn base64_counts_the_bytes_it_holds() {
        for (text, bytes) in [
            ("", 0),
            ("QQ==", 1),
            ("QUI=", 2),
            ("QUJD", 3),
            ("QQ", 1),
            ("QUI", 2),
            ("QUJD\nREVG\r\n", 6),
            ("QUJDRA==\n", 4),
        ] {
            assert_eq!(base64_decoded_len(text), bytes, "{text:?}");
        }
    }
}
