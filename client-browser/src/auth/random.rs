//! Randomness for PKCE verifiers and `state`, from WebCrypto.

use wasm_bindgen::JsCast;

/// 64 bytes from `crypto.getRandomValues`.
pub(crate) fn random_bytes() -> Result<[u8; 64], String> {
    let crypto = js_sys::Reflect::get(&js_sys::global(), &"crypto".into())
        .ok()
        .and_then(|c| c.dyn_into::<web_sys::Crypto>().ok())
        .ok_or("this context has no WebCrypto (crypto.getRandomValues)")?;
    let mut bytes = [0u8; 64];
    crypto
        .get_random_values_with_u8_array(&mut bytes)
        .map_err(|e| crate::fetch::js_message(&e))?;
    Ok(bytes)
}
