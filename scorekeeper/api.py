"""The JSON API: thin routes over service; errors as {"errors": {field: message}}."""
from __future__ import annotations

from flask import Blueprint, jsonify, request, url_for
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from . import service
from .db import get_db
from .present import game_dict, hand_dict, settlement_dict
from .scoring import GameOver, InputError

bp = Blueprint("api", __name__, url_prefix="/api")


def error(status: int, errors: dict):
    return jsonify({"errors": errors}), status


@bp.errorhandler(InputError)
def _input_error(exc):
    return error(409 if isinstance(exc, GameOver) else 400, exc.errors)


@bp.errorhandler(service.NotFound)
def _not_found(exc):
    what = str(exc) or "game"
    return error(404, {what: f"no such {what}"})


@bp.errorhandler(service.Forbidden)
def _forbidden(exc):
    return error(403, {"X-Edit-Key": "missing or wrong edit key for this game"})


@bp.errorhandler(service.Stale)
def _stale(exc):
    return error(409, {"number": f"someone else just entered hand {exc.latest}; reload the game"})


@bp.errorhandler(HTTPException)
def _http_error(exc):
    if isinstance(exc, RequestEntityTooLarge):
        return error(413, {"body": "is too large (at most 64 KiB)"})
    return error(exc.code or 500, {"request": exc.description or exc.name})


def body():
    """The request's JSON object, or a 400 that says why not."""
    data = request.get_json(silent=True, force=True) if request.get_data(cache=True) else None
    if not isinstance(data, dict):
        raise InputError({"body": "must be a JSON object (Content-Type: application/json, UTF-8)"})
    return data


def edit_key():
    return request.headers.get("X-Edit-Key")


@bp.post("/games")
def create_game():
    game_id, key = service.start_game(get_db(), body())
    out = game_dict(service.load(get_db(), game_id))
    out["edit_key"] = key
    out["edit_page"] = url_for("games.claim", game_id=game_id, key=key)
    return jsonify(out), 201, {"Location": url_for("api.game", game_id=game_id)}


@bp.get("/games/<game_id>")
def game(game_id):
    return jsonify(game_dict(service.load(get_db(), game_id)))


@bp.post("/games/<game_id>/hands")
def add_hand(game_id):
    scored = service.add_hand(get_db(), game_id, body(), edit_key())
    return jsonify(hand_dict(scored)), 201


def _number(number: str) -> int:
    if not number.isdigit():
        raise service.NotFound("hand")
    return int(number)


@bp.put("/games/<game_id>/hands/<number>")
def replace_hand(game_id, number):
    scored = service.replace_hand(get_db(), game_id, _number(number), body(), edit_key())
    return jsonify(hand_dict(scored))


@bp.delete("/games/<game_id>/hands/<number>")
def delete_hand(game_id, number):
    service.delete_hand(get_db(), game_id, _number(number), edit_key())
    return jsonify(game_dict(service.load(get_db(), game_id)))


@bp.get("/games/<game_id>/settlement")
def settlement(game_id):
    result = settlement_dict(service.load(get_db(), game_id))
    if result is None:
        return error(404, {"settlement": "this game is not played for money (no rate)"})
    return jsonify(result)
