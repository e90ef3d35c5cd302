"""A club's table on the phones and on paper: its title built in the reader's language from its number, half, date and
club (never stored as text); the way back to its evening and club; the break's draw on every table's phone; the
handover of a table to its scorer by a QR code or a short code; Play again that stays on the evening."""

from __future__ import annotations

import dataclasses

import segno
from flask import Response, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from scorekeeper.clubs import forms as club_forms
from scorekeeper.clubs import service as club_service
from scorekeeper.clubs.pages import common
from scorekeeper.clubs.pages.common import bp
from scorekeeper.clubs.present import table_name
from scorekeeper.core import InputError
from scorekeeper.games import service
from scorekeeper.server import guard
from scorekeeper.server.db import get_db
from scorekeeper.server.proxy import external_url
from scorekeeper.web import phone
from scorekeeper.web.i18n import day
from scorekeeper.web.messages import translate

NO_STORE = {"Cache-Control": "no-store"}


def title(place: club_service.TablePlace) -> str:
    """The title of a club table: its club, its table and its evening's date, in the reader's language."""
    t = place.table
    return _(
        "%(club)s · %(table)s · %(date)s",
        club=place.club.name,
        table=table_name(t.shown_number, t.half, place.halves),
        date=day(place.evening.date),
    )


def code_text(code: str | None) -> str:
    """A table's code as shown and read aloud: ABC-DEF."""
    return f"{code[:3]}-{code[3:]}" if code else ""


def built_title(game) -> str | None:
    """The title a game without one of its own is shown with: its club table's (None for a game of no club)."""
    if game.title:
        return None
    place = club_service.table_of(get_db(), game.id)
    return title(place) if place is not None else None


def print_language(game_id: str) -> str | None:
    """The language a club table's paper speaks: its club's print language as it is now (None: no club, or none
    chosen), whatever it was when the table started."""
    place = club_service.table_of(get_db(), game_id)
    return place.club.language if place is not None else None


def evening_date(game_id: str) -> str | None:
    """The day a club table was played: its evening's date (ISO), which its sheet's title and head both say."""
    place = club_service.table_of(get_db(), game_id)
    return place.evening.date if place is not None else None


def titled(scored_game: service.ScoredGame, built: str | None = None) -> service.ScoredGame:
    """The scored game with its title built from its club table (`built`, when the caller has it), if it is one and
    has no title of its own."""
    if scored_game.game.title:
        return scored_game
    if built is None:
        place = club_service.table_of(get_db(), scored_game.game.id)
        if place is None:
            return scored_game
        built = title(place)
    return dataclasses.replace(scored_game, game=dataclasses.replace(scored_game.game, title=built))


def draw_view(record, members, halves: int) -> dict | None:
    """The break's draw as the pages show it: each new table's members in seat order, who sits out."""
    draw = record.draw
    if not draw:
        return None
    name = lambda m: members[m].name if m in members else "?"  # noqa: E731
    return {
        "half": draw["half"],
        "tables": [
            {"name": table_name(i, draw["half"], halves), "number": i, "members": [name(m) for m in t]}
            for i, t in enumerate(draw["tables"], 1)
        ],
        "out": [name(m) for m in draw.get("out", ())],
        "repeats": draw.get("repeats", 0),
    }


def next_half_view(place: club_service.TablePlace, members) -> dict | None:
    """What a table's phone shows of the next half: the draw waiting to be started, or the tables the next half
    started with (where each of this table's players sits now)."""
    waiting = draw_view(place.evening, members, place.halves)
    if waiting:
        return waiting
    later = [t for t in club_service.evening_tables(get_db(), place.evening.id) if t.half == place.table.half + 1]
    if not later:
        return None
    return {
        "half": place.table.half + 1,
        "started": True,
        "tables": [
            {
                "name": table_name(t.shown_number, t.half, place.halves),
                "number": t.shown_number,
                "members": [members[m].name if m in members else "?" for m in t.members],
            }
            for t in later
        ],
        "out": [],
        "repeats": None,
    }


def table_view(game_id: str) -> dict | None:
    """What a club table's protokoll says of its club: the title, the links back, the next half's draw."""
    db = get_db()
    place = club_service.table_of(db, game_id)
    if place is None:
        return None
    members = club_service.members(db, place.club.id)
    return {
        "title": title(place),
        "club": place.club.name,
        "club_url": url_for("clubs.club", club_id=place.club.id),
        "evening_url": url_for("clubs.evening", club_id=place.club.id, evening_id=place.evening.id),
        "evening": _("Evening %(date)s", date=day(place.evening.date)),
        "date": place.evening.date,  # the day its sheet's head says, as its title does
        "result_url": url_for("clubs.result", club_id=place.club.id, evening_id=place.evening.id),
        "kitty": place.evening.settlement == "kitty",
        "table": table_name(place.table.shown_number, place.table.half, place.halves),
        "next_half": next_half_view(place, members) if place.table.half < place.halves else None,
    }


def through_kitty(settlement: dict | None) -> dict | None:
    """A table's money on an evening settled through the kitty: what each player's part comes to, to or from the
    kitty, and no payment between players (the evening's result settles every table and the fee at once)."""
    if settlement is None:
        return None
    ways = {-1: "to", 0: "even", 1: "from"}
    return {
        **settlement,
        "kitty": [
            {"player": b["player"], "amount": abs(b["amount"]), "way": ways[(b["amount"] > 0) - (b["amount"] < 0)]}
            for b in settlement["balances"]
        ],
        "payments": [],
    }


def settled_through_kitty(game_id: str) -> bool:
    """Whether a game is a table of an evening settled through the kitty."""
    place = club_service.table_of(get_db(), game_id)
    return place is not None and place.evening.settlement == "kitty"


# ---------------------------------------------------------------- the handover


def qr_svg(url: str, scale: int = 8) -> Markup:
    """A QR code as inline SVG (nothing fetched, and the PDF renderer loads nothing)."""
    return Markup(segno.make(url, error="m").svg_inline(scale=scale, dark="#000", light="#fff"))


def claim_url(club_id: str, code: str) -> str:
    """What a table's QR code holds: the club's address and the code (a "k" segment: the logs redact what follows)."""
    return external_url("clubs.claim_code", club_id=club_id, key=code)


@bp.get("/c/<club_id>/e/<int:evening_id>/tables/<game_id>/hand-over")
def hand_over(club_id, evening_id, game_id):
    """A table's QR code and short code, large, for its scorer to scan: only for the admin, and never kept (the
    code gives the table's edit right). The next table is one tap on."""
    club, refused = common.admin_or_refuse(club_id)
    if refused:
        return refused
    try:
        data = club_service.evening(get_db(), club_id, evening_id)
    except club_service.ClubNotFound:
        abort(404)
    tables = [t.record for t in data.tables]
    index = next((i for i, t in enumerate(tables) if t.game_id == game_id), None)
    if index is None or not tables[index].code:
        abort(404)
    table = tables[index]
    assert table.code  # a table without one was refused above
    following = tables[index + 1] if index + 1 < len(tables) else None
    members = club_service.members(get_db(), club_id)
    page = render_template(
        "clubs/hand_over.html",
        club=club,
        evening=data.record,
        table=table,
        name=table_name(table.shown_number, table.half, data.format.halves),
        players=[members[m].name for m in table.members if m in members],
        qr=qr_svg(claim_url(club_id, table.code)),
        code=code_text(table.code),
        url=claim_url(club_id, table.code),
        enter_url=external_url("clubs.enter_code"),
        following=following,
        following_name=table_name(following.shown_number, following.half, data.format.halves) if following else None,
    )
    return page, NO_STORE


def code_expired(status: int = 410):
    """A table's code (or the edit right it handed to a phone) whose evening is settled: a page in words."""
    page = render_template(
        "errors/error.html",
        code=status,
        title=_("This table's code has expired"),
        message=_(
            "This table's code has expired: its evening is settled, so it gives no right to change the score. The "
            "score sheet can still be read; ask the club's admin if a hand must be changed."
        ),
    )
    return Response(page, status, headers=NO_STORE)


def _claim(code, club_id=None):
    try:
        found = club_service.claim_code(get_db(), code, club_id)
    except club_service.CodeExpired:
        return code_expired()
    if found is None:
        return None
    game_id, key = found
    phone.remember_game(game_id, key)
    flash(_("This phone keeps the score of this table now."))
    return redirect(url_for("games.protokoll", game_id=game_id))


@bp.get("/c/<club_id>/k/<key>")
@guard.limited("LIMIT_TABLE_CODES", "table-code")
def claim_code(club_id, key):
    """A table's QR code opens this: the phone gets the table's edit right and shows its protokoll."""
    answer = _claim(key, club_id)
    if answer is None:
        return render_template("clubs/code.html", form=club_forms.CodeForm(), wrong=True), 404, NO_STORE
    return answer


@bp.route("/k", methods=["GET", "POST"])
@guard.exempt("a table's code is checked and this phone's session remembers the table: no row is written")
@guard.limited("LIMIT_TABLE_CODES", "table-code")
def enter_code():
    """The short code typed in, for a phone that cannot scan."""
    form = club_forms.CodeForm()
    wrong = False
    if request.method == "POST":
        if form.validate_on_submit():
            answer = _claim(form.code.data)
            if answer is not None:
                return answer
        wrong = True
    return render_template("clubs/code.html", form=form, wrong=wrong), 400 if wrong else 200, NO_STORE


# ---------------------------------------------------------------- Play again on the evening


def play_again(game_id: str, confirmed: bool, finished: bool = False):
    """Play again at a club table: the evening's next table (asks first when the next half is drawn or started, or
    when this `finished` table was of the evening's last half). Answers (the response, the new game's id or None), or
    None for a game of no club."""
    db = get_db()
    place = club_service.table_of(db, game_id)
    if place is None:
        return None
    moved = place.table.half < place.halves and (
        place.evening.draw or any(t.half > place.table.half for t in club_service.evening_tables(db, place.evening.id))
    )
    over = finished and place.table.half >= place.halves
    if (moved or over) and not confirmed:
        page = render_template(
            "clubs/play_again.html",
            table=table_view(game_id),
            game_id=game_id,
            over=over,
            button=club_forms.ButtonForm(),
        )
        return (page, 200, NO_STORE), None
    try:
        started = club_service.play_again(db, game_id, phone.game_key(game_id))
    except InputError as exc:
        for message in exc.errors.values():
            flash(translate(message))
        return redirect(url_for("games.protokoll", game_id=game_id)), None
    assert started is not None  # a club's table: table_of found its place above
    new_id, key, _number = started
    phone.remember_game(new_id, key)
    flash(_("The next table of the evening is started, with the same players."))
    return redirect(url_for("games.protokoll", game_id=new_id)), new_id
