"""The deal in progress: its bids entered or changed before it is played, or cleared (games/deal.py says what it is)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from scorekeeper.core import VARIANTS, GameOver, InputError
from scorekeeper.core.messages import Msg
from scorekeeper.games.deal import next_context
from scorekeeper.games.service.checks import HandLimit, Stale, check_expected, done_before, hand_limit_message, keyed
from scorekeeper.games.service.scored import NotFound, ScoredGame, authorise, game_row, load, remember
from scorekeeper.storage import store, writing


def put_bids(
    db,
    game_id: str,
    raw: Any,
    key: Any,
    expected_number: int | None = None,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    max_hands: int | None = None,
) -> ScoredGame:
    """Enter or change the bids of the deal in progress (the next hand), checked in its place by the variant, kept as
    entered until its tricks complete the hand. `expected_number` is the hand the writer enters bids for,
    `expected_version` the version of the bids it saw (0: none); a key sent again answers the game as it is now."""
    check_expected(expected_number, "number")

    def enter(scored_game: ScoredGame) -> None:
        game = scored_game.game
        number = len(scored_game.hands) + 1
        if expected_number is not None and expected_number != number:
            raise Stale(number - 1, game.deal_version)
        if expected_version is not None and expected_version != game.deal_version:
            raise Stale(number - 1, game.deal_version, "bids")
        if max_hands is not None and number > max_hands:
            raise HandLimit({"hands": hand_limit_message(max_hands)}, number)
        if scored_game.protokoll.finished:
            raise GameOver({"hand": Msg("the game is over; it takes no more hands (edit a hand to reopen it)")}, number)
        try:
            bids = VARIANTS[game.variant].check_bids(raw, next_context(scored_game))
        except InputError as exc:
            exc.number = number
            raise
        if bids != game.deal:
            store.put_open_deal(db, game_id, bids)

    return _changed_bids(db, game_id, key, expected_version, idempotency_key, "bids", raw, enter)


def clear_bids(
    db, game_id: str, key: Any, expected_version: int | None = None, idempotency_key: str | None = None
) -> ScoredGame:
    """No deal in progress: its bids cleared (NotFound when there were none). The same key again clears nothing more."""

    def clear(scored_game: ScoredGame) -> None:
        game = scored_game.game
        if expected_version is not None and expected_version != game.deal_version:
            raise Stale(len(scored_game.hands), game.deal_version, "bids")
        if game.deal is None:
            raise NotFound("bids")
        store.close_open_deal(db, game_id)

    return _changed_bids(db, game_id, key, expected_version, idempotency_key, "bids cleared", None, clear)


def _changed_bids(
    db,
    game_id: str,
    key: Any,
    expected_version: int | None,
    idempotency_key: str | None,
    action: str,
    raw: Any,
    change: Callable[[ScoredGame], None],
) -> ScoredGame:
    """The bids' write: `change` made to the game as it stands, once per idempotency key; answers the game after."""
    check_expected(expected_version, "version")
    idempotency_key, request = keyed(idempotency_key, action, None, raw)
    with writing(db):
        scored_game = load(db, game_id)
        authorise(db, scored_game, key)
        if done_before(db, game_id, idempotency_key, action, request) is None:
            change(scored_game)
            if idempotency_key is not None:
                store.put_idempotency(db, game_id, idempotency_key, action, request, None)
        after = replace(scored_game, game=game_row(db, game_id))
    remember(db, after)
    return after
