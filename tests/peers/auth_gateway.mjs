// A protected MCP server for the OAuth tests: an OAuth resource server in front of a real MCP
// server. It publishes Protected Resource Metadata (RFC 9728) naming the authorization server,
// answers requests without a valid token with 401 and a Bearer challenge, and forwards
// requests whose JWT access token (signed by the authorization server, audience = this MCP
// endpoint) verifies. CORS is on and exposes WWW-Authenticate, as a browser client needs.
// POST /__expire makes every token seen so far count as expired (answered 401 invalid_token),
// so a test can force a refresh without waiting; GET /__stats counts those refusals.
// Binds 127.0.0.1. Usage: node auth_gateway.mjs PORT AUTH_SERVER_URL UPSTREAM_MCP_URL
import http from 'node:http';
import { createRemoteJWKSet, jwtVerify } from 'jose';

const [port, issuer, upstream] = [Number(process.argv[2]), process.argv[3], new URL(process.argv[4])];
const base = `http://127.0.0.1:${port}`;
const resource = `${base}/mcp`;
const metadataUrl = `${base}/.well-known/oauth-protected-resource/mcp`;
const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
const cors = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, DELETE',
  'access-control-expose-headers': 'www-authenticate, mcp-session-id, mcp-protocol-version, last-event-id',
};
const seen = new Set();
const expired = new Set();
const stats = { expired_refusals: 0, forwarded: 0 };
const metadata = JSON.stringify({ resource, authorization_servers: [issuer], scopes_supported: ['mcp:tools'] });

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
  if (req.url === '/__stats') {
    res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify(stats));
    return;
  }
  if (!req.url.startsWith('/mcp')) {
    res.writeHead(404, cors).end();
    return;
  }
  const token = (req.headers.authorization || '').replace(/^Bearer\s+/i, '');
  try {
    if (!token) throw new Error('no token');
    await jwtVerify(token, jwks, { issuer, audience: resource });
    if (expired.has(token)) { stats.expired_refusals += 1; throw new Error('expired'); }
    seen.add(token);
    stats.forwarded += 1;
  } catch (e) {
    const error = token ? ', error="invalid_token"' : '';
    res.writeHead(401, { ...cors, 'www-authenticate': `Bearer resource_metadata="${metadataUrl}", scope="mcp:tools"${error}` }).end();
    return;
  }
  const headers = { ...req.headers, host: upstream.host };
  delete headers.authorization;
  delete headers.origin;
  const up = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: upstream.pathname, headers }, (ur) => {
    const out = { ...ur.headers };
    for (const k of Object.keys(out)) if (k.startsWith('access-control-')) delete out[k];
    res.writeHead(ur.statusCode, { ...out, ...cors });
    ur.pipe(res);
  });
  up.on('error', () => { if (!res.headersSent) res.writeHead(502, cors); res.end(); });
  req.pipe(up);
}).listen(port, '127.0.0.1');
