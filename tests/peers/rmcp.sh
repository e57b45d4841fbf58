#!/usr/bin/env bash
# Starts the MCP server built on the Rust SDK (tests/peers/rmcp_server, built by
# scripts/setup.sh) on 127.0.0.1.
# Usage: rmcp.sh [PORT] [legacy]   (no PORT: $PORT, as the fault proxy gives it; legacy: it
# offers the eras up to 2025-11-25 only)
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/rmcp_server/target/debug/rmcp-test-server" "$@"
