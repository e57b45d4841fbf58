#!/usr/bin/env bash
# Cargo's runner for client-browser's wasm tests (set by tests/run-wasm-tests.sh): runs one
# test binary with wasm-bindgen-test-runner, then closes the headless Chromium it left open.
# chromedriver ends its session when the runner is done, but a browser with a window no
# script can close (a login window the authorization server cut off from its opener with
# Cross-Origin-Opener-Policy, back on the callback page) stays open after it: one more idle
# browser per run of the OAuth tests, one per mutant in a mutation run. Only browsers driven
# by chromedriver (`--test-type=webdriver`), started while this binary ran and no longer
# driven (their parent is no chromedriver now) are closed: not another run's, not Playwright's.
set -uo pipefail
since=$(date +%s)
wasm-bindgen-test-runner "$@"
status=$?
ran_for=$(($(date +%s) - since + 1))
for pid in $(pgrep -f -- '--test-type=webdriver' || true); do
  # The browser itself, not one of its renderers or helpers (they end with it).
  case "$(ps -o args= -p "$pid" 2>/dev/null)" in *--type=*) continue ;; esac
  parent=$(ps -o ppid= -p "$pid" 2>/dev/null | tr -d ' ')
  [ -n "$parent" ] || continue
  # Still driven: its parent is a chromedriver (an orphan's parent is init or a subreaper).
  case "$(ps -o comm= -p "$parent" 2>/dev/null)" in chromedriver*) continue ;; esac
  age=$(ps -o etimes= -p "$pid" 2>/dev/null | tr -d ' ')
  if [ -n "$age" ] && [ "$age" -le "$ran_for" ]; then
    kill "$pid" 2>/dev/null || true
  fi
done
exit "$status"
