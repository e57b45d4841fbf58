//! Checks of what a host script passes to the JavaScript API.
//!
//! The TypeScript declarations describe every argument, but a plain JavaScript caller can pass
//! anything. A value of the wrong type gets an `McpError` of kind "invalid-argument" that
//! names it. Without these checks, a number given for a string reached the bindings' string
//! copy and trapped ("memory access out of bounds"), `null` failed there with a `TypeError`,
//! and an option of the wrong type was silently ignored: an `approve` hook that is not a
//! function let every call through, a misspelled transport became "auto", a `timeoutMs` of
//! `"100"` meant no limit.

use crate::errors::invalid_argument;
use client_browser::client_core::time::Duration;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Whether `v` was left out: `undefined` or `null`.
pub(crate) fn absent(v: &JsValue) -> bool {
    v.is_undefined() || v.is_null()
}

/// A string argument; `what` names it in the error.
pub(crate) fn string_arg(v: &JsValue, what: &str) -> Result<String, JsError> {
    v.as_string()
        .ok_or_else(|| invalid_argument(&format!("{what} must be a string, not {}", kind_of(v))))
}

/// An options argument: an object, or left out (then an empty one). `what` names it.
pub(crate) fn options_arg(v: Option<JsValue>, what: &str) -> Result<JsValue, JsError> {
    match v {
        None => Ok(JsValue::UNDEFINED),
        Some(v) if absent(&v) => Ok(JsValue::UNDEFINED),
        Some(v) if is_plain_object(&v) => Ok(v),
        Some(v) => Err(invalid_argument(&format!(
            "{what} must be an object, not {}",
            kind_of(&v)
        ))),
    }
}

/// Whether `v` is an object that is neither an array nor a function.
pub(crate) fn is_plain_object(v: &JsValue) -> bool {
    v.is_object() && !js_sys::Array::is_array(v)
}

/// The fields of an options object (`options`, `oauth`), each checked for its type when it
/// is given; one left out (`undefined` or `null`) is `None`.
pub(crate) struct Fields<'a> {
    obj: &'a JsValue,
    /// How the object is named in errors (`options.timeoutMs`).
    name: &'a str,
}

impl<'a> Fields<'a> {
    /// The fields of `obj`, named `name` in errors.
    pub(crate) fn of(obj: &'a JsValue, name: &'a str) -> Self {
        Fields { obj, name }
    }

    /// Field `key` as given, if given.
    pub(crate) fn get(&self, key: &str) -> Option<JsValue> {
        crate::get(self.obj, key)
    }

    fn wrong(&self, key: &str, want: &str, got: &JsValue) -> JsError {
        invalid_argument(&format!(
            "{}.{key} must be {want}, not {}",
            self.name,
            kind_of(got)
        ))
    }

    /// A string field.
    pub(crate) fn string(&self, key: &str) -> Result<Option<String>, JsError> {
        self.get(key)
            .map(|v| v.as_string().ok_or_else(|| self.wrong(key, "a string", &v)))
            .transpose()
    }

    /// A boolean field.
    pub(crate) fn boolean(&self, key: &str) -> Result<Option<bool>, JsError> {
        self.get(key)
            .map(|v| {
                v.as_bool()
                    .ok_or_else(|| self.wrong(key, "true or false", &v))
            })
            .transpose()
    }

    /// A function field (a handler or a hook).
    pub(crate) fn function(&self, key: &str) -> Result<Option<js_sys::Function>, JsError> {
        self.get(key)
            .map(|v| {
                v.clone()
                    .dyn_into::<js_sys::Function>()
                    .map_err(|_| self.wrong(key, "a function", &v))
            })
            .transpose()
    }

    /// A time limit in milliseconds: a positive number (fractions of a millisecond are
    /// dropped; one so large that it never runs out is no limit at all).
    pub(crate) fn milliseconds(&self, key: &str) -> Result<Option<Duration>, JsError> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        match v.as_f64() {
            Some(ms) if ms > 0.0 && !ms.is_nan() => {
                // `as` saturates: Infinity and 1e300 become the longest time there is.
                Ok(Some(Duration::from_millis((ms as u64).max(1))))
            }
            _ => Err(self.wrong(key, "a positive number of milliseconds", &v)),
        }
    }

    /// An `AbortSignal` (or anything shaped like one: an `aborted` flag and
    /// `addEventListener`, as polyfills have).
    pub(crate) fn signal(&self, key: &str) -> Result<Option<JsValue>, JsError> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        let has = |k: &str| js_sys::Reflect::get(&v, &k.into()).ok();
        let shaped = v.is_object()
            && has("aborted").is_some_and(|a| a.as_bool().is_some())
            && has("addEventListener").is_some_and(|f| f.is_function());
        if shaped {
            Ok(Some(v))
        } else {
            Err(self.wrong(key, "an AbortSignal", &v))
        }
    }

    /// A string field that must be one of `allowed`.
    pub(crate) fn one_of(&self, key: &str, allowed: &[&str]) -> Result<Option<String>, JsError> {
        let Some(s) = self.string(key)? else {
            return Ok(None);
        };
        if allowed.contains(&s.as_str()) {
            return Ok(Some(s));
        }
        let names: Vec<String> = allowed.iter().map(|a| format!("{a:?}")).collect();
        Err(invalid_argument(&format!(
            "{}.{key} must be one of {}, not {s:?}",
            self.name,
            names.join(", ")
        )))
    }
}

/// What kind of JavaScript value `v` is, for an error message (its type, never its contents:
/// an argument may hold a secret).
pub(crate) fn kind_of(v: &JsValue) -> &'static str {
    if v.is_undefined() {
        "undefined"
    } else if v.is_null() {
        "null"
    } else if v.as_string().is_some() {
        "a string"
    } else if v.as_f64().is_some() {
        "a number"
    } else if v.as_bool().is_some() {
        "a boolean"
    } else if v.is_bigint() {
        "a BigInt"
    } else if v.is_symbol() {
        "a symbol"
    } else if v.is_function() {
        "a function"
    } else if js_sys::Array::is_array(v) {
        "an array"
    } else {
        "an object"
    }
}
