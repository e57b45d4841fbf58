#!/usr/bin/env bash
# Sets up what is missing, builds the app and the package in release mode, and runs the
# benchmarks (tests/bench/run.mjs) side by side with both TypeScript SDK lines and raw fetch in
# headless Chromium. Writes BENCHMARKS.md. Separate from the tests: it asserts nothing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/setup.sh
. scripts/env.sh
bash scripts/release-wasm.sh trunk build --offline
bash scripts/build-package.sh > /dev/null
node tests/bench/run.mjs
