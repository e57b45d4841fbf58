// Runs one conformance scenario with our wasm client (the package's headless JS API), inside
// the browser. The launcher (../launcher.mjs) calls window.runScenario and reports the outcome.
import init, { McpClient } from '/pkg/mcp_client.js';

// The Client ID Metadata Document URL the suite's authorization servers accept as-is.
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';

/** An answer to a form elicitation: the defaults its schema declares (SEP-1034), and a plain
 * value for a required field without one. */
function answerFor(schema) {
  const out = {};
  const required = new Set(schema?.required ?? []);
  for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
    if (prop && 'default' in prop) out[name] = prop.default;
    else if (required.has(name)) {
      out[name] = prop?.type === 'boolean' ? true
        : prop?.type === 'number' || prop?.type === 'integer' ? (prop.minimum ?? 0)
        : (prop?.enum?.[0] ?? '');
    }
  }
  return out;
}

window.runScenario = async (scenario, serverUrl, contextJson) => {
  const context = contextJson ? JSON.parse(contextJson) : {};
  const log = [];
  const oauth = {
    clientName: 'mcp-browser-client (conformance)',
    clientMetadataUrl: CIMD_URL,
    // The suite's servers are on this machine over http: the local-development opt-in.
    allowLocal: true,
    onTrace: (line) => log.push(`oauth: ${line}`),
  };
  if (context.client_id) {
    oauth.clientId = context.client_id;
    if (context.client_secret) oauth.clientSecret = context.client_secret;
  }
  let client;
  try {
    client = await McpClient.connect({
      url: serverUrl,
      oauth,
      onElicitation: async (params) => {
        log.push(`elicitation: ${JSON.stringify(params)}`);
        return { action: 'accept', content: answerFor(params.requestedSchema) };
      },
      onSampling: async (params) => ({ role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'none', stopReason: 'endTurn' }),
      onRoots: async () => ({ roots: [] }),
    });
    const server = client.server();
    log.push(`connected: ${server.era} era, ${server.protocolVersion}`);
    const tools = await client.listTools();
    log.push(`tools: ${tools.map((t) => t.name).join(', ')}`);
    const has = (name) => tools.some((t) => t.name === name);
    const call = async (name, args) => {
      const r = await client.callTool(name, args);
      log.push(`called ${name}: ${JSON.stringify(r).slice(0, 300)}`);
      return r;
    };
    if (Array.isArray(context.toolCalls)) {
      // The scenario says exactly which calls to make.
      for (const c of context.toolCalls) await call(c.name, c.arguments ?? {});
    } else if (has('test_mrtr_echo_state')) {
      // MRTR: a multi-round call and an unrelated call in parallel (state must not leak),
      // then a round without requestState, then a result without resultType.
      await Promise.all([call('test_mrtr_echo_state', {}), call('test_mrtr_unrelated', {})]);
      await call('test_mrtr_no_state', {});
      await call('test_mrtr_no_result_type', {});
    } else if (scenario === 'json-schema-2020-12-preservation') {
      const focal = tools.find((t) => t.name === 'json_schema_2020_12_tool');
      if (!focal) throw new Error('json_schema_2020_12_tool not offered');
      await call('json_schema_echo', { schema: focal.inputSchema });
    } else if (scenario === 'json-schema-ref-no-deref') {
      // Listing is the test: the $ref must never be fetched.
    } else if (has('test_client_elicitation_defaults')) {
      await call('test_client_elicitation_defaults', {});
    } else if (has('test-tool')) {
      await call('test-tool', {});
    } else if (tools.length > 0) {
      await call(tools[0].name, { a: 2, b: 3 });
    }
    return { ok: true, log };
  } catch (e) {
    return { ok: false, error: String(e?.message ?? e), log };
  } finally {
    client?.close();
  }
};

await init();
document.getElementById('status').textContent = 'ready';
window.harnessReady = true;
