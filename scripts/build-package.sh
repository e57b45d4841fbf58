#!/usr/bin/env bash
# Builds the ES module package (headless JS API) into dist-pkg/: wasm-bindgen --target web,
# then wasm-opt -Oz. Expects the tools from scripts/setup.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/env.sh
out=dist-pkg
cargo build -p client-js --release --locked --target wasm32-unknown-unknown
rm -rf "$out"
wasm-bindgen --target web --out-dir "$out" --out-name mcp_client target/wasm32-unknown-unknown/release/client_js.wasm
wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
  -o "$out/mcp_client_bg.wasm" "$out/mcp_client_bg.wasm"
cp client-js/README.md "$out/README.md"
cat > "$out/package.json" <<JSON
{
  "name": "mcp-browser-client",
  "version": "0.1.0",
  "description": "An MCP client that runs entirely in the browser (WebAssembly): headless JavaScript API.",
  "type": "module",
  "main": "mcp_client.js",
  "types": "mcp_client.d.ts",
  "files": ["mcp_client.js", "mcp_client.d.ts", "mcp_client_bg.wasm", "mcp_client_bg.wasm.d.ts", "README.md"],
  "license": "MIT OR Apache-2.0"
}
JSON
ls -la "$out"
