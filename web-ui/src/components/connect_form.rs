//! The form that opens a connection: URL, transport, headers, bearer token, and the
//! local-development opt-in for OAuth.

use crate::connection::ConnectRequest;
use client_browser::Transport;
use leptos::prelude::*;

/// Parses "Name: value" lines into headers (lines without a colon are ignored).
pub fn parse_headers(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .filter(|(k, _)| !k.is_empty())
        .collect()
}

/// The token of the bearer token box, as pasted: without the white space around it (a
/// copied line's end, which no header value may hold) and without a leading `Bearer ` (copied
/// with the whole header value), which the client adds itself. `None` if nothing is left.
pub fn bearer_token(typed: &str) -> Option<String> {
    let t = typed.trim();
    if t.eq_ignore_ascii_case("bearer") {
        return None; // the scheme alone, its token still to come
    }
    let t = match t.get(..7) {
        Some(scheme) if scheme.eq_ignore_ascii_case("bearer ") => t[7..].trim_start(),
        _ => t,
    };
    (!t.is_empty()).then(|| t.to_string())
}

/// The transport choice from its form value.
pub fn parse_transport(v: &str) -> Transport {
    match v {
        "streamable" => Transport::StreamableHttp,
        "sse" => Transport::HttpSse,
        "websocket" => Transport::WebSocket,
        _ => Transport::Auto,
    }
}

/// The form value of a transport.
pub fn transport_value(t: Transport) -> &'static str {
    match t {
        Transport::StreamableHttp => "streamable",
        Transport::HttpSse => "sse",
        Transport::WebSocket => "websocket",
        Transport::Auto => "auto",
    }
}

/// The connect form; calls `on_connect` with what was entered.
#[component]
pub fn ConnectForm(
    initial_url: String,
    initial_transport: String,
    on_connect: Callback<ConnectRequest>,
) -> impl IntoView {
    let url = RwSignal::new(initial_url);
    let transport = RwSignal::new(initial_transport);
    let headers = RwSignal::new(String::new());
    let bearer = RwSignal::new(String::new());
    let allow_local = RwSignal::new(false);
    let client_id = RwSignal::new(String::new());
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        // Typed without its scheme (`localhost:3000/mcp`), it gets one, shown in the box.
        let u = crate::typed_url::with_scheme(&url.get_untracked());
        if u.is_empty() {
            return;
        }
        url.set(u.clone());
        on_connect.run(ConnectRequest {
            url: u,
            transport: parse_transport(&transport.get_untracked()),
            headers: parse_headers(&headers.get_untracked()),
            bearer: bearer_token(&bearer.get_untracked()),
            allow_local_auth: allow_local.get_untracked(),
            client_id: Some(client_id.get_untracked()).filter(|c| !c.trim().is_empty()),
        });
    };
    view! {
        <form class="connect" on:submit=submit aria-label="Connect to a server">
            <div class="row">
                <label for="server-url">"Server URL"</label>
                <input id="server-url" type="text" inputmode="url" autocomplete="url" spellcheck="false" autocapitalize="off" required placeholder="http://127.0.0.1:3001/mcp"
                    prop:value=url on:input=move |ev| url.set(event_target_value(&ev)) />
                <label for="transport">"Transport"</label>
                <select id="transport" prop:value=transport on:change=move |ev| transport.set(event_target_value(&ev))>
                    <option value="auto">"Auto"</option>
                    <option value="streamable">"Streamable HTTP"</option>
                    <option value="sse">"HTTP+SSE (2024-11-05)"</option>
                    <option value="websocket">"WebSocket (non-standard)"</option>
                </select>
                <button id="connect" type="submit">"Connect"</button>
            </div>
            <details>
                <summary>"Headers and token"</summary>
                <label for="headers">"Custom headers (one \"Name: value\" per line)"</label>
                <textarea id="headers" rows="3" prop:value=headers on:input=move |ev| headers.set(event_target_value(&ev))></textarea>
                <label for="bearer">"Bearer token"</label>
                <input id="bearer" type="password" autocomplete="off" prop:value=bearer on:input=move |ev| bearer.set(event_target_value(&ev)) />
                <label for="client-id">"OAuth client id (only for servers that offer no registration)"</label>
                <input id="client-id" type="text" autocomplete="off" prop:value=client_id on:input=move |ev| client_id.set(event_target_value(&ev)) />
                <label class="check">
                    <input id="allow-local-auth" type="checkbox" prop:checked=allow_local on:change=move |ev| allow_local.set(event_target_checked(&ev)) />
                    "Local development: allow http:// and loopback authorization servers"
                </label>
            </details>
        </form>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pasted_token_is_taken_without_its_scheme_and_line_end() {
        assert_eq!(bearer_token("abc.def").as_deref(), Some("abc.def"));
        assert_eq!(bearer_token("  abc.def\n").as_deref(), Some("abc.def"));
        assert_eq!(bearer_token("Bearer abc.def").as_deref(), Some("abc.def"));
        assert_eq!(bearer_token("bearer   abc").as_deref(), Some("abc"));
        // Only the scheme and a space after it: `Bearerabc` is a token.
        assert_eq!(bearer_token("Bearerabc").as_deref(), Some("Bearerabc"));
        for none in ["", "  \n", "Bearer ", "Bearer   "] {
            assert_eq!(bearer_token(none), None, "{none:?}");
        }
        // Not split inside a character.
        assert_eq!(bearer_token("ééééé").as_deref(), Some("ééééé"));
    }

    #[test]
    fn headers_and_transport_parse() {
        assert_eq!(
            parse_headers("X-A: 1\nbad line\n: empty\nX-B:two:parts"),
            [
                ("X-A".into(), "1".into()),
                ("X-B".into(), "two:parts".into())
            ]
        );
        assert_eq!(parse_transport("websocket"), Transport::WebSocket);
        assert_eq!(parse_transport("nonsense"), Transport::Auto);
    }
}
