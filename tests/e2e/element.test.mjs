// The <mcp-client> element on a plain host page (another origin than the package) with
// hostile CSS: it connects to the real server-everything, runs a tool, reports DOM events,
// stays intact, and its own CSS does not leak into the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { accessibilityViolationsInBothSchemes, launch, serveDir, startPeer, viewFrame, waitFor, screenshotPath } from './browser.mjs';

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
  // The host page's title stays its own (the app's page names the server in its own).
  assert.equal(await page.title(), 'Embedding the MCP client');
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
  // The call is in the widget's history, which is not written to the host page's storage;
  // nor is the server it connected to (it is in the widget's saved list, for the page's life).
  await page.locator('mcp-client .history-list li', { hasText: 'inside the widget' }).waitFor({ timeout: 5_000 });
  // No links to the app's page where the page is the host's.
  assert.equal(await page.locator('mcp-client .call-link, mcp-client .tool-link').count(), 0);
  assert.equal(await page.evaluate(() => localStorage.getItem('mcp-browser-client.history')), null);
  assert.equal(await page.evaluate(() => localStorage.getItem('mcp-browser-client.servers')), null);
  assert.equal(await page.locator('mcp-client details.saved .saved-list li').count(), 1);
  assert.deepEqual(await accessibilityViolationsInBothSchemes(page, 'the element with a result', 'mcp-client'), []);
  // A setting changed in the widget holds for its page's life, and is not written there
  // either: of the app's keys, the widget writes only the client's memory of each server's
  // protocol era into the host page's storage (as the JS API does by default, `rememberEra`).
  await page.locator('mcp-client #tab-settings').click();
  await page.locator('mcp-client #time-limit').fill('30');
  await page.locator('mcp-client #time-limit').dispatchEvent('change');
  await page.locator('mcp-client [role="status"]', { hasText: 'time limit: 30 s' }).waitFor({ timeout: 5_000 });
  const keys = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('mcp-browser-client.')));
  assert.deepEqual(keys, ['mcp-browser-client.eras']);
  await page.locator('mcp-client #tab-tools').click();
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
  await page.screenshot({ path: screenshotPath('embedded.png') });
});

test('in a narrow column of a wide page, the element puts the chosen tool\'s form under the list and brings it into view', async () => {
  const own = await browser.newPage({ viewport: { width: 1100, height: 700 } });
  own.on('pageerror', (e) => { throw e; });
  try {
    await own.goto(`${host.url}/embed-demo.html?pkg=${encodeURIComponent(pkg.url)}&server=${encodeURIComponent(server.url)}`);
    const sum = own.locator('mcp-client button.tool[data-tool="get-sum"]');
    await sum.waitFor({ timeout: 20_000 });
    // Where the tools tab's list and detail are, in the host page's window.
    const where = () => own.locator('mcp-client .tools.split').evaluate((s) => {
      const [list, detail] = [':scope > .list', ':scope > .detail'].map((p) => s.querySelector(p).getBoundingClientRect());
      return { listBottom: list.bottom, listRight: list.right, detailTop: detail.top, detailLeft: detail.left };
    });
    // As wide as the page: beside the list.
    let at = await where();
    assert.ok(at.detailLeft >= at.listRight, JSON.stringify(at));
    // A 400 px column (the window is as wide as before): under it.
    await own.locator('mcp-client').evaluate((e) => { e.style.width = '400px'; });
    await waitFor(async () => { at = await where(); return at.detailTop >= at.listBottom - 1; }, 5_000, 'the detail under the list');
    const overflow = await own.locator('mcp-client').evaluate((e) => e.shadowRoot.querySelector('.mcp-root').scrollWidth - e.clientWidth);
    assert.ok(overflow <= 0, `the widget's content is ${overflow} px wider than its column`);
    await sum.click();
    await own.locator('mcp-client .runner .tool-name', { hasText: 'get-sum' }).waitFor();
    await waitFor(async () => Math.abs((await where()).detailTop) < 1, 5_000, "get-sum's form at the window's top");
  } finally {
    await own.close();
  }
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

test('the prompt and resource attributes open that prompt\'s form, or read that resource, first, where their tab is shown', async () => {
  const p5 = await browser.newPage();
  try {
    const demo = `${host.url}/embed-demo.html?pkg=${encodeURIComponent(pkg.url)}&server=${encodeURIComponent(server.url)}&prompt=args-prompt`;
    await p5.goto(demo);
    await p5.locator('mcp-client #prompt-arg-city').waitFor({ timeout: 20_000 });
    assert.equal(await p5.locator('mcp-client #tab-prompts').getAttribute('aria-selected'), 'true');
    assert.equal(await p5.locator('mcp-client button.prompt[data-prompt="args-prompt"]').getAttribute('aria-current'), 'true');
    // No links to the app's page where the page is the host's.
    assert.equal(await p5.locator('mcp-client .prompt-link, mcp-client .call-link').count(), 0);
    // Without the prompts tab, the tools are shown, as without the attribute.
    await p5.goto(`${demo}&panels=logs`);
    await p5.locator('mcp-client button.tool[data-tool="echo"]').waitFor({ timeout: 20_000 });
    assert.equal(await p5.locator('mcp-client #tab-tools').getAttribute('aria-selected'), 'true');
    assert.equal(await p5.locator('mcp-client #tab-prompts, mcp-client .prompts').count(), 0);
    // The resource attribute reads that resource first, in the resources tab.
    const uri = 'demo://resource/dynamic/text/7';
    await p5.goto(`${host.url}/embed-demo.html?pkg=${encodeURIComponent(pkg.url)}&server=${encodeURIComponent(server.url)}&resource=${encodeURIComponent(uri)}`);
    await p5.locator('mcp-client .resource-view .resource-contents .uri', { hasText: uri }).waitFor({ timeout: 20_000 });
    assert.equal(await p5.locator('mcp-client #tab-resources').getAttribute('aria-selected'), 'true');
    assert.equal(await p5.locator('mcp-client .resource-link').count(), 0);
  } finally {
    await p5.close();
  }
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

test('headers the host page sets (a token it holds) go with every request to the element\'s server: set before the element is defined, or after, which makes it again; a bad one throws where it is set', async () => {
  const before = process.env.MANY_TOOLS;
  process.env.MANY_TOOLS = '0';
  const modern = await startPeer('many_tools.sh');
  if (before === undefined) delete process.env.MANY_TOOLS; else process.env.MANY_TOOLS = before;
  // A host page on which the element is made before its script defines it.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'element-host-'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><title>host</title>');
  const blank = await serveDir(dir);
  const own = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  own.on('pageerror', (e) => { throw e; });
  try {
    await own.goto(`${blank.url}/`);
    await own.evaluate(async ([pkgUrl, server]) => {
      const el = document.createElement('mcp-client');
      el.headers = { 'X-Tenant': 'acme', Authorization: 'Bearer host-token' };
      el.setAttribute('server', server);
      el.setAttribute('tool', 'header');
      el.setAttribute('panels', 'logs');
      document.body.append(el);
      const { default: init } = await import(`${pkgUrl}/mcp_client_element.js`);
      await init();
    }, [pkg.url, modern.url]);
    const widget = own.locator('mcp-client');
    const ask = async (name, want) => {
      await widget.locator('#arg-name').fill(name);
      await widget.locator('button.run').click();
      await widget.locator('.result', { hasText: want }).waitFor({ timeout: 15_000 });
    };
    await ask('x-tenant', 'acme');
    await ask('authorization', 'Bearer host-token');
    // A property, never an attribute: the token is not in the page's markup.
    assert.equal(await widget.evaluate((e) => e.getAttribute('headers')), null);
    assert.deepEqual(await widget.evaluate((e) => e.headers), { authorization: 'Bearer host-token', 'x-tenant': 'acme' });
    // New headers make the widget again (its result before gone), sending the new ones only.
    await widget.evaluate((e) => { e.headers = new Headers([['X-Tenant', 'beta']]); });
    await waitFor(async () => (await widget.locator('.result').count()) === 0, 10_000, 'the widget made again');
    await ask('x-tenant', 'beta');
    await ask('authorization', 'None');
    // Checked as fetch checks headers: a bad one throws at the host's line, and the headers
    // before stay.
    const thrown = await widget.evaluate((e) => { try { e.headers = { 'bad name': 'x' }; return 'nothing'; } catch (err) { return err.name; } });
    assert.equal(thrown, 'TypeError');
    assert.deepEqual(await widget.evaluate((e) => e.headers), { 'x-tenant': 'beta' });
  } finally {
    await own.close();
    modern.stop();
    await blank.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the element follows its place on the page: taken off, it ends its session; put on again and again (a single-page app changing route), it connects each time; moved, it stays', async () => {
  // A server of its own: the browser opens six connections to it at most (HTTP/1.1), and
  // each connected element holds one for its stream while it lives.
  const own = await startPeer('everything.sh', ['streamableHttp']);
  const p5 = await browser.newPage();
  try {
    p5.on('pageerror', (e) => { throw e; });
    const deletes = [];
    p5.on('request', (r) => { if (r.method() === 'DELETE' && r.url() === own.url) deletes.push(r.headers()['mcp-session-id']); });
    await p5.goto(`${host.url}/embed-demo.html?pkg=${encodeURIComponent(pkg.url)}&panels=resources`);
    await p5.waitForFunction(() => customElements.get('mcp-client'));
    // Puts a new element on the page and waits (with a deadline) for it to connect.
    const mountOne = (url) => p5.evaluate(async (url) => {
      const el = document.createElement('mcp-client');
      el.id = 'route';
      el.setAttribute('server', url);
      const connected = new Promise((resolve, reject) => {
        el.addEventListener('connected', (e) => resolve(e.detail), { once: true });
        setTimeout(() => reject(new Error('no connected event in 15 s')), 15_000);
      });
      document.body.append(el);
      return connected;
    }, url);
    for (let i = 0; i < 8; i++) {
      const detail = await mountOne(own.url);
      assert.equal(detail.url, own.url, `mount ${i}`);
      await p5.locator('#route button.tool[data-tool="echo"]').waitFor({ timeout: 10_000 });
      await p5.evaluate(() => document.getElementById('route').remove());
      // Its 2025-era session is deleted on the server.
      await waitFor(() => deletes.length === i + 1, 10_000, `the DELETE of removed element ${i}`);
    }
    assert.equal(new Set(deletes).size, 8, 'each element had a session of its own');

    // Taken off while a call is under way: the call ends with its connection, and nothing of
    // it breaks the next element (a failure in the wasm would stop every element of the page).
    await mountOne(own.url);
    await p5.locator('#route button.tool[data-tool="trigger-long-running-operation"]').click();
    await p5.locator('#route #arg-duration').fill('30');
    await p5.locator('#route #arg-steps').fill('30');
    await p5.locator('#route button.run').click();
    await p5.locator('#route .progress progress').waitFor({ timeout: 10_000 });
    await p5.evaluate(() => document.getElementById('route').remove());
    await waitFor(() => deletes.length === 9, 10_000, 'the DELETE of the element removed mid-call');
    await mountOne(own.url);
    await p5.locator('#route button.tool[data-tool="echo"]').click();
    await p5.locator('#route #arg-message').fill('after a removal mid-call');
    await p5.locator('#route button.run').click();
    await p5.locator('#route .result', { hasText: 'Echo: after a removal mid-call' }).waitFor({ timeout: 10_000 });
    await p5.evaluate(() => document.getElementById('route').remove());
    await waitFor(() => deletes.length === 10, 10_000, 'the DELETE after the call');

    // Moved within the page: the same widget, its connection kept (no new session, nothing deleted).
    await mountOne(own.url);
    await p5.locator('#route button.tool[data-tool="echo"]').click();
    await p5.locator('#route #arg-message').fill('typed before the move');
    const moved = await p5.evaluate(() => {
      const el = document.getElementById('route');
      let again = 0;
      el.addEventListener('connected', () => again++);
      const box = document.createElement('section');
      document.body.prepend(box);
      box.append(el);
      return new Promise((resolve) => setTimeout(() => resolve(again), 500));
    });
    assert.equal(moved, 0, 'a move made the widget again');
    assert.equal(await p5.locator('#route #arg-message').inputValue(), 'typed before the move');
    assert.equal(deletes.length, 10);

    // Two connections open in one element, the second made in its connect form: taken off,
    // it ends both sessions, not only the newest.
    const tabs = p5.locator('#route .connections .connection');
    assert.equal(await tabs.count(), 1);
    await p5.locator('#route #server-url').fill(own.url);
    await p5.locator('#route #connect').click();
    await waitFor(async () => (await tabs.count()) === 2, 10_000, 'a second connection in the element');
    await p5.locator('#route #connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
    await p5.locator('#route button.tool[data-tool="echo"]').waitFor({ timeout: 10_000 });
    await p5.evaluate(() => document.getElementById('route').remove());
    await waitFor(() => deletes.length === 12, 10_000, 'the DELETEs of both connections of the removed element');
    assert.equal(new Set(deletes).size, 12, 'two sessions, each deleted');
  } finally {
    await p5.close();
    own.stop();
  }
});

test('changing the element\'s server connects it to the new server and ends the session before; changing its theme only recolours it', async () => {
  const other = await startPeer('everything.sh', ['streamableHttp']);
  const p6 = await browser.newPage();
  try {
    p6.on('pageerror', (e) => { throw e; });
    const deletes = [];
    p6.on('request', (r) => { if (r.method() === 'DELETE') deletes.push(r.url()); });
    await p6.goto(`${host.url}/embed-demo.html?pkg=${encodeURIComponent(pkg.url)}&server=${encodeURIComponent(server.url)}`);
    await waitFor(() => p6.evaluate(() => (window.mcpEvents || []).some((e) => e.name === 'connected')), 20_000, 'connected event');
    await p6.locator('mcp-client button.tool[data-tool="echo"]').click();
    await p6.locator('mcp-client #arg-message').fill('kept through a new theme');
    // The theme: recoloured, the widget as it was.
    await p6.evaluate(() => document.querySelector('mcp-client').setAttribute('theme', 'dark'));
    await waitFor(() => p6.evaluate(() => document.querySelector('mcp-client').shadowRoot.querySelector('.mcp-root').classList.contains('theme-dark')), 5_000, 'the dark theme');
    assert.equal(await p6.evaluate(() => document.querySelector('mcp-client').shadowRoot.querySelector('.mcp-root.theme-light')), null);
    assert.equal(await p6.locator('mcp-client #arg-message').inputValue(), 'kept through a new theme');
    // Another server, with another transport set at the same time: made again once.
    await p6.evaluate((url) => {
      const el = document.querySelector('mcp-client');
      el.setAttribute('server', url);
      el.setAttribute('transport', 'streamable');
    }, other.url);
    await waitFor(() => p6.evaluate((url) => window.mcpEvents.some((e) => e.name === 'connected' && e.detail.url === url), other.url), 20_000, 'connected to the new server');
    await waitFor(() => deletes.includes(server.url), 10_000, 'the DELETE of the session before');
    assert.equal(await p6.evaluate(() => window.mcpEvents.filter((e) => e.name === 'connected').length), 2);
    await p6.locator('mcp-client button.tool[data-tool="echo"]').waitFor({ timeout: 10_000 });
    assert.equal(await p6.evaluate(() => document.querySelector('mcp-client').shadowRoot.querySelectorAll('.mcp-root').length), 1);
    assert.ok(await p6.evaluate(() => document.querySelector('mcp-client').shadowRoot.querySelector('.mcp-root').classList.contains('theme-dark')));
  } finally {
    await p6.close();
    other.stop();
  }
});

test('hostile attributes: a server URL of another scheme is refused in words, an unknown theme is the system\'s, markup stays text; the widget works', async () => {
  const p7 = await browser.newPage();
  try {
    p7.on('pageerror', (e) => { throw e; });
    p7.on('dialog', (d) => { throw new Error(`a dialog opened: ${d.message()}`); });
    await p7.goto(`${host.url}/embed-demo.html?pkg=${encodeURIComponent(pkg.url)}&panels=resources`);
    await p7.waitForFunction(() => customElements.get('mcp-client'));
    const out = await p7.evaluate(async () => {
      const el = document.createElement('mcp-client');
      el.id = 'hostile';
      const errors = [];
      el.addEventListener('error', (e) => errors.push(e.detail));
      el.setAttribute('server', 'javascript:alert(1)');
      el.setAttribute('theme', 'dark light');
      el.setAttribute('panels', '<b>bold</b>,resources');
      el.setAttribute('transport', 'carrier-pigeon');
      el.setAttribute('tool', '<img src=x onerror=alert(2)>');
      document.body.append(el);
      const deadline = Date.now() + 10_000;
      while (!errors.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const root = el.shadowRoot.querySelector('.mcp-root');
      return {
        errors, className: root.className, imgs: el.shadowRoot.querySelectorAll('img, b').length,
        text: root.innerText,
      };
    });
    assert.equal(out.errors.length, 1, JSON.stringify(out.errors));
    assert.match(out.errors[0].message, /"javascript:alert\(1\)" is not an MCP server URL: it must start with http:\/\/, https:\/\/, ws:\/\/ or wss:\/\//);
    assert.match(out.text, /is not an MCP server URL/);
    assert.equal(out.className, 'mcp-root');
    assert.equal(out.imgs, 0);
    // A theme it knows, then a server it can use: it works.
    await p7.evaluate((url) => {
      const el = document.getElementById('hostile');
      el.setAttribute('theme', 'dark');
      el.setAttribute('server', url);
    }, server.url);
    await p7.locator('#hostile button.tool[data-tool="echo"]').waitFor({ timeout: 20_000 });
    assert.ok(await p7.evaluate(() => document.getElementById('hostile').shadowRoot.querySelector('.mcp-root').classList.contains('theme-dark')));
  } finally {
    await p7.close();
  }
});
