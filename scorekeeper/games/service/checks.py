"""What every write to a game checks before it changes anything: the idempotency key and what it asked for the first
time, the number or version the writer saw, the bounds of the points; and the replay that says which other hand a
change does not fit."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from scorekeeper.core import GameOver, InputError, Protokoll, ScoredHand, deal_sizes, is_int, play
from scorekeeper.core.messages import Msg, field_messages
from scorekeeper.core.numbers import DIGITS_MAX, small
from scorekeeper.games.service.scored import NotFound, ScoredGame
from scorekeeper.storage import store

IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,255}")


class Deleted(NotFound):
    """The write sent again under its idempotency key was done, but the hand it made or changed was deleted since (on
    another phone): nothing is done again."""


class HandLimit(GameOver):
    """The game already holds the most hands a game may have (the app's MAX_HANDS): it takes no more."""


class Stale(Exception):
    """Someone else changed the game first: `latest` is the number of the newest hand, `version` the game's version now.

    `field` says what the writer sent that no longer holds: the hand "number" it was entering, or the "version" it saw.
    """

    def __init__(self, latest: int, version: int | None = None, field: str = "number"):
        super().__init__(latest)
        self.latest = latest
        self.version = version
        self.field = field


def hand_limit_message(max_hands: int) -> Msg:
    return Msg("a game takes at most %(max)d hands; start a new game to play on", max=max_hands)


def keyed(key: Any, action: str, number: int | None, raw: Any) -> tuple[str | None, str]:
    """The write's idempotency key, checked, and the fingerprint of what it asks for (made only when a key is sent)."""
    if key is None:
        return None, ""
    if not isinstance(key, str) or not IDEMPOTENCY_KEY.fullmatch(key):
        raise InputError({"Idempotency-Key": Msg("must be 1 to 255 printable ASCII characters without spaces")})
    return key, fingerprint(action, number, raw)


def check_expected(value: Any, field: str) -> None:
    if value is not None and not is_int(value):
        raise InputError({field: Msg("must be a whole number")})


def fingerprint(action: str, number: int | None, raw: Any) -> str:
    """What a write asked for, so that a key sent again with a different request is refused rather than ignored."""
    try:
        text = json.dumps([action, number, raw], sort_keys=True, default=repr)
    except (TypeError, ValueError):
        text = repr([action, number, raw])
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def done_before(db, game_id: str, key: str | None, action: str, request: str) -> store.IdempotencyRecord | None:
    """The write already done under this idempotency key, if any."""
    if key is None:
        return None
    done = store.get_idempotency(db, game_id, key)
    if done is not None and (done.action != action or done.request != request):
        raise InputError({"Idempotency-Key": Msg("was already used for another change to this game; send a new key")})
    return done


def scored_hand(scored_game: ScoredGame, hand_id: int | None) -> ScoredHand:
    """The hand stored under this row id as it is scored now; Deleted if it is gone."""
    for i, hand in enumerate(scored_game.hands):
        if hand.id == hand_id:
            return scored_game.protokoll.hands[i]
    raise Deleted("hand")


def check_version(scored_game: ScoredGame, expected_version: Any) -> None:
    check_expected(expected_version, "version")
    if expected_version is not None and expected_version != scored_game.game.version:
        raise Stale(len(scored_game.hands), scored_game.game.version, "version")


def hand_record(scored_game: ScoredGame, number: Any) -> store.HandRecord:
    if not is_int(number) or not 1 <= number <= len(scored_game.hands):
        raise NotFound("hand")
    return scored_game.hands[number - 1]


def in_bounds(protokoll: Protokoll, number: int) -> None:
    """Hand `number` and those after it write their points and totals in bounds (numbers.small): a house stored before
    the bound on exact points (docs/operations.md "Input bounds") cannot make a page, an answer or a paper fail."""
    for hand in protokoll.hands[number - 1 :]:
        if not all(map(small, hand.points + hand.totals)):
            raise InputError(
                {
                    "hand": Msg(
                        "this would make the game's exact points longer than %(digits)d digits over %(digits)d: its "
                        "house keeps fractions too fine; start a new game with simpler ones",
                        digits=DIGITS_MAX,
                    )
                },
                number,
            )


def replayed(scored_game: ScoredGame, inputs: list, changed: int, deleted: bool = False) -> Protokoll:
    """Replay with a change at hand `changed`; an error in another hand names it by its number before the change."""
    try:
        return play(scored_game.setup, inputs)
    except InputError as exc:
        if exc.number is None or (exc.number == changed and not deleted):
            raise
        number = exc.number + 1 if deleted and exc.number >= changed else exc.number
        kind = GameOver if isinstance(exc, GameOver) else InputError
        sizes = deal_sizes(scored_game.setup) or ()
        if deleted and number != exc.number and number <= len(sizes) and sizes[number - 1] != sizes[exc.number - 1]:
            raise kind(
                {
                    "hand": Msg(
                        "Hand %(deleted)d cannot be deleted: the hands after it would each move up a deal, and hand "
                        "%(n)d (cards: %(old)d) does not fit hand %(m)d (cards: %(new)d). Change or delete the later "
                        "hands first.",
                        deleted=changed,
                        n=number,
                        old=sizes[number - 1],
                        m=exc.number,
                        new=sizes[exc.number - 1],
                    )
                },
                changed,
            ) from None
        raise kind(
            {
                "hand": Msg(
                    "this change does not fit hand %(n)d: %(details)s", n=number, details=field_messages(exc.errors)
                )
            },
            changed,
        ) from None
