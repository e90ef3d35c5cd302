"""`scorekeeper serve` on every core: several waitress processes accepting from the same listening sockets (issue 37).

One Python process serves with one core at a time, however many threads it has. So the server binds its listening
sockets once, then forks WORKERS processes that each make the app and serve it with waitress on those sockets
(waitress's public `sockets=`): the kernel hands each new connection to one of them (one that finds another took it
sees nothing to accept and goes back to its loop). The first process stays to watch them: a worker that dies is
started again, and SIGTERM or SIGINT (Ctrl-C) stops them all, each finishing the requests it is serving. What every
worker shares goes through the SQLite file (the writers' lock file, the versions the kept sheets and the live door are
checked against), as it did under gunicorn's workers, and the rate limits' counts through a file of their own
(limits_file.py); what each keeps in memory (kept sheets, the live door's answers, a client's open connections) is its
own. With --port-per-worker (serve.py) each worker also accepts from sockets of its own, port + its number, which the
first process binds before the fork as well and keeps open, so a worker started again has its port back: a proxy that
sends each table to one port has each table's requests served by one worker, which then keeps that table's game.
"""

from __future__ import annotations

import hashlib
import logging
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable

log = logging.getLogger("scorekeeper.server.workers")
STOP_SECONDS = 10  # a worker still serving after SIGTERM for this long is killed
RESTART_SECONDS = 1  # the pause before a worker that died is started again


SLOTS = 1 << 16  # shared counters of open connections per worker; an address is counted in one (by its digest)


class SharedLimits:
    """A client's caps held across every worker (what serve.Limits holds in one process, read the same way by its
    sockets): each worker counts its open connections in memory all of them read (made before the fork; a row per
    worker, cleared when a worker that died is started again), so a second worker gives a client no second share. An
    address is counted in one of SLOTS counters by its digest: two clients in one counter share their cap (a phone
    shares a flooder's one time in 65,536 per flooding address)."""

    def __init__(self, limits, workers: int):
        self.request_timeout = limits.request_timeout
        self.per_address = limits.per_address
        self.per_network = limits.per_network
        self.floods = limits.floods  # this process's (each worker's door tells its own copy)
        self._warned = float("-inf")
        self.workers = workers
        self.counts = multiprocessing.RawArray("i", workers * SLOTS)
        self.shared_lock = multiprocessing.Lock()
        self.row = 0  # this worker's, set after the fork

    @staticmethod
    def slot(key: str) -> int:
        return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=4).digest(), "big") % SLOTS

    def open_at(self, slot: int) -> int:
        return sum(self.counts[row * SLOTS + slot] for row in range(self.workers))

    def admit(self, keys: tuple[str, ...]) -> bool:
        caps = (self.per_address, self.per_network)
        slots = [(self.slot(key), cap) for key, cap in zip(keys, caps, strict=False)]
        with self.shared_lock:
            if any(cap is not None and self.open_at(slot) >= cap for slot, cap in slots):
                now = time.monotonic()
                if now - self._warned > 60:
                    self._warned = now
                    log.warning("a client has as many connections open as it may have; refusing more")
                return False
            for slot, _cap in slots:
                self.counts[self.row * SLOTS + slot] += 1
        return True

    def leave(self, keys: tuple[str, ...]) -> None:
        with self.shared_lock:
            for key in keys:
                at = self.row * SLOTS + self.slot(key)
                self.counts[at] = max(0, self.counts[at] - 1)

    def clear(self, row: int) -> None:
        """A worker's row, once it is gone: its connections went with it."""
        with self.shared_lock:
            self.counts[row * SLOTS : (row + 1) * SLOTS] = [0] * SLOTS


def cores() -> int:
    """The cores this process may run on (its CPU affinity, where the system says it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


class _Stop(Exception):
    """Raised in the supervisor by SIGTERM or SIGINT, out of its wait for a worker."""


def _stop(signum, frame):
    raise _Stop(signum)


def _leave(signum, frame):
    """A worker's first SIGTERM or SIGINT (Ctrl-C reaches every process of the terminal's group, and the supervisor
    sends SIGTERM after it) ends waitress's loop, which closes its sockets and lets its threads finish; the next is
    not heard (a handler that does nothing: one already on its way when SIG_IGN came would raise), so that finishing
    is not cut short."""
    signal.signal(signal.SIGTERM, _heard)
    signal.signal(signal.SIGINT, _heard)
    sys.exit(0)


def _heard(signum, frame):
    """A worker's second stop signal: it is stopping already."""


def _worker(work: Callable[[], None]) -> None:
    """In a forked worker: serve until a signal says stop, then leave without running the supervisor's code after
    the fork."""
    signal.signal(signal.SIGTERM, _leave)
    signal.signal(signal.SIGINT, _leave)
    code = 0
    try:
        work()
    except (SystemExit, KeyboardInterrupt):
        pass
    except BaseException:  # whatever ends a worker, it must not return into the supervisor's code
        log.exception("a worker stopped")
        code = 1
    finally:
        logging.shutdown()
        os._exit(code)


def supervise(count: int, work: Callable[[int], None], gone: Callable[[int], None] = lambda row: None) -> None:
    """Run `work(row)` (which serves until stopped) in `count` forked workers, row 0 to count - 1, until SIGTERM or
    SIGINT; a worker that dies is started again in its row (after `gone(row)`); then stop them all and wait."""
    running: dict[int, int] = {}  # pid: row

    def start(row: int) -> None:
        pid = os.fork()
        if pid == 0:
            _worker(lambda: work(row))
        running[pid] = row

    previous = {sig: signal.signal(sig, _stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        for row in range(count):
            start(row)
        log.info("serving with %d worker processes (%s)", count, " ".join(map(str, running)))
        while True:
            pid, status = os.wait()
            ended = running.pop(pid, None)
            if ended is None:
                continue
            log.warning("worker %d ended (%s); starting another", pid, _how(status))
            time.sleep(RESTART_SECONDS)
            gone(ended)
            start(ended)
    except _Stop:
        pass
    finally:
        for sig in previous:
            signal.signal(sig, _heard)  # stopping already: a second Ctrl-C does not cut the workers' finishing short
        _stop_all(running)
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _stop_all(running: dict[int, int]) -> None:
    """SIGTERM to every worker, then wait for each (SIGKILL to one still there after STOP_SECONDS)."""
    for pid in running:
        _signal(pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_SECONDS
    while running:
        for pid in list(running):
            try:
                done, _status = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done = pid
            if done:
                del running[pid]
            elif time.monotonic() > deadline:
                _signal(pid, signal.SIGKILL)
        time.sleep(0.05)


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def _how(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"signal {os.WTERMSIG(status)}"
    return f"exit {os.waitstatus_to_exitcode(status)}"
