//! OAuth for MCP servers, sans-IO: challenge parsing, the URL guard, metadata discovery,
//! PKCE, client identification, the authorization code flow and refresh.

pub mod challenge;
pub mod flow;
pub mod guard;
pub mod metadata;
pub mod pkce;

pub use flow::{
    AuthConfig, AuthError, AuthFlow, AuthOutput, AuthRequest, ClientCredentials,
    PendingAuthorization, TokenAuthMethod, TokenSet,
};
pub use guard::{check_url, UrlPolicy};
