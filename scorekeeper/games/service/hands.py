"""A hand added, replaced or deleted: checked in its place, stored with its line of the edit log, the scored game kept.

Each write comes in two forms: `adding_hand` gives the writer its answer inside the write (the with-block), and the
hand is committed only when the block ends without an error, so no write commits unless its answer says so (issue 43:
a hand answered 500 was kept); `add_hand` is the same write answered after it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from scorekeeper.core import GameOver, ScoredHand, play_on
from scorekeeper.core.messages import Msg
from scorekeeper.games import cache, deal
from scorekeeper.games.keys import may_edit
from scorekeeper.games.service.checks import (
    HandLimit,
    Stale,
    check_expected,
    check_version,
    done_before,
    hand_limit_message,
    hand_record,
    in_bounds,
    keyed,
    replayed,
    scored_hand,
)
from scorekeeper.games.service.scored import (
    Forbidden,
    NotFound,
    ScoredGame,
    authorise,
    game_row,
    load,
    remember,
    scored_game,
    slim,
    slim_scored,
)
from scorekeeper.storage import store, writing

P = ParamSpec("P")
T = TypeVar("T")


def as_dict(input: Mapping[str, Any]) -> dict[str, Any]:
    """A scored hand's input as it is stored: the scorer's own dict (shared with the stored hand kept), or a copy."""
    return input if type(input) is dict else dict(input)


def answering(write: Callable[P, AbstractContextManager[T]]) -> Callable[P, T]:
    """A write for a writer that draws its answer after it: what its with-block would be given."""

    @wraps(write)
    def answer(*args: P.args, **kwargs: P.kwargs) -> T:
        with write(*args, **kwargs) as given:
            return given

    return answer


@contextmanager
def adding_hand(
    db,
    game_id: str,
    raw: Any,
    key: Any,
    expected_number: int | None = None,
    idempotency_key: str | None = None,
    max_hands: int | None = None,
) -> Iterator[ScoredHand]:
    """Append a hand: checked in its place, stored as the scorer normalised it; the writer is given the scored hand.

    `expected_number` is the number the writer is entering; someone else got there first raises Stale.
    The same `idempotency_key` again answers the hand it made, as it is scored now, and adds nothing.
    A game that holds `max_hands` hands (the app's MAX_HANDS; None: no limit) refuses another with HandLimit.
    """
    check_expected(expected_number, "number")
    idempotency_key, request = keyed(idempotency_key, "added", None, raw)
    with writing(db):
        game = store.get_game(db, game_id)
        if game is None:
            raise NotFound("game")
        if not may_edit(db, game, key):
            raise Forbidden()
        done = done_before(db, game_id, idempotency_key, "added", request)
        before = scored_game(db, game)
        if done is not None:
            yield scored_hand(before, done.hand_id)
            return
        number = len(before.hands) + 1
        if expected_number is not None and expected_number != number:
            raise Stale(number - 1, game.version)
        if max_hands is not None and number > max_hands:
            raise HandLimit({"hands": hand_limit_message(max_hands)}, number)
        # The new hand is checked and scored in its place, going on from the scored game as it stands (the same as
        # replaying every hand, property-tested); a game already over refuses it as hand `number`.
        try:
            protokoll = play_on(before.protokoll, [raw])
        except GameOver as exc:
            if exc.number != number:
                raise
            raise GameOver(
                {"hand": Msg("the game is over; it takes no more hands (edit a hand to reopen it)")}, number
            ) from None
        in_bounds(protokoll, number)
        protokoll = slim_scored(protokoll, number - 1)
        scored = protokoll.hands[-1]
        record, stamp = store.add_hand(db, game_id, as_dict(scored.input))
        mark = store.log_edit(db, game_id, "added", number, record.id, None, record.input, at=stamp)
        # The deal in progress was played: its tricks (or a whole hand) completed it.
        closed = game.deal is not None and store.close_open_deal(db, game_id)
        if idempotency_key is not None:
            store.put_idempotency(db, game_id, idempotency_key, "added", request, record.id)
        # The new row as the write left it, not read again (tests/integration/test_lean_hand_entry.py holds it equal).
        now = store.after_hand_added(game, stamp, closed)
        size = cache.game_bytes((record,), before.size) if before.size else 0
        after = ScoredGame(now, before.hands + (record,), protokoll, mark, size)
        yield scored  # the writer draws its answer here: if that fails, the hand is rolled back
    remember(db, after)


@contextmanager
def replacing_hand(
    db,
    game_id: str,
    number: int,
    raw: Any,
    key: Any,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> Iterator[ScoredHand]:
    """Replace hand `number` and rescore everything after it; `expected_version` (the version the writer saw) and
    `idempotency_key` as in adding_hand. The writer is given the hand as scored now."""
    with _changing(db, game_id, number, raw, key, expected_version, idempotency_key, "edited") as (_, scored):
        assert scored is not None
        yield scored


@contextmanager
def deleting_hand(
    db, game_id: str, number: int, key: Any, expected_version: int | None = None, idempotency_key: str | None = None
) -> Iterator[ScoredGame]:
    """Delete hand `number`; the hands after it move up. The same `idempotency_key` again deletes nothing more. The
    writer is given the game as it is after."""
    with _changing(db, game_id, number, None, key, expected_version, idempotency_key, "deleted") as (after, _):
        yield after


@contextmanager
def _changing(
    db,
    game_id: str,
    number: int,
    raw: Any,
    key: Any,
    expected_version: int | None,
    idempotency_key: str | None,
    action: str,
) -> Iterator[tuple[ScoredGame, ScoredHand | None]]:
    """Hand `number` replaced by `raw` (action "edited") or deleted ("deleted"), every hand after it scored again:
    the writer is given the game as it is after and the changed hand as scored (None for a deletion)."""
    deleting = action == "deleted"
    check_expected(expected_version, "version")
    idempotency_key, request = keyed(idempotency_key, action, number, raw)
    with writing(db):
        before = load(db, game_id)
        authorise(db, before, key)
        done = done_before(db, game_id, idempotency_key, action, request)
        if done is not None:
            yield before, None if deleting else scored_hand(before, done.hand_id)
            return
        check_version(before, expected_version)
        record = hand_record(before, number)
        inputs = [h.input for h in before.hands]
        if deleting:
            del inputs[number - 1]
        else:
            inputs[number - 1] = raw
        protokoll = replayed(before, inputs, number, deleted=deleting)
        deal.still_fits(before, protokoll, number)
        after, scored = None, None
        if deleting:
            store.delete_hand(db, game_id, record.id)
            mark = store.log_edit(db, game_id, action, number, record.id, record.input, None)
            hands, kept = slim(before.hands[: number - 1] + before.hands[number:], protokoll)
            after = ScoredGame(game_row(db, game_id), hands, kept, mark)
        else:
            in_bounds(protokoll, number)
            scored = protokoll.hands[number - 1]
            if dict(scored.input) != record.input:
                changed = store.update_hand(db, game_id, record.id, as_dict(scored.input))
                mark = store.log_edit(db, game_id, action, number, record.id, record.input, changed.input)
                hands, kept = slim(before.hands[: number - 1] + (changed,) + before.hands[number:], protokoll)
                after = ScoredGame(game_row(db, game_id), hands, kept, mark)
        if idempotency_key is not None:
            store.put_idempotency(db, game_id, idempotency_key, action, request, record.id)
        yield after or before, scored  # the writer draws its answer here: if that fails, the change is rolled back
    if after is not None:
        remember(db, after)


add_hand = answering(adding_hand)  # each the same write, answered after it
replace_hand = answering(replacing_hand)
delete_hand = answering(deleting_hand)
