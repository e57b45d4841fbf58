#!/usr/bin/env bash
# Starts the modern test server with 5,000 extra tools (for the UI's scale test), on 127.0.0.1.
here=$(cd "$(dirname "$0")" && pwd)
MANY_TOOLS=${MANY_TOOLS:-5000} exec "$here/../.venv-modern/bin/python" "$here/modern_server.py" "$@"
