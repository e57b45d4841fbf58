//! Every example message of the 2026-07-28 specification that a client sends or receives
//! decodes into this crate's types and re-encodes to equal JSON.

mod support;

use client_core::jsonrpc::{Message, Response};
use client_core::types::*;
use serde::{de::DeserializeOwned, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use support::schema::{spec_dir, SchemaValidator};

fn rt<T: DeserializeOwned + Serialize>(v: &Value) -> Value {
    let t: T = serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("decode: {e}\n{v:#}"));
    serde_json::to_value(t).expect("encode")
}

/// Decodes a JSON-RPC message, re-encodes it, and also round-trips its params or result
/// through the typed decoder `inner`.
fn rt_msg(v: &Value, inner: fn(&Value) -> Value) -> Value {
    if v.get("jsonrpc").is_none() {
        // 2026-07-28 server-to-client requests are MRTR input requests: no id, no jsonrpc.
        if let Some(p) = v.get("params") {
            assert_eq!(&inner(p), p, "typed params do not round-trip");
        }
        return rt::<InputRequest>(v);
    }
    let m = Message::from_value(v.clone()).unwrap_or_else(|e| panic!("decode: {e}\n{v:#}"));
    let payload = match &m {
        Message::Request(r) => r.params.clone(),
        Message::Notification(n) => n.params.clone(),
        Message::Response(Response { outcome: Ok(r), .. }) => Some(r.clone()),
        Message::Response(Response {
            outcome: Err(e), ..
        }) => Some(serde_json::to_value(e).unwrap()),
    };
    if let Some(p) = payload {
        assert_eq!(inner(&p), p, "typed payload does not round-trip");
    }
    m.to_value()
}

fn id(v: &Value) -> Value {
    v.clone()
}

fn roundtrip(kind: &str, v: &Value) -> Option<Value> {
    Some(match kind {
        "AudioContent" | "ImageContent" | "TextContent" | "EmbeddedResource" | "ResourceLink"
        | "ToolUseContent" | "ToolResultContent" => rt::<ContentBlock>(v),
        "BlobResourceContents" | "TextResourceContents" => rt::<ResourceContents>(v),
        "BooleanSchema"
        | "NumberSchema"
        | "StringSchema"
        | "TitledMultiSelectEnumSchema"
        | "TitledSingleSelectEnumSchema"
        | "UntitledMultiSelectEnumSchema"
        | "UntitledSingleSelectEnumSchema"
        | "ModelPreferences" => id(v),
        "CallToolRequest" => rt_msg(v, rt::<CallToolParams>),
        "CallToolRequestParams" => rt::<CallToolParams>(v),
        "CallToolResult" => rt::<CallToolResult>(v),
        "CallToolResultResponse" => rt_msg(v, rt::<CallToolResult>),
        "CancelledNotification" => rt_msg(v, rt::<CancelledParams>),
        "CancelledNotificationParams" => rt::<CancelledParams>(v),
        "ClientCapabilities" => rt::<ClientCapabilities>(v),
        "ServerCapabilities" => rt::<ServerCapabilities>(v),
        "CompleteRequest" | "CompleteRequestParams" | "PaginatedRequestParams" => {
            if kind == "CompleteRequest" {
                rt_msg(v, id)
            } else {
                id(v)
            }
        }
        "CompleteResult" => rt::<CompleteResult>(v),
        "CompleteResultResponse" => rt_msg(v, rt::<CompleteResult>),
        "CreateMessageRequest" => rt_msg(v, rt::<CreateMessageParams>),
        "CreateMessageRequestParams" => rt::<CreateMessageParams>(v),
        "CreateMessageResult" => rt::<CreateMessageResult>(v),
        "DiscoverRequest" => rt_msg(v, id),
        "DiscoverResult" => rt::<DiscoverResult>(v),
        "DiscoverResultResponse" => rt_msg(v, rt::<DiscoverResult>),
        "ElicitRequest" => rt_msg(v, rt::<ElicitParams>),
        "ElicitRequestFormParams" | "ElicitRequestURLParams" => rt::<ElicitParams>(v),
        "ElicitResult" => rt::<ElicitResult>(v),
        "GetPromptRequest" => rt_msg(v, id),
        "GetPromptRequestParams" => id(v),
        "GetPromptResult" => rt::<GetPromptResult>(v),
        "GetPromptResultResponse" => rt_msg(v, rt::<GetPromptResult>),
        "HeaderMismatchError"
        | "InternalError"
        | "InvalidParamsError"
        | "MethodNotFoundError"
        | "MissingRequiredClientCapabilityError"
        | "ParseError"
        | "UnsupportedProtocolVersionError" => {
            if v.get("jsonrpc").is_some() {
                rt_msg(v, id)
            } else {
                rt::<client_core::ErrorObject>(v)
            }
        }
        "InputRequests" => rt::<BTreeMap<String, InputRequest>>(v),
        "InputResponses" => id(v),
        "InputRequiredResult" => rt::<InputRequiredResult>(v),
        "ListPromptsRequest"
        | "ListResourceTemplatesRequest"
        | "ListResourcesRequest"
        | "ListToolsRequest"
        | "ListRootsRequest"
        | "ReadResourceRequest"
        | "SubscriptionsListenRequest" => rt_msg(v, id),
        "ListPromptsResult" => rt::<ListPromptsResult>(v),
        "ListPromptsResultResponse" => rt_msg(v, rt::<ListPromptsResult>),
        "ListResourceTemplatesResult" => rt::<ListResourceTemplatesResult>(v),
        "ListResourceTemplatesResultResponse" => rt_msg(v, rt::<ListResourceTemplatesResult>),
        "ListResourcesResult" => rt::<ListResourcesResult>(v),
        "ListResourcesResultResponse" => rt_msg(v, rt::<ListResourcesResult>),
        "ListRootsResult" => rt::<ListRootsResult>(v),
        "ListToolsResult" => rt::<ListToolsResult>(v),
        "ListToolsResultResponse" => rt_msg(v, rt::<ListToolsResult>),
        "LoggingMessageNotification" => rt_msg(v, rt::<LoggingMessageParams>),
        "LoggingMessageNotificationParams" => rt::<LoggingMessageParams>(v),
        "ProgressNotification" => rt_msg(v, rt::<ProgressParams>),
        "ProgressNotificationParams" => rt::<ProgressParams>(v),
        "PromptListChangedNotification"
        | "ResourceListChangedNotification"
        | "ToolListChangedNotification" => rt_msg(v, id),
        "ReadResourceResult" => rt::<ReadResourceResult>(v),
        "ReadResourceResultResponse" => rt_msg(v, rt::<ReadResourceResult>),
        "Resource" => rt::<Resource>(v),
        "ResourceUpdatedNotification" => rt_msg(v, rt::<ResourceUpdatedParams>),
        "ResourceUpdatedNotificationParams" => rt::<ResourceUpdatedParams>(v),
        "Root" => rt::<Root>(v),
        "SamplingMessage" => rt::<SamplingMessage>(v),
        "SubscriptionsAcknowledgedNotification" => rt_msg(v, rt::<SubscriptionsAcknowledgedParams>),
        "SubscriptionsListenResult" => rt::<EmptyResult>(v),
        "SubscriptionsListenResultResponse" => rt_msg(v, rt::<EmptyResult>),
        "Tool" => rt::<Tool>(v),
        _ => return None,
    })
}

#[test]
fn every_example_round_trips_and_matches_its_schema() {
    let dir = spec_dir().join("2026-07-28/examples");
    let schema = SchemaValidator::load("2026-07-28");
    let mut checked = 0;
    let mut unmapped = Vec::new();
    let mut kinds: Vec<_> = std::fs::read_dir(&dir)
        .expect("examples dir")
        .flatten()
        .collect();
    kinds.sort_by_key(|e| e.file_name());
    for kind_entry in kinds {
        let kind = kind_entry.file_name().to_string_lossy().into_owned();
        for file in std::fs::read_dir(kind_entry.path()).unwrap().flatten() {
            let text = std::fs::read_to_string(file.path()).unwrap();
            let v: Value = serde_json::from_str(&text).unwrap();
            if schema.has(&kind) {
                schema.assert_valid(&kind, &v);
            }
            match roundtrip(&kind, &v) {
                Some(back) => {
                    assert_eq!(back, v, "{kind}/{:?} does not round-trip", file.file_name());
                    checked += 1;
                }
                None => unmapped.push(kind.clone()),
            }
        }
    }
    assert!(
        unmapped.is_empty(),
        "examples with no decoder: {unmapped:?}"
    );
    assert!(checked >= 120, "only {checked} examples checked");
}

#[test]
fn the_error_codes_are_the_schemas() {
    use client_core::jsonrpc::codes;
    let schemas = [
        ("2026-07-28", SchemaValidator::load("2026-07-28")),
        ("2025-11-25", SchemaValidator::load("2025-11-25")),
    ];
    // The `code` an error definition fixes: an error object's own, or, for an error
    // response, its `error`'s (one of the parts of its `allOf`).
    let code_of = |revision: &str, def: &str| {
        let (_, schema) = schemas.iter().find(|(r, _)| *r == revision)?;
        let def = schema.def(def);
        let code = |v: &Value| v["properties"]["code"]["const"].as_i64();
        code(def).or_else(|| {
            def["properties"]["error"]["allOf"]
                .as_array()?
                .iter()
                .find_map(code)
        })
    };
    for (revision, def, ours) in [
        ("2026-07-28", "ParseError", codes::PARSE_ERROR),
        ("2026-07-28", "InvalidRequestError", codes::INVALID_REQUEST),
        ("2026-07-28", "MethodNotFoundError", codes::METHOD_NOT_FOUND),
        ("2026-07-28", "InvalidParamsError", codes::INVALID_PARAMS),
        ("2026-07-28", "InternalError", codes::INTERNAL_ERROR),
        ("2026-07-28", "HeaderMismatchError", codes::HEADER_MISMATCH),
        (
            "2026-07-28",
            "MissingRequiredClientCapabilityError",
            codes::MISSING_REQUIRED_CLIENT_CAPABILITY,
        ),
        (
            "2026-07-28",
            "UnsupportedProtocolVersionError",
            codes::UNSUPPORTED_PROTOCOL_VERSION,
        ),
        (
            "2025-11-25",
            "URLElicitationRequiredError",
            codes::URL_ELICITATION_REQUIRED,
        ),
    ] {
        assert_eq!(code_of(revision, def), Some(ours), "{revision} {def}");
    }
    // Not in a schema: resource not found (the 2025-11-25 resources page) and a cancelled
    // request (not reserved by MCP; what SDKs send).
    assert_eq!(codes::RESOURCE_NOT_FOUND, -32002);
    assert_eq!(codes::REQUEST_CANCELLED, -32800);
}
