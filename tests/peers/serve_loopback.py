"""Serves a PyPI `mcp` 2.x server (MCPServer) over Streamable HTTP for the browser tests: on
127.0.0.1 only, at the port given as the first argument (or PORT), with CORS for pages on
other origins (the SDK sends no CORS headers)."""

import os
import sys

import uvicorn
from starlette.middleware.cors import CORSMiddleware


def serve(server, **app_options) -> None:
    """Runs `server` until the process is stopped; `app_options` go to its
    `streamable_http_app` (e.g. an `event_store`)."""
    port = int(sys.argv[1]) if len(sys.argv) > 1 else int(os.environ["PORT"])
    app = server.streamable_http_app(host="127.0.0.1", **app_options)
    app = CORSMiddleware(
        app,
        allow_origins=["*"],
        allow_methods=["GET", "POST", "DELETE"],
        allow_headers=["*"],
        expose_headers=["Mcp-Session-Id", "Mcp-Protocol-Version", "WWW-Authenticate"],
    )
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")
