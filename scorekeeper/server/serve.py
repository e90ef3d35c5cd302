"""`python -m scorekeeper.server.serve`: the app under waitress, the server `make run` starts.

Why waitress: its channels read each request whole (headers and body) in one asynchronous loop, and only a complete
request reaches one of the worker threads. A phone on a bad Wi-Fi, or a stranger sending one header line every few
seconds, holds a socket, not a worker: gunicorn's sync workers, which `make run` used before, gave each slow client a
whole worker until its 30 s timeout, and two such clients took the app away from everyone (README, "Running it on a
server"). Figures: bench/slow_clients.py.

waitress alone still lets one client keep its 1,000 sockets: its `channel_timeout` counts only silence, so a header
line every 10 s holds a socket for ever. `Server` and `Channel` below add the two limits it lacks: a request's headers
and body must arrive within SERVER_REQUEST_TIMEOUT seconds of its first byte however often bytes come, and one client
(an address, an IPv6 /64) holds at most SERVER_CONNECTIONS_PER_ADDRESS sockets; one more is answered 429 and closed.
"""

from __future__ import annotations

import argparse
import logging
import threading
import time
from collections import Counter

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

from scorekeeper import create_app
from scorekeeper.clubs.service import client_key
from scorekeeper.server.security import redact_handlers
from scorekeeper.storage import Damaged

# A request is at most 64 KiB (the app refuses more); a body larger than this is not even read into memory or a file.
MAX_BODY = 1024 * 1024
SETTINGS = {
    "threads": 8,  # requests served at once; a hand entry takes a few ms, a kept PDF a file read
    "connection_limit": 1000,  # open sockets (slow clients included) before new ones wait in the backlog
    "asyncore_use_poll": True,  # select() cannot watch more than 1,024 sockets
    "channel_timeout": 30,  # a connection that sends nothing for this long is closed
    "cleanup_interval": 2,  # how often the silent and the too slow connections are looked for (seconds)
    "max_request_body_size": MAX_BODY,
    "max_request_header_size": 64 * 1024,
    "ident": "scorekeeper",
    # X-Forwarded-* reach the app, which believes them only from the PROXY_FIX proxies in front (proxy.py).
    "clear_untrusted_proxy_headers": False,
}
# The answer to a client over its connection cap, before it has sent anything: no body, so a browser shows its own
# page for 429 in its own language.
REFUSED = b"HTTP/1.1 429 Too Many Requests\r\nRetry-After: 10\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"

# One line per record: time, level, logger, message; a request is `GET /path 200 3.1ms` (scorekeeper/server/logs.py).
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
log = logging.getLogger("scorekeeper.server.serve")


class Limits:
    """What the server holds each client to: the seconds a request may take to arrive (None: no limit) and the
    sockets one client may hold open (None: no cap; behind a proxy every connection is the proxy's)."""

    def __init__(self, request_timeout: float | None, per_address: int | None):
        self.request_timeout = request_timeout
        self.per_address = per_address
        self.open: Counter[str] = Counter()
        self._lock = threading.Lock()  # channels close in the loop and, on a write error, in a worker thread
        self._warned = float("-inf")

    def admit(self, client: str | None) -> bool:
        if self.per_address is None or client is None:
            return True
        with self._lock:
            if self.open[client] >= self.per_address:
                now = time.monotonic()
                if now - self._warned > 60:
                    self._warned = now
                    log.warning(
                        "a client has %d connections open, the most one may have; refusing more", self.per_address
                    )
                return False
            self.open[client] += 1
            return True

    def leave(self, client: str) -> None:
        with self._lock:
            self.open[client] -= 1
            if self.open[client] <= 0:
                del self.open[client]


class Channel(HTTPChannel):
    """waitress's channel, counted against its client's cap and timed from the first byte of each request."""

    client: str | None = None  # whom the cap counts this channel for (None: not counted)
    request_began = 0.0  # time.time() of the first byte of the request being read

    def __init__(self, server, sock, addr, adj, map=None):
        super().__init__(server, sock, addr, adj, map)
        client = client_key(addr[0]) if isinstance(addr, tuple) and addr else None
        if server.limits.admit(client):
            self.client = client
        else:
            self._refuse()

    def _refuse(self) -> None:
        """Answer 429 and close once it is sent; nothing the client sends is read."""
        with self.outbuf_lock:
            self.outbufs[-1].append(REFUSED)
            self.current_outbuf_count += len(REFUSED)
            self.total_outbufs_len += len(REFUSED)
        self.close_when_flushed = True

    def received(self, data):
        if self.request is None and data:  # the first bytes of a new request (headers, then maybe its body)
            self.request_began = time.time()
        return super().received(data)

    def del_channel(self, map=None):
        super().del_channel(map)
        if self.client is not None:
            self.server.limits.leave(self.client)
            self.client = None


class Server(TcpWSGIServer):
    """waitress's TCP server with `Channel` and one more task for its maintenance: close a request still arriving
    SERVER_REQUEST_TIMEOUT seconds after its first byte (waitress itself closes a connection silent for
    channel_timeout)."""

    channel_class = Channel

    def __init__(self, *args, limits: Limits, **kwargs):
        self.limits = limits
        super().__init__(*args, **kwargs)

    def maintenance(self, now):
        super().maintenance(now)
        timeout = self.limits.request_timeout
        if timeout is None:
            return
        cutoff = now - timeout
        for channel in self.active_channels.values():
            if channel.request is not None and not channel.requests and channel.request_began < cutoff:
                channel.will_close = True


def create_server(app, limits: Limits, **settings):
    """As waitress.create_server for TCP addresses, with `Server` on each address the host resolves to."""
    adj = Adjustments(**settings)
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    sockets: dict = {}
    servers = [
        Server(app, sockets, dispatcher=dispatcher, adj=adj, sockinfo=info, limits=limits) for info in adj.listen
    ]
    if len(servers) == 1:
        return servers[0]
    listening = [(s.effective_host, s.effective_port) for s in servers]
    return MultiSocketServer(sockets, adj, listening, dispatcher, servers[0].log_info)


def limits_of(config) -> Limits:
    """The limits from the app's configuration. Behind a reverse proxy (PROXY_FIX) every connection comes from the
    proxy, so there is no per-address cap here: the proxy's own (nginx's limit_conn) counts the clients."""
    per_address = None if config.get("PROXY_FIX") else config.get("SERVER_CONNECTIONS_PER_ADDRESS")
    return Limits(config.get("SERVER_REQUEST_TIMEOUT"), per_address)


def serve(app, host: str = "0.0.0.0", port: int = 5000, **overrides) -> None:
    settings = {**SETTINGS, **overrides}
    server = create_server(app, limits_of(app.config), host=host, port=port, **settings)
    server.print_listen("Serving on http://{}:{}")
    server.run()


def run(host: str = "0.0.0.0", port: int = 5000, threads: int = SETTINGS["threads"]) -> None:
    """Log to stderr (LOG_FORMAT; the app's own level is LOG_LEVEL), make the app and serve it until stopped. A
    damaged database stops the start with what to do (scorekeeper restore), not a traceback."""
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT)
    redact_handlers(logging.getLogger())
    try:
        app = create_app()
    except Damaged as exc:
        raise SystemExit(f"scorekeeper: {exc}") from None
    serve(app, host=host, port=port, threads=threads)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m scorekeeper.server.serve", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every address)")
    parser.add_argument("--port", type=int, default=5000, help="port (default: 5000)")
    parser.add_argument("--threads", type=int, default=SETTINGS["threads"], help="worker threads (default: 8)")
    args = parser.parse_args(argv)
    run(args.host, args.port, args.threads)


if __name__ == "__main__":
    main()
