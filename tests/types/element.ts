// Type-checked (never run) by tests/e2e/package_types.test.mjs against the element package's
// generated mcp_client_element.d.ts: the element is typed where the DOM hands it out, and its
// `headers` property takes what `new Headers(…)` takes.
import init, { type McpClientElement } from '../../dist-pkg/mcp_client_element.js';

export async function embed(token: string): Promise<void> {
  await init();
  const made = document.createElement('mcp-client');
  const typed: McpClientElement = made;
  typed.headers = { Authorization: `Bearer ${token}` };
  typed.headers = [['X-Tenant', 'acme']];
  typed.headers = new Headers({ 'X-Tenant': 'acme' });
  typed.headers = null;
  const found = document.querySelector('mcp-client');
  const sent: Record<string, string> | null | undefined = found?.headers;
  console.log(sent?.authorization);
  // @ts-expect-error: header values are strings
  typed.headers = { 'X-Retries': 3 };
  // @ts-expect-error: what was set is read back as a plain object, never a Headers
  const back: Headers | null = typed.headers;
  console.log(back);
}
