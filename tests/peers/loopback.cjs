// Preloaded with `node -r` into third-party servers that bind all interfaces by default:
// every listen() on a port is forced onto 127.0.0.1, so no test server is reachable from
// outside this machine.
'use strict';
const net = require('net');
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const first = args[0];
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    if (typeof args[1] === 'string') args[1] = '127.0.0.1';
    else args.splice(1, 0, '127.0.0.1');
  } else if (first && typeof first === 'object' && ('port' in first)) {
    args[0] = { ...first, host: '127.0.0.1' };
  }
  return listen.apply(this, args);
};
