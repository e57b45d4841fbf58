// A protected MCP server for the OAuth tests: an OAuth resource server in front of a real MCP
// server. It publishes Protected Resource Metadata (RFC 9728) naming the authorization server,
// answers requests without a valid token with 401 and a Bearer challenge, and forwards
// requests whose JWT access token (signed by the authorization server, audience = this MCP
// endpoint) verifies. CORS is on and exposes WWW-Authenticate, as a browser client needs.
// POST /__expire makes every token seen so far count as expired (answered 401 invalid_token),
// so a test can force a refresh without waiting; GET /__stats counts those refusals (and the
// others of each kind); GET /__log lists each request that reached it (method, JSON-RPC
// method, authorized or why not). POST /__token_unavailable answers like a token endpoint that
// is down for a while (400 `temporarily_unavailable`). POST /__refuse_tokens?count=N refuses
// the next N requests that present a valid token as if it had expired (401 `invalid_token`),
// as a server that never takes the tokens its authorization server issues would; count=0
// ends it. Bounded by a count: a test that fails half-way does not leave it refusing for good.
// With a fourth argument `dpop` it requires DPoP-bound tokens (RFC 9449): a `DPoP` challenge,
// `dpop_bound_access_tokens_required` in its metadata, and on every request a proof signed by
// the key the token is bound to (`cnf.jkt`), for this method and URL, with the token's hash.
// With `tools-only` instead, only requests for tools (JSON-RPC methods `tools/...`) need a token:
// a client connects without one, then its tool list is refused, as on servers that guard only
// what acts. With `calls-only`, only `tools/call` needs one: the tools are listed without a
// login, and the first call asks for it. With `step-up`, a tool call needs the scope
// `mcp:admin` on top of `mcp:tools`: a token without it is answered 403 with an
// `insufficient_scope` challenge naming both (a step-up, as the MCP authorization spec has it).
// With `dpop-nonce`, as with `dpop`, and every proof must also carry the gateway's current nonce
// (RFC 9449 §9), which changes after every four requests it let through: a proof without it is
// answered 401 `use_dpop_nonce` with the current one in `DPoP-Nonce`. After
// POST /__nonce_every_time?on=true (until ?on=false) it refuses every proof that way, each
// time with a new nonce, as a broken server would.
// With `metadata-without-cors`, its challenges name resource metadata at `/__no_cors/metadata`,
// which answers 404 without CORS headers (a browser page cannot read it, as often happens
// with a document a server does not have); the well-known metadata stays readable.
// Binds 127.0.0.1. Usage: node auth_gateway.mjs PORT AUTH_SERVER_URL UPSTREAM_MCP_URL [dpop|dpop-nonce|tools-only|calls-only|step-up|metadata-without-cors]
import http from 'node:http';
import crypto from 'node:crypto';
import { createRemoteJWKSet, jwtVerify, EmbeddedJWK, calculateJwkThumbprint } from 'jose';

const [port, issuer, upstream] = [Number(process.argv[2]), process.argv[3], new URL(process.argv[4])];
const dpopNonce = process.argv[5] === 'dpop-nonce';
const dpop = process.argv[5] === 'dpop' || dpopNonce;
/** The nonce proofs must carry now (`dpop-nonce`), and how many requests it let through. */
let nonce = { value: crypto.randomBytes(16).toString('base64url'), used: 0 };
/** Whether every proof is refused with a new nonce (POST /__nonce_every_time). */
let nonceEveryTime = false;
/** How many more requests with a valid token are refused as expired (POST /__refuse_tokens). */
let tokensToRefuse = 0;
class NonceNeeded extends Error {}
const callsOnly = process.argv[5] === 'calls-only';
const toolsOnly = process.argv[5] === 'tools-only' || callsOnly;
const stepUp = process.argv[5] === 'step-up';
const metadataWithoutCors = process.argv[5] === 'metadata-without-cors';
const base = `http://127.0.0.1:${port}`;
const resource = `${base}/mcp`;
const metadataUrl = metadataWithoutCors ? `${base}/__no_cors/metadata` : `${base}/.well-known/oauth-protected-resource/mcp`;
const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
const cors = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, DELETE',
  'access-control-expose-headers': 'www-authenticate, mcp-session-id, mcp-protocol-version, last-event-id, dpop-nonce',
};
const seen = new Set();
const expired = new Set();
const stats = { expired_refusals: 0, forwarded: 0, dpop_verified: 0, dpop_refusals: 0, insufficient_scope: 0, nonce_challenges: 0 };
const metadata = JSON.stringify({ resource, authorization_servers: [issuer], scopes_supported: stepUp ? ['mcp:tools', 'mcp:admin'] : ['mcp:tools'], ...(dpop ? { dpop_bound_access_tokens_required: true } : {}) });
const proofsSeen = new Set();
/** What reached the gateway, in order ("POST tools/call authorized", "DELETE refused: …"):
 * GET /__log. */
const log = [];

/** Checks the DPoP proof of a request against the token it presents (RFC 9449 §4.3, §7). */
async function checkDpop(req, token, claims) {
  const proof = req.headers.dpop;
  if (!proof) throw new Error('no DPoP proof');
  const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: ['ES256'] });
  const htu = `${base}${req.url.split('?')[0]}`;
  if (payload.htm !== req.method || payload.htu !== htu) throw new Error('proof for another request');
  if (Math.abs(Date.now() / 1000 - payload.iat) > 300) throw new Error('stale proof');
  if (proofsSeen.has(payload.jti)) throw new Error('replayed proof');
  proofsSeen.add(payload.jti);
  const ath = crypto.createHash('sha256').update(token).digest('base64url');
  if (payload.ath !== ath) throw new Error('proof for another token');
  if (claims.cnf?.jkt !== await calculateJwkThumbprint(protectedHeader.jwk)) throw new Error('token bound to another key');
  if (dpopNonce) {
    if (nonceEveryTime) {
      nonce = { value: crypto.randomBytes(16).toString('base64url'), used: 0 };
      throw new NonceNeeded('a nonce it no longer takes (every time)');
    }
    if (payload.nonce !== nonce.value) throw new NonceNeeded(payload.nonce ? 'a stale nonce' : 'no nonce');
    nonce.used += 1;
    if (nonce.used >= 4) nonce = { value: crypto.randomBytes(16).toString('base64url'), used: 0 };
  }
}

http.createServer(async (req, res) => {
  if (req.method === 'OPTIONS') {
    res.writeHead(204, { ...cors, 'access-control-allow-headers': req.headers['access-control-request-headers'] || '' }).end();
    return;
  }
  if (req.url === '/.well-known/oauth-protected-resource/mcp' || req.url === '/.well-known/oauth-protected-resource') {
    res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(metadata);
    return;
  }
  if (req.url === '/__expire' && req.method === 'POST') {
    for (const t of seen) expired.add(t);
    res.writeHead(204, cors).end();
    return;
  }
  if (req.url.startsWith('/__nonce_every_time') && req.method === 'POST') {
    nonceEveryTime = new URL(req.url, base).searchParams.get('on') === 'true';
    res.writeHead(204, cors).end();
    return;
  }
  if (req.url.startsWith('/__refuse_tokens') && req.method === 'POST') {
    tokensToRefuse = Math.max(0, Number(new URL(req.url, base).searchParams.get('count')) || 0);
    res.writeHead(204, cors).end();
    return;
  }
  if (req.url.startsWith('/__no_cors/')) {
    req.resume();
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    return;
  }
  if (req.url === '/__token_unavailable') {
    // A token endpoint that is down for a while (RFC 6749 §5.2 `temporarily_unavailable`),
    // for a test that points a client's refresh at it.
    req.resume();
    res.writeHead(400, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify({ error: 'temporarily_unavailable', error_description: 'try again later' }));
    return;
  }
  if (req.url === '/__log') {
    res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify(log));
    return;
  }
  if (req.url === '/__stats') {
    res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify(stats));
    return;
  }
  if (!req.url.startsWith('/mcp')) {
    res.writeHead(404, cors).end();
    return;
  }
  // The body is read first (requests are small): it may decide whether a token is needed,
  // and its JSON-RPC method goes to the log.
  const body = await readBody(req);
  const what = `${req.method}${rpcMethod(body) ? ` ${rpcMethod(body)}` : ''}`;
  if (toolsOnly && !needsToken(body)) {
    log.push(`${what} forwarded without a token`);
    forward(req, res, body);
    return;
  }
  const auth = req.headers.authorization || '';
  const scheme = (auth.match(/^(\S+)\s/) || [])[1]?.toLowerCase();
  const token = auth.replace(/^\S+\s+/, '');
  try {
    if (!token) throw new Error('no token');
    const { payload: claims } = await jwtVerify(token, jwks, { issuer, audience: resource });
    if (dpop) {
      try {
        if (scheme !== 'dpop') throw new Error('not the DPoP scheme');
        await checkDpop(req, token, claims);
        stats.dpop_verified += 1;
      } catch (e) {
        if (e instanceof NonceNeeded) {
          stats.nonce_challenges += 1;
          log.push(`${what} refused: ${e.message}`);
          res.writeHead(401, { ...cors, 'dpop-nonce': nonce.value, 'www-authenticate': `DPoP algs="ES256", error="use_dpop_nonce", error_description="a nonce is needed"` }).end();
          return;
        }
        stats.dpop_refusals += 1;
        throw e;
      }
    } else if (scheme !== 'bearer') {
      throw new Error('not the Bearer scheme');
    }
    if (expired.has(token)) { stats.expired_refusals += 1; throw new Error('expired'); }
    if (tokensToRefuse > 0) { tokensToRefuse -= 1; throw new Error('a valid token refused on purpose'); }
    seen.add(token);
    if (stepUp && rpcMethod(body) === 'tools/call' && !String(claims.scope || '').split(' ').includes('mcp:admin')) {
      stats.insufficient_scope += 1;
      log.push(`${what} refused: insufficient scope (${claims.scope})`);
      res.writeHead(403, { ...cors, 'www-authenticate': `Bearer error="insufficient_scope", scope="mcp:tools mcp:admin", resource_metadata="${metadataUrl}"` }).end();
      return;
    }
    stats.forwarded += 1;
    log.push(`${what} authorized`);
  } catch (e) {
    log.push(`${what} refused: ${e.message}`);
    // Why, as a resource server says it (RFC 6750 §3): the messages above hold no quote.
    const error = token ? `, error="invalid_token", error_description="${e.message}"` : '';
    const challenge = dpop ? `DPoP algs="ES256", resource_metadata="${metadataUrl}", scope="mcp:tools"${error}` : `Bearer resource_metadata="${metadataUrl}", scope="mcp:tools"${error}`;
    res.writeHead(401, { ...cors, 'www-authenticate': challenge }).end();
    return;
  }
  forward(req, res, body);
}).listen(port, '127.0.0.1');

/** The JSON-RPC method of a request body (the first of a batch), if it has one. */
function rpcMethod(body) {
  try {
    const m = [JSON.parse(body.toString('utf8'))].flat()[0]?.method;
    return typeof m === 'string' ? m : '';
  } catch {
    return '';
  }
}

/** The whole request body. */
function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** With `tools-only` (`calls-only`): whether a request body asks for tools (calls one), a
 * batch if any message does. */
function needsToken(body) {
  if (body.length === 0) return false;
  try {
    const parsed = JSON.parse(body.toString('utf8'));
    const guarded = (method) => (callsOnly ? method === 'tools/call' : method.startsWith('tools/'));
    return [parsed].flat().some((m) => typeof m?.method === 'string' && guarded(m.method));
  } catch {
    return true;
  }
}

/** Sends the request on to the MCP server (`body` if already read) and its answer back. */
function forward(req, res, body) {
  const headers = { ...req.headers, host: upstream.host };
  delete headers.authorization;
  delete headers.dpop;
  delete headers.origin;
  const up = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: upstream.pathname, headers }, (ur) => {
    const out = { ...ur.headers };
    for (const k of Object.keys(out)) if (k.startsWith('access-control-')) delete out[k];
    res.writeHead(ur.statusCode, { ...out, ...cors });
    // The head goes out as soon as the server sent it (Node would hold it until the first
    // body bytes, and an event stream would look unanswered).
    res.flushHeaders();
    ur.pipe(res);
  });
  up.on('error', () => { if (!res.headersSent) res.writeHead(502, cors); res.end(); });
  if (body) up.end(body);
  else req.pipe(up);
}
