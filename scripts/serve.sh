#!/usr/bin/env bash
# Sets up what is missing, starts a real demo MCP server (npm server-everything) on
# 127.0.0.1:3001 and an MCP Apps example server (npm server-basic-vanillajs) on 127.0.0.1:3002,
# and serves the app on http://127.0.0.1:8080 until you press Ctrl-C.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/setup.sh
. scripts/env.sh

DEMO_PORT=${DEMO_PORT:-3001}
APPS_PORT=${APPS_PORT:-3002}
APP_PORT=${APP_PORT:-8080}
tests/peers/everything.sh "$DEMO_PORT" streamableHttp > "${TMPDIR:-/tmp}/mcp-demo-server.log" 2>&1 &
demo=$!
tests/peers/apps.sh "$APPS_PORT" > "${TMPDIR:-/tmp}/mcp-apps-server.log" 2>&1 &
apps=$!
trap 'kill $demo $apps 2>/dev/null || true' EXIT INT TERM
echo "[serve] demo MCP server: http://127.0.0.1:$DEMO_PORT/mcp (log: ${TMPDIR:-/tmp}/mcp-demo-server.log)"
echo "[serve] MCP Apps example server: http://127.0.0.1:$APPS_PORT/mcp (its get-time tool shows an app)"
echo "[serve] open: http://127.0.0.1:$APP_PORT/?url=http://127.0.0.1:$DEMO_PORT/mcp"
bash scripts/release-wasm.sh trunk serve --offline --port "$APP_PORT"
