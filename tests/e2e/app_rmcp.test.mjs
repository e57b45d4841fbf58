// The app against a server built on the official Rust SDK (crates.io `rmcp`), on 127.0.0.1:
// a third implementation of both eras beside the TypeScript and Python ones. Once as it
// comes (it speaks 2026-07-28: no session, its question as an MRTR round, its list changes on
// subscriptions/listen) and once offering only the legacy eras (a session, its question as a
// request of its own on the call's stream, its list changes on the session's GET stream).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appSiteAndBrowser, startPeer, waitFor } from './browser.mjs';

const shared = appSiteAndBrowser();

/** A page of the app connected to a fresh Rust SDK server (`args` for tests/peers/rmcp.sh);
 * resolves to { page, server, close }. */
async function connected(args) {
  const server = await startPeer('rmcp.sh', args);
  const context = await shared.browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  await page.goto(`${shared.site.url}/?url=${encodeURIComponent(server.url)}`);
  await page.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
  return {
    page,
    server,
    close: async () => {
      await context.close();
      server.stop();
      assert.deepEqual(errors, []);
    },
  };
}

/** Runs tool `name` in `page` with the fields `args` ({ id: value }) filled in; resolves to
 * the locator of its result (the caller waits there for what it expects). */
async function run(page, name, args = {}) {
  await page.locator('#tab-tools').click();
  await page.locator(`button.tool[data-tool="${name}"]`).click();
  await page.locator('.runner .tool-name', { hasText: name }).waitFor();
  for (const [id, value] of Object.entries(args)) await page.locator(`.runner #arg-${id}`).fill(value);
  await page.locator('button.run').click();
  return page.locator('.runner .result');
}

/** Answers the server's question for a name in `page` with `name`. */
async function answerName(page, name) {
  const form = page.locator('form.ask.elicitation');
  await form.waitFor({ timeout: 10_000 });
  assert.match(await form.innerText(), /What is your name\?/);
  await form.locator('#arg-name').fill(name);
  await form.locator('button.accept').click();
}

for (const [era, args, head] of [
  ['2026-07-28', [], /Modern era · 2026-07-28/],
  ['legacy', ['legacy'], /Legacy era · 2025-11-25/],
]) {
  test(`a Rust SDK server (${era}): its tools, resource and prompt listed and used, progress shown, its question answered, its list changes followed`, async () => {
    const { page, server, close } = await connected(args);
    try {
      assert.match(await page.locator('.server-head').innerText(), head);
      assert.match(await page.locator('.server-head').innerText(), /rmcp-test-server 0\.1\.0/);
      // "connected" comes before the tools are listed.
      const tools = () => page.locator('button.tool').evaluateAll((bs) => bs.map((b) => b.dataset.tool));
      await waitFor(async () => (await tools()).length > 0, 10_000, 'the tools listed');
      assert.deepEqual(await tools(), ['add', 'count', 'echo', 'fail', 'greet']);

      const echo = await run(page, 'echo', { message: 'hé <b>x</b>' });
      await echo.locator('text=rmcp echo: hé <b>x</b>').waitFor({ timeout: 10_000 });
      // Its schemas carry formats JSON Schema leaves to the application ("double"): a
      // number with a fraction goes through as a number.
      const sum = await run(page, 'add', { a: '2.5', b: '4' });
      await sum.locator('text=6.5').waitFor({ timeout: 10_000 });
      // Progress arrives on the call's own stream, then the result.
      const count = await run(page, 'count', { steps: '5' });
      await count.locator('text=counted to 5').waitFor({ timeout: 10_000 });
      assert.match(await page.locator('.runner').innerText(), /5 \/ 5\s+step 5 of 5/);
      // A tool's own error is shown as one, with its words.
      const failed = await run(page, 'fail');
      await failed.locator('text=this tool always fails').waitFor({ timeout: 10_000 });
      assert.match(await failed.innerText(), /The tool reported an error/);

      const greeting = await run(page, 'greet');
      await answerName(page, 'Ada');
      await greeting.locator('text=Hello, Ada!').waitFor({ timeout: 10_000 });

      await page.locator('#tab-resources').click();
      await page.locator('button.read-resource[data-uri="memo://greeting"]').click();
      await page.locator('.resource-view .resource-contents', { hasText: 'Hello from the Rust SDK' }).waitFor({ timeout: 10_000 });

      await page.locator('#tab-prompts').click();
      await page.locator('button.prompt[data-prompt="haiku"]').click();
      await page.locator('#prompt-arg-topic').fill('rust');
      await page.locator('button.get-prompt').click();
      await page.locator('.prompt-messages', { hasText: 'Write a haiku about rust.' }).waitFor({ timeout: 10_000 });

      // The server changes its prompt list and says so (2026-07-28: on the
      // subscriptions/listen stream; legacy: on the session's GET stream): listed again while
      // the list is in view, nothing done in the page.
      const prompts = () => page.locator('button.prompt').evaluateAll((bs) => bs.map((b) => b.dataset.prompt));
      assert.deepEqual(await prompts(), ['haiku']);
      const toggled = await fetch(new URL('/toggle', server.url), { method: 'POST' });
      assert.equal(await toggled.text(), 'limerick listed');
      await waitFor(async () => (await prompts()).length === 2, 10_000, 'the second prompt listed');
      assert.deepEqual(await prompts(), ['haiku', 'limerick']);
      await page.locator('button.prompt[data-prompt="limerick"]').click();
      await page.locator('#prompt-arg-topic').fill('crabs');
      await page.locator('button.get-prompt').click();
      await page.locator('.prompt-messages', { hasText: 'Write a limerick about crabs.' }).waitFor({ timeout: 10_000 });
    } finally {
      await close();
    }
  });
}
