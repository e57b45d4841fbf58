"""A 2026-07-28 MCP server for the browser tests, built on PyPI `mcp` 2.x (MCPServer).

It also speaks the legacy era (an `initialize` opens a session), with an event store so that
cut streams can be resumed with Last-Event-ID. It exercises what only the modern era has: MRTR (`input_required`) rounds, a tool parameter
mirrored into a header with `x-mcp-header`, and `subscriptions/listen`. The SDK sends no CORS
headers, so the app is wrapped in Starlette's CORSMiddleware (the browser page is served from
another origin). Binds 127.0.0.1 only.

Usage: python modern_server.py PORT  (or PORT in the environment)
"""

import asyncio
import os
from datetime import datetime, timezone
from typing import Annotated

import anyio
from mcp.server.caching import CacheHint
from mcp.shared.exceptions import MCPError
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.streamable_http import EventMessage, EventStore
from mcp.server.subscriptions import (
    InMemorySubscriptionBus,
    PromptsListChanged,
    ResourcesListChanged,
    ResourceUpdated,
    ToolsListChanged,
)
from mcp_types import (
    CreateMessageRequest,
    Icon,
    CreateMessageRequestParams,
    ElicitRequest,
    ElicitRequestFormParams,
    Completion,
    INVALID_PARAMS,
    InputRequiredResult,
    ListResourcesResult,
    ListRootsRequest,
    SamplingMessage,
    TextContent,
    Tool,
    ToolChoice,
)
from enum import Enum

from pydantic import BaseModel, Field
from serve_loopback import serve

class MemoryEventStore(EventStore):
    """Keeps every SSE event so that legacy-era clients can resume a cut stream with
    Last-Event-ID (the SDK ships the interface, not a store)."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str, object]] = []  # (event id, stream id, message)

    async def store_event(self, stream_id, message):
        event_id = str(len(self.events) + 1)
        self.events.append((event_id, stream_id, message))
        return event_id

    async def replay_events_after(self, last_event_id, send_callback):
        index = next((i for i, e in enumerate(self.events) if e[0] == last_event_id), None)
        if index is None:
            return None
        stream_id = self.events[index][1]
        for event_id, sid, message in self.events[index + 1 :]:
            if sid == stream_id and message is not None:
                await send_callback(EventMessage(message, event_id))
        return stream_id


# Cursors name the listing they belong to ("epoch:offset"); `reshuffle` starts a new epoch
# without announcing anything, so a cursor handed out before is refused, as a real server's
# expired cursor would be.
_epoch = [0]


class PagedServer(MCPServer):
    """Lists resources two per page, so clients must follow `nextCursor`. Pages are cacheable
    on their own; the last one is never fresh (`ttlMs` 0, as the specification's example of
    a shorter TTL for the final page), so a client keeping the others asks for it again with
    the cursor it kept."""

    async def _handle_list_resources(self, ctx, params):
        everything = await self.list_resources()
        start = 0
        if params is not None and params.cursor:
            epoch, _, offset = params.cursor.partition(":")
            if epoch != str(_epoch[0]) or not offset.isdigit():
                raise MCPError(INVALID_PARAMS, f"invalid or expired cursor: {params.cursor}")
            start = int(offset)
        end = start + 2
        if end < len(everything):
            return ListResourcesResult(resources=everything[start:end], next_cursor=f"{_epoch[0]}:{end}")
        return ListResourcesResult(resources=everything[start:end], ttl_ms=0)


class AnnouncingBus(InMemorySubscriptionBus):
    """The SDK's bus, which can also announce an event at the moment the next listen stream
    subscribes, to the streams open before it only: what a client replacing its stream
    hears only if it keeps the old one open until the new one is acknowledged. (It reads the
    SDK bus's listeners: the bus offers no other way to publish synchronously.)"""

    def __init__(self) -> None:
        super().__init__()
        self.on_next_subscribe = None

    def subscribe(self, listener):
        event, self.on_next_subscribe = self.on_next_subscribe, None
        if event is not None:
            for other in list(self._listeners.values()):
                other(event)
        return super().subscribe(listener)

    def streams(self) -> int:
        """How many listen streams are open."""
        return len(self._listeners)


bus = AnnouncingBus()
# Icons (2025-11-25 and later), inline as the app shows them: the server has one made for each
# colour scheme (a black pixel for light pages, a white one for dark pages), its `echo` tool,
# greeting resource, item template and greet prompt one for any (blue), and `where` one only
# from elsewhere, which a browser client should not load.
_PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nG"
ICON_LIGHT = Icon(src=_PNG + "NgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC", mime_type="image/png", theme="light")
ICON_DARK = Icon(src=_PNG + "P4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC", mime_type="image/png", theme="dark")
ICON_ANY = [Icon(src=_PNG + "PgTroGAAG/AUTLTgWiAAAAAElFTkSuQmCC", mime_type="image/png")]
# Caching hints (2026-07-28): lists and reads stay fresh for a minute, so clients may serve
# them again without asking; every change below is announced, which makes them stale.
# Templates stay fresh for 3 s only: a test can see them go stale (and be served stale when
# asking again fails). The `server/discover` result is the same for everyone and stays fresh
# for an hour, as in the specification's example, so clients may skip the probe next time.
_fresh = CacheHint(ttl_ms=60_000)
server = PagedServer(
    "modern-test-server",
    icons=[ICON_LIGHT, ICON_DARK],
    subscriptions=bus,
    cache_hints={
        "server/discover": CacheHint(ttl_ms=3_600_000, scope="public"),
        "tools/list": _fresh,
        "prompts/list": _fresh,
        "resources/list": _fresh,
        "resources/templates/list": CacheHint(ttl_ms=3_000),
        "resources/read": _fresh,
    },
)


@server.tool(icons=ICON_ANY)
def echo(message: str) -> str:
    """Returns the message."""
    return f"Echo: {message}"


@server.tool(icons=[Icon(src="http://127.0.0.1:9/where.png")])
def where(
    region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})],
    ctx: Context,
) -> str:
    """Reports the region from the body and from the mirrored Mcp-Param-Region header."""
    header = (ctx.headers or {}).get("mcp-param-region")
    return f"body={region} header={header}"


@server.tool()
async def interview(ctx: Context) -> str | InputRequiredResult:
    """Asks the user (elicitation) and the model (sampling) in one MRTR round."""
    answers = ctx.input_responses
    if not answers:
        return InputRequiredResult(
            input_requests={
                "who": ElicitRequest(
                    params=ElicitRequestFormParams(
                        message="Who are you?",
                        requested_schema={
                            "type": "object",
                            "properties": {"name": {"type": "string"}},
                            "required": ["name"],
                        },
                    )
                ),
                "capital": CreateMessageRequest(
                    params=CreateMessageRequestParams(
                        messages=[SamplingMessage(role="user", content=TextContent(type="text", text="Capital of France?"))],
                        max_tokens=20,
                    )
                ),
            },
            request_state="interview-round-1",
        )
    if ctx.request_state != "interview-round-1":
        return f"bad request state {ctx.request_state!r}"
    who = answers["who"]
    capital = answers["capital"]
    name = getattr(who, "content", None) or (who.get("content") if isinstance(who, dict) else None)
    text = getattr(capital, "content", None) or (capital.get("content") if isinstance(capital, dict) else None)
    return f"name={name} capital={text}"


WEATHER_TOOL = {
    "name": "get_weather",
    "description": "Current weather of a city",
    "inputSchema": {
        "type": "object",
        "properties": {"city": {"type": "string", "description": "City name"}},
        "required": ["city"],
    },
}
WEATHER = {"Paris": "18°C, partly cloudy", "London": "15°C, rainy"}
WEATHER_QUESTION = {"role": "user", "content": {"type": "text", "text": "What is the weather in Paris?"}}


def _plain(value):
    """An answer as JSON (the SDK may hand it over as a model or as a dict)."""
    if hasattr(value, "model_dump"):
        return value.model_dump(by_alias=True, exclude_none=True, mode="json")
    return value


def _blocks(reply) -> list:
    content = reply.get("content", [])
    return content if isinstance(content, list) else [content]


def _weather_turn(messages, choice: str) -> CreateMessageRequest:
    return CreateMessageRequest.model_validate({
        "method": "sampling/createMessage",
        "params": {
            "messages": messages,
            "maxTokens": 200,
            "tools": [WEATHER_TOOL],
            "toolChoice": {"mode": choice},
        },
    })


@server.tool()
async def weather(ctx: Context, choice: str = "auto", force: bool = False) -> str | InputRequiredResult:
    """Asks the model about the weather, offering it a get_weather tool (sampling with tools,
    MRTR). Its tool calls are run and their results sent back in a second round, where the
    tool may no longer be called (toolChoice none). Asks only a client that declared
    sampling.tools, unless `force`."""
    caps = ctx.client_capabilities
    sampling = getattr(caps, "sampling", None) if caps else None
    if not force and (sampling is None or getattr(sampling, "tools", None) is None):
        return "refused: the client did not declare sampling.tools"
    answers = ctx.input_responses
    state = ctx.request_state or ""
    if not answers:
        return InputRequiredResult(
            input_requests={"turn1": _weather_turn([WEATHER_QUESTION], choice)},
            request_state="weather-1",
        )
    if state == "weather-1":
        reply = _plain(answers["turn1"])
        blocks = _blocks(reply)
        uses = [b for b in blocks if b.get("type") == "tool_use"]
        if not uses:
            text = " ".join(b.get("text", "") for b in blocks if b.get("type") == "text")
            return f"answer: {text} (no tool calls; stopReason {reply.get('stopReason')})"
        if reply.get("stopReason") != "toolUse":
            return f"bad stopReason {reply.get('stopReason')!r} with tool calls"
        results = []
        for use in uses:
            city = (use.get("input") or {}).get("city", "?")
            results.append({
                "type": "tool_result",
                "toolUseId": use["id"],
                "content": [{"type": "text", "text": f"Weather in {city}: {WEATHER.get(city, 'unknown')}"}],
            })
        messages = [WEATHER_QUESTION, {"role": "assistant", "content": blocks}, {"role": "user", "content": results}]
        cities = ",".join(str((u.get("input") or {}).get("city", "?")) for u in uses)
        return InputRequiredResult(
            input_requests={"turn2": _weather_turn(messages, "none")},
            request_state=f"weather-2:{cities}",
        )
    if state.startswith("weather-2:"):
        reply = _plain(answers["turn2"])
        text = " ".join(b.get("text", "") for b in _blocks(reply) if b.get("type") == "text")
        return f"answer: {text} (after tool calls for {state[len('weather-2:'):]})"
    return f"bad request state {state!r}"


@server.tool()
async def weather_legacy(ctx: Context) -> str:
    """The weather tool's loop for a 2025-era session: the two sampling requests go to the
    client on the call's stream (the SDK checks that the client declared sampling.tools)."""
    question = SamplingMessage.model_validate(WEATHER_QUESTION)
    tool = Tool.model_validate(WEATHER_TOOL)
    first = _plain(await ctx.session.create_message(
        [question], max_tokens=200, tools=[tool], tool_choice=ToolChoice(mode="auto")))
    uses = [b for b in _blocks(first) if b.get("type") == "tool_use"]
    if first.get("stopReason") != "toolUse" or not uses:
        return f"no tool calls (stopReason {first.get('stopReason')})"
    results = [{
        "type": "tool_result",
        "toolUseId": u["id"],
        "content": [{"type": "text", "text": f"Weather in {u['input'].get('city')}: {WEATHER.get(u['input'].get('city'), 'unknown')}"}],
    } for u in uses]
    messages = [
        question,
        SamplingMessage.model_validate({"role": "assistant", "content": _blocks(first)}),
        SamplingMessage.model_validate({"role": "user", "content": results}),
    ]
    second = _plain(await ctx.session.create_message(
        messages, max_tokens=200, tools=[tool], tool_choice=ToolChoice(mode="none")))
    text = " ".join(b.get("text", "") for b in _blocks(second) if b.get("type") == "text")
    cities = ",".join(str(u["input"].get("city")) for u in uses)
    return f"answer: {text} (after tool calls for {cities})"


@server.tool()
async def elicit_as_task(ctx: Context, cancel: bool = False) -> str:
    """2025-era sessions only (2025-11-25 tasks): asks the client for input as a task and reads
    the task's state; then either fetches what it came to (`tasks/result`) or cancels it and
    reads its state again. Says the state the client gave at each step (and the action the
    user took), then, on a line of its own, when the client says the task was created. The
    SDK has no typed call for a task the client runs: raw requests, on the call's stream (the
    session's outbound for it)."""
    out = ctx.session._request_outbound
    schema = {"type": "object", "properties": {"name": {"type": "string"}}}
    created = await out.send_raw_request(
        "elicitation/create",
        {"mode": "form", "message": "Your name?", "requestedSchema": schema, "task": {"ttl": 60_000}},
    )
    task_id = {"taskId": created["task"]["taskId"]}
    said = [created["task"]["status"], (await out.send_raw_request("tasks/get", task_id))["status"]]
    if cancel:
        for method in ("tasks/cancel", "tasks/get"):
            said.append((await out.send_raw_request(method, task_id))["status"])
    else:
        said.append((await out.send_raw_request("tasks/result", task_id))["action"])
    return " ".join(said) + "\n" + str(created["task"].get("createdAt"))


@server.tool()
async def sample_as_task_offering_tools(ctx: Context) -> str:
    """2025-era sessions only: asks the client to sample, offering it a tool, as a task (2025-11-25
    tasks). A client that did not declare `sampling.tools` must refuse (an error, not a
    task); says what came back."""
    params = {
        "messages": [WEATHER_QUESTION],
        "maxTokens": 50,
        "tools": [WEATHER_TOOL],
        "task": {"ttl": 60_000},
    }
    try:
        answer = await ctx.session._request_outbound.send_raw_request("sampling/createMessage", params)
    except MCPError as e:
        return f"refused {e.code}"
    return "answered " + ("with a task" if "task" in answer else "at once")


@server.tool()
async def roots(ctx: Context) -> str | InputRequiredResult:
    """Asks for the client's roots (MRTR) and lists their URIs."""
    answers = ctx.input_responses
    if not answers:
        return InputRequiredResult(input_requests={"roots": ListRootsRequest()})
    listed = answers["roots"]
    items = getattr(listed, "roots", None) or (listed.get("roots", []) if isinstance(listed, dict) else [])
    uris = [str(getattr(r, "uri", None) or r.get("uri")) for r in items]
    return "roots: " + ", ".join(uris)


@server.tool()
async def chatty(ctx: Context) -> str:
    """Sends log messages at two levels."""
    await ctx.log("debug", "a debug line")
    await ctx.log("warning", "a warning line")
    return "logged"


@server.tool()
def header(name: str, ctx: Context) -> str:
    """Returns the value of a request header (to check custom headers arrive)."""
    return str((ctx.headers or {}).get(name.lower()))


@server.tool()
def trace(ctx: Context) -> str:
    """Returns the W3C trace context keys of the request's `_meta` (to check they arrive)."""
    meta = ctx.request_context.meta or {}
    return " ".join(f"{k}={meta.get(k)}" for k in ("traceparent", "tracestate", "baggage"))


@server.tool()
async def count(ctx: Context, steps: int = 3) -> str:
    """Reports progress `steps` times."""
    for i in range(steps):
        await ctx.report_progress(i + 1, steps, f"step {i + 1}")
        await anyio.sleep(0.05)
    return f"counted to {steps}"


@server.tool()
async def sleep(seconds: float) -> str:
    """Sleeps (for timeout and cancellation tests)."""
    await anyio.sleep(seconds)
    return "woke up"


@server.tool(structured_output=False)
def big(megabytes: int) -> str:
    """Returns a text of `megabytes` MiB (for large-result tests)."""
    return "x" * (megabytes << 20)


@server.tool()
async def touch(uri: str) -> str:
    """Announces that a resource changed."""
    await bus.publish(ResourceUpdated(uri=uri))
    return "touched"


@server.tool()
def touch_when_listened(uri: str) -> str:
    """Announces that a resource changed when the next listen stream opens, on the streams
    open until then."""
    bus.on_next_subscribe = ResourceUpdated(uri=uri)
    return "armed"


@server.tool()
def listen_streams() -> str:
    """How many `subscriptions/listen` streams are open now, of every client."""
    return str(bus.streams())


@server.tool()
def reshuffle() -> str:
    """Starts a new resource listing: cursors handed out before are refused (not announced)."""
    _epoch[0] += 1
    return "reshuffled"


class Address(BaseModel):
    """Where a parcel goes."""

    city: str = Field(min_length=1)
    zip: str | None = Field(default=None, pattern=r"^[0-9]{5}$")


class Speed(str, Enum):
    fast = "fast"
    slow = "slow"


class Shipment(BaseModel):
    to: Address
    speed: Speed
    tracking: str = Field(pattern=r"^TR-\d+$")
    weight: float | None = None


@server.tool()
def ship(to: Address, speed: Speed = Speed.fast, weight: float | None = None) -> Shipment:
    """Ships a parcel: arguments and result are pydantic models, so both schemas use $defs,
    $ref, optional (anyOf with null) fields, an enum and patterns."""
    return Shipment(to=to, speed=speed, tracking="TR-" + str(len(to.city)), weight=weight)


@server.tool()
def remind(at: datetime) -> str:
    """Reads a date-time argument (pydantic: a string of format date-time) and says which
    instant it is, in UTC, and the offset it was given with."""
    return f"{at.astimezone(timezone.utc).isoformat()} (offset {at.utcoffset()})"


_added: set[str] = set()


@server.tool()
async def retool() -> str:
    """Adds the tool `added-later` (once) and announces that the tool list changed."""
    if "added-later" not in _added:
        server.add_tool(lambda: "I was added later", name="added-later",
                        description="Added by retool")
        _added.add("added-later")
    await bus.publish(ToolsListChanged())
    return "announced"


_later: set = set()  # background changes in flight (a reference keeps each task alive)


@server.tool()
async def change_later(what: str, seconds: float = 1.0) -> str:
    """After `seconds`, adds the prompt or the resource `added-later` (`what`: "prompt" or
    "resource") and announces that that list changed."""

    async def change() -> None:
        await anyio.sleep(seconds)
        if what == "prompt":
            server.prompt(name="added-later")(lambda: "added later")
            await bus.publish(PromptsListChanged())
        else:
            server.resource("test://added-later", name="added-later", mime_type="text/plain")(
                lambda: "added later"
            )
            await bus.publish(ResourcesListChanged())

    task = asyncio.get_running_loop().create_task(change())
    _later.add(task)
    task.add_done_callback(_later.discard)
    return "scheduled"


@server.resource("test://greeting", mime_type="text/plain", icons=ICON_ANY)
def greeting() -> str:
    """A fixed text resource."""
    return "hello from the modern server"


for _n in range(int(os.environ.get("MANY_TOOLS", "0"))):
    server.add_tool(lambda: "ok", name=f"tool-{_n}", description=f"Generated tool number {_n}")


def _static(n: int):
    def read() -> str:
        return f"static resource {n}"

    return read


for _n in range(5):
    server.resource(f"test://static/{_n}", name=f"static-{_n}", mime_type="text/plain")(_static(_n))


@server.resource("test://items/{item_id}", mime_type="text/plain", icons=ICON_ANY)
def item(item_id: str) -> str:
    """A templated resource."""
    return f"item {item_id}"


@server.completion()
async def complete(ref, argument, context):
    """Completes the `name` argument of the `greet` prompt."""
    names = ["Ada", "Alan", "Grace", "Lin"]
    return Completion(values=[n for n in names if n.startswith(argument.value)])


@server.prompt(icons=ICON_ANY)
def greet(name: str) -> str:
    """A prompt with one argument."""
    return f"Please greet {name}."


def main() -> None:
    serve(server, event_store=MemoryEventStore())


if __name__ == "__main__":
    main()
