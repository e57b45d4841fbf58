#!/usr/bin/env bash
# Runs client-browser's wasm tests in headless Chromium against real servers started here on
# 127.0.0.1 (npm server-everything in Streamable HTTP and SSE modes; PyPI mcp 2.x servers for
# the 2026-07-28 era, one with the Tasks extension; npm oidc-provider and protected MCP servers
# for OAuth; fault proxies in front of server-everything, the PyPI server and a server on the
# official Rust SDK), then stops them. Arguments go to `cargo test` (e.g. `--test modern`).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/env.sh

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

# Free ports on 127.0.0.1, all different, chosen at once (see tests/peers/free_ports.py: one
# at a time, the kernel once gave two servers the same port). free_port takes the next.
wanted=22
readarray -t ports < <(python3 tests/peers/free_ports.py "$wanted")
[ "${#ports[@]}" -eq "$wanted" ] || { echo "could not choose $wanted free ports on 127.0.0.1" >&2; exit 1; }
next_port=0
free_port() { port=${ports[$next_port]}; next_port=$((next_port + 1)); }

# Waits (bounded) until something listens on 127.0.0.1:$1.
wait_port() {
  for _ in $(seq 1 150); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "nothing listens on 127.0.0.1:$1 after 15 s" >&2
  return 1
}

logs=${TMPDIR:-/tmp}/mcp-wasm-test-servers
mkdir -p "$logs"
# Starts a server (the command after NAME) in the background, its output in $logs/NAME.log.
server_logs=()
start() { local log="$logs/$1.log"; shift; "$@" >"$log" 2>&1 & pids+=($!); server_logs+=("$log"); }
free_port; p1=$port; start everything-http tests/peers/everything.sh "$p1" streamableHttp
free_port; p2=$port; start everything-sse tests/peers/everything.sh "$p2" sse
free_port; p3=$port; start modern tests/.venv-modern/bin/python tests/peers/modern_server.py "$p3"
everything=(node -r "$root/tests/peers/loopback.cjs" "$root/tests/node_modules/@modelcontextprotocol/server-everything/dist/index.js" streamableHttp)
free_port; p4=$port; free_port; start fault-legacy node tests/peers/fault_proxy.mjs "$p4" --upstream-port="$port" -- "${everything[@]}"
free_port; p5=$port; free_port; start fault-modern node tests/peers/fault_proxy.mjs "$p5" --upstream-port="$port" -- tests/.venv-modern/bin/python tests/peers/modern_server.py
free_port; p19=$port; free_port; start fault-rmcp node tests/peers/fault_proxy.mjs "$p19" --upstream-port="$port" -- tests/peers/rmcp.sh legacy
free_port; p6=$port; start websocket tests/.venv-websocket/bin/python tests/peers/ws_server.py "$p6"
free_port; p7=$port; start ws-no-subprotocol node tests/peers/ws_no_subprotocol.mjs "$p7" "$p6"
free_port; p8=$port; start tasks tests/peers/tasks.sh "$p8"
# OAuth: npm oidc-provider, and protected MCP servers in front of server-everything (one
# requires DPoP-bound tokens, one a scope more for tool calls); an authorization server and a
# protected MCP server that both require DPoP nonces; a hostile one whose every answer to the
# authorization flow is endless; one whose challenge names metadata the page may not read;
# an authorization server whose pages cut a login window off from its opener (COOP), whose
# login waits for the test's word, and a protected MCP server of it.
free_port; p9=$port; start auth-server node tests/peers/auth_server.mjs "$p9"
free_port; p10=$port; start auth-gateway node tests/peers/auth_gateway.mjs "$p10" "http://127.0.0.1:$p9" "http://127.0.0.1:$p1/mcp"
free_port; p11=$port; start auth-gateway-dpop node tests/peers/auth_gateway.mjs "$p11" "http://127.0.0.1:$p9" "http://127.0.0.1:$p1/mcp" dpop
free_port; p12=$port; start auth-gateway-step-up node tests/peers/auth_gateway.mjs "$p12" "http://127.0.0.1:$p9" "http://127.0.0.1:$p1/mcp" step-up
free_port; p13=$port; start auth-server-nonce node tests/peers/auth_server.mjs "$p13" dpop-nonce
free_port; p14=$port; start auth-gateway-nonce node tests/peers/auth_gateway.mjs "$p14" "http://127.0.0.1:$p13" "http://127.0.0.1:$p1/mcp" dpop-nonce
free_port; p15=$port; start endless-answers node tests/peers/endless_answers.mjs "$p15"
free_port; p16=$port; start auth-gateway-no-cors node tests/peers/auth_gateway.mjs "$p16" "http://127.0.0.1:$p9" "http://127.0.0.1:$p1/mcp" metadata-without-cors
free_port; p17=$port; start auth-server-coop node tests/peers/auth_server.mjs "$p17" coop
free_port; p18=$port; start auth-gateway-coop node tests/peers/auth_gateway.mjs "$p18" "http://127.0.0.1:$p17" "http://127.0.0.1:$p1/mcp"
for p in "$p1" "$p2" "$p3" "$p4" "$p5" "$p6" "$p7" "$p8" "$p9" "$p10" "$p11" "$p12" "$p13" "$p14" "$p15" "$p16" "$p17" "$p18" "$p19"; do wait_port "$p"; done
# A server that died at its start (its port taken after all) would leave its tests talking to
# whatever listens there: said here, with its log, rather than as their puzzling failures.
for i in "${!pids[@]}"; do
  if ! kill -0 "${pids[$i]}" 2>/dev/null; then
    echo "a test server exited at its start; its log (${server_logs[$i]}):" >&2
    tail -n 20 "${server_logs[$i]}" >&2
    exit 1
  fi
done

export MCP_EVERYTHING_URL="http://127.0.0.1:$p1/mcp"
export MCP_EVERYTHING_SSE_URL="http://127.0.0.1:$p2/sse"
export MCP_MODERN_URL="http://127.0.0.1:$p3/mcp"
export MCP_FAULT_LEGACY="http://127.0.0.1:$p4"
export MCP_FAULT_MODERN="http://127.0.0.1:$p5"
export MCP_FAULT_RMCP="http://127.0.0.1:$p19"
export MCP_WEBSOCKET_URL="ws://127.0.0.1:$p6/ws"
export MCP_WEBSOCKET_NO_SUBPROTOCOL_URL="ws://127.0.0.1:$p7/ws"
export MCP_TASKS_URL="http://127.0.0.1:$p8/mcp"
export MCP_AUTH_SERVER_URL="http://127.0.0.1:$p9"
export MCP_OAUTH_URL="http://127.0.0.1:$p10/mcp"
export MCP_OAUTH_DPOP_URL="http://127.0.0.1:$p11/mcp"
export MCP_OAUTH_STEP_UP_URL="http://127.0.0.1:$p12/mcp"
export MCP_AUTH_SERVER_NONCE_URL="http://127.0.0.1:$p13"
export MCP_OAUTH_DPOP_NONCE_URL="http://127.0.0.1:$p14/mcp"
export MCP_OAUTH_ENDLESS_URL="http://127.0.0.1:$p15/mcp"
export MCP_OAUTH_METADATA_WITHOUT_CORS_URL="http://127.0.0.1:$p16/mcp"
export MCP_AUTH_SERVER_COOP_URL="http://127.0.0.1:$p17"
export MCP_OAUTH_COOP_URL="http://127.0.0.1:$p18/mcp"
export CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver}
# wasm-bindgen-test-runner, then the browser it leaves open closed (see wasm-test-runner.sh).
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER="$root/tests/wasm-test-runner.sh"
export WASM_BINDGEN_TEST_TIMEOUT=120
# Serve the test page like an ordinary app page: without COOP/COEP cross-origin isolation,
# which would block the no-cors probe that tells CORS failures from unreachable servers.
export WASM_BINDGEN_TEST_NO_ORIGIN_ISOLATION=1
# `--run COMMAND...`: run COMMAND from the project root with these servers and this
# environment instead of the tests (scripts/mutants-wasm.sh uses it).
if [ "${1:-}" = "--run" ]; then
  shift
  "$@"
  exit
fi
cd client-browser
cargo test --locked --target wasm32-unknown-unknown "$@"
