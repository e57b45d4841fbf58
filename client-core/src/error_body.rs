//! What an HTTP error's body says, kept for the error shown to a person: its first 300
//! characters, and, when the body is a web page (a proxy's "502 Bad Gateway", a web server's
//! "Cannot POST /mcp"), the words of the page rather than its markup.
//!
//! Hand-written: an error page needs its words only, never a document tree, and the crates
//! that read HTML (html5ever and those built on it) would add far more to the client's size
//! than this does, for a message of 300 characters.

use alloc::string::String;

/// The most characters of a body kept; more is marked with "…".
pub const EXCERPT_CHARS: usize = 300;

/// The start of an error body as text: a web page's words (its title's if its body has none),
/// else the text as sent; invalid UTF-8 replaced; cut to [`EXCERPT_CHARS`] characters.
pub fn excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let text = if is_web_page(&text) {
        page_words(&text)
    } else {
        text.into_owned()
    };
    let mut chars = text.chars();
    let mut out: String = chars.by_ref().take(EXCERPT_CHARS).collect();
    if chars.next().is_some() {
        out.push('…');
    }
    out
}

/// Whether a body is an HTML page: it opens (after white space) with a doctype or an `<html>`
/// or `<head>` element, as the error pages of web servers, proxies and frameworks do. A body
/// that only mentions a tag somewhere is kept as sent.
pub fn is_web_page(text: &str) -> bool {
    let start = text.trim_start_matches(|c: char| is_space(c) || c == '\u{feff}');
    ["<!doctype html", "<html", "<head"].iter().any(|open| {
        start
            .get(..open.len())
            .is_some_and(|s| s.eq_ignore_ascii_case(open))
    })
}

/// Elements whose contents are not words of the page; `title` is kept apart as the fallback.
const NOT_WORDS: [&str; 6] = ["script", "style", "head", "title", "template", "noscript"];

/// Elements inside a line of text: the words either side of them are not apart.
const INLINE: [&str; 22] = [
    "a", "abbr", "b", "bdi", "bdo", "cite", "code", "em", "font", "i", "kbd", "mark", "q", "s",
    "samp", "small", "span", "strong", "sub", "sup", "u", "var",
];

/// The words of a web page: its text without tags, comments, scripts, styles and head, with
/// character references decoded and white space run together; its title's text when that
/// leaves nothing.
pub fn page_words(html: &str) -> String {
    let mut words = Words::default();
    let mut title = Words::default();
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        words.text(&rest[..lt]);
        rest = &rest[lt..];
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |end| &after[end + 3..]);
            continue;
        }
        if rest == "<" || rest == "</" {
            // The body was cut inside a tag.
            break;
        }
        let Some((name, closing, after)) = tag(rest) else {
            // A `<` that opens no tag ("a < b") is text.
            words.text("<");
            rest = &rest[1..];
            continue;
        };
        rest = after;
        if !INLINE.iter().any(|n| name.eq_ignore_ascii_case(n)) {
            words.gap();
        }
        if closing {
            continue;
        }
        if let Some(skipped) = NOT_WORDS.iter().find(|n| name.eq_ignore_ascii_case(n)) {
            let (inside, after) = until_closing(rest, skipped);
            if *skipped == "title" {
                title.text(inside);
            } else if *skipped == "head" {
                // The head's title, if it has one, is the page's fallback.
                if let Some(start) = find_ignoring_case(inside, "<title") {
                    if let Some((_, _, in_title)) = tag(&inside[start..]) {
                        title.text(until_closing(in_title, "title").0);
                    }
                }
            }
            rest = after;
        }
    }
    if !rest.starts_with('<') {
        words.text(rest);
    }
    let words = words.done();
    if words.is_empty() {
        title.done()
    } else {
        words
    }
}

/// A tag at the start of `s` (which starts with `<`): its name, whether it closes an element,
/// and what follows its `>` (nothing when the body was cut inside the tag). `None` when no
/// letter follows the `<` (or `</`): no tag; `<!doctype …>` counts as one, without a name.
fn tag(s: &str) -> Option<(&str, bool, &str)> {
    let inner = &s[1..];
    let (closing, inner) = match inner.strip_prefix('/') {
        Some(after) => (true, after),
        None => (false, inner),
    };
    let first = inner.chars().next()?;
    // `</` opens a tag whatever follows (one without a letter is no element, and not text).
    if !closing && !first.is_ascii_alphabetic() && first != '!' && first != '?' {
        return None;
    }
    let name_len = inner
        .find(|c: char| !c.is_ascii_alphanumeric() && c != '-')
        .unwrap_or(inner.len());
    let name = if first.is_ascii_alphabetic() {
        &inner[..name_len]
    } else {
        ""
    };
    // The tag ends at the first `>` outside a quoted attribute value.
    let mut quote = None;
    for (i, c) in inner.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '>') => return Some((name, closing, &inner[i + 1..])),
            _ => {}
        }
    }
    Some((name, closing, ""))
}

/// What comes before the closing tag of `name` in `s`, and what follows that tag (nothing
/// when it never closes: a body cut short).
fn until_closing<'a>(s: &'a str, name: &str) -> (&'a str, &'a str) {
    let mut from = 0;
    while let Some(at) = find_ignoring_case(&s[from..], "</") {
        let at = from + at;
        let after_slash = &s[at + 2..];
        let named = after_slash
            .get(..name.len())
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
            && after_slash[name.len()..]
                .chars()
                .next()
                .is_none_or(|c| !c.is_ascii_alphanumeric());
        if named {
            let after = after_slash
                .find('>')
                .map_or("", |gt| &after_slash[gt + 1..]);
            return (&s[..at], after);
        }
        from = at + 2;
    }
    // Never closed: the body was cut, maybe inside a tag, which is not text.
    let inside = match s.rfind('<') {
        Some(lt) if !s[lt..].contains('>') => &s[..lt],
        _ => s,
    };
    (inside, "")
}

/// Where `needle` (ASCII) first occurs in `haystack`, ignoring ASCII case.
fn find_ignoring_case(haystack: &str, needle: &str) -> Option<usize> {
    let (h, n) = (haystack.as_bytes(), needle.as_bytes());
    (0..=h.len().checked_sub(n.len())?).find(|&i| h[i..i + n.len()].eq_ignore_ascii_case(n))
}

/// White space as HTML defines it (ASCII only).
fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0c')
}

/// Text gathered from a page: character references decoded, white space run into one space.
#[derive(Default)]
struct Words {
    out: String,
    /// White space (or a block's edge) seen since the last word.
    gap: bool,
}

impl Words {
    /// Adds text as it stands in the page (references not yet decoded).
    fn text(&mut self, raw: &str) {
        let mut rest = raw;
        while let Some(amp) = rest.find('&') {
            self.plain(&rest[..amp]);
            rest = &rest[amp..];
            match reference(rest) {
                Some((c, len)) => {
                    if is_space(c) {
                        self.gap();
                    } else {
                        self.push(c);
                    }
                    rest = &rest[len..];
                }
                None => {
                    self.push('&');
                    rest = &rest[1..];
                }
            }
        }
        self.plain(rest);
    }

    fn plain(&mut self, s: &str) {
        for c in s.chars() {
            if is_space(c) {
                self.gap();
            } else {
                self.push(c);
            }
        }
    }

    fn push(&mut self, c: char) {
        if self.gap && !self.out.is_empty() {
            self.out.push(' ');
        }
        self.gap = false;
        self.out.push(c);
    }

    /// Words on either side are apart.
    fn gap(&mut self) {
        self.gap = true;
    }

    fn done(self) -> String {
        self.out
    }
}

/// The longest name of a reference read (between `&` and `;`): `#x0010FFFF` fits. The `;`
/// is looked for no further, so that a body of many `&` is read in one pass, not one pass
/// per `&`.
const LONGEST_REFERENCE: usize = 10;

/// A character reference at the start of `s` (which starts with `&`): the character and the
/// reference's length. The references error pages use: the XML five, `&nbsp;`, and numeric
/// ones (a number that is no character reads as U+FFFD; one padded with zeros past
/// [`LONGEST_REFERENCE`] is left as written). Others are left as written.
fn reference(s: &str) -> Option<(char, usize)> {
    let name_len = s
        .bytes()
        .skip(1)
        .take(LONGEST_REFERENCE + 1)
        .position(|b| b == b';')?;
    // Both ends are ASCII (`&`, `;`): the slice falls on character boundaries.
    let name = &s[1..1 + name_len];
    let c = match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        // Read as a space: an excerpt has no lines to keep whole.
        "nbsp" => ' ',
        _ => {
            let digits = name.strip_prefix('#')?;
            let code = match digits.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => digits.parse().ok()?,
            };
            char::from_u32(code).unwrap_or('\u{fffd}')
        }
    };
    Some((c, name_len + 2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn error_pages_of_common_servers_read_as_their_words() {
        // Python's http.server, refusing a POST.
        let python = "<!DOCTYPE HTML>\n<html lang=\"en\">\n    <head>\n        <meta charset=\"utf-8\">\n        <title>Error response</title>\n    </head>\n    <body>\n        <h1>Error response</h1>\n        <p>Error code: 501</p>\n        <p>Message: Unsupported method (&#x27;POST&#x27;).</p>\n        <p>Error code explanation: 501 - Server does not support this operation.</p>\n    </body>\n</html>\n";
        assert_eq!(
            excerpt(python.as_bytes()),
            "Error response Error code: 501 Message: Unsupported method ('POST'). Error code explanation: 501 - Server does not support this operation."
        );
        // nginx in front of a server that is down.
        let nginx = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n";
        assert_eq!(excerpt(nginx.as_bytes()), "502 Bad Gateway nginx/1.25.3");
        // Express, with no route for the POST.
        let express = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot POST /mcp</pre>\n</body>\n</html>\n";
        assert_eq!(excerpt(express.as_bytes()), "Cannot POST /mcp");
    }

    #[test]
    fn a_page_without_words_reads_as_its_title_and_scripts_and_styles_are_not_words() {
        let app = "<!doctype html><html><head><title>My &amp; App</title><script>var x = \"</p>\";</script><style>p > b { color: red }</style></head><body><div id=root></div><script type=module>if (a < b) go()</script><noscript>Turn on JavaScript</noscript></body></html>";
        assert_eq!(page_words(app), "My & App");
        assert_eq!(page_words("<html><body></body></html>"), "");
        assert_eq!(excerpt(b"<html><body></body></html>"), "");
    }

    #[test]
    fn inline_elements_keep_words_whole_and_blocks_keep_them_apart() {
        assert_eq!(
            page_words("<html><body><p>Un<b>supported</b> <a href='/x?a=1&b=2>'>me</a>thod</p><p>next</p><br>line</body>"),
            "Unsupported method next line"
        );
        assert_eq!(page_words("<html><body><td>a</td><td>b</td></body>"), "a b");
    }

    #[test]
    fn references_decode_and_stray_markup_stays_text() {
        assert_eq!(
            page_words("<html><body>&lt;tag&gt; &quot;q&quot; &apos;&#39;&#x41;&#X42;&#65; a&nbsp;b &copy; &#xD800; &#99999999; & ; &amp</body>"),
            "<tag> \"q\" ''ABA a b &copy; \u{fffd} \u{fffd} & ; &amp"
        );
        assert_eq!(
            page_words("<html><body>1 < 2 and 3 <= 4 <!-- hidden --> shown</body>"),
            "1 < 2 and 3 <= 4 shown"
        );
        // Padded with zeros: read up to ten characters between `&` and `;`.
        assert_eq!(
            page_words("<html><body>&#x00000041;&#x000000041;</body>"),
            "A&#x000000041;"
        );
    }

    #[test]
    fn a_body_of_ampersands_is_read_in_one_pass() {
        // 64 KiB (the most of an error body kept) of `&` with no `;`: looking for one as far as
        // the body goes, from each `&`, would read 2 billion bytes.
        let mut page = b"<html><body>".to_vec();
        page.resize(64 * 1024, b'&');
        assert_eq!(excerpt(&page), "&".repeat(300) + "…");
        let mut page = b"<html><body>".to_vec();
        while page.len() < 64 * 1024 {
            page.extend_from_slice(b"&#x41&amp");
        }
        assert!(excerpt(&page).starts_with("&#x41&amp&#x41&amp"));
    }

    #[test]
    fn a_page_cut_short_anywhere_gives_what_it_had() {
        let page = "<!DOCTYPE html><html><head><title>Down</title></head><body><h1>Service &amp; Co unavailable</h1><!-- x --><p class=\"a>b\">Retry later</p></body></html>";
        for cut in 0..=page.len() {
            // Every prefix reads without a panic, and its words are among the page's.
            // (Its last word may be cut, a reference too: "&am".)
            let words = page_words(&page[..cut]);
            let whole_words = words.rsplit_once(' ').map_or("", |(whole, _)| whole);
            assert!(
                "Service & Co unavailable Retry later".starts_with(whole_words)
                    && (words.contains(' ')
                        || "Down".starts_with(&words)
                        || "Service".starts_with(&words)),
                "{cut}: {words:?}"
            );
        }
        assert_eq!(page_words(page), "Service & Co unavailable Retry later");
        // Text in other scripts beside every kind of tag, cut at each character.
        let page = "<html><head><title>Ünavailable 服务</title></head><body><p>Сервис<b>недоступен</b></p></é><script>\"é</scrip\"</script>ok</body></html>";
        for (cut, _) in page.char_indices() {
            let _ = page_words(&page[..cut]);
        }
        assert_eq!(page_words(page), "Сервиснедоступен ok");
        assert_eq!(page_words("<html><head><title>Cut"), "Cut");
        assert_eq!(page_words("<html><body><p>cut <scr"), "cut");
        assert_eq!(page_words("<html><body>a <!-- never ends"), "a");
    }

    proptest::proptest! {
        /// Any text, dense with markup and references, reads without a panic; what comes
        /// out has no run of spaces and none at either end.
        #[test]
        fn any_page_reads_without_a_panic(body in "(<|</|<!--|-->|>|&|;|#x?|[0-9a-fA-F]|title|head|script|[a-z]| |\n|é|服|\"|'|!|=)*") {
            let words = page_words(&body);
            proptest::prop_assert!(!words.contains("  ") && !words.starts_with(' ') && !words.ends_with(' '), "{:?}", words);
            let _ = excerpt(body.as_bytes());
        }
    }

    #[test]
    fn only_a_body_that_opens_as_a_web_page_is_read_as_one() {
        for page in [
            "<!doctype html>",
            "  \n<HTML>",
            "\u{feff}<head>",
            "<!DOCTYPE HTML PUBLIC",
        ] {
            assert!(is_web_page(page), "{page:?}");
        }
        for not in [
            "",
            "<",
            "{\"error\":\"<html>\"}",
            "text <html>",
            "<htm",
            "<p>hi</p>",
            "<!doctype",
        ] {
            assert!(!is_web_page(not), "{not:?}");
        }
        // Text that is not a page is kept as sent, tags and all.
        assert_eq!(
            excerpt(b"error: <b>bad</b> &amp;"),
            "error: <b>bad</b> &amp;"
        );
        assert_eq!(excerpt(b"{\"error\":\"x\"}"), "{\"error\":\"x\"}");
    }

    #[test]
    fn an_excerpt_is_cut_to_300_characters_after_the_markup_is_gone() {
        let words = "é".repeat(300);
        let page = alloc::format!("<html><body><p>{words}</p></body></html>");
        assert_eq!(excerpt(page.as_bytes()), words);
        let page = alloc::format!("<html><body><p>{words}x</p></body></html>");
        assert_eq!(excerpt(page.as_bytes()), words.clone() + "…");
        assert_eq!(excerpt(&[0xff, b'a']), "\u{fffd}a".to_string());
    }
}
