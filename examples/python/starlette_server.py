"""
wsbench reference server on Starlette, served by uvicorn: echo, fanout and
push-vs-poll (its REST routes and its WebSocket on one app), as their pages in
docs/protocols/ describe. wsbench picks the scenario with `?scenario=NAME` on
every connection (the path works too: ws://host:port/fanout).

    python examples/python/starlette_server.py --port 8765
    wsbench run push-vs-poll --server-cmd 'starlette=.venv/bin/python examples/python/starlette_server.py --port {port}'

`--cert FILE --key FILE` serves wss:// and the REST routes over https://.

Counters for wsbench's server-side metrics: GET /wsbench/stats.
"""

from __future__ import annotations

import asyncio
import json
import random
import time

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

import wsbench_protocol as wp

# ------------------------------------------------------------------ echo


async def echo(ws: WebSocket, params: wp.Params) -> None:
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        if message.get("text") is not None:
            await ws.send_text(message["text"])
        else:
            await ws.send_bytes(message["bytes"])


# ------------------------------------------------------------------ fanout


def send_all(targets: list[WebSocket], message: str):
    # One send per connection, all at once: ASGI has no broadcast.
    return asyncio.gather(*(ws.send_text(message) for ws in targets), return_exceptions=True)


STREAM = wp.FanoutStream(send_all)


async def fanout(ws: WebSocket, params: wp.Params) -> None:
    STREAM.connections.add(ws)
    try:
        while True:
            STREAM.on_text(await ws.receive_text(), params)
    finally:
        STREAM.connections.discard(ws)


# ------------------------------------------------------------------ push-vs-poll


class OrderBackend:
    """Orders placed over REST; each order's update pushed to subscribed WebSockets and kept for polling."""

    PHASES = ("websocket", "rest")

    def __init__(self) -> None:
        self.log: list[str] = []
        self.subscribers: set[WebSocket] = set()
        self.next_batch = 0
        self.phase: tuple[str, float, float] | None = None

    async def place(self, count: int) -> dict:
        batch = self.next_batch
        self.next_batch += 1
        batch_created = wp.now_us()
        for i in range(count):
            update = {
                "id": len(self.log) + 1, "order": f"o-{batch}-{i}", "status": "placed",
                "side": "buy" if random.random() < 0.5 else "sell", "qty": 1 + random.randrange(100),
                "b": batch, "bn": count, "bc": batch_created, "c": wp.now_us(),
            }
            text = wp.compact(update)
            self.log.append(text)
            wp.count("push-vs-poll", "updatesCreated")
            for ws in list(self.subscribers):
                await ws.send_text(text)
                wp.count("push-vs-poll", "updatesPushed")
        return {"batch": batch, "cursor": len(self.log)}

    def end_phase(self) -> None:
        if self.phase:
            name, cpu_s, wall_us = self.phase
            wp.count("push-vs-poll", f"cpuUs_{name}", (time.process_time() - cpu_s) * 1e6)
            wp.count("push-vs-poll", f"wallUs_{name}", wp.now_us() - wall_us)
            self.phase = None


BACKEND = OrderBackend()


async def push_vs_poll(ws: WebSocket, params: wp.Params) -> None:
    BACKEND.subscribers.add(ws)
    try:
        while True:
            on = bool(json.loads(await ws.receive_text()).get("sub"))
            if on:
                BACKEND.subscribers.add(ws)
            else:
                BACKEND.subscribers.discard(ws)
            await ws.send_text(wp.compact({"subscribed": on}))
    finally:
        BACKEND.subscribers.discard(ws)


async def place_orders(request: Request) -> Response:
    body = await request.body()
    count = (json.loads(body or b"{}") or {}).get("count", 1)
    if not isinstance(count, int) or count < 1:
        return JSONResponse({"error": "count must be a whole number >= 1"}, status_code=400)
    return JSONResponse(await BACKEND.place(count))


async def updates(request: Request) -> Response:
    try:
        since = max(0, int(request.query_params.get("since", "0")))
    except ValueError:
        since = 0
    wp.count("push-vs-poll", "pollsServed")
    if since >= len(BACKEND.log):
        wp.count("push-vs-poll", "emptyPollsServed")
    # The log holds JSON text already: join it rather than parse and re-serialize.
    return Response(f'{{"cursor":{len(BACKEND.log)},"updates":[{",".join(BACKEND.log[since:])}]}}', media_type="application/json")


async def phase(request: Request) -> Response:
    data = json.loads(await request.body() or b"{}")
    if data.get("name") not in OrderBackend.PHASES:
        return JSONResponse({"error": f"name must be one of {', '.join(OrderBackend.PHASES)}"}, status_code=400)
    BACKEND.end_phase()
    if data.get("state") == "start":
        BACKEND.phase = (data["name"], time.process_time(), wp.now_us())
    return JSONResponse({"cursor": len(BACKEND.log)})


# ------------------------------------------------------------------ the app

SCENARIOS = {"echo": echo, "fanout": fanout, "push-vs-poll": push_vs_poll}


async def websocket(ws: WebSocket) -> None:
    params = wp.Params(ws.scope["path"] + "?" + ws.scope["query_string"].decode())
    if params.scenario not in SCENARIOS:
        await ws.close(code=1008, reason=f"no scenario {params.scenario} here")
        return
    await ws.accept()
    try:
        await SCENARIOS[params.scenario](ws, params)
    except WebSocketDisconnect:
        pass


async def stats(request: Request) -> Response:
    return Response(wp.stats_body(request.query_params.get("scenario", "echo")), media_type="application/json")


app = Starlette(
    routes=[
        Route(wp.STATS_PATH, stats),
        Route("/orders", place_orders, methods=["POST"]),
        Route("/updates", updates),
        Route("/phase", phase, methods=["POST"]),
        WebSocketRoute("/", websocket),
        WebSocketRoute("/{scenario}", websocket),
    ]
)


class AnnouncingServer(uvicorn.Server):
    """Prints the port it bound (port 0 included) once it listens, in the line wsbench reads."""

    async def startup(self, sockets=None) -> None:
        await super().startup(sockets)
        for server in self.servers:
            for sock in server.sockets:
                wp.announce(self.config.host, sock.getsockname()[1])


if __name__ == "__main__":
    args = wp.server_arguments(__doc__.strip().splitlines()[0])
    # Compression off and no keepalive pings, as wsbench's own servers; the websockets library underneath.
    config = uvicorn.Config(
        app, host=args.host, port=args.port, log_level="warning", lifespan="off",
        ws="websockets-sansio", ws_per_message_deflate=False, ws_ping_interval=None, ws_max_size=64 * 1024 * 1024,
        # The same TLS context as the other reference servers, rather than the one uvicorn builds from its own defaults.
        **({"ssl_context_factory": lambda _config, _default: wp.tls_context(args)} if args.cert else {}),
    )
    AnnouncingServer(config).run()
