"""
wsbench reference server on the `websockets` library (asyncio API): echo,
ticker-orders, chat, fanout, firehose, churn, slow-consumer, reconnect-storm and pubsub,
each as its page in docs/protocols/ describes. wsbench picks the scenario with `?scenario=NAME` on every
connection (the path works too: ws://host:port/fanout).

    python examples/python/websockets_server.py --port 8765
    wsbench run echo --server-cmd 'py=.venv/bin/python examples/python/websockets_server.py --port {port}'

`--cert FILE --key FILE` serves wss:// (and the stats route over https://).

`--max-queue N|none` is the library's receive queue per connection (seed 004's
knob). Counters for wsbench's server-side metrics: GET /wsbench/stats.
"""

from __future__ import annotations

import asyncio
import json
import signal
from http import HTTPStatus

from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed

import wsbench_protocol as wp

async def json_messages(ws: ServerConnection, scenario: str, malformed: str):
    """The connection's messages, parsed; one that is not JSON counts as `malformed` of `scenario` and is skipped."""
    async for message in ws:
        try:
            parsed = json.loads(message)
        except ValueError:
            wp.count(scenario, malformed)
            continue
        yield parsed


# ------------------------------------------------------------------ echo


async def echo(ws: ServerConnection, params: wp.Params) -> None:
    async for message in ws:
        await ws.send(message)


# ------------------------------------------------------------------ ticker-orders


TICKER = wp.TickerStream(broadcast)


async def ticker_orders(ws: ServerConnection, params: wp.Params) -> None:
    try:
        async for order in json_messages(ws, "ticker-orders", "ordersMalformed"):
            if "sub" in order:
                TICKER.subscribe(ws, params)
                continue
            wp.count("ticker-orders", "ordersReceived")
            symbol = order.get("y", 0)
            price = TICKER.price_of(symbol)
            await ws.send(wp.compact({"a": order["o"], "t": order["t"], "i": order["i"], "px": round(price, 2)}))
    finally:
        TICKER.subscribers.discard(ws)


# ------------------------------------------------------------------ chat


class Room:
    """
    One room: every message goes to every other member, in arrival order,
    after the moderator's delay, through unlimited or bounded outgoing queues.
    """

    def __init__(self) -> None:
        self.members: dict[ServerConnection, asyncio.Queue | None] = {}
        self.moderation: asyncio.Queue[tuple[ServerConnection, str, bool, float]] = asyncio.Queue()
        self.worker: asyncio.Task | None = None

    def join(self, ws: ServerConnection, params: wp.Params) -> asyncio.Task | None:
        bounded = params.text("queue", "unlimited") == "bounded"
        queue = asyncio.Queue(maxsize=params.integer("queueLimit", 4)) if bounded else None
        self.members[ws] = queue
        if self.worker is None:
            self.worker = asyncio.create_task(self.moderate(params))
        return asyncio.create_task(self.write(ws, queue)) if queue is not None else None

    async def moderate(self, params: wp.Params) -> None:
        delay_us = params.number("moderatorDelay", 0) * 1000
        serial = params.text("moderatorMode", "concurrent") == "serial"
        drop = params.text("queuePolicy", "wait") == "drop"
        free_us = 0.0
        while True:
            sender, text, control, arrived_us = await self.moderation.get()
            if delay_us > 0:
                start_us = max(arrived_us, free_us) if serial else arrived_us
                free_us = start_us + delay_us
                await asyncio.sleep(max(0.0, (free_us - wp.now_us()) / 1e6))
            others = [ws for ws in self.members if ws is not sender]
            unlimited = [ws for ws in others if self.members.get(ws) is None]
            broadcast(unlimited, text)
            wp.count("chat", "delivered", len(unlimited))
            for ws in others:
                queue = self.members.get(ws)
                if queue is None:
                    continue
                if queue.full() and drop and not control:
                    wp.count("chat", "droppedByQueue")
                    continue
                if queue.full():
                    wp.count("chat", "stalls")
                await queue.put(text)  # "wait": a full queue holds the broadcast, and every later one behind it
                wp.count("chat", "queuedInApp")
                wp.count("chat", "delivered")

    def leave(self, ws: ServerConnection, writer: asyncio.Task | None) -> None:
        self.members.pop(ws, None)
        if writer:
            writer.cancel()
        if not self.members and self.worker:
            # An empty room forgets its settings: the next cell's first member brings its own.
            self.worker.cancel()
            self.worker = None
            self.moderation = asyncio.Queue()

    async def write(self, ws: ServerConnection, queue: asyncio.Queue) -> None:
        while True:
            await ws.send(await queue.get())


ROOM = Room()


async def chat(ws: ServerConnection, params: wp.Params) -> None:
    writer = ROOM.join(ws, params)
    try:
        async for message in ws:
            control = message.startswith('{"e"')
            if not control:
                wp.count("chat", "messagesIn")
            ROOM.moderation.put_nowait((ws, message, control, wp.now_us()))
    finally:
        ROOM.leave(ws, writer)


# ------------------------------------------------------------------ fanout


STREAM = wp.FanoutStream(broadcast)


async def fanout(ws: ServerConnection, params: wp.Params) -> None:
    STREAM.connections.add(ws)
    try:
        async for message in ws:
            STREAM.on_text(message, params)
    finally:
        STREAM.connections.discard(ws)


# ------------------------------------------------------------------ firehose

FEED: tuple[list[str], list[str]] | None = None
HIGH_WATER_BYTES = 1024 * 1024


async def send_frames(ws: ServerConnection, frames: list[str]) -> None:
    """One text message as exactly these frames. ws.send(iterable) would add an empty
    final frame, and the firehose protocol sends ceil(length / fragmentSize) frames.
    send_context() is what ws.send() itself waits in: the write buffer's backpressure."""
    last = len(frames) - 1
    for index, frame in enumerate(frames):
        async with ws.send_context():
            if index == 0:
                ws.protocol.send_text(frame.encode(), fin=index == last)
            else:
                ws.protocol.send_continuation(frame.encode(), fin=index == last)


async def firehose(ws: ServerConnection, params: wp.Params) -> None:
    global FEED
    FEED = FEED or wp.build_order_book_feed()
    fragment_bytes = params.integer("fragmentSize", 8192)
    rate = params.integer("rate", 0)
    sender: asyncio.Task | None = None
    running = [False]

    async def send(text: str) -> None:
        frames = wp.fragments(text, fragment_bytes)
        if len(frames) > 1:
            await send_frames(ws, frames)
        else:
            await ws.send(text)
        wp.count("firehose", "messagesSent")
        wp.count("firehose", "framesSent", len(frames))
        wp.count("firehose", "bytesSent", len(text))

    async def stream() -> None:
        snapshots, updates = FEED
        for snapshot in snapshots:
            await send(snapshot)
        started = wp.now_us()
        sent = 0
        while running[0]:
            if rate > 0:
                due = int((wp.now_us() - started) / 1e6 * rate)
                while running[0] and sent < due:
                    await send(updates[sent % len(updates)])
                    sent += 1
                await asyncio.sleep(0.005)
            else:
                # send() waits while the write buffer is full: backpressure sets the pace.
                await send(updates[sent % len(updates)])
                sent += 1
                if sent % 256 == 0:
                    await asyncio.sleep(0)

    async def stop() -> None:
        running[0] = False
        if sender:
            await sender  # finishes the message it is sending: a cancelled fragmented send would break the frame sequence

    try:
        async for request in json_messages(ws, "firehose", "badRequests"):
            await stop()
            await send(wp.compact({"method": str(request.get("method")), "success": True, "req_id": request.get("req_id")}))
            if request.get("method") == "subscribe":
                running[0] = True
                sender = asyncio.create_task(stream())
    finally:
        running[0] = False


# ------------------------------------------------------------------ churn


async def churn(ws: ServerConnection, params: wp.Params) -> None:
    """echo, counting the connections: wsbench divides the server's CPU by them."""
    wp.count("churn", "accepted")
    async for message in ws:
        wp.count("churn", "echoed")
        await ws.send(message)


# ------------------------------------------------------------------ slow-consumer


def write_buffer_bytes(ws: ServerConnection) -> int:
    """What asyncio holds for a connection and has not written to its socket."""
    transport = ws.transport
    return transport.get_write_buffer_size() if transport is not None and not transport.is_closing() else 0


# broadcast() writes to every connection without waiting: a slow one's bytes pile up in its
# write buffer, without limit (this server sends no keepalive pings that would time it out).
SLOW_STREAM = wp.SlowConsumerStream(broadcast, write_buffer_bytes)


async def slow_consumer(ws: ServerConnection, params: wp.Params) -> None:
    SLOW_STREAM.join(ws)
    try:
        async for message in ws:
            SLOW_STREAM.on_text(ws, message, params)
    finally:
        SLOW_STREAM.leave(ws)


# ------------------------------------------------------------------ reconnect-storm


async def reconnect_storm(ws: ServerConnection, params: wp.Params) -> None:
    """Accept and hold: wsbench kills this process and starts it again; the clients come back."""
    await ws.wait_closed()


# ------------------------------------------------------------------ pubsub

# topic -> its subscribed connections: the topic map a `websockets` user writes (the library has no topics).
TOPICS: dict[str, set[ServerConnection]] = {}


async def pubsub(ws: ServerConnection, params: wp.Params) -> None:
    joined: set[str] = set()
    try:
        async for message in ws:
            try:
                frame = json.loads(message)
            except ValueError:
                continue
            if isinstance(frame.get("pub"), str):
                # Forwarded unchanged; broadcast() writes to each subscriber without waiting for any.
                broadcast(TOPICS.get(frame["pub"], ()), message)
            elif isinstance(frame.get("sub"), str):
                TOPICS.setdefault(frame["sub"], set()).add(ws)
                joined.add(frame["sub"])
                await ws.send(json.dumps({"subscribed": frame["sub"]}))
    finally:
        for topic in joined:
            members = TOPICS.get(topic)
            if members is not None:
                members.discard(ws)
                if not members:
                    del TOPICS[topic]


# ------------------------------------------------------------------ the server

SCENARIOS = {
    "echo": echo,
    "ticker-orders": ticker_orders,
    "chat": chat,
    "fanout": fanout,
    "firehose": firehose,
    "churn": churn,
    "slow-consumer": slow_consumer,
    "reconnect-storm": reconnect_storm,
    "pubsub": pubsub,
}


def refuse(connection: ServerConnection, request):
    """The stats route, and parameters this server does not implement (answered with HTTP 400)."""
    params = wp.Params(request.path)
    if params.path == wp.STATS_PATH:
        return connection.respond(HTTPStatus.OK, wp.stats_body(params.scenario))
    if params.scenario not in SCENARIOS:
        return connection.respond(HTTPStatus.NOT_FOUND, f"no scenario {params.scenario} here (have: {', '.join(SCENARIOS)})\n")
    if params.scenario == "chat" and params.integer("queueLimitBytes", 0) > 0:
        return connection.respond(HTTPStatus.BAD_REQUEST, "queueLimitBytes is not implemented by this server (queueLimit is)\n")
    return None


async def handler(ws: ServerConnection) -> None:
    params = wp.Params(ws.request.path)
    try:
        await SCENARIOS[params.scenario](ws, params)
    except ConnectionClosed:
        pass


async def main() -> None:
    args = wp.server_arguments(__doc__.strip().splitlines()[0])
    max_queue = None if args.max_queue == "none" else int(args.max_queue)
    # Compression off and no keepalive pings, as wsbench's own servers; frames up to 64 MiB (echo's largest payload).
    async with serve(
        handler, args.host, args.port, compression=None, ping_interval=None, max_size=64 * 1024 * 1024,
        max_queue=max_queue, close_timeout=1, process_request=refuse, ssl=wp.tls_context(args),
    ) as server:
        wp.announce(args.host, server.sockets[0].getsockname()[1])
        stop = asyncio.get_running_loop().create_future()
        for signum in (signal.SIGTERM, signal.SIGINT):
            asyncio.get_running_loop().add_signal_handler(signum, lambda: stop.done() or stop.set_result(None))
        await stop


if __name__ == "__main__":
    asyncio.run(main())
