"""A drive's names and shapes: its formats and limits, the people, the setup, a hand at a table, a round, a standing, the drive as played."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.core.messages import InputError

FORMATS = ("progressive", "couples")
TIE_BREAKS = ("share", "countback")
MOVEMENTS = ("winners", "fresh")
# What a drive does with spare seats (a lady's and a gent's seat its people leave empty): "dummy" lets them travel by
# the movement, so the tables they come to play with an open dummy; "sit_out" keeps them together as one partnership,
# so that one table sits out each hand and its two players score the sit-out tricks, in turn.
SPARE_SEATS = ("dummy", "sit_out")
# What a substitute's card is: "continue" (the substitute carries on the leaver's card, as most drives do: one card,
# one number, placed) or "new" (a card of their own, and neither card is placed).
SUBSTITUTE_CARDS = ("continue", "new")
DEFAULT_TRUMPS = ("hearts", "clubs", "diamonds", "spades")
DEFAULT_HANDS = 24
# A player who sits out a hand scores this many tricks unless the drive says otherwise: the hand's average, 6½,
# rounded in favour of the one who could not play. "average" gives each their own average instead.
DEFAULT_SIT_OUT = 7
SIT_OUT_AVERAGE = "average"
# The bounds make_drive applies unless its caller gives its own (the app gives DRIVE_MAX_TABLES and DRIVE_MAX_HANDS);
# a stored drive is read back with none, whatever bound it was started under.
MAX_HANDS = 100
MAX_TABLES = 100
MAX_TRUMPS = 100
MAX_SUBSTITUTES = 200
MAX_PRIZES = 60
MAX_PLACE = 400
TRICKS = 13
WINNING_TRICKS = 7
FIELDS = (
    "title",
    "format",
    "ladies",
    "gents",
    "pairs",
    "hands",
    "trumps",
    "interval_after",
    "tie_break",
    "movement",
    "sit_out",
    "ladies_as_gents",
    "substitutes",
    "spare_seats",
    "substitute_card",
)

# A partnership at a table: (lady seat, gent seat), each a seat number of its role (couples: pair p is (p, p), its
# first name in the lady seat, its second in the gent seat). A seat number at or past the list's length is empty.
Partnership = tuple[int, int]
Seating = tuple[tuple[Partnership, Partnership], ...]  # per table, from table 1: the two partnerships


class OutOfTurn(InputError):
    """A result for a hand that takes none now: not the hand being played (nor the one before it, while the hand being
    played has no result yet), or after the last hand."""


class SeatingChanged(OutOfTurn):
    """A result sent for a seating the table no longer has: a correction of the hand before seated this hand anew
    after the sender's page showed it. Stored, it would credit the hand to players who did not play it."""


@dataclass(frozen=True, slots=True)
class Person:
    """Someone who holds a seat for some hands: an original player (from hand 1) or a substitute (from `first`).

    `key` stays the same when the person is renamed ("lady:3", "gent:0", "sub:2"): draws and kept seatings use it.
    `number` is their card number (ladies first, then gents, then substitutes; couples: the pair's number).
    """

    key: str
    name: str
    role: str  # "lady" or "gent": the seat's role (couples: the pair's first or second name)
    seat: int
    first: int
    last: int
    number: int
    lady_as_gent: bool = False


@dataclass(frozen=True, slots=True)
class DriveSetup:
    """What a drive is started with, checked and with its defaults filled in, and the substitutes since."""

    format: str
    ladies: tuple[str, ...]
    gents: tuple[str, ...]
    hands: int = DEFAULT_HANDS
    trumps: tuple[str, ...] = DEFAULT_TRUMPS
    interval_after: int | None = None
    tie_break: str = "share"
    title: str | None = None
    movement: str = "winners"
    sit_out: int | str = DEFAULT_SIT_OUT
    ladies_as_gents: tuple[str, ...] = ()
    substitutes: tuple[tuple[int, str, str], ...] = ()  # (from hand, out, in) as entered
    spare_seats: str = "dummy"
    substitute_card: str = "continue"
    people: tuple[Person, ...] = field(default=(), compare=False)
    # (role, seat) → the people who hold the seat, by the hand they take it from: how holder finds one quickly
    seat_index: Mapping[tuple[str, int], tuple[Person, ...]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def tables(self) -> int:
        return max(1, math.ceil(max(len(self.ladies), len(self.gents)) / 2))

    @property
    def couples(self) -> bool:
        return self.format == "couples"

    @property
    def seats(self) -> int:
        """Seats of each role: two a table."""
        return 2 * self.tables

    @property
    def empty_seats(self) -> int:
        return 2 * self.seats - len(self.ladies) - len(self.gents)

    @property
    def players(self) -> int:
        """The people at the start (a pair counts as two)."""
        return len(self.ladies) + len(self.gents)

    def trump(self, hand: int) -> str:
        return self.trumps[(hand - 1) % len(self.trumps)]

    def holder(self, role: str, seat: int, hand: int = 1) -> Person | None:
        """Who holds seat `seat` of `role` in hand `hand`: the last to take it by then, or None for an empty seat."""
        found = None
        for person in self.seat_index.get((role, seat), ()):
            if person.first <= hand:
                found = person
        return found

    def names(self, pair: Partnership, hand: int = 1) -> tuple[str | None, str | None]:
        """The partnership's names in hand `hand` (None for an empty seat)."""
        lady, gent = self.holder("lady", pair[0], hand), self.holder("gent", pair[1], hand)
        return (lady.name if lady else None, gent.name if gent else None)

    def empty(self, role: str, seat: int) -> bool:
        return seat >= len(self.ladies if role == "lady" else self.gents)

    def person(self, key: str) -> Person | None:
        return next((p for p in self.people if p.key == key), None)

    def by_name(self, name: str) -> Person | None:
        folded = name.casefold()
        return next((p for p in self.people if p.name.casefold() == folded), None)

    def as_dict(self) -> dict[str, Any]:
        """The setup as the API takes it (make_drive gives it back): what is stored. The fields a drive that fills
        its tables with the classic movement does not use are left out, so its shape stays as it always was."""
        people: dict[str, Any] = (
            {"pairs": [[lady, gent] for lady, gent in zip(self.ladies, self.gents)]}
            if self.couples
            else {"ladies": list(self.ladies), "gents": list(self.gents)}
        )
        out: dict[str, Any] = {
            "title": self.title,
            "format": self.format,
            **people,
            "hands": self.hands,
            "trumps": list(self.trumps),
            "interval_after": self.interval_after,
            "tie_break": self.tie_break,
        }
        if self.movement != "winners":
            out["movement"] = self.movement
        if self.empty_seats or self.sit_out != DEFAULT_SIT_OUT:
            out["sit_out"] = self.sit_out
        if self.ladies_as_gents:
            out["ladies_as_gents"] = list(self.ladies_as_gents)
        if self.substitutes:
            out["substitutes"] = [{"hand": h, "out": o, "in": i} for h, o, i in self.substitutes]
        if self.spare_seats != "dummy":
            out["spare_seats"] = self.spare_seats
        if self.substitute_card != "continue":
            out["substitute_card"] = self.substitute_card
        return out


@dataclass(frozen=True, slots=True)
class TableHand:
    """One table in one hand: its two partnerships as seated and the tricks each took (None until entered).

    `plays`: "all" (four players), "dummy" (one empty seat: its partner plays the open hand too) or "out" (two or
    more empty seats: the table does not play this hand and takes no result; its players sit out)."""

    table: int
    pairs: tuple[Partnership, Partnership]
    tricks: tuple[int, int] | None
    hand: int = 1
    plays: str = "all"

    @property
    def done(self) -> bool:
        return self.tricks is not None or self.plays == "out"


@dataclass(frozen=True, slots=True)
class Round:
    """One hand of the drive at every table."""

    hand: int
    trump: str
    tables: tuple[TableHand, ...]

    @property
    def complete(self) -> bool:
        return all(t.done for t in self.tables)

    @property
    def started(self) -> bool:
        return any(t.tricks is not None for t in self.tables)

    @property
    def seating(self) -> Seating:
        return tuple(t.pairs for t in self.tables)


@dataclass(frozen=True, slots=True)
class Standing:
    """A player (progressive) or a pair (couples) with the tricks taken so far and their place within their role.

    `place` is None for someone who did not play every hand counted (a substitute, or the player they replaced):
    listed, after those who did, but not placed. `by_hand` holds the tricks in hands 1, 2, … (a hand sat out scores
    the sit-out tricks, a hand not played 0): what countback reads from the end."""

    names: tuple[str, ...]
    role: str
    total: int
    place: int | None
    by_hand: tuple[int, ...]
    key: str = ""
    played: int = 0
    sat_out: int = 0
    number: int = 0
    lady_as_gent: bool = False
    formerly: tuple[str, ...] = ()  # who played on this card (couples: in this pair) before a substitute took over
    left: bool = False  # a player who left the drive (a substitute took their seat and a card of their own)

    @property
    def full(self) -> bool:
        return self.played == len(self.by_hand)


@dataclass(frozen=True, slots=True)
class Drive:
    """A drive as replayed: every hand seated so far, the hand being played, the standings.

    `current` is the hand whose results are being entered; once `finished` it stays at the last hand (whose results
    may still be corrected).
    """

    setup: DriveSetup
    rounds: tuple[Round, ...]
    current: int
    finished: bool
    standings: tuple[Standing, ...]
    half_time: tuple[Standing, ...] | None
