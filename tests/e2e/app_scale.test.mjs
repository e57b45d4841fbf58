// The app with a server offering 5,000 tools (PyPI mcp 2.x, 2026-07-28): the list shows a
// bounded number at once and the search finds any tool. (Timings are measured by the
// benchmark, not asserted here.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { accessibilityViolationsInBothSchemes, launch, serveDir, startPeer, waitFor, screenshotPath } from './browser.mjs';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');
let browser, site, server, page;

before(async () => {
  site = await serveDir(dist);
  server = await startPeer('many_tools.sh');
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 360, height: 800 } });
  await page.goto(`${site.url}/?url=${encodeURIComponent(server.url)}`);
  await page.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 30_000 });
});
after(async () => {
  await browser?.close();
  server?.stop();
  await site?.close();
});

test('5,000 tools: bounded list, search finds one, usable at 360 px wide', async () => {
  await waitFor(async () => Number.parseInt(await page.locator('.tools .count').innerText(), 10) >= 5000, 30_000, '5000 tools');
  assert.equal(await page.locator('button.tool').count(), 500);
  assert.match(await page.locator('.tools .more').innerText(), /showing 500 of 50\d\d/);
  await page.locator('#tool-search').fill('tool-4321');
  await waitFor(async () => (await page.locator('button.tool').count()) === 1, 10_000, 'one match');
  await page.locator('button.tool').click();
  await page.locator('button.run').click();
  await page.locator('.result', { hasText: 'ok' }).waitFor({ timeout: 10_000 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than a 360 px screen`);
  assert.deepEqual(await accessibilityViolationsInBothSchemes(page, '360 px wide, a result'), []);
  await page.screenshot({ path: screenshotPath('narrow.png') });
});
