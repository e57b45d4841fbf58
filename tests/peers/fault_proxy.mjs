// A fault-injecting reverse proxy in front of a real MCP server, for the browser fault tests.
//
// It starts the real server itself (so it can kill and restart it), forwards every request to
// it, and applies one-shot faults that a test arms through its control endpoint:
//
//   POST /__fault  {"kind": "cut", "method": "tools/call", "afterEvents": 1}
//                  cut the next matching SSE response after N events (connection reset)
//   POST /__fault  {"kind": "malformed", "method": "tools/call", "body": "..."}
//                  answer the next matching request with this body instead (200, JSON);
//                  "$ID" (with its quotes) in the body stands for the request's JSON-RPC id
//                  (a well-formed answer the server would not give, e.g. a cursor repeated)
//   POST /__fault  {"kind": "status", "method": "tools/call", "status": 404, "body": "...",
//                   "headers": {"www-authenticate": "..."}}   (headers optional)
//   POST /__fault  {"kind": "prepend", "method": "tools/call", "message": {...}}
//                  send this JSON-RPC message as an SSE event first on the next matching
//                  SSE response (e.g. a notification the server would send there)
//   POST /__fault  {"kind": "hold", "method": "prompts/get"}
//                  hold the next matching request unanswered; when the client gives up on it
//                  (closes the connection: its cancellation), log "closed METHOD"
//   POST /__release  forward the held requests to the server after all; log "answered
//                  METHOD" once an answer is sent in full
//   POST /__fault  {"kind": "reset", "method": "tasks/get"}
//                  answer the next matching request with a head and a part of a JSON body,
//                  then reset the connection (to the client: the network failed; a reset
//                  before any answer is not seen, as the browser sends the request again)
//   POST /__fault  {"kind": "restart"}   kill the server now and start a fresh one
//   POST /__fault  {"kind": "clear"}     drop the faults armed and not applied yet (a test
//                  that failed may leave some, and the proxy outlives one test run when
//                  scripts/mutants-wasm.sh runs the tests once per mutant)
//   POST /__fault  {"kind": "slow-preflights", "ms": 1500}
//                  answer every CORS preflight from now on after this long (a request that
//                  needs one is still on its way that long: a page left meanwhile shows
//                  whether its requests outlive it; start the proxy with
//                  --uncached-preflights, so that every such request needs one)
//   GET  /__log    the JSON-RPC methods (and ids of notifications/cancelled) seen so far
//
// Requests to /nocors/... are forwarded with every CORS header removed from the answer.
// Requests to /partialcors/... get a preflight that allows only Content-Type and
// Mcp-Session-Id (a server whose CORS rules forgot MCP-Protocol-Version and friends).
// Binds 127.0.0.1 only. Usage:
//   node fault_proxy.mjs PORT [--uncached-preflights] [--upstream-port=P] -- COMMAND ARGS...
// (--uncached-preflights: preflights say `Access-Control-Max-Age: 0`, so the browser asks
// again before each request that needs one. --upstream-port: the port of the first server
// started, for a caller starting several servers at once, whose ports it chose all together
// so that they differ (tests/peers/free_ports.py); a server started again after a `restart`,
// and the first one without it, gets a port the kernel says is free.)
// COMMAND must honour the PORT environment variable.
import http from 'node:http';
import net from 'node:net';
import { spawn } from 'node:child_process';

const port = Number(process.argv[2]);
const sep = process.argv.indexOf('--');
const command = process.argv.slice(sep + 1);
const options = process.argv.slice(3, sep);
const uncachedPreflights = options.includes('--uncached-preflights');
const firstUpstreamPort = Number(options.find((o) => o.startsWith('--upstream-port='))?.split('=')[1]) || undefined;

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
}

async function waitPort(p) {
  const end = Date.now() + 15000;
  while (Date.now() < end) {
    const ok = await new Promise((r) => {
      const c = net.connect(p, '127.0.0.1', () => { c.end(); r(true); });
      c.on('error', () => r(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`upstream did not listen on ${p}`);
}

let upstreamPort;
let child;
async function startUpstream(chosen) {
  upstreamPort = chosen ?? await freePort();
  child = spawn(command[0], command.slice(1), {
    env: { ...process.env, PORT: String(upstreamPort) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitPort(upstreamPort);
}
async function restartUpstream() {
  const old = child;
  await new Promise((r) => { old.once('exit', r); old.kill('SIGKILL'); });
  await startUpstream();
}

const faults = [];
const log = [];
// How long preflights wait (see slow-preflights).
let preflightDelayMs = 0;
// Held requests: each forwards its request when released.
let held = [];
const cors = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, DELETE',
  'access-control-expose-headers': 'mcp-session-id, mcp-protocol-version, last-event-id, www-authenticate',
};

function takeFault(method) {
  const i = faults.findIndex((f) => !f.method || f.method === method);
  return i < 0 ? null : faults.splice(i, 1)[0];
}

function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

const server = http.createServer(async (req, res) => {
  const noCors = req.url.startsWith('/nocors/');
  const partialCors = req.url.startsWith('/partialcors/');
  const path = noCors ? req.url.slice('/nocors'.length) : partialCors ? req.url.slice('/partialcors'.length) : req.url;
  if (req.method === 'OPTIONS') {
    if (noCors) { res.writeHead(204).end(); return; }
    const allowed = partialCors ? 'content-type, mcp-session-id' : (req.headers['access-control-request-headers'] || '');
    const maxAge = uncachedPreflights ? { 'access-control-max-age': '0' } : {};
    const answer = () => res.writeHead(204, { ...cors, 'access-control-allow-headers': allowed, ...maxAge }).end();
    if (preflightDelayMs > 0) setTimeout(answer, preflightDelayMs);
    else answer();
    return;
  }
  if (path === '/__release') {
    const release = held;
    held = [];
    for (const forwardNow of release) forwardNow();
    res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify({ released: release.length }));
    return;
  }
  if (path === '/__fault' || path === '/__log') {
    if (path === '/__log') { res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify(log)); return; }
    const fault = JSON.parse((await readBody(req)).toString() || '{}');
    if (fault.kind === 'restart') await restartUpstream();
    else if (fault.kind === 'clear') faults.length = 0;
    else if (fault.kind === 'slow-preflights') preflightDelayMs = Number(fault.ms) || 0;
    else faults.push(fault);
    res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end('{}');
    return;
  }
  const body = await readBody(req);
  let method = req.method;
  let id = null;
  try {
    const msg = JSON.parse(body.toString());
    id = msg.id ?? null;
    method = msg.method || (msg.result !== undefined || msg.error ? 'response' : req.method);
    log.push(msg.method === 'notifications/cancelled' ? `${msg.method} ${JSON.stringify(msg.params?.requestId)}` : method);
  } catch { log.push(`${req.method} ${req.headers['last-event-id'] ? 'resume' : 'stream'}`); }

  const fault = takeFault(method);
  if (fault?.kind === 'malformed') {
    res.writeHead(200, { ...cors, 'content-type': fault.contentType || 'application/json' }).end(String(fault.body).replaceAll('"$ID"', JSON.stringify(id)));
    return;
  }
  if (fault?.kind === 'hold') {
    let answered = false;
    res.on('finish', () => { answered = true; log.push(`answered ${method}`); });
    res.on('close', () => { if (!answered) log.push(`closed ${method}`); });
    held.push(() => { if (!res.destroyed) forward(req, res, body, path, noCors, null); });
    return;
  }
  if (fault?.kind === 'reset') {
    res.writeHead(200, { ...cors, 'content-type': 'application/json' });
    res.write('{"jsonrpc":"2.0",', () => setTimeout(() => res.destroy(), 50));
    return;
  }
  if (fault?.kind === 'status') {
    res.writeHead(fault.status, { ...cors, 'content-type': 'application/json', ...(fault.headers || {}) }).end(fault.body || '');
    return;
  }
  forward(req, res, body, path, noCors, fault);
});

/** Forwards a request to the server and its answer back (with `fault` applied, if any). */
function forward(req, res, body, path, noCors, fault) {
  const headers = { ...req.headers, host: `127.0.0.1:${upstreamPort}` };
  delete headers.origin;
  // A connection of its own per request (agent: false): a kept-alive upstream socket that the
  // server or a cut fault is closing could otherwise be reused and fail as a spurious 502.
  const up = http.request({ host: '127.0.0.1', port: upstreamPort, method: req.method, path, headers, agent: false }, (ur) => {
    const out = { ...ur.headers };
    for (const k of Object.keys(out)) if (k.startsWith('access-control-')) delete out[k];
    res.writeHead(ur.statusCode, noCors ? out : { ...out, ...cors });
    // Forward the head as soon as the server sent it, as the server itself does (Node holds a
    // head back until the first body bytes otherwise: an event stream would look unanswered).
    res.flushHeaders();
    // The upstream died mid-response (e.g. killed): reset the client's connection too, as a
    // real server crash would, instead of ending the response cleanly.
    ur.on('aborted', () => res.destroy());
    ur.on('error', () => res.destroy());
    ur.on('close', () => { if (!ur.complete) res.destroy(); });
    if (fault?.kind === 'cut') {
      let text = '';
      const onData = (c) => {
        text += c.toString();
        const events = (text.match(/(\r\n|\r|\n){2}/g) || []).length;
        if (events < fault.afterEvents) { res.write(c); return; }
        // Deliver what was sent so far, then reset the connection.
        ur.off('data', onData);
        ur.pause();
        res.write(c, () => setTimeout(() => { res.destroy(); ur.destroy(); }, 100));
      };
      ur.on('data', onData);
      return;
    }
    if (fault?.kind === 'prepend' && String(ur.headers['content-type']).startsWith('text/event-stream')) {
      res.write(`event: message\ndata: ${JSON.stringify(fault.message)}\n\n`);
    }
    ur.pipe(res);
  });
  up.on('error', () => { if (!res.headersSent) res.writeHead(502, cors); res.end(); });
  res.on('close', () => { if (!res.writableFinished) up.destroy(); });
  up.end(body);
}

await startUpstream(firstUpstreamPort);
server.listen(port, '127.0.0.1');
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { child?.kill('SIGKILL'); process.exit(0); });
