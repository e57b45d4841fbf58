// Accessibility: axe-core (npm, pinned) audits the app in headless Chromium against the real
// npm server-everything, in light and dark colour schemes, in each tab and with the server's
// questions open. Every violation axe reports (WCAG 2 A/AA and its best practices) fails the
// test, with what and where.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { accessibilityViolations as violations, launch, serveDir, startPeer } from './browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, '../../dist');
let browser, site, everything;

before(async () => {
  site = await serveDir(dist);
  everything = await startPeer('everything.sh', ['streamableHttp']);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  everything?.stop();
  await site?.close();
});

/** The tool named `name` opened in the tools tab, its fields filled (`#arg-<key>`: a string
 * is typed, `true`/`false` checks or unchecks), and run. */
async function runTool(page, name, fields = {}) {
  await page.locator('#tab-tools').click();
  await page.locator(`button.tool[data-tool="${name}"]`).click();
  await page.locator('.runner .tool-name', { hasText: name }).waitFor();
  for (const [key, value] of Object.entries(fields)) {
    const field = page.locator(`#arg-${key}`);
    if (typeof value === 'boolean') await field.setChecked(value);
    else await field.fill(value);
  }
  await page.locator('button.run').click();
}

/** Each state audited: how to get there, what shows it is there, and how to leave it (a
 * question answered, so that the next one is alone on the page). */
const STATES = [
  ['tools, a result', (p) => runTool(p, 'echo', { message: 'hello' }), '.runner .result'],
  ['a form that refused what was typed', (p) => runTool(p, 'get-sum'), '.runner .field-error'],
  ['a sampling request', (p) => runTool(p, 'trigger-sampling-request', { prompt: 'What is MCP?' }), '.ask.sampling', '.ask.sampling button.reject'],
  ['an elicitation form', (p) => runTool(p, 'trigger-elicitation-request'), 'form.ask.elicitation', 'form.ask.elicitation button.decline'],
  ['a URL to open', (p) => runTool(p, 'trigger-url-elicitation', { url: 'https://example.com/consent' }), '.ask.url', '.ask.url button.decline'],
  ['a call refused until a page is opened (-32042)', (p) => runTool(p, 'trigger-url-elicitation', { errorPath: true }), '.runner .url-required'],
  ['a tool running as a task', (p) => runTool(p, 'simulate-research-query', { topic: 'reefs', ambiguous: false }), '.runner .task-status'],
  ['the tasks tab with that task', (p) => p.locator('#tab-tasks').click(), 'tr.task'],
  ['resources, one read', async (p) => {
    await p.locator('#tab-resources').click();
    await p.locator('button.read-resource').first().click();
  }, '.resource-contents'],
  ['prompts, one got', async (p) => {
    await p.locator('#tab-prompts').click();
    await p.locator('button.prompt[data-prompt="simple-prompt"]').click();
    await p.locator('.prompts .detail button.get-prompt').click();
  }, '.prompts .detail .prompt-messages'],
  ['logs', (p) => p.locator('#tab-logs').click(), 'ol.wire li'],
  ['settings', (p) => p.locator('#tab-settings').click(), '#tab-settings[aria-selected="true"]'],
];

for (const colorScheme of ['light', 'dark']) {
  test(`no accessibility violations in any tab or question (${colorScheme})`, async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, colorScheme });
    const page = await context.newPage();
    page.on('pageerror', (e) => { throw e; });
    const found = [];
    try {
      await page.goto(site.url);
      await page.locator('#server-url').waitFor({ timeout: 20_000 });
      found.push(...await violations(page, 'connect form'));
      await page.goto(`${site.url}/?url=${encodeURIComponent(everything.url)}`);
      await page.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
      for (const [label, reach, shown, leave] of STATES) {
        await reach(page);
        await page.locator(shown).first().waitFor({ timeout: 10_000 });
        found.push(...await violations(page, label));
        if (leave) await page.locator(leave).click();
      }
    } finally {
      await context.close();
    }
    assert.deepEqual(found, []);
  });
}
