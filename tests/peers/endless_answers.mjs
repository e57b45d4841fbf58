// A hostile protected MCP server for the OAuth tests: its MCP endpoint (`/mcp`) answers 401
// with a Bearer challenge whose `resource_metadata` names a document of its own, and every
// other request (that document, any well-known metadata, registration, token) is answered
// 200 with a JSON body that never ends: `{"resource": "…", "x": "aaaa…` until the client hangs
// up (or 256 MiB, so that a client that never does cannot keep it busy for ever).
// GET /__stats lists, for each of those answers, the bytes it had sent when the client hung
// up (`hung_up_after`), how many ran to the 256 MiB bound (`ran_out`) and how many are still
// being sent (`open`), and `in_flight_bound`: the most an answer can have sent past what the
// client read before the hang-up, when the client stopped reading at once. That is what the
// kernel may buffer on loopback (the largest receive and send buffers its autotuning may grow
// to, from /proc/sys/net/ipv4/tcp_rmem and tcp_wmem; Linux's defaults if unreadable) plus
// 4 MiB for the browser's own pipes. It depends on the machine: with a 32 MiB receive buffer
// an answer hung up on after a 1 MiB read was seen to have sent 20 MiB.
// CORS is on. Binds 127.0.0.1. Usage: node endless_answers.mjs PORT
import http from 'node:http';
import { readFileSync } from 'node:fs';

const port = Number(process.argv[2]);
const base = `http://127.0.0.1:${port}`;
const BOUND = 256 << 20;
const chunk = Buffer.alloc(64 << 10, 'a');
/** The largest size the kernel lets a TCP buffer of this kind grow to (the third field). */
function bufferMax(kind, fallback) {
  try {
    const max = Number(readFileSync(`/proc/sys/net/ipv4/tcp_${kind}`, 'utf8').trim().split(/\s+/)[2]);
    return Number.isSafeInteger(max) && max > 0 ? max : fallback;
  } catch {
    return fallback;
  }
}
const inFlightBound = bufferMax('rmem', 6 << 20) + bufferMax('wmem', 4 << 20) + (4 << 20);
const stats = { hung_up_after: [], ran_out: 0, open: 0, in_flight_bound: inFlightBound };
const cors = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, DELETE',
  'access-control-expose-headers': 'www-authenticate',
};

http.createServer((req, res) => {
  if (req.method === 'OPTIONS') {
    res.writeHead(204, { ...cors, 'access-control-allow-headers': req.headers['access-control-request-headers'] || '' }).end();
    return;
  }
  if (req.url === '/__stats') {
    res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify(stats));
    return;
  }
  if (req.url.startsWith('/mcp')) {
    req.resume();
    res.writeHead(401, { ...cors, 'www-authenticate': `Bearer resource_metadata="${base}/metadata", scope="mcp:tools"` }).end();
    return;
  }
  req.resume();
  res.writeHead(200, { ...cors, 'content-type': 'application/json' });
  stats.open += 1;
  let sent = 0;
  let done = false;
  res.write(`{"resource": "${base}/mcp", "x": "`);
  const write = () => {
    while (!done && sent < BOUND) {
      sent += chunk.length;
      if (!res.write(chunk)) return; // wait for 'drain'
    }
    if (!done && sent >= BOUND) {
      done = true;
      stats.ran_out += 1;
      stats.open -= 1;
      res.end();
    }
  };
  res.on('drain', write);
  res.on('close', () => {
    if (!done) {
      done = true;
      stats.hung_up_after.push(sent);
      stats.open -= 1;
    }
  });
  write();
}).listen(port, '127.0.0.1');
