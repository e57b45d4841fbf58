// The conformance suite's `--command`: runs OUR WASM CLIENT INSIDE HEADLESS CHROMIUM against
// the scenario's server. Usage (by the suite): node launcher.mjs <server-url>, with
// MCP_CONFORMANCE_SCENARIO and MCP_CONFORMANCE_CONTEXT in the environment.
//
// It serves harness/ (the page), the built package (dist-pkg/, as /pkg/) and the package's
// OAuth callback page on one 127.0.0.1 origin, opens the page, and calls
// window.runScenario(scenario, serverUrl, context). Exit 0 when the client did what the
// scenario asks, 1 otherwise (negative scenarios expect a refusal; the suite judges by its
// own checks).
//
// CORS: the suite's servers send no CORS headers, so this one Chromium instance runs with
// --disable-web-security (and a throwaway profile). That switch exists only here, in the
// conformance harness; every other browser test runs with CORS enforced.
import { chromium } from 'playwright-core';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.resolve(here, '../../dist-pkg');
const harness = path.join(here, 'harness');
const serverUrl = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO || '';
const context = process.env.MCP_CONFORMANCE_CONTEXT || '';
if (!serverUrl) {
  console.error('usage: launcher.mjs <server-url>');
  process.exit(2);
}

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json' };
function serve() {
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const [root, sub] = rel.startsWith('/pkg/') ? [pkg, rel.slice(5)]
      : rel.startsWith('/oauth-callback.') ? [pkg, rel.slice(1)]
      : [harness, rel === '/' ? 'index.html' : rel.slice(1)];
    const file = path.join(root, sub);
    if (!file.startsWith(root)) { res.writeHead(403).end(); return; }
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404).end(); return; }
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' }).end(data);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const site = await serve();
const origin = `http://127.0.0.1:${site.address().port}`;
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-conformance-'));
let code = 1;
let context_;
try {
  context_ = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-web-security',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = context_.pages()[0] ?? await context_.newPage();
  page.on('console', (m) => { if (m.type() === 'error') console.log(`[page] ${m.text()}`); });
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => window.harnessReady === true, null, { timeout: 10_000 });
  const result = await page.evaluate(([s, u, c]) => window.runScenario(s, u, c), [scenario, serverUrl, context]);
  for (const line of result.log) console.log(line);
  if (result.ok) {
    console.log(`client: ${scenario}: done`);
    code = 0;
  } else {
    console.log(`client: ${scenario}: refused or failed: ${result.error}`);
  }
} catch (e) {
  console.log(`launcher error: ${e?.stack ?? e}`);
} finally {
  await context_?.close().catch(() => {});
  site.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
process.exit(code);
