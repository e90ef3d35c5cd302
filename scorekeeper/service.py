"""What the pages and the API do to a game: check, replay, store. No HTTP here, and no arithmetic of its own."""
from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from . import store
from .db import writing
from .scoring import GameOver, InputError, Protokoll, Setup, check_name, make_setup, play


class NotFound(Exception):
    """No such game or hand."""


class Forbidden(Exception):
    """The edit key is wrong or missing."""


@dataclass(frozen=True)
class Sheet:
    """A game as stored and as scored."""

    game: store.GameRecord
    hands: tuple[store.HandRecord, ...]
    protokoll: Protokoll

    @property
    def setup(self) -> Setup:
        return self.protokoll.setup


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def key_matches(game: store.GameRecord, key: Any) -> bool:
    """Constant-time comparison of a presented edit key with the stored hash."""
    if not isinstance(key, str) or not key:
        return False
    return hmac.compare_digest(hash_key(key), game.edit_key_hash)


def setup_of(game: store.GameRecord) -> Setup:
    return Setup(game.variant, game.players, game.dealer, game.options)


def start_game(db, data: Any) -> tuple[str, str]:
    """Check and store a new game; answer (game id, edit key)."""
    if not isinstance(data, dict):
        raise InputError({"body": "must be a JSON object with variant, players, dealer, title and options"})
    unknown = sorted(set(data) - {"variant", "players", "dealer", "title", "options"})
    errors = {k: "unknown field" for k in unknown}
    title = None
    try:
        title = check_name(data.get("title"), "the title", required=False, limit=80)
    except ValueError as exc:
        errors["title"] = str(exc)
    try:
        setup = make_setup(data.get("variant"), data.get("players"), data.get("dealer", 0), data.get("options"))
    except InputError as exc:
        errors.update(exc.errors)
    if errors:
        raise InputError(errors)
    game_id = secrets.token_urlsafe(8)
    key = secrets.token_urlsafe(24)
    with writing(db):
        store.insert_game(db, id=game_id, variant=setup.variant, title=title, players=setup.players,
                          dealer=setup.dealer, options=dict(setup.options), edit_key_hash=hash_key(key))
    return game_id, key


def load(db, game_id: str) -> Sheet:
    game = store.get_game(db, game_id)
    if game is None:
        raise NotFound("game")
    hands = tuple(store.get_hands(db, game_id))
    return Sheet(game, hands, play(setup_of(game), [h.input for h in hands]))


def authorise(sheet: Sheet, key: Any) -> None:
    if not key_matches(sheet.game, key):
        raise Forbidden()


def _replay(sheet: Sheet, inputs: list, changed: int, deleted: bool = False) -> Protokoll:
    """Replay with a change at hand `changed`; an error in another hand names it by its number before the change."""
    try:
        return play(sheet.setup, inputs)
    except InputError as exc:
        if exc.number is None or (exc.number == changed and not deleted):
            raise
        number = exc.number + 1 if deleted and exc.number >= changed else exc.number
        kind = GameOver if isinstance(exc, GameOver) else InputError
        raise kind({"hand": f"this change does not fit hand {number}: " + "; ".join(
            f"{k} {v}" for k, v in exc.errors.items())}, changed) from None


def add_hand(db, game_id: str, raw: Any, key: Any, expected_number: int | None = None):
    """Append a hand: checked in its place, stored as the scorer normalised it. Answers the scored hand."""
    with writing(db):
        sheet = load(db, game_id)
        authorise(sheet, key)
        number = len(sheet.hands) + 1
        if sheet.protokoll.finished:
            raise GameOver({"hand": "the game is over; it takes no more hands (edit a hand to reopen it)"}, number)
        if expected_number is not None and expected_number != number:
            raise Stale(number - 1)
        protokoll = play(sheet.setup, [h.input for h in sheet.hands] + [raw])
        scored = protokoll.hands[-1]
        store.insert_hand(db, game_id, dict(scored.input))
    return scored


def _hand_record(sheet: Sheet, number: Any) -> store.HandRecord:
    if not isinstance(number, int) or not 1 <= number <= len(sheet.hands):
        raise NotFound("hand")
    return sheet.hands[number - 1]


def replace_hand(db, game_id: str, number: int, raw: Any, key: Any):
    with writing(db):
        sheet = load(db, game_id)
        authorise(sheet, key)
        record = _hand_record(sheet, number)
        inputs = [h.input for h in sheet.hands]
        inputs[number - 1] = raw
        protokoll = _replay(sheet, inputs, number)
        scored = protokoll.hands[number - 1]
        store.update_hand(db, game_id, record.id, dict(scored.input))
    return scored


def delete_hand(db, game_id: str, number: int, key: Any) -> None:
    with writing(db):
        sheet = load(db, game_id)
        authorise(sheet, key)
        record = _hand_record(sheet, number)
        inputs = [h.input for h in sheet.hands]
        del inputs[number - 1]
        _replay(sheet, inputs, number, deleted=True)
        store.delete_hand(db, game_id, record.id)


class Stale(Exception):
    """Someone else entered a hand first: `latest` is the number of the newest hand."""

    def __init__(self, latest: int):
        super().__init__(latest)
        self.latest = latest
