#!/usr/bin/env bash
# Builds the ES module package into dist-pkg/: the headless JS API (mcp_client.js) and the
# <mcp-client> element (mcp_client_element.js); wasm-bindgen --target web, then wasm-opt -Oz and esbuild --minify. Expects the tools from scripts/setup.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/env.sh
out=dist-pkg
bash scripts/release-wasm.sh cargo build -p client-js -p client-element --release --locked --target wasm32-unknown-unknown
rm -rf "$out"
# The JS glue minified like any published bundle (esbuild, from the test packages; imports,
# exports, class names and `import.meta.url` stay as they are); the .d.ts files keep the
# documentation. The Deno type pointer comment is kept in front.
minify() {
  local f=$1 tmp
  tmp=$(mktemp)
  { head -n 1 "$f" | grep '^/\* @ts-self-types' || true; esbuild --minify --keep-names --format=esm --log-level=error "$f"; } > "$tmp"
  cat "$tmp" > "$f"
  rm -f "$tmp"
}
opt() { wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals --enable-simd -o "$1" "$1"; }
# The headless API ...
wasm-bindgen --target web --out-dir "$out" --out-name mcp_client target/wasm32-unknown-unknown/release/client_js.wasm
opt "$out/mcp_client_bg.wasm"
minify "$out/mcp_client.js"
# ... and the <mcp-client> element (the whole app).
wasm-bindgen --target web --out-dir "$out" --out-name mcp_client_element target/wasm32-unknown-unknown/release/client_element.wasm
opt "$out/mcp_client_element_bg.wasm"
minify "$out/mcp_client_element.js"
# wasm-bindgen declares `[Symbol.dispose]()` on every exported class; the lib reference makes a
# consumer's TypeScript (5.2 or newer) know that symbol whatever its own `lib` setting.
for d in "$out/mcp_client.d.ts" "$out/mcp_client_element.d.ts"; do
  grep -q 'reference lib="esnext.disposable"' "$d" || sed -i '1i /// <reference lib="esnext.disposable" />' "$d"
done
cp client-js/README.md "$out/README.md"
# The OAuth callback page: host it on the embedding page's origin (see README).
cp www/oauth-callback.html www/oauth-callback.js "$out/"
cat > "$out/package.json" <<JSON
{
  "name": "mcp-browser-client",
  "version": "0.1.0",
  "description": "An MCP client that runs entirely in the browser (WebAssembly): headless JavaScript API.",
  "type": "module",
  "main": "mcp_client.js",
  "types": "mcp_client.d.ts",
  "exports": { ".": "./mcp_client.js", "./element": "./mcp_client_element.js" },
  "files": ["mcp_client.js", "mcp_client.d.ts", "mcp_client_bg.wasm", "mcp_client_bg.wasm.d.ts",
            "mcp_client_element.js", "mcp_client_element.d.ts", "mcp_client_element_bg.wasm", "snippets", "README.md",
            "oauth-callback.html", "oauth-callback.js"],
  "license": "MIT OR Apache-2.0"
}
JSON
ls -la "$out"
