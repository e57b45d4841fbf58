// DPoP end to end: a protected MCP server that requires DPoP-bound tokens
// (tests/peers/auth_gateway.mjs in `dpop` mode, checking every proof) and a real
// authorization server that binds tokens to the client's key (npm oidc-provider). The JS API
// logs in through the popup, its tokens come back bound to a WebCrypto key the page cannot
// export, every request carries a fresh proof, and the token replayed without that key (as
// a thief would, from another machine) is refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, serveDir, serveHost, startProtected, waitFor } from './browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, '../../dist-pkg');
let browser, pkg, host, server, gateway, page;

before(async () => {
  pkg = await serveDir(dist);
  host = await serveHost(dist);
  server = await startProtected('dpop');
  gateway = { url: server.url };
  browser = await launch();
  page = await browser.newPage();
  page.on('pageerror', (e) => { throw e; });
  await page.goto(`${host.url}/index.html`);
});
after(async () => {
  await browser?.close();
  server?.stop();
  for (const s of [pkg, host]) await s?.close();
});

test('tokens are bound to the page key: proofs on every request, a stolen token is useless', async () => {
  const seen = [];
  page.on('request', (r) => {
    if (r.url().startsWith(gateway.url) && r.method() === 'POST') seen.push({ auth: r.headers().authorization, dpop: r.headers().dpop });
  });
  await page.evaluate(({ pkgUrl, serverUrl }) => {
    const button = document.createElement('button');
    button.id = 'connect';
    document.body.append(button);
    window.trace = [];
    button.onclick = () => {
      window.outcome = (async () => {
        const m = await import(`${pkgUrl}/mcp_client.js`);
        await m.default();
        const client = await m.McpClient.connect({ url: serverUrl, oauth: { allowLocal: true, onTrace: (l) => window.trace.push(l) } });
        const a = await client.callTool('echo', { message: 'bound' });
        const b = await client.callTool('echo', { message: 'still bound' });
        client.close();
        return { texts: [a.content[0].text, b.content[0].text] };
      })().catch((e) => ({ error: String(e?.message ?? e) }));
    };
  }, { pkgUrl: pkg.url, serverUrl: gateway.url });
  const popup = page.waitForEvent('popup', { timeout: 20_000 });
  await page.click('#connect');
  await popup;
  const out = await page.evaluate(() => window.outcome);
  const trace = (await page.evaluate(() => window.trace)).join('\n');
  assert.equal(out.error, undefined, `${out.error}\n${trace}`);
  assert.deepEqual(out.texts, ['Echo: bound', 'Echo: still bound']);
  assert.match(trace, /the resource asks for DPoP: tokens will be bound/);

  const stats = await (await fetch(`${server.base}/__stats`)).json();
  assert.ok(stats.dpop_verified >= 3, `every request with a token carried a valid proof (${stats.dpop_verified})`);
  assert.equal(stats.dpop_refusals, 0);
  const authorized = seen.filter((s) => s.auth);
  assert.ok(authorized.length >= 3 && authorized.every((s) => s.auth.startsWith('DPoP ') && s.dpop));
  assert.equal(new Set(authorized.map((s) => s.dpop)).size, authorized.length, 'a fresh proof each time');

  // The thief's replay: the token without the key, as Bearer, or as DPoP with a copied proof.
  const token = authorized.at(-1).auth.slice('DPoP '.length);
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const bearer = await fetch(gateway.url, { method: 'POST', body, headers: { ...headers, authorization: `Bearer ${token}` } });
  assert.equal(bearer.status, 401);
  const replayed = await fetch(gateway.url, { method: 'POST', body, headers: { ...headers, authorization: `DPoP ${token}`, dpop: authorized.at(-1).dpop } });
  assert.equal(replayed.status, 401);
});

test('closing the tab with a call under way: its cancel and the session\'s DELETE still go out, each with a valid proof', async () => {
  // Each needs a DPoP proof, signed by WebCrypto, asynchronously, once the page is already
  // leaving (its `pagehide`): Chromium still runs that work and sends the two requests.
  const log = async () => (await fetch(`${server.base}/__log`)).json();
  const p = await browser.newPage();
  p.on('pageerror', (e) => { throw e; });
  await p.goto(`${host.url}/index.html`);
  await p.evaluate(({ pkgUrl, serverUrl }) => {
    const button = document.createElement('button');
    button.id = 'connect';
    document.body.append(button);
    window.trace = [];
    window.progress = 0;
    button.onclick = () => {
      window.outcome = (async () => {
        const m = await import(`${pkgUrl}/mcp_client.js`);
        await m.default();
        const client = await m.McpClient.connect({ url: serverUrl, oauth: { allowLocal: true, onTrace: (l) => window.trace.push(l) } });
        // Never closed by the page: leaving it must end the call and the session.
        client.callTool('trigger-long-running-operation', { duration: 30, steps: 30 }, { onProgress: () => { window.progress += 1; } })
          .catch(() => {});
        return { connected: true };
      })().catch((e) => ({ error: String(e?.message ?? e) }));
    };
  }, { pkgUrl: pkg.url, serverUrl: gateway.url });
  const popup = p.waitForEvent('popup', { timeout: 20_000 });
  await p.click('#connect');
  await popup;
  const out = await p.evaluate(() => window.outcome);
  assert.equal(out.error, undefined, `${out.error}\n${(await p.evaluate(() => window.trace)).join('\n')}`);
  // The call is under way: its progress reaches the page.
  await waitFor(async () => (await p.evaluate(() => window.progress)) >= 1, 10_000, 'the call\'s progress');
  const before = (await log()).length;
  assert.ok((await log()).includes('POST tools/call authorized'));
  await p.close();
  const arrived = await waitFor(async () => {
    const after = (await log()).slice(before);
    return after.includes('POST notifications/cancelled authorized') && after.includes('DELETE authorized');
  }, 10_000, 'the cancel and the DELETE').then(() => true, () => false);
  const after = (await log()).slice(before);
  assert.ok(arrived, `the cancel and the DELETE, with valid proofs: ${JSON.stringify(after)}`);
  assert.deepEqual(after.filter((e) => e.includes('refused')), [], JSON.stringify(after));
});
