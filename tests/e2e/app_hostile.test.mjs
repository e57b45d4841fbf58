// A hostile server (markup, script and javascript: links in every string it controls) is shown
// as plain text, and nothing it sends runs in the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { accessibilityViolationsInBothSchemes, drawn, launch, serveDir, startPeer, waitFor, viewFrame, SHOWN_VIEW } from './browser.mjs';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');
let browser, site, hostile, page;

before(async () => {
  site = await serveDir(dist);
  hostile = await startPeer('hostile.sh');
  browser = await launch();
  page = await browser.newPage();
  page.on('dialog', (d) => { throw new Error(`a dialog opened: ${d.message()}`); });
  await page.goto(`${site.url}/?url=${encodeURIComponent(hostile.url)}`);
  await page.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
});
after(async () => {
  await browser?.close();
  hostile?.stop();
  await site?.close();
});

async function assertNothingRan() {
  assert.equal(await page.evaluate(() => window.__pwned), undefined, 'server script ran');
  assert.equal(await page.locator('main img[src="x"], main script, main i, main b').count(), 0, 'server markup became elements');
  assert.equal(await page.locator('a[href^="javascript:" i]').count(), 0, 'a javascript: link was rendered');
}

test('server name, instructions and tool names are text', async () => {
  assert.match(await page.locator('.server-head').innerText(), /<b>hostile<\/b><img src=x/);
  assert.match(await page.locator('.connection-tab').innerText(), /^<b>hostile<\/b><img src=x/);
  await page.locator('.instructions summary').click();
  assert.match(await page.locator('.instructions pre').innerText(), /<script>window.__pwned=1<\/script>/);
  // What it declared: its description is text, and its javascript: website no link.
  await page.locator('.server-about > summary').click();
  assert.match(await page.locator('.server-about dl').innerText(), /Description\s+<img src=x onerror=/);
  await page.locator('.server-about .declared-raw summary').click();
  const declared = JSON.parse(await page.locator('.server-about pre.declared-json').innerText());
  assert.equal(declared.serverInfo.websiteUrl, 'javascript:window.__pwned=1');
  assert.equal(await page.locator('.server-about a').count(), 0);
  const tool = page.locator('button.tool').first();
  assert.equal(await tool.getAttribute('data-tool'), 'evil-<i>tool</i>');
  await assertNothingRan();
});

/** Whether the letters `word` in the text of `el` (the last text node holding it) are drawn
 * left to right: its first letter left of its last. Runs in the page. */
function drawnLeftToRight(el, word) {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let text = null;
  while (walker.nextNode()) if (walker.currentNode.data.includes(word)) text = walker.currentNode;
  const at = text.data.lastIndexOf(word);
  const range = document.createRange();
  const left = (i) => { range.setStart(text, i); range.setEnd(text, i + 1); return range.getBoundingClientRect().left; };
  return { first: left(at), last: left(at + word.length - 1) };
}

test('a right-to-left override in a server\'s text does not turn the app\'s own text after it around', async () => {
  // Two tool titles: one with an override, one with isolate closers before it that close
  // nothing (they would close the isolate around the title and let the override out).
  for (const [name, shown] of [['bidi', 'abc\u202edef'], ['bidi-escape', 'abc\u202edef']]) {
    const tool = page.locator(`button.tool[data-tool="${name}"]`);
    assert.equal(await tool.locator('.name').textContent(), shown, `${name}: the title is shown as sent (less closers that close nothing)`);
    const hint = tool.locator('.hint').first();
    assert.equal(await hint.textContent(), 'read-only');
    const { first, last } = await hint.evaluate(drawnLeftToRight, 'read-only');
    assert.ok(first < last, `${name}: "read-only" is drawn right to left (its r at ${first}, its y at ${last})`);
    // And after the title, where the app put it (not between its letters).
    const box = await tool.locator('.name').boundingBox();
    const titleEnds = box.x + box.width;
    const hintStarts = (await hint.boundingBox()).x;
    assert.ok(hintStarts >= titleEnds, `${name}: "read-only" is drawn inside the title (at ${hintStarts}; the title ends at ${titleEnds})`);
  }
  // The server's name ends with one too, after closers: the connection's state after it, in
  // the same button, reads left to right as well.
  const state = await page.locator('.connection-tab').first().evaluate(drawnLeftToRight, 'connected');
  assert.ok(state.first < state.last, `"connected" is drawn right to left (its c at ${state.first}, its d at ${state.last})`);
  // A required argument's title, with closers and an override: the star the app puts after
  // it stays after it (right of the title's letters).
  await page.locator('button.tool[data-tool="bidi"]').click();
  const label = page.locator('.runner label[for$="word"]');
  await label.waitFor();
  assert.equal(await label.textContent(), 'abc\u202edef *');
  const [star, title] = await label.evaluate((el) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    const rect = (node, i) => { range.setStart(node, i); range.setEnd(node, i + 1); return range.getBoundingClientRect(); };
    const nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    const starNode = nodes.find((n) => n.data.includes('*'));
    const titleNode = nodes.find((n) => n.data.includes('def'));
    const letters = [...titleNode.data].map((_, i) => rect(titleNode, i)).filter((r) => r.width > 0);
    return [rect(starNode, starNode.data.indexOf('*')).left, Math.max(...letters.map((r) => r.right))];
  });
  assert.ok(star >= title, `the star of a required argument is drawn inside its title (at ${star}; the title ends at ${title})`);
  // The wire log shows the tool list as it came, one line per message: there the controls
  // are written as JSON escapes, so they turn nothing around and can be seen.
  await page.locator('#tab-logs').click();
  const listed = page.locator('ol.wire li:not(.sent) code', { hasText: '"name":"bidi-escape"' }).first();
  await listed.waitFor({ state: 'attached', timeout: 5_000 });
  const wire = await listed.textContent();
  assert.match(wire, /"title":"abc\\u2069\\u2069\\u2069\\u202edef"/);
  assert.doesNotMatch(wire, /[\u2066-\u2069\u202a-\u202e]/, 'a bidi control is shown as it is');
  await page.locator('#tab-tools').click();
});

/** Any bidi formatting character (marks, embeddings, overrides, isolates). */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

test('JSON views show a bidi control inside a string as its escape; "as sent" shows the text as it came', async () => {
  await runTool('bidi-escape');
  const runner = page.locator('.runner[aria-label="Run bidi-escape"]');
  const text = runner.locator('.result pre.content.text');
  await text.waitFor({ timeout: 10_000 });
  // The tool's text is JSON: indented, with the override as \u202e (the same JSON).
  assert.match(await text.textContent(), /"title": "abc\\u202edef",\n\s+"n": 1/);
  const pres = await runner.locator('.result pre').all();
  assert.ok(pres.length >= 1);
  for (const pre of pres) assert.doesNotMatch(await pre.textContent(), BIDI_CONTROL, 'a JSON view shows a bidi control as it is');
  await runner.locator('.result .json-text .as-sent input').check();
  await waitFor(async () => (await text.textContent()) === '{"title": "abc\u202edef", "n": 1}', 5_000, 'the text as sent, its override unchanged');
  // The tool's definition as listed: its title's controls as escapes.
  await runner.locator('.tool-definition > summary').click();
  const definition = await runner.locator('pre.tool-json').textContent();
  assert.match(definition, /"title": "abc\\u2069\\u2069\\u2069\\u202edef"/);
  assert.doesNotMatch(definition, BIDI_CONTROL);
});

test('a JSON-RPC error message with an override does not turn the client\'s words after it around', async () => {
  await runTool('bidi-error');
  const error = page.locator('.runner[aria-label="Run bidi-error"] .call-error');
  await error.waitFor({ timeout: 10_000 });
  const text = await error.textContent();
  // The server's message as one isolate, its closers that close nothing dropped; then the code.
  assert.ok(text.includes('\u2068abc\u202edef\u2069 (code -32000)'), JSON.stringify(text));
  const { first, last } = await error.evaluate(drawnLeftToRight, 'code');
  assert.ok(first < last, `"code" is drawn right to left (its c at ${first}, its e at ${last})`);
});

test('a property named with a dot and the same path through an object are two fields', async () => {
  await page.locator('button.tool[data-tool="dotted"]').click();
  const runner = page.locator('.runner[aria-label="Run dotted"]');
  // `to.city` at the top, and `city` inside the object `to`: an input each.
  const dotted = runner.locator('[id="arg-to.city"]');
  const nested = runner.locator('#arg-to-city');
  await nested.fill('Paris');
  await dotted.fill('L');
  assert.equal(await nested.inputValue(), 'Paris', 'typing in one field changed the other');
  // Too short: the error is shown at the field it belongs to, not at the other.
  await runner.locator('button.run').click();
  const dottedField = runner.locator('.field:has([id="arg-to.city"])');
  await dottedField.locator('.field-error').waitFor({ timeout: 5_000 });
  assert.match(await dottedField.locator('.field-error').textContent(), /too few characters/);
  assert.equal(await runner.locator('.field:has(#arg-to-city) .field-error').count(), 0);
  await dotted.fill('Lyon');
  await runner.locator('button.run').click();
  const text = runner.locator('.result pre.content.text');
  await text.waitFor({ timeout: 10_000 });
  // The server answers with what it was given (its JSON text, shown indented).
  assert.deepEqual(JSON.parse(await text.textContent()), { 'to.city': 'Lyon', to: { city: 'Paris' } });
});

test('tool descriptions and results are text; unsafe links and images are refused', async () => {
  await page.locator('button.tool').first().click();
  assert.match(await page.locator('.runner .description').innerText(), /onerror=/);
  await page.locator('button.run').click();
  await page.locator('.result').waitFor({ timeout: 10_000 });
  const text = await page.locator('.result').innerText();
  assert.match(text, /<img src=x onerror=/);
  assert.match(text, /javascript:window.__pwned=1/);
  assert.match(text, /image\/svg\+xml was not shown/);
  // Not shown, but offered as a file: saving it runs nothing.
  const [saved] = await Promise.all([page.waitForEvent('download'), page.locator('.result button.download-media').first().click()]);
  assert.equal(fs.readFileSync(await saved.path(), 'utf8'), '<svg onload="alert(1)"/>');
  // Reading the javascript: link asks the server for it (a URI is only a name there); what
  // comes back is shown as text too.
  const link = page.locator('.result .content.link').first();
  await link.locator('button.read-link').click();
  await link.locator('.call-error, .resource-contents').first().waitFor({ timeout: 10_000 });
  await assertNothingRan();
  // Hostile contents are still accessible content: refused images leave words, not holes.
  assert.deepEqual(await accessibilityViolationsInBothSchemes(page, 'a hostile result'), []);
});

test('resource and prompt texts are text', async () => {
  await page.locator('#tab-resources').click();
  await page.locator('button.read-resource').first().click();
  await page.locator('pre.resource-text').waitFor({ timeout: 10_000 });
  assert.match(await page.locator('pre.resource-text').innerText(), /<body onload=/);
  // The name heads the contents, as text.
  assert.match(await page.locator('.resource-view h3').innerText(), /<img/);
  await page.locator('#tab-prompts').click();
  // The description beside the prompt's name, as text.
  assert.match(await page.locator('.prompt-list .help').first().innerText(), /<img/);
  await page.locator('button.prompt').first().click();
  await page.locator('#prompt-arg-topic').fill('<u>topic</u>');
  await page.locator('button.get-prompt').click();
  await page.locator('.prompt-messages').waitFor({ timeout: 10_000 });
  assert.match(await page.locator('.prompt-messages').innerText(), /<script>.*<u>topic<\/u>/s);
  // The description the answer gives, and the answer as JSON, as text too.
  assert.match(await page.locator('.prompt-description').innerText(), /^<img src=x onerror=/);
  await page.locator('.prompt-runner .raw-result summary').click();
  assert.match(await page.locator('.prompt-runner pre.raw-json').innerText(), /"text": "<img src=x onerror=.*<u>topic<\/u>"/s);
  await assertNothingRan();
});

test('a resource\'s contents as JSON are the answer as it came, keys in the server\'s order', async () => {
  // The PyPI SDK writes keys sorted (`_meta` first); this client's types put a contents'
  // `_meta` last: a view that wrote the decoded answer out again would show another order.
  await page.locator('#tab-resources').click();
  await page.locator('button.read-resource[data-uri="ui://hostile/devices"]').click();
  const view = page.locator('.resource-view');
  await view.locator('.resource-contents .uri', { hasText: 'ui://hostile/devices' }).waitFor({ timeout: 10_000 });
  await view.locator('.raw-result summary').click();
  const shown = JSON.parse(await view.locator('pre.raw-json').innerText());
  await page.locator('#tab-logs').click();
  const line = page.locator('ol.wire li:not(.sent) code', { hasText: '"uri":"ui://hostile/devices"' }).filter({ hasText: '"contents"' }).last();
  await line.waitFor({ state: 'attached', timeout: 5_000 });
  const came = JSON.parse(await line.textContent()).result;
  assert.notDeepEqual(Object.keys(came.contents[0]), ['uri', 'mimeType', 'text', '_meta'], 'the test needs an order other than this client\'s types');
  assert.equal(JSON.stringify(shown), JSON.stringify(came));
  await page.locator('#tab-resources').click();
});

/** What a View that asks for a display mode at the person's gesture (WIDE_VIEW) has been told,
 * and where the page's focus is: said when the mode is not granted in time. */
async function gestureSeen(frame) {
  const told = await frame.locator('#report').innerText().catch((e) => `unread (${e.message})`);
  const asked = await frame.evaluate(() => JSON.stringify({ asked: window.asked, pointer: window.pointer })).catch((e) => `unread (${e.message})`);
  const focus = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120));
  return `told ${told}, it got ${asked}, focus on ${focus}`;
}

/** Opens the tool `name` in the tools tab and runs it. */
async function runTool(name) {
  await page.locator('#tab-tools').click();
  await page.locator(`button.tool[data-tool="${name}"]`).click();
  await page.locator('.runner .tool-name', { hasText: name }).waitFor();
  await page.locator('button.run').click();
}

test('output schemas: a pattern is tested in the page, and one that could freeze it is not run', async () => {
  const run = async (name) => {
    await runTool(name);
    const verdict = page.locator('.runner .result .verdict');
    await verdict.waitFor({ timeout: 10_000 });
    return verdict;
  };
  // Content that matches: each pattern is tested as itself (two in one schema).
  const matches = await run('matches');
  assert.equal(await matches.innerText(), "✓ matches the tool's output schema");
  const mismatch = await run('mismatch');
  assert.match(await mismatch.innerText(), /does not match .*\$\.code: does not match the pattern \^\[A-Z\]\{3\}\$/);
  // `^(a+)+$` against forty a's and a '!' would keep a backtracking engine busy for days.
  const redos = await run('redos');
  assert.match(await redos.innerText(), /not checked: the pattern \^\(a\+\)\+\$ could take exponential time/);
  assert.equal(await page.evaluate(() => 1 + 1), 2, 'the page still answers');
  await assertNothingRan();
});

test('a form value that breaks the input schema inside a list field is refused, and says so at that field', async () => {
  await page.locator('#tab-tools').click();
  await page.locator('button.tool[data-tool="tags"]').click();
  await page.locator('#arg-tags').fill('ab\nc');
  await page.locator('button.run').click();
  const error = page.locator('.runner .field:has(#arg-tags) .field-error');
  await error.waitFor({ timeout: 5_000 });
  assert.equal(await error.innerText(), '$.tags[1]: too few characters (1, at least 2)');
  assert.equal(await page.locator('.runner .result').count(), 0, 'the call was sent');
  // Mended, it runs.
  await page.locator('#arg-tags').fill('ab\ncd');
  await page.locator('button.run').click();
  await page.locator('.runner .result', { hasText: 'ab,cd' }).waitFor({ timeout: 10_000 });
  assert.equal(await error.count(), 0, 'the error stays after the call');
});

test('a JSON text nested 200,000 deep is shown as sent, not indented into gigabytes', async () => {
  await runTool('deep-json');
  const text = page.locator('.runner .result pre.content.text');
  await text.waitFor({ timeout: 20_000 });
  assert.match(await text.innerText(), /^\[{1000}/);
  assert.equal(await page.locator('.runner .result .json-text').count(), 0, 'not offered indented');
  assert.equal(await page.evaluate(() => 1 + 1), 2, 'the page still answers');
});

test('a page the server asks to be opened first (-32042) is text, and a javascript: one is no link', async () => {
  await runTool('needs-page');
  const required = page.locator('.runner .url-required');
  await required.waitFor({ timeout: 10_000 });
  assert.match(await required.innerText(), /<img src=x onerror=/);
  assert.equal(await required.locator('.full-url').innerText(), 'javascript:window.__pwned=1');
  assert.equal(await required.locator('a').count(), 0);
  assert.match(await required.locator('.refused').innerText(), /not an http\(s\) address/);
  await assertNothingRan();
});

test('a hostile MCP App is answered by the rules and stays in its sandbox', async () => {
  await runTool('hostile-app');
  const { handle, frame } = await viewFrame(page);
  const report = JSON.parse(await waitFor(async () => {
    const t = await frame.locator('#report').innerText();
    return t.startsWith('{') && t;
  }, 20_000, 'the View\'s report'));
  assert.equal(report.protocol, '2026-01-26');
  // A tool whose visibility leaves out "app" is refused without asking the server.
  assert.equal(report.hidden, -32600);
  assert.equal(report.link, 'refused');
  // At most 16 requests of a View at once: the others are refused, none is lost.
  assert.ok(report.floodRefused > 0, JSON.stringify(report));
  assert.equal(report.floodRefused + report.floodRead, 40);
  assert.equal(report.parent, 'refused');
  assert.equal(report.download, 'offered');
  assert.equal(report.notAFile, -32602);
  const said = page.locator('.mcp-app .app-said');
  // A file it offers is saved only when the person chooses to, its text shown as text.
  const offered = said.locator('li', { hasText: 'Offers to download:' });
  await offered.waitFor({ timeout: 5_000 });
  assert.equal(await offered.locator('.offered-file').innerText(), 'report.csv (text/csv, 21 bytes)');
  const [download] = await Promise.all([page.waitForEvent('download'), offered.locator('button.download-file').click()]);
  assert.equal(download.suggestedFilename(), 'report.csv');
  assert.equal(fs.readFileSync(await download.path(), 'utf8'), 'name,value\n<b>x</b>,1');
  await said.locator('li', { hasText: 'Was refused the tool model-only' }).waitFor({ timeout: 5_000 });
  // Its log is text, and its frame no taller than the bound however high it asks.
  await said.locator('li', { hasText: 'Log (error): <img src=x onerror="window.__pwned=1"><script>' }).waitFor({ timeout: 5_000 });
  assert.equal(await handle.evaluate((e) => e.style.height), '3000px');
  // A 100 KB log is shown cut, saying how much more there was.
  assert.match(await said.locator('li', { hasText: 'Log (info): long long' }).innerText(), / … \(95904 more bytes not shown\)$/);
  // A message of the page itself (not from the View's frame) is not taken for the View's:
  // posted before one from the View, it would be shown first.
  await page.evaluate(() => postMessage({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'forged by another window' } }, '*'));
  await frame.evaluate(() => parent.postMessage({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'from the View' } }, '*'));
  await said.locator('li', { hasText: 'from the View' }).waitFor({ timeout: 5_000 });
  assert.equal(await said.locator('li', { hasText: 'forged by another window' }).count(), 0);
  await page.locator('#tab-logs').click();
  await page.locator('ol.wire li.sent', { hasText: '"method":"resources/read"' }).first().waitFor({ timeout: 5_000 });
  assert.equal(await page.locator('ol.wire li.sent', { hasText: '"name":"model-only"' }).count(), 0);
  await assertNothingRan();
});

test('an MCP App is shown while its call is under way, told when it is cancelled, and asked to tear down when the tool is called again', async () => {
  await runTool('slow-app');
  const { handle, frame } = await viewFrame(page);
  const told = async () => JSON.parse(await frame.locator('#report').innerText());
  await waitFor(async () => (await told()).includes('ui/notifications/tool-input'), 10_000, 'the input told');
  assert.equal(await page.locator('.runner button.cancel').count(), 1, 'the call is still under way');
  await page.locator('.runner button.cancel').click();
  await waitFor(async () => (await told()).some((m) => m.startsWith('ui/notifications/tool-cancelled: ')), 10_000, 'the cancellation told');
  assert.equal((await told()).filter((m) => m === 'ui/notifications/tool-result').length, 0);
  // Called again: a new View; the first is hidden and asked to tear down, and goes as soon
  // as it answers (well before the 3 s it would otherwise be given).
  await page.locator('button.run').click();
  await waitFor(async () => (await told()).includes('ui/resource-teardown: the tool was called again'), 10_000, 'the teardown asked');
  assert.equal(await handle.evaluate((e) => e.isConnected && e.offsetParent === null), true, 'the first View kept, hidden, until it answers');
  await page.locator(`${SHOWN_VIEW} iframe.app-frame`).waitFor({ timeout: 10_000 });
  await frame.evaluate(() => answerTeardown());
  await waitFor(async () => !(await handle.evaluate((e) => e.isConnected)), 1_000, 'the first View gone once it answered');
  await page.locator('.runner button.cancel').click();
  // The second View asks to be closed (ui/notifications/request-teardown): it is, through the
  // same teardown.
  const second = await viewFrame(page);
  const toldSecond = async () => JSON.parse(await second.frame.locator('#report').innerText());
  await waitFor(async () => (await toldSecond()).some((m) => m.startsWith('ui/notifications/tool-cancelled')), 10_000, 'the second View told');
  await second.frame.evaluate(() => parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/request-teardown' }, '*'));
  await waitFor(async () => (await toldSecond()).includes('ui/resource-teardown: the app asked to be closed'), 10_000, 'the teardown asked');
  await second.frame.evaluate(() => answerTeardown());
  await waitFor(async () => !(await second.handle.evaluate((e) => e.isConnected)), 1_000, 'the second View gone once it answered');
  assert.equal(await page.locator('.mcp-app[aria-label="App of slow-app"]').count(), 0);
});

// The big View, kept for the next test (which chooses its tool again).
let bigView;

test('an MCP App too large for a data: URL (2.5 MB) is still shown, in the same sandbox', async () => {
  await runTool('big-app');
  bigView = await viewFrame(page);
  const { frame } = bigView;
  await waitFor(async () => (await frame.locator('#report').innerText()) === 'big view got: the big one', 20_000, 'the big View fed');
  assert.equal(await frame.evaluate(() => origin), 'null');
  assert.match(await frame.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]').content), /^default-src 'none'/);
});

test('an MCP App that can be shown full screen is, when it asks at the person\'s gesture, until the person leaves it', async () => {
  const sent = [];
  const onRequest = (r) => {
    try {
      const m = r.postDataJSON();
      if (m?.method === 'tools/call' && m.params?.name === 'wide-app') sent.push(m.id);
    } catch { /* not JSON */ }
  };
  page.on('request', onRequest);
  await runTool('wide-app');
  const { handle, frame } = await viewFrame(page);
  page.off('request', onRequest);
  // Told the JSON-RPC id its call went out with.
  await waitFor(async () => (await frame.evaluate(() => window.callId)) !== undefined, 10_000, 'the View initialized');
  assert.equal(sent.length, 1);
  assert.equal(await frame.evaluate(() => window.callId), sent[0]);
  const told = async () => JSON.parse(await frame.locator('#report').innerText());
  // Asked at once, with no gesture of the person: it stays inline.
  await waitFor(async () => (await told()).includes('answered inline'), 10_000, 'full screen refused');
  assert.equal(await page.locator('.mcp-app.fullscreen').count(), 0);
  // Told its container's dimensions as it was shown, inline.
  const dims = () => frame.evaluate(() => window.dims);
  const inline = { width: await handle.evaluate((e) => e.clientWidth), maxHeight: 3000 };
  assert.deepEqual(await dims(), [inline]);
  // Asked from a click in the View: granted.
  await frame.locator('#full').click();
  await waitFor(async () => (await told()).includes('answered fullscreen'), 10_000, 'full screen granted', () => gestureSeen(frame));
  assert.deepEqual(await told(), ['initial inline', 'answered inline', 'told fullscreen', 'answered fullscreen']);
  // Then told the size it has full screen.
  const frameSize = () => handle.evaluate((e) => ({ width: e.clientWidth, height: e.clientHeight }));
  await waitFor(async () => JSON.stringify((await dims()).at(-1)) === JSON.stringify(await frameSize()), 5_000, 'told the full-screen frame\'s size');
  assert.ok((await frameSize()).width > inline.width, 'wider than inline');
  const section = page.locator('.mcp-app.fullscreen');
  const box = await section.boundingBox();
  const viewport = page.viewportSize();
  assert.deepEqual([box.x, box.y, box.width, box.height], [0, 0, viewport.width, viewport.height]);
  await section.locator('button.exit-fullscreen').click();
  await waitFor(async () => (await told()).includes('told inline'), 5_000, 'told it is inline again');
  assert.equal(await page.locator('.mcp-app.fullscreen').count(), 0);
  // Another tab shown, then this one again: the same View, still running (not made again, so
  // nothing asked again), still inline.
  await page.locator('#tab-resources').click();
  assert.equal(await handle.evaluate((e) => e.isConnected), true);
  await page.locator('#tab-tools').click();
  assert.equal(await handle.evaluate((e) => e.isConnected), true);
  assert.deepEqual(await told(), ['initial inline', 'answered inline', 'told fullscreen', 'answered fullscreen', 'told inline']);
  assert.equal(await page.locator('.mcp-app.fullscreen').count(), 0);
  // Another tool chosen, one whose View was kept from its call (the test before): that View
  // is shown again as it was, the same document, and this one is hidden, still running.
  await page.locator('button.tool[data-tool="big-app"]').click();
  await page.locator('.runner .tool-name', { hasText: 'big-app' }).waitFor({ timeout: 5_000 });
  const { handle: big } = await viewFrame(page);
  assert.equal(await big.evaluate((e, kept) => e === kept, bigView.handle), true, 'the big View shown again, not made again');
  assert.equal(await bigView.frame.locator('#report').innerText(), 'big view got: the big one');
  assert.equal(await handle.evaluate((e) => e.isConnected && e.offsetParent === null), true, 'the wide View kept, hidden');
  // The tool list says which tools have their app open.
  assert.equal(await page.locator('button.tool[data-tool="wide-app"] .app-open').innerText(), 'open');
  assert.equal(await page.locator('button.tool[data-tool="deep-json"] .app-open').count(), 0);
  // Back to this tool: the same View, not asked anything again, still inline.
  await page.locator('button.tool[data-tool="wide-app"]').click();
  const { handle: again } = await viewFrame(page);
  assert.equal(await again.evaluate((e, kept) => e === kept, handle), true, 'the wide View shown again');
  assert.deepEqual(await told(), ['initial inline', 'answered inline', 'told fullscreen', 'answered fullscreen', 'told inline']);
  assert.equal(await bigView.handle.evaluate((e) => e.isConnected && e.offsetParent === null), true, 'the big View kept, hidden');
});

test('an MCP App can be shown in picture-in-picture, at the person\'s gesture: it stays in view while other tools are chosen, one View at a time', async () => {
  // The wide View of the test before, its tool chosen.
  const wide = await viewFrame(page);
  const told = async (frame) => JSON.parse(await frame.locator('#report').innerText());
  // Shown again just now (the test before): clicked once it is drawn again.
  await drawn(wide.frame);
  await wide.frame.locator('#pip').click();
  await waitFor(async () => (await told(wide.frame)).includes('answered pip'), 10_000, 'picture-in-picture granted', () => gestureSeen(wide.frame));
  assert.deepEqual((await told(wide.frame)).slice(-2), ['told pip', 'answered pip']);
  // Told its new width (the corner's), with the height it may take.
  const pipWidth = await wide.handle.evaluate((e) => e.clientWidth);
  await waitFor(async () => JSON.stringify(await wide.frame.evaluate(() => window.dims.at(-1))) === JSON.stringify({ width: pipWidth, maxHeight: 3000 }), 5_000, 'told the corner\'s width');
  assert.ok(pipWidth < (await wide.frame.evaluate(() => window.dims[0].width)), 'narrower than inline');
  // In the window's bottom right corner, whole.
  const pip = page.locator('.mcp-app.pip');
  const box = await pip.boundingBox();
  const viewport = page.viewportSize();
  assert.ok(box.x > viewport.width / 3 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height, JSON.stringify(box));
  // Another tool chosen: the View stays in view, the same document.
  await page.locator('button.tool[data-tool="deep-json"]').click();
  await page.locator('.runner .tool-name', { hasText: 'deep-json' }).waitFor({ timeout: 5_000 });
  assert.equal(await wide.handle.isVisible(), true);
  assert.equal(await pip.count(), 1);
  // And while another tab of the server is shown (the tools tab invisible but for it); "/"
  // goes to that tab's search box, not to the tools'.
  await page.locator('#tab-logs').click();
  assert.equal(await wide.handle.isVisible(), true);
  assert.equal(await page.locator('#tool-search').isVisible(), false);
  await page.keyboard.press('/');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'wire-filter');
  await page.locator('#tab-tools').click();
  // Another View goes into picture-in-picture: this one goes back inline (hidden, its tool
  // not chosen), and is told.
  await runTool('wide-app-too');
  const tooHandle = await page.locator('.mcp-app[aria-label="App of wide-app-too"] iframe.app-frame').elementHandle({ timeout: 20_000 });
  const too = await waitFor(() => tooHandle.contentFrame(), 10_000, 'the other View frame');
  await waitFor(async () => (await told(too)).includes('answered inline'), 10_000, 'the other View ready');
  await too.locator('#pip').click();
  await waitFor(async () => (await told(too)).includes('answered pip'), 10_000, 'the other View in picture-in-picture', () => gestureSeen(too));
  await waitFor(async () => (await told(wide.frame)).at(-1) === 'told inline', 5_000, 'the first View told it is inline');
  assert.equal(await wide.handle.isVisible(), false);
  assert.equal(await pip.count(), 1);
  // "Back inline": under its runner again, and told.
  // By the keyboard: the corner's View is anchored at the bottom, so its button moves when
  // the View changes its height.
  await pip.locator('button.exit-pip').press('Enter');
  await waitFor(async () => (await told(too)).at(-1) === 'told inline', 5_000, 'told it is inline');
  assert.equal(await pip.count(), 0);
  assert.equal(await tooHandle.isVisible(), true);
});

test('an MCP App shown full screen that asks for a model reply: "Go to it" brings it back inline, to the question', async () => {
  // The second wide View of the test before, its tool chosen, inline.
  const { frame } = await viewFrame(page);
  const told = async () => JSON.parse(await frame.locator('#report').innerText());
  // Moved back inline just now (the test before): clicked once it is drawn there.
  await drawn(frame);
  await frame.locator('#full').click();
  await waitFor(async () => (await told()).at(-1) === 'answered fullscreen', 10_000, 'full screen granted', () => gestureSeen(frame));
  await frame.evaluate(() => parent.postMessage({ jsonrpc: '2.0', id: 9, method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'Which way is up?' } }], maxTokens: 10 } }, '*'));
  // The question is shown above, behind the View; the View says so.
  const notice = page.locator('.mcp-app.fullscreen .app-asks');
  await notice.waitFor({ timeout: 10_000 });
  await notice.locator('button.show-question').press('Enter');
  await waitFor(async () => (await told()).at(-1) === 'told inline', 5_000, 'told it is inline');
  assert.equal(await page.locator('.mcp-app.fullscreen').count(), 0);
  assert.equal(await page.evaluate(() => document.activeElement.classList.contains('sampling-reply')), true);
  assert.match(await page.locator('.ask.sampling .messages').innerText(), /Which way is up\?/);
  await page.locator('.ask.sampling button.reject').click();
  await waitFor(async () => (await page.locator('.mcp-app .app-asks').count()) === 0, 5_000, 'the word gone with the question');
});

test('an MCP App that asks for a model reply offering tools gets the person\'s tool calls', async () => {
  // The same View, inline again after the test before.
  const { frame } = await viewFrame(page);
  await frame.evaluate(() => parent.postMessage({ jsonrpc: '2.0', id: 10, method: 'sampling/createMessage', params: {
    messages: [{ role: 'user', content: { type: 'text', text: 'Weather in Oslo?' } }], maxTokens: 50,
    tools: [{ name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }],
    toolChoice: { mode: 'required' } } }, '*'));
  const ask = page.locator('.ask.sampling', { hasText: 'Weather in Oslo?' });
  await ask.waitFor({ timeout: 10_000 });
  assert.match(await ask.locator('h3').innerText(), /^The app of .+ asks for a model reply$/);
  await ask.locator('[id$="-arg-city"]').fill('Oslo');
  await ask.locator('button.add-tool-call').press('Enter');
  await ask.locator('li.tool-call').waitFor();
  await ask.locator('button.approve').press('Enter');
  const answer = await waitFor(() => frame.evaluate(() => window.answers?.[10]), 10_000, 'the View answered');
  assert.equal(answer.result?.stopReason, 'toolUse', JSON.stringify(answer));
  assert.deepEqual(answer.result.content.map((c) => [c.type, c.name, c.input]), [['tool_use', 'get_weather', { city: 'Oslo' }]]);
  assert.match(answer.result.content[0].id, /^call_\d+_1$/);
});

test('an MCP App that asks for the location and the clipboard gets them only once the person allows it, asked once per View resource; never the camera', async () => {
  // The browser's own answers, for this page: yes to the location (at Paris) and to the
  // clipboard. What the View gets is then the app's doing alone.
  await page.context().grantPermissions(['geolocation', 'clipboard-read', 'clipboard-write'], { origin: site.url });
  await page.context().setGeolocation({ latitude: 48.85, longitude: 2.35 });
  const section = (name) => page.locator(`${SHOWN_VIEW}[aria-label="App of ${name}"]`);
  const got = (view, what) => waitFor(() => view.frame.evaluate((w) => window[w], what), 20_000, `the View's ${what}`);
  // Asked before the View is loaded: no frame yet. The camera and the microphone are not
  // asked about: the person is told why.
  await runTool('device-app');
  const asking = section('device-app').locator('.app-permissions');
  await asking.waitFor({ timeout: 20_000 });
  assert.match(await asking.innerText(), /The app asks to use your location and the clipboard \(to write to it\)\./);
  assert.match(await asking.locator('.app-cannot-have').innerText(), /no app shown here can have it: the camera and the microphone\./);
  assert.equal(await section('device-app').locator('iframe').count(), 0, 'loaded before the person answered');
  assert.deepEqual(await accessibilityViolationsInBothSchemes(page, 'an app asking for the location'), []);
  await asking.locator('button.allow-permissions').press('Enter');
  let view = await viewFrame(page);
  assert.equal(await view.handle.getAttribute('allow'), 'geolocation *; clipboard-write *');
  assert.equal(await view.frame.evaluate(() => origin), 'null', 'still sandboxed');
  assert.deepEqual(await got(view, 'granted'), { geolocation: {}, clipboardWrite: {} });
  assert.equal(await got(view, 'place'), 'ok 48.85');
  await view.frame.locator('#copy').click();
  assert.equal(await got(view, 'copied'), 'ok');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'from the View');
  assert.notEqual(await got(view, 'media'), 'ok');
  assert.match(await section('device-app').locator('.app-granted').innerText(), /Allowed to use your location and the clipboard/);
  // Called again: the answer holds, the new View is loaded at once.
  await page.locator('button.run').press('Enter');
  await waitFor(async () => (await page.locator('.mcp-app[aria-label="App of device-app"]').count()) === 1, 10_000, 'the View before gone');
  view = await viewFrame(page);
  assert.equal(await got(view, 'place'), 'ok 48.85');
  assert.equal(await section('device-app').locator('.app-permissions').count(), 0, 'asked again');
  // Another View resource asks on its own; shown without them, it cannot have them.
  await runTool('device-app-too');
  const asked = section('device-app-too').locator('.app-permissions');
  await asked.waitFor({ timeout: 20_000 });
  await asked.locator('button.deny-permissions').press('Enter');
  view = await viewFrame(page);
  assert.equal(await view.handle.getAttribute('allow'), null);
  assert.deepEqual(await got(view, 'granted'), {});
  assert.match(await got(view, 'place'), /^(none|error 1)$/);
  await view.frame.locator('#copy').click();
  assert.notEqual(await got(view, 'copied'), 'ok');
  assert.match(await section('device-app-too').locator('.app-granted').innerText(), /Asked to use your location and the clipboard \(to write to it\): not allowed/);
  await assertNothingRan();
});

test('an MCP App of a tool the server no longer lists is asked to tear down and goes', async () => {
  await runTool('vanishing-app');
  const { frame } = await viewFrame(page);
  const told = async () => JSON.parse(await frame.locator('#report').innerText());
  await waitFor(async () => (await told()).includes('ui/notifications/tool-result'), 20_000, 'the View fed');
  // Another tool makes the server drop it and say so: the list follows, and the View kept
  // (hidden, its tool no longer chosen) is asked to tear down, with the reason.
  await runTool('drop-vanishing-app');
  await page.locator('.runner .result', { hasText: 'vanishing-app is gone' }).waitFor({ timeout: 20_000 });
  await waitFor(async () => (await page.locator('button.tool[data-tool="vanishing-app"]').count()) === 0, 20_000, 'the tool list without it');
  await waitFor(async () => (await told()).includes('ui/resource-teardown: the server no longer lists the tool'), 10_000, 'the teardown asked');
  // Once it answers, it goes.
  await frame.evaluate(() => window.answerTeardown());
  await waitFor(async () => (await page.locator('.mcp-app[aria-label="App of vanishing-app"]').count()) === 0, 10_000, 'its View gone');
});

test('an MCP App is asked to tear down when another server is chosen or its connection is closed, and its server view waits for the answer', async () => {
  // A page of its own, with no other View kept.
  const p = await browser.newPage();
  try {
    await p.goto(`${site.url}/?url=${encodeURIComponent(hostile.url)}`);
    await p.locator('button.tool[data-tool="slow-app"]').click();
    await p.locator('button.run').click();
    const first = await viewFrame(p);
    const told = async (view) => JSON.parse(await view.frame.locator('#report').innerText());
    await waitFor(async () => (await told(first)).includes('ui/notifications/tool-input'), 10_000, 'the input told');
    await p.locator('.runner button.cancel').click();
    await waitFor(async () => (await told(first)).some((m) => m.startsWith('ui/notifications/tool-cancelled')), 10_000, 'the cancellation told');
    // Another server chosen (a second connection, to the same server): the View is asked to
    // tear down, and its server view is kept, hidden, until it answers.
    const shownState = p.locator('.server-slot:not([hidden]) #connection-state');
    await p.locator('#server-url').fill(hostile.url);
    await p.locator('#connect').click();
    await shownState.filter({ hasText: 'connected' }).waitFor({ timeout: 20_000 });
    await waitFor(async () => (await told(first)).includes('ui/resource-teardown: another server was chosen'), 10_000, 'the teardown asked');
    assert.equal(await first.handle.evaluate((e) => e.isConnected && e.offsetParent === null), true, 'kept, hidden, until it answers');
    assert.equal(await p.locator('.server-slot').count(), 2);
    await first.frame.evaluate(() => answerTeardown());
    await waitFor(async () => !(await first.handle.evaluate((e) => e.isConnected)), 1_000, 'the View gone once it answered');
    assert.equal(await p.locator('.server-slot').count(), 1, 'the server view left gone with it');
    // The first server chosen again: its tool's View is made again, told the call again.
    await p.locator('.connections .connection-tab').first().click();
    await p.locator('.runner .tool-name', { hasText: 'slow-app' }).waitFor({ timeout: 5_000 });
    const again = await viewFrame(p);
    await waitFor(async () => (await told(again)).some((m) => m.startsWith('ui/notifications/tool-cancelled')), 10_000, 'the View made again told the call');
    // Its connection closed: asked to tear down with that reason; the other connection is
    // shown meanwhile.
    await p.locator('.connections button.close-connection').first().click();
    await waitFor(async () => (await told(again)).includes('ui/resource-teardown: the connection was closed'), 10_000, 'the teardown asked');
    assert.equal(await p.locator('.connections .connection').count(), 1);
    await shownState.filter({ hasText: 'connected' }).waitFor({ timeout: 5_000 });
    assert.equal(await again.handle.evaluate((e) => e.isConnected && e.offsetParent === null), true, 'kept, hidden, until it answers');
    await again.frame.evaluate(() => answerTeardown());
    await waitFor(async () => !(await again.handle.evaluate((e) => e.isConnected)), 1_000, 'the View gone once it answered');
    assert.equal(await p.locator('.server-slot').count(), 1, 'the closed server view gone with it');
  } finally {
    await p.close();
  }
});

// Last: its endless loop goes on in the process that Chromium gives the page's sandboxed
// frames (it cannot be stopped from the page), so no View made after it would run.
test('an MCP App that floods the page with messages and then never stops running does not hold the page, and the app says why a View shown after it does not start', async () => {
  await runTool('flood-app');
  // Said above what the View said (which shows the newest 50 of the 200 a second taken).
  await page.locator('.mcp-app .said-flood', { hasText: 'Sends more than 200 messages a second: the others are ignored' }).waitFor({ timeout: 20_000 });
  await waitFor(async () => (await page.locator('.mcp-app .app-said li', { hasText: 'flood ' }).count()) === 50, 10_000, '50 of its messages listed');
  // Its endless loop runs in the frame's own process (Chromium isolates sandboxed frames):
  // the page still answers and works.
  assert.equal(await page.evaluate(() => 1 + 1), 2);
  // Another tool chosen: the View is kept, hidden, and still held to its budget.
  const { handle } = await viewFrame(page);
  await page.locator('button.tool[data-tool="deep-json"]').click();
  await page.locator('.runner .tool-name', { hasText: 'deep-json' }).waitFor({ timeout: 5_000 });
  assert.equal(await page.locator(SHOWN_VIEW).count(), 0, 'no View for a tool without one');
  assert.equal(await handle.evaluate((e) => e.isConnected && e.offsetParent === null), true, 'the View kept, hidden');
  assert.equal(await page.locator('.mcp-app .app-said li', { hasText: 'flood ' }).count(), 50);
  // Its tool chosen again, the person closes it. It never answers the teardown (its loop
  // never ends): it goes after the 3 s it is given.
  await page.locator('button.tool[data-tool="flood-app"]').click();
  await page.locator(`${SHOWN_VIEW} button.close-app`).click();
  await waitFor(async () => !(await handle.evaluate((e) => e.isConnected)), 6_000, 'the View gone');
  assert.equal(await page.evaluate(() => 1 + 1), 2);
  assert.equal(await page.locator('button.tool[data-tool="flood-app"] .app-open').count(), 0, 'its app no longer marked open');
  // Its loop goes on in the process the page's Views share: a View shown after it never
  // starts, and the app says why.
  await runTool('wide-app-too');
  const silent = page.locator(`${SHOWN_VIEW} .app-silent`);
  await silent.waitFor({ timeout: 15_000 });
  assert.match(await silent.innerText(), /^The app has said nothing to this client in the 8 s since it was shown\. .*one that never stops running holds the others until the page is loaded again\.$/);
});


test('a page address or form naming a URL no MCP transport uses ends in an error at once, runs nothing and is not saved', async () => {
  const context = await browser.newContext();
  try {
    const fresh = await context.newPage();
    fresh.on('dialog', (d) => { throw new Error(`a dialog opened: ${d.message()}`); });
    for (const url of ['javascript:window.__pwned=1', 'ftp://127.0.0.1/mcp', 'data:text/html,<b>x</b>']) {
      await fresh.goto(`${site.url}/?url=${encodeURIComponent(url)}`);
      // Its state says so (it read "connecting" for good), with the reason and no way to
      // connect again that would fail alike.
      await fresh.locator('#connection-state', { hasText: 'error' }).waitFor({ timeout: 10_000 });
      assert.match(await fresh.locator('.server .doctor').innerText(), /is not an MCP server URL: it must start with http:\/\/, https:\/\/, ws:\/\/ or wss:\/\//);
      assert.match(await fresh.locator('.connection-tab').innerText(), /· error/);
      assert.equal(await fresh.locator('.connect-again').count(), 0);
      assert.equal(await fresh.locator('details.saved > summary').innerText(), 'Saved servers (0)');
      assert.equal(await fresh.evaluate(() => localStorage.getItem('mcp-browser-client.servers')), null, url);
      assert.equal(await fresh.evaluate(() => window.__pwned), undefined);
    }
    // Typed into the form (a valid URL to the browser's own check) likewise.
    await fresh.locator('#server-url').fill('javascript:window.__pwned=2');
    await fresh.locator('#connect').click();
    await waitFor(async () => (await fresh.locator('.connection-tab').count()) === 2, 10_000, 'a second connection tab');
    await fresh.locator('#connection-state', { hasText: 'error' }).waitFor({ timeout: 10_000 });
    assert.equal(await fresh.locator('details.saved > summary').innerText(), 'Saved servers (0)');
    // A server that is one is saved as it connects (the same page, the same rule).
    await fresh.locator('#server-url').fill(hostile.url);
    await fresh.locator('#connect').click();
    await fresh.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
    assert.equal(await fresh.locator('details.saved > summary').innerText(), 'Saved servers (1)');
    assert.equal(await fresh.evaluate(() => window.__pwned), undefined);
  } finally {
    await context.close();
  }
});
