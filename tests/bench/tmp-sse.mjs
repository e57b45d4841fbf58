// Quick SSE-only comparison (dev aid): node tests/bench/sse-only.mjs <pkgDir>
import path from 'node:path';
import { chromium } from 'playwright-core';
import { serveDir } from '../e2e/browser.mjs';
const pkg = await serveDir(path.resolve(process.argv[2]));
const host = await serveDir(path.resolve('tests/bench/build'));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const page = await browser.newPage();
await page.goto(`${host.url}/index.html`);
const r = await page.evaluate(async (pkgUrl) => {
  const m = await import(`${pkgUrl}/mcp_client.js`); await m.default();
  const esp = await import('/eventsource-parser.js');
  const ev = 'event: message\nid: 12345\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"abc","progress":42,"total":100,"message":"working on it"}}\n\n';
  const bytes = new TextEncoder().encode(ev.repeat(Math.ceil((20 << 20) / ev.length)));
  const chunk = 16 * 1024; const runs = { ours: [], theirs: [] };
  for (let r = 0; r < 21; r++) {
    let t0 = performance.now(); const n1 = m.benchSseDecode(bytes, chunk); runs.ours.push(performance.now() - t0);
    t0 = performance.now(); let n2 = 0; const p = esp.createParser({ onEvent: () => { n2++; } }); const dec = new TextDecoder();
    for (let i = 0; i < bytes.length; i += chunk) p.feed(dec.decode(bytes.subarray(i, i + chunk), { stream: true }));
    runs.theirs.push(performance.now() - t0);
    if (n1 !== n2) throw new Error(`counts ${n1} ${n2}`);
  }
  const med = (xs) => [...xs].sort((a, b) => a - b)[10]; const mb = bytes.length / (1 << 20);
  return { ours: mb / (med(runs.ours) / 1000), theirs: mb / (med(runs.theirs) / 1000), runs };
}, pkg.url);
console.log(JSON.stringify({ ours: r.ours.toFixed(0), theirs: r.theirs.toFixed(0), ratio: (r.ours / r.theirs).toFixed(2) }));
await browser.close(); process.exit(0);
