// The browser's six connections per server over plain HTTP (HTTP/1.1), with many tabs of the
// app on one local server. Each connected tab keeps a stream open, which holds one of them.
// - A 2025-era server (npm server-everything) and a 2026-07-28 one (the PyPI `mcp` test
//   server): a tab's stream (the GET stream, the `subscriptions/listen` stream) waits while
//   it would take the last connection, so every tab can still call tools; it opens once a
//   tab closes.
// - The 2024-11-05 HTTP+SSE transport (server-everything's /sse), whose stream carries every
//   answer and so cannot wait: the sixth tab's stream takes the last connection, and the tab
//   says why its requests wait instead of showing nothing, and goes on once a tab closes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appSiteAndBrowser, echoInApp as echo, startPeer } from './browser.mjs';

const shared = appSiteAndBrowser();

/** Opens a tab of the app connected to `url` in `context`, once `streaming` (given the page)
 * has resolved too. */
async function tab(context, url, streaming) {
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw e; });
  const opened = streaming ? streaming(page) : null;
  await page.goto(`${shared.site.url}/?url=${encodeURIComponent(url)}`);
  await page.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
  await opened;
  return page;
}

const logSays = (page, text) => page.locator('.logs .notifications li', { hasText: text }).first();

/** Seven tabs on the server `peer`, whose stream a tab opens with a request that
 * `isStream(request)` tells: the first five open theirs, the last two wait (their logs say
 * so) and every tab calls a tool; one of the two opens its stream once a tab closes.
 * `meanwhile(page)`, if given, runs in the seventh tab while its stream waits. */
async function sevenTabsAllCallTools(peer, isStream, meanwhile = async () => {}) {
  const context = await shared.browser.newContext();
  try {
    const stream = (page) => page.waitForResponse((r) => r.url() === peer.url && isStream(r.request()), { timeout: 20_000 });
    const tabs = [];
    // Five tabs each open their stream.
    for (let i = 0; i < 5; i++) tabs.push(await tab(context, peer.url, stream));
    // Two more connect without one, and say so in their logs.
    for (let i = 0; i < 2; i++) tabs.push(await tab(context, peer.url));
    for (const page of tabs.slice(5)) {
      await page.locator('#tab-logs').click();
      await logSays(page, 'waits: browsers open at most 6 connections to one server over plain HTTP').waitFor({ timeout: 10_000 });
    }
    // Every tab can call tools (the sixth connection is left for requests).
    await echo(tabs[6], 'from the seventh tab');
    await echo(tabs[0], 'from the first tab');
    assert.equal(await tabs[6].locator('.waiting-for-connection').count(), 0);
    await meanwhile(tabs[6]);
    // A tab closed: one of the two waiting streams opens.
    const opened = Promise.any(tabs.slice(5).map(stream));
    await tabs.shift().close();
    await opened;
    await echo(tabs[5], 'after a tab closed');
  } finally {
    await context.close();
  }
}

test('seven tabs on a 2025-era server all call tools: the GET streams that would take the last connection wait, and one opens once a tab closes', async () => {
  // A server of its own, so that no other test's connections count.
  const peer = await startPeer('everything.sh', ['streamableHttp']);
  try {
    await sevenTabsAllCallTools(peer, (request) => request.method() === 'GET');
  } finally {
    peer.stop();
  }
});

test('seven tabs on a 2026-07-28 server all call tools: the listen streams that would take the last connection wait (a subscription meanwhile is refused in words), and one opens once a tab closes', async () => {
  process.env.MANY_TOOLS = '0';
  const peer = await startPeer('many_tools.sh');
  delete process.env.MANY_TOOLS;
  try {
    // A resource subscription is acknowledged on that stream: refused at once, in words.
    const subscribe = async (page) => {
      await page.locator('#tab-resources').click();
      const greeting = page.locator('.resource-list li', { hasText: 'test://greeting' });
      await greeting.locator('button.subscribe').click();
      await page.locator('.resources .call-error', { hasText: 'which waits for a free connection' }).waitFor({ timeout: 10_000 });
      assert.equal(await greeting.locator('button.subscribe').getAttribute('aria-pressed'), 'false');
      await page.locator('#tab-tools').click();
    };
    await sevenTabsAllCallTools(peer, (request) => request.headers()['mcp-method'] === 'subscriptions/listen', subscribe);
  } finally {
    peer.stop();
  }
});

test('a sixth tab on a server whose connections are held by HTTP+SSE streams (which cannot wait) says why it waits, and lists the tools once a tab closes', async () => {
  const peer = await startPeer('everything.sh', ['sse'], '/sse');
  const context = await shared.browser.newContext();
  const open = (page) => page.goto(`${shared.site.url}/?url=${encodeURIComponent(peer.url)}&transport=sse`);
  try {
    // Five tabs connect: five streams, and the sixth connection for requests.
    const tabs = [];
    for (let i = 0; i < 5; i++) {
      const page = await context.newPage();
      page.on('pageerror', (e) => { throw e; });
      await open(page);
      await page.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
      tabs.push(page);
    }
    // The sixth tab's stream takes that connection: its first request has none left.
    const sixth = await context.newPage();
    sixth.on('pageerror', (e) => { throw e; });
    await open(sixth);
    const hint = sixth.locator('.waiting-for-connection');
    await hint.waitFor({ timeout: 20_000 });
    const text = await hint.textContent();
    assert.match(text, /no answer yet from http:\/\/127\.0\.0\.1:\d+, most likely for want of a connection/);
    assert.match(text, /at most 6 connections to one server over plain HTTP/);
    const counted = Number(/\b(\d+) streams from pages of this site/.exec(text)?.[1]);
    assert.equal(counted, 6, text);
    assert.notEqual(await sixth.locator('#connection-state').textContent(), 'connected');
    // A tab closed frees its connection: the sixth connects and lists the tools, and the hint
    // goes.
    await tabs.shift().close();
    await sixth.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
    const listed = () => Number.parseInt(document.querySelector('.tools .count')?.textContent, 10) >= 1;
    await sixth.waitForFunction(listed, null, { timeout: 20_000 });
    await hint.waitFor({ state: 'detached', timeout: 5_000 });
    // The connection's log keeps the same words.
    await sixth.locator('#tab-logs').click();
    await logSays(sixth, 'most likely for want of a connection').waitFor({ timeout: 5_000 });
  } finally {
    await context.close();
    peer.stop();
  }
});
