"""Reads that cost more than a few milliseconds — a big game's protokoll, its print page and spreadsheet, a season's
ledger — kept per version and drawn a bounded number at a time, so that one client cannot hold the threads that
enter hands.

A page is kept in this worker's memory under the tag of what it shows (the game's version and the rest it prints,
the language, the address: web/live.py's tag, or kept_state), at most MAX_ITEMS pages and MAX_BYTES together, the
least recently used going first: a second reader of the same version gets it without drawing. What is drawn anew
counts against HEAVY_READS_AT_ONCE for the whole worker, beyond which it is answered 503; and a client (its address,
or its IPv6 /64; the real one behind a trusted proxy) has at most HEAVY_READS_PER_ADDRESS heavy requests in flight,
kept or drawn, beyond which 429 before anything is read; both with Retry-After and a page that says so in words.
"""

from __future__ import annotations

import atexit
import concurrent.futures
import functools
import multiprocessing
import os
import pickle
import threading
from collections.abc import Callable, Hashable
from contextlib import contextmanager, nullcontext
from typing import Any
from urllib.parse import parse_qsl, urlencode

from flask import Response, abort, current_app, render_template, request
from flask_babel import get_locale

from scorekeeper.games import cache
from scorekeeper.server import child, door_guard, guard
from scorekeeper.web.i18n import gettext as _

MAX_ITEMS = 256
MAX_BYTES = 64 * 1024 * 1024
RETRY_AFTER = 3  # seconds
# A game's protokoll counts as heavy past this many hands: more than a club evening's table plays, so the phones of a
# hall behind one address never wait on each other's sheets, while a 500-hand game is bounded.
HEAVY_HANDS = 100

PAGES = cache.Kept(max_items=MAX_ITEMS, max_size=MAX_BYTES)  # sized in bytes (characters for a page)
_lock = threading.Lock()
_drawing: dict[str, int] = {}  # client → heavy reads being drawn for it now
_total = [0]


def _refuse(status: int) -> Response:
    if status == 429:
        title = _("Too many at once")
        message = _(
            "This address asked for too many large pages at once (score sheets, spreadsheets, a season's ledger). "
            "Wait for the others to arrive, then try again in a few seconds."
        )
    else:
        title = _("Busy")
        message = _("The server is busy drawing large pages for others. Try again in a few seconds.")
    # Kept per language and status: a client refused many times a second costs the worker next to nothing.
    key = ("refused", status, str(get_locale()))
    page = PAGES.get(key)
    if page is None:
        page = render_template("errors/refused.html", code=status, title=title, message=message)
        PAGES.put(key, page, len(page))
    return Response(page, status, headers={"Retry-After": str(RETRY_AFTER), "Cache-Control": "no-store"})


@contextmanager
def drawing(shared: bool = True, own: bool = True):
    """Hold a place for a heavy read, or answer at once (never waits: a waiting thread is a thread not serving):
    `own`, one of the client's HEAVY_READS_PER_ADDRESS (429 beyond), `shared`, one of the worker's
    HEAVY_READS_AT_ONCE (503 beyond). A table's own protokoll after its hand asks only its own (`shared=False`):
    strangers filling the worker's places must not refuse a table its sheet."""
    config = current_app.config
    per_client = config.get("HEAVY_READS_PER_ADDRESS") if own else None
    at_once = config.get("HEAVY_READS_AT_ONCE") if shared else None
    who = guard.client() if own else ""  # read only when `own`
    if own:
        door_guard.mark(request.environ, RETRY_AFTER)  # the door refuses this path's excess itself from now on
    with _lock:
        if per_client is not None and _drawing.get(who, 0) >= per_client:
            refused = 429
        elif at_once is not None and _total[0] >= at_once:
            refused = 503
        else:
            refused = None
            if own:
                _drawing[who] = _drawing.get(who, 0) + 1
            if shared:
                _total[0] += 1
    if refused is not None:
        abort(_refuse(refused))
    try:
        yield
    finally:
        with _lock:
            if own:
                left = _drawing[who] - 1
                if left:
                    _drawing[who] = left
                else:
                    del _drawing[who]
            if shared:
                _total[0] -= 1


def reading():
    """A heavy request of one client's, from its start, whether its page is kept or drawn: at most
    HEAVY_READS_PER_ADDRESS at once per client, so one client's many connections hold no more of the worker's threads
    than that, and its others are refused before anything is read."""
    return drawing(shared=False)


def kept(
    key: Hashable, draw: Callable[[], Any], keep: Callable[[Any], bool] = lambda _body: True, bounded: bool = True
) -> Any:
    """What `draw()` makes (a page's text or a file's bytes), kept under `key` (the tag of what it shows): from memory
    when it is kept, else drawn within the worker's bound (`drawing`: the client's is its request's, `reading`; not
    for a light one, `bounded=False`) and kept if `keep(body)` says it is still current."""
    body = PAGES.get(key)
    if body is not None:
        return body
    with drawing(own=False) if bounded else nullcontext():
        body = PAGES.get(key)  # drawn meanwhile by another request
        if body is None:
            body = draw()
            if keep(body):
                PAGES.put(key, body, len(body))
    return body


def bounded(view):
    """A heavy read that is not kept (it depends on more than one version): drawn within the bounds (`drawing`)."""

    @functools.wraps(view)
    def within(*args, **kwargs):
        with drawing():
            return view(*args, **kwargs)

    return within


# ---------------------------------------------------------------- drawn in a process of its own

# The drawing process's app: what it must not do again (migrate, bound, draw elsewhere, trust a proxy: it is asked
# with the address the reader used).
CHILD = {
    "MIGRATE_ON_START": False,
    "HEAVY_ELSEWHERE": False,
    "HEAVY_READS_PER_ADDRESS": None,
    "HEAVY_READS_AT_ONCE": None,
    "RATELIMIT_ENABLED": False,
    "LIVE_DOOR": False,
    "REQUESTS_PER_ADDRESS": None,
    "GC_FREEZE": False,
    "PROXY_FIX": False,
    "TRUSTED_HOSTS": None,
}
_pool: list = [None, 0]  # the executor, the pid of the worker that started it
_pool_lock = threading.Lock()
_child_app: list = [None]


def _child_start(factory, config: dict, parent: int) -> None:
    child.exit_with_parent(parent)
    _child_app[0] = factory(config)


def _child_draw(path: str, query: str, headers: dict, base_url: str) -> tuple[int, bytes]:
    """In the drawing process: the plain reader's request, answered by the same app over the same file."""
    answer = _child_app[0].test_client().get(path, query_string=query, headers=headers, base_url=base_url)
    return answer.status_code, answer.get_data()


def _executor(app) -> concurrent.futures.ProcessPoolExecutor:
    """This worker's drawing process, started on the first heavy read (a forked worker starts its own)."""
    with _pool_lock:
        if _pool[0] is None or _pool[1] != os.getpid():
            config = {}
            for name, value in app.config.items():
                try:
                    pickle.dumps(value)
                except Exception:  # a callable the tests put in (CLOCK): the drawing process keeps its default
                    continue
                config[name] = value
            _pool[0] = concurrent.futures.ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_child_start,
                initargs=(app.extensions["scorekeeper.factory"], {**config, **CHILD}, os.getpid()),
            )
            _pool[1] = os.getpid()
        return _pool[0]


@atexit.register
def _stop() -> None:
    """This process's drawing process stopped at exit, before the interpreter takes its modules apart (left to the
    garbage collector then, concurrent.futures' thread printed "'NoneType' object has no attribute 'util'")."""
    with _pool_lock:
        pool, owner = _pool[0], _pool[1]
        _pool[0] = None
    if pool is not None and owner == os.getpid():
        pool.shutdown(wait=True, cancel_futures=True)


def elsewhere(local: Callable[[], Any]) -> Callable[[], Any]:
    """A plain reader's heavy read (one who holds no key: the page is the same for every such reader) drawn by this
    worker's drawing process (HEAVY_ELSEWHERE), whose CPU and interpreter lock are its own: the threads that enter
    hands never wait on it. `local` draws it here instead when it is off, or the drawing process failed."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]  # flask types current_app as the Flask app it proxies
    if not app.config.get("HEAVY_ELSEWHERE") or "scorekeeper.factory" not in app.extensions:
        return local
    headers = {"Accept-Language": request.headers.get("Accept-Language", "")}
    if request.cookies.get("lang"):
        headers["Cookie"] = f"lang={request.cookies['lang']}"
    # The language this reader is answered in, whichever way it was chosen (a link's ?lang=, the session, the
    # browser's): the drawing process sees no session, so it is told.
    query = [
        (k, v) for k, v in parse_qsl(request.query_string.decode("latin-1"), keep_blank_values=True) if k != "lang"
    ]
    job = (
        request.path,
        urlencode([*query, ("lang", str(get_locale()))]),
        headers,
        request.host_url.rstrip("/") + request.script_root + "/",
    )

    def draw() -> Any:
        try:
            status, body = _executor(app).submit(_child_draw, *job).result(timeout=app.config.get("PDF_TIMEOUT"))
        except (concurrent.futures.process.BrokenProcessPool, concurrent.futures.TimeoutError, OSError) as exc:
            app.logger.warning("heavy read drawn here: the drawing process failed (%s)", exc)
            with _pool_lock:
                _pool[0] = None
            return local()
        except Exception as exc:  # the job's own error in the drawing process: drawn here, where it is logged whole
            app.logger.warning("heavy read drawn here: the drawing process raised %r", exc)
            return local()
        if status != 200:
            app.logger.warning("heavy read drawn here: the drawing process answered %s", status)
            return local()
        return body

    return draw
