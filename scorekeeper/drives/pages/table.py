"""A table's page, opened from its card's QR code: the table enters its own results, live while the others play."""

from __future__ import annotations

import secrets

from flask import abort, after_this_request, g, redirect, render_template, request, url_for

from scorekeeper.core.messages import InputError
from scorekeeper.drives import forms, present, service
from scorekeeper.drives.pages.common import (
    REFRESH,
    bp,
    load,
    messages,
    no_store,
    pairs_sent,
    seating_changed,
    shown_names,
)
from scorekeeper.drives.rules import OutOfTurn, SeatingChanged
from scorekeeper.server import guard
from scorekeeper.server.db import get_db
from scorekeeper.web import live
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.inputs import whole_number

# ---------------------------------------------------------------- a table's page, from its card

PHONE_COOKIE = "drive_phone"
PHONE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud across a hall


def phone_id() -> str:
    """This phone's own short id (a cookie, made on its first table page): what the organiser's page names a result's
    sender by ("phone K3F9"), and the table page shows, so that two phones at a table can be told apart."""
    mine = request.cookies.get(PHONE_COOKIE, "")
    if len(mine) == 4 and all(c in PHONE_LETTERS for c in mine):
        return mine
    mine = "".join(secrets.choice(PHONE_LETTERS) for _ in range(4))

    @after_this_request
    def remember(response):
        response.set_cookie(PHONE_COOKIE, mine, max_age=24 * 3600, path="/d/", httponly=True, samesite="Lax")
        return response

    return mine


def sided(tricks: int | None) -> str:
    """A table's result as its phone says it, naming the side whose number comes first (issue 33, M5): "N–S 8 · E–W 5",
    as the trick buttons read, so that nobody at East–West takes the first number for their own."""
    return "" if tricks is None else f"{_('N–S')} {tricks} · {_('E–W')} {13 - tricks}"


@bp.route("/d/<drive_id>/t/<int:table>/<token>", methods=["GET", "POST"])
@guard.exempt("the table's token; replaces its own result, bounded by the drive's size")
def table(drive_id, table, token):
    # The row first: a wrong token, which no budget holds back (a table is never refused its result), costs a row read
    # and never the drive's replay.
    try:
        record = service.head(get_db(), drive_id)
    except service.NotFound:
        abort(404)
    if not 1 <= table <= service.stored_setup(record).tables:
        abort(404)
    if not service.table_token_matches(record, table, token):
        abort(403)
    scored_drive = load(drive_id)
    form = forms.TableForm(request.form if request.method == "POST" else None)
    error, status, other = None, 200, None
    me = phone_id()
    here_url = url_for("drives.table", drive_id=drive_id, table=table, token=token)
    sent_by_me = whole_number(request.args.get("sent"))
    if request.method == "POST":
        hand = whole_number(form.hand.data)
        tricks = whole_number(form.tricks.data)
        raw: dict = {"tricks": None if tricks is None or tricks > 13 else [tricks, 13 - tricks]}
        shown = pairs_sent()
        if shown is not None:
            raw["pairs"] = shown
        if form.was.data is not None and request.form.get("replace") != "1":
            was = whole_number(form.was.data)
            raw["was"] = None if was is None or was > 13 else [was, 13 - was]
        try:
            scored_drive = service.enter_table_result(get_db(), drive_id, hand, table, raw, token, me)
        except SeatingChanged:
            # Seated anew after the page showed it: `scored_drive`, read before this post, shows who plays here now.
            form.tricks.data = None
            error, status = seating_changed(), 409
        except service.OtherPhone as exc:
            other = {"stored": sided(exc.stored[0]), "mine": sided(tricks), "tricks": tricks}
            error, status = messages(exc), 409
        except OutOfTurn as exc:
            if _already_stored(scored_drive, hand, table, raw["tricks"]):  # a resend of what is stored: done already
                return redirect(here_url + f"?sent={tricks}")
            error, status = messages(exc), 409
        except InputError as exc:
            error, status = messages(exc), 400
        except service.Forbidden:
            abort(403)
        else:
            return redirect(here_url + f"?sent={tricks}")
    drive = scored_drive.drive
    current = drive.rounds[drive.current - 1]
    here = current.tables[table - 1]
    stored = None if here.tricks is None else here.tricks[0]
    if request.method == "GET" or form.tricks.data is None:
        form.tricks.data = None if stored is None else str(stored)
    form.hand.data = str(drive.current)
    form.was.data = "" if stored is None else str(stored)
    sender = scored_drive.senders.get((drive.current, table), (None, None))[0]
    replaced = (
        {"mine": sided(sent_by_me), "stored": sided(stored), "organiser": sender == service.ORGANISER}
        if request.method == "GET" and sent_by_me is not None and stored is not None and sent_by_me != stored
        else None
    )
    sent = here.tricks is not None
    # "Sent" only to the phone that sent what is stored; another phone is told it is in, and from whom.
    mine = sent and (sender == f"phone:{me}" if sender else sent_by_me == stored)
    stored_by = _("the organiser") if sender == service.ORGANISER else _("another phone")
    before = drive.rounds[drive.current - 2] if drive.current > 1 else None
    again = scored_drive.move_again()
    leaving = present.leaving(scored_drive, table) if before is not None and not current.started else []
    for person in leaving:
        person["again"] = person["name"] in again
    here_view = present.table_view(scored_drive, here)
    affected = [m for m in present.move_again(scored_drive) if m["was"]["table"] == table or m["now"]["table"] == table]
    live_query = f"?sent={sent_by_me}" if sent_by_me is not None and request.method == "GET" else ""
    live_url = url_for("drives.table_live", drive_id=drive_id, table=table, token=token) + live_query
    g.live_tag = live_state(scored_drive.record, "table", table, sent_by_me)
    page = render_template(
        "drives/table.html",
        live_url=None if drive.finished else live_url,
        live_tag=g.live_tag,
        head=present.drive_head(scored_drive),
        table=table,
        here=here_view,
        here_score=sided(stored) if stored is not None else here_view["score"],
        shown=shown_names(scored_drive, here),
        form=form,
        error=error,
        other=other,
        replaced=replaced,
        sent=sent,
        mine=mine,
        stored_by=stored_by,
        phone=me,
        stored=stored,
        refresh=REFRESH if not drive.finished else None,
        refresh_url=here_url + (f"?sent={sent_by_me}" if sent_by_me is not None and request.method == "GET" else ""),
        leaving=leaving,
        move_again=affected,
        before_hand=before.hand if before is not None else None,
        before_score=present.table_view(scored_drive, before.tables[table - 1])["score"]
        if before is not None
        else None,
    )
    return no_store(page, status)


_table_page = table  # for table_live, whose `table` is the table's number


@bp.get("/d/<drive_id>/t/<int:table>/<token>/live")
@guard.polled
def table_live(drive_id, table, token):
    """The table page's light twin (web/live.py): 304 while the page shows the drive as it is (its row read, not
    replayed), else the page, fresh. The same token as the page's."""
    try:
        record = service.head(get_db(), drive_id)
    except service.NotFound:
        abort(404)
    if not service.table_token_matches(record, table, token):  # a token is made for a table of the drive only
        abort(403)
    sent_by_me = whole_number(request.args.get("sent"))
    unchanged = live.unchanged(live_state(record, "table", table, sent_by_me), ("d", drive_id))
    if unchanged is not None:
        return unchanged
    page, status, _headers = _table_page(drive_id, table, token)
    return live.fresh(page, g.live_tag, status)


def live_state(record, page: str, *more) -> str:
    """The tag of what a live drive page shows: the drive's version (up with every result, rename and substitute:
    the setup is not read again), what of its row changes without it (the draws, the prizes given, the money), and
    what else the page is for (the table, the ?sent= it says); the file's epoch (a restore: issue 43)."""
    money = service.money(get_db(), record.id)
    return live.tag(
        [record.version, record.title, list(record.draws), record.prizes_given, money, page, *more, record.epoch]
    )


def _already_stored(scored_drive: service.ScoredDrive, hand, table: int, tricks) -> bool:
    if not isinstance(hand, int) or not 1 <= hand <= len(scored_drive.drive.rounds) or tricks is None:
        return False
    stored = scored_drive.drive.rounds[hand - 1].tables[table - 1].tricks
    return stored is not None and list(stored) == list(tricks)
