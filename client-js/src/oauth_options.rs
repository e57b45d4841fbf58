//! The `oauth` option of `McpClient.connect`: logging in through a popup and the callback
//! page (`oauth-callback.html`, shipped with the package; host it on the page's origin).

use crate::args::{is_plain_object, kind_of, Fields};
use crate::errors::invalid_argument;
use crate::get;
use client_browser::client_core::oauth::{ClientCredentials, TokenAuthMethod};
use client_browser::{Authorizer, LoginMode, OAuthOptions, TokenStorage};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// Builds the authorizer for `url` from the `oauth` option (`true` or an object), or `None`.
pub fn authorizer(url: &str, options: &JsValue) -> Result<Option<Rc<Authorizer>>, JsError> {
    let Some(oauth) = get(options, "oauth") else {
        return Ok(None);
    };
    match oauth.as_bool() {
        Some(false) => return Ok(None),
        Some(true) => {}
        None if is_plain_object(&oauth) => {}
        None => {
            return Err(invalid_argument(&format!(
                "options.oauth must be true, false or an object, not {}",
                kind_of(&oauth)
            )))
        }
    }
    let fields = Fields::of(&oauth, "oauth");
    let text = |k: &str| fields.string(k);
    let mut o = OAuthOptions::for_page();
    o.mode = LoginMode::Popup;
    // `connect` is meant to be called from a click: log in as soon as the server asks.
    o.auto_login = true;
    o.storage = TokenStorage::Memory;
    if let Some(r) = text("redirectUri")? {
        o.redirect_uri = r;
    }
    if let Some(n) = text("clientName")? {
        o.client_name = n;
    }
    o.metadata_document_url = text("clientMetadataUrl")?;
    o.allow_local = fields.boolean("allowLocal")?.unwrap_or(false);
    o.storage = match fields
        .one_of("storage", &["memory", "session", "local"])?
        .as_deref()
    {
        Some("session") => TokenStorage::Session,
        Some("local") => TokenStorage::Local,
        _ => TokenStorage::Memory,
    };
    if let Some(client_id) = text("clientId")? {
        let secret = text("clientSecret")?;
        let methods = ["client_secret_basic", "client_secret_post", "none"];
        let auth_method = match fields
            .one_of("tokenEndpointAuthMethod", &methods)?
            .as_deref()
        {
            Some("client_secret_post") => TokenAuthMethod::ClientSecretPost,
            Some("none") => TokenAuthMethod::None,
            Some(_) => TokenAuthMethod::ClientSecretBasic,
            None if secret.is_some() => TokenAuthMethod::ClientSecretBasic,
            None => TokenAuthMethod::None,
        };
        o.preregistered.push(ClientCredentials {
            issuer: text("issuer")?.unwrap_or_default(),
            client_id,
            client_secret: secret,
            auth_method,
            source: "preregistered".into(),
        });
    }
    let auth = Authorizer::new(url.to_string(), o);
    if let Some(f) = fields.function("onTrace")? {
        auth.on_trace(move |line| {
            let _ = f.call1(&JsValue::NULL, &JsValue::from_str(line));
        });
    }
    Ok(Some(auth))
}
