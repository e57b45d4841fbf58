//! Counts in words for people: one of a thing is "1 server", not "1 servers".

/// `n` followed by the noun for that many: `one` for exactly one, else `many`.
pub fn counted<N: std::fmt::Display + PartialEq + From<u8>>(n: N, one: &str, many: &str) -> String {
    let noun = if n == N::from(1) { one } else { many };
    format!("{n} {noun}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_counted_as_one() {
        assert_eq!(counted(1, "server", "servers"), "1 server");
        assert_eq!(counted(0, "server", "servers"), "0 servers");
        assert_eq!(counted(12, "byte", "bytes"), "12 bytes");
        assert_eq!(
            counted(u64::MAX, "item", "items"),
            "18446744073709551615 items"
        );
    }
}
