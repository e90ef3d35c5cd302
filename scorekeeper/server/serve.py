"""`python -m scorekeeper.server.serve`: the app under waitress, the server `make run` starts.

Why waitress: its channels read each request whole (headers and body) in one asynchronous loop, and only a complete
request reaches one of the worker threads. A phone on a bad Wi-Fi, or a stranger sending one header line every few
seconds, holds a socket, not a worker: gunicorn's sync workers, which `make run` used before, gave each slow client a
whole worker until its 30 s timeout, and two such clients took the app away from everyone (README, "Running it on a
server"). Figures: bench/slow_clients.py.

waitress alone still lets one client keep its 1,000 sockets: its `channel_timeout` counts only silence, so a header
line every 10 s holds a socket for ever. The two limits it lacks are added below the HTTP layer, through waitress's
public API only (its `sockets=` argument: the listening sockets are handed to it bound): `Listener` is a listening
socket whose accept() admits a client only under its cap (one more is answered 429 and closed before waitress sees
it), and each accepted `Connection` times the request it is reading from its first byte: once a request has been
arriving for SERVER_REQUEST_TIMEOUT seconds, however often bytes come, its next read is the end of the connection
(waitress reads a connection only while a request is incomplete, so a complete one waiting for a thread is never cut).
A client is an address (docs/operations.md, "One address or many"): an IPv4 address or an IPv6 address whole, each
held to SERVER_CONNECTIONS_PER_ADDRESS, and an IPv6 /64 (one LAN, or one attacker taking any address in it) to
SERVER_CONNECTIONS_PER_NETWORK, so the phones of a club's IPv6 Wi-Fi each have their own share.

A client the door's guard has found flooding the server (server/door_guard.py's `FLOODS`: its reads refused again and
again, faster than any phone asks) is not answered at once any more: its open connections end at their next read
(`Connection.recv`), and each new one is accepted and held, unanswered, for HOLD_SECONDS, then answered 429 and closed
(`Hold`). A held connection costs a file descriptor, not a turn of waitress's loop: the client's next request waits
for the hold, not for the server. Held connections count against the client's cap (one that gives up is let go at
once); a flooding client's connection over its cap is reset at once. A write is never held (issue 43: a hall's phones
behind one address share it with whoever floods from there, and a table is never refused its next hand): a kept
connection's write goes on, and a held connection whose request is a write is handed back to waitress at once.
"""

from __future__ import annotations

import argparse
import errno
import ipaddress
import logging
import os
import selectors
import socket
import struct
import threading
import time
from collections import Counter, deque
from typing import Any

import waitress
import waitress.server

from scorekeeper import create_app
from scorekeeper.server import workers as processes
from scorekeeper.server.door_guard import FLOODS, Floods
from scorekeeper.server.security import redact_handlers
from scorekeeper.storage import Unusable

# A request is at most 64 KiB (the app refuses more), a club's import at most 3 MiB (its file 2 MiB, sent back base64'd
# by its preview: IMPORT_MAX_BYTES); a body larger than this is not even read into memory or a file.
MAX_BODY = 3 * 1024 * 1024
SETTINGS: dict[str, Any] = {
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
HOLD_SECONDS = 5.0  # a flooding client's new connection waits this long for its 429
BACKLOG = 1024  # connections a listening socket holds unaccepted (waitress's `backlog`, its default)
WRITES = (b"POST ", b"PUT ", b"PATCH ", b"DELETE ")  # a request's first bytes when it is a write


def may_write(data: bytes) -> bool:
    """Whether a request that begins with `data` may be a write: its method, or as much of it as has come."""
    return bool(data) and any(method.startswith(data[: len(method)]) for method in WRITES)


# One line per record: time, level, logger, message; a request is `GET /path 200 3.1ms` (scorekeeper/server/logs.py).
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
log = logging.getLogger("scorekeeper.server.serve")


def worker_log_format(number: int) -> str:
    """LOG_FORMAT in a forked worker: its every line names it (`INFO [worker 2] scorekeeper.request: GET …`), since the
    workers share one stderr (one journal stream under systemd, which knows only the supervisor's pid)."""
    return LOG_FORMAT.replace("%(name)s", f"[worker {number}] %(name)s", 1)


def clients(address) -> tuple[str, ...]:
    """Whom a connection counts against: its address, and for IPv6 its /64 too (an IPv4-mapped address is IPv4)."""
    try:
        ip = ipaddress.ip_address(str(address).split("%")[0])
    except ValueError:
        return (str(address),)
    if ip.version == 6 and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    if ip.version == 6:
        return (str(ip), str(ipaddress.ip_network(f"{ip}/64", strict=False)))
    return (str(ip),)


class Limits:
    """What the server holds each client to: the seconds a request may take to arrive (None: no limit), the sockets
    one address may hold open and those one IPv6 /64 may (None: no cap; behind a proxy every connection is the
    proxy's)."""

    def __init__(
        self,
        request_timeout: float | None,
        per_address: int | None,
        per_network: int | None = None,
        floods: Floods | None = FLOODS,
    ):
        self.request_timeout = request_timeout
        self.per_address = per_address
        self.per_network = per_network
        self.floods = floods  # the door's: whose connections are held (None: nobody's)
        self.open: Counter[str] = Counter()
        self._lock = threading.Lock()  # sockets are accepted in the loop and closed there or in a worker thread
        self._warned = float("-inf")

    def admit(self, keys: tuple[str, ...]) -> bool:
        caps = (self.per_address, self.per_network)
        with self._lock:
            if any(cap is not None and self.open[key] >= cap for key, cap in zip(keys, caps, strict=False)):
                now = time.monotonic()
                if now - self._warned > 60:
                    self._warned = now
                    log.warning("a client has as many connections open as it may have; refusing more")
                return False
            self.open.update(keys)
            return True

    def leave(self, keys: tuple[str, ...]) -> None:
        with self._lock:
            self.open.subtract(keys)
            for key in keys:
                if self.open[key] <= 0:
                    del self.open[key]


class Connection(socket.socket):
    """An accepted socket that counts against its client until closed, and ends a request arriving for too long."""

    limits: Limits | processes.SharedLimits  # one process's, or every worker's
    keys: tuple[str, ...] = ()
    began: float | None = None  # time.monotonic() of the first byte of the request being read
    write = False  # whether that request is a write

    def recv(self, size, *flags):
        data = super().recv(size, *flags)  # read first: a socket closed with bytes unread resets the connection
        if data:
            now = time.monotonic()
            if self.began is None:
                self.began = now
                self.write = may_write(data)
            elif self.limits.request_timeout is not None and now - self.began > self.limits.request_timeout:
                return b""  # to waitress, the client closed: it closes the connection
            floods = self.limits.floods
            if not self.write and floods is not None and self.keys and floods.flooding(self.keys):
                return b""  # a flooding client's next read: to waitress, the client closed
        return data

    def send(self, data, *flags):
        self.began = None  # an answer: the request has arrived whole; the next one's clock starts at its first byte
        return super().send(data, *flags)

    def close(self):
        keys, self.keys = self.keys, ()
        if keys:
            self.limits.leave(keys)
        super().close()


class Listener(socket.socket):
    """A listening socket that hands waitress only the connections their client may still open; one over its cap is
    answered 429 and closed here, so waitress never holds it."""

    limits: Limits | processes.SharedLimits  # one process's, or every worker's
    returned: deque  # (socket, address, keys): held connections whose request is a write, for waitress (Hold)

    def accept(self):
        if self.returned:
            conn, addr, keys = self.returned.popleft()
            return self._connection(conn, keys), addr
        conn, addr = super().accept()
        keys = clients(addr[0]) if self.limits.per_address is not None or self.limits.per_network else ()
        floods = self.limits.floods
        flooding = bool(keys) and floods is not None and floods.flooding(keys)
        if keys and not self.limits.admit(keys):
            (_reset if flooding else _refuse)(conn)
            # to waitress, nothing was there to accept (as when another process took it): back to its loop
            raise BlockingIOError(errno.EAGAIN, "refused: over its client's cap")
        if flooding:
            HOLD.add(conn, keys, self.limits, self, addr)
            raise BlockingIOError(errno.EAGAIN, "held: its client floods the server")
        return self._connection(conn, keys), addr

    def _connection(self, conn: socket.socket, keys: tuple[str, ...]) -> Connection:
        connection = Connection(conn.family, conn.type, conn.proto, fileno=conn.detach())
        connection.limits, connection.keys = self.limits, keys
        return connection

    def give_back(self, conn: socket.socket, addr, keys: tuple[str, ...]) -> None:
        """A held connection whose request is a write, for waitress: its loop takes it at its next accept(), which a
        connection of our own to this listener brings at once (closed unsent: whoever accepts it sees it end)."""
        self.returned.append((conn, addr, keys))
        host, port = self.getsockname()[:2]
        host = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
        try:
            socket.create_connection((host, port), timeout=1).close()
        except OSError as exc:
            log.debug("waking the listener: %s", exc)


class _Held:
    __slots__ = ("until", "conn", "keys", "limits", "done", "listener", "addr", "read")

    def __init__(self, until: float, conn: socket.socket, keys: tuple[str, ...], limits, listener, addr):
        self.until, self.conn, self.keys, self.limits, self.done = until, conn, keys, limits, False
        self.listener, self.addr = listener, addr
        self.read = False  # its request is a read: what it sends is dropped


class Hold:
    """Connections of flooding clients, held for `seconds` and then refused (429 and closed) by a thread of their own,
    started when the first is held and ended when none is left (a worker forked later starts its own). A held
    connection whose request is a write is given back to its listener, unread, for waitress to answer (a table is
    never refused its next hand); what any other sends is read and dropped; one that gives up (closes) is let go at
    once, so that a client that will not wait cannot fill its cap with held connections and be refused at accept over
    and over."""

    def __init__(self, seconds: float = HOLD_SECONDS):
        self.seconds = seconds
        self.arriving: deque[_Held] = deque()  # held by accept, not yet watched by the thread
        self.held = 0
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None

    def add(self, conn: socket.socket, keys: tuple[str, ...], limits, listener=None, addr=None) -> None:
        conn.setblocking(False)
        with self.lock:
            self.arriving.append(_Held(time.monotonic() + self.seconds, conn, keys, limits, listener, addr))
            self.held += 1
            if self.thread is None:
                self.thread = threading.Thread(target=self._watch, name="scorekeeper-hold", daemon=True)
                self.thread.start()

    def __len__(self) -> int:
        return self.held

    def _watch(self) -> None:
        selector = selectors.DefaultSelector()
        order: deque[_Held] = deque()  # the held connections, the first to be let go first
        try:
            while True:
                with self.lock:
                    while self.arriving:
                        held = self.arriving.popleft()
                        order.append(held)
                        try:
                            selector.register(held.conn, selectors.EVENT_READ, held)
                        except (OSError, ValueError):  # already gone: let go of it at its turn
                            held.until = 0.0
                    if not order:
                        self.thread = None
                        return
                now = time.monotonic()
                while order and (order[0].done or order[0].until <= now):
                    held = order.popleft()
                    if not held.done:
                        self._end(selector, held, answer=True)
                for key, _events in selector.select(min(0.1, order[0].until - now) if order else 0):
                    held = key.data
                    try:
                        if not held.read and held.listener is not None:
                            first = held.conn.recv(len(WRITES[-1]), socket.MSG_PEEK)
                            if may_write(first):
                                self._give_back(selector, held)
                                continue
                            held.read = bool(first)
                        if held.conn.recv(65536):
                            continue  # its request, read and dropped: it is answered when the hold ends
                    except (BlockingIOError, InterruptedError):
                        continue
                    except OSError:
                        pass
                    self._end(selector, held, answer=False)  # it gave up: let go of it now
        except BaseException:
            log.exception("the held connections could not be watched; they are closed")
            with self.lock:
                order.extend(self.arriving)
                self.arriving.clear()
                self.thread = None
            for held in order:
                if not held.done:
                    self._end(selector, held, answer=False)
            raise
        finally:
            selector.close()

    def _give_back(self, selector, held: _Held) -> None:
        """Its request is a write: to waitress, still counted against its client (the Connection leaves it)."""
        held.done = True
        try:
            selector.unregister(held.conn)
        except (KeyError, ValueError, OSError):
            pass
        held.listener.give_back(held.conn, held.addr, held.keys)
        with self.lock:
            self.held -= 1

    def _end(self, selector, held: _Held, answer: bool) -> None:
        held.done = True
        try:
            selector.unregister(held.conn)
        except (KeyError, ValueError, OSError):
            pass
        if answer:
            _refuse(held.conn)
        else:
            held.conn.close()
        held.limits.leave(held.keys)
        with self.lock:
            self.held -= 1


HOLD = Hold()


def _reset(conn: socket.socket) -> None:
    """Close at once, unread and unanswered (a reset): a flooding client over its cap costs one accept, no more."""
    try:
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    conn.close()


def _refuse(conn: socket.socket) -> None:
    """429 and close, reading what the client sent first so that the close does not reset the answer away."""
    try:
        conn.setblocking(False)
        conn.send(REFUSED)
        conn.shutdown(socket.SHUT_WR)
        while conn.recv(65536):
            pass
    except OSError as exc:
        if exc.errno not in (errno.EAGAIN, errno.EWOULDBLOCK, errno.ECONNRESET, errno.EPIPE, errno.ENOTCONN):
            log.debug("refusing a connection: %s", exc)
    finally:
        conn.close()


def listeners(host: str, port: int, limits: Limits | processes.SharedLimits) -> list[Listener]:
    """One bound `Listener` for each address `host` resolves to (as waitress would bind them itself)."""
    found = []
    for family, kind, proto, _name, address in socket.getaddrinfo(
        host, port, socket.AF_UNSPEC, socket.SOCK_STREAM, 0, socket.AI_PASSIVE
    ):
        sock = Listener(family, kind, proto)
        sock.limits = limits
        sock.returned = deque()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(address)
        found.append(sock)
    return found


def own_ports_wanted(flag: bool | None, config) -> bool:
    """Whether each worker also listens on a port of its own: `--port-per-worker` / `--no-port-per-worker` when given,
    else SERVER_PORT_PER_WORKER."""
    return bool(config.get("SERVER_PORT_PER_WORKER")) if flag is None else flag


def own_ports(port: int, count: int, per_worker: bool) -> list[int | None]:
    """Each worker's own port, worker k (k = 1..count) at index k - 1: `port` + k with --port-per-worker, else None
    (the shared port only). One process (count 1) has port + 1. A port past 65535, or the shared port 0 (any free
    port: the workers' would be 1, 2, ...), is refused in words."""
    if not per_worker:
        return [None] * count
    if port <= 0 or port + count > 65535:
        raise SystemExit(
            f"scorekeeper: --port-per-worker needs ports {port + 1} to {port + count} after --port {port}: "
            "give a port between 1 and 65535 with room for one more per worker after it"
        )
    return [port + k for k in range(1, count + 1)]


def limits_of(config) -> Limits:
    """The limits from the app's configuration. Behind a reverse proxy (PROXY_FIX) every connection comes from the
    proxy, so there is no per-address cap here: the proxy's own (nginx's limit_conn) counts the clients."""
    behind = bool(config.get("PROXY_FIX"))
    return Limits(
        config.get("SERVER_REQUEST_TIMEOUT"),
        None if behind else config.get("SERVER_CONNECTIONS_PER_ADDRESS"),
        None if behind else config.get("SERVER_CONNECTIONS_PER_NETWORK"),
    )


def create_server(app, **settings):
    """waitress.create_server (its public API), not yet running: `serve_forever` runs it, a test runs it in a thread.
    waitress 3.0 closes a connection after each `304` (no Content-Length): a plain ETag client of /live reconnects
    after every one (issue 47, open); live.js asks with X-Live-Tag and gets an empty `200` that keeps it."""
    return waitress.server.create_server(app, **settings)


def serve_forever(app, **settings) -> None:
    """What waitress.serve does, with `create_server`'s server: say where it listens, then serve until stopped."""
    server = create_server(app, **settings)
    server.print_listen("Serving on http://{}:{}")
    server.run()


def serve(app, host: str = "0.0.0.0", port: int = 5000, own_port: int | None = None, **overrides) -> None:
    """The app served (`serve_forever`) on listening sockets that hold each client to `limits_of` its configuration:
    `port`'s, and `own_port`'s too when given (--port-per-worker in one process)."""
    limits = limits_of(app.config)
    sockets = listeners(host, port, limits) + (listeners(host, own_port, limits) if own_port is not None else [])
    if own_port is not None:
        log.info("one process (pid %d) serves port %d, and port %d", os.getpid(), own_port, port)
    serve_forever(app, sockets=sockets, **{**SETTINGS, **overrides})


def run(
    host: str = "0.0.0.0",
    port: int = 5000,
    threads: int = SETTINGS["threads"],
    workers: int | None = None,
    *,
    port_per_worker: bool | None = None,
) -> None:
    """Log to stderr (LOG_FORMAT; the app's own level is LOG_LEVEL), make the app and serve it until stopped, in
    `workers` processes (None: SERVER_WORKERS, whose 0 is one per core: server/workers.py), each accepting from
    `port`'s sockets and, with `port_per_worker` (None: SERVER_PORT_PER_WORKER), worker k from port + k's too, which
    no other worker accepts from: a proxy in front sends each table to one worker (deploy/nginx.conf's upstream lists
    one server a worker). Every socket is bound and listening before the fork and stays open in this process, so a
    worker started again has its port, and a connection to it meanwhile waits in the backlog. A damaged database
    stops the start with what to do (scorekeeper restore), not a traceback."""
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT)
    redact_handlers(logging.getLogger())
    try:
        app = create_app()  # the start's checks and the migrations, once, before any worker
    except Unusable as exc:
        raise SystemExit(f"scorekeeper: {exc}") from None
    settings = {"threads": threads, "connection_limit": app.config.get("SERVER_CONNECTION_LIMIT") or 1000}
    count = workers if workers is not None else app.config.get("SERVER_WORKERS") or 0
    count = count or processes.cores()
    per_worker = own_ports_wanted(port_per_worker, app.config)
    if count <= 1 or not hasattr(os, "fork"):
        serve(app, host=host, port=port, own_port=own_ports(port, 1, per_worker)[0], **settings)
        return
    ports = own_ports(port, count, per_worker)
    limits = processes.SharedLimits(limits_of(app.config), count)  # a client's caps, across the workers
    shared = listeners(host, port, limits)
    own = [listeners(host, each, limits) if each is not None else [] for each in ports]
    for sock in [*shared, *(sock for sockets in own for sock in sockets)]:
        sock.listen(BACKLOG)  # as each worker's waitress does again: a connection waits from now, not from its start
    del app  # each worker makes its own after the fork: no connection, thread or pool crosses it

    def work(row: int) -> None:
        limits.row = row
        for handler in logging.getLogger().handlers:
            handler.setFormatter(logging.Formatter(worker_log_format(row + 1)))
        for other, sockets in enumerate(own):
            if other != row:
                for sock in sockets:
                    sock.close()  # this process's copy only: the supervisor and that worker keep theirs
        if ports[row] is not None:
            log.info(
                "worker %d (pid %d) serves port %d, and port %d with the others", row + 1, os.getpid(), ports[row], port
            )
        serve_forever(create_app(), sockets=shared + own[row], **{**SETTINGS, **settings})

    processes.supervise(count, work, limits.clear)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m scorekeeper.server.serve", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every address)")
    parser.add_argument("--port", type=int, default=5000, help="port (default: 5000)")
    parser.add_argument("--threads", type=int, default=SETTINGS["threads"], help="worker threads (default: 8)")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: SERVER_WORKERS; 0: one a core)")
    parser.add_argument(
        "--port-per-worker",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="worker k also listens on port + k, which no other worker accepts from (default: SERVER_PORT_PER_WORKER)",
    )
    args = parser.parse_args(argv)
    run(args.host, args.port, args.threads, args.workers, port_per_worker=args.port_per_worker)


if __name__ == "__main__":
    main()
