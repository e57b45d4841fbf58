// Preloaded with `node -r` into third-party servers that bind all interfaces by default:
// every TCP listen() is forced onto 127.0.0.1, so no test server is reachable from outside
// this machine. It hooks the point where Node binds (`_listen2`, reached synchronously for
// `listen(port)`), so `server.address()` still works right after `listen(0)` as the
// servers expect.
'use strict';
const net = require('net');
const bind = net.Server.prototype._listen2;
net.Server.prototype._listen2 = function (address, port, addressType, ...rest) {
  if (port >= 0 && (!address || address === '::' || address === '0.0.0.0')) {
    address = '127.0.0.1';
    addressType = 4;
  }
  return bind.call(this, address, port, addressType, ...rest);
};
