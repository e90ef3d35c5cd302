"""A game as stored and as scored: the scored game this worker keeps (games/cache.py), caught up on the hands another
worker added, or replayed from the stored hands; who may change it.

A replay reads every hand and scores it in its place; what makes it cheap when it must happen is that a game's
options are resolved once per stored text (`setup_of`): every game of the same card shares one options mapping, so
the variant's own work on them (the Danish house parsed from them) is done once, not once per game and request.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from scorekeeper.core import (
    InputError,
    Protokoll,
    ScoredHand,
    Setup,
    TableContext,
    play,
    play_on,
    stored_options,
    table_context,
)
from scorekeeper.games import cache
from scorekeeper.games.keys import may_edit
from scorekeeper.storage import file_of, reading, store

SETUPS_KEPT = 512  # distinct stored options (cards) resolved and kept per process: a night has a few dozen


class NotFound(Exception):
    """No such game or hand."""


class Forbidden(Exception):
    """The edit key is wrong or missing."""


@dataclass(frozen=True, slots=True)
class ScoredGame:
    """A game as stored and as scored."""

    game: store.GameRecord
    hands: tuple[store.HandRecord, ...]
    protokoll: Protokoll
    # The id of the newest edit log line it includes: from there a scored game kept by this worker catches up.
    mark: int | None = field(default=None, compare=False)
    # What it holds, as games/cache.py counts it (0: not counted yet): counted on as hands are added.
    size: int = field(default=0, compare=False)

    @property
    def setup(self) -> Setup:
        return self.protokoll.setup


_resolved: dict[tuple[str, int, int], tuple[Mapping[str, Any], Mapping[str, Any]]] = {}
_resolving = threading.Lock()


def setup_of(game: store.GameRecord) -> Setup:
    """The stored game's setup, its options as they score today (core.stored_options: a game stored before an option
    existed scores and shows as it did). Resolved once per options mapping, which store.get_game shares between the
    games stored with the same options: the same mapping for each (never changed in place)."""
    options, n = game.options, len(game.players)
    key = (game.variant, n, id(options))
    kept = _resolved.get(key)
    if kept is None or kept[0] is not options:  # the stored mapping is kept with it: its id is not taken again
        kept = (options, stored_options(game.variant, options, n))
        with _resolving:
            if len(_resolved) >= SETUPS_KEPT:
                _resolved.clear()
            _resolved[key] = kept
    return Setup(game.variant, game.players, game.dealer, kept[1])


def cache_key(db, game_id: str) -> tuple[str, str] | None:
    path = file_of(db)
    return None if path is None else (path, game_id)


def remember(db, scored_game: ScoredGame) -> None:
    """Keep a scored game as committed (never one with writes of an open transaction: they may yet be rolled back)."""
    key = cache_key(db, scored_game.game.id)
    if key is not None and not db.conn.in_transaction:
        if not scored_game.size:
            scored_game = replace(scored_game, size=cache.game_bytes(scored_game.hands))
        cache.games.put(key, scored_game, len(scored_game.hands), scored_game.size)


def slim(
    hands: tuple[store.HandRecord, ...], protokoll: Protokoll, start: int = 0
) -> tuple[tuple[store.HandRecord, ...], Protokoll]:
    """The stored hands from `start` on and the protokoll, as a kept game holds them (games/cache.py): each stored hand
    sharing its input with its scored hand where the scorer kept it as stored (a normalised input is stored so), and
    each scored hand from `start` on sharing its points with every hand scored alike and its totals' numbers with
    every total alike (one object each, not one per hand)."""
    scored = protokoll.hands
    out = []
    for i, hand in enumerate(hands, start):
        same = scored[i].input
        out.append(store.HandRecord(hand.id, same) if type(same) is dict and same == hand.input else hand)
    return tuple(out), slim_scored(protokoll, start)


def slim_scored(protokoll: Protokoll, start: int) -> Protokoll:
    """The protokoll with its hands from `start` on `shared`."""
    return replace(protokoll, hands=protokoll.hands[:start] + tuple(map(shared, protokoll.hands[start:])))


NUMBERS = 10_000  # the whole numbers of points and totals kept as one object each, from -NUMBERS to NUMBERS
_numbers = tuple(range(-NUMBERS, NUMBERS + 1))
_points: dict[tuple, tuple] = {}
POINTS_KEPT = 4096  # distinct points of a hand kept (a night's hands score a few hundred ways)
_HAND_FIELDS = tuple(f.name for f in fields(ScoredHand))


def _number(value: Any) -> Any:
    return _numbers[value + NUMBERS] if type(value) is int and -NUMBERS <= value <= NUMBERS else value


def shared(hand: ScoredHand) -> ScoredHand:
    """The scored hand with its points the one tuple of those points, and its totals' numbers the one object each."""
    points = _points.get(hand.points) if all(type(value) is int for value in hand.points) else hand.points
    if points is None:  # whole numbers only: a Fraction equal to another number is not taken for it
        points = tuple(map(_number, hand.points))
        if len(_points) >= POINTS_KEPT:
            _points.clear()
        _points[points] = points
    same = {name: getattr(hand, name) for name in _HAND_FIELDS}
    return ScoredHand(**same | {"points": points, "totals": tuple(map(_number, hand.totals))})


def caught_up(db, kept: ScoredGame, game: store.GameRecord) -> ScoredGame | None:
    """A kept scored game brought up to the game's row, if all that happened since is hands added (by another worker):
    then only those are scored. None if anything else changed (an edit, a deletion, the game's own fields)."""
    if (
        kept.mark is None
        or not kept.game.version < game.version
        or replace(kept.game.hands_part(), version=game.version, updated=game.updated) != game.hands_part()
    ):
        return None
    since = store.added_since(db, game.id, kept.mark)
    # Each change bumps the version once and logs one line: hands added and nothing else, or replay. Each line's hand
    # must still be there, after the kept ones, in order (an edit or a deletion since would have logged its own line).
    last = kept.hands[-1].id if kept.hands else 0
    added = tuple(hand for _, action, hand in since if action == "added" and hand is not None)
    if (
        len(since) != game.version - kept.game.version
        or len(added) != len(since)
        or any(hand.id <= before for hand, before in zip(added, (last,) + tuple(h.id for h in added)))
    ):
        return None
    try:
        protokoll = play_on(kept.protokoll, [h.input for h in added])
    except InputError:  # cannot be for hands that were checked when stored; a replay says which hand if it is
        return None
    added, protokoll = slim(added, protokoll, len(kept.hands))
    size = cache.game_bytes(added, kept.size) if kept.size else 0
    return ScoredGame(game, kept.hands + added, protokoll, since[-1][0], size)


def kept_game(db, game_id: str) -> ScoredGame | None:
    """The scored game this worker keeps of the game, up to date or not (the caller checks), or None."""
    key = cache_key(db, game_id)
    return cache.games.get(key) if key is not None else None


def scored_game(db, game: store.GameRecord) -> ScoredGame:
    """The game as scored: the scored game kept from the last time if its row is unchanged, else caught up or replayed.

    Inside a write transaction the reads see what the transaction sees; outside, they are made from one snapshot.
    """
    kept = kept_game(db, game.id)
    if kept is not None and kept.game == game:
        return kept
    if kept is not None and kept.game.hands_part() == game.hands_part():  # only the deal in progress changed
        dealt = replace(kept, game=game)
        remember(db, dealt)
        return dealt
    inside = db.conn.in_transaction  # a write transaction, which read `game`
    with reading(db):
        now = game if inside else store.get_game(db, game.id)
        if now is None:
            raise NotFound("game")
        scored: ScoredGame | None = caught_up(db, kept, now) if kept is not None else None
        if scored is None:
            hands = tuple(store.get_hands(db, now.id))
            hands, protokoll = slim(hands, play(setup_of(now), [h.input for h in hands]))
            scored = ScoredGame(now, hands, protokoll, store.last_edit(db, now.id))
    remember(db, scored)
    return scored


def game_row(db, game_id: str) -> store.GameRecord:
    """The game's row; NotFound if there is none."""
    game = store.get_game(db, game_id)
    if game is None:
        raise NotFound("game")
    return game


def load(db, game_id: str) -> ScoredGame:
    return scored_game(db, game_row(db, game_id))


def authorise(db, scored_game: ScoredGame, key: Any) -> None:
    if not may_edit(db, scored_game.game, key):
        raise Forbidden()


def variant_of(db, game_id: str) -> str:
    """A game's variant, which never changes: from the scored game this worker keeps, else from the game's row (no
    replay: the API asks it before a write, whose key is not checked yet); NotFound if there is no such game."""
    kept = kept_game(db, game_id)
    return kept.game.variant if kept is not None else game_row(db, game_id).variant


def table_of(db, game_id: str) -> TableContext:
    """A game's table (its variant, players, options), which a hand's answer is drawn with: as variant_of, from the
    scored game this worker keeps, else from the game's row."""
    kept = kept_game(db, game_id)
    return table_context(kept.setup if kept is not None else setup_of(game_row(db, game_id)))
