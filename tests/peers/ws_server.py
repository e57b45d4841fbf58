"""A WebSocket MCP server for the browser tests, on PyPI `mcp` 1.x (its WebSocket transport
was removed in 2.x; WebSocket is not in the MCP spec, see SEP-1288). The transport always
selects the subprotocol `mcp`. Binds 127.0.0.1 only.

Usage: python ws_server.py PORT
"""

import sys
import warnings

import uvicorn
from mcp.server.fastmcp import Context, FastMCP
from mcp.server.websocket import websocket_server
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute

warnings.simplefilter("ignore", DeprecationWarning)
mcp = FastMCP("websocket-test-server")


@mcp.tool()
def echo(message: str) -> str:
    """Returns the message."""
    return f"Echo: {message}"


@mcp.tool()
async def count(ctx: Context, steps: int = 3) -> str:
    """Reports progress `steps` times."""
    for i in range(steps):
        await ctx.report_progress(i + 1, steps)
    return f"counted to {steps}"


# How many WebSocket connections are open now (of every client).
_open = [0]


@mcp.tool()
def open_connections() -> str:
    """How many WebSocket connections are open now, of every client."""
    return str(_open[0])


class Endpoint:
    """An ASGI app (not a function, so Starlette passes scope/receive/send through)."""

    async def __call__(self, scope, receive, send):
        _open[0] += 1
        try:
            async with websocket_server(scope, receive, send) as (read, write):
                server = mcp._mcp_server
                await server.run(read, write, server.create_initialization_options())
        finally:
            _open[0] -= 1


app = Starlette(routes=[WebSocketRoute("/ws", Endpoint())])

if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
