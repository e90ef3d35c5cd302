"""The protokoll: the page every phone at the table watches (live), the edit link and QR code, Play again."""

from __future__ import annotations

import hashlib
import io
from contextlib import nullcontext
from html import unescape
from urllib.parse import urlencode

import segno
from flask import Response, abort, current_app, redirect, render_template, request, session, url_for
from flask_babel import get_locale

from scorekeeper.clubs.pages import tables as club_tables
from scorekeeper.games import live as live_service
from scorekeeper.games import service
from scorekeeper.games.pages.common import bp, editable, load
from scorekeeper.games.paper import sheet_head
from scorekeeper.server import guard, heavy, live_tags
from scorekeeper.server.db import get_db
from scorekeeper.server.proxy import external_url
from scorekeeper.storage import store
from scorekeeper.web import live, live_parts, phone
from scorekeeper.web.i18n import LANGUAGES
from scorekeeper.web.inputs import whole_number
from scorekeeper.web.present import chart_view, edit_log_view, protokoll_context

# ---------------------------------------------------------------- the protokoll


# What the protokoll's query may say: anything else is sent to the address without it (a made-up query drew the page
# anew every time, in the server's threads for a game under HEAVY_HANDS: issue 34, F-S1).
QUERY = frozenset({"lang", "changed", "saved", "kept", "why", "what"})  # kept/why/what: the service worker's (sw.js)


@bp.get("/g/<game_id>")
def protokoll(game_id):
    tags = live_tags.publisher(current_app)
    before = tags.versions(get_db(), "g", game_id) if tags is not None else None  # before the rows the state is of
    game = live_service.game_row(get_db(), game_id)
    if game is None:
        abort(404)
    if not set(request.args) <= QUERY:
        known = [(name, value) for name, value in request.args.items(multi=True) if name in QUERY]
        return redirect(url_for("games.protokoll", game_id=game_id) + (f"?{urlencode(known)}" if known else ""))
    with heavy.reading() if _big(game_id) else nullcontext():
        key = phone.game_key(game_id)
        state = _protokoll_state(game, key, club_tables.table_view(game_id))
        page, state = _kept_protokoll(game, state, key)
        if tags is not None:  # the page tells the phone its tag: nginx answers its first poll already
            plain = _plain_page(not service.may_edit(get_db(), game, key))
            reader = str(get_locale()) if plain else None
            tags.publish(get_db(), "g", game_id, state, before, reader, page if plain else None)
        return page


def _big(game_id: str) -> bool:
    """Whether a game's protokoll is a heavy read (server/heavy.py: more hands than a club evening's table plays)."""
    return store.count_hands(get_db(), game_id) > heavy.HEAVY_HANDS


def _kept_protokoll(game, state: str, key) -> tuple[str, str]:
    """The protokoll and its state: a reader who may not edit it, with no message waiting for this phone and nothing
    in its query but a language we speak, gets the page kept for this state (server/heavy.py: a made-up query neither
    misses nor pushes out a kept page); the rest are drawn, within the bounds."""
    game_id = game.id
    plain = not service.may_edit(get_db(), game, key)
    big = _big(game_id)
    if _plain_page(plain):
        phone.remember_game(game_id)
        # Drawn after the state was read: at worst it shows a change newer than its key says, never an older one.
        draw = heavy.elsewhere(lambda: _protokoll_page(game_id)[0]) if big else lambda: _protokoll_page(game_id)[0]
        page = heavy.kept(("protokoll", game_id, state, request.full_path), draw, bounded=big)
        live_parts.REMEMBERED.remember(game_id, state, page)  # what a phone showing it is told when it changes
        return page, state
    if not plain:  # a table's own sheet: within its client's bound (the request's), never refused for strangers
        return _protokoll_page(game_id)
    if not big:  # a stranger's ?changed=… of a small game, not kept: within the stranger's own bound
        with heavy.reading():
            return _protokoll_page(game_id)
    with heavy.drawing(own=False):
        return _protokoll_page(game_id)


def _plain_page(plain: bool) -> bool:
    """Whether this request gets the page kept for its state: a reader who may not edit it, with no message waiting for
    this phone and nothing in its query but a language we speak (the same page for the same state)."""
    return (
        plain
        and not session.get("_flashes")
        and set(request.args) <= {"lang"}
        and request.args.get("lang", "en") in LANGUAGES
    )


@bp.get("/g/<game_id>/live")
@guard.polled
def protokoll_live(game_id):
    """The protokoll's light twin (web/live.py): 304 while the page shows the game as it is, else the page, fresh."""
    tags = live_tags.publisher(current_app)
    before = tags.versions(get_db(), "g", game_id) if tags is not None else None  # before the rows the state is of
    game = live_service.game_row(get_db(), game_id)
    if game is None:
        abort(404)
    key = phone.game_key(game_id)
    state = _protokoll_state(game, key, club_tables.table_view(game_id))
    shown = request.headers.get(live.TAG_HEADER)
    asked = live.shown(shown) or ""  # the tag the phone's page shows (live.js's KEYED mark off)
    plain = _plain_page(not service.may_edit(get_db(), game, key))  # the page every plain reader gets for its state
    reader = str(get_locale()) if plain else None
    if tags is not None and shown is not None:
        tags.publish(get_db(), "g", game_id, state, before, reader)  # nginx answers this phone's next unchanged poll
    unchanged = live.unchanged(state, ("g", game_id))
    if unchanged is not None:
        return unchanged
    with heavy.reading() if _big(game_id) else nullcontext():
        page, state = _kept_protokoll(game, state, key)
    if tags is not None and shown is not None and plain:  # the page with its mark, for whichever worker comes next
        tags.publish(get_db(), "g", game_id, state, before, reader, page)
    answer = page
    parts = bool(request.headers.get(live.PARTS_HEADER))
    if asked and parts and reader is not None:  # a plain reader's (plain: reader is its language)
        text = page.decode("utf-8") if isinstance(page, bytes) else page  # drawn by another process: its bytes
        found = live.LIVE_URL.search(text)
        every = live.LIVE_EVERY.search(text)  # a finished game's slower questions
        old, new = live_parts.REMEMBERED.known(game_id, asked), live_parts.REMEMBERED.known(game_id, state)
        if old is None and tags is not None:  # drawn by another worker: the page it told the phones, kept with the mark
            told = tags.told_page("g", game_id, asked, reader)
            old = live_parts.parts_of(told) if told else None
        changed = (
            live_parts.changes(old, new, unescape(found.group(1)), state, every.group(1) if every else None)
            if found
            else None
        )
        answer = changed if changed is not None else page
    # A plain reader's answer (reader: its language): nginx gives it to the other phones that showed the same page.
    if tags is not None and asked and reader is not None:
        tags.keep_answer(get_db(), "g", game_id, asked, reader, parts, answer, before)
    return live.fresh(answer, state)


def _protokoll_state(game, key, club_table: dict | None) -> str:
    """The tag of what the protokoll shows: the game's row (its version goes up with every change to its hands and
    its log, its deal's version with the bids), whether this phone may edit it, and what it says of its club. The
    file's epoch too: a restore may bring the version back over other hands (issue 43)."""
    editable = service.may_edit(get_db(), game, key)
    fields = [game.version, game.deal_version, game.title, game.players, game.dealer, game.options, game.language]
    fields.append(game.epoch)
    return live.tag([fields, editable, club_table])


def _protokoll_page(game_id: str) -> tuple[str, str]:
    """The protokoll and the tag of its state, from the same read."""
    club_table = club_tables.table_view(game_id)
    loaded = load(game_id)
    scored_game = club_tables.titled(loaded, club_table["title"]) if club_table else loaded
    key = phone.game_key(game_id)
    editable = service.may_edit(get_db(), scored_game.game, key)
    changed = whole_number(request.args.get("changed"))
    ctx = protokoll_context(scored_game, changed, saved=whole_number(request.args.get("saved")))
    if club_table and club_table["kitty"]:
        ctx["settlement"] = club_tables.through_kitty(ctx["settlement"])
    state = _protokoll_state(loaded.game, key, club_table)
    phone.remember_game(game_id)
    page = render_template(
        "games/protokoll.html",
        **ctx,
        head=sheet_head(scored_game, club_table["date"] if club_table else None),
        chart=chart_view(scored_game),
        editable=editable,
        changes=edit_log_view(scored_game, service.edit_log(get_db(), game_id, changes_only=True)),
        share_url=external_url("games.protokoll", game_id=game_id),
        club_table=club_table,
        live_url=url_for("games.protokoll_live", game_id=game_id),
        live_tag=state,
        live_every=live.FINISHED_SECONDS if ctx["finished"] else None,
    )
    return page, state


@bp.get("/g/<game_id>/edit-link")
def edit_link(game_id):
    """The edit link on a page of its own, never kept: the protokoll is kept on the phone for a lost network, and
    whatever is kept there stays for the next person who picks the phone up, after the session that held the key."""
    scored_game = editable(game_id)
    page = render_template(
        "games/edit_link.html",
        game=scored_game.game,
        edit_url=external_url("games.claim", game_id=game_id, key=phone.game_key(game_id)),
    )
    return page, {"Cache-Control": "no-store"}


@bp.get("/g/<game_id>/k/<key>")
def claim(game_id, key):
    """The edit link: remembers the key on this phone, then shows the sheet."""
    scored_game = load(game_id)
    if not service.may_edit(get_db(), scored_game.game, key):
        abort(403)
    phone.remember_game(game_id, key)
    return redirect(url_for("games.protokoll", game_id=game_id))


@bp.post("/g/<game_id>/again")
@guard.writes("new-game")
def play_again(game_id):
    """A new game with this one's players, variant, house rules, title and language, dealt first by the next dealer;
    this phone holds its edit key. Only for a phone that may edit this game."""
    scored_game = editable(game_id)
    game = scored_game.game
    earlier = phone.played_again(game_id, game.version)
    if earlier is not None and phone.game_key(earlier):
        return redirect(url_for("games.protokoll", game_id=earlier))  # a second tap: the game the first one started
    at_club = club_tables.play_again(
        game_id, confirmed=request.form.get("confirm") == "1", finished=scored_game.protokoll.finished
    )
    if at_club is not None:  # a club's table: the evening's next table (or first the question), never a stray game
        answer, started = at_club
        if started:
            phone.remember_played_again(game_id, game.version, started)
        return answer
    new_id, key = service.start_game(
        get_db(),
        {
            "variant": game.variant,
            "players": list(game.players),
            "dealer": scored_game.protokoll.next_dealer,
            "title": game.title,
            "options": dict(game.options),
            "language": game.language,
        },
    )
    phone.remember_game(new_id, key)
    phone.remember_played_again(game_id, game.version, new_id)
    return redirect(url_for("games.protokoll", game_id=new_id))


@bp.get("/g/<game_id>/qr.svg")
def qr(game_id):
    load(game_id)
    url = external_url("games.protokoll", game_id=game_id)
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=4, dark="#111", light="#fff", xmldecl=False)
    # Without PUBLIC_URL the code holds the Host the phone used: no shared cache may keep it for another Host.
    cache = "public, max-age=86400" if current_app.config.get("PUBLIC_URL") else "private, no-cache"
    response = Response(out.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": cache, "Vary": "Host"})
    response.set_etag(hashlib.sha256(url.encode()).hexdigest()[:32])
    return response.make_conditional(request)
