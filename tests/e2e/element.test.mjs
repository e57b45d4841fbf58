// The <mcp-client> element on a plain host page (another origin than the package) with
// hostile CSS: it connects to the real server-everything, runs a tool, reports DOM events,
// stays intact, and its own CSS does not leak into the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { accessibilityViolationsInBothSchemes, launch, serveDir, startPeer, viewFrame, waitFor } from './browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
let browser, pkg, host, server, page;

before(async () => {
  pkg = await serveDir(path.resolve(here, '../../dist-pkg'));
  host = await serveDir(path.resolve(here, '../../www'));
  server = await startPeer('everything.sh', ['streamableHttp']);
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  page.on('pageerror', (e) => { throw e; });
  await page.goto(`${host.url}/embed-demo.html?pkg=${encodeURIComponent(pkg.url)}&server=${encodeURIComponent(server.url)}`);
});
after(async () => {
  await browser?.close();
  server?.stop();
  await pkg?.close();
  await host?.close();
});

test('the element connects, runs a tool and reports events', async () => {
  await waitFor(() => page.evaluate(() => (window.mcpEvents || []).some((e) => e.name === 'connected')), 20_000, 'connected event');
  const connected = await page.evaluate(() => window.mcpEvents.find((e) => e.name === 'connected').detail);
  assert.equal(connected.era, 'legacy');
  assert.equal(connected.serverInfo.name.length > 0, true);
  // Shadow DOM: playwright locators pierce open shadow roots.
  await page.locator('mcp-client button.tool[data-tool="echo"]').click();
  await page.locator('mcp-client #arg-message').fill('inside the widget');
  await page.locator('mcp-client button.run').click();
  await page.locator('mcp-client .result', { hasText: 'Echo: inside the widget' }).waitFor({ timeout: 10_000 });
  await waitFor(() => page.evaluate(() => window.mcpEvents.some((e) => e.name === 'tool-result')), 5_000, 'tool-result event');
  const result = await page.evaluate(() => window.mcpEvents.find((e) => e.name === 'tool-result').detail);
  assert.equal(result.tool, 'echo');
  assert.equal(result.result.content[0].text, 'Echo: inside the widget');
  // The call is in the widget's history, which is not written to the host page's storage.
  await page.locator('mcp-client .history-list li', { hasText: 'inside the widget' }).waitFor({ timeout: 5_000 });
  assert.equal(await page.evaluate(() => localStorage.getItem('mcp-browser-client.history')), null);
  assert.deepEqual(await accessibilityViolationsInBothSchemes(page, 'the element with a result', 'mcp-client'), []);
});

test('host CSS does not break the widget, and the widget CSS does not leak out', async () => {
  const inside = await page.evaluate(() => {
    const root = document.querySelector('mcp-client').shadowRoot;
    const run = root.querySelector('button.run');
    const text = root.querySelector('.result pre');
    const cs = (el) => getComputedStyle(el);
    return { runDisplay: cs(run).display, textColor: cs(text).color, font: cs(text).fontFamily };
  });
  assert.notEqual(inside.runDisplay, 'none', 'host "button { display: none }" reached the widget');
  assert.notEqual(inside.textColor, 'rgb(200, 0, 0)', 'host color reached the widget');
  assert.doesNotMatch(inside.font, /^serif$/);
  const outside = await page.evaluate(() => {
    const h1 = document.querySelector('h1');
    return { size: getComputedStyle(h1).fontSize, color: getComputedStyle(h1).color, topbar: document.querySelectorAll('.topbar').length };
  });
  assert.equal(outside.size, '40px', 'the widget restyled the host h1');
  assert.equal(outside.color, 'rgb(200, 0, 0)');
  assert.equal(outside.topbar, 0, 'the widget rendered outside its shadow root');
  await page.screenshot({ path: path.resolve(here, '../../docs/screenshots/embedded.png') });
});

test('the element reports the server\'s notifications as events', async () => {
  // server-everything logs a message every 5 s while simulated logging is on.
  await page.locator('mcp-client button.tool[data-tool="toggle-simulated-logging"]').click();
  await page.locator('mcp-client button.run').click();
  await page.locator('mcp-client .result', { hasText: /logging/i }).waitFor({ timeout: 10_000 });
  const logEvent = () => page.evaluate(() => window.mcpEvents.find((e) => e.name === 'notification' && e.detail.method === 'notifications/message')?.detail);
  await waitFor(async () => Boolean(await logEvent()), 15_000, 'a notification event');
  const detail = await logEvent();
  assert.equal(detail.url, server.url);
  assert.match(detail.params.level, /^(debug|info|notice|warning|error|critical|alert|emergency)$/);
  // Off again; its answer says so.
  await page.locator('mcp-client button.run').click();
  await page.locator('mcp-client .result', { hasText: /Stopped/ }).waitFor({ timeout: 10_000 });
});

test('the element marks a list shown from kept answers and reports it as a stale event', async () => {
  // The 2026-07-28 server (templates fresh for 3 s) behind the fault-injecting proxy.
  const root = path.resolve(here, '../..');
  const proxy = await startPeer('fault_proxy.mjs', ['--', `${root}/tests/.venv-modern/bin/python`, `${root}/tests/peers/modern_server.py`]);
  const base = proxy.url.replace(/\/mcp$/, '');
  const own = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  try {
    await own.goto(`${host.url}/embed-demo.html?pkg=${encodeURIComponent(pkg.url)}&server=${encodeURIComponent(proxy.url)}`);
    await waitFor(() => own.evaluate(() => (window.mcpEvents || []).some((e) => e.name === 'connected')), 20_000, 'connected event');
    const template = own.locator('mcp-client form.template .uri', { hasText: 'test://items/{item_id}' });
    await own.locator('mcp-client #tab-resources').click();
    await template.waitFor({ timeout: 10_000 });
    const listedAt = Date.now();
    // The condition is time itself: the templates are no longer fresh.
    await waitFor(() => Date.now() > listedAt + 3_200, 10_000, 'the templates to go stale');
    const fault = await fetch(`${base}/__fault`, { method: 'POST', body: JSON.stringify({ kind: 'status', method: 'resources/templates/list', status: 503, body: 'down for maintenance' }) });
    assert.equal(fault.ok, true);
    await own.locator('mcp-client #tab-prompts').click();
    await own.locator('mcp-client #tab-resources').click();
    await own.locator('mcp-client .stale-notice', { hasText: 'resources/templates/list' }).waitFor({ timeout: 10_000 });
    await template.waitFor({ timeout: 10_000 });
    const stale = await waitFor(() => own.evaluate(() => window.mcpEvents.find((e) => e.name === 'stale')?.detail), 5_000, 'a stale event');
    assert.equal(stale.url, proxy.url);
    assert.equal(stale.method, 'resources/templates/list');
    assert.ok(stale.ageMs >= 3_000, `age ${stale.ageMs}`);
    assert.match(stale.error, /HTTP 503: down for maintenance/);
  } finally {
    await own.close();
    proxy.stop();
  }
});

test('an unreachable server is reported as an error event', async () => {
  const p2 = await browser.newPage();
  await p2.goto(`${host.url}/embed-demo.html?pkg=${encodeURIComponent(pkg.url)}&server=${encodeURIComponent('http://127.0.0.1:9/mcp')}`);
  await waitFor(() => p2.evaluate(() => (window.mcpEvents || []).some((e) => e.name === 'error')), 20_000, 'error event');
  const err = await p2.evaluate(() => window.mcpEvents.find((e) => e.name === 'error').detail);
  assert.match(err.message, /could not be reached/);
  await p2.close();
});

test('the tool attribute opens that tool\'s form first', async () => {
  const p3 = await browser.newPage();
  await p3.goto(`${host.url}/embed-demo.html?pkg=${encodeURIComponent(pkg.url)}&server=${encodeURIComponent(server.url)}&tool=get-sum`);
  await p3.locator('mcp-client .runner .tool-name', { hasText: 'get-sum' }).waitFor({ timeout: 20_000 });
  assert.equal(await p3.locator('mcp-client button.tool[data-tool="get-sum"]').getAttribute('aria-current'), 'true');
  await p3.close();
});

test('an MCP App runs inside the element, in its sandbox', async () => {
  const apps = await startPeer('apps.sh');
  const p4 = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  try {
    p4.on('pageerror', (e) => { throw e; });
    await p4.goto(`${host.url}/embed-demo.html?pkg=${encodeURIComponent(pkg.url)}&server=${encodeURIComponent(apps.url)}&tool=get-time`);
    await p4.locator('mcp-client .runner .tool-name', { hasText: 'get-time' }).waitFor({ timeout: 20_000 });
    await p4.locator('mcp-client button.run').click();
    const { frame } = await viewFrame(p4, 'mcp-client');
    const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
    await waitFor(async () => iso.test(await frame.locator('#server-time').innerText()), 10_000, 'the View showing the time');
    // Its own call goes through the element's client.
    await frame.locator('#get-time-btn').click();
    await p4.locator('mcp-client .mcp-app .app-said li', { hasText: 'Called the tool get-time' }).waitFor({ timeout: 10_000 });
    assert.equal(await frame.evaluate(() => { try { return parent.document.title; } catch { return 'refused'; } }), 'refused');
  } finally {
    await p4.close();
    apps.stop();
  }
});
