// The app, driven like a person would in headless Chromium, against the real npm
// server-everything on 127.0.0.1 (the app is served from another origin: CORS is real).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { anotherConnection, launch, leaveWithCallUnderWay, serveDir, startPeer, waitFor, screenshotPath } from './browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, '../../dist');
let browser, site, everything, context, page;

before(async () => {
  site = await serveDir(dist);
  everything = await startPeer('everything.sh', ['streamableHttp']);
  browser = await launch();
  // Clipboard permissions so that a test can read back what "Copy" put there.
  context = await browser.newContext({ viewport: { width: 1200, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
  page = await context.newPage();
  page.on('pageerror', (e) => { throw e; });
  await page.goto(`${site.url}/?url=${encodeURIComponent(everything.url)}`);
  await page.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
  await page.locator('button.tool[data-tool="echo"]').waitFor({ timeout: 10_000 });
});
after(async () => {
  await browser?.close();
  everything?.stop();
  await site?.close();
});

async function openTool(name) {
  await page.locator('#tool-search').fill('');
  await page.locator(`button.tool[data-tool="${name}"]`).click();
  await page.locator('.runner .tool-name', { hasText: name }).waitFor();
}

test('connects from the deep link and shows the server', async () => {
  const head = await page.locator('.server-head').innerText();
  assert.match(head, /connected/);
  assert.match(head, /Legacy era · 2025-11-25 · Streamable HTTP/);
  // The connection's tab names the server once it said its name; the URL is its tooltip.
  const tab = page.locator('.connection-tab');
  assert.equal(await tab.innerText(), 'Everything Reference Server · connected');
  // So does the page's title (what the browser's tab says).
  assert.equal(await page.title(), 'Everything Reference Server · MCP browser client');
  assert.equal(await tab.getAttribute('title'), everything.url);
  const count = await page.locator('.tools .count').innerText();
  assert.ok(Number.parseInt(count, 10) >= 10, count);
  // The page asked the browser to open the connection to the server while the app loaded.
  const hints = await page.evaluate(() => [...document.querySelectorAll('link[rel=preconnect]')].map((l) => [l.href, l.crossOrigin]));
  assert.deepEqual(hints, [[`${new URL(everything.url).origin}/`, 'anonymous']]);
  // Nothing fetched that connecting does not need (the OAuth metadata document is looked
  // for only when a login may follow).
  const fetched = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
  assert.ok(!fetched.some((u) => u.includes('client-metadata.json')), fetched.join('\n'));
  // What the server declared, folded away: its capabilities as a list, and whole as JSON.
  await page.locator('.server-about > summary').click();
  const caps = await page.locator('.server-about .capabilities li').allInnerTexts();
  for (const c of ['tools (list changes)', 'resources (subscribe, list changes)', 'prompts (list changes)', 'logging', 'completions']) assert.ok(caps.includes(c), `${c} in ${caps}`);
  await page.locator('.server-about .declared-raw summary').click();
  const declared = JSON.parse(await page.locator('.server-about pre.declared-json').innerText());
  assert.equal(declared.protocolVersion, '2025-11-25');
  assert.deepEqual(Object.keys(declared.capabilities.resources).sort(), ['listChanged', 'subscribe']);
  await page.locator('.server-about > summary').click();
  await page.screenshot({ path: screenshotPath('tools.png') });
});

test('search filters the tool list', async () => {
  // "/" outside a field puts the focus in the search box of the tab shown; in a field it is
  // typed as usual.
  const focused = () => page.evaluate(() => document.activeElement?.id);
  await page.locator('#tab-tools').focus();
  await page.keyboard.press('/');
  assert.equal(await focused(), 'tool-search');
  assert.equal(await page.locator('#tool-search').inputValue(), '');
  await page.keyboard.press('/');
  assert.equal(await page.locator('#tool-search').inputValue(), '/');
  await page.locator('#tool-search').fill('');
  await page.locator('#tab-logs').click();
  await page.keyboard.press('/');
  assert.equal(await focused(), 'wire-filter');
  await page.locator('#tab-tools').click();
  await page.locator('#tool-search').fill('sum');
  await waitFor(async () => (await page.locator('button.tool').count()) === 1, 5_000, 'one match');
  assert.equal(await page.locator('button.tool').first().getAttribute('data-tool'), 'get-sum');
  // The count says the list's size and what the search found.
  assert.match(await page.locator('.tools .count').innerText(), /^\d+ tools · 1 found$/);
  await page.locator('#tool-search').fill('no such tool');
  await waitFor(async () => (await page.locator('button.tool').count()) === 0, 5_000, 'no match');
  assert.match(await page.locator('.tools .count').innerText(), /^\d+ tools · none found$/);
  await page.locator('#tool-search').fill('sum');
  await waitFor(async () => (await page.locator('button.tool').count()) === 1, 5_000, 'one match again');
  // Each listed tool shows its description under its name.
  assert.equal(await page.locator('button.tool .help').first().innerText(), 'Returns the sum of two numbers');
  // The search is still there, and still applied, after another tab was open.
  await page.locator('#tab-resources').click();
  await page.locator('#tab-tools').click();
  assert.equal(await page.locator('#tool-search').inputValue(), 'sum');
  assert.equal(await page.locator('button.tool').count(), 1);
  await page.locator('#tool-search').fill('');
});

test('the arrow keys move through the tabs (choosing them) and the tool list', async () => {
  const focused = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.dataset.tool || '');
  // Only the chosen tab is in the Tab order.
  assert.deepEqual(await page.locator('[role=tab]').evaluateAll((ts) => ts.map((t) => t.tabIndex)), [0, -1, -1, -1, -1, -1]);
  // The server lists its tasks (`tasks.list`): their tab is there, between prompts and logs.
  assert.deepEqual(await page.locator('[role=tab]').evaluateAll((ts) => ts.map((t) => t.id)), ['tab-tools', 'tab-resources', 'tab-prompts', 'tab-tasks', 'tab-logs', 'tab-settings']);
  await page.locator('#tab-tools').focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await focused(), 'tab-resources');
  assert.equal(await page.locator('#tab-resources').getAttribute('aria-selected'), 'true');
  assert.equal(await page.locator('[role=tabpanel]:not([hidden])').getAttribute('aria-labelledby'), 'tab-resources');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await focused(), 'tab-settings', 'the row wraps round');
  await page.keyboard.press('Home');
  assert.equal(await focused(), 'tab-tools');
  assert.equal(await page.locator('#tab-tools').getAttribute('aria-selected'), 'true');
  // Down the tool list: the focus moves, Enter opens the tool.
  const tools = await page.locator('button.tool').evaluateAll((bs) => bs.map((b) => b.dataset.tool));
  await page.locator(`button.tool[data-tool="${tools[0]}"]`).focus();
  await page.keyboard.press('ArrowUp');
  assert.equal(await focused(), tools[0], 'the list stops at its top');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focused(), tools[1]);
  await page.keyboard.press('End');
  assert.equal(await focused(), tools.at(-1));
  await page.keyboard.press('Enter');
  await page.locator('.runner .tool-name', { hasText: tools.at(-1) }).waitFor({ timeout: 5_000 });
  assert.equal(await page.locator(`button.tool[data-tool="${tools.at(-1)}"]`).getAttribute('aria-current'), 'true');
});

test('runs echo through the generated form', async () => {
  await openTool('echo');
  await page.locator('#arg-message').fill('hello <b>world</b>');
  await page.locator('button.run').click();
  const out = page.locator('.result pre.content');
  await out.waitFor({ timeout: 10_000 });
  assert.equal(await out.innerText(), 'Echo: hello <b>world</b>');
  assert.equal(await page.locator('.result b').count(), 0, 'server text is not HTML');
  // How long the call took.
  assert.match(await page.locator('.runner .took').innerText(), /^Answered in \d+(\.\d)? (ms|s)$/);
  // The tool's whole definition, as the server listed it.
  await page.locator('.runner details.tool-definition > summary').click();
  const definition = JSON.parse(await page.locator('.runner pre.tool-json').innerText());
  assert.equal(definition.name, 'echo');
  assert.equal(definition.inputSchema.properties.message.type, 'string');
  assert.equal(definition.annotations.readOnlyHint, true);
  await page.locator('.runner details.tool-definition > summary').click();
  // "Copy" puts the text, as text, on the clipboard.
  const copy = page.locator('.result .copyable button.copy');
  assert.equal(await copy.innerText(), 'Copy');
  await copy.click();
  await page.locator('.result .copyable button.copy', { hasText: 'Copied' }).waitFor({ timeout: 5_000 });
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'Echo: hello <b>world</b>');

  // A string argument takes several lines: Enter starts a new one, the box grows with
  // them, and Ctrl+Enter runs the tool from inside it.
  const message = page.locator('#arg-message');
  const oneLine = await message.evaluate((e) => e.offsetHeight);
  await message.fill('');
  await message.pressSequentially('first line');
  await message.press('Enter');
  await message.pressSequentially('second line');
  assert.ok(await message.evaluate((e) => e.offsetHeight) > oneLine, 'the box grew to two lines');
  await message.press('Control+Enter');
  await page.locator('.result pre.content', { hasText: 'second line' }).waitFor({ timeout: 10_000 });
  assert.equal(await out.innerText(), 'Echo: first line\nsecond line');
});

test('a server URL typed without its scheme gets http:// for this machine, in the form and in a link', async () => {
  // As a server's log prints it: host and port.
  const typed = `127.0.0.1:${everything.port}/mcp`;
  const other = await anotherConnection(page, typed);
  assert.equal(await page.locator('#server-url').inputValue(), `http://${typed}`);
  await other.showFirst();
  await other.close();
  const own = await context.newPage();
  own.on('pageerror', (e) => { throw e; });
  await own.goto(`${site.url}/?url=${encodeURIComponent(`localhost:${everything.port}/mcp`)}`);
  await own.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
  assert.equal(await own.locator('#server-url').inputValue(), `http://localhost:${everything.port}/mcp`);
  await own.close();
});

test('validates before sending, then runs get-sum with numbers', async () => {
  await openTool('get-sum');
  await page.locator('#arg-a').fill('');
  await page.locator('button.run').click();
  await page.locator('.field-error').first().waitFor();
  await page.locator('#arg-a').fill('19');
  await page.locator('#arg-b').fill('23');
  // Ctrl+Enter in the form runs the tool, like the Run button.
  await page.locator('#arg-b').press('Control+Enter');
  await page.locator('.result pre.content', { hasText: 'is 42' }).waitFor({ timeout: 10_000 });
  await page.screenshot({ path: screenshotPath('tool-result.png') });
  // The whole result as JSON, formatted when opened.
  assert.equal(await page.locator('.result pre.raw-json').count(), 0);
  await page.locator('.result .raw-result summary').click();
  const raw = JSON.parse(await page.locator('.result pre.raw-json').innerText());
  assert.deepEqual(raw.content, [{ type: 'text', text: 'The sum of 19 and 23 is 42.' }]);
});

test('a tool keeps what was typed, its call under way and its result while another tool or tab is open', async () => {
  await openTool('get-sum');
  await page.locator('#arg-a').fill('4');
  await page.locator('#arg-b').fill('5');
  await openTool('echo');
  await openTool('get-sum');
  assert.equal(await page.locator('#arg-a').inputValue(), '4');
  assert.equal(await page.locator('#arg-b').inputValue(), '5');
  // A call that takes three seconds (with progress): the tab is left while it runs.
  await openTool('trigger-long-running-operation');
  await page.locator('#arg-duration').fill('3');
  await page.locator('#arg-steps').fill('3');
  await page.locator('button.run').click();
  await page.locator('.runner button.cancel').waitFor({ timeout: 5_000 });
  await page.locator('#tab-logs').click();
  await page.locator('#tab-tools').click();
  // Still chosen, still running (Cancel and progress), then its result.
  await page.locator('.runner .tool-name', { hasText: 'trigger-long-running-operation' }).waitFor({ timeout: 5_000 });
  assert.equal(await page.locator('button.tool[data-tool="trigger-long-running-operation"]').getAttribute('aria-current'), 'true');
  assert.equal(await page.locator('.runner button.cancel').count(), 1);
  await page.locator('#tab-resources').click();
  await page.locator('#tab-tools').click();
  await page.locator('.runner .result', { hasText: 'Long running operation completed' }).waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('.runner button.cancel').count(), 0);
  // The result is still there after another visit to another tab.
  await page.locator('#tab-settings').click();
  await page.locator('#tab-tools').click();
  await page.locator('.runner .result', { hasText: 'Long running operation completed' }).waitFor({ timeout: 5_000 });
});

test('shows progress and cancels a long-running tool', async () => {
  await openTool('trigger-long-running-operation');
  await page.locator('#arg-duration').fill('30');
  await page.locator('#arg-steps').fill('30');
  await page.locator('button.run').click();
  await page.locator('.progress progress').waitFor({ timeout: 10_000 });
  await page.locator('button.cancel').click();
  await page.locator('.call-error', { hasText: 'cancelled' }).waitFor({ timeout: 5_000 });
});

test('answers a sampling request after the person approves it', async () => {
  await openTool('trigger-sampling-request');
  await page.locator('#arg-prompt').fill('What is MCP?');
  await page.locator('button.run').click();
  const dialog = page.locator('.ask.sampling');
  await dialog.waitFor({ timeout: 10_000 });
  assert.match(await dialog.innerText(), /What is MCP\?/);
  // The page's title counts the question (a tab in the background says one is waiting).
  assert.equal(await page.title(), '(1) Everything Reference Server · MCP browser client');
  // The request's settings are shown before it is approved.
  const settings = await dialog.locator('.sampling-settings').innerText();
  assert.match(settings, /Max tokens\s+100/);
  assert.match(settings, /Temperature\s+0\.7/);
  await dialog.locator('textarea').fill('A protocol.');
  await page.screenshot({ path: screenshotPath('sampling.png') });
  await dialog.locator('button.approve').click();
  await page.locator('.result', { hasText: 'A protocol.' }).waitFor({ timeout: 10_000 });
  assert.equal(await page.title(), 'Everything Reference Server · MCP browser client');
});

test('answers an elicitation with a form built from the requested schema', async () => {
  await openTool('trigger-elicitation-request');
  await page.locator('button.run').click();
  const form = page.locator('form.ask.elicitation');
  await form.waitFor({ timeout: 10_000 });
  await form.locator('#arg-name').fill('Grace Hopper');
  // Formats get the browser's own inputs, which refuse malformed values.
  assert.equal(await form.locator('#arg-email').getAttribute('type'), 'email');
  assert.equal(await form.locator('#arg-homepage').getAttribute('type'), 'url');
  assert.equal(await form.locator('#arg-birthdate').getAttribute('type'), 'date');
  await form.locator('#arg-email').fill('not an address');
  assert.equal(await form.locator('#arg-email').evaluate((e) => e.validity.valid), false);
  await form.locator('#arg-email').fill('grace@example.com');
  await form.locator('#arg-birthdate').fill('1906-12-09');
  // The limits are said before the person types (the server's own title of "number" says
  // 1-1000; its schema says 0), and the answer is checked against them before it is sent.
  assert.equal(await form.locator('.field:has(#arg-integer) .limits').innerText(), 'from 1 to 100');
  assert.equal(await form.locator('.field:has(#arg-number) .limits').innerText(), 'from 0 to 1000');
  assert.equal(await form.locator('#arg-untitledMultipleSelectEnum .limits').innerText(), '1 to 3 choices');
  assert.equal(await form.locator('.field:has(#arg-name) .limits').count(), 0);
  // A screen reader reads them with the input: its description, then its limits.
  const describedBy = (await form.locator('#arg-integer').getAttribute('aria-describedby')).split(' ');
  const described = await Promise.all(describedBy.map((id) => page.locator(`[id="${id}"]`).innerText()));
  assert.match(described[0], /^Your favorite integer/);
  assert.deepEqual(described.slice(1), ['from 1 to 100']);
  await form.locator('#arg-integer').fill('500');
  await form.locator('button.accept').click();
  await form.locator('.field-error', { hasText: 'above the maximum 100' }).waitFor({ timeout: 10_000 });
  await form.locator('#arg-integer').fill('7');
  // The error was about the value before: it goes once the value changes.
  await waitFor(async () => (await form.locator('.field:has(#arg-integer) .field-error').count()) === 0, 5_000, 'the error gone');
  // Every enum shape of the spec: a choice is shown by its title (a titled enum's, or the
  // legacy `enumNames`), and its value is what is sent.
  const options = (id) => form.locator(`${id} option`).allInnerTexts();
  assert.deepEqual(await options('#arg-titledSingleSelectEnum'), ['—', 'Superman', 'Green Lantern', 'Wonder Woman']);
  assert.deepEqual(await options('#arg-legacyTitledEnum'), ['—', 'Cats', 'Dogs', 'Birds', 'Fish', 'Reptiles']);
  await form.screenshot({ path: screenshotPath('elicitation.png') });
  await form.locator('#arg-titledSingleSelectEnum').selectOption({ label: 'Wonder Woman' });
  await form.locator('#arg-legacyTitledEnum').selectOption({ label: 'Birds' });
  // A multi-select is a group of boxes, its default ticked; how many may be chosen is
  // checked before sending.
  const boxes = (id) => form.locator(`${id} label.choice`);
  assert.deepEqual(await boxes('#arg-titledMultipleSelectEnum').allInnerTexts(), ['Tuna', 'Salmon', 'Trout']);
  assert.deepEqual(await boxes('#arg-untitledMultipleSelectEnum').allInnerTexts(), ['Guitar', 'Piano', 'Violin', 'Drums', 'Bass']);
  assert.equal(await form.locator('#arg-untitledMultipleSelectEnum-1').isChecked(), true);
  for (const name of ['Piano', 'Violin', 'Drums']) {
    await boxes('#arg-untitledMultipleSelectEnum').filter({ hasText: name }).click();
  }
  await form.locator('button.accept').click();
  await form.locator('#arg-untitledMultipleSelectEnum .field-error', { hasText: 'at most 3' }).waitFor({ timeout: 10_000 });
  await boxes('#arg-untitledMultipleSelectEnum').filter({ hasText: 'Guitar' }).click();
  await waitFor(async () => (await form.locator('#arg-untitledMultipleSelectEnum .field-error').count()) === 0, 5_000, 'the error gone');
  await boxes('#arg-titledMultipleSelectEnum').filter({ hasText: 'Trout' }).click();
  await form.locator('button.accept').click();
  const result = page.locator('.result', { hasText: 'Grace Hopper' });
  await result.waitFor({ timeout: 10_000 });
  const text = await result.innerText();
  assert.match(text, /grace@example\.com[\s\S]*1906-12-09/);
  // The server's echo of what it got (its "Raw result").
  const sent = JSON.parse(text.slice(text.indexOf('{', text.indexOf('Raw result:')), text.lastIndexOf('}') + 1)).content;
  assert.deepEqual(
    [sent.titledSingleSelectEnum, sent.legacyTitledEnum, sent.untitledMultipleSelectEnum, sent.titledMultipleSelectEnum],
    ['hero-3', 'pet-3', ['Piano', 'Violin', 'Drums'], ['fish-1', 'fish-3']],
  );
});

test('the server\'s questions and the tab shown are kept while another server is chosen: what the person typed is still there on return', async () => {
  await openTool('trigger-sampling-request');
  await page.locator('#arg-prompt').fill('Kept while away?');
  await page.locator('button.run').click();
  const dialog = page.locator('.ask.sampling');
  await dialog.waitFor({ timeout: 10_000 });
  await dialog.locator('textarea.sampling-reply').fill('A reply typed before going away');
  await openTool('trigger-elicitation-request');
  await page.locator('button.run').click();
  const form = page.locator('form.ask.elicitation');
  await form.waitFor({ timeout: 10_000 });
  await form.locator('#arg-name').fill('Dorothy Vaughan');
  await page.locator('#tab-logs').click();
  // Another server is opened, and shown: this server's view goes, and is built again when
  // it is chosen again.
  const other = await anotherConnection(page, everything.url);
  assert.equal(await page.locator('[role=tab][aria-selected=true]').getAttribute('id'), 'tab-tools');
  assert.equal(await dialog.count(), 0);
  // Its tab says its questions are waiting; the other's says none.
  assert.equal(await page.locator('.connection-tab').nth(0).innerText(), 'Everything Reference Server · connected · 2 questions');
  assert.equal(await page.locator('.connection-tab').nth(1).locator('.waiting-asks').count(), 0);
  assert.match(await page.title(), /^\(2\) /);
  await other.showFirst();
  await dialog.waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('[role=tab][aria-selected=true]').getAttribute('id'), 'tab-logs');
  assert.equal(await dialog.locator('textarea.sampling-reply').inputValue(), 'A reply typed before going away');
  assert.equal(await form.locator('#arg-name').inputValue(), 'Dorothy Vaughan');
  // And they are answered with it.
  await dialog.locator('button.approve').click();
  await form.locator('button.decline').click();
  await waitFor(async () => (await page.locator('.connection-tab .waiting-asks').count()) === 0, 5_000, 'no question waiting');
  await page.locator('#tab-tools').click();
  await openTool('trigger-sampling-request');
  await page.locator('.runner .result', { hasText: 'A reply typed before going away' }).waitFor({ timeout: 10_000 });
  await other.close();
});

test('answers an elicitation the server runs as a task on the client, while the server polls it', async () => {
  // Offered only to a client that declared task-augmented elicitation.
  await openTool('trigger-elicitation-request-async');
  await page.locator('button.run').click();
  const form = page.locator('form.ask.elicitation');
  await form.waitFor({ timeout: 10_000 });
  await form.locator('#arg-name').fill('Katherine Johnson');
  await form.locator('button.accept').click();
  const result = page.locator('.runner .result', { hasText: '[COMPLETED]' });
  await result.waitFor({ timeout: 20_000 });
  const text = await result.innerText();
  assert.match(text, /Katherine Johnson/);
  assert.match(text, /Task created: client-task-\d+/);
  // The task's end was told to the server at once (notifications/tasks/status).
  const taskId = text.match(/Task created: (client-task-\d+)/)[1];
  await page.locator('#tab-logs').click();
  const told = page.locator('ol.wire li', { hasText: `"method":"notifications/tasks/status"` }).filter({ hasText: `"taskId":"${taskId}"` });
  await told.first().waitFor({ timeout: 10_000 });
  assert.match(await told.first().innerText(), /"status":"completed"/);
  await page.locator('#tab-tools').click();
});

test('shows a URL elicitation in full, asks consent, and lets the person decline', async () => {
  await openTool('trigger-url-elicitation');
  await page.locator('#arg-url').fill('https://example.com/consent?step=1');
  await page.locator('button.run').click();
  const ask = page.locator('.ask.url');
  await ask.waitFor({ timeout: 10_000 });
  assert.equal(await ask.locator('.full-url').innerText(), 'https://example.com/consent?step=1');
  assert.equal(await ask.locator('a.open').getAttribute('rel'), 'noopener noreferrer');
  await ask.locator('button.decline').click();
  await page.locator('.runner .result', { hasText: 'declined' }).waitFor({ timeout: 10_000 });
});

test('a call refused until a web page is opened (-32042) shows the page to open, and Retry makes it again', async () => {
  await openTool('trigger-url-elicitation');
  await page.locator('#arg-url').fill('https://example.com/after?step=2');
  await page.locator('#arg-errorPath').check();
  await page.locator('button.run').click();
  const required = page.locator('.runner .url-required');
  await required.waitFor({ timeout: 10_000 });
  assert.match(await page.locator('.runner .call-error').innerText(), /needs you to open a web page before it can do this/);
  assert.match(await required.innerText(), /Open this link to satisfy the prerequisite/);
  assert.equal(await required.locator('.full-url').innerText(), 'https://modelcontextprotocol.io');
  assert.equal(await required.locator('a.open').getAttribute('rel'), 'noopener noreferrer');
  // Retry: the same arguments again; this time the server asks through elicitation/create.
  await required.locator('button.retry').click();
  const ask = page.locator('.ask.url');
  await ask.waitFor({ timeout: 10_000 });
  assert.equal(await ask.locator('.full-url').innerText(), 'https://example.com/after?step=2');
  assert.equal(await page.locator('.runner .url-required').count(), 0);
  await ask.locator('button.decline').click();
  await page.locator('.runner .result', { hasText: 'declined' }).waitFor({ timeout: 10_000 });
  await page.locator('#arg-errorPath').uncheck();
});

test('runs a tool that requires a task: its status while it works, an elicitation on the way, the report at the end', async () => {
  await openTool('simulate-research-query');
  await page.locator('#arg-topic').fill('tides');
  await page.locator('#arg-ambiguous').check();
  await page.locator('button.run').click();
  // Called as a task (the plain call is refused with -32601), followed with tasks/get.
  await page.locator('.runner .task-status', { hasText: /^Task working/ }).waitFor({ timeout: 10_000 });
  // Not kept for a reload: server-everything ties its tasks to the session, which a reload
  // ends (a 2026-07-28 server's tasks are kept: app_tasks_extension).
  assert.equal(await page.evaluate(() => localStorage.getItem('mcp-browser-client.tasks')), null);
  // The server asks for a clarification through the task (tasks/result stream).
  const form = page.locator('form.ask.elicitation');
  await form.waitFor({ timeout: 20_000 });
  const choice = form.locator('#arg-interpretation');
  const values = await choice.locator('option').evaluateAll((os) => os.map((o) => o.value).filter(Boolean));
  assert.ok(values.length > 1, `interpretations offered: ${values}`);
  await choice.selectOption(values[0]);
  await form.locator('button.accept').click();
  const report = page.locator('.runner .result', { hasText: 'Research Report: tides' });
  await report.waitFor({ timeout: 20_000 });
  assert.ok((await report.innerText()).includes(`**Clarification**: ${values[0]}`), 'the report names the chosen interpretation');
  assert.equal(await page.locator('.runner .task-status').count(), 0);
  // The states the server announced (notifications/tasks/status) are in the log, in words.
  await page.locator('#tab-logs').click();
  await page.locator('ul.notifications li', { hasText: /task \S+: input_required \(Found multiple interpretations/ }).first().waitFor({ timeout: 5_000 });
  await page.locator('ul.notifications li', { hasText: /task \S+: completed/ }).first().waitFor({ timeout: 5_000 });
  await page.locator('#tab-tools').click();
});

test('the tasks tab lists the server\'s tasks, follows their states, cancels one and shows what one came to', async () => {
  await page.locator('#tab-tasks').click();
  // The research task of the test before, over.
  const done = page.locator('tr.task', { has: page.locator('.task-state.completed') });
  await done.first().waitFor({ timeout: 10_000 });
  // Kept for what the server chose (this one keeps its tasks 5 min, whatever the client asks).
  assert.equal(await done.first().locator('td').nth(4).innerText(), '5 min');
  await done.first().locator('button.task-result').click();
  await page.locator('.task-outcome .result', { hasText: 'Research Report: tides' }).waitFor({ timeout: 10_000 });
  // A new research task, started from the tools tab, shows up working, newest first.
  await page.locator('#tab-tools').click();
  await openTool('simulate-research-query');
  await page.locator('#arg-topic').fill('reefs');
  await page.locator('#arg-ambiguous').uncheck();
  await page.locator('button.run').click();
  await page.locator('.runner .task-status', { hasText: /^Task working/ }).waitFor({ timeout: 10_000 });
  await page.locator('#tab-tasks').click();
  // What the finished task came to is still shown after leaving the tab.
  assert.match(await page.locator('.task-outcome .result').innerText(), /Research Report: tides/);
  const first = page.locator('tr.task').first();
  await first.locator('.task-state.working').waitFor({ timeout: 10_000 });
  // Its state follows the server (notifications and listing again): the stage changes.
  const stage = await first.locator('.task-message').innerText();
  await waitFor(async () => (await page.locator('tr.task').first().locator('.task-message').innerText().catch(() => stage)) !== stage, 10_000, 'the stage shown moves on');
  // Cancelled from here: the server says so, and the tool's call ends as cancelled.
  await page.locator('tr.task').first().locator('button.cancel-task').click();
  await page.locator('tr.task').first().locator('.task-state.cancelled').waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('tr.task').first().locator('button').count(), 0, 'neither cancel nor result for a cancelled task');
  await page.screenshot({ path: screenshotPath('tasks.png') });
  await page.locator('#tab-tools').click();
  await page.locator('.runner .call-error', { hasText: 'cancelled' }).waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('.runner .result', { hasText: 'Research Report: reefs' }).count(), 0);
});

test('sends any request typed in the logs tab, checks it first, and shows the answer', async () => {
  await page.locator('#tab-logs').click();
  const box = page.locator('section.send-request');
  // Checked before anything is sent.
  await box.locator('#raw-method').fill('initialize');
  await box.locator('button.send-raw').click();
  await box.locator('.call-error', { hasText: 'sends initialize itself' }).waitFor({ timeout: 5_000 });
  await box.locator('#raw-method').fill('tasks/list');
  await box.locator('#raw-params').fill('[1]');
  await box.locator('button.send-raw').click();
  await box.locator('.call-error', { hasText: 'must be a JSON object, or left empty: this is an array' }).waitFor({ timeout: 5_000 });
  // Sent (Ctrl+Enter in the params) and answered: the server's tasks, as JSON.
  await box.locator('#raw-params').fill('{}');
  await box.locator('#raw-params').press('Control+Enter');
  const answer = box.locator('pre.raw-answer');
  await answer.waitFor({ timeout: 10_000 });
  const tasks = JSON.parse(await answer.innerText());
  assert.ok(Array.isArray(tasks.tasks) && tasks.tasks.length >= 2, JSON.stringify(tasks));
  // In the wire log like any request.
  await page.locator('ol.wire li', { hasText: '"method":"tasks/list"' }).first().waitFor({ timeout: 5_000 });
  // A server's refusal, in words.
  await box.locator('#raw-method').fill('vendor/unknown');
  await box.locator('#raw-params').fill('');
  await box.locator('button.send-raw').click();
  await box.locator('.call-error', { hasText: /-32601|not found/i }).waitFor({ timeout: 10_000 });
  // A notification: sent, no answer awaited.
  await box.locator('#raw-method').fill('notifications/roots/list_changed');
  await box.locator('#raw-notification').check();
  await box.locator('button.send-raw').click();
  await box.locator('pre.raw-answer', { hasText: 'notifications/roots/list_changed sent' }).waitFor({ timeout: 5_000 });
  // What was typed and the answer are still there after another tab was open.
  await box.locator('#raw-notification').uncheck();
  await box.locator('#raw-method').fill('tools/list');
  await box.locator('#raw-params').fill('{"cursor": null}');
  await page.locator('#tab-tools').click();
  await page.locator('#tab-logs').click();
  assert.equal(await box.locator('#raw-method').inputValue(), 'tools/list');
  assert.equal(await box.locator('#raw-params').inputValue(), '{"cursor": null}');
  assert.equal(await box.locator('#raw-notification').isChecked(), false);
  await box.locator('pre.raw-answer', { hasText: 'notifications/roots/list_changed sent' }).waitFor({ timeout: 5_000 });
  await page.locator('#tab-tools').click();
});

test('shows an image result and offers it as a file', async () => {
  await openTool('get-tiny-image');
  await page.locator('button.run').click();
  await page.locator('.runner .result img.content.image').waitFor({ timeout: 10_000 });
  const [saved] = await Promise.all([page.waitForEvent('download'), page.locator('.runner .result button.download-media').click()]);
  assert.equal(saved.suggestedFilename(), 'image.png'); // the browser adds the MIME type's extension
  const png = fs.readFileSync(await saved.path());
  assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
});

test('checks structured content against the output schema', async () => {
  await openTool('get-structured-content');
  await page.locator('#arg-location').selectOption('Chicago');
  await page.locator('button.run').click();
  await page.locator('.verdict.valid').waitFor({ timeout: 10_000 });
  assert.match(await page.locator('.result pre.structured').innerText(), /"temperature"/);
  // The text block is the same JSON as text: shown indented, or as the server sent it.
  const text = page.locator('.runner .result pre.content.text');
  const indented = await text.innerText();
  assert.match(indented, /^\{\n {2}"temperature": -?\d+(\.\d+)?,\n/);
  await page.locator('.runner .result .json-text .as-sent input').check();
  await waitFor(async () => !(await text.innerText()).includes('\n'), 5_000, 'the text as sent');
  const sent = await text.innerText();
  assert.deepEqual(JSON.parse(sent), JSON.parse(indented));
  assert.equal(sent, indented.replace(/\n */g, '').replace(/": /g, '":'));
});

test('reads a resource a tool result links to, in place', async () => {
  await openTool('get-resource-links');
  await page.locator('#arg-count').fill('2');
  await page.locator('button.run').click();
  const links = page.locator('.runner .result .content.link');
  await waitFor(async () => (await links.count()) === 2, 10_000, 'two resource links');
  const second = links.nth(1);
  const uri = await second.locator('.uri').first().innerText();
  assert.match(uri, /^demo:\/\/resource\/dynamic\/text\/2$/);
  await second.locator('button.read-link').click();
  await second.locator('.resource-contents .uri', { hasText: uri }).waitFor({ timeout: 10_000 });
  assert.match(await second.locator('.resource-contents pre').innerText(), /Resource 2/);
  // Only the one asked for was read.
  assert.equal(await links.nth(0).locator('.resource-contents').count(), 0);
});

test('shows a resource embedded in a result like a read one: binary contents can be downloaded', async () => {
  await openTool('get-resource-reference');
  await page.locator('#arg-resourceType').selectOption('Blob');
  await page.locator('#arg-resourceId').fill('4');
  await page.locator('button.run').click();
  const embedded = page.locator('.runner .result .content.resource .resource-contents');
  await embedded.waitFor({ timeout: 10_000 });
  assert.equal(await embedded.locator('.uri').innerText(), 'demo://resource/dynamic/blob/4 · text/plain');
  const [download] = await Promise.all([page.waitForEvent('download'), embedded.locator('button.download').click()]);
  assert.equal(download.suggestedFilename(), '4.txt'); // the browser adds the MIME type's extension
  assert.match(fs.readFileSync(await download.path(), 'utf8'), /^Resource 4: This is a base64 blob created at /);
  // Its size is the file's, not the length of its base64 text.
  const size = fs.statSync(await download.path()).size;
  assert.ok(size > 1 && size < 1024, `${size}`);
  assert.equal(await embedded.locator('.blob-size').innerText(), `${size} bytes`);
});

test('keeps a call history that can be run again', async () => {
  const entries = page.locator('.history-list li');
  assert.ok((await entries.count()) >= 3);
  // "Run again" makes the call through its tool's runner, as Run does: the tool is chosen,
  // its form shows the call's arguments, and the result, its time and a new history line
  // follow there (while another tool's form was open).
  await openTool('get-sum');
  const before = await entries.count();
  const echo = page.locator('.history-list li', { hasText: 'hello <b>world</b>' }).first();
  await echo.locator('button.rerun').click();
  await page.locator('.runner .tool-name', { hasText: 'echo' }).waitFor({ timeout: 5_000 });
  assert.equal(await page.locator('#arg-message').inputValue(), 'hello <b>world</b>');
  await page.locator('.runner .result', { hasText: 'Echo: hello <b>world</b>' }).waitFor({ timeout: 10_000 });
  await page.locator('.runner p.took').waitFor({ timeout: 5_000 });
  await waitFor(async () => (await entries.count()) === before + 1, 5_000, 'the call made again in the history');
  assert.match(await entries.first().locator('code').innerText(), /^echo \{"message":"hello <b>world<\/b>"\}$/);
  assert.equal(await page.locator('.history .result').count(), 0);
  // Each call has its link: its tool's form filled with its arguments (see the deep link test).
  await entries.first().locator('.call-link button').click();
  await entries.first().locator('.call-link button', { hasText: 'Copied' }).waitFor({ timeout: 5_000 });
  const link = new URL(await page.evaluate(() => navigator.clipboard.readText()));
  assert.equal(link.searchParams.get('url'), everything.url);
  assert.equal(link.searchParams.get('tool'), 'echo');
  assert.deepEqual(JSON.parse(link.searchParams.get('args')), { message: 'hello <b>world</b>' });
  // "Run again" of a tool whose call is under way: made once that call has ended (one call
  // of a tool at a time, as with Run).
  await openTool('trigger-long-running-operation');
  await page.locator('#arg-duration').fill('2');
  await page.locator('#arg-steps').fill('2');
  await page.locator('button.run').click();
  await page.locator('.runner .result').waitFor({ timeout: 15_000 });
  const sent = [];
  page.on('request', (r) => {
    if ((r.postData() || '').includes('"name":"trigger-long-running-operation"')) sent.push(Date.now());
  });
  const made = await entries.count();
  await page.locator('button.run').click();
  await page.locator('.runner button.cancel').waitFor({ timeout: 5_000 });
  await page.locator('.history-list li', { hasText: '"duration":2' }).first().locator('button.rerun').click();
  await waitFor(async () => (await entries.count()) === made + 2, 20_000, 'both calls in the history');
  assert.equal(sent.length, 2);
  // The tool works 2 s before it answers: the second call went after the first's answer,
  // not when it was asked for.
  assert.ok(sent[1] - sent[0] >= 2000, `the second call sent ${sent[1] - sent[0]} ms after the first`);
  assert.deepEqual(await entries.evaluateAll((li) => li.slice(0, 2).map((e) => e.textContent.includes('→ ok'))), [true, true]);
  // A past call of a tool the server no longer lists is not made: the history says why.
  await page.evaluate((url) => {
    const doc = JSON.parse(localStorage.getItem('mcp-browser-client.history'));
    const calls = doc[url].calls;
    calls.push({ ...calls[calls.length - 1], tool: 'retired-tool' });
    localStorage.setItem('mcp-browser-client.history', JSON.stringify(doc));
  }, everything.url);
  const next = await context.newPage();
  try {
    await next.goto(`${site.url}/?url=${encodeURIComponent(everything.url)}`);
    await next.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
    const calls = [];
    next.on('request', (r) => { if ((r.postData() || '').includes('"tools/call"')) calls.push(r.postData()); });
    await next.locator('.history-list li', { hasText: 'retired-tool' }).locator('button.rerun').click();
    await next.locator('.history-refused', { hasText: 'The server no longer lists retired-tool' }).waitFor({ timeout: 5_000 });
    assert.deepEqual(calls, []);
  } finally {
    await next.close();
  }
  await page.evaluate((url) => {
    const doc = JSON.parse(localStorage.getItem('mcp-browser-client.history'));
    doc[url].calls = doc[url].calls.filter((c) => c.tool !== 'retired-tool');
    localStorage.setItem('mcp-browser-client.history', JSON.stringify(doc));
  }, everything.url);
  // "Edit" puts a past call's arguments back into its tool's form.
  await openTool('echo');
  await page.locator('.history-list li', { hasText: '"a":19' }).first().locator('button.edit-call').click();
  await page.locator('.runner .tool-name', { hasText: 'get-sum' }).waitFor({ timeout: 5_000 });
  assert.equal(await page.locator('#arg-a').inputValue(), '19');
  assert.equal(await page.locator('#arg-b').inputValue(), '23');
  // Arguments the form cannot say (a key it has no field for) come back as raw JSON.
  await openTool('echo');
  await page.locator('.raw-toggle input').check();
  // JSON that breaks is not sent (every call made goes into the history): the message says
  // where it breaks.
  const calls = await page.locator('.history-list li').count();
  await page.locator('textarea.raw').fill('{"message": "raw",\n "extra": 1,}');
  await page.locator('button.run').click();
  await page.locator('.runner .field-error', { hasText: 'Enter the arguments as a JSON object: this is not valid JSON' })
    .filter({ hasText: 'line 2 column' }).waitFor({ timeout: 5_000 });
  assert.equal(await page.locator('.history-list li').count(), calls, 'nothing sent');
  await page.locator('textarea.raw').fill('{"message": "raw", "extra": 1}');
  await page.locator('button.run').click();
  await page.locator('.runner .result', { hasText: 'Echo: raw' }).waitFor({ timeout: 10_000 });
  await page.locator('.raw-toggle input').uncheck();
  await openTool('get-sum');
  await page.locator('.history-list li', { hasText: '"extra":1' }).first().locator('button.edit-call').click();
  await page.locator('.runner .tool-name', { hasText: 'echo' }).waitFor({ timeout: 5_000 });
  assert.ok(await page.locator('.raw-toggle input').isChecked());
  assert.deepEqual(JSON.parse(await page.locator('textarea.raw').inputValue()), { message: 'raw', extra: 1 });
  await page.locator('.raw-toggle input').uncheck();
  // Each call says when it was made, and how long it took.
  assert.match(await page.locator('.history-list li time.called-at').first().innerText(), /\d{1,2}:\d{2}/);
  assert.match(await page.locator('.history-list li .took').first().innerText(), /^ · \d+(\.\d)? (ms|s)$/);
  // The history is kept in the browser: the next visit to the server has it.
  const kept = await page.locator('.history-list li code').allInnerTexts();
  assert.ok(kept.some((c) => c.includes('"extra":1')), kept.join('\n'));
  assert.deepEqual(await historyOfNextVisit(), kept);
  // Keeping it in the browser can be turned off (settings): what was kept is removed, and
  // this page's history stays. Turned on again, it is kept again.
  await page.locator('#tab-settings').click();
  await page.locator('#keep-history').uncheck();
  assert.equal(await page.evaluate(() => localStorage.getItem('mcp-browser-client.history')), null);
  assert.deepEqual(await historyOfNextVisit(), []);
  await page.locator('#keep-history').check();
  assert.deepEqual(await historyOfNextVisit(), kept);
  await page.locator('#tab-tools').click();
  assert.deepEqual(await page.locator('.history-list li code').allInnerTexts(), kept);
  // Clear empties the history, the browser's too.
  await page.locator('.history button.clear-history').click();
  assert.equal(await page.locator('.history-list li').count(), 0);
  assert.equal(await page.locator('.history button.clear-history').count(), 0);
  assert.deepEqual(await historyOfNextVisit(), []);
});

/** The call history a new page of this browser shows for the server, once connected. */
async function historyOfNextVisit() {
  const next = await context.newPage();
  try {
    await next.goto(`${site.url}/?url=${encodeURIComponent(everything.url)}`);
    await next.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
    await next.locator('.history').waitFor({ timeout: 10_000 });
    return await next.locator('.history-list li code').allInnerTexts();
  } finally {
    await next.close();
  }
}

test('offers editable roots and a log level, and shows server log messages', async () => {
  await page.locator('#tab-settings').click();
  // A legacy server is pinged with ping; the round trip is shown.
  await page.locator('button.ping-server').click();
  await page.locator('.ping-status', { hasText: /^The server answered ping in \d+ ms\.$/ }).waitFor({ timeout: 10_000 });
  // Roots must be file:// URIs: anything else is refused with the offending line.
  await page.locator('#roots').fill('file:///tmp/demo-root\nhttps://example.com/repo');
  await page.locator('button.save-roots').click();
  await page.locator('.settings-status', { hasText: 'not saved' }).filter({ hasText: 'https://example.com/repo' }).waitFor({ timeout: 10_000 });
  await page.locator('#roots').fill('file:///tmp/demo-root');
  await page.locator('button.save-roots').click();
  await page.locator('#log-level').selectOption('debug');
  await page.locator('.settings-status', { hasText: 'log level: debug' }).waitFor({ timeout: 10_000 });
  // The level is still shown when the tab is opened again.
  await page.locator('#tab-tools').click();
  await page.locator('#tab-settings').click();
  assert.equal(await page.locator('#log-level').inputValue(), 'debug');
  assert.equal(await page.locator('#roots').inputValue(), 'file:///tmp/demo-root');
  // Roots typed and not saved yet are still there when the tab is opened again (and are not
  // offered to the server until saved).
  await page.locator('#roots').fill('file:///tmp/demo-root\nfile:///tmp/not-saved');
  await page.locator('#tab-tools').click();
  await page.locator('#tab-settings').click();
  assert.equal(await page.locator('#roots').inputValue(), 'file:///tmp/demo-root\nfile:///tmp/not-saved');
  await page.locator('#tab-tools').click();
  await openTool('get-roots-list');
  await page.locator('button.run').click();
  await page.locator('.runner .result', { hasText: 'file:///tmp/demo-root' }).waitFor({ timeout: 10_000 });
  assert.doesNotMatch(await page.locator('.runner .result').innerText(), /not-saved/);
  await openTool('toggle-simulated-logging');
  await page.locator('button.run').click();
  await page.locator('.runner .result').waitFor({ timeout: 10_000 });
  await page.locator('#tab-logs').click();
  await page.locator('ul.notifications li', { hasText: /\[(debug|info|notice|warning|error|critical|alert|emergency)\]/ }).first().waitFor({ timeout: 15_000 });
  // A new message adds its row at the top; the rows already shown stay as they are, the same
  // elements with the same text (the list is keyed, not rewritten on every message). The
  // server logs every 5 s.
  const before = await page.evaluate(() => {
    const rows = document.querySelectorAll('ul.notifications li');
    for (const li of rows) li.dataset.seen = li.textContent;
    return rows.length;
  });
  await page.waitForFunction((n) => document.querySelectorAll('ul.notifications li').length > n, before, { timeout: 15_000 });
  const rows = await page.evaluate(() => [...document.querySelectorAll('ul.notifications li')]
    .map((li) => ({ seen: li.dataset.seen ?? null, text: li.textContent })));
  const kept = rows.filter((r) => r.seen !== null);
  assert.equal(kept.length, before, 'rows already shown were rebuilt');
  for (const r of kept) assert.equal(r.text, r.seen, 'a row already shown was rewritten');
  assert.equal(rows[0].seen, null, 'the newest row is not first');
  await page.locator('#tab-tools').click();
  await openTool('toggle-simulated-logging');
  await page.locator('button.run').click();
});

test('a request with no answer or progress within the time limit set in settings is cancelled; progress keeps it going', async () => {
  await page.locator('#tab-settings').click();
  const limit = page.locator('#time-limit');
  assert.equal(await limit.inputValue(), '60');
  await limit.fill('0');
  await limit.blur();
  await page.locator('.settings-status', { hasText: 'not saved' }).waitFor({ timeout: 5_000 });
  await limit.fill('2');
  await limit.blur();
  await page.locator('.settings-status', { hasText: 'time limit: 2 s' }).waitFor({ timeout: 5_000 });
  // Kept for the next visits.
  assert.equal(await page.evaluate(() => localStorage.getItem('mcp-browser-client.request-time-limit')), '2');
  await page.locator('#tab-tools').click();
  await openTool('trigger-long-running-operation');
  // Progress every half second: the call runs past the limit and ends well.
  await page.locator('#arg-duration').fill('3');
  await page.locator('#arg-steps').fill('6');
  await page.locator('button.run').click();
  await page.locator('.runner .result', { hasText: 'Long running operation completed' }).waitFor({ timeout: 15_000 });
  // Nothing for four seconds: cancelled after two, saying how to allow more.
  await page.locator('#arg-duration').fill('8');
  await page.locator('#arg-steps').fill('2');
  await page.locator('button.run').click();
  await page.locator('.runner .call-error', { hasText: 'No answer or progress from the server in 2 s' }).waitFor({ timeout: 10_000 });
  assert.match(await page.locator('.runner .call-error').innerText(), /raise the time limit in Settings/);
  await page.locator('#tab-settings').click();
  await limit.fill('60');
  await limit.blur();
  await page.locator('.settings-status', { hasText: 'time limit: 60 s' }).waitFor({ timeout: 5_000 });
  await page.locator('#tab-tools').click();
});

test('imports servers from an mcpServers config', async () => {
  await page.locator('.saved summary').click();
  await page.locator('#import-servers').fill(JSON.stringify({ mcpServers: {
    demo: { type: 'http', url: everything.url },
    local: { command: 'npx', args: ['some-server'] },
  } }));
  await page.locator('button.import-servers').click();
  assert.match(await page.locator('.import-message').innerText(), /imported 1 server; skipped 1 .*local/);
  assert.equal(await page.locator('.saved-list button.connect-saved', { hasText: 'demo' }).count(), 1);
});

test('reads a resource and a template, beside the list, and searches the list', async () => {
  await page.locator('#tab-resources').click();
  const first = page.locator('button.read-resource').first();
  await first.waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('.resource-view .hint').innerText(), 'Choose a resource, or fill in a template and read it.');
  // The arrow keys move down the list (past the Subscribe buttons).
  const uris = await page.locator('button.read-resource').evaluateAll((bs) => bs.map((b) => b.dataset.uri));
  await first.focus();
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.uri), uris[1]);
  const uri = await first.getAttribute('data-uri');
  await first.scrollIntoViewIfNeeded();
  const scrolled = await page.evaluate(() => scrollY);
  await first.click();
  await page.locator('.resource-view .resource-contents .uri', { hasText: uri }).waitFor({ timeout: 10_000 });
  // Beside the list, choosing does not move the page (under it, on a narrow screen, it does:
  // see the test at 360 px).
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  assert.equal(await page.evaluate(() => scrollY), scrolled);
  assert.equal(await page.evaluate(() => document.activeElement.dataset.uri), uri, 'the focus stays in the list');
  // What the server says of it beside its name: here its MIME type.
  assert.equal(await page.locator('.resource-list li').first().locator('.facts').innerText(), 'text/markdown');
  // Headed by its name and description from the list.
  assert.equal(await page.locator('.resource-view h3').innerText(), await first.innerText());
  assert.equal(await page.locator('.resource-view > p.help').innerText(), await page.locator('.resource-list li .help').first().innerText());
  // The one shown is marked in the list, and only that one.
  assert.equal(await first.getAttribute('aria-current'), 'true');
  assert.equal(await page.locator('button.read-resource[aria-current="true"]').count(), 1);
  // Beside the list, not below it: the contents start at the top of the panel.
  const [list, view] = await Promise.all(['.resources > .list', '.resources > .resource-view'].map((s) => page.locator(s).boundingBox()));
  assert.ok(view.x > list.x + list.width - 1 && Math.abs(view.y - list.y) < 2, JSON.stringify({ list, view }));
  const form = page.locator('form.template').first();
  await form.locator('input').first().fill('3');
  await form.locator('button[type=submit]').click();
  await page.locator('.resource-contents .uri', { hasText: '/3' }).first().waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('button.read-resource[aria-current="true"]').count(), 0);
  assert.equal(await page.locator('.resource-view h3').count(), 0);
  // A one-line text holds its Copy button, whose corner the text keeps clear of (even once
  // it says "Copied").
  const clear = async () => page.locator('.resource-contents .copyable').first().evaluate((box) => {
    const pre = box.querySelector('pre').getBoundingClientRect();
    const copy = box.querySelector('button.copy').getBoundingClientRect();
    const textRight = pre.right - parseFloat(getComputedStyle(box.querySelector('pre')).paddingRight);
    return { inside: copy.bottom <= pre.bottom + 0.5 && copy.right <= pre.right + 0.5, clear: textRight <= copy.left };
  });
  assert.deepEqual(await clear(), { inside: true, clear: true });
  await page.locator('.tabs').evaluate((e) => e.scrollIntoView());
  await page.screenshot({ path: screenshotPath('resources.png') });
  await page.locator('.resource-contents .copyable button.copy').first().click();
  await page.locator('.resource-contents .copyable button.copy', { hasText: 'Copied' }).waitFor({ timeout: 5_000 });
  assert.deepEqual(await clear(), { inside: true, clear: true });
  // What was typed in a template is still there after another tab was open.
  await page.locator('#tab-prompts').click();
  await page.locator('#tab-resources').click();
  assert.equal(await page.locator('form.template').first().locator('input').first().inputValue(), '3');
  // Search: name, URI or description; every word must match.
  const total = await page.locator('button.read-resource').count();
  assert.ok(total > 1, `${total} resources`);
  await page.locator('#resource-search').fill('STRUCTURE.md');
  await waitFor(async () => (await page.locator('button.read-resource').count()) === 1, 5_000, 'one match');
  assert.match(await page.locator('.resource-list li .uri').innerText(), /structure\.md$/);
  await page.locator('#resource-search').fill('structure nothing-like-this');
  await waitFor(async () => (await page.locator('button.read-resource').count()) === 0, 5_000, 'no match');
  await page.locator('#resource-search').fill('');
  await waitFor(async () => (await page.locator('button.read-resource').count()) === total, 5_000, 'all again');
  // Another tab and back: what was read is still shown.
  await page.locator('#tab-tools').click();
  await page.locator('#tab-resources').click();
  await page.locator('.resource-view .resource-contents .uri', { hasText: '/3' }).waitFor({ timeout: 5_000 });
});

test('subscribes to a resource, marks and reads again what the server updated, and unsubscribes', async () => {
  const first = page.locator('.resource-list li').first();
  const uri = await first.locator('.uri').innerText();
  const subscribe = first.locator('button.subscribe');
  assert.equal(await subscribe.innerText(), 'Subscribe');
  assert.equal(await subscribe.getAttribute('aria-pressed'), 'false');
  await subscribe.click();
  await page.locator('.resource-list li').first().locator('button.subscribe', { hasText: 'Unsubscribe' }).waitFor({ timeout: 10_000 });
  assert.equal(await subscribe.getAttribute('aria-pressed'), 'true');
  await page.locator('#tab-tools').click();
  await openTool('toggle-subscriber-updates');
  await page.locator('button.run').click();
  await page.locator('.runner .result').waitFor({ timeout: 10_000 });
  await page.locator('#tab-logs').click();
  await page.locator('ul.notifications li', { hasText: `resource updated: ${uri}` }).first().waitFor({ timeout: 20_000 });
  assert.equal(await page.locator('ul.notifications li', { hasText: `subscribed to ${uri}` }).count(), 1);
  // Back on the tab: the subscription is still on, and the updated resource is marked until read.
  await page.locator('#tab-resources').click();
  const item = page.locator('.resource-list li').first();
  await item.locator('.hint.updated').waitFor({ timeout: 10_000 });
  assert.equal(await item.locator('button.subscribe').innerText(), 'Unsubscribe');
  await item.locator('button.read-resource').click();
  await page.locator('.resource-view .resource-contents .uri', { hasText: uri }).waitFor({ timeout: 10_000 });
  // Shown while the server sends updates (every 5 s): read again by itself, and said so.
  await page.locator('.resource-view .reread').waitFor({ timeout: 20_000 });
  await page.locator('.resource-view .resource-contents .uri', { hasText: uri }).waitFor({ timeout: 10_000 });
  await page.locator('#tab-tools').click();
  await openTool('toggle-subscriber-updates');
  await page.locator('button.run').click();
  await page.locator('.runner .result').waitFor({ timeout: 10_000 });
  await page.locator('#tab-resources').click();
  const again = page.locator('.resource-list li').first().locator('button.subscribe');
  await again.click();
  await page.locator('.resource-list li').first().locator('button.subscribe', { hasText: /^Subscribe$/ }).waitFor({ timeout: 10_000 });
  assert.equal(await again.getAttribute('aria-pressed'), 'false');
  await page.locator('#tab-logs').click();
  await page.locator('ul.notifications li', { hasText: `unsubscribed from ${uri}` }).waitFor({ timeout: 10_000 });
  await page.locator('#tab-resources').click();
});

test('gets a prompt with arguments, its form beside the list', async () => {
  await page.locator('#tab-prompts').click();
  await page.locator('.prompts .detail .hint', { hasText: 'Choose a prompt.' }).waitFor({ timeout: 10_000 });
  const chosen = page.locator('button.prompt[data-prompt="args-prompt"]');
  await chosen.click();
  await page.locator('#prompt-arg-city').waitFor({ timeout: 10_000 });
  assert.equal(await chosen.getAttribute('aria-current'), 'true');
  assert.equal(await page.locator('button.prompt[aria-current="true"]').count(), 1);
  const [list, form] = await Promise.all(['.prompts > .list', '.prompts > .detail'].map((s) => page.locator(s).boundingBox()));
  assert.ok(form.x > list.x + list.width - 1 && Math.abs(form.y - list.y) < 2, JSON.stringify({ list, form }));
  // A required argument left empty is said so in the page; nothing is asked of the server.
  await page.locator('button.get-prompt').click();
  const required = page.locator('.prompt-runner .field:has(#prompt-arg-city) .field-error', { hasText: 'required' });
  await required.waitFor({ timeout: 5_000 });
  assert.equal(await page.locator('.prompt-runner .call-error').count(), 0);
  assert.equal(await page.locator('.prompt-runner .field:has(#prompt-arg-state) .field-error').count(), 0);
  assert.equal(await page.locator('#prompt-arg-city').getAttribute('aria-describedby'), 'prompt-arg-city-help');
  await page.locator('#prompt-arg-city').fill('Lisbon');
  await waitFor(async () => (await required.count()) === 0, 5_000, 'the error gone once the city is typed');
  await page.locator('button.get-prompt').click();
  await page.locator('.prompt-messages', { hasText: 'Lisbon' }).waitFor({ timeout: 10_000 });
  // The whole answer as JSON, as with a tool's result.
  await page.locator('.prompt-runner .raw-result summary').click();
  const answer = JSON.parse(await page.locator('.prompt-runner pre.raw-json').innerText());
  assert.equal(answer.messages[0].role, 'user');
  assert.equal(await page.locator('.prompt-messages .role').first().innerText(), 'user', 'the role as the spec writes it');
  assert.match(answer.messages[0].content.text, /Lisbon/);
  // Another tab and back: the prompt is still chosen, with its argument and its messages.
  await page.locator('#tab-logs').click();
  await page.locator('#tab-prompts').click();
  assert.equal(await page.locator('#prompt-arg-city').inputValue(), 'Lisbon');
  await page.locator('.prompt-messages', { hasText: 'Lisbon' }).waitFor({ timeout: 5_000 });
  assert.equal(await chosen.getAttribute('aria-current'), 'true');
  // Another prompt and back: each prompt's form keeps what was typed in it, and the answer
  // shows with the prompt it answers only.
  await page.locator('button.prompt[data-prompt="completable-prompt"]').click();
  await page.locator('#prompt-arg-department').fill('Marketing');
  assert.equal(await page.locator('.prompt-messages').count(), 0);
  await chosen.click();
  assert.equal(await page.locator('#prompt-arg-city').inputValue(), 'Lisbon');
  await page.locator('.prompt-messages', { hasText: 'Lisbon' }).waitFor({ timeout: 5_000 });
  await page.locator('button.prompt[data-prompt="completable-prompt"]').click();
  assert.equal(await page.locator('#prompt-arg-department').inputValue(), 'Marketing');
  assert.equal(await page.locator('.prompt-messages').count(), 0);
  // The list can be searched ("/" goes to its box), by name, title or description; the
  // chosen prompt stays open while the search hides it.
  assert.match(await page.locator('.prompts .count').innerText(), /^\d+ prompts$/);
  await page.locator('#tab-prompts').focus();
  await page.keyboard.press('/');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'prompt-search');
  await page.keyboard.type('embedded RESOURCE');
  await waitFor(async () => (await page.locator('button.prompt').count()) === 1, 5_000, 'one prompt found');
  assert.equal(await page.locator('button.prompt').getAttribute('data-prompt'), 'resource-prompt');
  assert.match(await page.locator('.prompts .count').innerText(), /^\d+ prompts · 1 found$/);
  assert.equal(await page.locator('#prompt-arg-department').inputValue(), 'Marketing');
  await page.locator('#prompt-search').fill('');
  await waitFor(async () => (await page.locator('button.prompt').count()) >= 4, 5_000, 'all prompts again');
});

test('the address follows the server shown, so that a reload comes back to it', async () => {
  const own = await context.newPage();
  own.on('pageerror', (e) => { throw e; });
  try {
    const address = (url) => `${site.url}/?url=${encodeURIComponent(url)}`;
    await own.goto(`${address(everything.url)}&tool=get-sum&args=${encodeURIComponent('{"a":1,"b":2}')}`);
    await waitFor(async () => (await own.locator('#arg-a').inputValue().catch(() => '')) === '1', 20_000, 'the form filled from the link');
    // The link has done its work: the address names the server only.
    await waitFor(async () => own.url() === address(everything.url), 5_000, `the server's address, not ${own.url()}`);
    const entries = await own.evaluate(() => history.length);
    // Another server, from the form: the address follows the one shown, and back.
    const nowhere = 'http://127.0.0.1:9/mcp';
    await own.locator('#server-url').fill(nowhere);
    await own.locator('#connect').click();
    await waitFor(async () => own.url() === address(nowhere), 5_000, `the second server's address, not ${own.url()}`);
    // One whose URL holds a credential stays out of the address (and so of the history).
    await own.locator('#server-url').fill(`${nowhere}?api_key=s3cret`);
    await own.locator('#connect').click();
    await own.locator('.connection-tab[title$="api_key=s3cret"]').waitFor({ timeout: 5_000 });
    await waitFor(async () => own.url() === `${site.url}/`, 5_000, `the page's own address, not ${own.url()}`);
    await own.locator('.connection-tab').first().click();
    await waitFor(async () => own.url() === address(everything.url), 5_000, `the first server's address, not ${own.url()}`);
    // No entry in the browser's history per server: Back leaves the app, as before.
    assert.equal(await own.evaluate(() => history.length), entries);
    await own.reload();
    await own.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
    assert.equal(await own.locator('.connection-tab').count(), 1);
    assert.equal(own.url(), address(everything.url));
    // The link's arguments went with it: the form is not filled again.
    await own.locator('button.tool[data-tool="get-sum"]').click();
    assert.equal(await own.locator('#arg-a').inputValue(), '');
    // With no server shown, the page's own address.
    await own.locator('button.close-connection').click();
    await waitFor(async () => own.url() === `${site.url}/`, 5_000, `the page's own address, not ${own.url()}`);
  } finally {
    await own.close();
  }
});

test('a link can read a resource: it opens the resources tab with the contents', async () => {
  await page.locator('#tab-resources').click();
  const first = page.locator('button.read-resource').first();
  const uri = await first.getAttribute('data-uri');
  await first.click();
  await page.locator('.resource-view .resource-contents .uri', { hasText: uri }).waitFor({ timeout: 10_000 });
  await page.locator('.resource-view .resource-link button').click();
  await page.locator('.resource-view .resource-link button', { hasText: 'Copied' }).waitFor({ timeout: 5_000 });
  const link = new URL(await page.evaluate(() => navigator.clipboard.readText()));
  assert.equal(link.href, `${site.url}/?url=${encodeURIComponent(everything.url)}&resource=${encodeURIComponent(uri)}`);
  const page2 = `${link.origin}${link.pathname}?url=${encodeURIComponent(everything.url)}`;
  const linked = await context.newPage();
  try {
    await linked.goto(link.href);
    await linked.locator('.resource-view .resource-contents .uri', { hasText: uri }).waitFor({ timeout: 20_000 });
    assert.equal(await linked.locator('#tab-resources').getAttribute('aria-selected'), 'true');
    assert.equal(await linked.locator(`button.read-resource[data-uri="${uri}"]`).getAttribute('aria-current'), 'true');
    assert.equal(await linked.locator('.resource-view h3').innerText(), await linked.locator(`button.read-resource[data-uri="${uri}"]`).innerText());
    // The whole answer as JSON, as with a tool's result.
    await linked.locator('.resource-view .raw-result summary').click();
    const answer = JSON.parse(await linked.locator('.resource-view pre.raw-json').innerText());
    assert.equal(answer.contents[0].uri, uri);
    assert.equal(answer.contents[0].mimeType, 'text/markdown');
    assert.ok((await linked.locator('.resource-view pre.resource-text').innerText()).startsWith(answer.contents[0].text.slice(0, 40)));
    // A URI of a template is read as well.
    await linked.goto(`${page2}&resource=${encodeURIComponent('demo://resource/dynamic/text/7')}`);
    await linked.locator('.resource-view .resource-contents .uri', { hasText: 'demo://resource/dynamic/text/7' }).waitFor({ timeout: 20_000 });
    // One the server does not have: its answer says so, and no link to it is offered.
    await linked.goto(`${page2}&resource=${encodeURIComponent('demo://resource/nothing-<b>here</b>')}`);
    await linked.locator('.resource-view .call-error').waitFor({ timeout: 20_000 });
    assert.equal(await linked.locator('.resource-view .call-error b').count(), 0);
    assert.equal(await linked.locator('.resource-view .resource-link').count(), 0);
    // Named beside a tool, the resource waits for its tab: the tool's form is shown first.
    await linked.goto(`${page2}&tool=get-sum&resource=${encodeURIComponent(uri)}`);
    await linked.locator('.runner .tool-name', { hasText: 'get-sum' }).waitFor({ timeout: 20_000 });
    await linked.locator('#tab-resources').click();
    await linked.locator('.resource-view .resource-contents .uri', { hasText: uri }).waitFor({ timeout: 10_000 });
  } finally {
    await linked.close();
  }
});

test('a link can open a prompt\'s form, filled, without asking for the prompt', async () => {
  await page.locator('#tab-prompts').click();
  await page.locator('button.prompt[data-prompt="args-prompt"]').click();
  await page.locator('#prompt-arg-city').fill('');
  await page.locator('#prompt-arg-state').fill('');
  // The link to the prompt is offered beside its name; the one with arguments once any is typed.
  await page.locator('.prompt-runner .prompt-link button').click();
  await page.locator('.prompt-runner .prompt-link button', { hasText: 'Copied' }).waitFor({ timeout: 5_000 });
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), `${site.url}/?url=${encodeURIComponent(everything.url)}&prompt=args-prompt`);
  assert.equal(await page.locator('.prompt-runner .call-link').count(), 0);
  await page.locator('#prompt-arg-city').fill('Zürich & "co" #1');
  await page.locator('.prompt-runner .call-link button').click();
  await page.locator('.prompt-runner .call-link button', { hasText: 'Copied' }).waitFor({ timeout: 5_000 });
  const link = new URL(await page.evaluate(() => navigator.clipboard.readText()));
  assert.equal(link.searchParams.get('prompt'), 'args-prompt');
  assert.deepEqual(JSON.parse(link.searchParams.get('args')), { city: 'Zürich & "co" #1' });
  await page.locator('#prompt-arg-city').fill('');
  const linked = await context.newPage();
  try {
    await linked.goto(link.href);
    await linked.locator('#prompt-arg-city').waitFor({ timeout: 20_000 });
    assert.equal(await linked.locator('#tab-prompts').getAttribute('aria-selected'), 'true');
    assert.equal(await linked.locator('button.prompt[data-prompt="args-prompt"]').getAttribute('aria-current'), 'true');
    assert.equal(await linked.locator('#prompt-arg-city').inputValue(), 'Zürich & "co" #1');
    // Not asked for: no messages and nothing under way; the page says where the values came from.
    assert.equal(await linked.locator('.prompt-messages').count(), 0);
    assert.equal(await linked.locator('.prompt-runner .reading').count(), 0);
    assert.match(await linked.locator('.prompt-runner .from-link').innerText(), /came with the link .* Nothing has been asked for/);
    await linked.locator('button.get-prompt').click();
    await linked.locator('.prompt-messages', { hasText: 'Zürich & "co" #1' }).waitFor({ timeout: 10_000 });
    assert.equal(await linked.locator('.prompt-runner .from-link').count(), 0, 'the notice goes with Get prompt');
    // Arguments that cannot go in the form say why, and none go in.
    await linked.goto(`${link.origin}${link.pathname}?url=${encodeURIComponent(everything.url)}&prompt=args-prompt&args=${encodeURIComponent('{"city":["<b>x</b>"],"state":"CA"}')}`);
    await linked.locator('.prompt-runner .from-link').waitFor({ timeout: 20_000 });
    assert.equal(await linked.locator('.prompt-runner .from-link').innerText(), 'The link that opened this page carried arguments for this prompt that cannot go in its form (“city” is not text), so none did. OK');
    assert.equal(await linked.locator('#prompt-arg-state').inputValue(), '');
    await linked.locator('.prompt-runner .from-link button.dismiss').click();
    assert.equal(await linked.locator('.prompt-runner .from-link').count(), 0);
    // Arguments that put nothing in the form are not announced.
    await linked.goto(`${link.origin}${link.pathname}?url=${encodeURIComponent(everything.url)}&prompt=args-prompt&args=${encodeURIComponent('{"city":null}')}`);
    await linked.locator('#prompt-arg-city').waitFor({ timeout: 20_000 });
    assert.equal(await linked.locator('.prompt-runner .from-link').count(), 0);
    // A prompt the server does not list says so once the list came.
    await linked.goto(`${link.origin}${link.pathname}?url=${encodeURIComponent(everything.url)}&prompt=args-prompt-renamed`);
    await linked.locator('.unlisted-prompt').waitFor({ timeout: 20_000 });
    assert.equal(await linked.locator('.unlisted-prompt').innerText(), 'This server lists no prompt named “args-prompt-renamed”. Choose a prompt.');
    assert.ok(await linked.locator('button.prompt[data-prompt="args-prompt"]').count() === 1, 'the prompts are listed');
  } finally {
    await linked.close();
  }
});

test('on a narrow screen what was chosen opens under the list and is brought into view; no tab is wider than the screen', async () => {
  const narrow = await context.newPage();
  narrow.on('pageerror', (e) => { throw e; });
  try {
    await narrow.setViewportSize({ width: 360, height: 800 });
    await narrow.goto(`${site.url}/?url=${encodeURIComponent(everything.url)}`);
    await narrow.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
    // Where the detail of a tab starts, from the window's top, and where its list ends.
    const where = (tab) => narrow.locator(`.${tab}.split`).evaluate((s) => ({
      list: s.querySelector(':scope > .list').getBoundingClientRect().bottom,
      detail: s.querySelector(':scope > .detail').getBoundingClientRect().top,
    }));
    const atTop = (tab, what) => waitFor(async () => Math.abs((await where(tab)).detail) < 1, 5_000, `${what} at the window's top`);
    const wide = async (tab) => {
      const [scroll, client] = await narrow.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
      assert.ok(scroll <= client, `the ${tab} tab is ${scroll - client} px wider than a 360 px screen`);
    };

    const sum = narrow.locator('button.tool[data-tool="get-sum"]');
    await sum.waitFor({ timeout: 10_000 });
    await wide('tools');
    // The form is under the list, below the window: choosing the tool brings it up.
    const before = await where('tools');
    assert.ok(before.detail >= before.list - 1 && before.detail > 800, JSON.stringify(before));
    await sum.focus();
    await narrow.keyboard.press('Enter');
    await narrow.locator('.runner .tool-name', { hasText: 'get-sum' }).waitFor();
    await atTop('tools', "get-sum's form");
    await wide('tools');
    // The focus went with it, to the form's heading: Tab goes on into the form, not down the
    // list (which would scroll back up to it).
    const focused = () => narrow.evaluate(() => ({ tag: document.activeElement.tagName, text: document.activeElement.textContent, inDetail: !!document.activeElement.closest('.detail') }));
    assert.deepEqual(await focused(), { tag: 'H3', text: 'Get Sum Tool', inDetail: true });
    await narrow.keyboard.press('Tab');
    assert.equal((await focused()).inDetail, true);
    await atTop('tools', "get-sum's form, still");

    await narrow.locator('#tab-prompts').click();
    const prompt = narrow.locator('button.prompt').first();
    await prompt.waitFor({ timeout: 10_000 });
    await wide('prompts');
    await prompt.click();
    await atTop('prompts', "a prompt's form");
    assert.equal((await focused()).tag, 'H3');

    await narrow.locator('#tab-resources').click();
    const resource = narrow.locator('button.read-resource').nth(2);
    await resource.waitFor({ timeout: 10_000 });
    // A resource's URI is cut on one line, not allowed to widen the page.
    await wide('resources');
    const uri = await resource.getAttribute('data-uri');
    await resource.click();
    await narrow.locator('.resource-view .resource-contents .uri', { hasText: uri }).waitFor({ timeout: 10_000 });
    // Brought up while still being read, and kept there once read.
    await atTop('resources', 'the resource read');
    await wide('resources');
    // Back up to a template, and its contents are brought up too.
    const form = narrow.locator('form.template').first();
    await form.scrollIntoViewIfNeeded();
    assert.ok((await where('resources')).detail > 100);
    await form.locator('input').first().fill('5');
    await form.locator('button[type=submit]').click();
    await narrow.locator('.resource-contents .uri', { hasText: '/5' }).first().waitFor({ timeout: 10_000 });
    await atTop('resources', "the template's resource");
    // No heading for a template's resource: the detail itself has the focus.
    assert.equal(await narrow.evaluate(() => document.activeElement.classList.contains('detail')), true);

    for (const tab of ['tasks', 'logs', 'settings']) {
      await narrow.locator(`#tab-${tab}`).click();
      await narrow.locator(`#tab-${tab}[aria-selected="true"]`).waitFor();
      await wide(tab);
    }
  } finally {
    await narrow.close();
  }
});

test('completes a prompt argument narrowed by the one filled in before', async () => {
  await page.locator('#tab-prompts').click();
  await page.locator('button.prompt[data-prompt="completable-prompt"]').click();
  const options = (id) => page.locator(`#${id}-list option`).evaluateAll((os) => os.map((o) => o.value));
  await page.locator('#prompt-arg-department').fill('Sa');
  await waitFor(async () => (await options('prompt-arg-department')).join() === 'Sales', 10_000, 'department suggestions');
  await page.locator('#prompt-arg-department').fill('Sales');
  // The server only suggests team members of the department sent as context.
  await page.locator('#prompt-arg-name').fill('');
  await page.locator('#prompt-arg-name').pressSequentially('E');
  await waitFor(async () => (await options('prompt-arg-name')).join() === 'Eve', 10_000, 'name suggestions from the Sales team');
  await page.locator('#prompt-arg-name').fill('Eve');
  await page.locator('button.get-prompt').click();
  await page.locator('.prompt-messages', { hasText: 'Please promote Eve to the head of the Sales team.' }).waitFor({ timeout: 10_000 });
});

test('logs every message on the wire and exports it', async () => {
  await page.locator('#tab-logs').click();
  const lines = await page.locator('ol.wire li').count();
  assert.ok(lines > 5, `${lines} wire lines`);
  await page.locator('#wire-filter').fill('tools/call');
  await waitFor(async () => (await page.locator('ol.wire li').count()) < lines, 5_000, 'filtered');
  // Each line says when; an answer also how long after its request it came.
  assert.match(await page.locator('ol.wire li .at').first().innerText(), /^\d\d:\d\d:\d\d\.\d{3}$/);
  await page.locator('#wire-filter').fill('"result"');
  assert.match(await page.locator('ol.wire li:not(.sent) .took').first().innerText(), /^\d+ ms$/);
  await page.locator('#wire-filter').fill('tools/call');
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('button.export').click()]);
  const file = await download.path();
  const lines2 = fs.readFileSync(file, 'utf8').split('\n').map((l) => JSON.parse(l));
  assert.equal(lines2[0].direction, 'sent');
  assert.equal(lines2[0].message.jsonrpc, '2.0');
  assert.equal(lines2[0].headers['Content-Type'], 'application/json');
  // The first answer is the 2025-era server refusing the era probe (server/discover): HTTP 400
  // with a JSON-RPC error, logged like any other answer.
  const refusal = lines2.find((l) => l.direction === 'received');
  assert.equal(refusal.status, 400);
  assert.equal(lines2[0].message.method, 'server/discover');
  assert.ok(refusal.message.error, JSON.stringify(refusal.message));
  const received = lines2.find((l) => l.direction === 'received' && l.status === 200);
  assert.ok(received, 'an answer with HTTP 200');
  assert.ok(Object.keys(received.headers).some((h) => h.toLowerCase() === 'content-type'));
  // Times in the export: when each message was logged, how long each answer took.
  assert.ok(lines2.every((l) => Number.isFinite(l.atMs) && l.atMs > 1.7e12), 'atMs on every line');
  assert.ok(lines2.some((l) => l.direction === 'received' && Number.isFinite(l.tookMs)), 'tookMs on answers');
  // A call we sent, copied as a curl command: run by a real shell and curl, it is the same
  // call again (same session, same headers), answered by the server.
  await page.locator('#wire-filter').fill('"name":"echo"');
  const sentCall = page.locator('ol.wire li.sent', { hasText: '"method":"tools/call"' }).first();
  await sentCall.locator('.copy-curl button').click();
  await sentCall.locator('.copy-curl button', { hasText: 'Copied' }).waitFor({ timeout: 5_000 });
  const curl = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(curl, /^curl -sS -N -X POST '/);
  const echoed = execFileSync('sh', ['-c', curl], { encoding: 'utf8', timeout: 10_000 });
  assert.match(echoed, /"text":"Echo: /);
  // Cleared: the earlier messages and notes are gone (new ones may come at any time).
  await page.locator('#wire-filter').fill('');
  const probe = page.locator('ol.wire li', { hasText: '"method":"server/discover"' });
  assert.equal(await probe.count(), 1);
  await page.locator('button.clear-wire').click();
  await waitFor(async () => (await probe.count()) === 0, 5_000, 'the wire log cleared');
  const roots = page.locator('ul.notifications li', { hasText: 'Roots updated' });
  assert.ok((await roots.count()) > 0);
  await page.locator('button.clear-notes').click();
  await waitFor(async () => (await roots.count()) === 0, 5_000, 'the notes cleared');
});

test('closes a connection: its tab goes, its session is ended on the server, and the one left is shown', async () => {
  const deleted = [];
  const onRequest = (r) => { if (r.method() === 'DELETE') deleted.push(r.headers()['mcp-session-id']); };
  page.on('request', onRequest);
  try {
    const tabs = page.locator('.connections .connection');
    assert.equal(await tabs.count(), 1);
    await page.locator('#server-url').fill(everything.url);
    await page.locator('#connect').click();
    await waitFor(async () => (await tabs.count()) === 2, 10_000, 'a second connection');
    assert.equal(await tabs.nth(1).locator('.connection-tab').getAttribute('aria-current'), 'true');
    await page.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
    await tabs.nth(1).locator('button.close-connection').click();
    await waitFor(async () => (await tabs.count()) === 1, 10_000, 'the closed tab to go');
    assert.equal(await tabs.first().locator('.connection-tab').getAttribute('aria-current'), 'true');
    await page.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 10_000 });
    // The first connection still works.
    await page.locator('#tab-tools').click();
    await openTool('echo');
    await page.locator('#arg-message').fill('still here');
    await page.locator('button.run').click();
    await page.locator('.runner .result', { hasText: 'Echo: still here' }).waitFor({ timeout: 10_000 });
    await waitFor(() => deleted.length === 1, 10_000, 'the closed session to be deleted');
    assert.ok(deleted[0], 'the DELETE names its session');
  } finally {
    page.off('request', onRequest);
  }
});

test('remembers the era of a server and skips the probe next time', async () => {
  const again = await context.newPage();
  await again.goto(`${site.url}/?url=${encodeURIComponent(everything.url)}`);
  await again.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
  await again.locator('#tab-logs').click();
  const first = await again.locator('ol.wire li').last().innerText();
  assert.match(first, /"method":"initialize"/, 'the first message is initialize, not server/discover');
  await again.close();
});

test('the colours can be chosen (as the system, light, dark) and are kept for the next visit', async () => {
  const background = (p) => p.evaluate(() => getComputedStyle(document.body).backgroundColor);
  // This browser's system scheme is light.
  assert.equal(await page.locator('#theme').inputValue(), 'system');
  assert.equal(await background(page), 'rgb(255, 255, 255)');
  await page.locator('#theme').selectOption('dark');
  assert.equal(await background(page), 'rgb(13, 17, 23)');
  const next = await context.newPage();
  try {
    await next.goto(site.url);
    await next.locator('#theme').waitFor({ timeout: 20_000 });
    assert.equal(await next.locator('#theme').inputValue(), 'dark');
    assert.equal(await background(next), 'rgb(13, 17, 23)');
  } finally {
    await next.close();
  }
  await page.locator('#theme').selectOption('system');
  assert.equal(await background(page), 'rgb(255, 255, 255)');
  assert.equal(await page.evaluate(() => localStorage.getItem('mcp-browser-client.theme')), null);
});

test('a deep link can name the tool to open', async () => {
  // The link is offered beside the tool's name.
  await openTool('get-sum');
  await page.locator('.runner .tool-link button').click();
  await page.locator('.runner .tool-link button', { hasText: 'Copied' }).waitFor({ timeout: 5_000 });
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(link, `${site.url}/?url=${encodeURIComponent(everything.url)}&tool=get-sum`);
  const linked = await context.newPage();
  await linked.goto(link);
  await linked.locator('.runner .tool-name', { hasText: 'get-sum' }).waitFor({ timeout: 20_000 });
  assert.equal(await linked.locator('button.tool[data-tool="get-sum"]').getAttribute('aria-current'), 'true');
  await linked.close();
  // A link to a call: offered once the form holds arguments it can send; it opens the form
  // filled with them, and nothing is sent until Run.
  await page.locator('#arg-a').fill('');
  await page.locator('#arg-b').fill('');
  assert.equal(await page.locator('.runner .call-link').count(), 0);
  await page.locator('#arg-a').fill('2');
  await page.locator('#arg-b').fill('3.5');
  await page.locator('.runner .call-link button').click();
  await page.locator('.runner .call-link button', { hasText: 'Copied' }).waitFor({ timeout: 5_000 });
  const callLink = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(new URL(callLink).searchParams.get('tool'), 'get-sum');
  assert.deepEqual(JSON.parse(new URL(callLink).searchParams.get('args')), { a: 2, b: 3.5 });
  const call = await context.newPage();
  await call.goto(callLink);
  await call.locator('.runner .tool-name', { hasText: 'get-sum' }).waitFor({ timeout: 20_000 });
  await waitFor(async () => (await call.locator('#arg-a').inputValue()) === '2', 10_000, 'the form filled from the link');
  assert.equal(await call.locator('#arg-b').inputValue(), '3.5');
  // Not called: no result, and no call under way; the page says where the arguments came from.
  assert.equal(await call.locator('.runner .result').count(), 0);
  assert.equal(await call.locator('.runner button.cancel').count(), 0);
  assert.match(await call.locator('.runner .from-link').innerText(), /came with the link .* Nothing has been sent/);
  await call.locator('button.run').click();
  await call.locator('.runner .result', { hasText: '5.5' }).waitFor({ timeout: 10_000 });
  assert.equal(await call.locator('.runner .from-link').count(), 0, 'the notice goes with Run');
  // Arguments that are no JSON object are shown as the link gave them, in the raw JSON box.
  await call.goto(`${site.url}/?url=${encodeURIComponent(everything.url)}&tool=get-sum&args=${encodeURIComponent('[1, "<b>x</b>"')}`);
  await call.locator('.runner textarea.raw').waitFor({ timeout: 20_000 });
  await waitFor(async () => (await call.locator('.runner textarea.raw').inputValue()) === '[1, "<b>x</b>"', 10_000, 'the raw JSON from the link');
  assert.equal(await call.locator('.runner .raw-toggle input').isChecked(), true);
  await call.locator('.runner .from-link button.dismiss').click();
  assert.equal(await call.locator('.runner .from-link').count(), 0);
  await call.close();
  await page.locator('#arg-a').fill('');
  await page.locator('#arg-b').fill('');
  // A link naming a tool the server does not list says so once the list came.
  const stale = await context.newPage();
  await stale.goto(`${site.url}/?url=${encodeURIComponent(everything.url)}&tool=${encodeURIComponent('get-sum-renamed')}`);
  await stale.locator('.unlisted-tool').waitFor({ timeout: 20_000 });
  assert.equal(await stale.locator('.unlisted-tool').innerText(), 'This server lists no tool named “get-sum-renamed”. Choose a tool.');
  assert.ok(await stale.locator('button.tool[data-tool="get-sum"]').count() === 1, 'the tools are listed');
  // Choosing a listed tool opens it, and the words go.
  await stale.locator('button.tool[data-tool="get-sum"]').click();
  await stale.locator('.runner .tool-name', { hasText: 'get-sum' }).waitFor({ timeout: 10_000 });
  assert.equal(await stale.locator('.unlisted-tool').count(), 0);
  await stale.close();
});

test('leaving the app ends the session: the call under way is cancelled on the server and the session deleted as the page unloads', async () => {
  const root = path.resolve(here, '../..');
  const server = `${root}/tests/node_modules/@modelcontextprotocol/server-everything/dist/index.js`;
  // Preflights never cached, so that the cancel and the DELETE each wait for one.
  const proxy = await startPeer('fault_proxy.mjs', ['--uncached-preflights', '--', 'node', '-r', `${root}/tests/peers/loopback.cjs`, server, 'streamableHttp']);
  const base = proxy.url.replace(/\/mcp$/, '');
  const own = await browser.newContext();
  try {
    const leaving = await own.newPage();
    await leaving.goto(`${site.url}/?url=${encodeURIComponent(proxy.url)}&tool=echo`);
    await leaving.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
    await leaving.locator('.runner .tool-name', { hasText: 'echo' }).waitFor({ timeout: 10_000 });
    await leaving.locator('#arg-message').fill('never answered');
    await leaveWithCallUnderWay(leaving, base, () => leaving.locator('button.run').click(), 'the app left');
  } finally {
    await own.close();
    proxy.stop();
  }
});

test('a first visit to a 2025-era server lists the tools in the session, whatever the tool list sent alongside the era probe got', async () => {
  // The probe's answer (a refusal) is held back by the proxy; the tool list sent alongside it
  // is refused by server-everything meanwhile (no session). Once the probe is answered the
  // app starts the session and lists the tools in it.
  const root = path.resolve(here, '../..');
  const server = `${root}/tests/node_modules/@modelcontextprotocol/server-everything/dist/index.js`;
  const proxy = await startPeer('fault_proxy.mjs', ['--', 'node', '-r', `${root}/tests/peers/loopback.cjs`, server, 'streamableHttp']);
  const base = proxy.url.replace(/\/mcp$/, '');
  const own = await browser.newContext(); // nothing remembered
  const seen = async () => (await (await fetch(`${base}/__log`)).json());
  try {
    const hold = await fetch(`${base}/__fault`, { method: 'POST', body: JSON.stringify({ kind: 'hold', method: 'server/discover' }) });
    assert.equal(hold.ok, true);
    const fresh = await own.newPage();
    const crashes = [];
    fresh.on('pageerror', (e) => crashes.push(String(e)));
    await fresh.goto(`${site.url}/?url=${encodeURIComponent(proxy.url)}`);
    await waitFor(async () => (await seen()).includes('tools/list'), 20_000, 'the tool list sent alongside the probe');
    assert.ok(!(await seen()).includes('initialize'), 'no session yet');
    assert.equal(await fresh.locator('#connection-state').innerText(), 'connecting');
    assert.equal((await fetch(`${base}/__release`, { method: 'POST' })).ok, true);
    await fresh.locator('button.tool[data-tool="echo"]').waitFor({ timeout: 20_000 });
    assert.match(await fresh.locator('.server-head').innerText(), /Legacy era · 2025-/);
    const log = await seen();
    const lists = log.flatMap((m, i) => (m === 'tools/list' ? [i] : []));
    assert.equal(lists.length, 2, `alongside the probe, then in the session: ${JSON.stringify(log)}`);
    assert.ok(lists[0] < log.indexOf('initialize') && log.indexOf('initialize') < lists[1], JSON.stringify(log));
    assert.deepEqual(crashes, []);
  } finally {
    await own.close();
    proxy.stop();
  }
});
