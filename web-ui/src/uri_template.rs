//! RFC 6570 URI templates, the subset resource templates use: `{var}`, `{+var}`, `{#var}`,
//! `{/var}`, `{.var}`, `{?a,b}`, `{&a}`, `{;a}`. Hand-written: these few lines cover what MCP
//! resource templates use, and keep the app small.

/// The variable names of a template, in order, without duplicates.
pub fn variables(template: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        let Some(end) = rest[start..].find('}') else {
            break;
        };
        let expr = &rest[start + 1..start + end];
        let expr = expr.trim_start_matches(['+', '#', '/', '.', '?', '&', ';']);
        for name in expr.split(',') {
            let name = name
                .trim_end_matches('*')
                .split(':')
                .next()
                .unwrap_or("")
                .trim();
            if !name.is_empty() && !out.iter().any(|n| n == name) {
                out.push(name.to_string());
            }
        }
        rest = &rest[start + end + 1..];
    }
    out
}

/// `value` percent-encoded as RFC 6570 asks: all but the unreserved characters, or (for
/// `+` and `#`, `reserved`) all but the unreserved and reserved characters and the
/// percent-encoded triplets already in the value.
fn encode(value: &str, reserved: bool) -> String {
    let mut s = String::new();
    let bytes = value.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        let triplet = b == b'%'
            && bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit);
        let keep = b.is_ascii_alphanumeric()
            || b"-._~".contains(&b)
            || (reserved && (b":/?#[]@!$&'()*+,;=".contains(&b) || triplet));
        if keep {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

/// Expands a template with values (missing values expand to nothing).
pub fn expand(template: &str, value_of: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let Some(end) = rest[start..].find('}') else {
            out.push_str(&rest[start..]);
            return out;
        };
        let expr = &rest[start + 1..start + end];
        let (op, names) = match expr.chars().next() {
            Some(c @ ('+' | '#' | '/' | '.' | '?' | '&' | ';')) => (Some(c), &expr[1..]),
            _ => (None, expr),
        };
        let vals: Vec<(String, String)> = names
            .split(',')
            .map(|n| {
                let (name, prefix) = match n.trim_end_matches('*').split_once(':') {
                    // `{var:3}`: the first 3 characters of the value.
                    Some((name, len)) => (name, len.parse::<usize>().ok()),
                    None => (n.trim_end_matches('*'), None),
                };
                (name.to_string(), prefix)
            })
            .filter_map(|(n, prefix)| {
                let v = value_of(&n).filter(|v| !v.is_empty())?;
                let v = match prefix {
                    Some(len) => v.chars().take(len).collect(),
                    None => v,
                };
                Some((n, v))
            })
            .collect();
        let reserved = matches!(op, Some('+' | '#'));
        let enc: Vec<(String, String)> = vals
            .into_iter()
            .map(|(n, v)| (n, encode(&v, reserved)))
            .collect();
        if !enc.is_empty() {
            match op {
                Some('?') | Some('&') => {
                    out.push(op.unwrap_or('?'));
                    out.push_str(
                        &enc.iter()
                            .map(|(n, v)| format!("{n}={v}"))
                            .collect::<Vec<_>>()
                            .join("&"),
                    );
                }
                Some(';') => out.push_str(
                    &enc.iter()
                        .map(|(n, v)| format!(";{n}={v}"))
                        .collect::<String>(),
                ),
                Some('/') => {
                    out.push_str(&enc.iter().map(|(_, v)| format!("/{v}")).collect::<String>())
                }
                Some('.') => {
                    out.push_str(&enc.iter().map(|(_, v)| format!(".{v}")).collect::<String>())
                }
                Some('#') => {
                    out.push('#');
                    out.push_str(
                        &enc.iter()
                            .map(|(_, v)| v.as_str())
                            .collect::<Vec<_>>()
                            .join(","),
                    );
                }
                _ => out.push_str(
                    &enc.iter()
                        .map(|(_, v)| v.as_str())
                        .collect::<Vec<_>>()
                        .join(","),
                ),
            }
        }
        rest = &rest[start + end + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_and_expansion() {
        assert_eq!(
            variables("demo://resource/dynamic/text/{resourceId}"),
            ["resourceId"]
        );
        assert_eq!(variables("file:///{+path}{?q,lang}"), ["path", "q", "lang"]);
        let v = |n: &str| match n {
            "id" => Some("a b/c".to_string()),
            "path" => Some("x/y z".to_string()),
            "q" => Some("1&2".to_string()),
            _ => None,
        };
        assert_eq!(expand("test://items/{id}", v), "test://items/a%20b%2Fc");
        assert_eq!(
            expand("file:///{+path}{?q,lang}", v),
            "file:///x/y%20z?q=1%262"
        );
        assert_eq!(expand("no/{missing}/vars", v), "no//vars");
    }

    /// RFC 6570's examples (sections 1.2 and 3.2) for the operators and the prefix modifier.
    #[test]
    fn the_rfcs_examples_expand_as_it_says() {
        let v = |n: &str| {
            Some(
                match n {
                    "var" => "value",
                    "hello" => "Hello World!",
                    "path" => "/foo/bar",
                    "half" => "50%",
                    "base" => "http://example.com/home/",
                    "x" => "1024",
                    "y" => "768",
                    "enc" => "a%2Fb",
                    "enc2" => "abc%2Fz",
                    "sp" => " 1a%zz",
                    _ => return None,
                }
                .to_string(),
            )
        };
        for (template, expected) in [
            ("{var}", "value"),
            ("{hello}", "Hello%20World%21"),
            ("{half}", "50%25"),
            ("{+hello}", "Hello%20World!"),
            ("{+half}", "50%25"),
            ("{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"),
            ("{+base}index", "http://example.com/home/index"),
            ("{+path}/here", "/foo/bar/here"),
            ("{#hello}", "#Hello%20World!"),
            ("{x,hello,y}", "1024,Hello%20World%21,768"),
            ("{.x,y}", ".1024.768"),
            ("{/var,x}/here", "/value/1024/here"),
            ("{;x,y}", ";x=1024;y=768"),
            ("{?x,y}", "?x=1024&y=768"),
            ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
            ("{var:3}", "val"),
            ("{var:30}", "value"),
            ("{+path:6}/here", "/foo/b/here"),
            ("{#path:6}/here", "#/foo/b/here"),
            ("{/var:1,var}", "/v/value"),
            ("{?var:3}", "?var=val"),
            ("{;hello:5}", ";hello=Hello"),
            // Already percent-encoded: kept by reserved expansion, encoded again otherwise.
            ("{+enc}", "a%2Fb"),
            ("{enc}", "a%252Fb"),
            ("{+enc2}", "abc%2Fz"),
            // Only a `%` and two hex digits make a triplet.
            ("{+sp}", "%201a%25zz"),
        ] {
            assert_eq!(expand(template, v), expected, "{template}");
        }
        assert_eq!(variables("{/var:1,var}{?x*}"), ["var", "x"]);
    }
}
