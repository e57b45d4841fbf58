// The browser's six connections per server over plain HTTP (HTTP/1.1), with many tabs of the
// app on one local server. Each connected tab keeps a stream open, which holds one of them.
// - A 2025-era server (npm server-everything): a tab's GET stream waits while it would take
//   the last connection, so every tab can still call tools; it opens once a tab closes.
// - A 2026-07-28 server (the PyPI `mcp` test server): its `subscriptions/listen` streams do
//   do not wait (a resource subscription waits for its stream), so six tabs hold all six; a
//   seventh says why it waits instead of showing nothing, and goes on once a tab closes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { echoInApp as echo, launch, serveDir, startPeer } from './browser.mjs';

const dist = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../dist');
let site, browser;

before(async () => {
  site = await serveDir(dist);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await site?.close();
});

/** Opens a tab of the app connected to `url` in `context`, once `streaming` (given the page)
 * has resolved too. */
async function tab(context, url, streaming) {
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw e; });
  const opened = streaming ? streaming(page) : null;
  await page.goto(`${site.url}/?url=${encodeURIComponent(url)}`);
  await page.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
  await opened;
  return page;
}

const logSays = (page, text) => page.locator('.logs .notifications li', { hasText: text }).first();

test('seven tabs on a 2025-era server all call tools: the streams that would take the last connection wait, and one opens once a tab closes', async () => {
  // A server of its own, so that no other test's connections count.
  const peer = await startPeer('everything.sh', ['streamableHttp']);
  const context = await browser.newContext();
  try {
    const getStream = (page) => page.waitForResponse((r) => r.request().method() === 'GET' && r.url() === peer.url, { timeout: 20_000 });
    const tabs = [];
    // Five tabs each open their GET stream.
    for (let i = 0; i < 5; i++) tabs.push(await tab(context, peer.url, getStream));
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
    // A tab closed: one of the two waiting streams opens.
    const opened = Promise.any(tabs.slice(5).map(getStream));
    await tabs.shift().close();
    await opened;
    await echo(tabs[5], 'after a tab closed');
  } finally {
    await context.close();
    peer.stop();
  }
});

test('a seventh tab on a 2026-07-28 server whose six connections are held by listen streams says why it waits, and lists the tools once a tab closes', async () => {
  process.env.MANY_TOOLS = '0';
  const peer = await startPeer('many_tools.sh');
  delete process.env.MANY_TOOLS;
  const context = await browser.newContext();
  try {
    const listening = (page) => page.waitForResponse((r) => r.url() === peer.url && r.request().headers()['mcp-method'] === 'subscriptions/listen', { timeout: 20_000 });
    const tabs = [];
    for (let i = 0; i < 6; i++) tabs.push(await tab(context, peer.url, listening));
    const seventh = await context.newPage();
    seventh.on('pageerror', (e) => { throw e; });
    await seventh.goto(`${site.url}/?url=${encodeURIComponent(peer.url)}`);
    const hint = seventh.locator('.waiting-for-connection');
    await hint.waitFor({ timeout: 20_000 });
    const text = await hint.textContent();
    assert.match(text, /no answer yet from http:\/\/127\.0\.0\.1:\d+, most likely for want of a connection/);
    assert.match(text, /at most 6 connections to one server over plain HTTP/);
    // Six at least (a stream being replaced, or one waiting for a connection, counts too).
    const counted = Number(/\b(\d+) streams from pages of this site/.exec(text)?.[1]);
    assert.ok(counted >= 6, text);
    // (It may say "connected": the tabs share the server's kept `server/discover` result, so
    // connecting asks nothing. Its first request, the tool list, is what waits.)
    const listed = () => Number.parseInt(document.querySelector('.tools .count')?.textContent, 10) >= 1;
    assert.equal(await seventh.evaluate(listed), false);
    // A tab closed frees its connection: the seventh lists the tools, and the hint goes.
    await tabs.shift().close();
    await seventh.waitForFunction(listed, null, { timeout: 20_000 });
    await hint.waitFor({ state: 'detached', timeout: 5_000 });
    // The connection's log keeps the same words.
    await seventh.locator('#tab-logs').click();
    await logSays(seventh, 'most likely for want of a connection').waitFor({ timeout: 5_000 });
  } finally {
    await context.close();
    peer.stop();
  }
});
