"""A club evening as it is played: its format (halves, deals per half, prizes), the draw of new tables at the break,
the evening's standings and its prizes. Pure: stdlib only, no Flask, no SQL.

The draw's rule, as docs/clubs.md states it:

1. Table sizes: everyone plays; the tables are of the club variant's table sizes, with as few tables of a larger
   size as the count allows (4 and 5: nine players are a table of four and one of five, ten are two of five). When
   no split seats everyone (4 and 5 cannot seat 6, 7 or 11), the most that can be seated are, and the rest sit out,
   drawn by lot among those who sat out least this evening.
2. Who sits with whom: the draw minimises the number of pairs of players who have already shared a table this
   evening (a pair that met twice counts twice). It searches exhaustively, branch and bound, within a budget of
   steps; a club's numbers finish well inside it (tests/unit/test_evening_draw.py checks the result against every
   possible split). Past the budget it keeps the best draw found.
3. By lot: the players are shuffled before the search and each table's seats after it, so among equally good draws
   chance decides who sits where, and seat 1 (the first dealer) is drawn too.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from scorekeeper.core.numbers import Point

HALVES_MAX = 6
DEALS_MAX = 60
PLACES_MAX = 10
SEARCH_BUDGET = 200_000

# The prizes besides the places, each a figure of the evening per member (the most wins): bids made as bidder, and
# bids played alone (a variant's bid_result says which) made.
PRIZE_KINDS = ("bids_made", "alone_made")


@dataclass(frozen=True)
class Format:
    """How a club plays an evening: `halves` rounds with new tables drawn between them, `deals` per half (None: as
    many as the table likes), and its prizes: the first `places` of the standings and the extra `prizes` (from
    PRIZE_KINDS)."""

    halves: int = 1
    deals: int | None = None
    places: int = 0
    prizes: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"halves": self.halves, "deals": self.deals, "places": self.places, "prizes": list(self.prizes)}


class FormatError(ValueError):
    """A format field out of its range; `field` names it, `low`/`high` its bounds."""

    def __init__(self, field: str, low: int = 0, high: int = 0):
        super().__init__(field)
        self.field, self.low, self.high = field, low, high


def read_format(data: Mapping[str, Any] | None) -> Format:
    """A format from stored or typed data (whole numbers already read); raises FormatError naming the field."""
    data = dict(data or {})
    halves = data.get("halves", 1)
    if not isinstance(halves, int) or isinstance(halves, bool) or not 1 <= halves <= HALVES_MAX:
        raise FormatError("halves", 1, HALVES_MAX)
    deals = data.get("deals")
    if deals is not None and (not isinstance(deals, int) or isinstance(deals, bool) or not 1 <= deals <= DEALS_MAX):
        raise FormatError("deals", 1, DEALS_MAX)
    places = data.get("places", 0)
    if not isinstance(places, int) or isinstance(places, bool) or not 0 <= places <= PLACES_MAX:
        raise FormatError("places", 0, PLACES_MAX)
    prizes = data.get("prizes") or ()
    if not isinstance(prizes, (list, tuple)) or any(p not in PRIZE_KINDS for p in prizes):
        raise FormatError("prizes")
    return Format(halves, deals, places, tuple(p for p in PRIZE_KINDS if p in prizes))


# ---------------------------------------------------------------- the draw


def table_sizes(count: int, sizes: Iterable[int]) -> tuple[int, ...]:
    """The tables for `count` players (rule 1): the most players seated, then the fewest tables larger than the
    smallest size; largest tables first. () when not even one table can be made."""
    allowed = sorted(set(sizes))
    if not allowed or count < allowed[0]:
        return ()
    small = allowed[0]
    # best[n]: (tables larger than the smallest, the split) seating exactly n; None if n cannot be split.
    best: list[tuple[int, tuple[int, ...]] | None] = [None] * (count + 1)
    best[0] = (0, ())
    for n in range(1, count + 1):
        for size in allowed:
            before = best[n - size] if size <= n else None
            if before is not None:
                large, split = before
                candidate = (large + (size != small), tuple(sorted(split + (size,), reverse=True)))
                current = best[n]
                if current is None or candidate < current:
                    best[n] = candidate
    for n in range(count, 0, -1):
        found = best[n]
        if found is not None:
            return found[1]
    return ()


def met(tables: Iterable[Iterable[Any]]) -> Counter:
    """How often each pair of players has shared a table (the pair as a frozenset)."""
    out: Counter = Counter()
    for table in tables:
        for a, b in combinations(sorted(set(table), key=repr), 2):
            out[frozenset((a, b))] += 1
    return out


def repeats(tables: Iterable[Iterable[Any]], before: Mapping[frozenset, int]) -> int:
    """The pairs of these tables that had shared a table before, each counted as often as they had."""
    return sum(before.get(frozenset((a, b)), 0) for t in tables for a, b in combinations(list(t), 2))


@dataclass(frozen=True)
class Draw:
    """New tables (players in seat order, seat 1 deals first), who sits out, and how many pairs meet again."""

    tables: tuple[tuple[Any, ...], ...]
    sitting_out: tuple[Any, ...] = ()
    repeats: int = 0
    complete: bool = True  # False: the budget ran out, the best draw found is kept
    extra: dict = field(default_factory=dict, compare=False)


def draw(
    players: Sequence[Any],
    earlier: Iterable[Iterable[Any]],
    sizes: Iterable[int],
    rng: random.Random,
    sat_out: Mapping[Any, int] | None = None,
    budget: int = SEARCH_BUDGET,
) -> Draw:
    """The draw of new tables for `players` after the `earlier` tables of the evening (rules 1–3 of the module)."""
    pool = list(dict.fromkeys(players))
    rng.shuffle(pool)
    split = table_sizes(len(pool), sizes)
    seated_count = sum(split)
    sat_out = sat_out or {}
    # Who sits out: those who sat out least, by lot among equals (the shuffle above).
    by_turns = sorted(pool, key=lambda p: sat_out.get(p, 0))
    out = tuple(by_turns[: len(pool) - seated_count])
    pool = [p for p in pool if p not in set(out)]
    before = met(earlier)
    tables, cost, complete = _search(_together(pool, before), split, before, budget)
    seated = []
    for t in tables:
        t = list(t)
        rng.shuffle(t)
        seated.append(tuple(t))
    return Draw(tuple(seated), out, cost, complete)


def _together(pool: list[Any], before: Mapping[frozenset, int]) -> list[Any]:
    """The pool in the order the search places it: each player followed by those they have met (in the drawn order),
    so that an earlier table's players are spread over the new tables first and a branch that puts two of them together
    is cut near the root (in the drawn order alone, 2 of 15,000 evenings of 16–32 players ran past the budget)."""
    placed: dict[Any, None] = {}
    for p in pool:
        if p not in placed:
            placed[p] = None
            for q in pool:
                if q not in placed and before.get(frozenset((p, q)), 0):
                    placed[q] = None
    return list(placed)


def _search(
    pool: list[Any], split: tuple[int, ...], before: Mapping[frozenset, int], budget: int
) -> tuple[list[list[Any]], int, bool]:
    """Branch and bound: players placed one by one into the tables (an empty table of a size is tried once, so
    tables of one size are not tried in every order); a branch whose cost reaches the best found is cut."""
    if not split:
        return [], 0, True
    weight = {(a, b): before.get(frozenset((a, b)), 0) for a in pool for b in pool if a != b}
    tables: list[list[Any]] = [[] for _ in split]
    best: list[Any] = [None, None]  # cost, tables
    steps = [0]

    # A first answer to bound by: each player, in turn, where they add least.
    greedy: list[list[Any]] = [[] for _ in split]
    for p in pool:
        options = [i for i, t in enumerate(greedy) if len(t) < split[i]]
        i = min(options, key=lambda i: (sum(weight[(p, q)] for q in greedy[i]), -(split[i] - len(greedy[i]))))
        greedy[i].append(p)
    best[0], best[1] = sum(weight[(a, b)] for t in greedy for a, b in combinations(t, 2)), [list(t) for t in greedy]

    def place(k: int, cost: int) -> None:
        if best[0] == 0 or steps[0] >= budget:
            return
        if k == len(pool):
            if cost < best[0]:
                best[0], best[1] = cost, [list(t) for t in tables]
            return
        p = pool[k]
        tried_empty: set[int] = set()
        for i, t in enumerate(tables):
            if len(t) >= split[i]:
                continue
            if not t:
                if split[i] in tried_empty:
                    continue
                tried_empty.add(split[i])
            added = sum(weight[(p, q)] for q in t)
            if cost + added >= best[0]:
                continue
            steps[0] += 1
            t.append(p)
            place(k + 1, cost + added)
            t.pop()

    place(0, 0)
    return best[1], best[0], steps[0] < budget or best[0] == 0


# ---------------------------------------------------------------- standings and prizes


@dataclass(frozen=True)
class Standing:
    """A member's evening: points in all (the figure the places go by), points per half, and the extra figures."""

    member: Any
    points: Point
    halves: tuple[Point, ...] = ()
    figures: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Place:
    """A member's place in the standings; `shared` when another member has the same place."""

    member: Any
    place: int
    shared: bool = False


def ranked(standings: Iterable[Standing]) -> tuple[Place, ...]:
    """The evening's standings by the stated tie rule: more points first; equal points go by the last half's points,
    then the half before (countback); still equal, they share the place (the next place is skipped)."""

    def key(s: Standing) -> tuple:
        return (-s.points, *(-h for h in reversed(s.halves)))

    order = sorted(standings, key=lambda s: (key(s), repr(s.member)))
    out = []
    for s in order:
        place = next(j for j, o in enumerate(order) if key(o) == key(s)) + 1
        tied = sum(1 for o in order if key(o) == key(s)) > 1
        out.append(Place(s.member, place, tied))
    return tuple(out)


@dataclass(frozen=True)
class Prize:
    """A prize of the evening: a place (`kind` "place", `place` n) or an extra kind, its winners (all who share it)
    and the figure it was won with."""

    kind: str
    winners: tuple[Any, ...]
    value: Point
    place: int = 0


def prizes(standings: Sequence[Standing], fmt: Format) -> tuple[Prize, ...]:
    """The places 1 … fmt.places (a shared place is one prize for each who shares it), then each extra prize: the
    most of its figure, all who have the most share it; nobody wins an extra prize with 0."""
    out: list[Prize] = []
    by_member = {s.member: s for s in standings}
    for p in ranked(standings):
        if p.place > fmt.places:
            break
        if out and out[-1].kind == "place" and out[-1].place == p.place:
            last = out[-1]
            out[-1] = Prize("place", last.winners + (p.member,), last.value, last.place)
        else:
            out.append(Prize("place", (p.member,), by_member[p.member].points, p.place))
    for kind in fmt.prizes:
        most = max((s.figures.get(kind, 0) for s in standings), default=0)
        if most > 0:
            winners = tuple(s.member for s in standings if s.figures.get(kind, 0) == most)
            out.append(Prize(kind, winners, most))
    return tuple(out)
