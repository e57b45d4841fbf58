// A call the server refuses until a web page is opened (URLElicitationRequiredError, -32042),
// against a server on the official TypeScript SDK (tests/peers/url_required_server.mjs): the
// app shows the page to open; once the page is done, the server says so
// (notifications/elicitation/complete) and the app makes the call again by itself.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appConnectedTo } from './browser.mjs';

let app, page;

before(async () => {
  app = await appConnectedTo('url_required_server.mjs');
  ({ page } = app);
});
after(async () => {
  await app?.close();
});

test('the call is made again by itself once the server says the page it asked for is done', async () => {
  await page.locator('button.tool[data-tool="connect-account"]').click();
  await page.locator('button.run').click();
  const required = page.locator('.runner .url-required');
  await required.waitFor({ timeout: 10_000 });
  assert.match(await required.innerText(), /Connect your account on this page\./);
  const pageUrl = await required.locator('.full-url').innerText();
  assert.match(pageUrl, /^http:\/\/127\.0\.0\.1:\d+\/done\?id=[0-9a-f-]+$/);
  assert.equal(await required.locator('a.open').getAttribute('href'), pageUrl);
  assert.equal(await page.locator('.runner .result').count(), 0);
  // The person completes the page in another tab (here: Node visits it).
  const done = await fetch(pageUrl);
  assert.equal(done.status, 200);
  // The server announces it; the app makes the call again, which now succeeds.
  await page.locator('.runner .result', { hasText: 'account connected' }).waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('.runner .url-required').count(), 0);
  assert.equal(await page.locator('.history-list li').count(), 2);
  await page.locator('#tab-logs').click();
  await page.locator('ul.notifications li', { hasText: 'the server says the web page it asked you to open is done' }).waitFor({ timeout: 5_000 });
});
