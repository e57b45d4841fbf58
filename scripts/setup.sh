#!/usr/bin/env bash
# Installs whatever this project needs and is missing, at pinned versions. Idempotent: each
# step checks first and skips what is already there at the right version. Never downloads a
# prebuilt binary from the web: everything comes from crates.io, npm, PyPI or Debian.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

TRUNK_VERSION=0.21.14
CARGO_FUZZ_VERSION=0.13.1

say() { printf '[setup] %s\n' "$*"; }
have() { command -v "$1" >/dev/null 2>&1; }

# Rust targets: the browser, and a target with no std at all (proves client-core is no_std).
for target in wasm32-unknown-unknown x86_64-unknown-none; do
  if ! rustup target list --installed | grep -qx "$target"; then
    say "adding Rust target $target"
    rustup target add "$target"
  fi
done

# The standard library's source: release wasm builds compile std for size
# (scripts/release-wasm.sh).
if ! rustup component list --installed | grep -q '^rust-src'; then
  say "adding the rust-src component"
  rustup component add rust-src
fi

# wasm-bindgen-cli must equal the wasm-bindgen crate in Cargo.lock (and Trunk.toml).
wb_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)
if ! grep -q "wasm_bindgen = \"$wb_version\"" Trunk.toml; then
  echo "[setup] Trunk.toml [tools] wasm_bindgen must be $wb_version (the version in Cargo.lock)" >&2
  exit 1
fi
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$wb_version" ]; then
  say "installing wasm-bindgen-cli $wb_version"
  # Not --locked: its lock file names a yanked webpki-roots.
  cargo install wasm-bindgen-cli --version "$wb_version" --force
fi

if [ "$(trunk --version 2>/dev/null | awk '{print $2}')" != "$TRUNK_VERSION" ]; then
  say "installing trunk $TRUNK_VERSION"
  cargo install trunk --version "$TRUNK_VERSION" --locked --force
fi

if [ "$(cargo fuzz --version 2>/dev/null | awk '{print $2}')" != "$CARGO_FUZZ_VERSION" ]; then
  say "installing cargo-fuzz $CARGO_FUZZ_VERSION"
  cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked --force
fi

# Debian's Chromium and its driver, for tests in a real browser; curl, which runs a request
# the app copied as a curl command in an end-to-end test.
if ! have chromium || ! have chromedriver || ! have curl; then
  say "installing Debian chromium, chromium-driver and curl"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium chromium-driver curl >/dev/null
fi

# npm packages: real MCP servers for tests and the demo, and binaryen's wasm-opt (132: the
# Debian build is too old and yields a page that crashes at load).
stamp=tests/node_modules/.installed-from
want=$(sha256sum tests/package-lock.json | awk '{print $1}')
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  say "installing npm packages (tests/package-lock.json)"
  (cd tests && npm ci --no-audit --no-fund --loglevel=error)
  echo "$want" > "$stamp"
fi

# The official MCP conformance suite (latest release and a pinned prerelease) and the Node 22
# it needs (machine Node is 20), both from npm, kept apart from the test packages above.
stamp=tests/conformance/node_modules/.installed-from
want=$(sha256sum tests/conformance/package-lock.json | awk '{print $1}')
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  say "installing the conformance suite and Node 22 (tests/conformance/package-lock.json)"
  (cd tests/conformance && npm ci --no-audit --no-fund --loglevel=error --engine-strict=false)
  echo "$want" > "$stamp"
fi

# PyPI peers, each in its own virtual environment with exact pins.
venv() { # venv DIR REQUIREMENTS
  local dir=$1 req=$2 want
  want=$(sha256sum "$req" | awk '{print $1}')
  if [ ! -x "$dir/bin/python" ] || [ "$(cat "$dir/.installed-from" 2>/dev/null)" != "$want" ]; then
    say "installing Python packages from $req into $dir"
    rm -rf "$dir"
    python3 -m venv "$dir"
    "$dir/bin/pip" install --quiet --disable-pip-version-check -r "$req"
    echo "$want" > "$dir/.installed-from"
  fi
}
venv tests/.venv-modern tests/peers/requirements-modern.txt
venv tests/.venv-websocket tests/peers/requirements-websocket.txt

# The test server built on the official Rust SDK (crates.io `rmcp`, pinned by its own
# Cargo.lock), built natively. Cargo skips it when nothing changed.
rmcp_peer=tests/peers/rmcp_server
[ -x "$rmcp_peer/target/debug/rmcp-test-server" ] || say "building the Rust SDK test server ($rmcp_peer)"
cargo build --quiet --locked --manifest-path "$rmcp_peer/Cargo.toml"

# The JSON Schema Test Suite (the official cases the app's schema checker is tested with),
# as vendored in the source release of PyPI's `jsonschema`, pinned by version and hash.
JSONSCHEMA_SDIST=4.26.0
JSONSCHEMA_SDIST_SHA256=0c26707e2efad8aa1bfc5b7ce170f3fccc2e4918ff85989ba9ffa9facb2be326
suite=tests/.json-schema-suite
if [ "$(cat "$suite/.version" 2>/dev/null)" != "$JSONSCHEMA_SDIST" ]; then
  say "fetching the JSON Schema Test Suite (PyPI jsonschema $JSONSCHEMA_SDIST, source release)"
  tmp=$(mktemp -d)
  tests/.venv-modern/bin/pip download --quiet --disable-pip-version-check --no-deps \
    --no-binary :all: "jsonschema==$JSONSCHEMA_SDIST" -d "$tmp"
  sdist="$tmp/jsonschema-$JSONSCHEMA_SDIST.tar.gz"
  if [ "$(sha256sum "$sdist" | awk '{print $1}')" != "$JSONSCHEMA_SDIST_SHA256" ]; then
    echo "[setup] $sdist does not have the pinned SHA-256" >&2
    exit 1
  fi
  rm -rf "$suite"
  mkdir -p "$suite"
  tar xzf "$sdist" -C "$suite" --strip-components=2 "jsonschema-$JSONSCHEMA_SDIST/json/tests"
  echo "$JSONSCHEMA_SDIST" > "$suite/.version"
  rm -rf "$tmp"
fi

# Release wasm builds compile std (scripts/release-wasm.sh), and Trunk runs cargo with
# --offline: std's own dependencies are fetched here (a no-op once they are in cargo's cache).
bash scripts/release-wasm.sh cargo fetch --locked --quiet --target wasm32-unknown-unknown

say "ready"
