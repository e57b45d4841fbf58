#!/usr/bin/env bash
# Starts tests/peers/hostile_server.py on 127.0.0.1 with the project's pinned PyPI mcp 2.x.
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../.venv-modern/bin/python" "$here/hostile_server.py" "$@"
