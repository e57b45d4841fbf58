#!/usr/bin/env bash
# Python's own web server (http.server, from the standard library) serving a directory on
# 127.0.0.1: a website, not an MCP server. It refuses a POST with its HTML error page (501).
# Arguments: port, directory.
exec python3 -m http.server --bind 127.0.0.1 --directory "$2" "$1"
