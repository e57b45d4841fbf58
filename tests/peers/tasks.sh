#!/usr/bin/env bash
# Starts the 2026-07-28 test server with the Tasks extension (tasks_server.py), on 127.0.0.1.
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../.venv-modern/bin/python" "$here/tasks_server.py" "$@"
