//! PKCE with S256 only (RFC 7636), from randomness the caller supplies (the core reads no
//! random source; the browser layer uses WebCrypto).

use alloc::string::String;
use base64::Engine;
use sha2::{Digest, Sha256};

/// A PKCE pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pkce {
    /// The secret `code_verifier` (43 characters from 32 random bytes).
    pub verifier: String,
    /// `BASE64URL(SHA256(verifier))`, sent as `code_challenge`.
    pub challenge: String,
}

/// Base64url without padding.
pub fn b64url(bytes: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// `BASE64URL(SHA256(input))`: a PKCE challenge, or a DPoP `ath` (hash of the access token).
pub fn s256(input: &str) -> String {
    b64url(&Sha256::digest(input.as_bytes()))
}

impl Pkce {
    /// A verifier from 32 random bytes, and its S256 challenge.
    pub fn from_random(random: &[u8; 32]) -> Pkce {
        let verifier = b64url(random);
        let challenge = s256(&verifier);
        Pkce {
            verifier,
            challenge,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc7636_appendix_b() {
        // The RFC's example verifier is the base64url of these 32 octets.
        let octets: [u8; 32] = [
            116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212,
            37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
        ];
        let p = Pkce::from_random(&octets);
        assert_eq!(p.verifier, "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
        assert_eq!(p.challenge, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    }

    #[test]
    fn s256_of_the_rfc_examples() {
        // RFC 7636 Appendix B (the challenge of its verifier) and RFC 9449 (the proof example's
        // `ath`, the hash of its example access token).
        assert_eq!(
            s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
        assert_eq!(
            s256("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU"),
            "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo"
        );
    }
}
