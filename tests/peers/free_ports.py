"""Prints N distinct free TCP ports on 127.0.0.1, one per line, for test servers to listen on.

Asking the kernel for a free port one at a time (bind to port 0, close, repeat) can give the
same port twice, and a port handed out that way can meanwhile become the local port of some
outgoing connection: both happened, a test server then died of EADDRINUSE and its tests talked
to another server. So the ports here are chosen at random *below* the kernel's ephemeral range
(which outgoing connections and bind-to-0 draw from), and each is held bound until all are
chosen, so that they differ from each other and from any port in use.

Usage: python3 free_ports.py N
"""

import random
import socket
import sys


def ephemeral_low():
    """The lowest port of the kernel's ephemeral range (32768 where it cannot be read)."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def main():
    wanted = int(sys.argv[1])
    low, high = 20000, ephemeral_low() - 1
    if high - low < 1000:
        low, high = 1024, high
    held, ports = [], []
    # Bounded: a port in use is skipped, and this many tries are far more than enough.
    for _ in range(wanted * 50):
        if len(ports) == wanted:
            break
        port = random.randint(low, high)
        if port in ports:
            continue
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            s.close()
            continue
        held.append(s)
        ports.append(port)
    for s in held:
        s.close()
    if len(ports) < wanted:
        sys.exit(f"free_ports.py: found only {len(ports)} free ports of {wanted} in {low}-{high}")
    print("\n".join(map(str, ports)))


if __name__ == "__main__":
    main()
