"""The protokoll: the page every phone at the table watches (live), the edit link and QR code, Play again."""

from __future__ import annotations

import hashlib
import io
from contextlib import nullcontext
from typing import Any
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
            tags.publish(get_db(), "g", game_id, state, before, str(get_locale()) if plain else None)
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
        return heavy.kept(("protokoll", game_id, state, request.full_path), draw, bounded=big), state
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
    """The protokoll's light twin (web/live.py): 304 while the page shows the game as it is; else, for a plain reader
    that takes parts, what changed since the state its page shows (`_delta`), or the page, fresh."""
    tags = live_tags.publisher(current_app)
    before = tags.versions(get_db(), "g", game_id) if tags is not None else None  # before the rows the state is of
    game = live_service.game_row(get_db(), game_id)
    if game is None:
        abort(404)
    key = phone.game_key(game_id)
    club_table = club_tables.table_view(game_id)
    state = _protokoll_state(game, key, club_table)
    shown = request.headers.get(live.TAG_HEADER)
    asked = live.shown(shown) or ""  # the tag the phone's page shows (live.js's KEYED mark off)
    plain = _plain_page(not service.may_edit(get_db(), game, key))  # the page every plain reader gets for its state
    reader = str(get_locale()) if plain else None
    if tags is not None and shown is not None:
        tags.publish(get_db(), "g", game_id, state, before, reader)  # nginx answers this phone's next unchanged poll
    unchanged = live.unchanged(state, ("g", game_id))
    if unchanged is not None:
        return unchanged
    parts = bool(request.headers.get(live.PARTS_HEADER))
    with heavy.reading() if _big(game_id) else nullcontext():
        answer = _delta(game, club_table, asked, state) if asked and parts and reader is not None else None
        if answer is None:
            answer, state = _kept_protokoll(game, state, key)
    # A plain reader's answer (reader: its language): nginx gives it to the other phones that showed the same page.
    if tags is not None and asked and reader is not None:
        tags.keep_answer(get_db(), "g", game_id, asked, reader, parts, answer, before)
    return live.fresh(answer, state)


def _state_parts(game, editable: bool, club_table: dict | None, numbers: list) -> list:
    """What a protokoll's tag is made of (`_protokoll_state`), its `numbers` first (the game's versions and its log's
    last line, or web/live.NUMBERS where they are to be tried: `_shown`)."""
    fields = [*numbers, game.title, game.players, game.dealer, game.options, game.language, game.epoch]
    return [fields, editable, club_table]


def _protokoll_state(game, key, club_table: dict | None) -> str:
    """The tag of what the protokoll shows: the game's row (its version goes up with every change to its hands, its
    deal's version with the bids), the id of its edit log's last line, whether this phone may edit it, and what it
    says of its club. The file's epoch too: a restore may bring the version back over other hands (issue 43). The
    log's line: the versions alone do not say which hands changed since a phone's page was drawn (`_shown`)."""
    db = get_db()
    numbers = [game.version, game.deal_version, store.last_edit(db, game.id)]
    return live.tag(_state_parts(game, service.may_edit(db, game, key), club_table, numbers))


# ---------------------------------------------------------------- what changed, drawn from the scored game (issue 47)

HAND_LINES = ("added", "edited", "deleted")  # the edit log's lines of a change to the hands (each: the version + 1)
BACK = 16  # a phone's page as far back as so many changes to the hands answers what changed; further, the page
DEALS = 4  # and its deal's version so many changes back, and two more for each change to the hands (bids, closed)


def _shown(game, club_table: dict | None, asked: str, lines: list) -> tuple[int, bool] | None:
    """Which state of the game a plain reader's page showed, from its tag (`asked`), the game's row now and its edit
    log (`lines`: id, action, oldest first): (how many of the last lines came after it, whether the deal in progress
    changed since); None if it is none this can tell (not a state of the last BACK changes to the hands with nothing
    else changed since: the title, the options, the club, the language, a restore's epoch).

    The tag of each such state is worked out again: the log's line before those lines, the version as many back (every
    change to the hands puts it one on and writes one line: service.py), the deal's version some back. A tag found so
    says that its page showed the hands as the log stood at its line: a change another program made at the file
    (sqlite3: the version on, no line) makes every one of them another."""
    tags = live.tags_with(_state_parts(game, False, club_table, [live.NUMBERS]))
    if tags is None:
        return None
    for back in range(min(BACK, len(lines)) + 1):
        if back and lines[-back][1] not in HAND_LINES:
            return None  # a club's card applied (its options): a state before it is none of these
        version, mark = game.version - back, (lines[-back - 1][0] if back < len(lines) else 0)
        if version < 0:
            return None
        for deals_back in range(min(DEALS + 2 * back, game.deal_version) + 1):
            if tags(version, game.deal_version - deals_back, mark) == asked:
                return back, deals_back > 0
    return None


def _delta(game, club_table: dict | None, asked: str, state: str) -> str | None:
    """What changed on a plain reader's page since it showed `asked`, drawn from the scored game without the rest of
    the page: the rows from the first hand that changed on (each in place of its namesake, or after the row before it
    if it is new), the rows gone, the sheet's own attributes, the deal in progress, the standing and the parts that
    follow the hands (the chart, the settlement, the changes), in the document static/live.js reads
    (web/live_parts.py). Each part is drawn by the protokoll's own macro (games/_protokoll.html), so the page it
    leaves on the phone is the page drawn now. None where only the whole page will do (`_shown`)."""
    db = get_db()
    loaded = load(game.id)
    now = loaded.game
    if (now.version, now.deal_version, now.epoch) != (game.version, game.deal_version, game.epoch):
        return None  # changed since its state was read: the page
    lines = store.edits_since(db, game.id, 0)
    found = _shown(game, club_table, asked, lines)
    if found is None:
        return None
    back, deal_changed = found
    since = [action for _, action in lines[len(lines) - back :]]
    changes = None
    if any(action != "added" for _, action in lines):  # edits or deletions: their words depend on the hands now
        changes = service.edit_log(db, game.id, changes_only=True)
        if len(changes) != sum(action != "added" for _, action in lines):
            return None  # a line written since: the page
    edited = sum(action != "added" for action in since)  # the last lines of `changes`
    numbers = iter([line["number"] for line in changes[len(changes) - edited :]] if changes and edited else [])
    hands = len(loaded.hands)
    count = hands - since.count("added") + since.count("deleted")  # the hands the phone's page showed
    # The first hand that changed since, and the fewest and most hands the pages on the way showed.
    first, low, high = hands + 1, count, count
    for action in since:
        if action == "added":
            count += 1
            first = min(first, count)
        else:
            first = min(first, next(numbers))
            count -= action == "deleted"
        low, high = min(low, count), max(high, count)
    if count != hands:
        return None
    scored_game = club_tables.titled(loaded, club_table["title"]) if club_table else loaded
    ctx = _protokoll_context(scored_game, club_table, first=max(first, 1))
    ctx.update(editable=False, club_table=club_table, chart=chart_view(scored_game) if back else None)
    ctx["changes"] = edit_log_view(scored_game, changes) if back and changes else None
    part = _macros(ctx)
    out: list[str] = [live_parts.marked(part.standing_block(), "data-live-part")]
    gone: list[str] = []
    if first <= 1:  # every row: the sheet whole
        out.append(live_parts.marked(part.sheet_block(ctx["rows"]), "data-live-part"))
    else:
        out.append(live_parts.marked(str(part.sheet_open()), "data-live-attrs") + "</table>")
        rows = []
        for row in ctx["rows"]:
            html = str(part.hand_rows([row]))
            number = row["number"]
            after = [] if number <= low else [f'data-live-after="hand-{number - 1}"']  # new on some page on the way
            rows.append(live_parts.marked(html, "data-live-part", *after))
        deal = str(part.open_deal_row()).strip()
        if deal:
            rows.append(live_parts.marked(deal, "data-live-part", f'data-live-after="hand-{hands}"'))
        elif deal_changed:
            gone.append("open-deal")
        if rows:
            out.append("<table>" + "".join(rows) + "</table>")
        gone += [f"hand-{number}" for number in range(hands + 1, high + 1)]
    # What follows the sheet, each after the one before it where the phone's page may not have it yet.
    previous = "sheet"
    blocks = [("no-hands", part.no_hands_block, True)]
    if back:  # what the hands draw
        blocks += [
            ("chart", part.chart_block, low == 0),
            ("settlement", part.settlement_block, False),  # there or not by the options
            ("changes", part.changes_block, changes is not None and len(changes) == edited),
        ]
    for ident, block, new in blocks:
        html = str(block()).strip()
        if html:
            out.append(live_parts.marked(html, "data-live-part", *([f'data-live-after="{previous}"'] if new else [])))
            previous = ident
        elif (ident == "no-hands" and low == 0) or (ident == "chart" and hands == 0 < high):
            gone.append(ident)  # it may be on the phone's page: a page on the way had it
    every = str(live.FINISHED_SECONDS) if ctx["finished"] else None
    return live_parts.document(url_for("games.protokoll_live", game_id=game.id), state, every, out, gone)


def _macros(ctx: dict) -> Any:
    """The protokoll's parts (games/_protokoll.html) as callables, drawn in `ctx` as the page draws them."""
    template = current_app.jinja_env.get_template("games/_protokoll.html")
    current_app.update_template_context(ctx)
    return template.make_module(ctx)


def _protokoll_context(scored_game, club_table: dict | None, first: int = 1, changed=None, saved=None) -> dict:
    """The protokoll's own context (web/present.py), its rows from hand `first` on, its money through the kitty at a
    club's table whose evening settles so."""
    ctx = protokoll_context(scored_game, changed, saved=saved, first=first)
    if club_table and club_table["kitty"]:
        ctx["settlement"] = club_tables.through_kitty(ctx["settlement"])
    return ctx


def _protokoll_page(game_id: str) -> tuple[str, str]:
    """The protokoll and the tag of its state, from the same read."""
    club_table = club_tables.table_view(game_id)
    loaded = load(game_id)
    scored_game = club_tables.titled(loaded, club_table["title"]) if club_table else loaded
    key = phone.game_key(game_id)
    editable = service.may_edit(get_db(), scored_game.game, key)
    changed, saved = whole_number(request.args.get("changed")), whole_number(request.args.get("saved"))
    ctx = _protokoll_context(scored_game, club_table, changed=changed, saved=saved)
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
