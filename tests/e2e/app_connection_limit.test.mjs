// The browser's six connections per server over plain HTTP (HTTP/1.1): six tabs of the app
// connected to one local server (npm server-everything, 2025 era: each tab keeps its GET stream
// open, holding one connection) leave a seventh tab unable to send anything. The seventh says
// why instead of only "connecting", and connects once a tab closes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { launch, serveDir, startPeer } from './browser.mjs';

const dist = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../dist');
let site, peer, browser;

before(async () => {
  site = await serveDir(dist);
  // A server of its own, so that no other test's connections count.
  peer = await startPeer('everything.sh', ['streamableHttp']);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  peer?.stop();
  await site?.close();
});

test('a seventh tab on a server whose six connections are held by streams says why it waits, and connects once a tab closes', async () => {
  const context = await browser.newContext();
  const link = `${site.url}/?url=${encodeURIComponent(peer.url)}`;
  const tabs = [];
  for (let i = 0; i < 6; i++) {
    const page = await context.newPage();
    page.on('pageerror', (e) => { throw e; });
    // Its GET stream open: the server has answered it (headers; the body goes on).
    const streaming = page.waitForResponse((r) => r.request().method() === 'GET' && r.url() === peer.url, { timeout: 20_000 });
    await page.goto(link);
    await page.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
    await streaming;
    tabs.push(page);
  }
  const seventh = await context.newPage();
  seventh.on('pageerror', (e) => { throw e; });
  await seventh.goto(link);
  const hint = seventh.locator('.waiting-for-connection');
  await hint.waitFor({ timeout: 20_000 });
  const text = await hint.textContent();
  assert.match(text, /no answer yet from http:\/\/127\.0\.0\.1:\d+, most likely for want of a connection/);
  assert.match(text, /at most 6 connections to one server over plain HTTP/);
  assert.match(text, /\b6 streams from pages of this site/);
  assert.equal(await seventh.locator('#connection-state').textContent(), 'connecting');
  // A tab closed frees its connection: the seventh connects, and the hint goes.
  await tabs.shift().close();
  await seventh.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
  assert.equal(await hint.count(), 0);
  // The connection's log keeps the same words.
  await seventh.locator('#tab-logs').click();
  await seventh.locator('.logs .notifications li', { hasText: 'most likely for want of a connection' }).first().waitFor({ timeout: 5_000 });
  await context.close();
});
