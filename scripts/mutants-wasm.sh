#!/usr/bin/env bash
# Mutation testing of the browser layer (client-browser) with its wasm tests in headless
# Chromium, against the real servers `tests/run-wasm-tests.sh` starts. Not part of the test
# command: a mutant takes about 40 s (a wasm build and the chosen test binaries), so run it
# on one file at a time and only with the test binaries that reach that file.
#
#   bash scripts/mutants-wasm.sh --tests everything,faults -f client-browser/src/tasks.rs --re 'Client::'
#
# `--tests` names the test binaries of `client-browser/tests/` to run (default: all); every
# other argument goes to `cargo mutants` (`-f FILE`, `--re REGEX`, `-o DIR`, ...). Results
# are in `mutants.out/` (or the `-o` directory): `missed.txt` lists the mutants no test caught.
# Needs cargo-mutants: `cargo install cargo-mutants --version 27.1.0`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/env.sh

if ! command -v cargo-mutants >/dev/null; then
  echo "cargo-mutants is missing: cargo install cargo-mutants --version 27.1.0" >&2
  exit 2
fi
given=("$@")
args=()
tests=()
first_run=()
with_servers=false
while [ $# -gt 0 ]; do
  case "$1" in
    --tests)
      IFS=, read -r -a names <<<"${2:?--tests needs a list such as everything,faults}"
      for n in "${names[@]}"; do
        tests+=("--cargo-test-arg=--test=$n")
        first_run+=("--test=$n")
      done
      shift 2 ;;
    --with-servers) with_servers=true; shift ;;
    *) args+=("$1"); shift ;;
  esac
done
if ! $with_servers; then
  # This script again, inside the servers' environment (see below).
  exec bash tests/run-wasm-tests.sh --run bash "$root/scripts/mutants-wasm.sh" --with-servers ${given[@]+"${given[@]}"}
fi
# Every mutant's tests run against the same servers, started once. A test that passes only
# against a fresh server would fail for every mutant, and each would count as caught. So the
# chosen tests run once first; cargo-mutants' own baseline run is then their second against
# these servers, and it stops there (nothing counted) if a test fails on a second run.
echo "[mutants-wasm] a first run of the tests, so that cargo-mutants' baseline is a second one" >&2
cargo test -p client-browser --locked --target wasm32-unknown-unknown ${first_run[@]+"${first_run[@]}"} >/dev/null 2>&1 || {
  echo "[mutants-wasm] the tests fail against freshly started servers: fix them first" >&2
  exit 1
}
exec cargo mutants -p client-browser \
  -C --target=wasm32-unknown-unknown --timeout 400 ${tests[@]+"${tests[@]}"} ${args[@]+"${args[@]}"}
