// Interoperability with the official TypeScript SDK's 2026-07-28 server (npm
// `@modelcontextprotocol/server` 2.x, `createMcpHandler`; tests/peers/ts_modern_server.mjs):
// a second, independent implementation of the modern era beside the PyPI `mcp` one. The
// headless JS API and the app, each in headless Chromium on another origin.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, serveDir, startPeer, waitFor, viewFrame } from './browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
let browser, pkg, host, app, server;

before(async () => {
  pkg = await serveDir(path.resolve(here, '../../dist-pkg'));
  host = await serveDir(path.resolve(here, 'host'));
  app = await serveDir(path.resolve(here, '../../dist'));
  server = await startPeer('ts_modern_server.mjs');
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.stop();
  await pkg?.close();
  await host?.close();
  await app?.close();
});

test('the JS API speaks 2026-07-28 with the TypeScript SDK server: calls, progress, reads, prompts, list changes, a resource subscription it does not offer, refusals', async () => {
  const page = await browser.newPage();
  page.on('pageerror', (e) => { throw e; });
  await page.goto(`${host.url}/index.html`);
  const out = await page.evaluate(async ({ pkgUrl, url }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    await m.default();
    const notes = [];
    const c = await m.McpClient.connect({ url, onNotification: (n) => notes.push(n) });
    const server = c.server();
    const tools = (await c.listTools()).map((t) => t.name);
    const echo = (await c.callTool('echo', { message: 'hi' })).content[0].text;
    const add = await c.callTool('add', { a: 2, b: 3 });
    const progress = [];
    const count = (await c.callTool('count', { n: 3 }, { onProgress: (p) => progress.push(p.progress) })).content[0].text;
    const read = (await c.readResource('test://greeting')).contents[0].text;
    const prompt = (await c.getPrompt('greet', { name: 'Ada' })).messages[0].content.text;
    // This server does not offer resource subscriptions (no resources.subscribe): it leaves
    // the resource out when it acknowledges the subscriptions/listen stream, and the
    // subscription is refused instead of waiting for updates that never come.
    let refused = null;
    try { await c.subscribeResource('test://greeting'); } catch (e) { refused = { name: e.name, kind: e.kind, message: e.message }; }
    await c.callTool('touch', {});
    // The list change comes on the subscriptions/listen stream: wait for it, bounded.
    const deadline = Date.now() + 10_000;
    while (!notes.some((n) => n.method === 'notifications/tools/list_changed')) {
      if (Date.now() > deadline) throw new Error(`no tools/list_changed after 10 s: ${JSON.stringify(notes.map((n) => n.method))}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const updates = notes.filter((n) => n.method === 'notifications/resources/updated').length;
    let unknown = null;
    try { await c.callTool('no-such-tool', {}); } catch (e) { unknown = { name: e.name, kind: e.kind, code: e.code, message: e.message }; }
    const badArgs = await c.callTool('add', { a: 'two' });
    c.close();
    return { server, tools, echo, add, count, progress, read, prompt, refused, updates, unknown, badArgs };
  }, { pkgUrl: pkg.url, url: server.url });

  assert.equal(out.server.era, 'modern');
  assert.equal(out.server.protocolVersion, '2026-07-28');
  assert.equal(out.server.serverInfo.name, 'ts-sdk-modern');
  assert.deepEqual(out.tools.sort(), ['add', 'clock', 'count', 'echo', 'touch']);
  assert.equal(out.echo, 'Echo: hi');
  assert.deepEqual(out.add.structuredContent, { sum: 5 });
  assert.equal(out.count, 'counted to 3');
  assert.deepEqual(out.progress, [1, 2, 3]);
  assert.equal(out.read, 'hello from the TypeScript SDK');
  assert.equal(out.prompt, 'Say hello to Ada.');
  assert.deepEqual({ name: out.refused?.name, kind: out.refused?.kind }, { name: 'McpError', kind: 'subscription-refused' });
  assert.match(out.refused.message, /test:\/\/greeting/);
  assert.equal(out.updates, 0);
  // An unknown tool is a JSON-RPC refusal the host can branch on; bad arguments are a tool error.
  assert.deepEqual({ name: out.unknown?.name, kind: out.unknown?.kind, code: out.unknown?.code }, { name: 'McpError', kind: 'rpc', code: -32602 });
  assert.match(out.unknown.message, /no-such-tool/);
  assert.equal(out.badArgs.isError, true);
  assert.match(out.badArgs.content[0].text, /Invalid arguments for tool add/);
  await page.close();
});

test('the app connects to the TypeScript SDK server in the modern era and checks a tool\'s structured result against its zod-made output schema', async () => {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on('pageerror', (e) => { throw e; });
  await page.goto(`${app.url}/?url=${encodeURIComponent(server.url)}`);
  await page.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 30_000 });
  const head = await page.locator('.server-head').innerText();
  assert.match(head, /Modern era · 2026-07-28/);
  assert.match(head, /ts-sdk-modern/);
  await page.locator('button.tool[data-tool="add"]').click();
  await page.locator('.runner .tool-name', { hasText: 'add' }).waitFor();
  await page.locator('#arg-a').fill('2');
  await page.locator('#arg-b').fill('3');
  await page.locator('button.run').click();
  await page.locator('.verdict.valid').waitFor({ timeout: 10_000 });
  assert.match(await page.locator('.result pre.structured').innerText(), /"sum": 5/);
  await page.close();
});

test('an MCP App of the TypeScript SDK server in the modern era, its origins declared on the resource list entry only', async () => {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on('pageerror', (e) => { throw e; });
  await page.goto(`${app.url}/?url=${encodeURIComponent(server.url)}`);
  await page.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 30_000 });
  await page.locator('button.tool[data-tool="clock"]').click();
  await page.locator('button.run').click();
  const { handle, frame } = await viewFrame(page);
  await frame.locator('#face', { hasText: 'clock' }).waitFor({ timeout: 10_000 });
  // The contents read carry no _meta: the policy and the border come from the list entry.
  const policy = await frame.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]').content);
  assert.match(policy, /connect-src https:\/\/api\.example\.com;/);
  assert.equal(await handle.evaluate((e) => e.classList.contains('bordered')), false);
  // The View (on the extension's SDK) lists the server's resources through the client.
  await frame.locator('#listed', { hasText: 'test://greeting' }).waitFor({ timeout: 10_000 });
  assert.deepEqual((await frame.locator('#listed').innerText()).split(' ').sort(), ['test://greeting', 'ui://ts/clock']);
  // The View calls `touch`, which announces that the tool list changed: the client lists the
  // tools again and tells the View.
  assert.equal(await frame.locator('#changed').innerText(), '');
  await frame.locator('#touch').click();
  await frame.locator('#changed', { hasText: 'notifications/tools/list_changed' }).waitFor({ timeout: 10_000 });
  // The View asks for a model reply: the person is asked, as for a server's sampling
  // request, and the View gets what they approved, or their refusal.
  await frame.locator('#ask').click();
  const ask = page.locator('.ask.sampling');
  assert.equal(await ask.locator('h3').innerText(), 'The app of clock asks for a model reply');
  assert.match(await ask.locator('.messages').innerText(), /What time is it in Paris\?/);
  // One question of a View at a time: asked again meanwhile, it is refused at once.
  await frame.locator('#ask').click();
  await frame.locator('#reply', { hasText: /^refused: .*not answered this app's last sampling request yet/ }).waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('.ask.sampling').count(), 1);
  // Beside the View, a word that it waits, and a way to the question (the reply box).
  const waiting = page.locator('.mcp-app .app-asks');
  assert.match(await waiting.innerText(), /^Asks for a model reply: the question is shown above/);
  // By the keyboard: the View may still be changing its height, moving the button.
  await waiting.locator('button.show-question').press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.classList.contains('sampling-reply')), true);
  await ask.locator('textarea.sampling-reply').fill('Noon <b>sharp</b>.');
  await ask.locator('button.approve').click();
  await frame.locator('#reply', { hasText: 'reply: Noon <b>sharp</b>. (human-in-the-loop)' }).waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('.ask.sampling').count(), 0);
  assert.equal(await waiting.count(), 0, 'the word goes with the question');
  await frame.locator('#ask').click();
  await page.locator('.ask.sampling button.reject').click();
  await frame.locator('#reply', { hasText: /^refused: .*rejected/ }).waitFor({ timeout: 10_000 });
  // A question of a View goes with it: asked, then the tool called again (a new View).
  await frame.locator('#ask').click();
  await page.locator('.ask.sampling').waitFor({ timeout: 5_000 });
  await page.locator('button.run').click();
  await waitFor(async () => !(await handle.evaluate((e) => e.isConnected)), 10_000, 'the View before gone');
  assert.equal(await page.locator('.ask.sampling').count(), 0);
  await page.close();
});

test('the app subscribes to a resource of the TypeScript SDK server in the modern era (the subscriptions/listen filter), marks it when the server announces an update and reads it again when shown', async () => {
  const offering = await startPeer('ts_modern_server.mjs', ['subscribe']);
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on('pageerror', (e) => { throw e; });
  const listens = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.headers()['mcp-method'] === 'subscriptions/listen') listens.push(JSON.parse(r.postData()).params);
  });
  try {
    await page.goto(`${app.url}/?url=${encodeURIComponent(offering.url)}`);
    await page.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 30_000 });
    await page.locator('#tab-resources').click();
    const item = page.locator('.resource-list li', { has: page.locator('button.read-resource[data-uri="test://greeting"]') });
    await item.locator('button.subscribe', { hasText: 'Subscribe' }).click();
    await item.locator('button.subscribe[aria-pressed="true"]', { hasText: 'Unsubscribe' }).waitFor({ timeout: 10_000 });
    // The stream was opened again with the resource in its filter.
    assert.ok(listens.some((p) => JSON.stringify(p).includes('"resourceSubscriptions":["test://greeting"]')), JSON.stringify(listens));
    // The server announces an update: marked in the list until read.
    await page.locator('#tab-tools').click();
    await page.locator('button.tool[data-tool="touch"]').click();
    await page.locator('button.run').click();
    await page.locator('.runner .result', { hasText: 'announced' }).waitFor({ timeout: 10_000 });
    await page.locator('#tab-resources').click();
    await item.locator('.hint.updated').waitFor({ timeout: 10_000 });
    await item.locator('button.read-resource').click();
    await page.locator('.resource-view .resource-text', { hasText: 'hello from the TypeScript SDK' }).waitFor({ timeout: 10_000 });
    assert.equal(await item.locator('.hint.updated').count(), 0);
    // Announced while the resource is shown (by another client's call): read again by itself.
    const other = await browser.newPage();
    await other.goto(`${host.url}/index.html`);
    await other.evaluate(async ({ pkgUrl, url }) => {
      const m = await import(`${pkgUrl}/mcp_client.js`);
      await m.default();
      const c = await m.McpClient.connect({ url });
      await c.callTool('touch', {});
      c.close();
    }, { pkgUrl: pkg.url, url: offering.url });
    await other.close();
    await page.locator('.resource-view .reread').waitFor({ timeout: 10_000 });
    await page.locator('.resource-view .resource-text', { hasText: 'hello from the TypeScript SDK' }).waitFor({ timeout: 10_000 });
    // Unsubscribed: the stream is opened again without it.
    const before = listens.length;
    await item.locator('button.subscribe').click();
    await item.locator('button.subscribe[aria-pressed="false"]', { hasText: 'Subscribe' }).waitFor({ timeout: 10_000 });
    await waitFor(() => listens.length > before, 10_000, 'the stream opened again');
    assert.ok(!JSON.stringify(listens.at(-1)).includes('test://greeting'), JSON.stringify(listens.at(-1)));
  } finally {
    await page.close();
    offering.stop();
  }
});
