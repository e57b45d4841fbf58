// OAuth end to end, in headless Chromium: the app logs in through a real authorization server
// (npm oidc-provider: discovery, Dynamic Client Registration, PKCE, resource indicators, `iss`)
// to a protected MCP server (tests/peers/auth_gateway.mjs in front of the real npm
// server-everything), calls a tool, survives an access-token expiry through refresh, and
// refuses callbacks with a wrong `state` or a wrong `iss` (shown as text, no token request).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { accessibilityViolationsInBothSchemes, launch, serveDir, startProtected, screenshotPath } from './browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, '../../dist');
let browser, site, server, authServer, gateway, page;

const json = async (url, init) => (await fetch(url, init)).json();
const asStats = () => json(`${authServer.url}/__stats`);
const gatewayStats = () => json(`${server.base}/__stats`);

before(async () => {
  site = await serveDir(dist);
  server = await startProtected();
  [gateway, authServer] = [{ url: server.url }, server.authServer];
  browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (e) => { throw e; });
});
after(async () => {
  await browser?.close();
  server?.stop();
  await site?.close();
});

async function runEcho(message) {
  await page.locator('button.tool[data-tool="echo"]').click();
  await page.locator('.runner .tool-name', { hasText: 'echo' }).waitFor();
  await page.locator('#arg-message').fill(message);
  await page.locator('button.run').click();
  await page.locator('.result pre.content', { hasText: message }).waitFor({ timeout: 15_000 });
}

test('logs in through the authorization server and calls a tool', async () => {
  await connectFromForm();
  await page.locator('#login').waitFor({ timeout: 20_000 });
  assert.match(await page.locator('#connection-state').innerText(), /authorization needed/);
  assert.deepEqual(await accessibilityViolationsInBothSchemes(page, 'login needed'), []);

  await page.locator('#login').click();
  // Registration, the authorization page (approved by the test server) and the callback.
  await page.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 30_000 });
  await page.locator('button.tool[data-tool="echo"]').waitFor({ timeout: 10_000 });
  assert.match(await page.locator('#auth-status').innerText(), /Logged in.*mcp:tools/);
  const trace = await page.locator('#oauth-trace').textContent();
  assert.match(trace, /looking for protected resource metadata at .*\/\.well-known\/oauth-protected-resource\/mcp/);
  assert.match(trace, /registering dynamically at/);
  assert.match(trace, /requesting scopes: mcp:tools/);
  assert.match(trace, /got an access token/);
  assert.equal((await asStats()).authorization_code, 1);

  await runEcho('behind oauth');
  await page.locator('details.oauth-trace').evaluate((d) => { d.open = true; });
  assert.deepEqual(await accessibilityViolationsInBothSchemes(page, 'logged in, the trace open'), []);
  await page.screenshot({ path: screenshotPath('oauth.png') });

  // The access token is in memory only; the refresh token is in sessionStorage.
  const stored = await page.evaluate(() => JSON.stringify({ s: { ...sessionStorage }, l: { ...localStorage } }));
  assert.doesNotMatch(stored, /"access_token\\":\\"ey/);
  assert.match(stored, /refresh_token/);
  assert.doesNotMatch(JSON.stringify(JSON.parse(stored).l), /refresh_token/);
});

test('an expired access token is refreshed and the call goes through', async () => {
  const before = await asStats();
  const r = await fetch(`${server.base}/__expire`, { method: 'POST' });
  assert.equal(r.status, 204);
  await page.locator('#tool-search').fill('');
  await runEcho('after expiry');
  assert.ok((await gatewayStats()).expired_refusals >= 1, 'the old token was refused');
  assert.equal((await asStats()).refresh_token, before.refresh_token + 1, 'exactly one refresh');
  assert.match(await page.locator('#oauth-trace').textContent(), /refreshing the access token/);
});

test('a duplicated tab and the original, reloaded, both stay logged in (the copy starts with the same refresh token)', async () => {
  // Duplicating a tab copies its sessionStorage, refresh token included; oidc-provider
  // rotates it on every refresh and revokes the whole grant when a used one comes back.
  const before = await asStats();
  // A window the page opens starts with a copy of its sessionStorage, as a duplicated tab does.
  const opened = page.context().waitForEvent('page', { timeout: 20_000 });
  await page.evaluate(() => { window.open(location.href); });
  const copy = await opened;
  copy.on('pageerror', (e) => { throw e; });
  try {
    // The copy has no access token (memory only): it refreshes, using up the refresh token
    // that both tabs hold. Its address is the server's (the address follows the server
    // shown), so it connects by itself, with what was saved for the server (local auth).
    await copy.waitForURL((u) => u.searchParams.get('url') === gateway.url, { timeout: 20_000 });
    await copy.locator('button.tool[data-tool="echo"]').waitFor({ timeout: 20_000 });
    // The original, reloaded, refreshes with what the copy passed on: no login asked for.
    await connectFromForm(page);
    await page.locator('button.tool[data-tool="echo"]').waitFor({ timeout: 20_000 });
    assert.match(await page.locator('#oauth-trace').textContent(), /a copy of this tab refreshed since: using the refresh token it passed on/);
    await runEcho('after duplicating the tab');
    assert.equal(await page.locator('#login').count(), 0);
    const after = await asStats();
    assert.equal(after.refresh_token, before.refresh_token + 2, 'one refresh per tab, none refused');
    assert.equal(after.authorization_code, before.authorization_code, 'no second login');
  } finally {
    await copy.close();
  }
});

/** Connects `p` to `url` from the connect form, with loopback authorization servers allowed. */
async function connectFromForm(p = page, url = gateway.url) {
  await p.goto(site.url);
  await p.locator('#server-url').fill(url);
  await p.locator('form.connect summary').click();
  await p.locator('#allow-local-auth').check();
  await p.locator('#connect').click();
}

/** Starts a login and stops it at the authorization server's door, then comes back to the
 * app: the login stays pending in this tab. Returns the pending record. */
async function pauseLogin() {
  await page.route(`${authServer.url}/auth**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<p>paused</p>' }));
  await page.locator('#login').click();
  await page.waitForURL(`${authServer.url}/auth**`);
  await page.unroute(`${authServer.url}/auth**`);
  await page.goBack();
  await page.locator('#server-url').waitFor();
  const pending = await page.evaluate(() => JSON.parse(sessionStorage.getItem('mcp-oauth-pending')));
  assert.ok(pending?.pending?.state, 'a pending login');
  return pending;
}

async function callback(params) {
  await page.goto(`${site.url}/oauth-callback.html?${new URLSearchParams(params)}`);
  await page.locator('#login-error').waitFor({ timeout: 15_000 });
  return page.locator('#login-error').innerText();
}

test('a callback with a wrong state or a wrong iss is refused, and error text stays text', async () => {
  await connectFromForm();
  // The refresh token kept in sessionStorage logs in again without a person.
  await page.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
  await page.locator('#logout').click();
  await page.locator('#login').waitFor();

  const codes = (await asStats()).authorization_code;
  const pending = await pauseLogin();
  const wrongState = await callback({ code: 'stolen', state: 'forged-state', iss: authServer.url });
  assert.match(wrongState, /state mismatch/);
  // Still pending: a foreign answer does not end the login.
  assert.ok(await page.evaluate(() => sessionStorage.getItem('mcp-oauth-pending')));

  const wrongIss = await callback({ code: 'stolen', state: pending.pending.state, iss: 'https://evil.example' });
  assert.match(wrongIss, /iss check failed/);
  assert.equal((await asStats()).authorization_code, codes, 'no code was exchanged');

  // The authorization server's error text is shown as text, never as HTML.
  await connectFromForm();
  await page.locator('#login').waitFor({ timeout: 20_000 });
  const again = await pauseLogin();
  const hostile = '<img src=x onerror="window.__owned=1"><b>bold</b>';
  const denied = await callback({ error: 'access_denied', error_description: hostile, state: again.pending.state, iss: authServer.url });
  assert.ok(denied.includes(hostile), denied);
  assert.equal(await page.locator('#login-error b, #login-error img').count(), 0);
  assert.equal(await page.evaluate(() => window.__owned), undefined);
});

test('a server that wants a login only for its tools: connected, the login offered, then the tools', async () => {
  const toolsOnly = await startProtected('tools-only');
  const context = await browser.newContext();
  try {
    const p = await context.newPage();
    p.on('pageerror', (e) => { throw e; });
    await connectFromForm(p, toolsOnly.url);
    // The handshake needs no token; the tool list does.
    await p.locator('#login').waitFor({ timeout: 20_000 });
    assert.match(await p.locator('#connection-state').innerText(), /connected/);
    assert.match(await p.locator('.doctor').innerText(), /requires authorization/);
    assert.equal(await p.locator('button.tool').count(), 0);

    await p.locator('#login').click();
    await p.locator('button.tool[data-tool="echo"]').waitFor({ timeout: 30_000 });
    assert.match(await p.locator('#auth-status').innerText(), /Logged in/);
    assert.equal(await p.locator('#login').count(), 0, 'no login offered once logged in');
  } finally {
    await context.close();
    toolsOnly.stop();
  }
});

test('a login asked for by a tool call: the page comes back with what was typed, and the call goes through once run again', async () => {
  const callsOnly = await startProtected('calls-only');
  const context = await browser.newContext();
  try {
    const p = await context.newPage();
    p.on('pageerror', (e) => { throw e; });
    await connectFromForm(p, callsOnly.url);
    // Listed without a login; the call asks for one.
    await p.locator('button.tool[data-tool="echo"]').click({ timeout: 20_000 });
    await p.locator('#arg-message').fill('typed before the login');
    await p.locator('button.run').click();
    await p.locator('#login').waitFor({ timeout: 20_000 });
    await p.locator('#login').click();
    // The page went to the authorization server and came back: the form as it was.
    await p.locator('.runner p.restored').waitFor({ timeout: 30_000 });
    assert.equal(await p.locator('#arg-message').inputValue(), 'typed before the login');
    assert.match(await p.locator('#auth-status').innerText(), /Logged in/);
    assert.equal(await p.evaluate(() => sessionStorage.getItem('mcp-browser-client.before-login')), null, 'taken once');
    // Not made again by itself: the person runs it.
    assert.equal(await p.locator('.result').count(), 0);
    await p.locator('button.run').click();
    await p.locator('.result pre.content', { hasText: 'typed before the login' }).waitFor({ timeout: 15_000 });
    assert.equal(await p.locator('.runner p.restored').count(), 0);
  } finally {
    await context.close();
    callsOnly.stop();
  }
});
