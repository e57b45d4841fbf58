// A 2026-07-28 MCP server on the official TypeScript SDK (npm `@modelcontextprotocol/server`
// 2.x, `createMcpHandler`): the second independent implementation of the modern era the tests
// run against (beside the PyPI `mcp` 2.x one). It serves the 2025 era too (the SDK's stateless
// fallback). The handler is fetch-shaped; this file only adapts Node's HTTP server to it, adds
// CORS for browser pages on other origins, and binds 127.0.0.1.
//
// Usage: node ts_modern_server.mjs PORT [strict|subscribe]   (endpoint /mcp; `strict`:
// 2026-07-28 only, the SDK's `legacy: 'reject'`, so 2025-era requests such as `initialize` are
// refused; `subscribe`: it also offers resource subscriptions, `resources.subscribe`, which
// its `subscriptions/listen` then honours)
import fs from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import * as z from 'zod';

const port = Number(process.argv[2] || process.env.PORT || 0);

// The clock's View, built on the extension's own SDK for Views (npm
// @modelcontextprotocol/ext-apps, its bundle with its dependencies, inlined: a View has no
// network). It connects to the host, then lists the server's resources through it
// (`App.listServerResources`, a `resources/list` the host makes on the server) and shows
// their URIs. Its button "Touch" calls `touch` through the host; the notifications of changed
// lists the host then sends it are shown. Its button "Ask" asks the host for a model reply
// (`App.createSamplingMessage`) and shows the reply, or the refusal. The bundle's closing `export { … }` becomes the two names
// used here.
const sdk = fs.readFileSync(fileURLToPath(import.meta.resolve('@modelcontextprotocol/ext-apps/app-with-deps')), 'utf8');
const exported = Object.fromEntries(/export\s*\{([^}]*)\}\s*;?\s*$/.exec(sdk)[1].split(',')
  .map((pair) => pair.trim().split(/\s+as\s+/)).map(([local, name]) => [name ?? local, local]));
const CLOCK_VIEW = `<!doctype html><p id="face">clock</p><pre id="listed"></pre><button id="touch">Touch</button><pre id="changed"></pre><button id="ask">Ask</button><pre id="reply"></pre><script type="module">
addEventListener('message', (e) => {
  const method = e.data && e.data.method;
  if (typeof method === 'string' && method.endsWith('/list_changed')) document.getElementById('changed').textContent += method + ' ';
});
${sdk.replace(/export\s*\{[^}]*\}\s*;?\s*$/, '')}
const app = new ${exported.App}({ name: 'clock', version: '1.0.0' }, {});
await app.connect(new ${exported.PostMessageTransport}(window.parent, window.parent));
const listed = await app.listServerResources();
document.getElementById('listed').textContent = listed.resources.map((r) => r.uri).join(' ');
document.getElementById('touch').onclick = () => app.callServerTool({ name: 'touch', arguments: {} });
document.getElementById('ask').onclick = () => app.createSamplingMessage({
  messages: [{ role: 'user', content: { type: 'text', text: 'What time is it in Paris?' } }], maxTokens: 30,
}).then((r) => \`reply: \${r.content.text} (\${r.model})\`, (e) => \`refused: \${e.message}\`)
  .then((text) => { document.getElementById('reply').textContent = text; });
</script>`;
const mode = process.argv[3];

function serverFor() {
  const capabilities = { logging: {}, ...(mode === 'subscribe' ? { resources: { subscribe: true } } : {}) };
  const server = new McpServer({ name: 'ts-sdk-modern', version: '2.4.0' }, { capabilities });
  server.registerTool('echo', {
    description: 'Echoes the message back.',
    inputSchema: z.object({ message: z.string() }),
  }, async ({ message }) => ({ content: [{ type: 'text', text: `Echo: ${message}` }] }));
  server.registerTool('add', {
    description: 'Adds two numbers; the sum is also structured content.',
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    outputSchema: z.object({ sum: z.number() }),
  }, async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }));
  server.registerTool('count', {
    description: 'Counts to n, reporting progress on the way.',
    inputSchema: z.object({ n: z.number().int().min(1).max(20) }),
  }, async ({ n }, ctx) => {
    const token = ctx.mcpReq?._meta?.progressToken;
    for (let i = 1; i <= n; i++) {
      if (token !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: n } });
    }
    return { content: [{ type: 'text', text: `counted to ${n}` }] };
  });
  server.registerTool('touch', {
    description: 'Announces that test://greeting changed and that the tool list changed.',
  }, async () => {
    mcp.notify.resourceUpdated('test://greeting');
    mcp.notify.toolsChanged();
    return { content: [{ type: 'text', text: 'announced' }] };
  });
  server.registerResource('greeting', 'test://greeting', { mimeType: 'text/plain', description: 'A fixed text.' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'hello from the TypeScript SDK' }] }));
  // An MCP App whose origins are declared on its resource's registration (the list entry),
  // as the extension's SDK does, and not on the contents read.
  server.registerTool('clock', {
    description: 'Tells the time; shown with an MCP App.',
    _meta: { ui: { resourceUri: 'ui://ts/clock' } },
  }, async () => ({ content: [{ type: 'text', text: new Date(0).toISOString() }] }));
  server.registerResource('clock view', 'ui://ts/clock', {
    mimeType: 'text/html;profile=mcp-app',
    _meta: { ui: { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: false } },
  }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/html;profile=mcp-app', text: CLOCK_VIEW }] }));
  server.registerPrompt('greet', {
    description: 'Greets someone.',
    argsSchema: z.object({ name: z.string() }),
  }, ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Say hello to ${name}.` } }] }));
  return server;
}

const strict = mode === 'strict';
const mcp = createMcpHandler(serverFor, strict ? { legacy: 'reject' } : {});

const cors = (req) => ({
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-allow-headers': req.headers['access-control-request-headers'] || '*',
  'access-control-expose-headers': 'mcp-session-id, mcp-protocol-version, www-authenticate',
});

http.createServer(async (req, res) => {
  if (req.method === 'OPTIONS') { res.writeHead(204, cors(req)).end(); return; }
  if (!req.url.startsWith('/mcp')) { res.writeHead(404, cors(req)).end('not found'); return; }
  try {
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(`http://127.0.0.1:${port}${req.url}`, {
      method: req.method,
      headers: Object.entries(req.headers).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]])),
      body: hasBody ? Readable.toWeb(req) : undefined,
      duplex: hasBody ? 'half' : undefined,
    });
    const response = await mcp.fetch(request);
    res.writeHead(response.status, { ...Object.fromEntries(response.headers), ...cors(req) });
    res.flushHeaders();
    if (response.body) {
      for await (const chunk of response.body) res.write(chunk);
    }
    res.end();
  } catch (e) {
    if (!res.headersSent) res.writeHead(500, cors(req));
    res.end(String(e));
  }
}).listen(port, '127.0.0.1');
