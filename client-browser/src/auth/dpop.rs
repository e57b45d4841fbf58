//! DPoP proofs (RFC 9449), signed in the browser with a P-256 key that WebCrypto generates
//! as non-extractable: a script that steals a DPoP-bound token cannot use it elsewhere,
//! because the private key never leaves the browser's key store. The key lives as long as
//! the page (a reload means a new key, and DPoP-bound refresh tokens then need a new login).

use client_core::oauth::pkce::{b64url, s256};
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// A signing key and its public JWK.
pub(crate) struct DpopKey {
    private: web_sys::CryptoKey,
    jwk: Value,
}

pub(crate) fn subtle() -> Result<web_sys::SubtleCrypto, String> {
    let crypto = js_sys::Reflect::get(&js_sys::global(), &"crypto".into())
        .ok()
        .and_then(|c| c.dyn_into::<web_sys::Crypto>().ok())
        .ok_or("no WebCrypto in this context")?;
    Ok(crypto.subtle())
}

/// Whether this page can sign DPoP proofs (WebCrypto needs a secure context).
pub(crate) fn available() -> bool {
    js_sys::Reflect::get(&js_sys::global(), &"isSecureContext".into())
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
        && subtle().is_ok()
}

fn obj(pairs: &[(&str, &str)]) -> js_sys::Object {
    let o = js_sys::Object::new();
    for (k, v) in pairs {
        let _ = js_sys::Reflect::set(&o, &(*k).into(), &(*v).into());
    }
    o
}

fn text(v: &JsValue, k: &str) -> Result<String, String> {
    js_sys::Reflect::get(v, &k.into())
        .ok()
        .and_then(|x| x.as_string())
        .ok_or_else(|| format!("the public key has no {k}"))
}

impl DpopKey {
    /// A fresh ECDSA P-256 key pair (private key not extractable).
    pub async fn generate() -> Result<DpopKey, String> {
        let subtle = subtle()?;
        let msg = |e: JsValue| crate::fetch::js_message(&e);
        let usages = js_sys::Array::of2(&"sign".into(), &"verify".into());
        let algo = obj(&[("name", "ECDSA"), ("namedCurve", "P-256")]);
        let pair = JsFuture::from(
            subtle
                .generate_key_with_object(&algo, false, &usages)
                .map_err(msg)?,
        )
        .await
        .map_err(msg)?;
        let private: web_sys::CryptoKey = js_sys::Reflect::get(&pair, &"privateKey".into())
            .map_err(msg)?
            .unchecked_into();
        let public: web_sys::CryptoKey = js_sys::Reflect::get(&pair, &"publicKey".into())
            .map_err(msg)?
            .unchecked_into();
        let exported = JsFuture::from(subtle.export_key("jwk", &public).map_err(msg)?)
            .await
            .map_err(msg)?;
        let jwk = json!({ "crv": text(&exported, "crv")?, "kty": "EC", "x": text(&exported, "x")?, "y": text(&exported, "y")? });
        Ok(DpopKey { private, jwk })
    }

    /// A proof for one request: `htm`/`htu` of the request, `ath` when an access token is
    /// presented with it, and the server's nonce when it asked for one.
    pub async fn proof(
        &self,
        method: &str,
        url: &str,
        access_token: Option<&str>,
        nonce: Option<&str>,
    ) -> Result<String, String> {
        let htu = url.split(['?', '#']).next().unwrap_or(url);
        let random = super::random::random_bytes()?;
        let mut payload = json!({
            "jti": b64url(&random[..16]),
            "htm": method,
            "htu": htu,
            "iat": (js_sys::Date::now() / 1000.0) as u64,
        });
        if let Some(t) = access_token {
            payload["ath"] = Value::String(s256(t));
        }
        if let Some(n) = nonce {
            payload["nonce"] = Value::String(n.to_string());
        }
        let header = json!({ "typ": "dpop+jwt", "alg": "ES256", "jwk": self.jwk });
        let input = format!(
            "{}.{}",
            b64url(header.to_string().as_bytes()),
            b64url(payload.to_string().as_bytes())
        );
        let msg = |e: JsValue| crate::fetch::js_message(&e);
        let algo = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&algo, &"name".into(), &"ECDSA".into());
        let _ = js_sys::Reflect::set(&algo, &"hash".into(), &"SHA-256".into());
        let sig = JsFuture::from(
            subtle()?
                .sign_with_object_and_u8_array(&algo, &self.private, input.as_bytes())
                .map_err(msg)?,
        )
        .await
        .map_err(msg)?;
        // WebCrypto's ECDSA signature is r||s, which is exactly the JWS form.
        let sig = js_sys::Uint8Array::new(&sig).to_vec();
        Ok(format!("{input}.{}", b64url(&sig)))
    }
}
