// The app against a 2026-07-28 (stateless) server built on the PyPI `mcp` 2.x SDK, on
// 127.0.0.1: the era is detected, a tool's questions arrive as one MRTR round
// (`input_required`) and are answered in the UI, progress and log messages are shown, and a
// changed tool list is listed again.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { accessibilityViolationsInBothSchemes, anotherConnection, launch, serveDir, startPeer, waitFor, screenshotPath } from './browser.mjs';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');
let browser, site, server, page;

before(async () => {
  process.env.MANY_TOOLS = '0';
  site = await serveDir(dist);
  server = await startPeer('many_tools.sh');
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on('pageerror', (e) => { throw e; });
  await page.goto(`${site.url}/?url=${encodeURIComponent(server.url)}`);
  await page.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 30_000 });
});
after(async () => {
  await browser?.close();
  server?.stop();
  await site?.close();
});

async function openTool(name) {
  await page.locator(`button.tool[data-tool="${name}"]`).click();
  await page.locator('.runner .tool-name', { hasText: name }).waitFor();
}

test('detects the modern era', async () => {
  assert.match(await page.locator('.server-head').innerText(), /Modern era · 2026-07-28/);
});

test('icons the server gives itself, its tools, resources, templates and prompts are shown, the one made for the page\'s colours where it made one for each; a remote one is not loaded', async () => {
  // As tests/peers/modern_server.py gives them (1-pixel PNGs).
  const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nG';
  const forLight = `${png}NgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC`;
  const forDark = `${png}P4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC`;
  const forAny = `${png}PgTroGAAG/AUTLTgWiAAAAAElFTkSuQmCC`;
  /** The sources of the icons drawn inside `scope` (not hidden by the stylesheet). */
  const drawn = (scope) => scope.locator('img.icon').evaluateAll((imgs) =>
    imgs.filter((i) => getComputedStyle(i).display !== 'none' && i.complete && i.naturalWidth === 1).map((i) => i.getAttribute('src')));
  const serverName = page.locator('h2.server-name');
  try {
    for (const [system, chosen, want] of [
      ['light', 'system', forLight],
      ['dark', 'system', forDark],
      // The colours chosen in the app win over the system's.
      ['dark', 'light', forLight],
      ['light', 'dark', forDark],
    ]) {
      await page.emulateMedia({ colorScheme: system });
      await page.locator('#theme').selectOption(chosen);
      await waitFor(async () => JSON.stringify(await drawn(serverName)) === JSON.stringify([want]), 5_000,
        `the server's icon for ${chosen === 'system' ? `the system's ${system}` : chosen} colours`);
    }
  } finally {
    await page.locator('#theme').selectOption('system');
    await page.emulateMedia({ colorScheme: null });
  }
  assert.match(await serverName.innerText(), /modern-test-server/);
  assert.deepEqual(await drawn(page.locator('button.tool[data-tool="echo"]')), [forAny]);
  assert.equal(await page.locator('button.tool[data-tool="where"] img').count(), 0, 'an icon from elsewhere is not loaded');
  await page.locator('#tab-resources').click();
  const greeting = page.locator('button.read-resource[data-uri="test://greeting"]');
  await greeting.waitFor({ timeout: 10_000 });
  await waitFor(async () => JSON.stringify(await drawn(greeting)) === JSON.stringify([forAny]), 5_000, 'the resource\'s icon');
  const template = page.locator('form.template', { has: page.locator('.uri', { hasText: 'test://items/{item_id}' }) });
  await template.waitFor({ timeout: 10_000 });
  assert.deepEqual(await drawn(template.locator('h4')), [forAny]);
  await page.locator('#tab-prompts').click();
  const greet = page.locator('button.prompt[data-prompt="greet"]');
  await greet.waitFor({ timeout: 10_000 });
  await waitFor(async () => JSON.stringify(await drawn(greet)) === JSON.stringify([forAny]), 5_000, 'the prompt\'s icon');
  assert.equal(await greet.innerText(), 'greet');
  await page.locator('#tab-tools').click();
});

test('pings a 2026-07-28 server with server/discover (the era has no ping)', async () => {
  await page.locator('#tab-settings').click();
  await page.locator('button.ping-server').click();
  await page.locator('.ping-status', { hasText: /^The server answered server\/discover in \d+ ms\.$/ }).waitFor({ timeout: 10_000 });
  await page.locator('#tab-tools').click();
});

test('answers a tool\'s elicitation and sampling questions (one MRTR round) in the page', async () => {
  await openTool('interview');
  await page.locator('button.run').click();
  const form = page.locator('form.ask.elicitation');
  await form.waitFor({ timeout: 10_000 });
  assert.match(await form.innerText(), /Who are you\?/);
  await form.locator('#arg-name').fill('Ada');
  await form.locator('button.accept').click();
  const sampling = page.locator('.ask.sampling');
  await sampling.waitFor({ timeout: 10_000 });
  assert.match(await sampling.innerText(), /Capital of France\?/);
  await sampling.locator('textarea').fill('Paris');
  await sampling.locator('button.approve').click();
  const result = page.locator('.runner .result');
  await result.waitFor({ timeout: 10_000 });
  const text = await result.innerText();
  assert.match(text, /name=.*Ada/);
  assert.match(text, /capital=.*Paris/);
});

test('answers a sampling request that offers tools with a tool call, then in words once its result is back', async () => {
  await openTool('weather');
  await page.locator('button.run').click();
  const first = page.locator('.ask.sampling');
  await first.waitFor({ timeout: 10_000 });
  const asked = await first.innerText();
  assert.match(asked, /What is the weather in Paris\?/);
  assert.match(asked, /Tools the model may call\s+get_weather/);
  const calls = first.locator('.sampling-tool-calls');
  assert.match(await calls.locator('legend').innerText(), /optional/);
  // The tool's input form is made from its schema: the required city is asked for.
  await calls.locator('button.add-tool-call').click();
  await calls.locator('.field-error').first().waitFor();
  assert.equal(await calls.locator('li.tool-call').count(), 0);
  const city = calls.locator('[id$="-arg-city"]');
  await city.fill('Paris');
  await calls.locator('button.add-tool-call').click();
  await city.fill('London');
  await calls.locator('button.add-tool-call').click();
  await calls.locator('li.tool-call').nth(1).waitFor();
  assert.match(await calls.locator('li.tool-call').nth(0).innerText(), /get_weather\s+\{"city":"Paris"\}/);
  // A call added by mistake is taken out again.
  await calls.locator('li.tool-call', { hasText: 'London' }).locator('button.remove-tool-call').click();
  await waitFor(async () => (await calls.locator('li.tool-call').count()) === 1, 5_000, 'the London call removed');
  assert.deepEqual(await accessibilityViolationsInBothSchemes(page, 'a sampling request with tool calls', '.ask.sampling'), []);
  await first.locator('button.approve').click();
  // The second round: the call and its result are in the conversation, and the tool may
  // no longer be called.
  const second = page.locator('.ask.sampling', { hasText: 'Weather in Paris: 18°C' });
  await second.waitFor({ timeout: 10_000 });
  const conversation = await second.innerText();
  assert.match(conversation, /calls tool get_weather with \{"city":"Paris"\}/);
  assert.match(conversation, /Tool choice\s+none/);
  assert.equal(await second.locator('.sampling-tool-calls').count(), 0);
  await second.locator('textarea.sampling-reply').fill('Mild in Paris.');
  await second.locator('button.approve').click();
  await page.locator('.runner .result', { hasText: 'answer: Mild in Paris. (after tool calls for Paris)' }).waitFor({ timeout: 10_000 });
});

test('a sampling reply\'s tool calls, and the call being filled in, are kept while another server is chosen', async () => {
  await openTool('weather');
  await page.locator('button.run').click();
  const ask = page.locator('.ask.sampling');
  await ask.waitFor({ timeout: 10_000 });
  const calls = ask.locator('.sampling-tool-calls');
  const city = calls.locator('[id$="-arg-city"]');
  await city.fill('Paris');
  await calls.locator('button.add-tool-call').click();
  await calls.locator('li.tool-call').first().waitFor();
  // The next call, being filled in (not added yet).
  await city.fill('Rome');
  // Another server is opened and shown, then this one again: its view is built again.
  const other = await anotherConnection(page, server.url);
  assert.equal(await ask.count(), 0);
  await other.showFirst();
  await ask.waitFor({ timeout: 10_000 });
  assert.equal(await calls.locator('li.tool-call').count(), 1);
  assert.match(await calls.locator('li.tool-call').nth(0).innerText(), /get_weather\s+\{"city":"Paris"\}/);
  assert.equal(await city.inputValue(), 'Rome');
  // The call added now gets an id of its own (the count of calls added is kept too).
  await calls.locator('button.add-tool-call').click();
  await calls.locator('li.tool-call').nth(1).waitFor();
  const ids = await calls.locator('li.tool-call').evaluateAll((ls) => ls.map((l) => l.dataset.id));
  assert.equal(new Set(ids).size, 2, JSON.stringify(ids));
  await ask.locator('button.approve').click();
  const second = page.locator('.ask.sampling', { hasText: 'Weather in Rome' });
  await second.waitFor({ timeout: 10_000 });
  await second.locator('textarea.sampling-reply').fill('Fine.');
  await second.locator('button.approve').click();
  await page.locator('.runner .result', { hasText: 'answer: Fine. (after tool calls for Paris,Rome)' }).waitFor({ timeout: 10_000 });
  await other.close();
});

test('a reply without a tool call is not sent where the server requires one', async () => {
  await openTool('weather');
  await page.locator('#arg-choice').fill('required');
  await page.locator('button.run').click();
  const ask = page.locator('.ask.sampling');
  await ask.waitFor({ timeout: 10_000 });
  assert.match(await ask.locator('.sampling-tool-calls legend').innerText(), /requires at least one/);
  await ask.locator('textarea.sampling-reply').fill('No tools for me.');
  await ask.locator('button.approve').click();
  await ask.locator('.sampling-problem', { hasText: 'at least one tool call' }).waitFor({ timeout: 5_000 });
  // Nothing went out: the question is still open and the call still runs.
  assert.equal(await ask.count(), 1);
  assert.equal(await page.locator('.runner .result').count(), 0);
  await ask.locator('[id$="-arg-city"]').fill('London');
  await ask.locator('button.add-tool-call').click();
  // The refusal goes with the call added.
  await waitFor(async () => (await ask.locator('.sampling-problem').count()) === 0, 5_000, 'the refusal gone');
  await ask.locator('button.approve').click();
  const second = page.locator('.ask.sampling', { hasText: 'Weather in London: 15°C' });
  await second.waitFor({ timeout: 10_000 });
  await second.locator('textarea.sampling-reply').fill('Rainy.');
  await second.locator('button.approve').click();
  await page.locator('.runner .result', { hasText: 'answer: Rainy. (after tool calls for London)' }).waitFor({ timeout: 10_000 });
});

test('a sampling result typed as JSON goes as typed, once it is a JSON object', async () => {
  await openTool('weather');
  await page.locator('#arg-choice').fill('auto');
  await page.locator('button.run').click();
  const ask = page.locator('.ask.sampling');
  await ask.waitFor({ timeout: 10_000 });
  await ask.locator('textarea.sampling-reply').fill('Sunny.');
  await ask.locator('input.sampling-typed-toggle').check();
  // It starts from the answer the dialog held.
  const typed = ask.locator('textarea.sampling-typed');
  assert.deepEqual(JSON.parse(await typed.inputValue()).content, { type: 'text', text: 'Sunny.' });
  assert.equal(await ask.locator('textarea.sampling-reply').isVisible(), false);
  await typed.fill('{"role": "assistant", "content": ');
  await ask.locator('button.approve').click();
  await ask.locator('.sampling-problem', { hasText: 'as a JSON object (a CreateMessageResult: role, content, model): this is not valid JSON (EOF while parsing a value at line 1 column 33)' }).waitFor({ timeout: 5_000 });
  assert.equal(await page.locator('.runner .result').count(), 0, 'nothing sent');
  await typed.fill(JSON.stringify({ role: 'assistant', model: 'typed', stopReason: 'maxTokens', content: { type: 'text', text: 'Cut sh' } }));
  await ask.locator('button.approve').click();
  await page.locator('.runner .result', { hasText: 'answer: Cut sh (no tool calls; stopReason maxTokens)' }).waitFor({ timeout: 10_000 });
});

test('an elicitation\'s content typed as JSON goes as typed, once it is a JSON object', async () => {
  await openTool('interview');
  await page.locator('button.run').click();
  const form = page.locator('form.ask.elicitation');
  await form.waitFor({ timeout: 10_000 });
  await form.locator('#arg-name').fill('Ada');
  await form.locator('input.elicitation-typed-toggle').check();
  const typed = form.locator('textarea.elicitation-typed');
  // It starts from what the form held.
  assert.deepEqual(JSON.parse(await typed.inputValue()), { name: 'Ada' });
  await typed.fill('{"name": ');
  await form.locator('button.accept').click();
  await form.locator('.field-error', { hasText: 'as a JSON object: this is not valid JSON (EOF while parsing a value at line 1 column 9)' }).waitFor({ timeout: 5_000 });
  // Not checked against the schema: a field it does not have goes too.
  await typed.fill('{"name": "Typed Ada", "unasked": 1}');
  await form.locator('button.accept').click();
  const sampling = page.locator('.ask.sampling');
  await sampling.waitFor({ timeout: 10_000 });
  await sampling.locator('textarea.sampling-reply').fill('Paris');
  await sampling.locator('button.approve').click();
  const result = page.locator('.runner .result', { hasText: 'Typed Ada' });
  await result.waitFor({ timeout: 10_000 });
  assert.match(await result.innerText(), /unasked/);
});

test('shows progress while a tool counts', async () => {
  await openTool('count');
  await page.locator('#arg-steps').fill('5');
  await page.locator('button.run').click();
  await page.locator('.runner .result', { hasText: 'counted to 5' }).waitFor({ timeout: 10_000 });
  assert.match(await page.locator('.runner .progress').innerText(), /5 \/ 5 step 5/);
});

test('lists the tools again when the server says they changed', async () => {
  assert.equal(await page.locator('button.tool[data-tool="added-later"]').count(), 0);
  // `retool` adds a tool and announces the change (on the subscriptions/listen stream).
  await openTool('retool');
  await page.locator('button.run').click();
  await page.locator('.runner .result', { hasText: 'announced' }).waitFor({ timeout: 10_000 });
  await page.locator('button.tool[data-tool="added-later"]').waitFor({ timeout: 10_000 });
  // The runner and its result stay (the chosen tool did not change).
  assert.equal(await page.locator('.runner .result', { hasText: 'announced' }).count(), 1);
});

test('lists prompts and resources again while their tab is open when the server says they changed', async () => {
  const cases = [
    ['prompt', '#tab-prompts', 'button.prompt[data-prompt="greet"]', 'button.prompt[data-prompt="added-later"]'],
    ['resource', '#tab-resources', 'button.read-resource[data-uri="test://greeting"]', 'button.read-resource[data-uri="test://added-later"]'],
  ];
  for (const [what, tab, present, added] of cases) {
    await page.locator('#tab-tools').click();
    // The server changes the list a few seconds later, while the tab is open.
    await openTool('change_later');
    await page.locator('#arg-what').fill(what);
    await page.locator('#arg-seconds').fill('3');
    await page.locator('button.run').click();
    await page.locator('.runner .result', { hasText: 'scheduled' }).waitFor({ timeout: 10_000 });
    await page.locator(tab).click();
    await page.locator(present).waitFor({ timeout: 10_000 });
    assert.equal(await page.locator(added).count(), 0, `${what}: not there before the change`);
    await page.locator(added).waitFor({ timeout: 15_000 });
  }
  await page.locator('#tab-tools').click();
});

test('a request typed in the logs tab is asked of the server even while a fresh answer is kept', async () => {
  await page.locator('#tab-logs').click();
  const sent = () => page.locator('ol.wire li', { hasText: '"method":"tools/list"' }).count();
  const before = await sent();
  assert.ok(before >= 1, 'the tools were listed on connecting');
  const box = page.locator('section.send-request');
  await box.locator('#raw-method').fill('tools/list');
  await box.locator('button.send-raw').click();
  const answer = box.locator('pre.raw-answer');
  await answer.waitFor({ timeout: 10_000 });
  assert.ok(JSON.parse(await answer.innerText()).tools.length > 0);
  await waitFor(async () => (await sent()) > before, 5_000, 'a tools/list on the wire');
  await page.locator('#tab-tools').click();
});

test('a list the server said is still fresh (ttlMs) is not asked for again when its tab reopens, and the log says so', async () => {
  const greet = page.locator('button.prompt[data-prompt="greet"]');
  await page.locator('#tab-prompts').click();
  await greet.waitFor({ timeout: 10_000 });
  await page.locator('#tab-tools').click();
  await page.locator('#tab-prompts').click();
  await greet.waitFor({ timeout: 10_000 });
  await page.locator('#tab-logs').click();
  await page.locator('.logs .notifications li', { hasText: /^prompts\/list: answered from the cache, no request sent \(the server said it stays fresh for \d+ s more\)$/ })
    .first().waitFor({ timeout: 10_000 });
  await page.locator('#tab-tools').click();
});

test('a list no longer fresh is shown as kept, and marked, when asking the server again fails; the log says so; asking again clears the mark', async () => {
  // The same server behind the fault-injecting proxy, in a page of its own.
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const proxy = await startPeer('fault_proxy.mjs', ['--', `${root}/tests/.venv-modern/bin/python`, `${root}/tests/peers/modern_server.py`]);
  const base = proxy.url.replace(/\/mcp$/, '');
  const own = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  try {
    await own.goto(`${site.url}/?url=${encodeURIComponent(proxy.url)}`);
    await own.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 30_000 });
    const template = own.locator('form.template .uri', { hasText: 'test://items/{item_id}' });
    await own.locator('#tab-resources').click();
    await template.waitFor({ timeout: 10_000 });
    const listedAt = Date.now();
    // The server keeps templates fresh for 3 s: the condition here is time itself.
    await own.waitForFunction((until) => Date.now() > until, listedAt + 3_200, { timeout: 10_000, polling: 100 });
    const fault = await fetch(`${base}/__fault`, { method: 'POST', body: JSON.stringify({ kind: 'status', method: 'resources/templates/list', status: 503, body: 'down for maintenance' }) });
    assert.equal(fault.ok, true);
    // The tab opens afresh: its templates are listed again, the server answers 503, and the
    // templates kept from before are shown.
    await own.locator('#tab-tools').click();
    await own.locator('#tab-resources').click();
    await template.waitFor({ timeout: 10_000 });
    const seen = await (await fetch(`${base}/__log`)).json();
    assert.equal(seen.filter((m) => m === 'resources/templates/list').length, 2, `asked again once stale: ${JSON.stringify(seen)}`);
    // The tab and the list say they are not up to date, and why.
    const notice = own.locator('.stale-notice');
    await notice.waitFor({ timeout: 10_000 });
    assert.match(await notice.innerText(), /^Not up to date: asking the server again for resources\/templates\/list failed \(the server answered HTTP 503: down for maintenance\)\. Shown is its answer from \d+ s earlier\./);
    assert.equal(await own.locator('#tab-resources .stale-mark').count(), 1);
    assert.equal(await own.locator('#tab-tools .stale-mark').count(), 0);
    assert.deepEqual(await accessibilityViolationsInBothSchemes(own, 'a list not up to date'), []);
    await own.screenshot({ path: screenshotPath('stale-list.png') });
    await own.locator('#tab-logs').click();
    await own.locator('.logs .notifications li', { hasText: /^resources\/templates\/list: the server could not be asked again \(the server answered HTTP 503: down for maintenance\); showing the answer received \d+ s ago$/ })
      .first().waitFor({ timeout: 10_000 });
    // The tab keeps its mark while another is open. Opened again, it lists again: the
    // server fails once more, and the mark stays.
    assert.equal(await own.locator('#tab-resources .stale-mark').count(), 1);
    const again = await fetch(`${base}/__fault`, { method: 'POST', body: JSON.stringify({ kind: 'status', method: 'resources/templates/list', status: 503, body: 'still down' }) });
    assert.equal(again.ok, true);
    await own.locator('#tab-resources').click();
    await own.locator('.stale-notice', { hasText: 'still down' }).waitFor({ timeout: 10_000 });
    // Asking again, the server answers (each fault was for one request): the mark goes.
    await own.locator('.stale-notice button.ask-again').click();
    // Its answer is in the wire log (the first listing's and this one's: the 503s carried no
    // message), and the list is marked no more.
    await own.locator('#tab-logs').click();
    const answers = own.locator('.logs .wire li', { hasText: 'resourceTemplates' });
    await waitFor(async () => (await answers.count()) >= 2, 10_000, 'the answer to asking again');
    const after = await (await fetch(`${base}/__log`)).json();
    assert.equal(after.filter((m) => m === 'resources/templates/list').length, 4, `asked a fourth time: ${JSON.stringify(after)}`);
    assert.equal(await own.locator('#tab-resources .stale-mark').count(), 0);
    await own.locator('#tab-resources').click();
    await template.waitFor({ timeout: 10_000 });
    assert.equal(await notice.count(), 0);
  } finally {
    await own.close();
    proxy.stop();
  }
});

/** A page of its own connected to the 2026-07-28 server behind the fault-injecting proxy,
 * which holds chosen requests unanswered (`hold`) until released (`release`) and logs what it
 * saw (`count`), including "closed METHOD" when the client closed a held request (a 2026-07-28
 * request's cancellation) and "answered METHOD" when a released one was answered. `crashes`
 * collects the page's panics and uncaught errors; `close` ends both. */
async function heldProxyPage() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const proxy = await startPeer('fault_proxy.mjs', ['--', `${root}/tests/.venv-modern/bin/python`, `${root}/tests/peers/modern_server.py`]);
  const base = proxy.url.replace(/\/mcp$/, '');
  const own = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const crashes = [];
  own.on('pageerror', (e) => crashes.push(String(e)));
  own.on('console', (m) => { if (m.type() === 'error' && /panicked/.test(m.text())) crashes.push(m.text()); });
  const close = async () => { await own.close(); proxy.stop(); };
  try {
    await own.goto(`${site.url}/?url=${encodeURIComponent(proxy.url)}`);
    await own.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 30_000 });
  } catch (e) {
    await close();
    throw e;
  }
  return {
    own,
    crashes,
    close,
    hold: async (method) => {
      const r = await fetch(`${base}/__fault`, { method: 'POST', body: JSON.stringify({ kind: 'hold', method }) });
      assert.equal(r.ok, true);
    },
    release: async () => (await (await fetch(`${base}/__release`, { method: 'POST' })).json()).released,
    count: async (entry) => (await (await fetch(`${base}/__log`)).json()).filter((m) => m === entry).length,
  };
}

/** Gets the `greet` prompt for `name` and waits for its message. */
async function greet(own, name) {
  await own.locator('#tab-prompts').click();
  await own.locator('button.prompt[data-prompt="greet"]').click();
  await own.locator('#prompt-arg-name').fill(name);
  await own.locator('button.get-prompt').click();
  await own.locator('.prompt-messages', { hasText: `Please greet ${name}.` }).waitFor({ timeout: 10_000 });
}

test('reading a resource or getting a prompt shows that it is under way and can be cancelled; a newer one, or leaving the tab, cancels one still under way on the wire', async () => {
  const { own, crashes, close, hold, count } = await heldProxyPage();
  const holdNextRead = () => hold('resources/read');
  const holdNextPrompt = () => hold('prompts/get');
  try {
    await own.locator('#tab-resources').click();
    const greeting = own.locator('button.read-resource[data-uri="test://greeting"]');
    await greeting.waitFor({ timeout: 10_000 });
    const reading = own.locator('.resources .reading');

    // A read the server does not answer: shown as under way; another resource clicked meanwhile
    // is shown, and the first read's request is closed.
    await holdNextRead();
    await greeting.click();
    await own.locator('.resources .reading', { hasText: 'Reading test://greeting…' }).waitFor({ timeout: 10_000 });
    await waitFor(async () => (await count('resources/read')) === 1, 10_000, 'the held read to reach the server');
    await own.locator('button.read-resource[data-uri="test://static/1"]').click();
    await own.locator('.resource-contents .resource-text', { hasText: 'static resource 1' }).waitFor({ timeout: 10_000 });
    assert.equal(await reading.count(), 0);
    await waitFor(async () => (await count('closed resources/read')) === 1, 10_000, 'the replaced read to be closed');

    // Cancel: the read ends as cancelled, its request closed.
    await holdNextRead();
    await greeting.click();
    await reading.waitFor({ timeout: 10_000 });
    await waitFor(async () => (await count('resources/read')) === 3, 10_000, 'the second held read to reach the server');
    await own.locator('.resources .reading button.cancel').click();
    await own.locator('.resources .call-error', { hasText: 'cancelled' }).waitFor({ timeout: 10_000 });
    assert.equal(await reading.count(), 0);
    await waitFor(async () => (await count('closed resources/read')) === 2, 10_000, 'the cancelled read to be closed');

    // Leaving the tab while a read is under way: nobody is left to show it to, so it is
    // cancelled (and its end, after the panel is gone, breaks nothing).
    await holdNextRead();
    await greeting.click();
    await waitFor(async () => (await count('resources/read')) === 4, 10_000, 'the third held read to reach the server');
    await own.locator('#tab-tools').click();
    await waitFor(async () => (await count('closed resources/read')) === 3, 10_000, 'the read under way to be closed when its tab was left');
    await own.locator('#tab-resources').click();
    await greeting.waitFor({ timeout: 10_000 });

    // Nothing held: the same read is answered and shown.
    await greeting.click();
    await own.locator('.resource-contents .resource-text', { hasText: 'hello from the modern server' }).waitFor({ timeout: 10_000 });
    assert.equal(await own.locator('.resources .call-error').count(), 0);

    // A prompt the server does not answer: cancelled; asked again with another argument while
    // a held one is under way, the newer answer is shown and the held request closed.
    await own.locator('#tab-prompts').click();
    await own.locator('button.prompt[data-prompt="greet"]').click();
    await own.locator('#prompt-arg-name').fill('Ada');
    await holdNextPrompt();
    await own.locator('button.get-prompt').click();
    await own.locator('.prompt-runner .reading', { hasText: 'Getting the prompt…' }).waitFor({ timeout: 10_000 });
    await waitFor(async () => (await count('prompts/get')) === 1, 10_000, 'the held prompt request to reach the server');
    await own.locator('.prompt-runner button.cancel').click();
    await own.locator('.prompt-runner .call-error', { hasText: 'cancelled' }).waitFor({ timeout: 10_000 });
    await waitFor(async () => (await count('closed prompts/get')) === 1, 10_000, 'the cancelled prompt request to be closed');
    await holdNextPrompt();
    await own.locator('button.get-prompt').click();
    await waitFor(async () => (await count('prompts/get')) === 2, 10_000, 'the second held prompt request to reach the server');
    await own.locator('#prompt-arg-name').fill('Grace');
    await own.locator('button.get-prompt').click();
    await own.locator('.prompt-messages', { hasText: 'Please greet Grace.' }).waitFor({ timeout: 10_000 });
    assert.equal(await own.locator('.prompt-runner .reading').count(), 0);
    assert.equal(await own.locator('.prompt-runner .call-error').count(), 0);
    await waitFor(async () => (await count('closed prompts/get')) === 2, 10_000, 'the replaced prompt request to be closed');
    // The tab left while a prompt request is under way: that one is cancelled.
    await holdNextPrompt();
    await own.locator('button.get-prompt').click();
    await waitFor(async () => (await count('prompts/get')) === 4, 10_000, 'the third held prompt request to reach the server');
    await own.locator('#tab-tools').click();
    await waitFor(async () => (await count('closed prompts/get')) === 3, 10_000, 'the prompt request under way to be closed when its tab was left');
    // The app is still whole: the prompt asked for again is answered.
    await greet(own, 'Lin');
    assert.deepEqual(crashes, []);
  } finally {
    await close();
  }
});

test('a list answered after its tab was left, or a completion answered after its input went, breaks nothing', async () => {
  // The first prompts/list and a completion are held until the tab that asked is gone, then
  // answered.
  const { own, crashes, close, hold, release, count } = await heldProxyPage();
  try {
    // The prompts tab asks for its list; the tab is left before the answer comes.
    await hold('prompts/list');
    await own.locator('#tab-prompts').click();
    await waitFor(async () => (await count('prompts/list')) === 1, 10_000, 'the held prompts/list to reach the server');
    await own.locator('#tab-tools').click();
    assert.equal(await release(), 1);
    await waitFor(async () => (await count('answered prompts/list')) === 1, 10_000, 'the held prompts/list to be answered');
    // The answer reached the app (its wire log shows it), with nobody left to show it to.
    await own.locator('#tab-logs').click();
    await own.locator('.logs .wire li', { hasText: /"prompts":\[/ }).first().waitFor({ timeout: 10_000 });

    // A completion asked for while typing; the tab is left before its answer comes.
    await own.locator('#tab-prompts').click();
    await own.locator('button.prompt[data-prompt="greet"]').click();
    await hold('completion/complete');
    await own.locator('#prompt-arg-name').pressSequentially('A');
    await waitFor(async () => (await count('completion/complete')) === 1, 10_000, 'the held completion to reach the server');
    await own.locator('#tab-tools').click();
    assert.equal(await release(), 1);
    await waitFor(async () => (await count('answered completion/complete')) === 1, 10_000, 'the held completion to be answered');
    await own.locator('#tab-logs').click();
    await own.locator('.logs .wire li', { hasText: /"completion":\{/ }).first().waitFor({ timeout: 10_000 });

    // The app is whole: the prompt is listed and answered.
    await greet(own, 'Ada');
    assert.deepEqual(crashes, []);
  } finally {
    await close();
  }
});

test('a tool built from pydantic models gets real form fields, and its result is checked against its output schema', async () => {
  // Both schemas use $defs/$ref, optional (anyOf with null) fields, an enum and patterns.
  await openTool('ship');
  const runner = page.locator('.runner');
  await runner.locator('fieldset.object legend', { hasText: 'to' }).waitFor();
  // Strings are boxes that grow with their lines.
  assert.equal(await runner.locator('#arg-to-city').evaluate((e) => e.localName), 'textarea');
  assert.equal(await runner.locator('#arg-to-zip').evaluate((e) => e.localName), 'textarea');
  // Their limits, from the models' fields, said before anything is typed.
  assert.equal(await runner.locator('.field:has(#arg-to-city) .limits').innerText(), 'at least 1 character');
  assert.equal(await runner.locator('.field:has(#arg-to-zip) .limits').innerText(), 'matching ^[0-9]{5}$');
  assert.equal(await runner.locator('#arg-speed').inputValue(), 'fast');
  assert.equal(await runner.locator('#arg-weight').getAttribute('type'), 'number');
  await runner.locator('#arg-to-city').fill('Paris');
  // The arguments are checked against the input schema (its pattern run in the page) first.
  await runner.locator('#arg-to-zip').fill('7500');
  await page.locator('button.run').click();
  await runner.locator('.field-error', { hasText: 'does not match the pattern ^[0-9]{5}$' }).waitFor({ timeout: 10_000 });
  assert.equal(await runner.locator('.result').count(), 0, 'nothing was sent');
  await runner.locator('#arg-to-zip').fill('75001');
  await runner.locator('#arg-speed').selectOption('slow');
  await page.locator('button.run').click();
  const result = runner.locator('.result');
  await result.waitFor({ timeout: 10_000 });
  assert.match(await result.locator('pre.structured').innerText(), /"tracking": "TR-5"/);
  // The tracking number's pattern and the zip code's ran in the browser's RegExp.
  assert.match(await result.locator('.verdict').innerText(), /matches the tool's output schema/);
  assert.equal(await result.locator('.verdict.valid').count(), 1);
});

test('custom headers and a bearer token typed in the connect form reach the server with every request; a token pasted with its scheme is sent once with it', async () => {
  const own = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  own.on('pageerror', (e) => { throw e; });
  await own.goto(site.url);
  await own.locator('#server-url').fill(server.url);
  await own.locator('summary', { hasText: 'Headers and token' }).click();
  await own.locator('#headers').fill('X-Trace: abc-123\nno colon here');
  // As copied with the whole header value, spaces around it.
  await own.locator('#bearer').fill('  Bearer tok-456  ');
  await own.locator('#connect').click();
  await own.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 30_000 });
  // The server's `header` tool says what a request header held.
  await own.locator('button.tool[data-tool="header"]').click();
  const result = own.locator('.runner .result pre.content');
  const asked = async (name, want) => {
    await own.locator('.runner #arg-name').fill(name);
    await own.locator('button.run').click();
    await own.locator('.runner .result pre.content', { hasText: want }).waitFor({ timeout: 10_000 });
    return result.innerText();
  };
  assert.equal(await asked('authorization', 'tok-456'), 'Bearer tok-456');
  assert.equal(await asked('x-trace', 'abc-123'), 'abc-123');
  // The address follows the server: a reload connects to it again as from the saved list,
  // with the headers saved with it (the token typed in its own box is not kept).
  await waitFor(async () => own.url() === `${site.url}/?url=${encodeURIComponent(server.url)}`, 5_000, `the server's address, not ${own.url()}`);
  await own.reload();
  await own.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 30_000 });
  await own.locator('button.tool[data-tool="header"]').click();
  assert.equal(await asked('x-trace', 'abc-123'), 'abc-123');
  assert.equal(await asked('authorization', 'None'), 'None');
  await own.close();
});

test('a date-time argument is picked in the person\'s time zone and sent with its offset', async () => {
  // A browser in India (+05:30 all year): the wall-clock time picked there is the instant sent.
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, timezoneId: 'Asia/Kolkata' });
  const own = await context.newPage();
  own.on('pageerror', (e) => { throw e; });
  await own.goto(`${site.url}/?url=${encodeURIComponent(server.url)}&tool=remind`);
  const runner = own.locator('.runner');
  const at = runner.locator('#arg-at');
  await at.waitFor({ timeout: 30_000 });
  assert.equal(await at.getAttribute('type'), 'datetime-local');
  await at.fill('2026-12-03T10:30');
  await runner.locator('.sent-as', { hasText: 'Sent as 2026-12-03T10:30:00+05:30' }).waitFor();
  await own.locator('button.run').click();
  await runner.locator('.result', { hasText: '2026-12-03T05:00:00+00:00 (offset 5:30:00)' }).waitFor({ timeout: 10_000 });
  // Emptied, nothing is sent for it (the argument is required: the form says so).
  await at.fill('');
  assert.equal(await runner.locator('.sent-as').count(), 0);
  await own.locator('button.run').click();
  await runner.locator('.field-error', { hasText: 'required' }).waitFor({ timeout: 10_000 });
  await context.close();
});

test('entries typed for a call\'s _meta reach the server (W3C trace context); the client\'s own keys are refused before sending', async () => {
  await openTool('trace');
  const runner = page.locator('.runner');
  await runner.locator('details.call-meta summary').click();
  await runner.locator('#call-meta').fill('{"progressToken": 7}');
  await page.locator('button.run').click();
  await runner.locator('.field-error', { hasText: 'set by the client itself' }).waitFor({ timeout: 5_000 });
  assert.equal(await runner.locator('.result').count(), 0, 'nothing was sent');
  const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
  await runner.locator('#call-meta').fill(JSON.stringify({ traceparent, baggage: 'team=ui' }));
  await page.locator('button.run').click();
  await runner.locator('.result', { hasText: `traceparent=${traceparent}` }).waitFor({ timeout: 10_000 });
  assert.match(await runner.locator('.result').innerText(), /tracestate=None baggage=team=ui/);
  assert.equal(await runner.locator('.field-error').count(), 0);
  // "Run again" in the history makes the call through this form: with what is typed there now.
  const next = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
  await runner.locator('#call-meta').fill(JSON.stringify({ traceparent: next }));
  await page.locator('.history-list li', { hasText: 'trace' }).first().locator('button.rerun').click();
  await runner.locator('.result', { hasText: `traceparent=${next}` }).waitFor({ timeout: 10_000 });
  assert.match(await runner.locator('.result').innerText(), /tracestate=None baggage=None/);
});

test('a 20 MB result: its beginning at once, the whole on demand and as a file; the wire log keeps 1 MB of it', async () => {
  await openTool('big');
  await page.locator('#arg-megabytes').fill('20');
  await page.locator('button.run').click();
  const result = page.locator('.runner .result');
  await result.locator('.cut', { hasText: 'Showing the first 256 KB of 20.0 MB.' }).waitFor({ timeout: 60_000 });
  const text = result.locator('pre.content.text');
  assert.equal(await text.evaluate((e) => e.textContent.length), 256 * 1024);
  const [download] = await Promise.all([page.waitForEvent('download'), result.locator('button.download-text').click()]);
  assert.equal(fs.statSync(await download.path()).size, 20 << 20);
  await result.locator('button.show-all').click();
  await result.locator('.cut', { hasText: 'All 20.0 MB shown.' }).waitFor({ timeout: 60_000 });
  assert.equal(await text.evaluate((e) => e.textContent.length), 20 << 20);

  await page.locator('#tab-logs').click();
  const line = page.locator('ol.wire li', { hasText: 'only the first 1.0 MB of 20.0 MB is kept' });
  await line.waitFor({ timeout: 20_000 });
  // The line shows the message's first 4 KB; the kept megabyte is behind "whole message".
  const start = await line.locator(':scope > code').evaluate((e) => e.textContent.length);
  assert.ok(start <= 4096 + 2, `${start} characters in the line`);
  assert.match(await line.locator('details.whole summary').innerText(), /whole message \(20\.0 MB\)/);
  const [wire] = await Promise.all([page.waitForEvent('download'), page.locator('button.export').click()]);
  const cut = fs.readFileSync(await wire.path(), 'utf8').split('\n').map((l) => JSON.parse(l)).find((l) => l.messageBytes);
  assert.ok(cut, 'the cut message is in the export');
  assert.ok(cut.messageBytes > 20 << 20, `${cut.messageBytes} bytes`);
  assert.equal(cut.messageStart.length, 1 << 20);
  assert.equal(cut.direction, 'received');
  await page.locator('#tab-tools').click();
});

test('a return visit connects from the kept server/discover result and asks nothing before listing tools; if the server is gone by then, the page says why', async () => {
  // The server marks its discover result public and fresh for an hour (2026-07-28 "Caching").
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const proxy = await startPeer('fault_proxy.mjs', ['--', `${root}/tests/.venv-modern/bin/python`, `${root}/tests/peers/modern_server.py`]);
  const base = proxy.url.replace(/\/mcp$/, '');
  const own = await browser.newPage({ viewport: { width: 1200, height: 900 } }); // storage of its own
  const crashes = [];
  own.on('pageerror', (e) => crashes.push(String(e)));
  const seen = async () => (await (await fetch(`${base}/__log`)).json());
  const echo = own.locator('button.tool[data-tool="echo"]');
  const kept = () => own.evaluate(() => JSON.parse(localStorage.getItem('mcp-browser-client.discover') || '{}'));
  let stopped = false;
  try {
    await own.goto(`${site.url}/?url=${encodeURIComponent(proxy.url)}`);
    await echo.waitFor({ timeout: 30_000 });
    const first = await seen();
    assert.equal(first.filter((m) => m === 'server/discover').length, 1, JSON.stringify(first));
    assert.equal((await kept())[proxy.url]?.result?.cacheScope, 'public');

    await own.reload();
    await echo.waitFor({ timeout: 30_000 });
    assert.match(await own.locator('.server-head').innerText(), /modern-test-server[\s\S]*Modern era · 2026-07-28/);
    const second = (await seen()).slice(first.length);
    assert.ok(second.includes('tools/list'), JSON.stringify(second));
    assert.ok(!second.includes('server/discover'), `no probe on the return visit: ${JSON.stringify(second)}`);

    // The server is gone: the kept result connects, the first request finds nobody, the client
    // probes, fails, and the page says why; the kept result is forgotten.
    proxy.stop();
    stopped = true;
    const gone = async () => { try { await fetch(`${base}/__log`); return false; } catch { return true; } };
    await waitFor(gone, 10_000, 'the server to be gone');
    await own.reload();
    await own.locator('#connection-state', { hasText: 'error' }).waitFor({ timeout: 30_000 });
    const alert = own.locator('p.doctor[role="alert"]');
    await alert.waitFor({ timeout: 10_000 });
    assert.match(await alert.innerText(), /reach|Network problem|Failed to fetch/i);
    assert.equal((await kept())[proxy.url], undefined);
    assert.deepEqual(crashes, []);
  } finally {
    await own.close();
    if (!stopped) proxy.stop();
  }
});

test('pointed at a website, the app says what its error page says, in words, not its markup', async () => {
  // Python's web server serves the app and is asked for MCP at its own address (a person
  // taking the page's address for the server's): it refuses the POST with its HTML error page.
  const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');
  const web = await startPeer('static_site.sh', [dist], '/');
  const own = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  try {
    const url = `${web.url}mcp`;
    await own.goto(`${web.url}?url=${encodeURIComponent(url)}`);
    await own.locator('#connection-state', { hasText: 'error' }).waitFor({ timeout: 30_000 });
    const doctor = await own.locator('.server .doctor').innerText();
    assert.match(doctor, /^The server failed \(HTTP 501\): Error response Error code: 501 Message: Unsupported method \('POST'\)\./, doctor);
    assert.ok(!/[<>]|&#/.test(doctor), `markup in: ${doctor}`);
  } finally {
    await own.close();
    web.stop();
  }
});

test('a connection that failed can be made again from where it failed', async () => {
  // The server behind the fault-injecting proxy, which answers the era probe
  // (`server/discover`) and then `initialize` 503, in a fresh page (nothing remembered of
  // this server).
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const proxy = await startPeer('fault_proxy.mjs', ['--', `${root}/tests/.venv-modern/bin/python`, `${root}/tests/peers/modern_server.py`]);
  const base = proxy.url.replace(/\/mcp$/, '');
  const own = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  try {
    for (const method of ['server/discover', 'initialize']) {
      const fault = await fetch(`${base}/__fault`, { method: 'POST', body: JSON.stringify({ kind: 'status', method, status: 503, body: 'down for maintenance' }) });
      assert.equal(fault.ok, true);
    }
    await own.goto(`${site.url}/?url=${encodeURIComponent(proxy.url)}`);
    await own.locator('#connection-state', { hasText: 'error' }).waitFor({ timeout: 30_000 });
    assert.match(await own.locator('.server .doctor').innerText(), /503/);
    await own.locator('button.connect-again').click();
    await own.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 30_000 });
    assert.equal(await own.locator('button.connect-again').count(), 0);
    assert.equal(await own.locator('.server .doctor').count(), 0);
    assert.match(await own.locator('.server-head').innerText(), /Modern era · 2026-07-28/);
    await own.locator('button.tool').first().waitFor({ timeout: 10_000 });
    assert.equal(await own.locator('.connections .connection').count(), 1, 'the same connection, no new tab');
  } finally {
    await own.close();
    proxy.stop();
  }
});

test('a first visit asks for the tool list alongside the era probe, and shows it once the probe says the era is the one it was asked in', async () => {
  // The server's answer to the probe (`server/discover`) is held back by the proxy: the
  // tool list reaches the server meanwhile, in the modern era (the real server answers it),
  // and the page shows it only once the probe is answered, without asking again.
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const proxy = await startPeer('fault_proxy.mjs', ['--', `${root}/tests/.venv-modern/bin/python`, `${root}/tests/peers/modern_server.py`]);
  const base = proxy.url.replace(/\/mcp$/, '');
  const own = await browser.newPage({ viewport: { width: 1200, height: 900 } }); // nothing remembered
  const crashes = [];
  own.on('pageerror', (e) => crashes.push(String(e)));
  const seen = async () => (await (await fetch(`${base}/__log`)).json());
  try {
    const hold = await fetch(`${base}/__fault`, { method: 'POST', body: JSON.stringify({ kind: 'hold', method: 'server/discover' }) });
    assert.equal(hold.ok, true);
    await own.goto(`${site.url}/?url=${encodeURIComponent(proxy.url)}`);
    await waitFor(async () => (await seen()).includes('tools/list'), 20_000, 'the tool list asked for before the probe is answered');
    const before = await seen();
    assert.ok(before.includes('server/discover') && !before.includes('answered server/discover'), JSON.stringify(before));
    assert.equal(await own.locator('#connection-state').innerText(), 'connecting');
    assert.equal(await own.locator('button.tool').count(), 0, 'no tool shown before the era is known');
    assert.equal((await fetch(`${base}/__release`, { method: 'POST' })).ok, true);
    await own.locator('button.tool[data-tool="echo"]').waitFor({ timeout: 20_000 });
    assert.match(await own.locator('.server-head').innerText(), /Modern era · 2026-07-28/);
    const after = await seen();
    assert.equal(after.filter((m) => m === 'tools/list').length, 1, `asked once: ${JSON.stringify(after)}`);
    assert.equal(after.filter((m) => m === 'server/discover').length, 1, JSON.stringify(after));
    assert.ok(!after.includes('initialize'), JSON.stringify(after));
    assert.deepEqual(crashes, []);
  } finally {
    await own.close();
    proxy.stop();
  }
});
