"""The game pages' blueprint and what they share: the game or a 404, the game this phone may edit."""

from __future__ import annotations

from flask import Blueprint, abort

from scorekeeper.clubs.pages import tables as club_tables
from scorekeeper.games import service
from scorekeeper.server.db import get_db
from scorekeeper.web import phone

bp = Blueprint("games", __name__)


def load(game_id):
    try:
        return service.load(get_db(), game_id)
    except service.NotFound:
        abort(404)


def editable(game_id):
    """The sheet, if this phone holds the game's edit key; otherwise 403."""
    scored_game = load(game_id)
    key = phone.game_key(game_id)
    if service.key_matches(scored_game.game, key) and service.handed_expired(get_db(), scored_game.game, key):
        abort(club_tables.code_expired(403))
    if not service.key_matches(scored_game.game, key):
        abort(403)
    return scored_game
