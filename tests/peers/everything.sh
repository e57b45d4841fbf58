#!/usr/bin/env bash
# Starts npm @modelcontextprotocol/server-everything on 127.0.0.1.
# Usage: everything.sh PORT [streamableHttp|sse]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
port=${1:?port}
mode=${2:-streamableHttp}
pkg="$here/../node_modules/@modelcontextprotocol/server-everything"
exec env PORT="$port" node -r "$here/loopback.cjs" "$pkg/dist/index.js" "$mode"
