// A 2025-11-25 MCP server on the official TypeScript SDK (npm `@modelcontextprotocol/sdk` 1.x,
// stateful Streamable HTTP) with one tool that needs the person to open a web page first: the
// URL elicitation "error path". `connect-account` is refused with URLElicitationRequiredError
// (-32042) naming a page of this server (`/done?id=…`); once that page is visited (by the
// person, in the test by Node standing in for another browser tab) the server sends
// `notifications/elicitation/complete` for it, and the call then succeeds. This file only
// adapts Node's HTTP server to the SDK's transport, adds CORS for pages on other origins and
// binds 127.0.0.1.
//
// Usage: node url_required_server.mjs PORT   (endpoint /mcp)
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';

const port = Number(process.argv[2] || process.env.PORT || 0);
const base = () => `http://127.0.0.1:${server.address().port}`;
// Elicitation id → { done, notify } for every page handed out.
const pages = new Map();
// Session id → transport.
const sessions = new Map();

function mcpServer() {
  const mcp = new McpServer({ name: 'url-required', version: '1.0.0' });
  mcp.registerTool('connect-account', { description: 'Needs the account page opened first.' }, async () => {
    const done = [...pages.values()].find((p) => p.server === mcp && p.done);
    if (done) return { content: [{ type: 'text', text: 'account connected' }] };
    const id = randomUUID();
    pages.set(id, { server: mcp, done: false, notify: mcp.server.createElicitationCompletionNotifier(id) });
    throw new UrlElicitationRequiredError([
      { mode: 'url', elicitationId: id, url: `${base()}/done?id=${id}`, message: 'Connect your account on this page.' },
    ], 'Connect your account first.');
  });
  return mcp;
}

const cors = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'content-type, mcp-session-id, mcp-protocol-version, last-event-id, authorization',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-expose-headers': 'mcp-session-id, mcp-protocol-version',
};

async function body(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

const server = http.createServer(async (req, res) => {
  for (const [k, v] of Object.entries(cors)) res.setHeader(k, v);
  const url = new URL(req.url, base());
  if (req.method === 'OPTIONS') { res.writeHead(204).end(); return; }
  if (url.pathname === '/done') {
    const page = pages.get(url.searchParams.get('id'));
    if (!page) { res.writeHead(404).end('unknown page'); return; }
    page.done = true;
    await page.notify();
    res.writeHead(200, { 'content-type': 'text/plain' }).end('done');
    return;
  }
  if (url.pathname !== '/mcp') { res.writeHead(404).end(); return; }
  try {
    const parsed = req.method === 'POST' ? await body(req) : undefined;
    const id = req.headers['mcp-session-id'];
    let transport = id ? sessions.get(id) : undefined;
    if (!transport) {
      if (id || req.method !== 'POST') { res.writeHead(404).end('unknown session'); return; }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => sessions.set(sid, transport),
      });
      transport.onclose = () => { if (transport.sessionId) sessions.delete(transport.sessionId); };
      await mcpServer().connect(transport);
    }
    await transport.handleRequest(req, res, parsed);
  } catch (e) {
    if (!res.headersSent) res.writeHead(500).end(String(e));
  }
});
server.listen(port, '127.0.0.1', () => console.log(`listening on ${base()}/mcp`));
