// Type-checked (never run) by tests/e2e/package_types.test.mjs against the package's
// generated mcp_client.d.ts: what client-js/README.md shows compiles under `strict`, results
// are typed, and misuse is a compile error (each `@ts-expect-error` line must fail to type).
import init, { McpClient, type McpError, type McpTool, type McpContent, type McpTask } from '../../dist-pkg/mcp_client.js';

export async function usage(): Promise<void> {
  await init();
  const client = await McpClient.connect({
    url: 'https://files.example.com/mcp',
    namespace: 'files',
    headers: { Authorization: 'Bearer token' },
    approve: async (tool: string) => tool !== 'delete',
    onNotification: (n) => console.log(n.method, n.params),
    onStateChange: (state) => console.log(state),
    onStale: (s) => console.log(s.method, s.ageMs.toFixed(0), s.error),
  });

  // Optional arguments may be left out; results are typed.
  const tools: McpTool[] = await client.listTools();
  const names: string[] = tools.map((t) => t.title ?? t.name);
  await client.listTools({ cache: 'refresh' });
  await client.listPrompts({ timeoutMs: 5_000, signal: AbortSignal.timeout(10_000) });
  const result = await client.callTool('echo');
  const shown = result.content.map((c: McpContent) => (c.type === 'text' ? c.text : c.type));
  const stop = new AbortController();
  await client.callTool('index', { dir: '/' }, {
    onProgress: (p) => console.log(p.progress, p.total, p.message),
    onTask: (task) => console.log(task.status),
    timeoutMs: 120_000,
    signal: stop.signal,
  });
  const tasks: McpTask[] = await client.listTasks({ timeoutMs: 5_000 });
  const over: boolean = (await client.cancelTask(tasks[0].taskId)).status === 'cancelled';
  const resumed: McpContent[] = (await client.resumeTask(tasks[0].taskId, { onTask: (t) => console.log(t.status), signal: stop.signal })).content;
  const read = await client.readResource('docs://index');
  const text: string | undefined = read.contents[0]?.text;
  await client.readResource('docs://index', { cache: 'bypass', timeoutMs: 5_000, signal: stop.signal });
  const prompt = await client.getPrompt('greet', { name: 'Ada' });
  const role: 'user' | 'assistant' = prompt.messages[0].role;
  await client.getPrompt('greet', undefined, { timeoutMs: 5_000, onProgress: (p) => console.log(p.progress) });
  const completion = await client.complete({ type: 'ref/prompt', name: 'greet' }, 'name', 'A');
  const values: string[] = completion.values;
  const typing = new AbortController();
  await client.complete({ type: 'ref/prompt', name: 'greet' }, 'name', 'Ad', { city: 'x' }, { signal: typing.signal });
  const details = client.server();
  const era: 'modern' | 'legacy' | undefined = details?.era;
  const anything: unknown = await client.request('vendor/method', { x: 1 }, { timeoutMs: 1_000 });
  const defs: object[] = await client.toolDefinitions('openai');
  const modelText: string = await client.callModelTool('files__read_file', { path: 'README.md' });
  try {
    await client.ping();
  } catch (e) {
    const err = e as McpError;
    if (err.kind === 'rpc' && err.code === -32601) console.log(err.message, err.data);
    if (err.kind === 'http') console.log(err.status);
    if (err.kind === 'timeout') console.log(err.afterMs);
  }
  await client.setLogLevel('info');
  await client.subscribeResource('docs://index');
  client.rootsChanged();
  client.close();
  console.log(names, shown, text, role, values, era, anything, defs, modelText, over, resumed);

  // Misuse the types refuse:
  // @ts-expect-error: not a cache mode
  await client.listTools({ cache: 'sometimes' });
  // @ts-expect-error: the url is required
  await McpClient.connect({});
  // @ts-expect-error: prompt arguments are strings
  await client.getPrompt('greet', { n: 1 });
  // @ts-expect-error: a format the API does not know
  await client.toolDefinitions('gemini');
  // @ts-expect-error: a result's content is a list of blocks, not text
  const wrong: string = result.content;
  // @ts-expect-error: timeoutMs is a number
  await client.callTool('echo', {}, { timeoutMs: '5s' });
  // @ts-expect-error: a listing reports no progress
  await client.listResources({ onProgress: () => {} });
  // @ts-expect-error: a prompt is not a task
  await client.getPrompt('greet', {}, { onTask: () => {} });
  // @ts-expect-error: not a cache mode
  await client.readResource('docs://index', { cache: 'sometimes', signal: stop.signal });
  // @ts-expect-error: not a transport
  await McpClient.connect({ url: 'https://example.com/mcp', transport: 'ws' });
  // @ts-expect-error: not a place to keep tokens
  await McpClient.connect({ url: 'https://example.com/mcp', oauth: { storage: 'cookie' } });
  // @ts-expect-error: a tool's name is a string
  await client.callTool(42, {});
  console.log(wrong);
}
