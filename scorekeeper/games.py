"""The game pages: protokoll and claiming the edit right. The phone pages build on these."""
from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, session, url_for

from . import service
from .db import get_db
from .present import game_dict

bp = Blueprint("games", __name__)


def _load(game_id):
    try:
        return service.load(get_db(), game_id)
    except service.NotFound:
        abort(404)


@bp.get("/")
def home():
    return render_template("home.html")


@bp.get("/g/<game_id>")
def protokoll(game_id):
    sheet = _load(game_id)
    return render_template("games/protokoll.html", game=game_dict(sheet))


@bp.get("/g/<game_id>/k/<key>")
def claim(game_id, key):
    """The edit link: remembers the key in this phone's session, then shows the sheet."""
    sheet = _load(game_id)
    if not service.key_matches(sheet.game, key):
        abort(403)
    keys = dict(session.get("keys", {}))
    keys[game_id] = key
    session["keys"] = keys
    return redirect(url_for("games.protokoll", game_id=game_id))
