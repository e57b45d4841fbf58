// MCP Apps (the io.modelcontextprotocol/ui extension) against npm
// @modelcontextprotocol/server-basic-vanillajs, the extension's own example server: its
// `get-time` tool names a View (ui://get-time/mcp-app.html, built on the extension's SDK). The
// app shows the View under the result, in a sandbox, and carries its conversation: the
// handshake, the call's input and result, the tool calls it makes through the client, its
// logs, messages and links.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appConnectedTo, waitFor, accessibilityViolations, viewFrame, screenshotPath } from './browser.mjs';

let app, peer, page;
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

before(async () => {
  app = await appConnectedTo('apps.sh');
  ({ page, peer } = app);
});
after(async () => {
  await app?.close();
});

/** The View's frame (its document), once it has loaded. */
const viewNow = async () => (await viewFrame(page)).frame;

test('a tool with a View shows it under its result, fed with the result', async () => {
  const tool = page.locator('button.tool[data-tool="get-time"]');
  assert.equal(await tool.locator('.app-mark').innerText(), 'app');
  await tool.click();
  await page.locator('button.run').click();
  const text = await page.locator('.runner .result .content.text').first().innerText();
  assert.match(text, ISO_TIME);
  const frame = await viewNow();
  // The View got the handshake's answer and then the result: it shows the time.
  const shown = await waitFor(async () => {
    const t = await frame.locator('#server-time').innerText();
    return ISO_TIME.test(t) && t;
  }, 10_000, 'the View showing the time');
  assert.equal(shown, text);
  // The frame takes the height the View asks for (ui/notifications/size-changed). The View
  // measures in an animation frame, which headless Chromium draws for a frame of another
  // origin only when the page is captured: the first capture is for that.
  const viewHeight = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  await page.locator('.tools .detail').screenshot();
  const frameEl = page.locator('.mcp-app iframe.app-frame');
  await waitFor(async () => (await frameEl.evaluate((e) => e.style.height)) === `${viewHeight}px`, 5_000, `the frame ${viewHeight}px high`);
  assert.equal(await frameEl.evaluate((e) => e.clientHeight), viewHeight);
  await page.locator('.mcp-app').screenshot({ path: screenshotPath('mcp-app.png') });
  // The client declared the extension to the server.
  await frame.evaluate(() => { window.keptByTheView = 'kept'; });
  await page.locator('#tab-logs').click();
  await page.locator('ol.wire li.sent', { hasText: '"io.modelcontextprotocol/ui"' }).first().waitFor({ timeout: 5_000 });
  await page.locator('#tab-tools').click();
  // The View stayed, hidden, while the other tab was shown: the same document, with what it
  // held, still showing the time.
  assert.equal(await frame.evaluate(() => window.keptByTheView), 'kept');
  assert.equal(await frame.locator('#server-time').innerText(), shown);
});

test('the View calls tools through the client, and its logs, messages and links are shown', async () => {
  const frame = await viewNow();
  const before = await frame.locator('#server-time').innerText();
  await frame.locator('#get-time-btn').click();
  const said = page.locator('.mcp-app .app-said');
  await said.locator('li', { hasText: 'Called the tool get-time' }).waitFor({ timeout: 10_000 });
  await waitFor(async () => {
    const t = await frame.locator('#server-time').innerText();
    return ISO_TIME.test(t) && t !== before;
  }, 10_000, 'a new time from the View\'s own call');
  await frame.locator('#send-log-btn').click();
  await said.locator('li', { hasText: 'This is log text.' }).waitFor({ timeout: 5_000 });
  await frame.locator('#send-message-btn').click();
  await said.locator('li', { hasText: 'Message for the conversation: This is message text.' }).waitFor({ timeout: 5_000 });
  await frame.locator('#open-link-btn').click();
  const link = said.locator('li', { hasText: 'Asks to open a web page' });
  await link.waitFor({ timeout: 5_000 });
  assert.equal(await link.locator('a.open').getAttribute('href'), 'https://modelcontextprotocol.io/');
  assert.equal(await link.locator('a.open').getAttribute('rel'), 'noopener noreferrer');
  // The View's call went over the wire like any other.
  await page.locator('#tab-logs').click();
  await waitFor(async () => (await page.locator('ol.wire li.sent', { hasText: '"method":"tools/call"' }).count()) === 2,
    5_000, 'two tools/call on the wire');
  await page.locator('#tab-tools').click();
  assert.deepEqual(await accessibilityViolations(page, 'an MCP App', '.mcp-app'), []);
});

test('a View is told the colours chosen for the app, and when they change', async () => {
  await page.locator('#theme').selectOption('dark');
  const old = await page.locator('.mcp-app iframe.app-frame').elementHandle();
  await page.locator('button.run').click();
  // A new call, a new View.
  await waitFor(async () => !(await old.evaluate((e) => e.isConnected)), 10_000, 'the old View gone');
  const frame = await viewNow();
  const scheme = () => frame.evaluate(() => document.documentElement.style.colorScheme);
  await waitFor(async () => (await scheme()) === 'dark', 10_000, 'the View in dark colours');
  // With the app's own colours and font, as the extension's style variables (which the
  // View's SDK puts on its root).
  const variable = (name) => frame.evaluate((n) => document.documentElement.style.getPropertyValue(n), name);
  // The app's own, where the View is shown (as the style sheet says them, minified).
  const apps = (name) => page.evaluate((n) => getComputedStyle(document.querySelector('.mcp-app:not(.retiring) iframe')).getPropertyValue(n).trim(), name);
  const darkBg = await apps('--bg');
  assert.match(darkBg, /^#0d1117$/i);
  assert.equal(await variable('--color-background-primary'), darkBg);
  assert.equal(await variable('--color-text-primary'), await apps('--fg'));
  assert.match(await variable('--font-sans'), /^system-ui, /);
  // Changed while it is shown: chosen in the app, then the system's (light here, then dark).
  await page.locator('#theme').selectOption('light');
  await waitFor(async () => (await scheme()) === 'light', 5_000, 'the View in light colours');
  assert.notEqual(await apps('--bg'), darkBg);
  assert.equal(await variable('--color-background-primary'), await apps('--bg'));
  assert.equal(await variable('--color-text-primary'), await apps('--fg'));
  await page.locator('#theme').selectOption('system');
  await page.emulateMedia({ colorScheme: 'dark' });
  await waitFor(async () => (await scheme()) === 'dark', 5_000, 'the View in the system\'s dark colours');
  await page.emulateMedia({ colorScheme: 'light' });
  await waitFor(async () => (await scheme()) === 'light', 5_000, 'the View in the system\'s light colours');
});

test('the View is sandboxed: no way into the page, and no network but what its resource declares', async () => {
  const frame = await viewNow();
  assert.equal(await frame.evaluate(() => origin), 'null');
  assert.equal(await frame.evaluate(() => { try { return parent.document.title; } catch { return 'refused'; } }), 'refused');
  assert.equal(await frame.evaluate(() => { try { return localStorage.length; } catch { return 'refused'; } }), 'refused');
  // The resource declares no connectDomains: connect-src 'none', even to its own server
  // (which would answer: it allows any origin). The browser says which directive refused.
  const fetched = await frame.evaluate(async (url) => {
    const violation = new Promise((resolve) => document.addEventListener('securitypolicyviolation', (e) => resolve(e.effectiveDirective), { once: true }));
    const outcome = await fetch(url, { method: 'POST' }).then(() => 'fetched', () => 'refused');
    const deadline = new Promise((resolve) => setTimeout(() => resolve('no violation reported'), 5_000));
    return `${outcome} by ${await Promise.race([violation, deadline])}`;
  }, peer.url);
  assert.equal(fetched, 'refused by connect-src');
  const policy = await frame.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.content);
  assert.match(policy, /^default-src 'none'; script-src 'self' 'unsafe-inline';.*connect-src 'none';.*object-src 'none'/);
});

test('"Run again" in the call history shows a new View of the new call, as Run does', async () => {
  const { handle: before } = await viewFrame(page);
  const result = page.locator('.runner .result .content.text').first();
  const beforeTime = await result.innerText();
  await page.locator('.history-list li', { hasText: 'get-time' }).first().locator('button.rerun').click();
  const time = await waitFor(async () => {
    const t = await result.innerText().catch(() => '');
    return ISO_TIME.test(t) && t !== beforeTime && t;
  }, 10_000, 'the new call\'s result');
  // The View before is asked to tear down and goes; the new one shows the new call's time.
  await waitFor(async () => !(await before.evaluate((e) => e.isConnected)), 10_000, 'the View before gone');
  const frame = await viewNow();
  await waitFor(async () => (await frame.locator('#server-time').innerText()) === time, 10_000, 'the new View showing the new time');
  // The View's settings are on the server's resource list only (the SDK puts them there):
  // listed once for the first View, not again for each View shown since.
  await page.locator('#tab-logs').click();
  assert.equal(await page.locator('ol.wire li.sent', { hasText: '"resources/list"' }).count(), 1);
  await page.locator('#tab-tools').click();
  // "Close": the View is asked to tear down (the extension's SDK answers) and goes.
  const { handle: shown } = await viewFrame(page);
  await page.locator('.mcp-app:not(.retiring) button.close-app').click();
  await waitFor(async () => !(await shown.evaluate((e) => e.isConnected)), 5_000, 'the View closed');
  assert.equal(await page.locator('.mcp-app').count(), 0);
  assert.match(await page.locator('.runner .result .content.text').first().innerText(), ISO_TIME, 'the result stays');
});
