#!/usr/bin/env bash
# Runs the cargo-fuzz targets of client-core (libFuzzer + AddressSanitizer).
# Usage: scripts/fuzz.sh [TARGET|all] [SECONDS]   (default: all targets, 60 s each)
# Targets: jsonrpc_decode, sse_decode, session_bodies, session_modern, oauth_flow. Seeds committed under
# client-core/fuzz/seeds/TARGET start the search from realistic inputs.
# cargo-fuzz needs nightly-only flags; RUSTC_BOOTSTRAP=1 lets the machine's stable toolchain
# accept them (this project has no nightly toolchain to use).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/env.sh"
target=${1:-all}
seconds=${2:-60}
cd "$root/client-core/fuzz"
targets=$([ "$target" = all ] && cargo fuzz list || echo "$target")
for t in $targets; do
  echo "[fuzz] $t for ${seconds}s"
  mkdir -p "corpus/$t"
  seeds=(); [ -d "seeds/$t" ] && seeds=("seeds/$t")
  log=$(mktemp)
  status=0
  RUSTC_BOOTSTRAP=1 cargo fuzz run "$t" "corpus/$t" "${seeds[@]}" -- -max_total_time="$seconds" -max_len=4096 >"$log" 2>&1 || status=$?
  grep -E '^(Done [0-9]+ runs|==[0-9]+==|SUMMARY|thread .* panicked|error)' "$log" || true
  if [ "$status" -ne 0 ]; then
    tail -n 40 "$log" >&2
    echo "[fuzz] $t failed (exit $status); crash inputs are in client-core/fuzz/artifacts/$t" >&2
    rm -f "$log"
    exit 1
  fi
  rm -f "$log"
done
