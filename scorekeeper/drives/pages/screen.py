"""The hall's screen: the standings and the next seating, page after page, live."""

from __future__ import annotations

from flask import abort, render_template, request, url_for

from scorekeeper.drives import present, service
from scorekeeper.drives.pages.common import REFRESH, SCREEN_SECONDS, bp, load, no_store
from scorekeeper.drives.pages.table import live_state
from scorekeeper.server import guard
from scorekeeper.server.db import get_db
from scorekeeper.web import live
from scorekeeper.web.inputs import whole_number

# ---------------------------------------------------------------- the hall's screen


@bp.get("/d/<drive_id>/screen")
def screen(drive_id):
    return no_store(_screen_page(drive_id)[0])


@bp.get("/d/<drive_id>/screen/live")
@guard.polled
def screen_live(drive_id):
    """The hall screen's light twin (web/live.py): 304 while the screen shows the drive as it is, else the screen,
    fresh (the screen puts it in place at the end of its cycle: drives.js)."""
    try:
        record = service.head(get_db(), drive_id)
    except service.NotFound:
        abort(404)
    unchanged = live.unchanged(live_state(record, "screen", _screen_seconds()), ("d", drive_id))
    if unchanged is not None:
        return unchanged
    return live.fresh(*_screen_page(drive_id))


def _screen_seconds() -> int:
    seconds = whole_number(request.args.get("seconds"))
    return seconds if seconds and 1 <= seconds <= 60 else SCREEN_SECONDS


def _screen_page(drive_id: str) -> tuple[str, str]:
    """The hall screen and the tag of its state, from the same read."""
    scored_drive = load(drive_id)
    head = present.drive_head(scored_drive)
    seconds = _screen_seconds()
    state = live_state(scored_drive.record, "screen", seconds)
    page = render_template(
        "drives/screen.html",
        head=head,
        refresh=REFRESH,
        seconds=seconds,
        pages=present.screen_pages(scored_drive, service.money(get_db(), drive_id, scored_drive.setup)),
        move_again=present.move_again(scored_drive),
        live_url=url_for("drives.screen_live", drive_id=drive_id, seconds=request.args.get("seconds")),
        live_tag=state,
    )
    return page, state
