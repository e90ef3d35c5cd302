"""Reads that cost more than a few milliseconds — a big game's protokoll, its print page and spreadsheet, a season's
ledger — kept per version and drawn a bounded number at a time, so that one client cannot hold the threads that
enter hands.

A page is kept in this worker's memory under the tag of what it shows (the game's version and the rest it prints,
the language, the address: web/live.py's tag, or kept_state), at most MAX_ITEMS pages and MAX_BYTES together, the
least recently used going first: a second reader of the same version gets it without drawing. What is drawn anew
counts against two bounds: HEAVY_READS_PER_ADDRESS drawn at once for one client (its address, or its IPv6 /64; the
real one behind a trusted proxy), beyond which it is answered 429, and HEAVY_READS_AT_ONCE for the whole worker,
beyond which 503; both with Retry-After and a page that says so in words. A kept page is never counted.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Hashable
from contextlib import contextmanager
from typing import Any

from flask import Response, abort, current_app, render_template

from scorekeeper.services import cache
from scorekeeper.web import guard
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
    page = render_template("errors/error.html", code=status, title=title, message=message)
    return Response(page, status, headers={"Retry-After": str(RETRY_AFTER), "Cache-Control": "no-store"})


@contextmanager
def drawing(shared: bool = True):
    """Hold one of this client's and this worker's places for drawing a heavy read, or answer 429 (the client has
    HEAVY_READS_PER_ADDRESS being drawn) or 503 (the worker has HEAVY_READS_AT_ONCE) at once: never waits, since a
    waiting thread is a thread not serving. `shared=False` (a table's own protokoll after its hand) asks only the
    client's bound: strangers filling the worker's places must not refuse a table its sheet."""
    config = current_app.config
    per_client, at_once = config.get("HEAVY_READS_PER_ADDRESS"), config.get("HEAVY_READS_AT_ONCE")
    if not shared:
        at_once = None
    who = guard.client()
    with _lock:
        if per_client is not None and _drawing.get(who, 0) >= per_client:
            refused = 429
        elif at_once is not None and _total[0] >= at_once:
            refused = 503
        else:
            refused = None
            _drawing[who] = _drawing.get(who, 0) + 1
            _total[0] += 1
    if refused is not None:
        abort(_refuse(refused))
    try:
        yield
    finally:
        with _lock:
            left = _drawing[who] - 1
            if left:
                _drawing[who] = left
            else:
                del _drawing[who]
            _total[0] -= 1


@contextmanager
def _unbounded():
    yield


def kept(
    key: Hashable, draw: Callable[[], Any], keep: Callable[[Any], bool] = lambda _body: True, bounded: bool = True
) -> Any:
    """What `draw()` makes (a page's text or a file's bytes), kept under `key` (the tag of what it shows): from memory
    when it is kept, else drawn within the bounds (`drawing`; not for a light one, `bounded=False`) and kept if
    `keep(body)` says it is still current."""
    body = PAGES.get(key)
    if body is not None:
        return body
    with drawing() if bounded else _unbounded():
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
