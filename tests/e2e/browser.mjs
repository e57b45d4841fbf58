// Shared helpers for end-to-end tests: Debian's Chromium driven by playwright-core, static
// file serving on 127.0.0.1, and polling with a deadline (no sleeps as synchronisation).
import { chromium } from 'playwright-core';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { before, after } from 'node:test';

/** Where a test's screenshot `name` (e.g. 'tools.png') goes: the README's own
 * (docs/screenshots) when UPDATE_SCREENSHOTS=1 asks for them to be refreshed, else a
 * directory under the system's temporary one, so that a test run leaves the checkout as it
 * was. Either way the screenshot is taken: the page must render for it. */
export function screenshotPath(name) {
  const dir = process.env.UPDATE_SCREENSHOTS === '1'
    ? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/screenshots')
    : path.join(os.tmpdir(), 'mcp-e2e-screenshots');
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, name);
}

/** Launches headless Debian Chromium with flags that suit this closed network. */
export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
}

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json', '.png': 'image/png',
};

/** Serves `dir` on 127.0.0.1 (a free port), under the path `prefix` (e.g. '/app', like a
 * site hosted in a sub-directory; nothing else is served); resolves to { url, close }. */
export function serveDir(dir, prefix = '') {
  const server = http.createServer((req, res) => {
    let rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (prefix) {
      if (!rel.startsWith(`${prefix}/`)) { res.writeHead(404).end('not found'); return; }
      rel = rel.slice(prefix.length);
    }
    let file = path.join(dir, rel);
    if (!file.startsWith(dir)) { res.writeHead(403).end(); return; }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.stat(file, (err, st) => {
      if (err || !st.isFile()) { res.writeHead(404).end('not found'); return; }
      // Like a static host (nginx's validator is the same): an ETag from size and modification
      // time on every file, revalidated on every use (so a page never runs stale files, and a
      // browser keeps what it fetched, e.g. compiled wasm); a 304 costs no file read.
      const etag = `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
      const headers = {
        'content-type': TYPES[path.extname(file)] || 'application/octet-stream',
        // Allow module imports from other origins (host pages that embed the package).
        'access-control-allow-origin': '*',
        'cache-control': 'no-cache',
        etag,
      };
      if (req.headers['if-none-match'] === etag) { res.writeHead(304, headers).end(); return; }
      fs.readFile(file, (readErr, data) => {
        if (readErr) { res.writeHead(404).end('not found'); return; }
        res.writeHead(200, headers);
        res.end(data);
      });
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

/** Polls `check` until it returns a truthy value or `ms` pass; on a timeout, the error names
 * `what` and, when given, what `state()` then returns (to tell one failure from another). */
export async function waitFor(check, ms = 10_000, what = 'condition', state = undefined) {
  const end = Date.now() + ms;
  let last;
  while (Date.now() < end) {
    try {
      last = await check();
      if (last) return last;
    } catch (e) { last = e; }
    await new Promise((r) => setTimeout(r, 50));
  }
  const then = state ? `; then: ${await Promise.resolve().then(state).catch((e) => e)}` : '';
  throw new Error(`timed out after ${ms} ms waiting for ${what} (last: ${last}${then})`);
}

/** Starts a test peer script (tests/peers/...) on a free 127.0.0.1 port; resolves to { url, port, stop }. */
export async function startPeer(script, args = [], path = '/mcp') {
  const { spawn } = await import('node:child_process');
  const net = await import('node:net');
  const port = await new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
  });
  const here = path_dirname();
  const file = `${here}/../peers/${script}`;
  const child = script.endsWith('.mjs')
    ? spawn(process.execPath, [file, String(port), ...args], { stdio: 'ignore' })
    : spawn(file, [String(port), ...args], { stdio: 'ignore' });
  await waitFor(() => new Promise((r) => {
    const c = net.connect(port, '127.0.0.1', () => { c.end(); r(true); });
    c.on('error', () => r(false));
  }), 15_000, `${script} on port ${port}`);
  return { url: `http://127.0.0.1:${port}${path}`, port, stop: () => child.kill() };
}

/** For a test file of the app: serves the built app (dist/) on 127.0.0.1 and launches
 * Chromium before the file's tests, and closes both after them. Returns the object whose
 * `site` ({ url, close }) and `browser` are set by then. */
export function appSiteAndBrowser() {
  const shared = { site: undefined, browser: undefined };
  before(async () => {
    shared.site = await serveDir(path.resolve(path_dirname(), '../../dist'));
    shared.browser = await launch();
  });
  after(async () => {
    await shared.browser?.close();
    await shared.site?.close();
  });
  return shared;
}

function path_dirname() {
  return path.dirname(new URL(import.meta.url).pathname);
}

/** The app (dist/) served on 127.0.0.1, opened in headless Chromium (1200 × 900) with
 * `?url=` naming the test peer `script` (tests/peers/...), once it says "connected"; page
 * errors fail the test. Resolves to { page, peer, close }. */
export async function appConnectedTo(script) {
  const site = await serveDir(path.resolve(path_dirname(), '../../dist'));
  const peer = await startPeer(script);
  const browser = await launch();
  const page = await (await browser.newContext({ viewport: { width: 1200, height: 900 } })).newPage();
  page.on('pageerror', (e) => { throw e; });
  await page.goto(`${site.url}/?url=${encodeURIComponent(peer.url)}`);
  await page.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
  return {
    page,
    peer,
    close: async () => { await browser.close(); peer.stop(); await site.close(); },
  };
}

/** Opens another connection in the app's `page`, to `url`, and waits until it is shown and
 * connected (the connection shown before is no longer built). Resolves to { showFirst, close }:
 * choose the page's first connection again; close the new one. */
export async function anotherConnection(page, url) {
  const tabs = page.locator('.connections .connection');
  const before = await tabs.count();
  await page.locator('#server-url').fill(url);
  await page.locator('#connect').click();
  await waitFor(async () => (await tabs.count()) === before + 1, 10_000, 'another connection');
  await page.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
  return {
    showFirst: () => tabs.nth(0).locator('.connection-tab').click(),
    close: async () => {
      await tabs.nth(before).locator('button.close-connection').click();
      await waitFor(async () => (await tabs.count()) === before, 10_000, 'the other connection closed');
    },
  };
}

/** Runs server-everything's `echo` tool through the app's form in `page` (its Tools tab),
 * and waits for the result. */
export async function echoInApp(page, message) {
  await page.locator('#tab-tools').click();
  await page.locator('button.tool[data-tool="echo"]').click();
  await page.locator('.runner #arg-message').fill(message);
  await page.locator('button.run').click();
  await page.locator('.runner .result', { hasText: `Echo: ${message}` }).waitFor({ timeout: 10_000 });
}

/** The selector of the MCP App View shown (not retiring, not hidden). */
export const SHOWN_VIEW = '.mcp-app:not(.retiring):not([hidden])';

/** The MCP App View shown now in `page` (inside `within`, e.g. 'mcp-client'), once its
 * frame has loaded: resolves to { handle (the iframe element), frame (its document) }. The
 * Views of other tools, kept hidden, and those on their way out are not it. */
export async function viewFrame(page, within = '') {
  const handle = await page.locator(`${within} ${SHOWN_VIEW} iframe.app-frame`.trim()).elementHandle({ timeout: 20_000 });
  const frame = await waitFor(() => handle.contentFrame(), 10_000, 'the View frame');
  return { handle, frame };
}

/** Resolves once the View in `frame` has drawn two frames. A View's iframe just shown again
 * (no longer `hidden`) gets clicks only once the browser has drawn it again: Chromium gave a
 * click before that to the page (seen about once in ten runs), and the View never got it.
 * Waited for, too, before a click in a View just moved (back inline from a corner). */
export async function drawn(frame) {
  await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** A protected MCP server: npm server-everything behind tests/peers/auth_gateway.mjs, with
 * npm oidc-provider as its authorization server (`mode` 'dpop' requires DPoP-bound tokens;
 * `authMode` is the authorization server's, e.g. 'coop': see tests/peers/auth_server.mjs).
 * Resolves to { url (the MCP endpoint), base (the gateway's origin), authServer, stop }. */
export async function startProtected(mode, authMode) {
  const upstream = await startPeer('everything.sh', ['streamableHttp']);
  const authServer = await startPeer('auth_server.mjs', authMode ? [authMode] : [], '');
  const gateway = await startPeer('auth_gateway.mjs', [authServer.url, upstream.url, ...(mode ? [mode] : [])]);
  return {
    url: gateway.url,
    base: gateway.url.replace(/\/mcp$/, ''),
    authServer,
    stop: () => { for (const p of [gateway, authServer, upstream]) p.stop(); },
  };
}

/** A host page origin: tests/e2e/host/index.html, the package's OAuth callback page, and
 * `extra` files ({ name: contents }). Resolves to { url, close }. */
export async function serveHost(pkgDir, extra = {}) {
  const os = await import('node:os');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-'));
  fs.copyFileSync(path.join(path_dirname(), 'host/index.html'), path.join(dir, 'index.html'));
  for (const f of ['oauth-callback.html', 'oauth-callback.js']) fs.copyFileSync(path.join(pkgDir, f), path.join(dir, f));
  for (const [name, contents] of Object.entries(extra)) fs.writeFileSync(path.join(dir, name), contents);
  const site = await serveDir(dir);
  return { url: site.url, close: async () => { await site.close(); fs.rmSync(dir, { recursive: true, force: true }); } };
}

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** What axe-core (npm, pinned) finds wrong with the page as it is now (WCAG 2 A/AA and axe's
 * best practices), one line per element: `label`, rule, impact, where and why. `within`: a
 * selector to audit only that element (e.g. a widget in a host page that is not ours). */
export async function accessibilityViolations(page, label, within) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axePath });
  const found = await page.evaluate((sel) => window.axe.run(sel ? { include: [[sel]] } : document, { resultTypes: ['violations'] }), within ?? null);
  return found.violations.flatMap((v) => v.nodes.map((n) =>
    `${label}: ${v.id} (${v.impact}) at ${n.target.join(' ')}: ${(n.failureSummary || v.help).replace(/\s+/g, ' ')}`));
}

/** {@link accessibilityViolations} with the page in the light, then the dark colour scheme
 * (the page's scheme is the browser's default again afterwards). */
export async function accessibilityViolationsInBothSchemes(page, label, within) {
  const found = [];
  try {
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      found.push(...await accessibilityViolations(page, `${label} (${colorScheme})`, within));
    }
  } finally {
    await page.emulateMedia({ colorScheme: null });
  }
  return found;
}

/** The status of task `taskId` on the 2026-07-28 server at `url` (the Tasks extension), asked
 * from `page` as another client would (`tasks/get`): once it is `want`, or as it is after
 * `ms`. */
export function taskStatusOnServer(page, url, taskId, want, ms = 5_000) {
  return page.evaluate(async ([url, taskId, want, ms]) => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
    };
    const deadline = Date.now() + ms;
    for (;;) {
      const r = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json', accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tasks/get', 'mcp-name': taskId,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { taskId, _meta: meta } }),
      });
      const status = (await r.json()).result?.status;
      if (status === want || Date.now() > deadline) return status;
      await new Promise((res) => setTimeout(res, 100));
    }
  }, [url, taskId, want, ms]);
}

/** Leaves `page` with a call under way, held by the fault proxy at `base` (started with
 * --uncached-preflights): `startCall` makes the call; once the proxy holds it, the preflights
 * are answered late, so that the cancel and the DELETE are still on their way when the page
 * is gone (only requests made to outlive the page arrive), and the page goes elsewhere.
 * Checks that the call's cancel (once) and the session's DELETE arrive and the held call's
 * connection closes; resolves to the proxy's log. */
export async function leaveWithCallUnderWay(page, base, startCall, what) {
  const seen = async () => (await fetch(`${base}/__log`)).json();
  const hold = await fetch(`${base}/__fault`, { method: 'POST', body: JSON.stringify({ kind: 'hold', method: 'tools/call' }) });
  assert.equal(hold.ok, true);
  await startCall();
  await waitFor(async () => (await seen()).includes('tools/call'), 10_000, 'the call held by the proxy');
  assert.equal((await seen()).some((m) => m.startsWith('notifications/cancelled') || m.startsWith('DELETE')), false);
  const slow = await fetch(`${base}/__fault`, { method: 'POST', body: JSON.stringify({ kind: 'slow-preflights', ms: 1500 }) });
  assert.equal(slow.ok, true);
  await page.goto('about:blank');
  await waitFor(async () => {
    const log = await seen();
    return log.some((m) => m.startsWith('notifications/cancelled')) && log.includes('DELETE stream');
  }, 10_000, `the cancel and the DELETE of ${what}`);
  const log = await seen();
  assert.equal(log.filter((m) => m.startsWith('notifications/cancelled')).length, 1, JSON.stringify(log));
  assert.ok(log.includes('closed tools/call'), JSON.stringify(log));
  return log;
}
