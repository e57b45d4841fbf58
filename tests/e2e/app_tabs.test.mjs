// Two tabs of the app in one browser, connected to the same server (npm server-everything):
// what they keep in localStorage stays in step. Each tab writes a whole list, so a tab
// writing from what it read at load would drop what the other wrote since: the calls each
// tab makes show in the other's history (and stay in storage, also when one tab writes over
// a copy of storage that lags), a history cleared in one is cleared in the other, and a
// server saved in one is in the other's saved list (also after such a write, unless
// removed on purpose). Two connections to the same server in one tab show the same history.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appConnectedTo, echoInApp as echo, waitFor } from './browser.mjs';

let app, first, second;

before(async () => {
  app = await appConnectedTo('everything.sh');
  first = app.page;
  second = await first.context().newPage();
  second.on('pageerror', (e) => { throw e; });
  await second.goto(first.url());
  await second.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
});
after(async () => {
  await app?.close();
});

const line = (page, message) => page.locator('.history-list li', { hasText: `echo {"message":"${message}"}` });

function storedCalls(page) {
  return page.evaluate(() => {
    const doc = JSON.parse(localStorage.getItem('mcp-browser-client.history') || '{}');
    return Object.values(doc).flatMap((server) => server.calls || []).map((c) => c.arguments.message);
  });
}

test("each tab's calls show in the other's history, and storage keeps both", async () => {
  await echo(first, 'from the first tab');
  await second.locator('#tab-tools').click();
  await line(second, 'from the first tab').waitFor({ timeout: 5_000 });
  // The second tab's own call is written with the first one's, not over it.
  await echo(second, 'from the second tab');
  await line(first, 'from the second tab').waitFor({ timeout: 5_000 });
  assert.deepEqual(await storedCalls(first), ['from the first tab', 'from the second tab']);
  // Each once in each tab.
  for (const page of [first, second]) {
    assert.equal(await line(page, 'from the first tab').count(), 1);
    assert.equal(await line(page, 'from the second tab').count(), 1);
  }
  // A reload shows both, in order.
  await first.reload();
  await first.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
  await first.locator('#tab-tools').click();
  await line(first, 'from the second tab').waitFor({ timeout: 5_000 });
  assert.equal(await line(first, 'from the first tab').count(), 1);
});

test("a call dropped from storage by the other tab's write over a lagging copy is written back", async () => {
  await echo(first, 'dropped by a lagging write');
  await second.locator('#tab-tools').click();
  await line(second, 'dropped by a lagging write').waitFor({ timeout: 5_000 });
  // What the second tab writes when it records a call over its copy of localStorage that
  // has not yet brought the first tab's last write (Chromium brings one tab's writes to the
  // others on a path of its own): its call, and the first tab's last one missing.
  await second.evaluate(() => {
    const key = 'mcp-browser-client.history';
    const doc = JSON.parse(localStorage.getItem(key) || '{}');
    const servers = Object.values(doc).filter((s) => (s.calls || []).length > 0);
    if (servers.length !== 1) throw new Error(`expected one server's history, got ${servers.length}`);
    const server = servers[0];
    const before = server.calls.length;
    server.calls = server.calls.filter((c) => c.arguments.message !== 'dropped by a lagging write');
    if (server.calls.length !== before - 1) throw new Error('the call to drop was not stored');
    server.calls.push({ tool: 'echo', arguments: { message: 'over a lagging copy' }, summary: 'ok', at: Date.now(), took: 3 });
    server.used = Date.now();
    localStorage.setItem(key, JSON.stringify(doc));
  });
  // The first tab takes the other's call in and writes its own back.
  await line(first, 'over a lagging copy').waitFor({ timeout: 5_000 });
  await waitFor(async () => (await storedCalls(second)).includes('dropped by a lagging write'), 5_000, 'the dropped call written back');
  assert.deepEqual((await storedCalls(first)).slice(-2), ['dropped by a lagging write', 'over a lagging copy']);
  // So a reload still shows it, once.
  await second.reload();
  await second.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
  await second.locator('#tab-tools').click();
  await line(second, 'over a lagging copy').waitFor({ timeout: 5_000 });
  assert.equal(await line(second, 'dropped by a lagging write').count(), 1);
});

test('a history cleared in one tab is cleared in the other', async () => {
  await second.locator('#tab-tools').click();
  await line(second, 'from the first tab').waitFor({ timeout: 5_000 });
  await first.locator('button.clear-history').click();
  await waitFor(async () => (await second.locator('.history-list li').count()) === 0, 5_000, 'the other tab cleared');
  // Its next call does not bring the cleared ones back.
  await echo(second, 'after the clear');
  await line(first, 'after the clear').waitFor({ timeout: 5_000 });
  assert.deepEqual(await storedCalls(second), ['after the clear']);
  assert.equal(await first.locator('.history-list li').count(), 1);
});

test('a history dropped from storage to make room for other servers stays in the other tab', async () => {
  await first.locator('#tab-tools').click();
  await line(first, 'after the clear').waitFor({ timeout: 5_000 });
  // What the second tab's writes come to once it has recorded calls to 16 other servers
  // (the most kept): this server's history, used longest ago, is dropped to make room. Then
  // a server is saved there, which the first tab shows once it has heard both writes (the
  // storage events of one tab arrive in order).
  const sentinel = 'http://127.0.0.1:9/saved-after-the-crowding';
  await second.evaluate((sentinel) => {
    const key = 'mcp-browser-client.history';
    const doc = JSON.parse(localStorage.getItem(key) || '{}');
    const crowded = {};
    for (let n = 0; n < 16; n++) {
      crowded[`http://127.0.0.1:9/other-${n}`] = { used: Date.now() + n, calls: [{ tool: 't', arguments: {}, summary: 'ok', at: n }] };
    }
    if (Object.keys(doc).length === 0) throw new Error('nothing was stored');
    localStorage.setItem(key, JSON.stringify(crowded));
    const servers = JSON.parse(localStorage.getItem('mcp-browser-client.servers') || '{"mcpServers":{}}');
    servers.mcpServers.sentinel = { url: sentinel, type: 'http' };
    localStorage.setItem('mcp-browser-client.servers', JSON.stringify(servers));
  }, sentinel);
  await first.locator('details.saved summary').click();
  await first.locator('details.saved .saved-list li', { hasText: sentinel }).waitFor({ timeout: 5_000 });
  await first.locator('details.saved summary').click();
  // Not a clear: the first tab's history is as it was.
  assert.equal(await line(first, 'after the clear').count(), 1);
});

test("a server saved in one tab is in the other's saved list, and stays when the other saves one", async () => {
  const saved = (page) => page.evaluate(() => localStorage.getItem('mcp-browser-client.servers') || '');
  const connectTo = async (page, url) => {
    await page.locator('#server-url').fill(url);
    await page.locator('#connect').click();
  };
  // Nothing listens there: connecting fails, and the server is saved all the same.
  const x = 'http://127.0.0.1:9/saved-in-the-second-tab';
  const y = 'http://127.0.0.1:9/saved-in-the-first-tab';
  await connectTo(second, x);
  await waitFor(async () => (await saved(second)).includes(x), 10_000, 'saved in the second tab');
  await first.locator('details.saved summary').click();
  await first.locator('details.saved .saved-list li', { hasText: x }).waitFor({ timeout: 5_000 });
  await connectTo(first, y);
  await waitFor(async () => (await saved(first)).includes(y), 10_000, 'saved in the first tab');
  assert.ok((await saved(first)).includes(x), 'the other tab\'s server is still saved');
  await second.locator('details.saved summary').click();
  await second.locator('details.saved .saved-list li', { hasText: y }).waitFor({ timeout: 5_000 });
});

test("a server saved in one tab and dropped by the other's write over a lagging copy is saved again; one removed on purpose stays removed", async () => {
  const savedUrls = (page) => page.evaluate(() => Object.keys(JSON.parse(localStorage.getItem('mcp-browser-client.servers') || '{"mcpServers":{}}').mcpServers));
  const x = 'http://127.0.0.1:9/dropped-by-a-lagging-write';
  await first.locator('#server-url').fill(x);
  await first.locator('#connect').click();
  await waitFor(async () => (await savedUrls(second)).includes(x), 10_000, 'saved, as the second tab reads it');
  // What the second tab writes when it saves a server over its copy of localStorage that
  // has not brought the first tab's write yet: its server, and the first tab's missing.
  const z = 'http://127.0.0.1:9/saved-over-a-lagging-copy';
  await second.evaluate(({ x, z }) => {
    const key = 'mcp-browser-client.servers';
    const doc = JSON.parse(localStorage.getItem(key));
    delete doc.mcpServers[x];
    doc.mcpServers[z] = { url: z, type: 'http' };
    localStorage.setItem(key, JSON.stringify(doc, null, 2));
  }, { x, z });
  await waitFor(async () => (await savedUrls(second)).includes(x), 5_000, 'the dropped server saved again by the first tab');
  assert.ok((await savedUrls(second)).includes(z), 'the other tab\'s server kept too');
  await second.locator('details.saved .saved-list li', { hasText: x }).waitFor({ timeout: 5_000 });
  // Removed on purpose in the second tab: the first tab takes it out of its list, and does
  // not save it again.
  await second.locator('details.saved').evaluate((d) => { d.open = true; });
  await second.locator(`details.saved button.remove[aria-label="Remove ${x}"]`).click();
  await waitFor(async () => (await first.locator('details.saved .saved-list li', { hasText: x }).count()) === 0, 5_000, 'gone from the first tab\'s list');
  assert.ok(!(await savedUrls(first)).includes(x), 'not saved again');
  assert.ok(!(await savedUrls(second)).includes(x));
  assert.ok((await savedUrls(first)).includes(z));
});

test('two connections to the same server in one tab show the same history: a call and a clear in one show in the other', async () => {
  // The other tab goes: its writes (of calls this page's storage lacks) would carry the
  // history between the connections here.
  await second.close();
  // (The tab may hold a connection to a server of an earlier test too: the first one is
  // server-everything's.)
  const tabs = first.locator('.connections .connection');
  const n = await tabs.count();
  await first.locator('#server-url').fill(app.peer.url);
  await first.locator('#connect').click();
  await waitFor(async () => (await tabs.count()) === n + 1, 10_000, 'a second connection');
  try {
    await first.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
    await echo(first, 'from the second connection');
    await tabs.first().locator('.connection-tab').click();
    await first.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
    await first.locator('#tab-tools').click();
    await line(first, 'from the second connection').waitFor({ timeout: 5_000 });
    assert.equal(await line(first, 'from the second connection').count(), 1);
    // The first connection's own call, and then its clear, show in the second one.
    await echo(first, 'from the first connection');
    await tabs.last().locator('.connection-tab').click();
    await first.locator('#tab-tools').click();
    await line(first, 'from the first connection').waitFor({ timeout: 5_000 });
    await tabs.first().locator('.connection-tab').click();
    await first.locator('#tab-tools').click();
    await first.locator('button.clear-history').click();
    await tabs.last().locator('.connection-tab').click();
    await first.locator('#tab-tools').click();
    await waitFor(async () => (await first.locator('.history-list li').count()) === 0, 5_000, 'the history cleared in the second connection');
  } finally {
    await tabs.last().locator('button.close-connection').click();
    await waitFor(async () => (await tabs.count()) === n, 10_000, 'the second connection to go');
  }
});
