// The headless JavaScript API (dist-pkg/, built by scripts/build-package.sh), imported by a
// plain host page on another origin, against two real server-everything instances.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, leaveWithCallUnderWay, serveDir, startPeer, startProtected, taskStatusOnServer, waitFor } from './browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
let browser, pkg, host, a, b, modern, tasks, page;

/** Runs `f` and returns the JSON-RPC methods the page sent to `url` meanwhile (requests and
 * notifications; answers to the server's requests have none), as the browser saw them. */
async function methodsSentTo(url, f) {
  const bodies = [];
  const onRequest = (r) => { if (r.url() === url && r.method() === 'POST') bodies.push(r.postData() || ''); };
  page.on('request', onRequest);
  let value;
  try { value = await f(); } finally { page.off('request', onRequest); }
  const methods = bodies.flatMap((body) => {
    try { const m = JSON.parse(body); return (Array.isArray(m) ? m : [m]).filter((x) => x && x.method).map((x) => x.method); } catch { return []; }
  });
  return { value, methods };
}

/** What connecting sends (the era probe, the handshake): left out when counting the rest. */
const CONNECTING = ['server/discover', 'initialize', 'notifications/initialized'];

before(async () => {
  pkg = await serveDir(path.resolve(here, '../../dist-pkg'));
  host = await serveDir(path.resolve(here, 'host'));
  a = await startPeer('everything.sh', ['streamableHttp']);
  b = await startPeer('everything.sh', ['streamableHttp']);
  process.env.MANY_TOOLS = '0';
  modern = await startPeer('many_tools.sh'); // PyPI mcp 2.x, 2026-07-28, caching hints
  tasks = await startPeer('tasks.sh'); // PyPI mcp 2.x with the Tasks extension (2026-07-28)
  browser = await launch();
  page = await browser.newPage();
  await page.goto(`${host.url}/index.html`);
});
after(async () => {
  await browser?.close();
  a?.stop();
  b?.stop();
  modern?.stop();
  tasks?.stop();
  await pkg?.close();
  await host?.close();
});

test('a host script lists tools, calls one, and gets model definitions that match the schemas', async () => {
  const out = await page.evaluate(async ({ pkgUrl, urlA, urlB }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    await m.default();
    const approvals = [];
    const one = await m.McpClient.connect({ url: urlA, namespace: 'alpha', approve: async (tool, args) => { approvals.push(tool); return tool !== 'get-env'; } });
    const two = await m.McpClient.connect({ url: urlB, namespace: 'beta' });
    const tools = await one.listTools();
    const echo = await one.callTool('echo', { message: 'from the host' });
    const defsA = await one.toolDefinitions('openai');
    const defsB = await two.toolDefinitions('anthropic');
    const modelText = await one.callModelTool('alpha__get-sum', { a: 1, b: 2 });
    let refused = null;
    try { await one.callTool('get-env', {}); } catch (e) { refused = String(e.message || e); }
    const server = one.server();
    const team = { type: 'ref/prompt', name: 'completable-prompt' };
    const sales = await one.complete(team, 'name', '', { department: 'Sales' });
    const nobody = await one.complete(team, 'name', '');
    // A tool that must run as a task (listed above) runs as one.
    const research = await one.callTool('simulate-research-query', { topic: 'tides' });
    one.close(); two.close();
    return { tools, echo, defsA, defsB, modelText, refused, approvals, server, research, sales, nobody };
  }, { pkgUrl: pkg.url, urlA: a.url, urlB: b.url });

  assert.ok(out.tools.some((t) => t.name === 'echo'));
  assert.equal(out.echo.content[0].text, 'Echo: from the host');
  assert.equal(out.server.era, 'legacy');
  // Definitions match the server's schemas, verbatim.
  const echoTool = out.tools.find((t) => t.name === 'echo');
  // Results are the server's JSON verbatim, keys in the server's order (not re-sorted).
  assert.equal(Object.keys(echoTool)[0], 'name');
  assert.notDeepEqual(Object.keys(echoTool), [...Object.keys(echoTool)].sort());
  const echoDef = out.defsA.find((d) => d.function.name === 'alpha__echo');
  assert.deepEqual(echoDef.function.parameters, echoTool.inputSchema);
  assert.equal(echoDef.type, 'function');
  const anth = out.defsB.find((d) => d.name === 'beta__echo');
  assert.deepEqual(anth.input_schema, echoTool.inputSchema);
  // Two servers' tools never collide.
  const names = [...out.defsA.map((d) => d.function.name), ...out.defsB.map((d) => d.name)];
  assert.equal(new Set(names).size, names.length);
  assert.ok(names.every((n) => /^[A-Za-z0-9_-]{1,64}$/.test(n)));
  // Model-facing results are fenced as untrusted data.
  assert.match(out.modelText, /^<untrusted-data source="mcp" server="alpha" tool="get-sum">\n.*is 3\.\n<\/untrusted-data>$/s);
  // The approval hook saw every call and could refuse one.
  assert.deepEqual(out.approvals, ['echo', 'get-sum', 'get-env', 'simulate-research-query']);
  assert.match(out.research.content[0].text, /^# Research Report: tides/);
  // Completions with the other arguments as context narrow the suggestions.
  assert.deepEqual(out.sales.values, ['David', 'Eve', 'Frank']);
  assert.deepEqual(out.nobody.values, []);
  assert.match(out.refused, /not approved/);
});

test('model definitions leave out tools meant for MCP App Views only (visibility ["app"]); listTools has them', async () => {
  const hostile = await startPeer('hostile.sh');
  try {
    const out = await page.evaluate(async ({ pkgUrl, url }) => {
      const m = await import(`${pkgUrl}/mcp_client.js`);
      await m.default();
      const c = await m.McpClient.connect({ url, namespace: 'h' });
      const listed = (await c.listTools()).map((t) => t.name);
      const defs = (await c.toolDefinitions('openai')).map((d) => d.function.name);
      let refused = null;
      try { await c.callModelTool('h__app-only', {}); } catch (e) { refused = e.kind; }
      c.close();
      return { listed, defs, refused };
    }, { pkgUrl: pkg.url, url: hostile.url });
    assert.ok(out.listed.includes('app-only'));
    assert.ok(!out.defs.includes('h__app-only'), out.defs.join(' '));
    assert.ok(out.defs.includes('h__model-only') && out.defs.includes('h__hostile-app'), out.defs.join(' '));
    assert.equal(out.refused, 'invalid-argument');
  } finally {
    hostile.stop();
  }
});

test('a host script follows a call (progress, task states), cancels one with an AbortSignal, and limits one in time', async () => {
  const out = await page.evaluate(async ({ pkgUrl, urlA }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    await m.default();
    const client = await m.McpClient.connect({ url: urlA });
    await client.listTools();
    const progress = [];
    const done = await client.callTool('trigger-long-running-operation', { duration: 0.3, steps: 3 },
      { onProgress: (p) => progress.push(p.progress) });
    const states = [];
    await client.callTool('simulate-research-query', { topic: 'tides' }, { onTask: (t) => states.push(t.status) });
    // Aborted once the first progress arrives: the call is cancelled and rejects.
    const abort = new AbortController();
    let aborted = null;
    const t0 = performance.now();
    try {
      await client.callTool('trigger-long-running-operation', { duration: 20, steps: 20 },
        { signal: abort.signal, onProgress: () => abort.abort() });
    } catch (e) { aborted = String(e.message || e); }
    const abortMs = performance.now() - t0;
    let timedOut = null;
    try {
      await client.callTool('trigger-long-running-operation', { duration: 20, steps: 2 }, { timeoutMs: 300 });
    } catch (e) { timedOut = String(e.message || e); }
    let early = null;
    try {
      await client.callTool('echo', { message: 'x' }, { signal: AbortSignal.abort() });
    } catch (e) { early = String(e.message || e); }
    client.close();
    return { progress, done: done.content[0].text, states, aborted, abortMs, timedOut, early };
  }, { pkgUrl: pkg.url, urlA: a.url });
  assert.deepEqual(out.progress, [1, 2, 3]);
  assert.match(out.done, /Long running operation completed/);
  assert.equal(out.states[0], 'working');
  assert.match(out.aborted, /cancel/i);
  assert.ok(out.abortMs < 10_000, `the aborted call took ${out.abortMs} ms`);
  assert.match(out.timedOut, /no answer after 300 ms/);
  assert.match(out.early, /aborted/);
});

test('a host script lists the server\'s tasks and cancels one: the call following it rejects as cancelled', async () => {
  const out = await page.evaluate(async ({ pkgUrl, urlA }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    await m.default();
    const client = await m.McpClient.connect({ url: urlA });
    await client.listTools();
    let created = null;
    const call = client.callTool('simulate-research-query', { topic: 'reefs' }, { onTask: (t) => { created ??= t.taskId; } })
      .then(() => 'resolved', (e) => String(e.message || e));
    for (const end = Date.now() + 5_000; !created && Date.now() < end;) await new Promise((r) => setTimeout(r, 20));
    const listed = await client.listTasks({ timeoutMs: 5_000 });
    const cancelled = await client.cancelTask(created);
    const ended = await call;
    let again = null;
    try { await client.cancelTask(created); } catch (e) { again = e.kind; }
    client.close();
    return { created, listed: listed.map((t) => [t.taskId, t.status, t.ttl]), cancelled: cancelled.status, ended, again };
  }, { pkgUrl: pkg.url, urlA: a.url });
  assert.ok(out.created, 'the task was created');
  assert.ok(out.listed.some(([id, status, ttl]) => id === out.created && status === 'working' && ttl === 300_000), JSON.stringify(out.listed));
  assert.equal(out.cancelled, 'cancelled');
  assert.match(out.ended, /cancel/i);
  assert.equal(out.again, 'rpc', 'a task already over cannot be cancelled');
});

test('failures reject with an McpError a host can branch on: its kind, and the JSON-RPC code, the HTTP status or the time limit', async () => {
  const out = await page.evaluate(async ({ pkgUrl, urlA }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    await m.default();
    const caught = async (f) => {
      try { await f(); return null; } catch (e) {
        return { error: e instanceof Error, name: e.name, kind: e.kind, code: e.code, status: e.status, afterMs: e.afterMs, message: e.message };
      }
    };
    const client = await m.McpClient.connect({ url: urlA, approve: async (tool) => tool !== 'get-env' });
    const rpc = await caught(() => client.getPrompt('no-such-prompt', {}));
    const badOption = await caught(() => client.listTools({ cache: 'sometimes' }));
    const badArgs = await caught(() => client.getPrompt('simple-prompt', { n: 1 }));
    const refused = await caught(() => client.callTool('get-env', {}));
    const timeout = await caught(() => client.callTool('trigger-long-running-operation', { duration: 20, steps: 2 }, { timeoutMs: 300 }));
    const abort = new AbortController();
    const aborted = await caught(() => client.callTool('trigger-long-running-operation', { duration: 20, steps: 20 },
      { signal: abort.signal, onProgress: () => abort.abort() }));
    const early = await caught(() => client.callTool('echo', { message: 'x' }, { signal: AbortSignal.abort() }));
    client.close();
    const closed = await caught(() => client.listTools());
    const network = await caught(() => m.McpClient.connect({ url: 'http://127.0.0.1:9/mcp' }));
    const noUrl = await caught(() => m.McpClient.connect({}));
    return { rpc, badOption, badArgs, refused, timeout, aborted, early, closed, network, noUrl };
  }, { pkgUrl: pkg.url, urlA: a.url });
  for (const [what, e] of Object.entries(out)) {
    assert.ok(e, `${what} did not reject`);
    assert.equal(e.error, true, `${what} is an Error`);
    assert.equal(e.name, 'McpError', what);
  }
  assert.equal(out.rpc.kind, 'rpc');
  assert.equal(out.rpc.code, -32602, out.rpc.message);
  assert.match(out.rpc.message, /no-such-prompt/);
  assert.equal(out.badOption.kind, 'invalid-argument');
  assert.equal(out.badArgs.kind, 'invalid-argument');
  assert.match(out.badArgs.message, /the prompt arguments must be an object of strings/);
  assert.equal(out.refused.kind, 'not-approved');
  assert.equal(out.timeout.kind, 'timeout');
  assert.equal(out.timeout.afterMs, 300);
  assert.equal(out.aborted.kind, 'cancelled');
  assert.equal(out.early.kind, 'cancelled');
  assert.equal(out.closed.kind, 'closed', out.closed.message);
  assert.equal(out.network.kind, 'network', out.network.message);
  assert.equal(out.noUrl.kind, 'invalid-argument');
  for (const e of [out.badOption, out.timeout, out.network]) {
    assert.equal(e.code, undefined);
  }
});

test('a script without types that passes a wrong argument gets invalid-argument naming it; nothing is sent and the client goes on', async () => {
  const { value: out, methods } = await methodsSentTo(a.url, () => page.evaluate(async ({ pkgUrl, urlA }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    await m.default();
    const client = await m.McpClient.connect({ url: urlA });
    const cyclic = { message: 'x' };
    cyclic.self = cyclic;
    const misuse = {
      'tool name a number': [() => client.callTool(123, {}), /the tool name must be a string, not a number/],
      'tool name null': [() => client.callTool(null), /the tool name must be a string, not null/],
      'arguments a string': [() => client.callTool('echo', 'x'), /the tool arguments must be an object, not a string/],
      'arguments an array': [() => client.callTool('echo', [1, 2]), /the tool arguments must be an object, not an array/],
      'a BigInt': [() => client.callTool('echo', { message: 10n }), /the tool arguments cannot be sent as JSON: .*BigInt/],
      'a cycle': [() => client.callTool('echo', cyclic), /the tool arguments cannot be sent as JSON: .*circular/i],
      'a lone surrogate': [() => client.callTool('echo', { message: '\ud800' }), /the tool arguments cannot be sent as JSON: .*lone UTF-16 surrogate/],
      'options a string': [() => client.callTool('echo', {}, 'fast'), /options must be an object, not a string/],
      'timeoutMs a string': [() => client.callTool('echo', {}, { timeoutMs: '100' }), /options.timeoutMs must be a positive number of milliseconds, not a string/],
      'timeoutMs negative': [() => client.callTool('echo', {}, { timeoutMs: -5 }), /options.timeoutMs must be a positive number of milliseconds, not a number/],
      'timeoutMs zero': [() => client.readResource('demo://resource/static/document/architecture.md', { timeoutMs: 0 }), /options.timeoutMs must be a positive number/],
      'timeoutMs NaN': [() => client.listTools({ timeoutMs: NaN }), /options.timeoutMs must be a positive number/],
      'signal a number': [() => client.callTool('echo', {}, { signal: 5 }), /options.signal must be an AbortSignal, not a number/],
      'onProgress a number': [() => client.getPrompt('simple-prompt', {}, { onProgress: 5 }), /options.onProgress must be a function, not a number/],
      'list options a number': [() => client.listTools(5), /options must be an object, not a number/],
      'resource URI a number': [() => client.readResource(5), /the resource URI must be a string, not a number/],
      'prompt name null': [() => client.getPrompt(null), /the prompt name must be a string, not null/],
      'reference null': [() => client.complete(null, 'x', ''), /the reference must be an object .*not null/],
      'reference a string': [() => client.complete('ref/prompt', 'x', ''), /the reference must be an object/],
      'typed value a number': [() => client.complete({ type: 'ref/prompt', name: 'completable-prompt' }, 'department', 5), /the value typed so far must be a string, not a number/],
      'method a number': [() => client.request(5, {}), /the method must be a string, not a number/],
      'notification method null': [() => client.notify(null), /the method must be a string, not null/],
      'log level a number': [() => client.setLogLevel(5), /the log level must be a string, not a number/],
      'subscribed URI missing': [() => client.subscribeResource(), /the resource URI must be a string, not undefined/],
      'task id null': [() => client.cancelTask(null), /the task id must be a string, not null/],
      'resumed task id a number': [() => client.resumeTask(7), /the task id must be a string, not a number/],
      'unknown model format': [() => client.toolDefinitions('klingon'), /the format must be "openai" or "anthropic", not "klingon"/],
      'connect with a URL string': [() => m.McpClient.connect(urlA), /McpClient.connect takes an options object/],
      'url a number': [() => m.McpClient.connect({ url: 5 }), /options.url must be a string, not a number/],
      'url of another scheme': [() => m.McpClient.connect({ url: 'javascript:alert(1)' }), /"javascript:alert\(1\)" is not an MCP server URL: it must start with http:\/\/, https:\/\/, ws:\/\/ or wss:\/\//],
      'unknown transport': [() => m.McpClient.connect({ url: urlA, transport: 'ws' }), /options.transport must be one of "auto", "streamable-http", "sse", "websocket", not "ws"/],
      'approve not a function': [() => m.McpClient.connect({ url: urlA, approve: true }), /options.approve must be a function, not a boolean/],
      'handler not a function': [() => m.McpClient.connect({ url: urlA, onSampling: {} }), /options.onSampling must be a function, not an object/],
      'connect timeoutMs negative': [() => m.McpClient.connect({ url: urlA, timeoutMs: -1 }), /options.timeoutMs must be a positive number/],
      'rememberEra a string': [() => m.McpClient.connect({ url: urlA, rememberEra: 'no' }), /options.rememberEra must be true or false, not a string/],
      'oauth a string': [() => m.McpClient.connect({ url: urlA, oauth: 'yes' }), /options.oauth must be true, false or an object, not a string/],
      'oauth storage a number': [() => m.McpClient.connect({ url: urlA, oauth: { storage: 5 } }), /oauth.storage must be a string, not a number/],
      'unknown oauth storage': [() => m.McpClient.connect({ url: urlA, oauth: { storage: 'disk' } }), /oauth.storage must be one of "memory", "session", "local", not "disk"/],
      'unknown token endpoint auth method': [() => m.McpClient.connect({ url: urlA, oauth: { clientId: 'c', tokenEndpointAuthMethod: 'private_key_jwt' } }), /oauth.tokenEndpointAuthMethod must be one of "client_secret_basic", "client_secret_post", "none", not "private_key_jwt"/],
    };
    const got = {};
    for (const [what, [f, want]] of Object.entries(misuse)) {
      try {
        await f();
        got[what] = { resolved: true };
      } catch (e) {
        got[what] = { name: e?.name, kind: e?.kind, message: String(e?.message ?? e), matches: want.test(String(e?.message)) };
      }
    }
    // Still usable, and a limit that never runs out is no limit.
    const echo = await client.callTool('echo', { message: 'still here' }, { timeoutMs: Infinity });
    client.close();
    return { got, echo: echo.content[0].text };
  }, { pkgUrl: pkg.url, urlA: a.url }));
  for (const [what, g] of Object.entries(out.got)) {
    assert.equal(g.kind, 'invalid-argument', `${what}: ${JSON.stringify(g)}`);
    assert.equal(g.name, 'McpError', what);
    assert.ok(g.matches, `${what}: ${g.message}`);
  }
  // Besides connecting once, only the one call made went out (with the listing a first call
  // makes, to know whether the tool must run as a task).
  assert.deepEqual(methods.filter((m) => !CONNECTING.includes(m) && m !== 'tools/list'), ['tools/call'], JSON.stringify(methods));
  assert.ok(methods.filter((m) => m === 'initialize').length <= 1, JSON.stringify(methods));
  assert.ok(methods.filter((m) => m === 'tools/list').length <= 1, JSON.stringify(methods));
  assert.equal(out.echo, 'Echo: still here');
});

test('a client let go (free(), [Symbol.dispose]() as `using` calls it, or collected as garbage) is closed: its session is deleted, and the clients after it connect', async () => {
  // A server of its own: the browser opens six connections to it at most (HTTP/1.1), and a
  // client that stayed open would hold one for its stream.
  const own = await startPeer('everything.sh', ['streamableHttp']);
  const deletes = [];
  const seen = (r) => { if (r.method() === 'DELETE' && r.url() === own.url) deletes.push(r.headers()['mcp-session-id']); };
  page.on('request', seen);
  try {
    const out = await page.evaluate(async ({ pkgUrl, url }) => {
      const m = await import(`${pkgUrl}/mcp_client.js`);
      await m.default();
      const within = (p, ms, what) => Promise.race([p, new Promise((_, reject) => setTimeout(() => reject(new Error(`${what}: nothing in ${ms} ms`)), ms))]);
      const done = [];
      for (let i = 0; i < 8; i++) {
        const c = await within(m.McpClient.connect({ url }), 10_000, `connect ${i}`);
        await within(c.callTool('echo', { message: `n${i}` }), 10_000, `call ${i}`);
        if (i % 2) c[Symbol.dispose](); else c.free();
        done.push(i);
      }
      // One more, given to nobody: only the garbage collector can let it go.
      await within(m.McpClient.connect({ url }), 10_000, 'connect 8');
      return done.length;
    }, { pkgUrl: pkg.url, url: own.url });
    assert.equal(out, 8);
    await waitFor(() => deletes.length === 8, 10_000, 'the DELETE of each client let go');
    assert.equal(new Set(deletes).size, 8, 'each client had a session of its own');
    const cdp = await page.context().newCDPSession(page);
    await waitFor(async () => { await cdp.send('HeapProfiler.collectGarbage'); return deletes.length === 9; }, 15_000, 'the DELETE of the client collected as garbage');
    await cdp.detach();
  } finally {
    page.off('request', seen);
    own.stop();
  }
});

test('six clients of a page on a 2026-07-28 server all call tools: the sixth one\'s listen stream waits for a free connection, and says so (onWarning); a subscription meanwhile is refused in words', async () => {
  // A server of its own: only this test's streams count.
  process.env.MANY_TOOLS = '0';
  const own = await startPeer('many_tools.sh');
  delete process.env.MANY_TOOLS;
  try {
    const out = await page.evaluate(async ({ pkgUrl, url }) => {
      const m = await import(`${pkgUrl}/mcp_client.js`);
      await m.default();
      const within = (p, ms, what) => Promise.race([p, new Promise((_, reject) => setTimeout(() => reject(new Error(`${what}: nothing in ${ms} ms`)), ms))]);
      const until = async (check, ms, what) => {
        const end = Date.now() + ms;
        while (!(await check())) {
          if (Date.now() > end) throw new Error(`${what}: not in ${ms} ms`);
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      // A stream is a Web Lock named for the server while it is open.
      const streamNames = async () => (await navigator.locks.query()).held.map((l) => l.name)
        .filter((n) => n.startsWith(`mcp-stream ${new URL(url).origin} `));
      const streams = async () => (await streamNames()).length;
      const warnings = [[], [], [], [], [], []];
      const clients = [];
      for (let i = 0; i < 6; i++) {
        clients.push(await within(m.McpClient.connect({ url, onWarning: (w) => warnings[i].push(w) }), 10_000, `connect ${i}`));
        if (i < 5) await until(async () => await streams() === i + 1, 10_000, `stream ${i}`);
      }
      await until(() => warnings[5].length > 0, 10_000, 'the sixth client\'s warning');
      const texts = await Promise.all(clients.map((c, i) => within(c.callTool('echo', { message: `from ${i}` }), 10_000, `call ${i}`)));
      const held = await streams();
      // A resource subscription is acknowledged on that stream: refused at once, in words
      // (not after the 60 s time limit).
      const sixth = clients[5];
      const subscribing = await within(sixth.subscribeResource('test://greeting')
        .then(() => ({ subscribed: true }), (e) => ({ kind: e.kind, message: e.message })), 10_000, 'the sixth subscribing');
      // One closed: the sixth one's stream opens, and it subscribes.
      const before = new Set(await streamNames());
      clients.shift().close();
      await until(async () => (await streamNames()).some((n) => !before.has(n)), 10_000, 'the sixth stream open');
      await within(sixth.subscribeResource('test://greeting'), 10_000, 'subscribing once the stream is open');
      for (const c of clients) c.close();
      return { warnings, held, subscribing, texts: texts.map((r) => r.content[0].text) };
    }, { pkgUrl: pkg.url, url: own.url });
    assert.match(out.warnings[5].join('\n'), /waits: browsers open at most 6 connections to one server over plain HTTP \(HTTP\/1\.1\), and 5 streams/);
    assert.deepEqual(out.warnings.slice(0, 5), [[], [], [], [], []]);
    assert.equal(out.held, 5, 'the last connection left for requests');
    assert.deepEqual(out.texts, [0, 1, 2, 3, 4, 5].map((i) => `Echo: from ${i}`));
    assert.equal(out.subscribing.kind, 'unavailable', JSON.stringify(out.subscribing));
    assert.match(out.subscribing.message, /a resource subscription is made on this connection's notification stream, which waits for a free connection: .* 5 streams from pages of this site .* then subscribe again/);
  } finally {
    own.stop();
  }
});

test('a sixth client of a page whose connections to a server are held by HTTP+SSE streams hears onConnectionsBusy, and works once another closes', async () => {
  // A server of its own (only this test's streams count), over the 2024-11-05 HTTP+SSE
  // transport: its stream carries every answer, so it cannot wait for a free connection (as a
  // GET stream or a listen stream does).
  const own = await startPeer('everything.sh', ['sse'], '/sse');
  try {
    const out = await page.evaluate(async ({ pkgUrl, url }) => {
      const m = await import(`${pkgUrl}/mcp_client.js`);
      await m.default();
      const within = (p, ms, what) => Promise.race([p, new Promise((_, reject) => setTimeout(() => reject(new Error(`${what}: nothing in ${ms} ms`)), ms))]);
      // Five clients: five streams, and the sixth connection for requests.
      const five = [];
      for (let i = 0; i < 5; i++) five.push(await within(m.McpClient.connect({ url, transport: 'sse' }), 10_000, `connect ${i}`));
      let busy = null;
      let heard;
      const heardBusy = new Promise((r) => { heard = r; });
      // The sixth one's stream takes that connection: its first request has none left.
      const sixth = m.McpClient.connect({ url, transport: 'sse', onConnectionsBusy: (b) => { busy = b; heard(); } });
      const listed = sixth.then(async (c) => [c, await c.listTools()]);
      await within(heardBusy, 15_000, 'onConnectionsBusy');
      // One closed frees a connection.
      five[0].close();
      const [c, tools] = await within(listed, 15_000, 'the sixth lists the tools');
      for (const x of [...five, c]) x.close();
      return { busy, tools: tools.length };
    }, { pkgUrl: pkg.url, url: own.url });
    assert.equal(out.busy.server, new URL(own.url).origin);
    assert.equal(out.busy.streams, 6, JSON.stringify(out.busy));
    assert.match(out.busy.message, /most likely for want of a connection: browsers open at most 6 connections/);
    assert.ok(out.tools > 0);
  } finally {
    own.stop();
  }
});

test('a call aborted while the approve hook decides rejects at once ("cancelled") and is not sent; one aborted before is not asked about', async () => {
  const { value: out, methods } = await methodsSentTo(a.url, () => page.evaluate(async ({ pkgUrl, url }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    await m.default();
    const asked = [];
    // A host whose approval never comes (its dialog was dismissed without an answer).
    const client = await m.McpClient.connect({ url, approve: (tool) => { asked.push(tool); return new Promise(() => {}); } });
    const stop = new AbortController();
    const started = performance.now();
    const pending = client.callTool('echo', { message: 'never approved' }, { signal: stop.signal })
      .then(() => ({ resolved: true }), (e) => ({ kind: e.kind, message: e.message, afterMs: performance.now() - started }));
    await new Promise((r) => setTimeout(r, 100));
    stop.abort();
    const during = await Promise.race([pending, new Promise((r) => setTimeout(() => r({ stillPending: true }), 5_000))]);
    const before = await client.callTool('echo', { message: 'x' }, { signal: AbortSignal.abort() })
      .then(() => ({ resolved: true }), (e) => ({ kind: e.kind, message: e.message }));
    client.close();
    return { during, before, asked };
  }, { pkgUrl: pkg.url, url: a.url }));
  assert.equal(out.during.kind, 'cancelled', JSON.stringify(out.during));
  assert.match(out.during.message, /the call to echo was aborted/);
  assert.equal(out.before.kind, 'cancelled', JSON.stringify(out.before));
  assert.deepEqual(out.asked, ['echo'], 'the hook is asked once: not for the call aborted before');
  assert.deepEqual(methods.filter((m) => !CONNECTING.includes(m)), [], `a call that was never approved reached the server: ${JSON.stringify(methods)}`);
});

test('a tool name, prompt name, resource URI or task id with a right-to-left override is isolated in the error message, so the words after it keep their order', async () => {
  // The names a host passes come from the server's lists: a name that holds U+202E would
  // otherwise turn "was aborted" around wherever the host shows the message.
  const out = await page.evaluate(async ({ pkgUrl, url }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    await m.default();
    const client = await m.McpClient.connect({ url, approve: async () => false });
    const message = (p) => p.then(() => 'resolved', (e) => e.message);
    const gone = () => ({ signal: AbortSignal.abort() });
    const out = {
      refused: await message(client.callTool('ab\u202Ecd', {})),
      prompt: await message(client.getPrompt('ab\u202Ecd', {}, gone())),
      resource: await message(client.readResource('demo://ab\u202Ecd', gone())),
      task: await message(client.resumeTask('ab\u202Ecd', gone())),
      plain: await message(client.getPrompt('plain', {}, gone())),
    };
    client.close();
    return out;
  }, { pkgUrl: pkg.url, url: a.url });
  const FSI = '\u2068', PDI = '\u2069';
  assert.equal(out.refused, `the call to ${FSI}ab\u202Ecd${PDI} was not approved`);
  assert.equal(out.prompt, `the prompt ${FSI}ab\u202Ecd${PDI} was aborted`);
  assert.equal(out.resource, `reading ${FSI}demo://ab\u202Ecd${PDI} was aborted`);
  assert.equal(out.task, `following task ${FSI}ab\u202Ecd${PDI} was aborted`);
  assert.equal(out.plain, 'the prompt plain was aborted', 'a plain name reads as before');
});

test('options.signal is read once per request: a getter that gives a new signal each time cannot split a request across two signals', async () => {
  const out = await page.evaluate(async ({ pkgUrl, url }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    await m.default();
    // Each read of `signal` gives another signal; only the first read's is aborted (by the
    // approve hook). A client that read the option again would listen to an unaborted signal.
    const counted = () => {
      const o = { reads: 0, made: [] };
      Object.defineProperty(o, 'signal', {
        enumerable: true,
        get() { o.reads += 1; const c = new AbortController(); o.made.push(c); return c.signal; },
      });
      return o;
    };
    const within = (p, ms) => Promise.race([p, new Promise((r) => setTimeout(() => r({ stillPending: true }), ms))]);
    const connecting = counted();
    const client = await m.McpClient.connect({ url, approve: () => { calling.made[0].abort(); return new Promise(() => {}); }, get signal() { return connecting.signal; } });
    const calling = counted();
    const call = await within(client.callTool('echo', { message: 'x' }, calling)
      .then(() => ({ resolved: true }), (e) => ({ kind: e.kind })), 5_000);
    const listing = counted();
    const tools = await client.listTools(listing);
    const reading = counted();
    await client.readResource('demo://resource/static/document/architecture.md', reading);
    client.close();
    return { connect: connecting.reads, call, callReads: calling.reads, list: listing.reads, tools: tools.length, read: reading.reads };
  }, { pkgUrl: pkg.url, url: a.url });
  assert.equal(out.call.kind, "cancelled", `the call aborted by its signal: ${JSON.stringify(out)}`);
  assert.deepEqual([out.connect, out.callReads, out.list, out.read], [1, 1, 1, 1], JSON.stringify(out));
  assert.ok(out.tools > 0);
});

test('a host script sends any request with request(method, params, options), to legacy and 2026-07-28 servers', async () => {
  const out = await page.evaluate(async ({ pkgUrl, urlA, urlModern }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    await m.default();
    const caught = async (f) => { try { await f(); return null; } catch (e) { return { kind: e.kind, code: e.code, message: e.message }; } };
    const legacy = await m.McpClient.connect({ url: urlA });
    const tools = await legacy.request('tools/list');
    const prompt = await legacy.request('prompts/get', { name: 'simple-prompt' });
    const progress = [];
    const called = await legacy.request('tools/call', { name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } },
      { onProgress: (p) => progress.push(p.progress) });
    const unknown = await caught(() => legacy.request('no/such-method', {}));
    const notObject = await caught(() => legacy.request('tools/list', 5));
    const early = await caught(() => legacy.request('tools/list', {}, { signal: AbortSignal.abort() }));
    legacy.close();
    const modern = await m.McpClient.connect({ url: urlModern });
    const modernTools = await modern.request('tools/list', {});
    const echoed = await modern.request('tools/call', { name: 'echo', arguments: { message: 'over request()' } });
    modern.close();
    return { tools: tools.tools.map((t) => t.name), prompt, called, progress, unknown, notObject, early,
      modernTools: modernTools.tools.map((t) => t.name), echoed };
  }, { pkgUrl: pkg.url, urlA: a.url, urlModern: modern.url });
  assert.ok(out.tools.includes('echo'));
  assert.equal(out.prompt.messages[0].role, 'user');
  assert.match(out.called.content[0].text, /Long running operation completed/);
  assert.deepEqual(out.progress, [1, 2, 3]);
  assert.equal(out.unknown.kind, 'rpc');
  assert.equal(out.unknown.code, -32601, out.unknown.message);
  assert.equal(out.notObject.kind, 'invalid-argument');
  assert.equal(out.early.kind, 'cancelled');
  assert.match(out.early.message, /the request tools\/list was aborted/);
  assert.ok(out.modernTools.includes('echo'), JSON.stringify(out.modernTools));
  assert.match(JSON.stringify(out.echoed.content), /over request\(\)/);
});

test('a host script answers sampling with tool calls once it sets samplingTools; without it, a request offering tools is refused', async () => {
  const out = await page.evaluate(async ({ pkgUrl, urlModern }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    await m.default();
    const asked = [];
    const onSampling = async (p) => {
      asked.push(p);
      return p.toolChoice?.mode === 'none'
        ? { role: 'assistant', model: 'script', stopReason: 'endTurn', content: { type: 'text', text: 'Mild.' } }
        : { role: 'assistant', model: 'script', stopReason: 'toolUse',
            content: [{ type: 'tool_use', id: 'js1', name: 'get_weather', input: { city: 'London' } }] };
    };
    const plain = await m.McpClient.connect({ url: urlModern, onSampling });
    const notOffered = (await plain.callTool('weather', {})).content[0].text;
    let refused = null;
    try { await plain.callTool('weather', { force: true }); } catch (e) { refused = { kind: e.kind, code: e.code, message: e.message }; }
    plain.close();
    const withTools = await m.McpClient.connect({ url: urlModern, onSampling, samplingTools: true });
    const answered = (await withTools.callTool('weather', {})).content[0].text;
    withTools.close();
    return { notOffered, refused, answered, asked: asked.length };
  }, { pkgUrl: pkg.url, urlModern: modern.url });
  assert.equal(out.notOffered, 'refused: the client did not declare sampling.tools');
  assert.equal(out.refused?.code, -32602, JSON.stringify(out.refused));
  assert.match(out.refused.message, /sampling\.tools/);
  assert.equal(out.answered, 'answer: Mild. (after tool calls for London)');
  // The plain client's handler was never asked: the refusal came before it.
  assert.equal(out.asked, 2);
});

test('a host script sends W3C trace context in a request\'s _meta (options.meta) to the PyPI server; a bad one is refused before anything is sent', async () => {
  const out = await page.evaluate(async ({ pkgUrl, urlModern }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    await m.default();
    const caught = async (f) => { try { await f(); return null; } catch (e) { return { kind: e.kind, message: e.message }; } };
    const parent = '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01';
    let asked = 0;
    const c = await m.McpClient.connect({ url: urlModern, approve: async () => { asked += 1; return true; } });
    const traced = await c.callTool('trace', {}, { meta: { traceparent: parent, tracestate: 'rojo=00f067aa0ba902b7', baggage: 'userId=alice' } });
    const plain = await c.callTool('trace', {});
    const viaRequest = await c.request('tools/call', { name: 'trace', arguments: {} }, { meta: { traceparent: parent } });
    const progress = [];
    const counted = await c.callTool('count', { steps: 2 }, { meta: { traceparent: parent }, onProgress: (p) => progress.push(p.progress) });
    const prompt = await c.getPrompt('greet', { name: 'Ada' }, { meta: { traceparent: parent, 'com.example/run': 7 } });
    const approvedSoFar = asked;
    const refused = {
      badParent: await caught(() => c.callTool('trace', {}, { meta: { traceparent: '00-not-a-trace' } })),
      owned: await caught(() => c.callTool('trace', {}, { meta: { progressToken: 1 } })),
      version: await caught(() => c.request('tools/list', {}, { meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } })),
      notObject: await caught(() => c.callTool('trace', {}, { meta: 'x' })),
      badKey: await caught(() => c.getPrompt('greet', { name: 'Ada' }, { meta: { '<b>key</b>': 1 } })),
      notString: await caught(() => c.readResource('test://static/1', { meta: { baggage: 5 } })),
    };
    const after = await c.callTool('trace', {}, { meta: { traceparent: parent } });
    c.close();
    const text = (r) => r.content[0].text;
    return { traced: text(traced), plain: text(plain), viaRequest: text(viaRequest),
      counted: text(counted), progress, prompt: prompt.messages.length, approvedSoFar, asked, refused, after: text(after) };
  }, { pkgUrl: pkg.url, urlModern: modern.url });
  const parent = '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01';
  assert.equal(out.traced, `traceparent=${parent} tracestate=rojo=00f067aa0ba902b7 baggage=userId=alice`);
  assert.equal(out.plain, 'traceparent=None tracestate=None baggage=None');
  assert.equal(out.viaRequest, `traceparent=${parent} tracestate=None baggage=None`);
  assert.equal(out.counted, 'counted to 2');
  assert.deepEqual(out.progress, [1, 2]);
  assert.equal(out.prompt, 1);
  for (const [what, r] of Object.entries(out.refused)) {
    assert.equal(r?.kind, 'invalid-argument', `${what}: ${JSON.stringify(r)}`);
    assert.match(r.message, /options\.meta/, what);
  }
  assert.match(out.refused.badParent.message, /W3C trace context/);
  assert.match(out.refused.owned.message, /progressToken.*set by the client itself/);
  assert.match(out.refused.badKey.message, /not a valid key name/);
  assert.match(out.refused.notString.message, /baggage must be a string/);
  // The refused calls never reached the approve hook; the calls before and after did.
  assert.equal(out.approvedSoFar, 3);
  assert.equal(out.asked, 4);
  assert.equal(out.after, `traceparent=${parent} tracestate=None baggage=None`);
});

test('a tool that must run as a task works without listing tools first, and aborting it cancels the task', async () => {
  const out = await page.evaluate(async ({ pkgUrl, urlA }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    await m.default();
    // Never lists tools: the server would refuse a plain call (-32601, as an error result);
    // the client lists the tools first, learns which need a task and calls this one as one.
    const client = await m.McpClient.connect({ url: urlA });
    const states = [];
    // With trace context: the task's requests (its result, its polls) carry it too.
    const research = await client.callTool('simulate-research-query', { topic: 'tides' },
      { onTask: (t) => states.push(t.status), meta: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01' } });
    // The same on a second fresh client, aborted once the task is running.
    const other = await m.McpClient.connect({ url: urlA });
    const abort = new AbortController();
    let aborted = null;
    const seen = [];
    try {
      await other.callTool('simulate-research-query', { topic: 'reefs' },
        { signal: abort.signal, onTask: (t) => { seen.push(t.status); abort.abort(); } });
    } catch (e) { aborted = String(e.message || e); }
    client.close();
    other.close();
    return { text: research.content.map((c) => c.text || '').join(' '), isError: research.isError, states, aborted, seen };
  }, { pkgUrl: pkg.url, urlA: a.url });
  assert.equal(out.states[0], 'working');
  assert.notEqual(out.isError, true, out.text);
  assert.match(out.text, /tides/i);
  assert.equal(out.seen[0], 'working');
  assert.match(out.aborted, /cancel/i);
});

test('a 2026-07-28 server answers calls with tasks (Tasks extension): callTool resolves with what each came to, onTask hears the states', async () => {
  const out = await page.evaluate(async ({ pkgUrl, url }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    await m.default();
    const caught = async (f) => {
      try { await f(); return null; } catch (e) { return { kind: e.kind, code: e.code, afterMs: e.afterMs, message: e.message }; }
    };
    const asked = [];
    const client = await m.McpClient.connect({
      url,
      onElicitation: async (params) => {
        asked.push(params.message);
        // A person takes their time: the task's polls meanwhile repeat the same request.
        await new Promise((r) => setTimeout(r, 800));
        if (params.message.includes('refused')) throw new Error('not now');
        return { action: 'accept', content: { approved: true } };
      },
    });
    const states = [];
    const report = await client.callTool('report', { seconds: 0.6 }, { onTask: (t) => states.push(t.status) });
    const approved = await client.callTool('approve', { item: 'the plan' });
    const failed = await caught(() => client.callTool('fail', {}));
    const refused = await caught(() => client.callTool('approve', { item: 'refused thing' }));
    const abort = new AbortController();
    const aborted = await caught(() => client.callTool('forever', {}, { signal: abort.signal, onTask: () => abort.abort() }));
    // A task that never ends is given up on once its time to live (longer than the call's
    // own time limit here) has passed.
    const ids = [];
    const given = await caught(() => client.callTool('forever', { ttl_ms: 1500 }, { timeoutMs: 500, onTask: (t) => ids.push(t.taskId) }));
    client.close();
    return { report: report.content[0].text, states, approved: approved.content[0].text, asked, failed, refused, aborted, given, id: ids[0] };
  }, { pkgUrl: pkg.url, url: tasks.url });
  assert.equal(out.report, 'report ready after 0.6 s');
  assert.equal(out.states[0], 'working');
  assert.equal(out.states.at(-1), 'completed');
  assert.equal(out.approved, 'the plan: approved');
  assert.deepEqual(out.asked, ['Approve the plan?', 'Approve refused thing?'], 'each question asked once');
  assert.equal(out.failed.kind, 'rpc');
  assert.equal(out.failed.code, -32603);
  assert.match(out.failed.message, /the report service is down/);
  assert.equal(out.refused.kind, 'input-refused', out.refused.message);
  assert.equal(out.aborted.kind, 'cancelled');
  assert.equal(out.given.kind, 'timeout', out.given.message);
  assert.equal(out.given.afterMs, 1500);
  // ... and cancelled on the server.
  const state = await taskStatusOnServer(page, tasks.url, out.id, 'cancelled');
  assert.equal(state, 'cancelled');
});

test('a task outlives polls lost for want of the server: a reset connection and a 503 are asked again, and the calls end with their results', async () => {
  const root = path.resolve(here, '../..');
  const proxy = await startPeer('fault_proxy.mjs', ['--', `${root}/tests/.venv-modern/bin/python`, `${root}/tests/peers/tasks_server.py`]);
  const base = proxy.url.replace(/\/mcp$/, '');
  try {
    const seen = async () => (await (await fetch(`${base}/__log`)).json()).filter((m) => m === 'tasks/get').length;
    const out = await page.evaluate(async ({ pkgUrl, url, base }) => {
      const m = await import(`${pkgUrl}/mcp_client.js`);
      await m.default();
      const client = await m.McpClient.connect({ url });
      // The next two polls, whichever call makes them, fail: one unanswered, one refused for
      // now. Each call polls within 5 s of its task's creation, before its task ends.
      for (const fault of [{ kind: 'reset', method: 'tasks/get' }, { kind: 'status', method: 'tasks/get', status: 503, body: 'busy' }]) {
        await fetch(`${base}/__fault`, { method: 'POST', body: JSON.stringify(fault) });
      }
      const settled = await Promise.allSettled([
        client.callTool('report', { seconds: 6 }),
        client.callTool('report', { seconds: 6.5 }),
      ]);
      client.close();
      return settled.map((s) => (s.status === 'fulfilled' ? s.value.content[0].text : `${s.reason.kind}: ${s.reason.message}`));
    }, { pkgUrl: pkg.url, url: proxy.url, base });
    assert.deepEqual(out, ['report ready after 6 s', 'report ready after 6.5 s']);
    // Both faults were met: the first two polls (each is logged, the failed ones too).
    assert.ok(await seen() >= 2, `polls seen: ${await seen()}`);
  } finally {
    proxy.stop();
  }
});

test('so does a 2025-11-25 task (server-everything): a poll reset mid-answer is made again while its tasks/result waits for the person', async () => {
  const root = path.resolve(here, '../..');
  const everything = `${root}/tests/node_modules/@modelcontextprotocol/server-everything/dist/index.js`;
  const proxy = await startPeer('fault_proxy.mjs', ['--', 'node', '-r', `${root}/tests/peers/loopback.cjs`, everything, 'streamableHttp']);
  const base = proxy.url.replace(/\/mcp$/, '');
  try {
    const out = await page.evaluate(async ({ pkgUrl, url, base }) => {
      const m = await import(`${pkgUrl}/mcp_client.js`);
      await m.default();
      // The person takes 6 s to answer the question the task asks (it polls meanwhile: at
      // the longest interval, 5 s, once the server announces its states).
      const client = await m.McpClient.connect({
        url,
        onElicitation: () => new Promise((answer) => setTimeout(() => answer({ action: 'decline' }), 6_000)),
      });
      await fetch(`${base}/__fault`, { method: 'POST', body: JSON.stringify({ kind: 'reset', method: 'tasks/get' }) });
      const states = [];
      try {
        const research = await client.callTool('simulate-research-query', { topic: 'tides', ambiguous: true }, { onTask: (t) => states.push(t.status) });
        return { text: research.content[0].text, states };
      } catch (e) {
        return { error: `${e.kind}: ${e.message}`, states };
      } finally {
        client.close();
      }
    }, { pkgUrl: pkg.url, url: proxy.url, base });
    assert.equal(out.error, undefined);
    assert.match(out.text, /tides/);
    assert.equal(out.states.at(-1), 'completed');
    // The fault was met: the poll it reset is logged.
    const polls = (await (await fetch(`${base}/__log`)).json()).filter((m) => m === 'tasks/get').length;
    assert.ok(polls >= 1, `polls seen: ${polls}`);
  } finally {
    proxy.stop();
  }
});

/** Makes the host page record what each of its requests asks for (the `Mcp-Method` header) in
 * `window.recorded.sent`, the filters of its `subscriptions/listen` streams in
 * `window.recorded.filters`, and the most of those open at once (opened and not yet closed by
 * the client; the servers here never end one) in `window.recorded.mostListening`, until
 * `window.recorded.stop()`. */
function recordPosts() {
  return page.evaluate(() => {
    const original = window.fetch;
    const recorded = { sent: [], filters: [], listening: 0, mostListening: 0, stop: () => { window.fetch = original; } };
    window.recorded = recorded;
    window.fetch = function (input, init) {
      const headers = new Headers((init && init.headers) || (input instanceof Request ? input.headers : undefined));
      recorded.sent.push(headers.get('mcp-method'));
      if (headers.get('mcp-method') === 'subscriptions/listen' && init && init.body) {
        const body = typeof init.body === 'string' ? init.body : new TextDecoder().decode(init.body);
        recorded.filters.push(JSON.parse(body).params.notifications);
        recorded.listening += 1;
        recorded.mostListening = Math.max(recorded.mostListening, recorded.listening);
        let closed = false;
        const close = () => { if (!closed) { closed = true; recorded.listening -= 1; } };
        init.signal?.addEventListener('abort', close);
        const answer = original.apply(this, arguments);
        answer.catch(close);
        return answer;
      }
      return original.apply(this, arguments);
    };
  });
}

test('a 2026-07-28 server pushes the states of a task the client follows (notifications/tasks on the listen stream): the call ends with the pushed result, before any poll', async () => {
  await recordPosts();
  const out = await page.evaluate(async ({ pkgUrl, url }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    await m.default();
    // What each POST asks for (its Mcp-Method header), and the filters of the listen streams.
    const { sent, filters } = window.recorded;
    try {
      const client = await m.McpClient.connect({ url });
      const states = [];
      const ids = [];
      // The server suggests polling once a minute (the client waits 5 s at most); the task
      // ends after half a second.
      const quiet = await client.callTool('quiet', { seconds: 0.5 }, { onTask: (t) => { states.push(t.status); ids.push(t.taskId); } });
      client.close();
      return { text: quiet.content[0].text, states, id: ids[0], polls: sent.filter((s) => s === 'tasks/get').length, filters };
    } finally {
      window.recorded.stop();
    }
  }, { pkgUrl: pkg.url, url: tasks.url });
  assert.equal(out.text, 'quiet ready after 0.5 s');
  assert.equal(out.states[0], 'working');
  assert.equal(out.states.at(-1), 'completed');
  // The listen stream was opened again with the task's id, and no poll was needed.
  assert.ok(out.filters.some((f) => (f.taskIds || []).includes(out.id)), JSON.stringify(out.filters));
  assert.equal(out.polls, 0);
});

test('tasks followed at once share listen streams: a change waits for the stream open now to be acknowledged (8 calls, a few streams, not one each)', async () => {
  await recordPosts();
  const out = await page.evaluate(async ({ pkgUrl, url }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    await m.default();
    const { sent, filters } = window.recorded;
    try {
      const client = await m.McpClient.connect({ url });
      const ids = new Set();
      // Polled once a minute (the client waits 5 s at most): each ends after a second, told
      // by the server's push alone.
      const calls = Array.from({ length: 8 }, () => client.callTool('quiet', { seconds: 1 }, { onTask: (t) => ids.add(t.taskId) }));
      const texts = (await Promise.all(calls)).map((r) => r.content[0].text);
      const mostListening = window.recorded.mostListening;
      client.close();
      return { texts, ids: [...ids], filters, polls: sent.filter((s) => s === 'tasks/get').length, mostListening };
    } finally {
      window.recorded.stop();
    }
  }, { pkgUrl: pkg.url, url: tasks.url });
  assert.deepEqual(out.texts, Array(8).fill('quiet ready after 1 s'));
  assert.equal(out.ids.length, 8);
  // Every task was asked for on a stream, and its end pushed: no poll.
  for (const id of out.ids) {
    assert.ok(out.filters.some((f) => (f.taskIds || []).includes(id)), `${id} in ${JSON.stringify(out.filters)}`);
  }
  assert.equal(out.polls, 0);
  // The stream opened on connect, then a few for the eight tasks (one each before).
  assert.ok(out.filters.length <= 5, `${out.filters.length} listen streams: ${JSON.stringify(out.filters)}`);
  // A replaced stream stays open a moment after its successor's acknowledgment, one at a
  // time: never more than two streams hold connections.
  assert.ok(out.mostListening >= 1 && out.mostListening <= 2, `${out.mostListening} listen streams open at once`);
});

test('a task outlives its page: resumeTask on the reloaded page follows it to its result, asks what it waits on, and cancels it on abort', async () => {
  // The first page starts two calls that become tasks and keeps their ids; one will wait for
  // the person, whom this page never asks.
  const ids = await page.evaluate(async ({ pkgUrl, url }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    await m.default();
    const client = await m.McpClient.connect({ url, onElicitation: () => new Promise(() => {}) });
    const idOf = (name, args) => new Promise((resolve, reject) => {
      client.callTool(name, args, { onTask: (t) => resolve(t.taskId) }).catch(reject);
    });
    return { report: await idOf('report', { seconds: 2 }), approve: await idOf('approve', { item: 'the trip' }), forever: await idOf('forever', {}) };
  }, { pkgUrl: pkg.url, url: tasks.url });
  await page.reload();
  const out = await page.evaluate(async ({ pkgUrl, url, ids }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    await m.default();
    const caught = async (f) => {
      try { await f(); return null; } catch (e) { return { kind: e.kind, code: e.code, message: e.message }; }
    };
    const asked = [];
    const client = await m.McpClient.connect({
      url,
      onElicitation: async (params) => { asked.push(params.message); return { action: 'accept', content: { approved: true } }; },
    });
    const states = [];
    const report = await client.resumeTask(ids.report, { onTask: (t) => states.push(t.status) });
    const approved = await client.resumeTask(ids.approve);
    const unknown = await caught(() => client.resumeTask('no-such-task'));
    const abort = new AbortController();
    const aborted = await caught(() => client.resumeTask(ids.forever, { signal: abort.signal, onTask: () => abort.abort() }));
    client.close();
    return { report: report.content[0].text, states, approved: approved.content[0].text, asked, unknown, aborted };
  }, { pkgUrl: pkg.url, url: tasks.url, ids });
  assert.equal(out.report, 'report ready after 2 s');
  assert.equal(out.states[0], 'working');
  assert.equal(out.states.at(-1), 'completed');
  assert.equal(out.approved, 'the trip: approved');
  assert.deepEqual(out.asked, ['Approve the trip?']);
  assert.equal(out.unknown.kind, 'rpc');
  assert.match(out.unknown.message, /no task no-such-task/);
  assert.equal(out.aborted.kind, 'cancelled');
  const state = await taskStatusOnServer(page, tasks.url, ids.forever, 'cancelled');
  assert.equal(state, 'cancelled');
});

test('the package exports its API and nothing else (no benchmark or test helpers)', async () => {
  const names = await page.evaluate(async (pkgUrl) => Object.keys(await import(`${pkgUrl}/mcp_client.js`)).sort(), pkg.url);
  assert.deepEqual(names, ['McpClient', 'default', 'initSync']);
});

test('thousands of calls leave no wasm memory behind', async () => {
  const out = await page.evaluate(async ({ pkgUrl, urlA }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    // The module's exports: its linear memory among them.
    const wasm = await m.default();
    const client = await m.McpClient.connect({ url: urlA });
    for (let i = 0; i < 1000; i++) await client.callTool('echo', { message: 'x' });
    const before = wasm.memory.buffer.byteLength;
    for (let i = 0; i < 4000; i++) await client.callTool('echo', { message: 'x' });
    const after = wasm.memory.buffer.byteLength;
    client.close();
    return { before, after };
  }, { pkgUrl: pkg.url, urlA: a.url });
  // Wasm memory grows in 64 KiB pages and never shrinks: a leak of a few dozen bytes a call
  // (as an exception per call once left) shows as new pages over 4,000 calls.
  assert.equal(out.after, out.before);
});

test('lists and reads follow a 2026-07-28 server\'s caching hints; options.cache refreshes or bypasses', async () => {
  const out = await page.evaluate(async ({ pkgUrl, url }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    await m.default();
    // Which MCP methods reach the network (the Mcp-Method header of each POST).
    const original = window.fetch;
    const sent = [];
    window.fetch = function (input, init) {
      const headers = new Headers((init && init.headers) || (input instanceof Request ? input.headers : undefined));
      sent.push(headers.get('mcp-method'));
      return original.apply(this, arguments);
    };
    const count = (method) => sent.filter((s) => s === method).length;
    try {
      const client = await m.McpClient.connect({ url });
      const first = await client.listTools();
      const again = await client.listTools();
      const afterTwo = count('tools/list');
      await client.listTools({ cache: 'bypass' });
      const afterBypass = count('tools/list');
      await client.listTools();
      const afterDropped = count('tools/list');
      await client.listTools({ cache: 'refresh' });
      const afterRefresh = count('tools/list');
      await client.listTools();
      const afterCached = count('tools/list');
      const read = await client.readResource('test://greeting');
      await client.readResource('test://greeting');
      const reads = count('resources/read');
      await client.listPrompts(); await client.listPrompts();
      await client.listResourceTemplates(); await client.listResourceTemplates();
      let refused = null;
      try { await client.listTools({ cache: 'sometimes' }); } catch (e) { refused = String(e.message || e); }
      const era = client.server().era;
      client.close();
      return { era, same: JSON.stringify(first) === JSON.stringify(again), afterTwo, afterBypass, afterDropped, afterRefresh, afterCached,
        text: read.contents[0].text, reads, prompts: count('prompts/list'), templates: count('resources/templates/list'), refused };
    } finally {
      window.fetch = original;
    }
  }, { pkgUrl: pkg.url, url: modern.url });
  assert.equal(out.era, 'modern');
  assert.ok(out.same);
  assert.equal(out.afterTwo, 1, 'the second listing came from the cache (ttlMs: a minute)');
  assert.equal(out.afterBypass, 2, 'bypass asks the server');
  assert.equal(out.afterDropped, 3, 'bypass kept nothing and dropped the older listing');
  assert.equal(out.afterRefresh, 4, 'refresh asks the server');
  assert.equal(out.afterCached, 4, 'the refreshed listing is served again');
  assert.equal(out.text, 'hello from the modern server');
  assert.equal(out.reads, 1);
  assert.equal(out.prompts, 1);
  assert.equal(out.templates, 1);
  assert.match(out.refused, /options\.cache must be one of "use", "refresh", "bypass", not "sometimes"/);
});

/**
 * server-everything (its `mode`: "streamableHttp" or "sse") behind the fault-injecting proxy,
 * which restarts it on request: the fresh server knows neither the session nor what it
 * subscribed to. A client connected over `transport` with one resource subscribed must start
 * a fresh session, subscribe again, and get that resource's updates.
 */
async function restartKeepsSubscriptions(mode, transport, path0) {
  const root = path.resolve(here, '../..');
  const everything = `${root}/tests/node_modules/@modelcontextprotocol/server-everything/dist/index.js`;
  const proxy = await startPeer('fault_proxy.mjs', ['--', 'node', '-r', `${root}/tests/peers/loopback.cjs`, everything, mode]);
  const base = proxy.url.replace(/\/mcp$/, '');
  try {
    const uri = await page.evaluate(async ({ pkgUrl, url, transport }) => {
      const m = await import(`${pkgUrl}/mcp_client.js`);
      await m.default();
      window.restartUpdates = [];
      window.restartStates = [];
      window.restarted = await m.McpClient.connect({
        url,
        transport,
        onNotification: (n) => { if (n.method === 'notifications/resources/updated') window.restartUpdates.push(n.params.uri); },
        onStateChange: (s) => window.restartStates.push(s),
      });
      const [first] = await window.restarted.listResources();
      await window.restarted.subscribeResource(first.uri);
      return first.uri;
    }, { pkgUrl: pkg.url, url: `${base}${path0}`, transport });
    const restart = await fetch(`${base}/__fault`, { method: 'POST', body: JSON.stringify({ kind: 'restart' }) });
    assert.equal(restart.ok, true);
    // The next call finds the session gone: a fresh one is started and the call answered.
    const echoed = await page.evaluate(async () => (await window.restarted.callTool('echo', { message: 'after the restart' })).content[0].text);
    assert.equal(echoed, 'Echo: after the restart');
    assert.ok((await page.evaluate(() => window.restartStates)).includes('reconnecting'));
    // The fresh server sends updates only for what the fresh session subscribed to.
    await page.evaluate(async () => { await window.restarted.callTool('toggle-subscriber-updates', {}); });
    await waitFor(async () => (await page.evaluate(() => window.restartUpdates.length)) > 0, 15_000, 'an update in the fresh session');
    assert.deepEqual([...new Set(await page.evaluate(() => window.restartUpdates))], [uri]);
    const seen = await (await fetch(`${base}/__log`)).json();
    assert.equal(seen.filter((m) => m === 'resources/subscribe').length, 2, JSON.stringify(seen));
    assert.equal(seen.filter((m) => m === 'initialize').length, 2, JSON.stringify(seen));
  } finally {
    await page.evaluate(async () => {
      await window.restarted?.callTool('toggle-subscriber-updates', {}).catch(() => {});
      window.restarted?.close();
    });
    proxy.stop();
  }
}

test('a 2025-era session lost to a server restart starts again with its resource subscriptions, so their updates keep coming', async () => {
  await restartKeepsSubscriptions('streamableHttp', 'auto', '/mcp');
});

test('an HTTP+SSE (2024-11-05) session lost to a server restart starts again with its resource subscriptions', async () => {
  // The restart cuts the event stream: it is opened again at once, which the proxy may
  // refuse while the server is still starting, then again later.
  await restartKeepsSubscriptions('sse', 'sse', '/sse');
});

test('leaving the page ends a 2025-era session: the call under way is cancelled on the server and the session deleted as the page unloads', async () => {
  const root = path.resolve(here, '../..');
  const everything = `${root}/tests/node_modules/@modelcontextprotocol/server-everything/dist/index.js`;
  const proxy = await startPeer('fault_proxy.mjs', ['--uncached-preflights', '--', 'node', '-r', `${root}/tests/peers/loopback.cjs`, everything, 'streamableHttp']);
  const base = proxy.url.replace(/\/mcp$/, '');
  const leaving = await browser.newPage();
  try {
    await leaving.goto(`${host.url}/index.html`);
    // The person goes to another page; the host page never closes the client itself.
    const log = await leaveWithCallUnderWay(leaving, base, () => leaving.evaluate(async ({ pkgUrl, url }) => {
      const m = await import(`${pkgUrl}/mcp_client.js`);
      await m.default();
      window.leaving = await m.McpClient.connect({ url });
      window.leaving.callTool('echo', { message: 'never answered' }).catch(() => {});
    }, { pkgUrl: pkg.url, url: proxy.url }), 'the page left');
    assert.match(log.find((m) => m.startsWith('notifications/cancelled')), /^notifications\/cancelled \d+$/);
  } finally {
    await leaving.close();
    proxy.stop();
  }
});

test('a host script gets the kept list when the server cannot be asked again, and hears of it (onStale); cache "refresh" gives the error', async () => {
  // The 2026-07-28 server behind the fault-injecting proxy; it keeps templates fresh for 3 s.
  const root = path.resolve(here, '../..');
  const proxy = await startPeer('fault_proxy.mjs', ['--', `${root}/tests/.venv-modern/bin/python`, `${root}/tests/peers/modern_server.py`]);
  const base = proxy.url.replace(/\/mcp$/, '');
  const arm503 = async () => {
    const r = await fetch(`${base}/__fault`, { method: 'POST', body: JSON.stringify({ kind: 'status', method: 'resources/templates/list', status: 503, body: 'down for maintenance' }) });
    assert.equal(r.ok, true);
  };
  try {
    const listedAt = await page.evaluate(async ({ pkgUrl, url }) => {
      const m = await import(`${pkgUrl}/mcp_client.js`);
      await m.default();
      window.staleHeard = [];
      window.staleClient = await m.McpClient.connect({ url, onStale: (s) => window.staleHeard.push(s) });
      window.keptTemplates = await window.staleClient.listResourceTemplates();
      return Date.now();
    }, { pkgUrl: pkg.url, url: proxy.url });
    // The condition is time itself: the kept templates are no longer fresh.
    await waitFor(() => Date.now() > listedAt + 3_200, 10_000, 'the templates to go stale');
    await arm503();
    const served = await page.evaluate(async () => {
      const again = await window.staleClient.listResourceTemplates();
      // The listener runs as a microtask of its own, after the call's answer.
      const deadline = Date.now() + 5_000;
      while (window.staleHeard.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      return { same: JSON.stringify(again) === JSON.stringify(window.keptTemplates), count: again.length, heard: window.staleHeard };
    });
    assert.ok(served.count > 0);
    assert.ok(served.same, 'the kept templates answered');
    assert.equal(served.heard.length, 1);
    assert.equal(served.heard[0].method, 'resources/templates/list');
    assert.ok(served.heard[0].ageMs >= 3_000, `age ${served.heard[0].ageMs}`);
    assert.match(served.heard[0].error, /HTTP 503: down for maintenance/);
    await arm503();
    const refreshed = await page.evaluate(async () => {
      try {
        await window.staleClient.listResourceTemplates({ cache: 'refresh' });
        return { answered: true };
      } catch (e) {
        return { message: String(e.message || e), kind: e.kind, status: e.status };
      } finally {
        window.staleClient.close();
      }
    });
    assert.match(refreshed.message, /503/);
    assert.equal(refreshed.kind, 'http');
    assert.equal(refreshed.status, 503);
  } finally {
    proxy.stop();
  }
});

test('connect takes a signal: aborted while connecting, the client is closed (the request under way closed) and connect rejects "cancelled"; aborted before, nothing is sent', async () => {
  const root = path.resolve(here, '../..');
  const proxy = await startPeer('fault_proxy.mjs', ['--', `${root}/tests/.venv-modern/bin/python`, `${root}/tests/peers/modern_server.py`]);
  const base = proxy.url.replace(/\/mcp$/, '');
  const seen = async () => (await fetch(`${base}/__log`)).json();
  try {
    // Before: refused at once, nothing reaches the server.
    const before = await page.evaluate(async ({ pkgUrl, url }) => {
      const m = await import(`${pkgUrl}/mcp_client.js`);
      await m.default();
      try { await m.McpClient.connect({ url, signal: AbortSignal.abort() }); return { connected: true }; } catch (e) { return { kind: e.kind, message: e.message }; }
    }, { pkgUrl: pkg.url, url: proxy.url });
    assert.equal(before.kind, 'cancelled', JSON.stringify(before));
    assert.deepEqual(await seen(), []);
    // While connecting: the server's first answer is held.
    const r = await fetch(`${base}/__fault`, { method: 'POST', body: JSON.stringify({ kind: 'hold', method: 'server/discover' }) });
    assert.equal(r.ok, true);
    await page.evaluate(async ({ pkgUrl, url }) => {
      const m = await import(`${pkgUrl}/mcp_client.js`);
      window.stopConnecting = new AbortController();
      window.connecting = m.McpClient.connect({ url, rememberEra: false, signal: window.stopConnecting.signal })
        .then(() => ({ connected: true }), (e) => ({ kind: e.kind, message: e.message }));
    }, { pkgUrl: pkg.url, url: proxy.url });
    await waitFor(async () => (await seen()).includes('server/discover'), 10_000, 'the probe to reach the server');
    const during = await page.evaluate(async () => { window.stopConnecting.abort(); return window.connecting; });
    assert.equal(during.kind, 'cancelled', JSON.stringify(during));
    assert.match(during.message, /connecting to .* was aborted/);
    await waitFor(async () => (await seen()).includes('closed server/discover'), 10_000, 'the held probe to be closed');
    // The server is fine: the next client connects.
    const after = await page.evaluate(async ({ pkgUrl, url }) => {
      const m = await import(`${pkgUrl}/mcp_client.js`);
      const c = await m.McpClient.connect({ url, signal: new AbortController().signal });
      const n = (await c.listTools()).length;
      c.close();
      return n;
    }, { pkgUrl: pkg.url, url: proxy.url });
    assert.ok(after > 0);
  } finally {
    proxy.stop();
  }
});

test('getPrompt, readResource, complete and the lists take timeoutMs and signal: a request given up on closes its stream (its cancellation) and the client goes on', async () => {
  // The 2026-07-28 server behind the fault-injecting proxy, which holds chosen requests
  // unanswered and logs when the client closes them.
  const root = path.resolve(here, '../..');
  const proxy = await startPeer('fault_proxy.mjs', ['--', `${root}/tests/.venv-modern/bin/python`, `${root}/tests/peers/modern_server.py`]);
  const base = proxy.url.replace(/\/mcp$/, '');
  const hold = async (method) => {
    const r = await fetch(`${base}/__fault`, { method: 'POST', body: JSON.stringify({ kind: 'hold', method }) });
    assert.equal(r.ok, true);
  };
  const seen = async () => (await fetch(`${base}/__log`)).json();
  try {
    await page.evaluate(async ({ pkgUrl, url }) => {
      const m = await import(`${pkgUrl}/mcp_client.js`);
      await m.default();
      window.held = await m.McpClient.connect({ url });
      window.caught = async (f) => { try { await f(); return { answered: true }; } catch (e) { return { kind: e.kind, afterMs: e.afterMs, message: e.message }; } };
    }, { pkgUrl: pkg.url, url: proxy.url });

    // A time-out: the prompt never comes.
    await hold('prompts/get');
    const timedOut = await page.evaluate(() => window.caught(() => window.held.getPrompt('greet', { name: 'Ada' }, { timeoutMs: 300 })));
    assert.equal(timedOut.kind, 'timeout', JSON.stringify(timedOut));
    assert.equal(timedOut.afterMs, 300);
    await waitFor(async () => (await seen()).includes('closed prompts/get'), 10_000, 'the timed-out prompts/get stream to be closed');

    // An abort once the read is under way (the proxy has seen it).
    await hold('resources/read');
    await page.evaluate(() => {
      window.abortRead = new AbortController();
      window.reading = window.caught(() => window.held.readResource('test://greeting', { cache: 'bypass', signal: window.abortRead.signal }));
    });
    await waitFor(async () => (await seen()).includes('resources/read'), 10_000, 'the read to reach the server');
    const aborted = await page.evaluate(async () => { window.abortRead.abort(); return window.reading; });
    assert.equal(aborted.kind, 'cancelled', JSON.stringify(aborted));
    await waitFor(async () => (await seen()).includes('closed resources/read'), 10_000, 'the aborted resources/read stream to be closed');

    // A listing: a page that never comes times out; a listing aborted while its page is
    // under way is stopped, the page's request closed; one aborted before it starts sends nothing.
    await hold('prompts/list');
    const listTimedOut = await page.evaluate(() => window.caught(() => window.held.listPrompts({ cache: 'bypass', timeoutMs: 300 })));
    assert.equal(listTimedOut.kind, 'timeout', JSON.stringify(listTimedOut));
    await waitFor(async () => (await seen()).includes('closed prompts/list'), 10_000, 'the timed-out prompts/list stream to be closed');
    await hold('resources/list');
    await page.evaluate(() => {
      window.abortList = new AbortController();
      window.listing = window.caught(() => window.held.listResources({ cache: 'bypass', signal: window.abortList.signal }));
    });
    await waitFor(async () => (await seen()).includes('resources/list'), 10_000, 'the listing to reach the server');
    const listAborted = await page.evaluate(async () => { window.abortList.abort(); return window.listing; });
    assert.equal(listAborted.kind, 'cancelled', JSON.stringify(listAborted));
    assert.match(listAborted.message, /cancelled/);
    await waitFor(async () => (await seen()).includes('closed resources/list'), 10_000, 'the aborted resources/list stream to be closed');
    const toolListings = (await seen()).filter((x) => x === 'tools/list').length;
    const listEarly = await page.evaluate(() => window.caught(() => window.held.listTools({ signal: AbortSignal.abort() })));
    assert.equal(listEarly.kind, 'cancelled');
    assert.match(listEarly.message, /the listing tools\/list was aborted/);
    assert.equal((await seen()).filter((x) => x === 'tools/list').length, toolListings, 'nothing sent for an aborted listing');

    // Already aborted: nothing is sent. A held completion times out.
    const before = (await seen()).filter((x) => x === 'completion/complete').length;
    await hold('completion/complete');
    const out = await page.evaluate(async () => {
      const ref = { type: 'ref/prompt', name: 'greet' };
      const early = await window.caught(() => window.held.complete(ref, 'name', 'A', undefined, { signal: AbortSignal.abort() }));
      const late = await window.caught(() => window.held.complete(ref, 'name', 'A', {}, { timeoutMs: 300 }));
      // The client goes on: the same requests answered.
      const prompt = await window.held.getPrompt('greet', { name: 'Ada' });
      const read = await window.held.readResource('test://greeting', { timeoutMs: 10_000 });
      const completion = await window.held.complete(ref, 'name', 'A');
      const resources = await window.held.listResources({ cache: 'bypass', timeoutMs: 10_000 });
      window.held.close();
      return { early, late, prompt: prompt.messages[0].content.text, read: read.contents[0].text, values: completion.values, resources: resources.map((r) => r.uri) };
    });
    assert.equal(out.early.kind, 'cancelled');
    assert.match(out.early.message, /completing was aborted/);
    assert.equal(out.late.kind, 'timeout');
    assert.equal(out.prompt, 'Please greet Ada.');
    assert.equal(out.read, 'hello from the modern server');
    assert.deepEqual(out.values, ['Ada', 'Alan']);
    assert.ok(out.resources.includes('test://greeting'), JSON.stringify(out.resources));
    const log = await seen();
    assert.equal(log.filter((x) => x === 'completion/complete').length, before + 2, 'the aborted completion was never sent; the held one and the last were');
    assert.ok(log.includes('closed completion/complete'));
  } finally {
    proxy.stop();
  }
});

test('a host script hears the server: log messages at the level it set, updates of the resources it subscribed to, the connection\'s states', async () => {
  const out = await page.evaluate(async ({ pkgUrl, urlLegacy, urlModern }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    await m.default();
    // What a client heard, and a way to wait (with a deadline) until it heard something.
    const ear = () => {
      const heard = []; const states = []; const waiters = [];
      const check = () => { for (const w of [...waiters]) { const hit = w.list.find(w.pred); if (hit) { waiters.splice(waiters.indexOf(w), 1); w.resolve(hit); } } };
      return {
        heard, states,
        onNotification: (n) => { heard.push(n); check(); },
        onStateChange: (st) => { states.push(st); check(); },
        until: (list, what, pred, ms = 15_000) => new Promise((resolve, reject) => {
          waiters.push({ list, pred, resolve });
          check();
          setTimeout(() => reject(new Error(`${what} not heard in ${ms} ms; heard ${JSON.stringify(heard.map((n) => n.method))}, states ${states}`)), ms);
        }),
      };
    };
    // 2025-era server-everything: logging/setLevel and resources/subscribe.
    const e = ear();
    const legacy = await m.McpClient.connect({ url: urlLegacy, onNotification: e.onNotification, onStateChange: e.onStateChange });
    await legacy.setLogLevel('debug');
    let badLevel = null;
    try { await legacy.setLogLevel('loud'); } catch (err) { badLevel = String(err.message || err); }
    await legacy.callTool('toggle-simulated-logging', {});
    const log = await e.until(e.heard, 'a log message', (n) => n.method === 'notifications/message' && typeof n.params?.level === 'string');
    await legacy.callTool('toggle-simulated-logging', {});
    const uri = (await legacy.listResources())[0].uri;
    await legacy.subscribeResource(uri);
    await legacy.callTool('toggle-subscriber-updates', {});
    const updated = await e.until(e.heard, 'a resource update', (n) => n.method === 'notifications/resources/updated' && n.params?.uri === uri);
    await legacy.callTool('toggle-subscriber-updates', {});
    await legacy.unsubscribeResource(uri);
    legacy.close();
    await e.until(e.states, 'the closed state', (st) => st === 'closed');
    // 2026-07-28: the resource joins the subscriptions/listen filter.
    const f = ear();
    const modern = await m.McpClient.connect({ url: urlModern, onNotification: f.onNotification, onStateChange: f.onStateChange });
    await modern.subscribeResource('test://greeting');
    // The listen stream is (re)opened with the resource in its filter before the change.
    await f.until(f.heard, 'the acknowledgement', (n) => n.method === 'notifications/subscriptions/acknowledged'
      && (n.params?.notifications?.resourceSubscriptions || []).includes('test://greeting'));
    await modern.callTool('touch', { uri: 'test://greeting' });
    const touched = await f.until(f.heard, 'the update', (n) => n.method === 'notifications/resources/updated');
    modern.close();
    await f.until(f.states, 'the closed state', (st) => st === 'closed');
    return { log, updated, uri, badLevel, legacyStates: e.states, modernStates: f.states, touched };
  }, { pkgUrl: pkg.url, urlLegacy: b.url, urlModern: modern.url });
  assert.match(out.log.params.level, /^(debug|info|notice|warning|error|critical|alert|emergency)$/);
  assert.equal(out.updated.params.uri, out.uri);
  assert.equal(out.touched.params.uri, 'test://greeting');
  assert.match(out.badLevel, /unknown log level "loud"/);
  // Each state once, in order: closing says "closed" once.
  assert.deepEqual(out.legacyStates, ['connecting', 'connected', 'closed']);
  assert.deepEqual(out.modernStates, ['connecting', 'connected', 'closed']);
});

test('a listen stream is replaced make-before-break: what the server sent on the old one while the new one opened arrives, what comes on both arrives once, and the old one closes', async () => {
  const out = await page.evaluate(async ({ pkgUrl, url }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    await m.default();
    const heard = [];
    const waiters = [];
    const until = (what, pred, ms = 10_000) => new Promise((resolve, reject) => {
      const check = () => { const hit = heard.find(pred); if (hit) { resolve(hit); return true; } return false; };
      if (check()) return;
      waiters.push(check);
      setTimeout(() => reject(new Error(`${what} not heard in ${ms} ms; heard ${JSON.stringify(heard.map((n) => [n.method, n.params?.uri]))}`)), ms);
    });
    const updates = (uri) => heard.filter((n) => n.method === 'notifications/resources/updated' && n.params?.uri === uri).length;
    // The listen streams open on the server, of every client (asked as a client that opens none).
    const streamsOpen = async () => {
      const r = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json', accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'listen_streams',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'listen_streams', arguments: {}, _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        } } }),
      });
      return Number((await r.json()).result.content[0].text);
    };
    const before = await streamsOpen();
    const client = await m.McpClient.connect({
      url,
      onNotification: (n) => { heard.push(n); for (const w of [...waiters]) if (w()) waiters.splice(waiters.indexOf(w), 1); },
    });
    try {
      await client.subscribeResource('test://greeting');
      // The server announces a change of the greeting the moment the next stream subscribes,
      // on the streams open then: only the stream being replaced carries it.
      await client.callTool('touch_when_listened', { uri: 'test://greeting' });
      await client.subscribeResource('test://items/1');
      await until('the greeting\'s update sent while the new stream opened', (n) => n.method === 'notifications/resources/updated' && n.params?.uri === 'test://greeting');
      // A change now comes on both streams while both are open: it is passed on once (the
      // second touch, sent after the first on the new stream, tells when the first is in).
      await client.callTool('touch', { uri: 'test://greeting' });
      await client.callTool('touch', { uri: 'test://items/1' });
      await until('the update of item 1', (n) => n.method === 'notifications/resources/updated' && n.params?.uri === 'test://items/1');
      // The old stream closes soon after: this client keeps one stream open on the server.
      const deadline = Date.now() + 10_000;
      let streams = await streamsOpen();
      while (streams !== before + 1 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        streams = await streamsOpen();
      }
      return { greeting: updates('test://greeting'), item: updates('test://items/1'), streams: streams - before };
    } finally {
      client.close();
    }
  }, { pkgUrl: pkg.url, url: modern.url });
  assert.deepEqual(out, { greeting: 2, item: 1, streams: 1 });
});

test('a host script tells the server its roots changed (also by notify), and pings legacy and 2026-07-28 servers', async () => {
  const out = await page.evaluate(async ({ pkgUrl, urlA, urlModern }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    await m.default();
    let roots = [{ uri: 'file:///first', name: 'first' }];
    const legacy = await m.McpClient.connect({ url: urlA, onRoots: async () => ({ roots }) });
    const listed = async () => (await legacy.callTool('get-roots-list', {})).content.map((c) => c.text).join('\n');
    // The server asks for the roots once it is initialized; wait until its tool reports them.
    const until = async (want) => {
      const deadline = Date.now() + 10_000;
      for (let i = 0; i < 200 && Date.now() < deadline; i++) {
        const text = await listed();
        if (text.includes(want)) return text;
        await new Promise((r) => setTimeout(r, 50));
      }
      return listed();
    };
    const before = await until('file:///first');
    roots = [{ uri: 'file:///second', name: 'second' }];
    legacy.rootsChanged();
    const after = await until('file:///second');
    // The same notification sent by hand.
    roots = [{ uri: 'file:///third', name: 'third' }];
    legacy.notify('notifications/roots/list_changed', {});
    const byHand = await until('file:///third');
    const refused = [];
    for (const [method, params] of [['tools/list'], ['notifications/initialized'], ['notifications/x', [1]]]) {
      try { legacy.notify(method, params); refused.push('sent'); } catch (e) { refused.push(e.kind); }
    }
    await legacy.ping();
    const modern = await m.McpClient.connect({ url: urlModern });
    await modern.ping();
    modern.rootsChanged(); // nothing to send in the 2026-07-28 protocol
    await modern.ping();
    const era = modern.server().era;
    legacy.close(); modern.close();
    return { before, after, byHand, refused, era };
  }, { pkgUrl: pkg.url, urlA: a.url, urlModern: modern.url });
  assert.match(out.before, /file:\/\/\/first/);
  assert.match(out.after, /file:\/\/\/second/);
  assert.doesNotMatch(out.after, /file:\/\/\/first/);
  assert.match(out.byHand, /file:\/\/\/third/);
  assert.deepEqual(out.refused, ['invalid-argument', 'invalid-argument', 'invalid-argument']);
  assert.equal(out.era, 'modern');
});

test('a host script remembers each server\'s era: the next connect skips the probe, also after a reload; rememberEra: false probes and stores nothing', async () => {
  const strict = await startPeer('ts_modern_server.mjs', ['strict']);
  const ctx = await browser.newContext(); // storage of its own
  const fresh = await ctx.newPage();
  // The JSON-RPC methods the page POSTs to each server, in order.
  const sent = [];
  fresh.on('request', (r) => {
    if (r.method() !== 'POST') return;
    try { sent.push({ url: r.url(), method: JSON.parse(r.postData()).method }); } catch { /* not JSON */ }
  });
  const firstTo = (url, from) => sent.slice(from).find((s) => s.url === url)?.method;
  const connectOnce = (options) => fresh.evaluate(async ({ pkgUrl, options }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    await m.default();
    const c = await m.McpClient.connect(options);
    const era = c.server().era;
    c.close();
    return { era, stored: JSON.parse(localStorage.getItem('mcp-browser-client.eras') || '{}') };
  }, { pkgUrl: pkg.url, options });
  try {
    await fresh.goto(`${host.url}/index.html`);
    let from = sent.length;
    const one = await connectOnce({ url: a.url });
    assert.equal(firstTo(a.url, from), 'server/discover', 'the first connection probes');
    assert.equal(one.era, 'legacy');
    assert.equal(one.stored[a.url], 'legacy');

    from = sent.length;
    const two = await connectOnce({ url: a.url });
    assert.equal(firstTo(a.url, from), 'initialize', 'the next one starts with initialize');
    assert.equal(two.era, 'legacy');

    from = sent.length;
    await connectOnce({ url: a.url, rememberEra: false });
    assert.equal(firstTo(a.url, from), 'server/discover', 'rememberEra: false probes');

    // A URL with an API key in its query: the era is kept under the URL without the query,
    // and the key is not written to storage.
    const secret = await connectOnce({ url: `${a.url}?apiKey=secret-123` });
    assert.equal(secret.era, 'legacy');
    assert.ok(!JSON.stringify(secret.stored).includes('secret-123'), JSON.stringify(secret.stored));
    assert.deepEqual(Object.keys(secret.stored), [a.url]);

    from = sent.length;
    const modernOnce = await connectOnce({ url: modern.url });
    assert.equal(modernOnce.era, 'modern');
    assert.equal(modernOnce.stored[modern.url], 'modern');

    // A new page on the site: the module's memory is gone, localStorage is not.
    await fresh.reload();
    from = sent.length;
    await connectOnce({ url: a.url });
    assert.equal(firstTo(a.url, from), 'initialize', 'remembered across page loads');

    from = sent.length;
    const unstored = await connectOnce({ url: b.url, rememberEra: false });
    assert.equal(firstTo(b.url, from), 'server/discover');
    assert.equal(unstored.stored[b.url], undefined, 'nothing stored for a client that does not remember');

    // A wrong memory: a server remembered as 2025-era that now speaks only 2026-07-28 (the
    // TypeScript SDK's server with `legacy: 'reject'`). `initialize` goes first and is
    // refused; the client probes, connects in the modern era, and remembers that instead.
    await fresh.evaluate((url) => {
      const eras = JSON.parse(localStorage.getItem('mcp-browser-client.eras') || '{}');
      localStorage.setItem('mcp-browser-client.eras', JSON.stringify({ ...eras, [url]: 'legacy' }));
    }, strict.url);
    await fresh.reload(); // the page's own memory holds nothing for it
    from = sent.length;
    const corrected = await connectOnce({ url: strict.url });
    assert.deepEqual(sent.slice(from).filter((s) => s.url === strict.url).map((s) => s.method).slice(0, 2), ['initialize', 'server/discover']);
    assert.equal(corrected.era, 'modern');
    assert.equal(corrected.stored[strict.url], 'modern');
  } finally {
    await ctx.close();
    strict.stop();
  }
});

test('a host script hears where a login is needed (onLoginNeeded): a server that connects without one and wants one for its tools', async () => {
  // The OAuth gateway in front of the real server-everything, guarding only `tools/...`.
  const guarded = await startProtected('tools-only');
  try {
    const out = await page.evaluate(async ({ pkgUrl, url }) => {
      const m = await import(`${pkgUrl}/mcp_client.js`);
      await m.default();
      const needs = [];
      const client = await m.McpClient.connect({ url, onLoginNeeded: (n) => needs.push(n) });
      const heardOnConnect = needs.length;
      let refused = null;
      try {
        await client.listTools();
      } catch (e) {
        refused = { kind: e.kind, status: e.status };
      }
      // The listener runs as a microtask of its own, around the call's answer.
      const deadline = Date.now() + 5_000;
      while (needs.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      // What needs no login still works.
      const prompts = await client.listPrompts();
      client.close();
      return { heardOnConnect, refused, needs, prompts: prompts.length };
    }, { pkgUrl: pkg.url, url: guarded.url });
    assert.equal(out.heardOnConnect, 0, 'connecting needed no login');
    assert.deepEqual(out.refused, { kind: 'auth-required', status: 401 });
    assert.equal(out.needs.length, 1, JSON.stringify(out.needs));
    assert.equal(out.needs[0].status, 401);
    assert.match(out.needs[0].wwwAuthenticate, /^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp"/);
    assert.ok(out.prompts > 0);
  } finally {
    guarded.stop();
  }
});

test('a host script\'s handler that throws refuses the server\'s request with its message and code, never its stack', async () => {
  const out = await page.evaluate(async ({ pkgUrl, url }) => {
    const m = await import(`${pkgUrl}/mcp_client.js`);
    await m.default();
    const refusals = [
      () => { throw new Error('the person said no'); },
      async () => { throw Object.assign(new Error('busy'), { code: 4001 }); },
      () => Promise.reject('no model here'),
      () => { throw { code: 1.5 }; },
    ];
    const texts = [];
    for (const onSampling of refusals) {
      const c = await m.McpClient.connect({ url, onSampling });
      try { texts.push((await c.callTool('trigger-sampling-request', { prompt: 'hi' })).content[0].text); } finally { c.close(); }
    }
    return texts;
  }, { pkgUrl: pkg.url, url: a.url });
  // server-everything puts the error it got in its tool's answer.
  assert.deepEqual(out, [
    'MCP error -1: the person said no',
    'MCP error 4001: busy',
    'MCP error -1: no model here',
    'MCP error -1: the page\'s handler refused the request',
  ]);
});
