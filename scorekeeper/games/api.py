"""The JSON API: thin routes over service; errors as {"errors": {field: message}}."""

from __future__ import annotations

import re

from flask import Blueprint, current_app, jsonify, request, url_for
from flask_wtf.csrf import validate_csrf
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge
from wtforms.validators import ValidationError

from scorekeeper.core import GameOver, InputError, scored_context
from scorekeeper.core.messages import Msg, message_of
from scorekeeper.games import service
from scorekeeper.server import guard
from scorekeeper.server.db import get_db
from scorekeeper.variants.views import VIEWS
from scorekeeper.web import offline, phone
from scorekeeper.web.inputs import JSONRefused, read_json
from scorekeeper.web.messages import translate_errors
from scorekeeper.web.present import game_dict, hand_dict, open_deal_dict, settlement_dict

bp = Blueprint("api", __name__, url_prefix="/api")


def error(status: int, errors: dict):
    """Field names stay English; the messages speak the request's language (Accept-Language, or the lang cookie)."""
    return jsonify({"errors": translate_errors(errors, codes=True)}), status


@bp.errorhandler(InputError)
def _input_error(exc):
    return error(409 if isinstance(exc, GameOver) else 400, exc.errors)


@bp.errorhandler(service.NotFound)
def _not_found(exc):
    what = str(exc) or "game"
    if isinstance(exc, service.Deleted):
        return error(404, {"hand": Msg("this hand was saved, then deleted on another phone; it was not saved again")})
    said = {"game": Msg("no such game"), "hand": Msg("no such hand"), "bids": Msg("no deal is in progress")}
    return error(404, {what: said.get(what, Msg("not found"))})


@bp.errorhandler(service.Forbidden)
def _forbidden(exc):
    return error(403, {"X-Edit-Key": Msg("missing or wrong edit key for this game")})


@bp.errorhandler(service.Stale)
def _stale(exc):
    if exc.field == "version":
        message = Msg(
            "the game changed since you loaded it (it is at version %(version)d now); reload the game",
            version=exc.version,
        )
        errors = {"If-Match": message}
    elif exc.field == "bids":
        errors = {
            "If-Match": Msg(
                "the bids of hand %(n)d changed since you loaded them (they are at version %(version)d); reload the game",
                n=exc.latest + 1,
                version=exc.version,
            )
        }
    else:
        errors = {"number": Msg("someone else just entered hand %(n)d; reload the game", n=exc.latest)}
    return jsonify({"errors": translate_errors(errors, codes=True), "latest": exc.latest, "version": exc.version}), 409


@bp.errorhandler(HTTPException)
def _http_error(exc):
    if isinstance(exc, RequestEntityTooLarge):
        return error(413, {"body": Msg("is too large (at most 64 KiB)")})
    if exc.code == 429:
        if request.endpoint == "api.import_game":
            return error(429, {"request": Msg("too many imports from this address; try again in a minute")})
        return error(429, {"request": Msg("too many new games from this address; try again in a minute")})
    if exc.code == 507:
        return error(507, {"storage": Msg("the server's storage is full: no new games can be started")})
    return error(exc.code or 500, {"request": exc.description or exc.name})


def body():
    """The request's JSON object (UTF-8, no NaN or Infinity, bounded depth and numbers), or a 400 that says why not."""
    if not request.is_json:
        raise InputError({"body": Msg("must be JSON: send Content-Type: application/json")})
    raw = request.get_data(cache=True)
    try:
        data = read_json(raw.decode("utf-8"))
    except JSONRefused as exc:
        raise InputError({"body": message_of(exc)}) from None
    except (UnicodeDecodeError, ValueError, RecursionError):
        data = None
    if not isinstance(data, dict):
        raise InputError({"body": Msg("must be a JSON object (Content-Type: application/json, UTF-8)")})
    return data


def edit_key():
    return request.headers.get("X-Edit-Key")


def game_key(game_id: str) -> str | None:
    """The game's edit key: X-Edit-Key; or else, for the phone's own pages sending the hands they kept offline, the key
    the phone's session holds, only with one of its pages' CSRF tokens in X-CSRFToken (a cookie alone never writes:
    another site could make the browser send it). So no key needs to be kept on the phone outside its session: a
    phone whose cookies were cleared sends nothing for the next user."""
    key = edit_key()
    token = request.headers.get("X-CSRFToken")
    if key is not None or token is None:
        return key
    try:
        validate_csrf(token)
    except ValidationError:
        return None
    return phone.game_key(game_id)


def _whole_header(name: str) -> int | None:
    """An optional header that carries a whole number; If-Match may also quote it as an ETag ("7" or W/"7") or be *."""
    value = request.headers.get(name)
    if value is None:
        return None
    value = value.strip()
    if name == "If-Match":
        if value == "*":
            return None
        value = re.sub(r'^(?:W/)?"([0-9]+)"$', r"\1", value)
    if not re.fullmatch(r"[0-9]{1,9}", value):
        raise InputError({name: Msg("must be a whole number")})
    return int(value)


def idempotency_key():
    return request.headers.get("Idempotency-Key")


def _created(game_id: str, key: str):
    out = game_dict(service.load(get_db(), game_id))
    out["edit_key"] = key
    out["edit_page"] = url_for("games.claim", game_id=game_id, key=key)
    return jsonify(out), 201, {"Location": url_for("api.game", game_id=game_id)}


@bp.post("/games")
@guard.writes("new-game")
def create_game():
    return _created(*service.start_game(get_db(), body()))


@bp.post("/games/import")
@guard.writes("import")
def import_game():
    return _created(*service.import_game(get_db(), body(), max_hands=current_app.config.get("MAX_HANDS")))


@bp.get("/games/<game_id>")
def game(game_id):
    out = game_dict(service.load(get_db(), game_id))
    return jsonify(out), {"ETag": f'"{out["version"]}"'}


@bp.get("/games/<game_id>/export")
def export_game(game_id):
    out = service.export_game(get_db(), game_id)
    return jsonify(out), {"Content-Disposition": f'attachment; filename="scorekeeper-{game_id}.json"'}


@bp.get("/games/<game_id>/log")
def edit_log(game_id):
    return jsonify({"log": service.edit_log(get_db(), game_id)})


def _hand_body(game_id: str) -> dict:
    """The hand to add: the scorer's input, or {"form": {…}}, the hand entry page's fields as a phone kept them."""
    data = body()
    if list(data) == ["form"] and isinstance(data["form"], dict):
        return offline.posted_hand(service.load(get_db(), game_id), data["form"])
    return data


# A write's answer is drawn inside its transaction (service.adding_hand …): a hand is stored only when its answer was
# drawn, so no write commits that the writer is told failed (issue 43: a hand answered 500 was kept).


@bp.post("/games/<game_id>/hands")
@guard.exempt(guard.EDIT_KEY)
def add_hand(game_id):
    raw, view = _hand_body(game_id), _view(game_id)
    with service.adding_hand(
        get_db(),
        game_id,
        raw,
        game_key(game_id),
        expected_number=_whole_header("X-Hand-Number"),
        idempotency_key=idempotency_key(),
        max_hands=current_app.config.get("MAX_HANDS"),
    ) as scored:
        answer = jsonify(_hand_answer(scored, view))
    return answer, 201


def _view(game_id: str):
    """The game's variant's view and its table, for a hand as the game's answer lists it (its own fields: the deal's
    cards); read before the write, whose transaction no read of the kept game should see."""
    table = service.table_of(get_db(), game_id)
    return VIEWS[table.variant], table


def _hand_answer(scored, view_and_table) -> dict:
    """A hand as the API answers a write of it: with its variant's own fields, asked in the context it was scored in."""
    view, table = view_and_table
    before = tuple(t - p for t, p in zip(scored.totals, scored.points))
    return hand_dict(scored, view, scored_context(table, scored, before))


def _number(number: str) -> int:
    if not re.fullmatch(r"[0-9]{1,9}", number):
        raise service.NotFound("hand")
    return int(number)


@bp.put("/games/<game_id>/hands/<number>")
@guard.exempt(guard.EDIT_KEY)
def replace_hand(game_id, number):
    number, raw, view = _number(number), body(), _view(game_id)
    with service.replacing_hand(
        get_db(),
        game_id,
        number,
        raw,
        game_key(game_id),
        expected_version=_whole_header("If-Match"),
        idempotency_key=idempotency_key(),
    ) as scored:
        answer = jsonify(_hand_answer(scored, view))
    return answer


@bp.delete("/games/<game_id>/hands/<number>")
@guard.exempt(guard.EDIT_KEY)
def delete_hand(game_id, number):
    with service.deleting_hand(
        get_db(),
        game_id,
        _number(number),
        game_key(game_id),
        expected_version=_whole_header("If-Match"),
        idempotency_key=idempotency_key(),
    ) as after:
        answer = jsonify(game_dict(after))
    return answer


def _bids_body(game_id: str) -> dict:
    """The bids to enter: the bid fields, or {"form": {…}}, the bids page's fields as a phone kept them."""
    data = body()
    if list(data) == ["form"] and isinstance(data["form"], dict):
        return offline.posted_bids(service.load(get_db(), game_id), data["form"])
    return data


@bp.get("/games/<game_id>/bids")
def open_deal(game_id):
    """The deal in progress: its bids, dealer, leader and the version of its bids (also its ETag)."""
    scored_game = service.load(get_db(), game_id)
    out = open_deal_dict(scored_game)
    if out is None:
        raise service.NotFound("bids")
    return jsonify(out), {"ETag": f'"{out["version"]}"'}


@bp.put("/games/<game_id>/bids")
@guard.exempt(guard.EDIT_KEY)
def put_bids(game_id):
    """Enter or change the bids of the next deal before it is played; the tricks complete the hand later (POST
    /hands with the whole hand). X-Hand-Number names the deal, If-Match the version of the bids the writer saw."""
    existed = service.load(get_db(), game_id).game.deal is not None
    scored_game = service.put_bids(
        get_db(),
        game_id,
        _bids_body(game_id),
        game_key(game_id),
        expected_number=_whole_header("X-Hand-Number"),
        expected_version=_whole_header("If-Match"),
        idempotency_key=idempotency_key(),
        max_hands=current_app.config.get("MAX_HANDS"),
    )
    return jsonify(game_dict(scored_game)), 200 if existed else 201


@bp.delete("/games/<game_id>/bids")
@guard.exempt(guard.EDIT_KEY)
def clear_bids(game_id):
    scored_game = service.clear_bids(
        get_db(),
        game_id,
        game_key(game_id),
        expected_version=_whole_header("If-Match"),
        idempotency_key=idempotency_key(),
    )
    return jsonify(game_dict(scored_game))


@bp.get("/games/<game_id>/settlement")
def settlement(game_id):
    result = settlement_dict(service.load(get_db(), game_id))
    if result is None:
        return error(404, {"settlement": Msg("this game is not played for money (no rate)")})
    return jsonify(result)
