"""The JSON API of whist drives: thin routes over drives/service.py, errors as the game API's, {"errors": {…}}."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from scorekeeper.core.messages import InputError, Msg
from scorekeeper.drives import service
from scorekeeper.drives.rules import OutOfTurn, Standing
from scorekeeper.games.api import body, edit_key, error
from scorekeeper.server import guard
from scorekeeper.server.db import get_db
from scorekeeper.web.i18n import language
from scorekeeper.web.messages import translate

bp = Blueprint("drives_api", __name__, url_prefix="/api/drives")
EDIT_KEY = "the drive's edit key; {what}, bounded by the drive's size"


@bp.errorhandler(InputError)
def _input_error(exc):
    return error(409 if isinstance(exc, OutOfTurn) else 400, exc.errors)


@bp.errorhandler(service.NotFound)
def _not_found(exc):
    return error(404, {"drive": Msg("no such drive")})


@bp.errorhandler(service.Forbidden)
def _forbidden(exc):
    return error(403, {"X-Edit-Key": Msg("missing or wrong edit key for this drive")})


@bp.errorhandler(HTTPException)
def _http_error(exc):
    if isinstance(exc, RequestEntityTooLarge):
        return error(413, {"body": Msg("is too large (at most 64 KiB)")})
    if exc.code == 429:
        return error(429, {"request": Msg("too many new games or drives from this address; try again in a minute")})
    if exc.code == 507:
        return error(507, {"storage": Msg("the server's storage is full: no new drives can be started")})
    return error(exc.code or 500, {"request": exc.description or exc.name})


def standings_list(standings: tuple[Standing, ...]) -> list[dict]:
    """The standings as API.md has them; a row for someone who did not play every hand (a substitute, or the one they
    replaced) has `place` null and `played` (hands), a lady playing as gent `lady_as_gent`, a couples pair with a
    substitute `formerly`."""
    out = []
    for s in standings:
        row: dict = {"names": list(s.names), "role": s.role, "total": s.total, "place": s.place}
        if not s.full:
            row["played"] = s.played
        if s.sat_out:
            row["sat_out"] = s.sat_out
        if s.lady_as_gent:
            row["lady_as_gent"] = True
        if s.formerly:
            row["formerly"] = list(s.formerly)
        out.append(row)
    return out


def prizes_list(scored_drive: service.ScoredDrive, money: dict | None, organiser: bool) -> list[dict]:
    """Each prize with its winners (names), how it stands, the countback reasons in the request's language, the lucky
    number drawn; its cost only for the organiser."""
    out = []
    for prize, given in zip((money or {}).get("prizes", []), service.awards(scored_drive, money)):
        row = {
            "kind": prize["kind"],
            "role": prize["role"],
            "place": prize["place"],
            "name": prize["name"],
            "status": given.status,
            "winners": list(given.names),
            "shared": given.shared,
            "drawn": given.drawn,
            "reasons": [translate(r) for r in given.reasons],
        }
        if given.number is not None:
            row["number"] = given.number
        if organiser:
            row["amount"] = prize["amount"]
        out.append(row)
    return out


def drive_dict(scored_drive: service.ScoredDrive, organiser: bool = False, money: dict | None = None) -> dict:
    """The drive as GET /api/drives/<id> answers it (never its edit key; its money only to the organiser)."""
    drive, setup = scored_drive.drive, scored_drive.setup
    odd = setup.empty_seats > 0

    def table(t) -> dict:
        row = {
            "table": t.table,
            "pairs": [list(setup.names(pair, t.hand)) for pair in t.pairs],
            "tricks": None if t.tricks is None else list(t.tricks),
        }
        if odd:
            row["plays"] = t.plays
        return row

    out = {
        "id": scored_drive.id,
        **setup.as_dict(),  # title, format, ladies and gents (or pairs), hands, trumps, interval_after, tie_break…
        "tables": setup.tables,
        "current": drive.current,
        "finished": drive.finished,
        "rounds": [{"hand": r.hand, "trump": r.trump, "tables": [table(t) for t in r.tables]} for r in drive.rounds],
        "standings": standings_list(drive.standings),
        "half_time": None if drive.half_time is None else standings_list(drive.half_time),
        "version": scored_drive.version,
        "links": {"json": f"/api/drives/{scored_drive.id}"},
    }
    again = scored_drive.move_again()
    if again:
        out["move_again"] = [
            {"name": name, "was": {"table": was[0], "seat": was[1]}, "now": {"table": now[0], "seat": now[1]}}
            for name, (was, now) in sorted(again.items(), key=lambda kv: kv[0].casefold())
        ]
    if money:
        out["prizes"] = prizes_list(scored_drive, money, organiser)
        if organiser:
            players = setup.players
            paid = sum(p["amount"] for p in money["prizes"])
            out["money"] = {
                "currency": money["currency"],
                "fee": money["fee"],
                "players": players,
                "takings": money["fee"] * players,
                "prizes": paid,
                "raised": money["fee"] * players - paid,
                "one_prize_each": money["one_prize_each"],
                "prize_ties": money["prize_ties"],
            }
    if organiser and scored_drive.replaced:
        out["replaced"] = [
            {
                "hand": r.hand,
                "table": r.table,
                "tricks": r.tricks,
                "sender": r.sender,
                "sent": r.sent,
                "by": {"tricks": r.by_tricks, "sender": r.by_sender, "at": r.at},
            }
            for r in scored_drive.replaced
        ]
    if scored_drive.final:
        out["prizes_given"] = scored_drive.record.prizes_given
    return out


def _answer(scored_drive: service.ScoredDrive, status: int = 200, **extra):
    organiser = service.may_edit(scored_drive, edit_key())
    out = drive_dict(scored_drive, organiser, service.money(get_db(), scored_drive.id, scored_drive.setup))
    out.update(extra)
    return jsonify(out), status


@bp.post("")
@guard.writes("drive")
def create_drive():
    config = current_app.config
    setup, money = service.split_money(body())
    drive_id, key = service.create_drive(
        get_db(),
        setup,
        money,
        max_tables=config["DRIVE_MAX_TABLES"],
        max_hands=config["DRIVE_MAX_HANDS"],
        language=language(),
    )
    scored_drive = service.load(get_db(), drive_id)
    out = drive_dict(scored_drive, True, service.money(get_db(), drive_id, scored_drive.setup))
    out["edit_key"] = key
    out["edit_page"] = service.edit_page(drive_id, key)
    return jsonify(out), 201, {"Location": f"/api/drives/{drive_id}"}


@bp.get("/<drive_id>")
def drive(drive_id):
    scored_drive = service.load(get_db(), drive_id)
    response, status = _answer(scored_drive)
    response.headers["ETag"] = f'"{scored_drive.version}"'
    return response, status


@bp.delete("/<drive_id>")
@guard.exempt("the drive's edit key; deletes a drive without results, which makes no rows")
def delete_drive(drive_id):
    service.delete_drive(get_db(), drive_id, edit_key())
    return "", 204


@bp.post("/<drive_id>/hands/<int:hand>/tables/<int:table>")
@guard.exempt(EDIT_KEY.format(what="replaces a table's result"))
def enter_result(drive_id, hand, table):
    scored_drive = service.enter_result(get_db(), drive_id, hand, table, body(), edit_key())
    return _answer(scored_drive, 201)


@bp.put("/<drive_id>/hands/<int:hand>/tables/<int:table>")
@guard.exempt(EDIT_KEY.format(what="the organiser corrects a table's result in a hand already seated"))
def correct_result(drive_id, hand, table):
    """The organiser's correction (API.md): the drive after it, plus `moved`, the names whose seat in a later hand
    changed; `"dry_run": true` answers what it would do and stores nothing."""
    scored_drive, change = service.correct_result(get_db(), drive_id, hand, table, body(), edit_key())
    return _answer(
        scored_drive,
        200,
        moved=change.moved_names,
        totals=[{"name": n, "before": a, "after": b} for n, a, b in change.totals],
    )


@bp.post("/<drive_id>/hands/<int:hand>/tables/<int:table>/settle")
@guard.exempt(EDIT_KEY.format(what="keeps the stored result a second phone sent"))
def settle(drive_id, hand, table):
    return _answer(service.settle_replaced(get_db(), drive_id, hand, table, edit_key()))


@bp.put("/<drive_id>/rules")
@guard.exempt(EDIT_KEY.format(what="the substitute and spare-seat rules"))
def rules(drive_id):
    return _answer(service.set_rules(get_db(), drive_id, body(), edit_key()))


@bp.post("/<drive_id>/rename")
@guard.exempt(EDIT_KEY.format(what="renames a player in place"))
def rename(drive_id):
    return _answer(service.rename_player(get_db(), drive_id, body(), edit_key()))


@bp.post("/<drive_id>/substitutes")
@guard.exempt(EDIT_KEY.format(what="a substitute takes a seat; at most one per seat and hand"))
def substitute(drive_id):
    return _answer(service.add_substitute(get_db(), drive_id, body(), edit_key()), 201)


@bp.put("/<drive_id>/prizes")
@guard.exempt(EDIT_KEY.format(what="writes the fee and the prizes anew, at most 60"))
def put_prizes(drive_id):
    return _answer(service.put_money(get_db(), drive_id, body(), edit_key(), language()))


@bp.post("/<drive_id>/prizes/draw")
@guard.exempt(EDIT_KEY.format(what="draws the cuts and lucky numbers the prizes wait for, one per prize"))
def draw(drive_id):
    return _answer(service.draw_prizes(get_db(), drive_id, edit_key()))


@bp.post("/<drive_id>/prizes/given")
@guard.exempt(EDIT_KEY.format(what="the prizes are given: the results are final"))
def given(drive_id):
    if request.content_length:
        body()  # an empty body or {}: nothing else is read
    return _answer(service.give_prizes(get_db(), drive_id, edit_key()))
