// A TCP proxy in front of a WebSocket MCP server that makes it look like a server which
// selects no subprotocol: it removes Sec-WebSocket-Protocol from both handshake directions
// and then relays bytes unchanged. Browsers fail a handshake that offered subprotocols when
// none is selected, so a client must retry without offering any.
// `GET /__drop` (plain HTTP, CORS open) resets every relayed connection at once, as a
// network failure or a server restart would: a test's way to drop a client's socket.
// Binds 127.0.0.1 only. Usage: node ws_no_subprotocol.mjs PORT UPSTREAM_PORT
import net from 'node:net';

const [port, upstreamPort] = process.argv.slice(2).map(Number);
const stripProtocol = (head) =>
  head.split('\r\n').filter((line) => !/^sec-websocket-protocol:/i.test(line)).join('\r\n');

function relayHead(from, to, onHead) {
  let buf = Buffer.alloc(0);
  const onData = (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    const end = buf.indexOf('\r\n\r\n');
    if (end < 0) return;
    from.off('data', onData);
    to.write(stripProtocol(buf.subarray(0, end).toString('latin1')) + '\r\n\r\n');
    const rest = buf.subarray(end + 4);
    if (rest.length) to.write(rest);
    onHead();
  };
  from.on('data', onData);
}

const live = new Set();

function relay(client, first) {
  const upstream = net.connect(upstreamPort, '127.0.0.1');
  const close = () => { client.destroy(); upstream.destroy(); live.delete(close); };
  live.add(close);
  client.on('error', close); upstream.on('error', close);
  client.on('close', close); upstream.on('close', close);
  relayHead(client, upstream, () => {
    relayHead(upstream, client, () => { client.pipe(upstream); upstream.pipe(client); });
  });
  client.emit('data', first);
}

net.createServer((client) => {
  client.once('data', (first) => {
    if (first.toString('latin1').startsWith('GET /__drop ')) {
      const dropped = live.size;
      for (const close of [...live]) close();
      const body = JSON.stringify({ dropped });
      client.end(`HTTP/1.1 200 OK\r\naccess-control-allow-origin: *\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`);
      return;
    }
    client.pause();
    relay(client, first);
    client.resume();
  });
}).listen(port, '127.0.0.1');
