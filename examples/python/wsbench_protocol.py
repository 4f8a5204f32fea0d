"""
What every reference server shares: the wire protocols' common parts
(docs/protocols/README.md), written once so each server file shows only its
stack's idiom.

- the clock: CLOCK_MONOTONIC in microseconds, the one wsbench reads too;
- the command line, TLS included (`--cert FILE --key FILE`: wss:// and https://);
- the cell's parameters, from the connection URL's query string;
- the optional stats route's body (GET /wsbench/stats?scenario=NAME);
- the fanout price tick and the firehose order-book feed, byte for byte the
  ones wsbench's own servers send (same seeded generator);
- the ticker-orders, fanout and slow-consumer streams (TickerStream,
  FanoutStream, SlowConsumerStream): each server passes only its own way of
  sending one message to many connections (and, for slow-consumer, of reading
  how many bytes it holds for one).
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import math
import os
import ssl
import time
from collections import defaultdict
from datetime import datetime, timedelta, timezone
from urllib.parse import parse_qs, urlsplit

STATS_PATH = "/wsbench/stats"


def now_us() -> float:
    """CLOCK_MONOTONIC in microseconds: comparable with wsbench's clients on this host."""
    return time.monotonic_ns() / 1000


def compact(value) -> str:
    """JSON without spaces, as JavaScript's JSON.stringify writes it."""
    return json.dumps(value, separators=(",", ":"))


class Params:
    """The cell's parameters from a URL such as /?scenario=fanout&interval=100&duration=10000."""

    def __init__(self, path_and_query: str):
        parts = urlsplit(path_and_query)
        self.path = parts.path
        self.values = {key: values[-1] for key, values in parse_qs(parts.query).items()}

    @property
    def scenario(self) -> str:
        return self.values.get("scenario") or self.path.strip("/") or "echo"

    def text(self, name: str, default: str) -> str:
        return self.values.get(name, default)

    def number(self, name: str, default: float) -> float:
        return float(self.values.get(name, default))

    def integer(self, name: str, default: int) -> int:
        return int(float(self.values.get(name, default)))


# Counters per scenario, totals since the server started (never reset: wsbench subtracts).
STATS: dict[str, defaultdict[str, float]] = defaultdict(lambda: defaultdict(float))


def count(scenario: str, counter: str, amount: float = 1) -> None:
    STATS[scenario][counter] += amount


def stats_body(scenario: str) -> str:
    return compact({"counters": dict(STATS[scenario])})


def server_arguments(description: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--port", type=int, default=8765, help="port to listen on (0: any free port, printed)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument(
        "--max-queue",
        default="16",
        help="websockets only: high-water mark of each connection's receive queue in frames, or 'none' (seed 004)",
    )
    parser.add_argument(
        "--nodelay",
        action="store_true",
        help="tornado only: set TCP_NODELAY on WebSocket connections (Tornado leaves Nagle's algorithm on by default)",
    )
    parser.add_argument("--cert", help="PEM certificate: serve TLS (wss://, https://); needs --key")
    parser.add_argument("--key", help="PEM private key of --cert")
    args = parser.parse_args()
    if (args.cert is None) != (args.key is None):
        parser.error("--cert and --key go together")
    return args


def tls_context(args: argparse.Namespace) -> ssl.SSLContext | None:
    """The server's TLS context when --cert and --key were given (Python's defaults: TLS 1.2 and 1.3), else None."""
    if args.cert is None:
        return None
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(args.cert, args.key)
    return context


def announce(host: str, port: int) -> None:
    """The line wsbench reads the port from when the command says --port 0."""
    print(f"listening on {host}:{port}", flush=True)


# ------------------------------------------------------------------ fanout

FANOUT_MESSAGE_BYTES = 97


def mulberry32(seed: int):
    """The tiny seeded generator wsbench's scenarios use (seededRandom in wsbench/scenario: src/shared/scenario-kit/seeded-random.ts), bit for bit."""
    mask = 0xFFFFFFFF
    state = seed & mask

    def random() -> float:
        nonlocal state
        state = (state + 0x6D2B79F5) & mask
        t = state
        t = ((t ^ (t >> 15)) * (t | 1)) & mask
        t = (t ^ ((t + (((t ^ (t >> 7)) * (t | 61)) & mask)) & mask)) & mask
        return ((t ^ (t >> 14)) & mask) / 4294967296

    return random


def price_walk(seed: int = 0x5EED):
    random = mulberry32(seed)
    cents = 4_312_753

    def next_price() -> float:
        nonlocal cents
        cents = max(100, cents + round_half_up((random() - 0.5) * 200))
        return cents / 100

    return next_price


def round_half_up(value: float) -> int:
    """JavaScript's Math.round."""
    return math.floor(value + 0.5)


def price_tick(seq: int, price: float, timestamp_us: float) -> str:
    """The 97-byte fanout tick: Python's json.dumps spacing, padded with spaces before the closing brace."""
    body = f'{{"symbol": "BTC/USDT", "seq": {seq}, "price": {price:.2f}, "timestamp": {timestamp_us:.1f}'
    return body.ljust(FANOUT_MESSAGE_BYTES - 1) + "}"


async def fanout_ticks(params: "Params"):
    """The fanout stream's schedule: floor(duration / interval) price ticks, each yielded
    at its intended time and stamped with it (a late wake-up still owes every tick).
    Each server only sends them, its own idiomatic way."""
    interval = params.number("interval", 100)
    ticks = int(params.number("duration", 10_000) // interval)
    next_price = price_walk()
    async for seq, due in schedule(ticks, interval):
        yield price_tick(seq, next_price(), due)


async def schedule(ticks: int, interval_ms: float):
    """Yields (seq, due) for each of `ticks` messages at its intended time (CLOCK_MONOTONIC
    µs) from now; a late wake-up still owes every message that fell due, each with its own time."""
    start = now_us()
    for seq in range(ticks):
        due = start + seq * interval_ms * 1000
        delay = due - now_us()
        if delay > 0:
            await asyncio.sleep(delay / 1e6)
        yield seq, due


class TickerStream:
    """ticker-orders' price ticks on a schedule to every subscribed connection, from the
    first subscription until none is left; a late wake-up sends every tick that fell due,
    each stamped with its own intended time. `send_all(connections, tick)` is the
    server's own way of sending one tick to all of them."""

    def __init__(self, send_all) -> None:
        self.subscribers: set = set()
        self.prices: list[float] = []
        self.task: asyncio.Future | None = None
        self.send_all = send_all

    def subscribe(self, connection, params: "Params") -> None:
        self.subscribers.add(connection)
        if self.task is None or self.task.done():
            self.prices = [100.0] * params.integer("symbols", 1)
            self.task = asyncio.ensure_future(self.run(params.number("tickInterval", 10) * 1000))

    def price_of(self, symbol) -> float:
        """The current price of an order's symbol (0 for one out of range)."""
        return self.prices[symbol] if isinstance(symbol, int) and 0 <= symbol < len(self.prices) else 0

    async def run(self, interval_us: float) -> None:
        start = now_us()
        k = 0
        rng = mulberry32(0x71C)
        while self.subscribers:
            while start + k * interval_us <= now_us() and self.subscribers:
                self.prices = [max(1.0, p * (1 + (rng() - 0.5) / 500)) for p in self.prices]
                tick = compact({"k": k, "t": start + k * interval_us, "p": [round(p, 2) for p in self.prices]})
                self.send_all(list(self.subscribers), tick)
                count("ticker-orders", "ticksBroadcast")
                k += 1
            await asyncio.sleep(max(0.0, (start + k * interval_us - now_us()) / 1e6))


class FanoutStream:
    """floor(duration / interval) price ticks to every fanout connection, started by
    {"start":true} on any of them. `send_all(connections, message)` is the server's own
    way of sending one tick to all of them; it may return an awaitable."""

    def __init__(self, send_all) -> None:
        self.connections: set = set()
        self.task: asyncio.Future | None = None
        self.send_all = send_all

    def on_text(self, text: str | bytes, params: "Params") -> None:
        """A fanout client's message: {"start":true} starts the stream once; anything else is ignored."""
        try:
            started = json.loads(text).get("start") is True
        except (ValueError, AttributeError):
            return
        if started and (self.task is None or self.task.done()):
            self.task = asyncio.ensure_future(self.run(params))

    async def run(self, params: "Params") -> None:
        async for message in fanout_ticks(params):
            targets = list(self.connections)
            count("fanout", "messagesSent", len(targets))
            sent = self.send_all(targets, message)
            if inspect.isawaitable(sent):
                await sent
            count("fanout", "ticksSent")


# ------------------------------------------------------------------ slow-consumer

QUEUE_SAMPLE_SECONDS = 0.1


def resident_bytes() -> int:
    """This process's RSS, as /proc says it (the second field of statm, in pages)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def stream_message(seq: int, due_us: float, queued_bytes: int, size: int) -> str:
    """slow-consumer's message: a JSON header, then spaces up to `size` bytes."""
    header = compact({"seq": seq, "t": round(due_us, 1), "q": queued_bytes})
    return header.ljust(size)


class SlowConsumerStream:
    """slow-consumer's stream (docs/protocols/slow-consumer.md): floor(duration / interval)
    messages to every connection, started by {"start":true}; each connection says
    {"hello":"slow"} or {"hello":"healthy"} first. `send_all(connections, message)` is the
    server's own way of sending one message to many without waiting for any of them;
    `queued(connection)` the bytes it holds for one. Peaks and the RSS at the stream's start
    are counters that only grow (each stream adds its own), so wsbench's before/after
    difference is the cell's."""

    def __init__(self, send_all, queued) -> None:
        self.groups: dict = {}
        self.task: asyncio.Future | None = None
        self.streaming = False
        self.send_all = send_all
        self.queued = queued

    def join(self, connection) -> None:
        self.groups[connection] = "healthy"

    def leave(self, connection) -> None:
        group = self.groups.pop(connection, None)
        if self.streaming and group is not None:
            count("slow-consumer", "closedSlow" if group == "slow" else "closedHealthy")

    def on_text(self, connection, text, params: "Params") -> None:
        try:
            message = json.loads(text)
        except ValueError:
            return
        if not isinstance(message, dict):
            return
        if message.get("hello") in ("slow", "healthy"):
            self.groups[connection] = message["hello"]
        elif message.get("start") is True and (self.task is None or self.task.done()):
            self.task = asyncio.ensure_future(self.run(params))

    def members(self, group: str) -> list:
        return [connection for connection, g in self.groups.items() if g == group]

    async def run(self, params: "Params") -> None:
        interval = params.number("interval", 10)
        ticks = int(params.number("duration", 10_000) // interval)
        size = params.integer("messageSize", 1024)
        count("slow-consumer", "rssAtStartBytes", resident_bytes())
        # Listed from the start, zero until something happens: this server never drops a message.
        for name in ("slowQueuedPeakBytes", "healthyQueuedPeakBytes", "droppedSlow", "droppedHealthy", "closedSlow", "closedHealthy"):
            count("slow-consumer", name, 0)
        peaks = {"slow": 0, "healthy": 0}
        latest = [0]
        self.streaming = True

        async def sample() -> None:
            while True:
                for group, name in (("slow", "slowQueuedPeakBytes"), ("healthy", "healthyQueuedPeakBytes")):
                    queued = sum(self.queued(connection) for connection in self.members(group))
                    if group == "slow":
                        latest[0] = queued
                    if queued > peaks[group]:
                        count("slow-consumer", name, queued - peaks[group])
                        peaks[group] = queued
                await asyncio.sleep(QUEUE_SAMPLE_SECONDS)

        sampler = asyncio.ensure_future(sample())
        try:
            async for seq, due in schedule(ticks, interval):
                message = stream_message(seq, due, latest[0], size)
                for group, name in (("slow", "sentSlow"), ("healthy", "sentHealthy")):
                    targets = self.members(group)
                    self.send_all(targets, message)
                    count("slow-consumer", name, len(targets))
                count("slow-consumer", "ticksSent")
        finally:
            sampler.cancel()
            self.streaming = False


# ------------------------------------------------------------------ firehose feed

INSTRUMENTS = [
    ("BTC/USD", 43127.5), ("BTC/EUR", 39511.2), ("ETH/USD", 2301.55), ("ETH/EUR", 2108.4),
    ("SOL/USD", 98.231), ("XRP/USD", 0.61234), ("ADA/USD", 0.52311), ("DOGE/USD", 0.083412),
    ("AVAX/USD", 35.412), ("LINK/USD", 14.8821), ("DOT/USD", 7.2134), ("MATIC/USD", 0.8123),
    ("LTC/USD", 71.23),
]
SNAPSHOT_DEPTH = 1000
UPDATE_POOL = 16_384
BATCH_EVERY = 244
BATCH_MIN_BYTES = 8_300
BATCH_MAX_BYTES = 10_000
BASE_TIME = datetime(2024, 1, 15, 12, 0, 0, tzinfo=timezone.utc)


def js_number(value: float) -> str:
    """A number as JavaScript prints it (String(x)): shortest digits, exponent only below 1e-6."""
    if value == 0:
        return "0"
    if value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    text = repr(value)
    if "e" not in text:
        return text
    mantissa, exponent = text.split("e")
    power = int(exponent)
    if abs(value) < 1e-6 or abs(value) >= 1e21:
        return f"{mantissa}e{'+' if power > 0 else '-'}{abs(power)}"
    sign = "-" if mantissa.startswith("-") else ""
    digits = mantissa.lstrip("-").replace(".", "")
    return f"{sign}0.{'0' * (-power - 1)}{digits}"


def js_fixed(value: float, decimals: int) -> str:
    """Number(x.toFixed(d)) printed the JavaScript way."""
    return js_number(float(f"{value:.{decimals}f}"))


def build_order_book_feed(seed: int = 0x0B00C) -> tuple[list[str], list[str]]:
    """Snapshots (one per instrument) and the update loop, identical to scenarios/firehose/order-book-feed.ts."""
    random = mulberry32(seed)

    def decimals_of(mid: float) -> int:
        return max(1, 5 - math.floor(math.log10(mid)))

    def level(mid: float, side: int, rank: int) -> str:
        price = mid * (1 + side * (rank + random()) * 0.00005)
        qty = 0.0 if random() < 0.1 else random() * 10 ** (1 + math.floor(random() * 3))
        return f'{{"price":{js_fixed(price, decimals_of(mid))},"qty":{js_fixed(qty, 8)}}}'

    def levels(mid: float, side: int, n: int) -> str:
        return ",".join(level(mid, side, rank) for rank in range(n))

    def checksum() -> int:
        return math.floor(random() * 4_294_967_296)

    def iso_micros(clock_ms: float) -> str:
        whole = math.floor(clock_ms)
        micros = math.floor((clock_ms - whole) * 1000)
        moment = BASE_TIME + timedelta(milliseconds=whole - BASE_MS)
        return moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{moment.microsecond // 1000:03d}{micros:03d}Z"

    snapshots = []
    for symbol, mid in INSTRUMENTS:
        bids = levels(mid, -1, SNAPSHOT_DEPTH)
        asks = levels(mid, 1, SNAPSHOT_DEPTH)
        snapshots.append(
            f'{{"channel":"book","type":"snapshot","data":[{{"symbol":"{symbol}","bids":[{bids}],"asks":[{asks}],"checksum":{checksum()}}}]}}'
        )
    updates = []
    clock_ms = float(BASE_MS)
    for i in range(UPDATE_POOL):
        symbol, mid = INSTRUMENTS[math.floor(random() * len(INSTRUMENTS))]
        clock_ms += random() * 4
        if i % BATCH_EVERY == BATCH_EVERY - 1:
            target = BATCH_MIN_BYTES + random() * (BATCH_MAX_BYTES - BATCH_MIN_BYTES)
            per_side = math.ceil(target / 2 / len(level(mid, 1, 0)))
            bids = levels(mid, -1, per_side)
            asks = levels(mid, 1, per_side)
        else:
            both = random() < 0.05
            bid_side = random() < 0.5
            bids = levels(mid, -1, 1) if both or bid_side else ""
            asks = levels(mid, 1, 1) if both or not bid_side else ""
        updates.append(
            f'{{"channel":"book","type":"update","data":[{{"symbol":"{symbol}","bids":[{bids}],"asks":[{asks}],'
            f'"checksum":{checksum()},"timestamp":"{iso_micros(clock_ms)}"}}]}}'
        )
    return snapshots, updates


BASE_MS = int(BASE_TIME.timestamp() * 1000)


def fragments(text: str, fragment_bytes: int) -> list[str]:
    """One message cut into frames of at most fragment_bytes (the feed is ASCII: one byte a character)."""
    return [text[i : i + fragment_bytes] for i in range(0, len(text), fragment_bytes)]


if __name__ == "__main__":
    # `python wsbench_protocol.py feed`: print the feed's SHA-256, to check it against wsbench's.
    import hashlib
    import sys

    if sys.argv[1:] == ["feed"]:
        snapshots, updates = build_order_book_feed()
        print(hashlib.sha256("\n".join(snapshots + updates).encode()).hexdigest())
