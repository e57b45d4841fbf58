#!/usr/bin/env bash
# Starts npm @modelcontextprotocol/server-basic-vanillajs (an MCP Apps example server: the
# `get-time` tool with a View) on 127.0.0.1, Streamable HTTP at /mcp.
# Usage: apps.sh PORT
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
port=${1:?port}
pkg="$here/../node_modules/@modelcontextprotocol/server-basic-vanillajs"
exec env PORT="$port" node -r "$here/loopback.cjs" "$pkg/dist/index.js"
