//! What the core's session is configured with for a [`ClientOptions`]: the transport, what was
//! remembered of the server, and the capabilities the client declares (only those the
//! application has a handler for).

use crate::options::{ClientOptions, Transport};
use client_core::session::TransportMode;
use client_core::types::Era;
use client_core::SessionConfig;
use serde_json::{json, Map, Value};

/// The session's configuration for `options`, connecting to `url` (the options' URL as the
/// browser parses it). `remembered` gives the era remembered for the server; it is asked only
/// with [`ClientOptions::remember_era`] and no [`ClientOptions::era_hint`]. `kept_discover`
/// gives the kept `server/discover` result for a connection with credentials (`true`) or
/// without; it is asked only with `remember_era` too, and not for a server known to speak the
/// 2025 era.
pub(crate) fn session_config(
    options: &ClientOptions,
    url: String,
    remembered: impl FnOnce() -> Option<Era>,
    kept_discover: impl FnOnce(bool) -> Option<Value>,
) -> SessionConfig {
    let mut cfg = SessionConfig::new(url);
    cfg.transport = match options.transport {
        Transport::Auto => TransportMode::Auto,
        Transport::StreamableHttp => TransportMode::StreamableHttp,
        Transport::HttpSse => TransportMode::HttpSse,
        Transport::WebSocket => TransportMode::Frames,
    };
    cfg.era_hint = options
        .era_hint
        .or_else(|| options.remember_era.then(remembered).flatten());
    if options.remember_era && cfg.era_hint != Some(Era::Legacy) {
        let credentials = crate::client::has_authorization(&options.headers)
            || options.auth.as_ref().is_some_and(|a| a.has_credentials());
        cfg.known_discover = kept_discover(credentials);
    }
    cfg.client_info = options.client_info.clone();
    cfg.extra_headers = options.headers.clone();
    cfg.request_timeout = options.timeout;
    cfg.log_level = options.log_level;
    cfg.wire_log = options.wire_log;
    // Tool calls answered with a task are followed to their result (task_extension.rs).
    cfg.tasks_extension = true;
    let h = &options.handlers;
    if h.sampling.is_some() {
        cfg.capabilities.sampling = Some(if h.sampling_tools {
            json!({"tools": {}})
        } else {
            json!({})
        });
    }
    if h.elicitation.is_some() {
        cfg.capabilities.elicitation = Some(json!({"form": {}, "url": {}}));
    }
    if h.roots.is_some() {
        cfg.capabilities.roots = Some(json!({"listChanged": true}));
    }
    if !options.extensions.is_empty() {
        cfg.capabilities.extensions = Some(Value::Object(options.extensions.clone()));
    }
    // Sampling and elicitation may run as tasks (2025-11-25): the server gets the task at
    // once and polls it while the user takes their time (see driver::run_as_task).
    let mut task_requests = Map::new();
    if h.sampling.is_some() {
        task_requests.insert("sampling".into(), json!({"createMessage": {}}));
    }
    if h.elicitation.is_some() {
        task_requests.insert("elicitation".into(), json!({"create": {}}));
    }
    if !task_requests.is_empty() {
        cfg.capabilities.tasks = Some(json!({"list": {}, "cancel": {}, "requests": task_requests}));
    }
    cfg
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{Answer, Handlers};
    use client_core::time::Duration;
    use client_core::types::LoggingLevel;
    use futures_util::future::LocalBoxFuture;
    use std::cell::Cell;
    use std::rc::Rc;

    const URL: &str = "https://mcp.example/mcp";

    fn answer(_: Value) -> LocalBoxFuture<'static, Answer> {
        Box::pin(async { Ok(json!({})) })
    }

    fn roots() -> LocalBoxFuture<'static, Answer> {
        Box::pin(async { Ok(json!({"roots": []})) })
    }

    /// The configuration for `options`, where nothing is remembered or kept and asking for
    /// either is a mistake.
    fn config(options: &ClientOptions) -> SessionConfig {
        session_config(
            options,
            URL.into(),
            || panic!("the remembered era was asked for"),
            |_| panic!("the kept discover result was asked for"),
        )
    }

    #[test]
    fn without_handlers_the_client_declares_no_capability_a_server_could_use() {
        let cfg = config(&ClientOptions::new(URL));
        assert_eq!(cfg.endpoint, URL);
        assert_eq!(cfg.transport, TransportMode::Auto);
        let c = &cfg.capabilities;
        assert_eq!(
            (
                &c.sampling,
                &c.elicitation,
                &c.roots,
                &c.tasks,
                &c.extensions
            ),
            (&None, &None, &None, &None, &None)
        );
        assert!(
            cfg.tasks_extension,
            "tool calls answered with a task are followed"
        );
        assert_eq!((cfg.era_hint, &cfg.known_discover), (None, &None));
    }

    #[test]
    fn each_handler_declares_its_capability_and_the_tasks_it_may_run_as() {
        let mut options = ClientOptions::new(URL);
        options.handlers = Handlers {
            sampling: Some(Rc::new(answer)),
            sampling_tools: false,
            elicitation: None,
            roots: Some(Rc::new(roots)),
        };
        let c = config(&options).capabilities;
        assert_eq!(c.sampling, Some(json!({})));
        assert_eq!(c.roots, Some(json!({"listChanged": true})));
        assert_eq!(c.elicitation, None);
        assert_eq!(
            c.tasks,
            Some(json!({"list": {}, "cancel": {},
                "requests": {"sampling": {"createMessage": {}}}}))
        );

        options.handlers.sampling_tools = true;
        options.handlers.elicitation = Some(Rc::new(answer));
        let c = config(&options).capabilities;
        assert_eq!(c.sampling, Some(json!({"tools": {}})));
        assert_eq!(c.elicitation, Some(json!({"form": {}, "url": {}})));
        assert_eq!(
            c.tasks,
            Some(json!({"list": {}, "cancel": {}, "requests": {
                "sampling": {"createMessage": {}}, "elicitation": {"create": {}}}}))
        );

        options.handlers.sampling = None;
        let c = config(&options).capabilities;
        assert_eq!(c.sampling, None, "sampling_tools alone declares nothing");
        assert_eq!(
            c.tasks,
            Some(json!({"list": {}, "cancel": {},
                "requests": {"elicitation": {"create": {}}}}))
        );
    }

    #[test]
    fn the_options_reach_the_session() {
        let mut options = ClientOptions::new(URL);
        options.headers = vec![("X-Api-Key".into(), "k".into())];
        options.timeout = Duration::from_secs(7);
        options.log_level = Some(LoggingLevel::Debug);
        options.wire_log = true;
        options.client_info.name = "host app".into();
        options
            .extensions
            .insert("io.modelcontextprotocol/ui".into(), json!({"v": 1}));
        for (transport, mode) in [
            (Transport::StreamableHttp, TransportMode::StreamableHttp),
            (Transport::HttpSse, TransportMode::HttpSse),
            (Transport::WebSocket, TransportMode::Frames),
        ] {
            options.transport = transport;
            let cfg = config(&options);
            assert_eq!(cfg.transport, mode, "{transport:?}");
            assert_eq!(cfg.extra_headers, options.headers);
            assert_eq!(cfg.request_timeout, Duration::from_secs(7));
            assert_eq!(cfg.log_level, Some(LoggingLevel::Debug));
            assert!(cfg.wire_log);
            assert_eq!(cfg.client_info.name, "host app");
            assert_eq!(
                cfg.capabilities.extensions,
                Some(json!({"io.modelcontextprotocol/ui": {"v": 1}}))
            );
        }
    }

    #[test]
    fn a_remembered_era_and_kept_result_are_used_only_when_asked_to_remember() {
        let kept = json!({"supportedVersions": ["2026-07-28"]});
        let mut options = ClientOptions::new(URL);
        options.era_hint = Some(Era::Modern);
        let cfg = config(&options);
        assert_eq!(
            (cfg.era_hint, cfg.known_discover),
            (Some(Era::Modern), None)
        );

        options.era_hint = None;
        options.remember_era = true;
        let asked_with = Cell::new(None);
        let cfg = session_config(
            &options,
            URL.into(),
            || Some(Era::Modern),
            |credentials| {
                asked_with.set(Some(credentials));
                Some(kept.clone())
            },
        );
        assert_eq!(cfg.era_hint, Some(Era::Modern));
        assert_eq!(cfg.known_discover, Some(kept.clone()));
        assert_eq!(asked_with.get(), Some(false));

        // The application's hint wins over the memory, which is not even read.
        options.era_hint = Some(Era::Modern);
        options.headers = vec![("authorization".into(), "Bearer t".into())];
        let cfg = session_config(
            &options,
            URL.into(),
            || panic!("the hint is enough"),
            |credentials| {
                asked_with.set(Some(credentials));
                Some(kept.clone())
            },
        );
        assert_eq!(cfg.era_hint, Some(Era::Modern));
        assert_eq!(cfg.known_discover, Some(kept.clone()));
        assert_eq!(
            asked_with.get(),
            Some(true),
            "an Authorization header counts"
        );

        // A 2025-era server has no discover result to start from.
        options.era_hint = None;
        let cfg = session_config(
            &options,
            URL.into(),
            || Some(Era::Legacy),
            |_| panic!("no discover result for a 2025-era server"),
        );
        assert_eq!(
            (cfg.era_hint, cfg.known_discover),
            (Some(Era::Legacy), None)
        );

        // Nothing remembered: the probe decides, from the kept result if there is one.
        let cfg = session_config(&options, URL.into(), || None, |_| Some(kept.clone()));
        assert_eq!((cfg.era_hint, cfg.known_discover), (None, Some(kept)));
    }
}
