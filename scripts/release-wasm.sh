#!/usr/bin/env bash
# Runs the command it is given (cargo build, trunk build, trunk serve) so that the release wasm
# is built with the standard library compiled for size and with panics that abort at once.
# Then no panic message is ever formatted, so none of the formatting code behind panics ships:
# 19 KB less gzip for the headless package and 31 KB less for the app (see CHANGELOG).
# For the same reason the panic locations (file, line, column) are left out
# (`-Zlocation-detail=none`): nothing would ever print them. About 1 KB less gzip each.
#
# A release panic stops the wasm instance either way: the page sees a
# "RuntimeError: unreachable". The only thing lost is the panic message. The headless package
# never printed one (it has no panic hook). The app built without this script (a plain
# `trunk build --offline`) still prints it, for chasing a panic.
#
# This uses two unstable options on the stable toolchain, through RUSTC_BOOTSTRAP: cargo's
# build-std and rustc's panic strategy immediate-abort. No crate can do this; it is a
# compiler setting. Where the toolchain lacks them (no rust-src component, or a rustc older
# than that panic strategy), the script says so on stderr and builds with the prebuilt std,
# which works but is about 7 % larger. Under CI (CI=true) that is an error instead, so that
# the shipped size cannot grow unnoticed.
set -euo pipefail

std_src="$(rustc --print sysroot)/lib/rustlib/src/rust/library/std"
if [ -d "$std_src" ] &&
  RUSTC_BOOTSTRAP=1 rustc -Zunstable-options -Cpanic=immediate-abort --print cfg \
    --target wasm32-unknown-unknown 2>/dev/null | grep -qx 'panic="immediate-abort"'; then
  export RUSTC_BOOTSTRAP=1
  export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
  export CARGO_UNSTABLE_BUILD_STD_FEATURES=optimize_for_size
  # Cargo adds these to the flags that .cargo/config.toml sets for this target: it joins the
  # two lists.
  export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none"
else
  echo "[release-wasm] this toolchain cannot rebuild std for size (no rust-src, or no" \
    "panic=immediate-abort): building with the prebuilt std instead (about 7 % larger)" >&2
  if [ "${CI:-}" = true ]; then
    echo "[release-wasm] refused under CI: run scripts/setup.sh (it adds rust-src)" >&2
    exit 1
  fi
fi
exec "$@"
