#!/usr/bin/env bash
# Cargo's runner for client-browser's wasm tests (set by tests/run-wasm-tests.sh): runs one
# test binary with wasm-bindgen-test-runner, then closes the headless Chromium it left open.
# chromedriver ends its session when the runner is done, but a browser with a window no
# script can close (a login window the authorization server cut off from its opener with
# Cross-Origin-Opener-Policy, back on the callback page) stays open after it: one more idle
# browser per run of the OAuth tests, one per mutant in a mutation run. Only browsers driven
# by chromedriver (`--test-type=webdriver`), started while this binary ran and no longer
# driven (their parent gone) are closed: not another run's, not Playwright's.
set -uo pipefail
since=$(date +%s)
wasm-bindgen-test-runner "$@"
status=$?
ran_for=$(($(date +%s) - since + 1))
for pid in $(pgrep -f -- '--test-type=webdriver' || true); do
  [ "$(ps -o ppid= -p "$pid" 2>/dev/null | tr -d ' ')" = 1 ] || continue
  age=$(ps -o etimes= -p "$pid" 2>/dev/null | tr -d ' ')
  if [ -n "$age" ] && [ "$age" -le "$ran_for" ]; then
    kill "$pid" 2>/dev/null || true
  fi
done
exit "$status"
