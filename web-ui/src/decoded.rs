//! A server's answer decoded for the page, kept beside the JSON it came as.

use client_browser::ClientError;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// An answer decoded as `T` to be shown, with the JSON it came as: its `_meta`, the fields
/// this client does not know, its keys in the server's order. "… as JSON" shows that whole,
/// not the decoded value written out again.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded<T> {
    /// What the page shows.
    pub value: T,
    /// The answer as it came.
    pub raw: Value,
}

impl<T: DeserializeOwned> Decoded<T> {
    /// Reads `raw`, a result of `method`; one of the wrong shape says what was wrong.
    pub fn decode(method: &str, raw: Value) -> Result<Self, ClientError> {
        let value = client_browser::decode(method, &raw)?;
        Ok(Decoded { value, raw })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use client_browser::client_core::types::ReadResourceResult;
    use serde_json::json;

    #[test]
    fn the_answer_is_kept_as_it_came_beside_what_is_shown() {
        let raw = json!({
            "_meta": {"x.example/trace": "t1"},
            "contents": [{"uri": "a://b", "text": "hi", "mimeType": "text/plain"}],
            "zNotInTheSchema": 1,
        });
        let read = Decoded::<ReadResourceResult>::decode("resources/read", raw.clone()).unwrap();
        assert_eq!(read.value.contents[0].text.as_deref(), Some("hi"));
        assert_eq!(read.raw, raw);
        let keys: Vec<&String> = read.raw.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            ["_meta", "contents", "zNotInTheSchema"],
            "the server's order"
        );
    }

    #[test]
    fn an_answer_of_the_wrong_shape_names_its_method() {
        let e = Decoded::<ReadResourceResult>::decode("resources/read", json!({"contents": 3}))
            .unwrap_err();
        assert!(
            e.to_string().contains("malformed resources/read result"),
            "{e}"
        );
    }
}
