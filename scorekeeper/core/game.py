"""What a game is made of: its setup, the contexts the variant's hooks are asked in, a scored hand, the protokoll.

Frozen dataclasses, no behaviour beyond a few derived numbers. The two contexts are the variant contract's one way
of telling a hook where it is (core/contract.py): a hook reads the fields it needs, so a field added here later
breaks no variant.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.core.numbers import Point, exact

SUITS = ("hearts", "diamonds", "clubs", "spades")
NO_TRUMP = "none"  # the trump of a deal played without one, as inputs and the API spell it
TRUMPS = SUITS + (NO_TRUMP,)
Sides = tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Setup:
    """What a game is started with: variant, seats, first dealer and the full set of options."""

    variant: str
    players: tuple[str, ...]
    dealer: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def n(self) -> int:
        return len(self.players)


@dataclass(frozen=True, slots=True, kw_only=True)
class TableContext:
    """The table a game is (or will be) played at, as the game-level hooks see it: how many sit at it and their
    names where known (a blank sheet may have none), the first dealer (None: not yet known), the options.

    Built by core.table_context; every hook receives it (a HandContext is one too)."""

    variant: str
    n_players: int
    options: Mapping[str, Any] = field(default_factory=dict)
    players: tuple[str | None, ...] = ()
    first_dealer: int | None = 0

    @property
    def n(self) -> int:
        return self.n_players

    def dealer_of(self, number: int) -> int | None:
        """The seat that deals hand `number` by the default rule (the deal passes one seat clockwise), None if the
        first is unknown; a variant's own rule is its `dealer` hook (core/contract.py)."""
        return None if self.first_dealer is None else (self.first_dealer + number - 1) % self.n_players


@dataclass(frozen=True, slots=True, kw_only=True)
class HandContext(TableContext):
    """One hand in its place, as the hand-level hooks see it: its number and dealer, the cards each player holds this
    deal, who sits out, the totals before it (some rules depend on the score) and the variant's own `state` folded
    over the hands before it (who is still in, who took most tricks: its `fold` hook). Built by core.hand_context
    from the variant's own `dealer`, `cards` and `sits_out`."""

    number: int
    dealer: int
    totals: tuple[Point, ...] = ()
    cards: int = 13
    sitting_out: int | None = None
    state: Any = None

    @property
    def playing(self) -> tuple[int, ...]:
        """The seats that hold cards this deal."""
        return tuple(s for s in range(self.n_players) if s != self.sitting_out)


@dataclass(frozen=True, slots=True)
class ScoredHand:
    """One hand as scored in its place: `game` is its game of a match (a rubber), `trump` the trump it was played in
    when the variant keeps it beside the input (classic: the rotation can fix it without the input saying it),
    `cards` how many cards each player held, `state` the variant's own state it was played in (before it)."""

    number: int
    dealer: int
    input: Mapping[str, Any]
    points: tuple[Point, ...]
    totals: tuple[Point, ...]
    leader: int
    sitting_out: int | None = None
    game: int | None = None
    trump: str | None = None
    cards: int = 13
    state: Any = None


@dataclass(frozen=True, slots=True)
class Match:
    """How a match of several games (a rubber) stands, so that replay can start each game at 0–0 and go on from it.

    `results` holds each game won: the winning side and the game's final totals.
    """

    to_win: int
    games_won: tuple[int, ...]
    results: tuple[tuple[int, tuple[Point, ...]], ...] = ()

    def won(self, side: int, totals: tuple[Point, ...]) -> Match:
        games_won = tuple(w + (s == side) for s, w in enumerate(self.games_won))
        return Match(self.to_win, games_won, self.results + ((side, totals),))

    @property
    def over(self) -> bool:
        return max(self.games_won) >= self.to_win

    @property
    def game(self) -> int:
        """The game being played, or the last one when the match is over."""
        return len(self.results) + (0 if self.over else 1)


@dataclass(frozen=True, slots=True)
class Protokoll:
    """A scored game: every hand with its points and running totals, and how the game stands.

    `games_won`, `game` and `match` are set in a match of several games (a rubber); `next_trump` when the rules
    fix the next deal's trump and `next_cards` the next deal's size, so that the sheet can say them before the hand
    is entered; `deals_left` when the game has a known number of deals; `state` the variant's own state folded over
    every hand (the state the next hand is played in).
    """

    setup: Setup
    sides: Sides
    hands: tuple[ScoredHand, ...]
    totals: tuple[Point, ...]
    next_dealer: int
    next_leader: int
    finished: bool
    winner: int | None
    games_won: tuple[int, ...] | None = None
    rubber_points: tuple[int, ...] | None = None
    deals_left: int | None = None
    game: int | None = None
    next_trump: str | None = None
    match: Match | None = None
    next_cards: int | None = None
    state: Any = None


@dataclass(frozen=True, slots=True)
class BidResult:
    """A hand's bid and how it went, for a club's statistics: the bidder, whether the bid was made, whether it was a
    bid played alone by its rules (a sol), and the partner (the bidder itself when it called its own ace)."""

    bidder: int
    made: bool
    alone: bool = False
    partner: int | None = None


def add(totals: tuple[Point, ...], points: tuple[Point, ...]) -> tuple[Point, ...]:
    """The running totals after a hand: exact sums, an int where whole (RULES.md "Exact points")."""
    out = tuple(map(operator.add, totals, points))
    for p in points:
        if type(p) is not int:  # only a Fraction can make a total whole again
            return tuple(map(exact, out))
    return out


def one_seat_a_side(n: int) -> Sides:
    """Each player scores alone."""
    return tuple((s,) for s in range(n))


def partnerships(n: int, k: int = 2) -> Sides:
    """k partnerships with seat s on side s mod k, so no two partners sit side by side (four: 0 & 2 against 1 & 3)."""
    return tuple(tuple(range(side, n, k)) for side in range(k))
