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
// With `coop` instead, the login waits for the person: its page (`/interaction/UID`) shows
// until a test says the person approves (POST /__person/approve, one login each), then goes
// on to `/interaction/UID/login`, which logs the person in (every time: no login session is
// kept); consent is approved at once. Every answer carries `Cross-Origin-Opener-Policy:
// same-origin` (as some authorization servers' pages do: a login window opened by another
// origin's page is cut off from it), unless a test turned that off (POST
// /__person/coop?on=false; `on=true` turns it on again). GET /__person/stats counts the login
// pages' questions (`waits`: one a second while waiting). A login page that still has its
// opener (policy off) posts it a well-formed but forged answer.
// Usage: node auth_server.mjs PORT [dpop-nonce|coop]   (Node 20 works; oidc-provider warns about the runtime.)
import crypto from 'node:crypto';
import Provider from 'oidc-provider';
const port = Number(process.argv[2]);
const dpopNonce = process.argv[3] === 'dpop-nonce';
const coop = process.argv[3] === 'coop';
/** The person (`coop`): logins approved that no login page took yet, the login pages'
 * questions so far, and whether pages carry the Cross-Origin-Opener-Policy. */
const person = { approvals: 0, waits: 0, coop: true };
/** Login pages waiting for the person (`coop`): each is answered `approve` or `wait`. */
const waiting = [];
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
// CORS for Dynamic Client Registration, the test's counters, and (`coop`) the person.
provider.use(async (ctx, next) => {
  // Every login asks the person: an authorization request comes without the session cookie.
  if (coop && ctx.path === '/auth') delete ctx.req.headers.cookie;
  if (coop && person.coop) ctx.set('cross-origin-opener-policy', 'same-origin');
  if (coop && ctx.path.startsWith('/__person/')) {
    ctx.set('access-control-allow-origin', '*');
    if (ctx.path === '/__person/stats') {
      ctx.body = { waits: person.waits };
    } else if (ctx.path === '/__person/coop' && ctx.method === 'POST') {
      person.coop = ctx.query.on !== 'false';
      ctx.body = { coop: person.coop };
    } else if (ctx.path === '/__person/approve' && ctx.method === 'POST') {
      const page = waiting.shift();
      if (page) page('approve');
      else person.approvals += 1;
      ctx.body = 'approved';
    } else if (ctx.path === '/__person/wait') {
      // `approve` (taking one approval), or `wait` after a second without one.
      person.waits += 1;
      if (person.approvals > 0) {
        person.approvals -= 1;
        ctx.body = 'approve';
      } else {
        ctx.body = await new Promise((resolve) => {
          const timer = setTimeout(() => {
            waiting.splice(waiting.indexOf(page), 1);
            resolve('wait');
          }, 1000);
          const page = (answer) => { clearTimeout(timer); resolve(answer); };
          waiting.push(page);
        });
      }
    } else {
      ctx.status = 404;
    }
    return;
  }
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
// Approve every interaction at once (test server); with `coop`, the login waits for the person.
provider.use(async (ctx, next) => {
  const m = ctx.path.match(/^\/interaction\/([^/]+)(\/login)?$/);
  if (m) {
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    const { prompt, params } = details;
    if (prompt.name === 'login' && coop && !m[2]) {
      // The login page: it asks until the person approves (10 min at most), then goes on.
      ctx.type = 'html';
      ctx.body = `<!doctype html><meta charset="utf-8"><title>Log in (test)</title>
<p>Waiting for the person to log in.</p>
<script>
// A careless page of the authorization server posts a well-formed answer to whoever opened
// the window (possible only without the policy): the client listens to its own origin only.
if (window.opener) window.opener.postMessage({ type: 'mcp-oauth-callback', query: '?code=forged&state=posted-by-the-authorization-server' }, '*');
(async () => {
  for (let i = 0; i < 600; i += 1) {
    const answer = await fetch('/__person/wait').then((r) => r.text(), () => 'wait');
    if (answer === 'approve') { location.href = location.pathname + '/login'; return; }
  }
})();
</script>`;
      return;
    }
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
