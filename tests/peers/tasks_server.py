"""A 2026-07-28 MCP server with the Tasks extension (`io.modelcontextprotocol/tasks`), for the
browser tests.

Built on PyPI `mcp` 2.x: MCPServer serves the transport, `server/discover` (which advertises
the extension), the tools and the per-request checks. No published server implements the
extension yet, so the extension itself is this file's, written from its specification: a task
store in memory, `tasks/get`, `tasks/update` and `tasks/cancel` (the SDK's extension methods),
and a `tools/call` interceptor that answers the tools below with a task (`resultType: "task"`)
when the call declared the extension. Served on 127.0.0.1 with CORS by serve_loopback.py.

Tools answered with a task:
- `report(seconds)`: works for `seconds`, saying how far it got, then completes;
- `approve(item)`: waits for the person (an elicitation in `inputRequests`, answered with
  `tasks/update`), then completes with their answer;
- `fail`: fails with a JSON-RPC error;
- `forever(ttl_ms)`: works until it is cancelled;
- `chart(seconds)`: as `report`, for a tool with an MCP App View (`ui://tasks/chart`, which
  shows the tool result it is told);
- `quiet(seconds)`: as `report`, with a poll interval of a minute: a client that hears the
  task's `notifications/tasks` learns its end long before its next poll.
`echo` is answered at once.

`subscriptions/listen` is served by this file too (the SDK's own handler knows only the core
filters): it acknowledges the `taskIds` of tasks it knows, sends `notifications/tasks` with
the whole task each time one of them changes, and forwards the SDK's own events.

Usage: python tasks_server.py PORT  (or PORT in the environment)
"""

import asyncio
import uuid
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

import anyio
from mcp.server.extension import Extension, MethodBinding
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import SUBSCRIPTION_ID_META_KEY, event_matches, event_to_notification
from mcp_types import (
    INVALID_PARAMS,
    RequestParams,
    SubscriptionFilter,
    SubscriptionsAcknowledgedNotification,
    SubscriptionsAcknowledgedNotificationParams,
    SubscriptionsListenRequestParams,
    SubscriptionsListenResult,
)
from pydantic import BaseModel, Field
from serve_loopback import serve

TASKS = "io.modelcontextprotocol/tasks"
TASK_TOOLS = {"report", "approve", "fail", "forever", "chart", "quiet"}
POLL_MS = 250


def _now() -> str:
    return datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")


class TaskParams(RequestParams):
    task_id: str = Field(alias="taskId")


class UpdateParams(TaskParams):
    input_responses: dict[str, Any] = Field(alias="inputResponses", default_factory=dict)


class TaskStore:
    """Tasks by id: each a dict in the wire shape, plus the work running it."""

    def __init__(self) -> None:
        self.tasks: dict[str, dict[str, Any]] = {}
        self.answers: dict[str, asyncio.Queue] = {}
        self.work: dict[str, asyncio.Task] = {}
        # Told the id of each task that changed (the open listen streams).
        self.watchers: list[Callable[[str], None]] = []

    def create(self, message: str, ttl_ms: int = 60_000, poll_ms: int = POLL_MS) -> dict[str, Any]:
        task_id = str(uuid.uuid4())
        now = _now()
        task = {
            "taskId": task_id,
            "status": "working",
            "statusMessage": message,
            "createdAt": now,
            "lastUpdatedAt": now,
            "ttlMs": ttl_ms,
            "pollIntervalMs": poll_ms,
        }
        self.tasks[task_id] = task
        self.answers[task_id] = asyncio.Queue()
        return task

    def get(self, task_id: str) -> dict[str, Any]:
        task = self.tasks.get(task_id)
        if task is None:
            raise MCPError(code=INVALID_PARAMS, message=f"Failed to retrieve task: no task {task_id}")
        return task

    def set(self, task_id: str, status: str, message: str | None = None, **fields: Any) -> None:
        task = self.tasks[task_id]
        if task["status"] in ("completed", "failed", "cancelled"):
            return
        for key in ("result", "error", "inputRequests"):
            task.pop(key, None)
        task.update(status=status, lastUpdatedAt=_now(), **fields)
        if message is not None:
            task["statusMessage"] = message
        for watcher in list(self.watchers):
            watcher(task_id)


store = TaskStore()


async def _report(task_id: str, seconds: float, what: str = "report") -> None:
    steps = 4
    for step in range(1, steps + 1):
        await asyncio.sleep(seconds / steps)
        store.set(task_id, "working", f"step {step} of {steps}")
    text = f"{what} ready after {seconds:g} s"
    store.set(task_id, "completed", "done", result={"content": [{"type": "text", "text": text}]})


async def _approve(task_id: str, item: str) -> None:
    request = {
        "method": "elicitation/create",
        "params": {
            "mode": "form",
            "message": f"Approve {item}?",
            "requestedSchema": {
                "type": "object",
                "properties": {"approved": {"type": "boolean", "title": "Approved"}},
                "required": ["approved"],
            },
        },
    }
    store.set(task_id, "input_required", "waiting for approval", inputRequests={"approval-1": request})
    answer = await store.answers[task_id].get()
    approved = answer.get("action") == "accept" and (answer.get("content") or {}).get("approved") is True
    text = f"{item}: {'approved' if approved else 'not approved'}"
    store.set(task_id, "completed", "done", result={"content": [{"type": "text", "text": text}]})


async def _fail(task_id: str) -> None:
    await asyncio.sleep(0.3)
    error = {"code": -32603, "message": "the report service is down"}
    store.set(task_id, "failed", "the report service is down", error=error)


async def _forever(task_id: str) -> None:
    while True:
        await asyncio.sleep(0.5)
        store.set(task_id, "working", "still working")


class TasksExtension(Extension):
    identifier = TASKS

    def methods(self):
        return (
            MethodBinding("tasks/get", TaskParams, self.get),
            MethodBinding("tasks/update", UpdateParams, self.update),
            MethodBinding("tasks/cancel", TaskParams, self.cancel),
        )

    async def intercept_tool_call(self, params, ctx, call_next):
        caps = ctx.session.client_capabilities
        declared = bool(caps and caps.extensions and TASKS in caps.extensions)
        if params.name not in TASK_TOOLS or not declared:
            return await call_next(ctx)
        args = params.arguments or {}
        poll_ms = 60_000 if params.name == "quiet" else POLL_MS
        task = store.create("started", int(args.get("ttl_ms", 60_000)), poll_ms)
        task_id = task["taskId"]
        if params.name in ("report", "chart", "quiet"):
            work = _report(task_id, float(args.get("seconds", 1.0)), params.name)
        elif params.name == "approve":
            work = _approve(task_id, str(args.get("item", "it")))
        elif params.name == "fail":
            work = _fail(task_id)
        else:
            work = _forever(task_id)
        store.work[task_id] = asyncio.get_running_loop().create_task(work)
        return {"resultType": "task", **task}

    async def get(self, ctx, params: TaskParams):
        return {"resultType": "complete", **store.get(params.task_id)}

    async def update(self, ctx, params: UpdateParams):
        task = store.get(params.task_id)
        outstanding = task.get("inputRequests") or {}
        for key, answer in params.input_responses.items():
            # Keys not outstanding are ignored, as the extension asks.
            if key in outstanding:
                await store.answers[params.task_id].put(answer)
                store.set(params.task_id, "working", "answer received")
        return {"resultType": "complete"}

    async def cancel(self, ctx, params: TaskParams):
        store.get(params.task_id)
        work = store.work.pop(params.task_id, None)
        if work is not None:
            work.cancel()
        store.set(params.task_id, "cancelled", "cancelled at the client's request")
        return {"resultType": "complete"}


server = MCPServer("tasks-test-server", extensions=[TasksExtension()])


class TaskNotification(BaseModel):
    """`notifications/tasks`: a task's whole state, as `tasks/get` would answer."""

    method: str = "notifications/tasks"
    params: dict[str, Any]


async def listen(ctx, params: SubscriptionsListenRequestParams):
    """One `subscriptions/listen` stream: the core filters as the SDK honours them, and
    `notifications/tasks` for the known tasks among the `taskIds` asked for."""
    meta = {SUBSCRIPTION_ID_META_KEY: ctx.request_id}
    asked = params.notifications
    wanted = [t for t in (asked.model_extra or {}).get("taskIds") or [] if t in store.tasks]
    honored = SubscriptionFilter(
        tools_list_changed=asked.tools_list_changed or None,
        prompts_list_changed=asked.prompts_list_changed or None,
        resources_list_changed=asked.resources_list_changed or None,
        resource_subscriptions=asked.resource_subscriptions or None,
        **({"taskIds": wanted} if wanted else {}),
    )
    uris = frozenset(honored.resource_subscriptions or ())
    send, recv = anyio.create_memory_object_stream[Any](256)

    def changed(task_id: str) -> None:
        if task_id in wanted:
            send.send_nowait(("task", task_id))

    def event(e: Any) -> None:
        if event_matches(honored, uris, e):
            send.send_nowait(("event", e))

    store.watchers.append(changed)
    unsubscribe = server._subscriptions.subscribe(event)
    try:
        ack = SubscriptionsAcknowledgedNotification(
            params=SubscriptionsAcknowledgedNotificationParams(notifications=honored, _meta=meta)
        )
        await ctx.session.send_notification(ack, related_request_id=ctx.request_id)
        async for kind, item in recv:
            if kind == "task":
                note = TaskNotification(params={**store.tasks[item], "_meta": meta})
            else:
                note = event_to_notification(item, meta)
            await ctx.session.send_notification(note, related_request_id=ctx.request_id)
    finally:
        store.watchers.remove(changed)
        unsubscribe()
        send.close()
        recv.close()
    return SubscriptionsListenResult(_meta=meta)


server._lowlevel_server.add_request_handler("subscriptions/listen", SubscriptionsListenRequestParams, listen)


@server.tool()
def echo(message: str) -> str:
    """Returns the message at once."""
    return f"Echo: {message}"


@server.tool()
def report(seconds: float = 1.0) -> str:
    """Writes a report (runs as a task: it takes `seconds`)."""
    return "report written at once (the client did not declare tasks)"


@server.tool()
def approve(item: str) -> str:
    """Asks the person to approve `item` (runs as a task that waits for the answer)."""
    return "cannot ask without tasks"


@server.tool()
def fail() -> str:
    """A task that fails."""
    return "no failure without tasks"


@server.tool()
def forever(ttl_ms: int = 60_000) -> str:
    """A task that works until it is cancelled (kept for `ttl_ms`)."""
    return "nothing to do without tasks"


@server.tool()
def quiet(seconds: float = 1.0) -> str:
    """As `report`, polled once a minute (its end is told by notification)."""
    return "written at once (the client did not declare tasks)"


@server.tool(meta={"ui": {"resourceUri": "ui://tasks/chart"}})
def chart(seconds: float = 1.0) -> str:
    """Draws a chart, shown in its View (runs as a task: it takes `seconds`)."""
    return "chart drawn at once (the client did not declare tasks)"


# The chart's View: it shows the tool result the host tells it.
CHART_VIEW = """<!doctype html><html><body><pre id="chart">waiting</pre><script>
addEventListener('message', (e) => {
  if (e.source !== parent || !e.data) return;
  if (e.data.id === 1) parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized' }, '*');
  if (e.data.method === 'ui/notifications/tool-result') {
    document.getElementById('chart').textContent = 'view got: ' + e.data.params.content[0].text;
  }
});
parent.postMessage({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: { appInfo: { name: 'chart', version: '1' }, appCapabilities: {}, protocolVersion: '2026-01-26' } }, '*');
</script></body></html>"""


@server.resource("ui://tasks/chart", name="chart view", mime_type="text/html;profile=mcp-app")
def chart_view() -> str:
    """The chart's View."""
    return CHART_VIEW


def main() -> None:
    serve(server)


if __name__ == "__main__":
    main()
