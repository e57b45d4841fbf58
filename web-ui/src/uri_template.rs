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

fn encode(value: &str, reserved: bool) -> String {
    let mut s = String::new();
    for b in value.bytes() {
        let keep = b.is_ascii_alphanumeric()
            || b"-._~".contains(&b)
            || (reserved && b":/?#[]@!$&'()*+,;=".contains(&b));
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
                n.trim_end_matches('*')
                    .split(':')
                    .next()
                    .unwrap_or("")
                    .to_string()
            })
            .filter_map(|n| value_of(&n).filter(|v| !v.is_empty()).map(|v| (n, v)))
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
}
