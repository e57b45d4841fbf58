// The built app (dist/) boots in real Chromium from its own origin: the wasm module loads,
// Leptos mounts, the deep link fills the server URL, and no page error is raised.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { appSiteAndBrowser, serveDir } from './browser.mjs';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');
const shared = appSiteAndBrowser();

test('the app mounts and reads the deep link', async () => {
  const page = await shared.browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const target = 'http://127.0.0.1:9/mcp?x=<script>';
  await page.goto(`${shared.site.url}/?url=${encodeURIComponent(target)}`);
  const input = page.locator('#server-url');
  await input.waitFor({ timeout: 15_000 });
  assert.equal(await input.inputValue(), target);
  // Nothing listens there: the connection doctor explains instead of crashing.
  await page.locator('.doctor').waitFor({ timeout: 15_000 });
  assert.match(await page.locator('.doctor').innerText(), /could not be reached|Network/);
  assert.deepEqual(errors, []);
});

test('the app boots when hosted in a sub-directory (relative asset paths)', async () => {
  const sub = await serveDir(dist, '/app');
  try {
    const page = await shared.browser.newPage();
    const errors = [];
    const missing = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('response', (r) => { if (r.status() === 404) missing.push(r.url()); });
    await page.goto(`${sub.url}/app/?url=${encodeURIComponent('http://127.0.0.1:9/mcp')}`);
    await page.locator('#server-url').waitFor({ timeout: 15_000 });
    assert.deepEqual(missing, []);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await sub.close();
  }
});

test('the app loads with nothing said in the console: no warning, no error', async () => {
  const page = await shared.browser.newPage();
  const said = [];
  page.on('console', (m) => { if (m.type() === 'warning' || m.type() === 'error') said.push(`${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => said.push(`pageerror: ${e}`));
  await page.goto(`${shared.site.url}/`);
  await page.locator('#server-url').waitFor({ timeout: 15_000 });
  // The wasm preload is used (else Chromium warns that it went unused once the load event
  // has passed a few seconds) and the loader's fetch of it found the preloaded answer.
  const wasm = await page.evaluate(() => performance.getEntriesByType('resource')
    .filter((e) => e.name.endsWith('.wasm')).map((e) => e.name));
  assert.equal(wasm.length, 1, `the wasm fetched once: ${wasm.join(', ')}`);
  assert.deepEqual(said, []);
  await page.close();
});
