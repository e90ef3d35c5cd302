"""The JSON API of whist drives: thin routes over services/drives.py, errors as the game API's, {"errors": {…}}."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from scorekeeper.core.drives import OutOfTurn, Standing
from scorekeeper.core.messages import InputError, Msg
from scorekeeper.services import drives as service
from scorekeeper.web import guard
from scorekeeper.web.api.views import body, edit_key, error
from scorekeeper.web.db import get_db

bp = Blueprint("drives_api", __name__, url_prefix="/api/drives")


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
    return [{"names": list(s.names), "role": s.role, "total": s.total, "place": s.place} for s in standings]


def drive_dict(scored_drive: service.ScoredDrive) -> dict:
    """The drive as GET /api/drives/<id> answers it (never its edit key)."""
    drive, setup = scored_drive.drive, scored_drive.setup
    return {
        "id": scored_drive.id,
        **setup.as_dict(),  # title, format, ladies and gents (or pairs), hands, trumps, interval_after, tie_break
        "tables": setup.tables,
        "current": drive.current,
        "finished": drive.finished,
        "rounds": [
            {
                "hand": r.hand,
                "trump": r.trump,
                "tables": [
                    {
                        "table": t.table,
                        "pairs": [list(setup.names(pair)) for pair in t.pairs],
                        "tricks": None if t.tricks is None else list(t.tricks),
                    }
                    for t in r.tables
                ],
            }
            for r in drive.rounds
        ],
        "standings": standings_list(drive.standings),
        "half_time": None if drive.half_time is None else standings_list(drive.half_time),
        "version": scored_drive.version,
        "links": {"json": f"/api/drives/{scored_drive.id}"},
    }


@bp.post("")
@guard.writes("drive")
def create_drive():
    config = current_app.config
    drive_id, key = service.create_drive(
        get_db(), body(), max_tables=config["DRIVE_MAX_TABLES"], max_hands=config["DRIVE_MAX_HANDS"]
    )
    out = drive_dict(service.load(get_db(), drive_id))
    out["edit_key"] = key
    out["edit_page"] = service.edit_page(drive_id, key)
    return jsonify(out), 201, {"Location": f"/api/drives/{drive_id}"}


@bp.get("/<drive_id>")
def drive(drive_id):
    out = drive_dict(service.load(get_db(), drive_id))
    return jsonify(out), {"ETag": f'"{out["version"]}"'}


@bp.post("/<drive_id>/hands/<int:hand>/tables/<int:table>")
@guard.exempt("the drive's edit key; replaces a table's result, bounded by the drive's size")
def enter_result(drive_id, hand, table):
    scored_drive = service.enter_result(get_db(), drive_id, hand, table, body(), edit_key())
    return jsonify(drive_dict(scored_drive)), 201
