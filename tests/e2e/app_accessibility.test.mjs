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

async function openTool(page, name) {
  await page.locator(`button.tool[data-tool="${name}"]`).click();
  await page.locator('.runner .tool-name', { hasText: name }).waitFor();
}

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
      await openTool(page, 'echo');
      await page.locator('#arg-message').fill('hello');
      await page.locator('button.run').click();
      await page.locator('.runner .result', { hasText: 'Echo: hello' }).waitFor({ timeout: 10_000 });
      // A form that refused what was typed: its error shown beside the field.
      await openTool(page, 'get-sum');
      await page.locator('button.run').click();
      await page.locator('.runner .field-error').first().waitFor({ timeout: 5_000 });
      found.push(...await violations(page, 'tools, a result and a refused form'));

      // The server's questions: sampling, then an elicitation form.
      await openTool(page, 'trigger-sampling-request');
      await page.locator('#arg-prompt').fill('What is MCP?');
      await page.locator('button.run').click();
      await page.locator('.ask.sampling').waitFor({ timeout: 10_000 });
      found.push(...await violations(page, 'a sampling request'));
      await page.locator('.ask.sampling button.reject').click();
      await openTool(page, 'trigger-elicitation-request');
      await page.locator('button.run').click();
      await page.locator('form.ask.elicitation').waitFor({ timeout: 10_000 });
      found.push(...await violations(page, 'an elicitation form'));
      await page.locator('form.ask.elicitation button.decline').click();
      await openTool(page, 'trigger-url-elicitation');
      await page.locator('#arg-url').fill('https://example.com/consent');
      await page.locator('button.run').click();
      await page.locator('.ask.url').waitFor({ timeout: 10_000 });
      found.push(...await violations(page, 'a URL to open'));
      await page.locator('.ask.url button.decline').click();
      // A call refused until a web page is opened (-32042).
      await page.locator('#arg-errorPath').check();
      await page.locator('button.run').click();
      await page.locator('.runner .url-required').waitFor({ timeout: 10_000 });
      found.push(...await violations(page, 'a call refused until a page is opened'));

      await page.locator('#tab-resources').click();
      await page.locator('button.read-resource').first().click();
      await page.locator('.resource-contents').first().waitFor({ timeout: 10_000 });
      found.push(...await violations(page, 'resources, one read'));

      await page.locator('#tab-prompts').click();
      await page.locator('button.prompt[data-prompt="simple-prompt"]').click();
      await page.locator('.prompts .detail button.get-prompt').click();
      await page.locator('.prompts .detail .prompt-messages').waitFor({ timeout: 10_000 });
      found.push(...await violations(page, 'prompts, one got'));

      // A tool that runs as a task: its status in the runner, then in the tasks tab.
      await page.locator('#tab-tools').click();
      await openTool(page, 'simulate-research-query');
      await page.locator('#arg-topic').fill('reefs');
      await page.locator('#arg-ambiguous').uncheck();
      await page.locator('button.run').click();
      await page.locator('.runner .task-status').waitFor({ timeout: 10_000 });
      found.push(...await violations(page, 'a tool running as a task'));

      for (const tab of ['tasks', 'logs', 'settings']) {
        await page.locator(`#tab-${tab}`).click();
        await page.locator(`#tab-${tab}[aria-selected="true"]`).waitFor();
        await page.locator('[role="tabpanel"]').first().waitFor();
        if (tab === 'tasks') await page.locator('tr.task').first().waitFor({ timeout: 10_000 });
        found.push(...await violations(page, tab));
      }
    } finally {
      await context.close();
    }
    assert.deepEqual(found, []);
  });
}
