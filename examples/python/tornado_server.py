"""
wsbench reference server on Tornado: echo, ticker-orders and fanout, as their
pages in docs/protocols/ describe. wsbench picks the scenario with
`?scenario=NAME` on every connection (the path works too: ws://host:port/fanout).

    python examples/python/tornado_server.py --port 8765
    wsbench run ticker-orders --server-cmd 'tornado=.venv/bin/python examples/python/tornado_server.py --port {port}'

`--cert FILE --key FILE` serves wss:// (and the stats route over https://).

Counters for wsbench's server-side metrics: GET /wsbench/stats.

Like the seed's server, it leaves Tornado's default of Nagle's algorithm on:
small messages may wait for the peer's delayed ACK (tens of ms). `--nodelay`
calls set_nodelay(True) on every connection, as Tornado's docs suggest.
"""

from __future__ import annotations

import asyncio
import json
import signal

import tornado.web
import tornado.websocket

import wsbench_protocol as wp

SCENARIOS = ("echo", "ticker-orders", "fanout")


def send_all(handlers: list[tornado.websocket.WebSocketHandler], message: str) -> None:
    # Tornado has no broadcast: a loop over the connections is its idiom.
    for handler in handlers:
        send(handler, message)


TICKER = wp.TickerStream(send_all)
STREAM = wp.FanoutStream(send_all)
NODELAY = False


def send(handler: tornado.websocket.WebSocketHandler, message: str | bytes, binary: bool = False) -> None:
    """write_message without waiting for the buffer to drain; a connection closing meanwhile is skipped."""
    try:
        handler.write_message(message, binary=binary)
    except tornado.websocket.WebSocketClosedError:
        pass


class BenchSocket(tornado.websocket.WebSocketHandler):
    def check_origin(self, origin: str) -> bool:
        return True

    def open(self) -> None:
        if NODELAY:
            self.set_nodelay(True)
        self.params = wp.Params(self.request.uri)
        self.scenario = self.params.scenario
        if self.scenario not in SCENARIOS:
            self.close(1008, f"no scenario {self.scenario} here")
        elif self.scenario == "fanout":
            STREAM.connections.add(self)

    def on_message(self, message: str | bytes) -> None:
        if self.scenario == "echo":
            send(self, message, binary=isinstance(message, bytes))
            return
        if self.scenario == "fanout":
            STREAM.on_text(message, self.params)
            return
        try:
            data = json.loads(message)
        except ValueError:
            wp.count(self.scenario, "ordersMalformed")
            return
        if "sub" in data:
            TICKER.subscribe(self, self.params)
        else:
            wp.count("ticker-orders", "ordersReceived")
            symbol = data.get("y", 0)
            price = TICKER.price_of(symbol)
            send(self, wp.compact({"a": data["o"], "t": data["t"], "i": data["i"], "px": round(price, 2)}))

    def on_close(self) -> None:
        TICKER.subscribers.discard(self)
        STREAM.connections.discard(self)


class Stats(tornado.web.RequestHandler):
    def get(self) -> None:
        self.set_header("Content-Type", "application/json")
        self.write(wp.stats_body(self.get_argument("scenario", "echo")))


async def main() -> None:
    global NODELAY
    args = wp.server_arguments(__doc__.strip().splitlines()[0])
    NODELAY = args.nodelay
    app = tornado.web.Application(
        [(wp.STATS_PATH, Stats), (r"/.*", BenchSocket)],
        websocket_max_message_size=64 * 1024 * 1024,
    )
    server = app.listen(args.port, args.host, ssl_options=wp.tls_context(args))
    port = next(iter(server._sockets.values())).getsockname()[1]
    wp.announce(args.host, port)
    stop = asyncio.get_running_loop().create_future()
    for signum in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(signum, lambda: stop.done() or stop.set_result(None))
    await stop
    server.stop()


if __name__ == "__main__":
    asyncio.run(main())
