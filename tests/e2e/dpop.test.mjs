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
import { launch, serveDir, serveHost, startProtected } from './browser.mjs';

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
