// The app against a 2026-07-28 server that answers tool calls with tasks (the Tasks extension,
// `io.modelcontextprotocol/tasks`; tests/peers/tasks_server.py, on the PyPI `mcp` 2.x SDK):
// the call shows the task's state while it works and then its result; a task that waits for
// the person shows their question and goes on with the answer; a failed task shows its error;
// cancelling the call cancels the task on the server; calls still running as tasks are
// followed again after a reload; one tab of the browser follows a task at a time, and keeps
// it right in storage when another tab writes over a lagging copy.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appConnectedTo, taskStatusOnServer, viewFrame, waitFor } from './browser.mjs';

let app, page;

before(async () => {
  app = await appConnectedTo('tasks.sh');
  page = app.page;
});
after(async () => {
  await app?.close();
});

async function run(name, fill = async () => {}) {
  await page.locator('#tab-tools').click();
  await page.locator(`button.tool[data-tool="${name}"]`).click();
  await page.locator('.runner .tool-name', { hasText: name }).waitFor();
  await fill();
  await page.locator('button.run').click();
}

const wire = (text) => page.locator('.logs .wire li', { hasText: text });

/** Waits until no page of the browser holds or waits for a task's lock (seen from `p`). */
async function everyTaskLockReleased(p) {
  const free = await waitFor(() => p.evaluate(async () => {
    // (The streams to the server hold locks of their own, named `mcp-stream …`.)
    const tasks = (locks) => locks.filter((l) => l.name.startsWith('mcp-browser-client.task '));
    const { held, pending } = await navigator.locks.query();
    return tasks(held).length === 0 && tasks(pending).length === 0;
  }), 10_000, 'every task lock released');
  assert.ok(free);
}

/** Shows the run of report in the tools tab, waits for the result its call with `seconds`
 * came to, and for the call in the history. */
async function reportCameTo(seconds) {
  await page.locator('#tab-tools').click();
  await page.locator('button.tool[data-tool="report"]').click();
  const result = page.locator('.runner .result');
  await result.waitFor({ timeout: 20_000 });
  assert.match(await result.innerText(), new RegExp(`report ready after ${seconds} s`));
  await page.locator('.history-list li', { hasText: `report {"seconds":${seconds}} → ok` }).waitFor({ timeout: 5_000 });
}

test('the client declares the extension, and the server advertises it', async () => {
  await page.locator('#tab-logs').click();
  // Every request of the modern era carries the client's capabilities.
  await wire(/"io\.modelcontextprotocol\/clientCapabilities":\{.*"extensions":\{.*"io\.modelcontextprotocol\/tasks":\{\}/).first().waitFor({ timeout: 10_000 });
  // The server/discover answer.
  await wire('"capabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}').first().waitFor({ timeout: 10_000 });
  await page.locator('#tab-tools').click();
});

test('a tool call answered with a task shows the task working, then the result it came to', async () => {
  await run('report', () => page.locator('.runner input#arg-seconds').fill('2'));
  await page.locator('.runner .task-status', { hasText: /^Task working: step \d of 4$/ }).waitFor({ timeout: 10_000 });
  // The tool list marks the tool while its call is under way.
  const hint = page.locator('button.tool[data-tool="report"] .hint.running');
  await hint.waitFor({ timeout: 5_000 });
  const result = page.locator('.runner .result');
  await result.waitFor({ timeout: 15_000 });
  assert.match(await result.innerText(), /report ready after 2 s/);
  await hint.waitFor({ state: 'detached', timeout: 5_000 });
  assert.equal(await page.locator('.runner .task-status').count(), 0, 'the state goes once the result is in');
  // It was followed with tasks/get (never tasks/result, which the extension does not have).
  await page.locator('#tab-logs').click();
  assert.ok(await wire('"method":"tasks/get"').count() >= 1);
  assert.equal(await wire('"method":"tasks/result"').count(), 0);
  await page.locator('#tab-tools').click();
});

test('a task waiting for the person shows the question; the answer goes with tasks/update and the task completes', async () => {
  await run('approve', () => page.locator('.runner #arg-item').fill('the budget'));
  const form = page.locator('form.ask.elicitation');
  await form.waitFor({ timeout: 10_000 });
  assert.match(await form.innerText(), /Approve the budget\?/);
  await page.locator('.runner .task-status', { hasText: 'Task input_required: waiting for approval' }).waitFor({ timeout: 10_000 });
  await form.locator('#arg-approved').check();
  await form.locator('button.accept').click();
  const result = page.locator('.runner .result');
  await result.waitFor({ timeout: 15_000 });
  assert.match(await result.innerText(), /the budget: approved/);
  // Asked once, although every poll repeated the request until it was answered.
  assert.equal(await page.locator('form.ask.elicitation').count(), 0);
  await page.locator('#tab-logs').click();
  await wire('"method":"tasks/update"').first().waitFor({ timeout: 5_000 });
  assert.equal(await wire('"method":"tasks/update"').count(), 1);
  await page.locator('#tab-tools').click();
});

test('a failed task shows the JSON-RPC error it ended with', async () => {
  await run('fail');
  const error = page.locator('.runner .call-error');
  await error.waitFor({ timeout: 15_000 });
  assert.match(await error.innerText(), /the report service is down/);
});

test('cancelling the call cancels its task on the server, and the call ends at once', async () => {
  await run('forever');
  await page.locator('.runner .task-status', { hasText: /^Task working/ }).waitFor({ timeout: 10_000 });
  await page.locator('.runner button.cancel').click();
  await page.locator('.runner .task-status').waitFor({ state: 'detached', timeout: 5_000 });
  await page.locator('#tab-logs').click();
  await wire('"method":"tasks/cancel"').first().waitFor({ timeout: 5_000 });
  // The server's answer: the task is cancelled there.
  const id = (await wire('"method":"tasks/cancel"').first().innerText()).match(/"taskId":"([^"]+)"/)[1];
  await page.locator('#tab-tools').click();
  const state = await taskStatusOnServer(page, app.peer.url, id, 'cancelled');
  assert.equal(state, 'cancelled');
});

test('calls still running as tasks when the page is reloaded are followed again to their results (a View too); a kept task the server forgot says so', async () => {
  await run('report', () => page.locator('.runner input#arg-seconds').fill('4'));
  await page.locator('.runner .task-status', { hasText: /^Task working/ }).waitFor({ timeout: 10_000 });
  await run('chart', () => page.locator('.runner input#arg-seconds').fill('4'));
  await page.locator('.runner .task-status', { hasText: /^Task working/ }).waitFor({ timeout: 10_000 });
  await viewFrame(page);
  // The tasks are kept in the browser while they run (under the server's URL).
  const kept = await waitFor(async () => {
    const doc = JSON.parse(await page.evaluate(() => localStorage.getItem('mcp-browser-client.tasks')) || '{}');
    const [url, entry] = Object.entries(doc)[0] || [];
    return entry?.tasks?.length === 2 ? { url, tasks: entry.tasks } : null;
  }, 5_000, 'the tasks kept in the browser');
  assert.deepEqual(kept.tasks.map((t) => [t.tool, t.arguments]), [['report', { seconds: 4 }], ['chart', { seconds: 4 }]]);
  // A task of an earlier visit that the server no longer knows.
  await page.evaluate(({ url, tasks }) => {
    const gone = { taskId: 'gone-since', tool: 'echo', arguments: { message: 'hi' }, at: Date.now() };
    localStorage.setItem('mcp-browser-client.tasks', JSON.stringify({ [url]: { used: Date.now(), tasks: [...tasks, gone] } }));
  }, kept);
  await page.reload();
  await page.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
  // Said in the log, and the first of them chosen, so that it shows at once.
  await page.locator('#tab-logs').click();
  await page.locator('ul.notifications li', { hasText: 'following again the calls of an earlier visit still running as tasks: report, chart, echo' }).waitFor({ timeout: 10_000 });
  await page.locator('#tab-tools').click();
  await page.locator('button.tool[data-tool="report"][aria-current="true"]').waitFor({ timeout: 5_000 });
  // Its form holds the call's arguments again (not the schema's default, 1).
  assert.equal(await page.locator('.runner input#arg-seconds').inputValue(), '4');
  // Under way again (its state, unless it is over already), then the result it came to.
  const result = page.locator('.runner .result');
  await page.locator('.runner .task-status', { hasText: /^Task working/ }).or(result).first().waitFor({ timeout: 10_000 });
  await result.waitFor({ timeout: 15_000 });
  assert.match(await result.innerText(), /report ready after 4 s/);
  // The tool with an MCP App shows the result in a new View.
  await page.locator('button.tool[data-tool="chart"]').click();
  const { frame } = await viewFrame(page);
  await waitFor(async () => (await frame.locator('#chart').innerText()) === 'view got: chart ready after 4 s', 15_000, 'the View fed the result');
  // The forgotten one ends with the server's refusal, in its tool's run.
  await page.locator('button.tool[data-tool="echo"]').click();
  const error = page.locator('.runner .call-error');
  await error.waitFor({ timeout: 10_000 });
  assert.match(await error.innerText(), /no task gone-since/);
  // All are in the history (the report's time from the first Run), and none is kept any
  // longer.
  const report = page.locator('.history-list li', { hasText: 'report {"seconds":4} → ok' });
  await report.waitFor({ timeout: 5_000 });
  await page.locator('.history-list li', { hasText: 'echo {"message":"hi"}' }).waitFor({ timeout: 5_000 });
  // Once each: the reload that cut the calls short is not an end of theirs.
  const history = await page.locator('.history-list li').allInnerTexts();
  assert.equal(history.filter((h) => h.includes('report {"seconds":4}')).length, 1, history.join('\n'));
  assert.equal(history.filter((h) => h.includes('chart {"seconds":4}')).length, 1, history.join('\n'));
  const took = await report.locator('.took').innerText();
  const secs = took.match(/(\d+\.\d) s/);
  assert.ok(secs && parseFloat(secs[1]) >= 4, `from the first Run: ${took}`);
  const left = await page.evaluate(() => localStorage.getItem('mcp-browser-client.tasks'));
  assert.equal(left, '{}');
});

test('a call running as a task when its connection is closed is not recorded as ended; opened again, the server is followed to the result, recorded once', async () => {
  await run('report', () => page.locator('.runner input#arg-seconds').fill('5'));
  await page.locator('.runner .task-status', { hasText: /^Task working/ }).waitFor({ timeout: 10_000 });
  const tabs = page.locator('.connections .connection');
  assert.equal(await tabs.count(), 1);
  await tabs.first().locator('button.close-connection').click();
  await waitFor(async () => (await tabs.count()) === 0, 10_000, 'the closed tab to go');
  // Its view goes once its View (chart's, of the test before) has torn down.
  await waitFor(async () => (await page.locator('#connection-state').count()) === 0, 10_000, 'the closed server view to go');
  // Still kept: the task runs on in the server.
  const kept = await page.evaluate(() => localStorage.getItem('mcp-browser-client.tasks'));
  assert.match(kept, /"tool":"report","arguments":\{"seconds":5\}/);
  await page.locator('#server-url').fill(app.peer.url);
  await page.locator('#connect').click();
  await page.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
  await page.locator('#tab-logs').click();
  await page.locator('ul.notifications li', { hasText: 'following again the calls of an earlier visit still running as tasks: report' }).waitFor({ timeout: 10_000 });
  await reportCameTo(5);
  // The close was not an end of the call: no "the session is closed" entry beside it.
  const history = await page.locator('.history-list li').allInnerTexts();
  assert.deepEqual(history.filter((h) => h.includes('report {"seconds":5}')).map((h) => h.split(' → ')[1].split(' · ')[0]), ['ok'], history.join('\n'));
  assert.equal(await page.evaluate(() => localStorage.getItem('mcp-browser-client.tasks')), '{}');
});

test('a second connection to the same server in the same tab leaves a task the first follows alone, and says so in words that fit', async () => {
  await run('report', () => page.locator('.runner input#arg-seconds').fill('6'));
  await page.locator('.runner .task-status', { hasText: /^Task working/ }).waitFor({ timeout: 10_000 });
  const tabs = page.locator('.connections .connection');
  assert.equal(await tabs.count(), 1);
  await page.locator('#server-url').fill(app.peer.url);
  await page.locator('#connect').click();
  await waitFor(async () => (await tabs.count()) === 2, 10_000, 'a second connection');
  try {
    const shown = page.locator('.server-slot:not([hidden])');
    await shown.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
    await shown.locator('#tab-logs').click();
    await shown.locator('ul.notifications li', { hasText: 'calls still running as tasks that another connection of this browser follows (in another tab, or in this one): report (followed here if that connection closes)' }).waitFor({ timeout: 10_000 });
    // The first connection follows it to its end; the second never does.
    await tabs.first().locator('.connection-tab').click();
    await reportCameTo(6);
    await tabs.nth(1).locator('.connection-tab').click();
    await shown.locator('#tab-logs').click();
    await everyTaskLockReleased(page);
    assert.equal(await shown.locator('.logs .wire li', { hasText: '"method":"tasks/get"' }).count(), 0);
    assert.equal(await shown.locator('ul.notifications li', { hasText: 'following again' }).count(), 0);
  } finally {
    await tabs.nth(1).locator('button.close-connection').click();
    await waitFor(async () => (await tabs.count()) === 1, 10_000, 'the second connection to go');
    await page.locator('#connection-state').waitFor({ timeout: 10_000 });
  }
});

test('a call running as a task in one tab is left to it by another tab of the browser, which follows it once that tab closes', async () => {
  await run('report', () => page.locator('.runner input#arg-seconds').fill('9'));
  await page.locator('.runner .task-status', { hasText: /^Task working/ }).waitFor({ timeout: 10_000 });
  // A second tab of the same browser, on the same server, while the call runs.
  const other = await page.context().newPage();
  other.on('pageerror', (e) => { throw e; });
  await other.goto(page.url());
  await other.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
  await other.locator('#tab-logs').click();
  await other.locator('ul.notifications li', { hasText: 'calls still running as tasks that another connection of this browser follows (in another tab, or in this one): report (followed here if that connection closes)' }).waitFor({ timeout: 10_000 });
  // Not followed there meanwhile.
  const otherWire = (text) => other.locator('.logs .wire li', { hasText: text });
  assert.equal(await otherWire('"method":"tasks/get"').count(), 0);
  assert.equal(await other.locator('ul.notifications li', { hasText: 'following again' }).count(), 0);
  // The first tab closes before the task ends: the other one follows it to its result.
  await page.close();
  page = other;
  await page.locator('ul.notifications li', { hasText: 'following again the call of report still running as a task (the connection that followed it is gone)' }).waitFor({ timeout: 10_000 });
  await wire('"method":"tasks/get"').first().waitFor({ timeout: 5_000 });
  await reportCameTo(9);
  // Recorded once, by the tab that saw it end; no longer kept.
  assert.equal(await page.locator('.history-list li', { hasText: 'report {"seconds":9}' }).count(), 1);
  const left = await page.evaluate(() => localStorage.getItem('mcp-browser-client.tasks'));
  assert.equal(left, '{}');
});

test('a tab that takes a task over while the person types in that tool\'s form follows it in the background: what they typed stays, the result goes to the history', async () => {
  await run('report', () => page.locator('.runner input#arg-seconds').fill('7'));
  await page.locator('.runner .task-status', { hasText: /^Task working/ }).waitFor({ timeout: 10_000 });
  const other = await otherTabLeavingReport();
  // In the other tab, the person fills in report's form for a call of their own.
  await other.locator('#tab-tools').click();
  await other.locator('button.tool[data-tool="report"]').click();
  await other.locator('.runner input#arg-seconds').fill('2');
  // The first tab closes while its task runs: the other one follows the task, not in the form.
  await page.close();
  page = other;
  const note = (text) => page.locator('ul.notifications li', { hasText: text });
  await page.locator('#tab-logs').click();
  await note('the call of report still running as a task is followed in the background: its form here holds what you made of it').waitFor({ timeout: 10_000 });
  // The tool's form tells of the call while it runs, beside what the person typed.
  await page.locator('#tab-tools').click();
  await page.locator('button.tool[data-tool="report"]').click();
  const told = page.locator('.runner .background-call', { hasText: /^An earlier call of this tool is still running as task \S+ \(working/ });
  await told.waitFor({ timeout: 5_000 });
  assert.equal(await page.locator('.runner input#arg-seconds').inputValue(), '2');
  await page.locator('#tab-logs').click();
  await note('the call of report followed in the background came to its end: its result is in the history').waitFor({ timeout: 20_000 });
  await page.locator('#tab-tools').click();
  // Over: the form no longer tells of it.
  assert.equal(await page.locator('.runner .background-call').count(), 0);
  await page.locator('.history-list li', { hasText: 'report {"seconds":7} → ok' }).waitFor({ timeout: 5_000 });
  assert.equal(await page.locator('.history-list li', { hasText: 'report {"seconds":7}' }).count(), 1);
  // The form holds what the person typed, with no result of a call they did not make.
  await page.locator('button.tool[data-tool="report"]').click();
  assert.equal(await page.locator('.runner input#arg-seconds').inputValue(), '2');
  assert.equal(await page.locator('.runner .result').count(), 0);
  assert.equal(await page.locator('.runner .task-status').count(), 0);
  await everyTaskLockReleased(page);
  assert.equal(await page.evaluate(() => localStorage.getItem('mcp-browser-client.tasks')), '{}');
});

test('a call followed in the background can be cancelled from its tool\'s form, which keeps what the person typed', async () => {
  const cancelledBefore = await page.locator('.history-list li', { hasText: 'forever {"ttl_ms":60000} → cancelled' }).count();
  await run('forever');
  await page.locator('.runner .task-status', { hasText: /^Task working/ }).waitFor({ timeout: 10_000 });
  const other = await otherTabLeavingReport('forever');
  await other.locator('#tab-tools').click();
  await other.locator('button.tool[data-tool="forever"]').click();
  await other.locator('.runner input#arg-ttl_ms').fill('50000');
  await page.close();
  page = other;
  const told = page.locator('.runner .background-call');
  await told.waitFor({ timeout: 10_000 });
  const id = (await told.locator('code').innerText()).trim();
  assert.ok(id.length > 0);
  // The form's own Cancel is for a call of its own: none is under way.
  assert.equal(await page.locator('.runner button.cancel').count(), 0);
  await told.locator('button.cancel-background').click();
  // The task is cancelled on the server, and the call ends: recorded, no longer told of.
  assert.equal(await taskStatusOnServer(page, app.peer.url, id, 'cancelled'), 'cancelled');
  await told.waitFor({ state: 'detached', timeout: 10_000 });
  const cancelled = page.locator('.history-list li', { hasText: 'forever {"ttl_ms":60000} → cancelled' });
  await waitFor(async () => (await cancelled.count()) === cancelledBefore + 1, 5_000, 'the cancelled call in the history');
  assert.equal(await page.locator('.runner input#arg-ttl_ms').inputValue(), '50000');
  await page.locator('#tab-logs').click();
  await page.locator('ul.notifications li', { hasText: 'the call of forever followed in the background came to its end: how it failed is in the history' }).waitFor({ timeout: 5_000 });
  await page.locator('#tab-tools').click();
  await everyTaskLockReleased(page);
  assert.equal(await page.evaluate(() => localStorage.getItem('mcp-browser-client.tasks')), '{}');
});

/** Opens another tab of the app on the same server, and waits until it says that this tab
 * follows the call of `tool` (a task): resolves to that tab. */
async function otherTabLeavingReport(tool = 'report') {
  const other = await page.context().newPage();
  other.on('pageerror', (e) => { throw e; });
  await other.goto(page.url());
  await other.locator('#connection-state', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
  await other.locator('#tab-logs').click();
  await other.locator('ul.notifications li', { hasText: `another connection of this browser follows (in another tab, or in this one): ${tool}` }).waitFor({ timeout: 10_000 });
  return other;
}

test('a tab that opens while another follows a task leaves it alone, also once that tab has followed it to its end', async () => {
  await run('report', () => page.locator('.runner input#arg-seconds').fill('3'));
  await page.locator('.runner .task-status', { hasText: /^Task working/ }).waitFor({ timeout: 10_000 });
  const other = await otherTabLeavingReport();
  try {
    // The first tab shows the result and records it.
    await page.locator('.runner .result').waitFor({ timeout: 20_000 });
    assert.match(await page.locator('.runner .result').innerText(), /report ready after 3 s/);
    // The other tab, granted the task's lock once the first is done with it, finds the task no
    // longer kept and never follows it: the lock is free again (it let it go).
    await everyTaskLockReleased(other);
    assert.equal(await other.locator('.logs .wire li', { hasText: '"method":"tasks/get"' }).count(), 0);
    // The call is in its history once: the first tab's entry (the tabs share the history).
    await other.locator('#tab-tools').click();
    await other.locator('.history-list li', { hasText: 'report {"seconds":3} → ok' }).waitFor({ timeout: 5_000 });
    assert.equal(await other.locator('.history-list li', { hasText: 'report {"seconds":3}' }).count(), 1);
  } finally {
    await other.close();
  }
});

test('a tab granted a task\'s lock while its storage still keeps the task leaves it alone when the tab before it followed the task to its end', async () => {
  // Chromium brings one tab's localStorage writes to the others on a path of its own, not
  // ordered with Web Locks: the tab granted the lock may read the task as still kept. Made
  // certain here: the test holds the lock between the two tabs and keeps the task again.
  await run('report', () => page.locator('.runner input#arg-seconds').fill('3'));
  await page.locator('.runner .task-status', { hasText: /^Task working/ }).waitFor({ timeout: 10_000 });
  const lockName = await waitFor(() => page.evaluate(async () => (await navigator.locks.query()).held
    .map((l) => l.name).find((n) => n.startsWith('mcp-browser-client.task '))), 5_000, 'the task lock');
  const stale = await page.evaluate(() => localStorage.getItem('mcp-browser-client.tasks'));
  assert.match(stale, /"tool":"report"/);
  // First in the queue for the lock: the test (in the first tab's page), then the other tab.
  await page.evaluate((name) => {
    window.testLock = new Promise((granted) => navigator.locks.request(name, () => new Promise((release) => {
      window.releaseTestLock = release;
      granted();
    })));
  }, lockName);
  const other = await otherTabLeavingReport();
  try {
    await waitFor(() => other.evaluate(async (name) => (await navigator.locks.query()).pending
      .filter((l) => l.name === name).length === 2, lockName), 10_000, 'the other tab waiting for the lock');
    // The first tab follows it to its end and lets it go: the test has the lock.
    await page.locator('.runner .result').waitFor({ timeout: 20_000 });
    await page.evaluate(() => window.testLock);
    // The other tab's storage keeps the task again, as a copy not yet brought up to date would.
    await page.evaluate((doc) => localStorage.setItem('mcp-browser-client.tasks', doc), stale);
    await waitFor(() => other.evaluate((doc) => localStorage.getItem('mcp-browser-client.tasks') === doc, stale),
      5_000, 'the other tab reading the task as kept');
    await page.evaluate(() => window.releaseTestLock());
    // Granted the lock, the other tab sees the first one's mark and never follows the task.
    await waitFor(() => other.evaluate(async () => {
      const tasks = (locks) => locks.filter((l) => l.name.startsWith('mcp-browser-client.task '));
      const { held, pending } = await navigator.locks.query();
      return tasks(held).length === 0 && tasks(pending).length === 0;
    }), 10_000, 'every task lock released');
    assert.equal(await other.locator('.logs .wire li', { hasText: '"method":"tasks/get"' }).count(), 0);
    assert.equal(await other.locator('ul.notifications li', { hasText: 'following again' }).count(), 0);
  } finally {
    await page.evaluate(() => localStorage.setItem('mcp-browser-client.tasks', '{}'));
    await other.close();
  }
});

test("a task this tab follows, dropped by another tab's write over a lagging copy, is kept again; once followed to its end and put back, it is forgotten again", async () => {
  const key = 'mcp-browser-client.tasks';
  const stored = (p) => p.evaluate((key) => localStorage.getItem(key) || '{}', key);
  const taskIds = (text) => Object.values(JSON.parse(text)).flatMap((s) => (s.tasks || []).map((t) => t.taskId));
  await run('report', () => page.locator('.runner input#arg-seconds').fill('3'));
  await page.locator('.runner .task-status', { hasText: /^Task working/ }).waitFor({ timeout: 10_000 });
  const kept = await waitFor(async () => {
    const text = await stored(page);
    return taskIds(text).length === 1 ? text : null;
  }, 5_000, 'the task kept in the browser');
  const [id] = taskIds(kept);
  // Another page of the app's origin writes as a tab would over a copy of localStorage not
  // yet brought up to date: here, one that forgot its own last task, leaving none.
  const writer = await page.context().newPage();
  try {
    writer.on('pageerror', (e) => { throw e; });
    await writer.goto(new URL('/client-metadata.json', page.url()).href);
    await writer.evaluate((key) => localStorage.setItem(key, '{}'), key);
    await waitFor(async () => taskIds(await stored(writer)).includes(id), 5_000, 'the task kept again by the tab that follows it');
    // Followed to its end: forgotten. A write from a copy that still has it puts it back;
    // the tab that followed it forgets it again, so that no later page follows it twice.
    await page.locator('.runner .result').waitFor({ timeout: 20_000 });
    assert.match(await page.locator('.runner .result').innerText(), /report ready after 3 s/);
    await waitFor(async () => taskIds(await stored(writer)).length === 0, 5_000, 'the task forgotten');
    await writer.evaluate(({ key, kept }) => localStorage.setItem(key, kept), { key, kept });
    await waitFor(async () => !taskIds(await stored(writer)).includes(id), 5_000, 'the task forgotten again');
  } finally {
    await writer.close();
    await page.evaluate((key) => localStorage.setItem(key, '{}'), key);
  }
});
