// A real OAuth authorization server for the OAuth tests: npm oidc-provider with PKCE,
// Dynamic Client Registration, resource indicators (JWT access tokens whose audience is the MCP
// server URL, 20 s lifetime; the scopes `mcp:tools` and `mcp:admin`, each granted when asked
// for), refresh tokens, RFC 9207 `iss` in responses, and every interaction approved
// automatically (no person in a test). Binds 127.0.0.1.
// Browsers reach it across origins: CORS on registration (oidc-provider has none there) and,
// for public clients, on the token endpoint for the origins of their redirect URIs.
// GET /__stats counts successful token requests per grant type (for the refresh test).
// With a second argument `dpop-nonce`, every DPoP proof at the token endpoint must carry a nonce
// the server gave (RFC 9449 §8): a proof without one, or with one gone stale, is answered 400
// `use_dpop_nonce` with a fresh `DPoP-Nonce`.
// Usage: node auth_server.mjs PORT [dpop-nonce]   (Node 20 works; oidc-provider warns about the runtime.)
import crypto from 'node:crypto';
import Provider from 'oidc-provider';
const port = Number(process.argv[2]);
const dpopNonce = process.argv[3] === 'dpop-nonce';
const issuer = `http://127.0.0.1:${port}`;
const provider = new Provider(issuer, {
  clients: [],
  features: {
    devInteractions: { enabled: false },
    ...(dpopNonce ? { dPoP: { enabled: true, nonceSecret: crypto.randomBytes(32), requireNonce: () => true } } : {}),
    registration: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => undefined,
      useGrantedResource: () => true,
      getResourceServerInfo: (ctx, resourceIndicator) => ({ scope: 'mcp:tools mcp:admin', audience: resourceIndicator, accessTokenFormat: 'jwt', accessTokenTTL: 20 }),
    },
  },
  scopes: ['openid', 'offline_access'],
  pkce: { required: () => true },
  interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
  issueRefreshToken: () => true,
  ttl: { AccessToken: 20 },
  clientBasedCORS: (ctx, origin, client) => client.redirectUris.some((uri) => { try { return new URL(uri).origin === origin; } catch { return false; } }),
});
const stats = { authorization_code: 0, refresh_token: 0 };
provider.on('grant.success', (ctx) => { const g = ctx.oidc.params.grant_type; if (g in stats) stats[g] += 1; });
provider.proxy = false;
// CORS for Dynamic Client Registration, and the test's counters.
provider.use(async (ctx, next) => {
  if (ctx.path === '/__stats') {
    ctx.set('access-control-allow-origin', '*');
    ctx.body = stats;
    return;
  }
  if (ctx.path === '/reg') {
    ctx.set('access-control-allow-origin', ctx.get('origin') || '*');
    if (ctx.method === 'OPTIONS') {
      ctx.set('access-control-allow-methods', 'POST');
      ctx.set('access-control-allow-headers', ctx.get('access-control-request-headers') || 'content-type');
      ctx.status = 204;
      return;
    }
  }
  await next();
});
// Auto-approve every interaction (test server).
provider.use(async (ctx, next) => {
  const m = ctx.path.match(/^\/interaction\/([^/]+)$/);
  if (m) {
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    const { prompt, params } = details;
    if (prompt.name === 'login') {
      return provider.interactionFinished(ctx.req, ctx.res, { login: { accountId: 'test-user' } }, { mergeWithLastSubmission: false });
    }
    const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId: details.session.accountId, clientId: params.client_id });
    const d = prompt.details;
    if (d.missingOIDCScope) grant.addOIDCScope(d.missingOIDCScope.join(' '));
    if (d.missingOIDCClaims) grant.addOIDCClaims(d.missingOIDCClaims);
    if (d.missingResourceScopes) for (const [indicator, scopes] of Object.entries(d.missingResourceScopes)) grant.addResourceScope(indicator, scopes.join(' '));
    const grantId = await grant.save();
    return provider.interactionFinished(ctx.req, ctx.res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }
  await next();
});
provider.listen(port, '127.0.0.1');
console.log('AS at', issuer);
