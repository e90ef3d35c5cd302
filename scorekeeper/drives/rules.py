"""Whist drives: many tables play the same numbered hands at once, players move after each hand by the drive's
movement, and each player (or pair) adds up the tricks their partnership took. Pure: the setup, the seating of every
hand, the standings and the prizes are replayed from what was entered (the tables' results, the seating of a hand
that was kept as played, the draws the app made), so nothing derived is ever stored.

The people. A progressive drive seats 2 ladies and 2 gents a table; a drive whose people do not fill whole tables
has *empty seats* (the last ones, by the lists' order) that move by the movement as a player would. A table with one
empty seat plays with a dummy (the empty seat's cards are laid open and played by its partner: dummy whist); a table
with two or more does not play that hand and each player there *sits out*, scoring the drive's `sit_out` tricks. A
substitute takes a player's seat from a hand on: the seat moves on as before, and the tricks of each hand stay with
whoever played it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from scorekeeper.core import TITLE_MAX, check_name, trimmed_name
from scorekeeper.core.fields import is_int, trick_pair
from scorekeeper.core.game import TRUMPS
from scorekeeper.core.messages import InputError, Msg, message_of

FORMATS = ("progressive", "couples")
TIE_BREAKS = ("share", "countback")
MOVEMENTS = ("winners", "fresh")
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
    formerly: tuple[str, ...] = ()  # couples: who played in this pair before a substitute took over

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


# ---------------------------------------------------------------- the setup


def kept_name(value: Any, what: str, *, required: bool = True, limit: int = 0) -> str | None:
    """A name as a drive stored it, read back: text, trimmed as check_name trims, but not held to today's rules of
    what a name may hold (they have grown stricter; a drive stored before must still open). `limit` is unused."""
    return trimmed_name(value, what, required=required)


def _names(
    value: Any, field: str, what: Callable[[int], Msg], errors: dict[str, str], check: Callable = check_name
) -> list[str]:
    if not isinstance(value, list):
        errors[field] = Msg("must be a list of names")
        return []
    names: list[str] = []
    for i, raw in enumerate(value):
        try:
            names.append(check(raw, ""))
        except ValueError:
            try:
                check(raw, what(i + 1))  # again, to say which name in words (a drive is read back often)
            except ValueError as exc:
                errors.setdefault(field, message_of(exc))
    return names


def _pairs(value: Any, errors: dict[str, str], check: Callable = check_name) -> tuple[list[str], list[str]]:
    if not isinstance(value, list) or not all(isinstance(p, list) and len(p) == 2 for p in value):
        errors["pairs"] = Msg('must be a list of pairs of names, such as [["Anna", "Bo"], ["Carl", "Dina"]]')
        return [], []
    firsts = _names([p[0] for p in value], "pairs", lambda n: Msg("pair %(n)d's first name", n=n), errors, check)
    seconds = _names([p[1] for p in value], "pairs", lambda n: Msg("pair %(n)d's second name", n=n), errors, check)
    return firsts, seconds


def _tables(ladies: int, gents: int, couples: bool, errors: dict[str, str], max_tables: int | None) -> None:
    """At least two tables, at most max_tables (None: no bound); at most one empty seat a table on average, so that
    every table but a few plays (the rest is what ladies playing as gents are for)."""
    field = "pairs" if couples else "ladies"
    if field in errors or "gents" in errors:
        return
    tables = math.ceil(max(ladies, gents) / 2)
    empty = 4 * tables - ladies - gents
    if tables < 2:
        errors[field] = (
            Msg("a couples drive has at least two tables: at least 3 pairs (not %(n)d)", n=ladies)
            if couples
            else Msg(
                "a drive has at least two tables: at least 3 ladies or 3 gents (not %(ladies)d ladies and "
                "%(gents)d gents)",
                ladies=ladies,
                gents=gents,
            )
        )
    elif max_tables is not None and tables > max_tables:
        errors[field] = Msg("a drive has at most %(max)d tables", max=max_tables)
    elif not couples and empty > tables:
        short = "gents" if gents < ladies else "ladies"
        errors[short] = Msg(
            "%(ladies)d ladies and %(gents)d gents leave %(empty)d empty seats at %(tables)d tables (at most one a "
            "table): list some of the ladies as ladies playing as gents",
            ladies=ladies,
            gents=gents,
            empty=empty,
            tables=tables,
        )


def _people(
    ladies: Sequence[str], gents: Sequence[str], couples: bool, as_gents: Sequence[str], hands: int
) -> list[Person]:
    as_gent = {n.casefold() for n in as_gents}
    people = [Person(f"lady:{i}", n, "lady", i, 1, hands, i + 1) for i, n in enumerate(ladies)]
    people += [
        Person(
            f"gent:{i}",
            n,
            "gent",
            i,
            1,
            hands,
            (i + 1) if couples else len(ladies) + i + 1,
            n.casefold() in as_gent,
        )
        for i, n in enumerate(gents)
    ]
    return people


def _substitutes(
    value: Any,
    people: list[Person],
    hands: int,
    couples: bool,
    as_gents: list[str],
    errors: dict[str, str],
    check: Callable = check_name,
) -> list[tuple[int, str, str]]:
    """Each {"hand", "out", "in"} in the order entered: from hand `hand` on, `in` (a new name) holds the seat `out`
    holds then. Adds the newcomers to `people` (and ends the leaver's hands) as it goes."""
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > MAX_SUBSTITUTES:
        errors["substitutes"] = Msg(
            'must be a list of at most %(max)d substitutes, such as [{"hand": 13, "out": "Bea", "in": "Zoe"}]',
            max=MAX_SUBSTITUTES,
        )
        return []
    out_list: list[tuple[int, str, str]] = []
    for i, entry in enumerate(value):
        if not isinstance(entry, Mapping) or set(entry) - {"hand", "out", "in", "lady_as_gent"}:
            errors["substitutes"] = Msg(
                'must be a list of substitutes, such as [{"hand": 13, "out": "Bea", "in": "Zoe"}]'
            )
            return out_list
        hand = entry.get("hand")
        if not is_int(hand) or not 1 <= hand <= hands:
            errors["substitutes"] = Msg(
                "a substitute takes over from a hand from %(low)d to %(high)d", low=1, high=hands
            )
            return out_list
        try:
            newcomer = check(entry.get("in"), Msg("the substitute's name"))
            leaver = check(entry.get("out"), Msg("the name of the player who leaves"))
        except ValueError as exc:
            errors["substitutes"] = message_of(exc)
            return out_list
        if any(p.name.casefold() == newcomer.casefold() for p in people):
            errors["substitutes"] = Msg("%(name)s is in the drive already", name=newcomer)
            return out_list
        holding = [p for p in people if p.name.casefold() == leaver.casefold() and p.first <= hand <= p.last]
        if not holding:
            errors["substitutes"] = Msg("%(name)s holds no seat in hand %(n)d", name=leaver, n=hand)
            return out_list
        old = holding[0]
        people[people.index(old)] = replace(old, last=hand - 1)
        number = old.number if couples else max(p.number for p in people) + 1
        people.append(Person(f"sub:{i}", newcomer, old.role, old.seat, hand, hands, number))
        # The one who left is listed only if they played a hand.
        if hand == 1:
            people.remove(replace(old, last=hand - 1))
        if entry.get("lady_as_gent") is True and old.role == "gent" and not couples:
            as_gents.append(newcomer)
        out_list.append((hand, leaver, newcomer))
    # Each holds the seat until the next one takes it, whatever order the substitutes were entered in.
    by_seat: dict[tuple[str, int], list[Person]] = {}
    for person in people:
        by_seat.setdefault((person.role, person.seat), []).append(person)
    for holders in by_seat.values():
        holders.sort(key=lambda p: p.first)
        for a, b in zip(holders, holders[1:]):
            if a.first == b.first:
                errors["substitutes"] = Msg("%(name)s holds no seat in hand %(n)d", name=a.name, n=b.first)
            people[people.index(a)] = replace(a, last=b.first - 1)
    return out_list


def make_drive(
    data: Any, max_tables: int | None = MAX_TABLES, max_hands: int | None = MAX_HANDS, stored: bool = False
) -> DriveSetup:
    """Check everything a drive is started with; raises InputError naming every wrong field. The bounds on tables and
    hands are the caller's (None: none, for a drive read back as it was stored); `stored`: its names are read back as
    they were kept (kept_name), not held to today's name rules."""
    check: Callable = kept_name if stored else check_name
    if not isinstance(data, Mapping):
        raise InputError({"body": Msg("must be a JSON object with the drive's format and players")})
    errors: dict[str, str] = {k: Msg("unknown field") for k in sorted(set(data) - set(FIELDS))}
    title = None
    try:
        title = check(data.get("title"), Msg("the title"), required=False, limit=TITLE_MAX)
    except ValueError as exc:
        errors["title"] = message_of(exc)
    format = data.get("format")
    ladies: list[str] = []
    gents: list[str] = []
    couples = format == "couples"
    if format == "progressive":
        if "pairs" in data:
            errors["pairs"] = Msg("is for a couples drive; a progressive drive takes ladies and gents")
        ladies = _names(data.get("ladies"), "ladies", lambda n: Msg("lady %(n)d's name", n=n), errors, check)
        gents = _names(data.get("gents"), "gents", lambda n: Msg("gent %(n)d's name", n=n), errors, check)
        _tables(len(ladies), len(gents), False, errors, max_tables)
    elif couples:
        for name in ("ladies", "gents", "ladies_as_gents"):
            if name in data:
                errors[name] = Msg("is for a progressive drive; a couples drive takes pairs")
        ladies, gents = _pairs(data.get("pairs"), errors, check)
        _tables(len(ladies), len(gents), True, errors, max_tables)
    else:
        errors["format"] = Msg("must be one of %(choices)s", choices=", ".join(FORMATS))
    people_field = "pairs" if couples else "ladies"
    if people_field not in errors and "gents" not in errors:
        counted = Counter(n.casefold() for n in ladies + gents)
        twice = sorted({n for n in ladies + gents if counted[n.casefold()] > 1})
        if twice:
            errors[people_field] = Msg("two players have the same name: %(names)s", names=", ".join(twice))
    hands = data.get("hands", DEFAULT_HANDS)
    if not is_int(hands) or hands < 1 or (max_hands is not None and hands > max_hands):
        if max_hands is None:
            errors["hands"] = Msg("must be a whole number, at least 1")
        else:
            errors["hands"] = Msg("must be a whole number from %(low)d to %(high)d", low=1, high=max_hands)
        hands = DEFAULT_HANDS
    trumps = data.get("trumps", list(DEFAULT_TRUMPS))
    if not isinstance(trumps, list) or not trumps or not all(isinstance(t, str) and t in TRUMPS for t in trumps):
        errors["trumps"] = Msg("must be a list of one or more of %(choices)s", choices=", ".join(TRUMPS))
        trumps = list(DEFAULT_TRUMPS)
    elif len(trumps) > MAX_TRUMPS:
        errors["trumps"] = Msg("may list at most %(max)d trumps", max=MAX_TRUMPS)
    interval = data.get("interval_after")
    if interval is not None and (not is_int(interval) or not 1 <= interval < hands):
        errors["interval_after"] = (
            Msg("a drive of one hand has no interval; leave it out")
            if hands < 2
            else Msg(
                "must be a hand before the last one, from 1 to %(last)d (or left out for no interval); "
                "half-way is %(half)d",
                last=hands - 1,
                half=hands // 2,
            )
        )
    tie_break = data.get("tie_break", "share")
    if tie_break not in TIE_BREAKS:
        errors["tie_break"] = Msg("must be one of %(choices)s", choices=", ".join(TIE_BREAKS))
    movement = data.get("movement", "winners")
    if movement not in MOVEMENTS:
        errors["movement"] = Msg("must be one of %(choices)s", choices=", ".join(MOVEMENTS))
    sit_out = data.get("sit_out", DEFAULT_SIT_OUT)
    if sit_out != SIT_OUT_AVERAGE and (not is_int(sit_out) or not 0 <= sit_out <= TRICKS):
        errors["sit_out"] = Msg('must be the tricks a player who sits out a hand scores, from 0 to 13, or "average"')
        sit_out = DEFAULT_SIT_OUT
    as_gents: list[str] = []
    if not couples and data.get("ladies_as_gents") is not None:
        as_gents = _names(
            data.get("ladies_as_gents"), "ladies_as_gents", lambda n: Msg("lady %(n)d's name", n=n), errors, check
        )
    people = _people(ladies, gents, couples, as_gents, hands)
    substitutes = (
        _substitutes(data.get("substitutes"), people, hands, couples, as_gents, errors, check) if not errors else []
    )
    if "ladies_as_gents" not in errors and "gents" not in errors and as_gents:
        in_gent_seats = {p.name.casefold() for p in people if p.role == "gent"}
        strangers = [n for n in as_gents if n.casefold() not in in_gent_seats]
        if strangers:
            errors["ladies_as_gents"] = Msg(
                "must be names among the gents (a lady playing as gent is listed with the gents): %(names)s",
                names=", ".join(strangers),
            )
        marked = {n.casefold() for n in as_gents}
        people = [replace(p, lady_as_gent=p.role == "gent" and p.name.casefold() in marked) for p in people]
    if errors:
        raise InputError(errors)
    index: dict[tuple[str, int], list[Person]] = {}
    for person in sorted(people, key=lambda p: p.first):
        index.setdefault((person.role, person.seat), []).append(person)
    return DriveSetup(
        str(format),
        tuple(ladies),
        tuple(gents),
        hands,
        tuple(trumps),
        interval,
        tie_break,
        title,
        movement,
        sit_out,
        tuple(as_gents),
        tuple(substitutes),
        tuple(people),
        {k: tuple(v) for k, v in index.items()},
    )


def rename(setup: DriveSetup, old: Any, new: Any) -> DriveSetup:
    """The setup with a player (or substitute) renamed everywhere: a misspelt name put right. InputError naming
    `from` (no such player) or `to` (a bad name, or one already in the drive)."""
    person = setup.by_name(old) if isinstance(old, str) else None
    if person is None:
        raise InputError({"from": Msg("no player of that name in this drive")})
    try:
        name = check_name(new, Msg("the new name"))
    except ValueError as exc:
        raise InputError({"to": message_of(exc)}) from None
    other = setup.by_name(name)
    if other is not None and other.key != person.key:
        raise InputError({"to": Msg("%(name)s is in the drive already", name=name)})
    data = setup.as_dict()
    folded = person.name.casefold()

    def swap(n: str) -> str:
        return name if n.casefold() == folded else n

    if setup.couples:
        data["pairs"] = [[swap(a), swap(b)] for a, b in data["pairs"]]
    else:
        data["ladies"] = [swap(n) for n in data["ladies"]]
        data["gents"] = [swap(n) for n in data["gents"]]
        if "ladies_as_gents" in data:
            data["ladies_as_gents"] = [swap(n) for n in data["ladies_as_gents"]]
    if "substitutes" in data:
        data["substitutes"] = [{**s, "out": swap(s["out"]), "in": swap(s["in"])} for s in data["substitutes"]]
    return make_drive(data, max_tables=None, max_hands=None)


def substitute(setup: DriveSetup, out: Any, newcomer: Any, hand: Any, lady_as_gent: bool = False) -> DriveSetup:
    """The setup with `newcomer` in `out`'s seat from hand `hand` on; InputError naming `substitutes` if not."""
    data = setup.as_dict()
    entry: dict[str, Any] = {"hand": hand, "out": out, "in": newcomer}
    if lady_as_gent:
        entry["lady_as_gent"] = True
    data["substitutes"] = [*data.get("substitutes", []), entry]
    return make_drive(data, max_tables=None, max_hands=None)


# ---------------------------------------------------------------- the movement


def up(table: int, tables: int) -> int:
    """The next table up, from the last back to the first (tables count from 1)."""
    return table % tables + 1


def down(table: int, tables: int) -> int:
    """The next table down, from the first round to the last."""
    return (table - 2) % tables + 1


def first_seating(setup: DriveSetup) -> Seating:
    """Table t starts with the pairs 2t − 2 and 2t − 1 (progressive: lady and gent of the same number)."""
    return tuple(((2 * t, 2 * t), (2 * t + 1, 2 * t + 1)) for t in range(setup.tables))


def plays(setup: DriveSetup, pairs: tuple[Partnership, Partnership]) -> str:
    """Whether a table plays with these partnerships: "all", "dummy" (one empty seat) or "out" (two or more)."""
    empty = sum(setup.empty("lady", p[0]) + setup.empty("gent", p[1]) for p in pairs)
    return "all" if empty == 0 else "dummy" if empty == 1 else "out"


def _winner_loser(
    setup: DriveSetup, pairs: tuple[Partnership, Partnership], tricks: tuple[int, int] | None
) -> tuple[Partnership, Partnership]:
    """At a table that played, the partnership with 7 or more tricks won. At one that did not (sat out), the
    partnership with more players there moves on as the winners (the first as listed, when as many)."""
    if tricks is None:
        present = [2 - setup.empty("lady", p[0]) - setup.empty("gent", p[1]) for p in pairs]
        first_wins = present[0] >= present[1]
    else:
        first_wins = tricks[0] >= WINNING_TRICKS
    return (pairs[0], pairs[1]) if first_wins else (pairs[1], pairs[0])


def next_seating(setup: DriveSetup, seating: Seating, tricks: Sequence[tuple[int, int] | None]) -> Seating:
    """The seating of the next hand from this one's results, by the winners' movement.

    Progressive: table t seats (the losing lady of t, the winning gent of up(t)) and (the winning lady of down(t),
    the losing gent of t). Couples: table t seats its losing pair and the winning pair of down(t). `tricks` is None
    for a table that did not play.
    """
    results = [_winner_loser(setup, pairs, t) for pairs, t in zip(seating, tricks)]
    n = len(seating)
    seated = []
    for t in range(1, n + 1):
        winner_up, winner_down = results[up(t, n) - 1][0], results[down(t, n) - 1][0]
        loser = results[t - 1][1]
        if setup.couples:
            seated.append((loser, winner_down))
        else:
            seated.append(((loser[0], winner_up[1]), (winner_down[0], loser[1])))
    return tuple(seated)


def gent_step(seats: int) -> int:
    """How many seats the gents move down each hand in the fresh-partners movement: the smallest odd b with b − 2 and
    b + 2 both coprime to the number of seats of a role (there always is one), so that every lady meets every gent as
    partner once before anyone meets a partner again."""
    b = 1
    while math.gcd(b + 2, seats) != 1 or math.gcd(abs(b - 2), seats) != 1:
        b += 2
    return b


def fresh_seating(setup: DriveSetup, hand: int) -> Seating:
    """The fresh movement's seating of hand `hand`: a fixed table, whatever the results.

    Progressive (fresh partners): with S seats of each role (two a table), seat s is table s // 2 + 1, North if s is
    even, East if odd. The lady who started in an even seat moves one table up each hand (seat + 2), the one who
    started in an odd seat one table down (seat − 2), and every gent b seats down (gent_step). Lady i's partner in
    hand h + 1 is gent i + (b ± 2)·h (mod S): a different gent every hand until she has partnered all S.

    Couples (fresh opponents): the circle method of a round robin over the 2T pairs (an empty pair where there is
    an odd number): in 2T − 1 hands every pair meets every other once, hand 1 as the pairs were listed.
    """
    h = hand - 1
    tables = setup.tables
    seats = setup.seats
    if setup.couples:
        order = list(range(0, seats, 2)) + list(range(seats - 1, 0, -2))  # round 0: (0, 1), (2, 3), …
        r = h % (seats - 1)
        circle = [order[0]] + order[1:][r:] + order[1:][:r]
        return tuple(((circle[k], circle[k]), (circle[seats - 1 - k], circle[seats - 1 - k])) for k in range(tables))
    b = gent_step(seats)
    lady_at = [0] * seats
    gent_at = [0] * seats
    for i in range(seats):
        lady_at[(i + 2 * h) % seats if i % 2 == 0 else (i - 2 * h) % seats] = i
        gent_at[(i - b * h) % seats] = i
    return tuple(((lady_at[2 * t], gent_at[2 * t]), (lady_at[2 * t + 1], gent_at[2 * t + 1])) for t in range(tables))


# ---------------------------------------------------------------- results and the replay


def check_tricks(value: Any) -> tuple[int, int]:
    """The tricks a table's two partnerships took, as rounds lists them: two whole numbers adding up to 13."""
    errors: dict[str, str] = {}
    tricks = trick_pair(value, TRICKS, errors)
    if tricks is None:
        raise InputError(errors)
    return tricks


def check_table(setup: DriveSetup, table: Any) -> int:
    if not is_int(table) or not 1 <= table <= setup.tables:
        raise InputError({"table": Msg("must be a table from 1 to %(last)d", last=setup.tables)})
    return table


def seated_names(setup: DriveSetup, table: TableHand) -> list[list[str | None]]:
    """The table's two partnerships by name, as the drive lists them ([[lady, gent], [lady, gent]], None for an
    empty seat): what a result may carry to say which seating it was entered for."""
    return [list(setup.names(pair, table.hand)) for pair in table.pairs]


def _check_pairs(pairs: Any) -> bool:
    return (
        isinstance(pairs, list)
        and len(pairs) == 2
        and all(isinstance(p, list) and len(p) == 2 and all(n is None or isinstance(n, str) for n in p) for p in pairs)
    )


def check_seating(setup: DriveSetup, seating: Any) -> Seating:
    """A kept seating read back: T tables of two partnerships of seat numbers, every seat once."""
    try:
        out = tuple(((int(a[0][0]), int(a[0][1])), (int(a[1][0]), int(a[1][1]))) for a in seating)
    except (TypeError, ValueError, IndexError) as exc:
        raise ValueError(f"not a seating: {seating!r}") from exc
    ladies = sorted(p[0] for t in out for p in t)
    gents = sorted(p[1] for t in out for p in t)
    if len(out) != setup.tables or ladies != list(range(setup.seats)) or gents != list(range(setup.seats)):
        raise ValueError(f"not a seating of this drive: {seating!r}")
    return out


def play(setup: DriveSetup, results: Mapping[tuple[int, int], Any], kept: Mapping[int, Any] | None = None) -> Drive:
    """Replay a drive from its results, keyed (hand, table): seat each hand, move by the results, add up.

    `kept` holds the seating a hand was kept in (as played, when a correction of an earlier hand would have moved
    people who had sat down and played already): used as it is instead of the movement's.

    Raises InputError for a result that does not fit (bad tricks, an unknown table, a hand not yet seated).
    """
    checked: dict[tuple[int, int], tuple[int, int]] = {}
    for (hand, table), tricks in results.items():
        try:
            checked[hand, check_table(setup, table)] = check_tricks(tricks)
        except InputError as exc:
            exc.number = hand
            raise
    kept_seatings = {hand: check_seating(setup, s) for hand, s in (kept or {}).items()}
    rounds: list[Round] = []
    seating: Seating = first_seating(setup)
    for hand in range(1, setup.hands + 1):
        if hand in kept_seatings:
            seating = kept_seatings[hand]
        elif setup.movement == "fresh":
            seating = fresh_seating(setup, hand)
        elif hand > 1:
            previous = rounds[-1]
            seating = next_seating(setup, previous.seating, [t.tricks for t in previous.tables])
        tables = []
        for t, pairs in enumerate(seating):
            how = plays(setup, pairs)
            tricks = None if how == "out" else checked.get((hand, t + 1))
            tables.append(TableHand(t + 1, pairs, tricks, hand, how))
        rounds.append(Round(hand, setup.trump(hand), tuple(tables)))
        if not rounds[-1].complete or hand == setup.hands:
            break
    last = rounds[-1]
    beyond = sorted(key for key in checked if key[0] > last.hand or key[0] < 1)
    if beyond:
        hand, table = beyond[0]
        raise OutOfTurn({"hand": Msg("hand %(n)d is not seated yet", n=hand)}, hand)
    finished = last.hand == setup.hands and last.complete
    half_time = None
    interval = setup.interval_after
    if interval is not None and len(rounds) >= interval and rounds[interval - 1].complete:
        half_time = standings(setup, rounds[:interval])
    return Drive(setup, tuple(rounds), last.hand, finished, standings(setup, rounds), half_time)


def _checked_result(drive: Drive, table: Any, tricks: Any, pairs: Any) -> tuple[int, tuple[int, int]]:
    setup = drive.setup
    errors: dict[str, str] = {}
    if pairs is not None and not _check_pairs(pairs):
        errors["pairs"] = Msg(
            'must be the two pairs at the table as the drive lists them, such as [["Ann", "Al"], ["Bea", "Ben"]]'
        )
    try:
        table = check_table(setup, table)
    except InputError as exc:
        errors.update(exc.errors)
    try:
        tricks = check_tricks(tricks)
    except InputError as exc:
        errors.update(exc.errors)
    if errors:
        raise InputError(errors)
    return table, tricks


def _playing_table(drive: Drive, hand: int, table: int, pairs: Any) -> None:
    here = drive.rounds[hand - 1].tables[table - 1]
    if here.plays == "out":
        raise OutOfTurn(
            {"table": Msg("table %(table)d sits out hand %(n)d: it takes no result", table=table, n=hand)}, hand
        )
    if pairs is not None and pairs != seated_names(drive.setup, here):
        raise SeatingChanged({"pairs": Msg("the seating changed — reload")}, hand)


def accept(drive: Drive, hand: Any, table: Any, tricks: Any, pairs: Any = None) -> tuple[int, int, tuple[int, int]]:
    """Check a table's result for hand `hand` against the drive as it stands: (hand, table, tricks), or InputError
    (a wrong table, tricks or pairs), OutOfTurn (a hand that takes no result now, or a table sitting out) or
    SeatingChanged (`pairs`, the table's partnerships as the sender was shown them, are not the table's now: a
    correction of the hand before has seated this hand anew since). Without `pairs` the result is taken for whoever
    sits there now. These are the tables' rules; the organiser corrects any hand played (correct)."""
    setup = drive.setup
    table, tricks = _checked_result(drive, table, tricks, pairs)
    current = drive.current
    if not is_int(hand):
        raise OutOfTurn({"hand": Msg("must be a whole number")})
    if hand > setup.hands:
        raise OutOfTurn(
            {"hand": Msg("the drive has %(hands)d hands; there is no hand %(n)d", hands=setup.hands, n=hand)}
        )
    playing = drive.rounds[current - 1]
    if hand >= 1 and (hand == current or (hand == current - 1 and not playing.started)):
        _playing_table(drive, hand, table, pairs)
        return hand, table, tricks
    if hand == current - 1:
        raise OutOfTurn(
            {"hand": Msg("hand %(next)d has results already; hand %(n)d can no longer change", next=current, n=hand)}
        )
    raise OutOfTurn(
        {"hand": Msg("results are taken for hand %(current)d now, not hand %(n)d", current=current, n=hand)}
    )


@dataclass(frozen=True, slots=True)
class Change:
    """What a result entered or corrected does: the drive before and after, the seatings to keep (hand → seating)
    so that hands already played stay as they were played, who sits elsewhere in a later hand (`moved`, sorted by
    name, with where they sat and sit now), and whose totals change."""

    before: Drive
    after: Drive
    results: dict[tuple[int, int], tuple[int, int]]
    keep: dict[int, Seating]
    moved: tuple[tuple[str, int, tuple[int, str], tuple[int, str]], ...]  # (name, hand, (table, seat) was, now)
    totals: tuple[tuple[str, int, int], ...]  # (name, total before, total after)

    @property
    def moved_names(self) -> list[str]:
        return sorted({m[0] for m in self.moved}, key=str.casefold)


SEATS = ("N", "S", "E", "W")


def positions(setup: DriveSetup, played: Round) -> dict[str, tuple[int, str]]:
    """Where each player sits in a hand: name → (table, seat code N, S, E or W: the first pair as listed sits North
    and South, lady North; the second East and West, lady East)."""
    out: dict[str, tuple[int, str]] = {}
    for t in played.tables:
        for i, pair in enumerate(t.pairs):
            lady, gent = setup.names(pair, played.hand)
            if lady is not None:
                out[lady] = (t.table, SEATS[2 * i])
            if gent is not None:
                out[gent] = (t.table, SEATS[2 * i + 1])
    return out


def changes(
    before: Drive, after: Drive, from_hand: int
) -> tuple[tuple[str, int, tuple[int, str], tuple[int, str]], ...]:
    """Who sits elsewhere in a hand after `from_hand` seated in both drives (the first such hand each)."""
    moved = []
    seen: set[str] = set()
    for b, a in zip(before.rounds, after.rounds):
        if b.hand <= from_hand or b.seating == a.seating:
            continue
        was, now = positions(before.setup, b), positions(after.setup, a)
        for name in sorted(now, key=str.casefold):
            if name not in seen and was.get(name) != now[name] and name in was:
                seen.add(name)
                moved.append((name, a.hand, was[name], now[name]))
    return tuple(moved)


def _totals(before: Drive, after: Drive) -> tuple[tuple[str, int, int], ...]:
    was = {s.key: s for s in before.standings}
    out = []
    for s in after.standings:
        old = was.get(s.key)
        if old is not None and old.total != s.total:
            out.append((" & ".join(s.names), old.total, s.total))
    return tuple(out)


def enter(
    setup: DriveSetup,
    results: Mapping[tuple[int, int], Any],
    kept: Mapping[int, Any],
    hand: int,
    table: int,
    tricks: tuple[int, int],
) -> Change:
    """A table's result as the tables enter it (accept has said it may): stored, replayed, and what moved."""
    before = play(setup, results, kept)
    new = dict(results)
    new[hand, table] = tricks
    after = play(setup, new, kept)
    return Change(before, after, new, {}, changes(before, after, hand), _totals(before, after))


def correct(
    setup: DriveSetup,
    results: Mapping[tuple[int, int], Any],
    kept: Mapping[int, Any],
    hand: Any,
    table: Any,
    tricks: Any,
    keep_seating: bool = False,
    pairs: Any = None,
) -> Change:
    """The organiser's correction of table `table`'s result in any hand played so far (or the entry of one the
    table has not sent): what it changes, nothing stored.

    A hand that has results was played where people sat: its seating is kept as it was (Change.keep), whatever the
    corrected result would have made the movement do. The first hand without a result is seated anew from the
    corrected result, and whoever now sits elsewhere is in `moved` (told "move again" by the pages), unless
    `keep_seating` keeps that hand as it is too: the tricks change, nobody moves.
    """
    before = play(setup, results, kept)
    table, tricks = _checked_result(before, table, tricks, pairs)
    if not is_int(hand) or not 1 <= hand <= len(before.rounds):
        raise OutOfTurn(
            {
                "hand": Msg(
                    "hand %(n)d is not seated yet: results are taken up to hand %(current)d",
                    n=hand,
                    current=before.current,
                )
            }
            if is_int(hand)
            else {"hand": Msg("must be a whole number")}
        )
    _playing_table(before, hand, table, pairs)
    keep: dict[int, Seating] = {}
    for later in before.rounds[hand:]:
        if (later.started or keep_seating) and later.hand not in kept:
            keep[later.hand] = later.seating
    new = dict(results)
    new[hand, table] = tricks
    now_kept = {**kept, **keep}
    after = play(setup, new, now_kept)
    return Change(before, after, new, keep, changes(before, after, hand), _totals(before, after))


# ---------------------------------------------------------------- standings


def _sit_out_score(setup: DriveSetup, played: list[int]) -> int:
    """What a hand sat out scores: the drive's fixed number, or (under "average") the player's own average over the
    hands they played, rounded half up (7 before they have played one)."""
    if setup.sit_out == SIT_OUT_AVERAGE:
        return int(sum(played) / len(played) + 0.5) if played else DEFAULT_SIT_OUT
    return int(setup.sit_out)


def _rank_key(s: Standing, countback: bool) -> tuple[int, tuple[int, ...]]:
    return s.total, tuple(reversed(s.by_hand)) if countback else ()


def _places(entries: Sequence[Standing], countback: bool) -> list[Standing]:
    """Sorted by total (then, under countback, the last hand's tricks, the one before, …); equal keys share a place.
    Those who did not play every hand follow, unplaced."""
    full = sorted((s for s in entries if s.full), key=lambda s: _rank_key(s, countback), reverse=True)
    out: list[Standing] = []
    for i, s in enumerate(full):
        same = bool(out) and _rank_key(full[i - 1], countback) == _rank_key(s, countback)
        out.append(replace(s, place=out[-1].place if same else i + 1))
    out += sorted((s for s in entries if not s.full), key=lambda s: s.total, reverse=True)
    return out


OUT = -1  # a hand a seat sat out, in seat_tricks


def standings(setup: DriveSetup, rounds: list[Round] | tuple[Round, ...]) -> tuple[Standing, ...]:
    """Each player's (couples: each pair's) tricks in these hands, ladies then gents, each sorted and placed.

    A seat's tricks in a hand go to whoever held the seat then; a hand sat out scores the sit-out tricks; a hand
    without a result yet scores 0 so far."""
    count = len(rounds)
    seat_tricks: dict[tuple[str, int], list[int]] = {}
    for i, played in enumerate(rounds):
        for table in played.tables:
            for j, (lady, gent) in enumerate(table.pairs):
                value = OUT if table.plays == "out" else (table.tricks[j] if table.tricks is not None else 0)
                for role, seat in (("lady", lady), ("gent", gent)):
                    if not setup.empty(role, seat):
                        seat_tricks.setdefault((role, seat), [0] * count)[i] = value
    countback = setup.tie_break == "countback"
    last = max(count, 1)

    def entry(key: str, role: str, names: tuple[str, ...], person: Person, hands: range, **extra: Any) -> Standing:
        row = seat_tricks.get((person.role, person.seat), [0] * count)
        mine = [row[h - 1] for h in hands if h <= count]
        played = [t for t in mine if t != OUT]
        score = _sit_out_score(setup, played)
        by_hand = tuple((score if row[h - 1] == OUT else row[h - 1]) if h in hands else 0 for h in range(1, count + 1))
        return Standing(
            names,
            role,
            sum(by_hand),
            None,
            by_hand,
            key,
            len([h for h in hands if h <= count]),
            mine.count(OUT),
            person.number,
            person.lady_as_gent,
            **extra,
        )

    if setup.couples:
        pairs = []
        for seat in range(len(setup.ladies)):
            first, second = setup.holder("lady", seat, last), setup.holder("gent", seat, last)
            assert first is not None and second is not None
            formerly = tuple(
                p.name for p in setup.people if p.seat == seat and p.first <= last and p not in (first, second)
            )
            # A pair is what scores in a couples drive: it plays every hand, whoever of the two sat in it.
            pairs.append(
                entry(f"pair:{seat}", "pair", (first.name, second.name), first, range(1, count + 1), formerly=formerly)
            )
        return tuple(_places(pairs, countback))
    rows: dict[str, list[Standing]] = {"lady": [], "gent": []}
    for p in setup.people:
        if p.first <= last:
            rows[p.role].append(entry(p.key, p.role, (p.name,), p, range(p.first, min(p.last, count) + 1)))
    return tuple(_places(rows["lady"], countback) + _places(rows["gent"], countback))


def countback_reason(ahead: Standing, behind: Standing) -> Msg | None:
    """Why `ahead` is ahead of `behind` on countback when their totals are equal: the tricks in the last hand where
    they differ, counted from the end ("10 v 9 in the last hand"); None if they are not equal in total or are equal
    all the way back."""
    if ahead.total != behind.total or len(ahead.by_hand) != len(behind.by_hand):
        return None
    last = len(ahead.by_hand)
    for hand in range(last, 0, -1):
        a, b = ahead.by_hand[hand - 1], behind.by_hand[hand - 1]
        if a != b:
            if hand == last:
                return Msg("%(a)d v %(b)d in the last hand", a=a, b=b)
            return Msg("%(a)d v %(b)d in hand %(n)d", a=a, b=b, n=hand)
    return None


# ---------------------------------------------------------------- prizes

PRIZE_KINDS = ("place", "booby", "half_time", "lucky")
PRIZE_ROLES = ("lady", "gent", "pair", "any")
PRIZE_TIES = ("share", "cut")
# The prizes of drives started before prizes were a list (migration m108): one of each kind.
LEGACY_PRIZES = {
    "top_lady": ("place", "lady", 1),
    "top_gent": ("place", "gent", 1),
    "top_pair": ("place", "any", 1),
    "half_time": ("half_time", "any", 1),
    "booby": ("booby", "any", 1),
}


@dataclass(frozen=True, slots=True)
class PrizeRule:
    """A prize as the organiser wrote it: its kind, whom it is for and the place (1st, 2nd…; 1 for the rest)."""

    kind: str
    role: str
    place: int = 1


def check_prize(setup: DriveSetup, data: Any) -> PrizeRule:
    """A prize's kind, role and place, checked against the drive; InputError naming `kind`, `role` or `place`.

    kind: "place" (1st, 2nd, … of the final standings), "booby" (the last), "half_time" (a place at the interval)
    or "lucky" (a card number the app draws). role: "lady", "gent" (progressive), "pair" (couples) or "any".
    The old kinds top_lady, top_gent, top_pair are read as a 1st place."""
    if not isinstance(data, Mapping):
        raise InputError({"kind": Msg('must be an object with the prize\'s kind, such as {"kind": "place"}')})
    kind = data.get("kind")
    role = data.get("role")
    place = data.get("place", 1)
    if isinstance(kind, str) and kind in LEGACY_PRIZES and (role is None or kind in ("top_lady", "top_gent")):
        kind, role, place = LEGACY_PRIZES[kind][0], LEGACY_PRIZES[kind][1], data.get("place", 1)
    errors: dict[str, str] = {}
    if kind not in PRIZE_KINDS:
        errors["kind"] = Msg("must be one of %(choices)s", choices=", ".join(PRIZE_KINDS))
    if role is None:
        role = "pair" if setup.couples else "any"
    if role not in PRIZE_ROLES:
        errors["role"] = Msg("must be one of %(choices)s", choices=", ".join(PRIZE_ROLES))
    elif setup.couples and role in ("lady", "gent"):
        errors["role"] = Msg("a couples drive scores pairs: a prize is for a pair, not a lady or a gent")
    elif not setup.couples and role == "pair":
        errors["role"] = Msg("a progressive drive changes partners: a prize is for a lady, a gent or anyone")
    if setup.couples and role == "any":
        role = "pair"
    if kind in ("place", "half_time") and (not is_int(place) or not 1 <= place <= MAX_PLACE):
        errors["place"] = Msg("must be a place from %(low)d to %(high)d", low=1, high=MAX_PLACE)
    if kind == "half_time" and setup.interval_after is None:
        errors["kind"] = Msg("a half-time prize needs an interval: the drive has none")
    if errors:
        raise InputError(errors)
    return PrizeRule(str(kind), str(role), int(place) if kind in ("place", "half_time") else 1)


@dataclass(frozen=True, slots=True)
class Award:
    """A prize as the standings and the draws give it now.

    status: "won" (winners known), "waiting" (its standings are not final yet), "draw" (a cut or the lucky number
    is to be drawn among `candidates`), "none" (nobody left to give it to)."""

    rule: PrizeRule
    status: str
    winners: tuple[str, ...] = ()  # person keys (couples: "pair:<seat>")
    names: tuple[str, ...] = ()
    shared: bool = False
    reasons: tuple[Msg, ...] = ()
    candidates: tuple[str, ...] = ()
    drawn: bool = False  # the winner came from a draw (a cut or the lucky number)
    number: int | None = None  # the lucky number drawn
    total: int | None = None


def _ladder(rule: PrizeRule) -> tuple[str, str]:
    return rule.kind, rule.role


def _at_place(groups: list[list[Standing]], place: int) -> tuple[list[Standing], int] | None:
    """The group of equals that holds position `place` (from 1) and the position's offset within it."""
    position = 0
    for group in groups:
        if position < place <= position + len(group):
            return group, place - position - 1
        position += len(group)
    return None


def _groups(pool: list[Standing], countback: bool) -> list[list[Standing]]:
    groups: list[list[Standing]] = []
    for s in pool:
        if groups and _rank_key(groups[-1][0], countback) == _rank_key(s, countback):
            groups[-1].append(s)
        else:
            groups.append([s])
    return groups


def _reasons(pool: list[Standing], chosen: list[Standing], countback: bool) -> tuple[Msg, ...]:
    """The countback that put the winners where they are: against the one just ahead and the one just behind, when
    their totals are equal."""
    if not countback or not chosen:
        return ()
    out = []
    first, last = pool.index(chosen[0]), pool.index(chosen[-1])
    if first > 0:
        reason = countback_reason(pool[first - 1], chosen[0])
        if reason is not None:
            out.append(
                Msg(
                    "%(ahead)s ahead of %(behind)s on countback: %(why)s",
                    ahead=" & ".join(pool[first - 1].names),
                    behind=" & ".join(chosen[0].names),
                    why=reason,
                )
            )
    if last + 1 < len(pool):
        reason = countback_reason(chosen[-1], pool[last + 1])
        if reason is not None:
            out.append(
                Msg(
                    "%(ahead)s ahead of %(behind)s on countback: %(why)s",
                    ahead=" & ".join(chosen[-1].names),
                    behind=" & ".join(pool[last + 1].names),
                    why=reason,
                )
            )
    return tuple(out)


def _cut(draws: Sequence[Mapping[str, Any]], among: list[str]) -> list[str] | None:
    wanted = sorted(among)
    for d in draws:
        if d.get("kind") == "cut" and sorted(d.get("among", [])) == wanted:
            return list(d.get("order", []))
    return None


def award(
    drive: Drive,
    rules: Sequence[PrizeRule],
    one_each: bool = False,
    ties: str = "share",
    draws: Sequence[Mapping[str, Any]] = (),
) -> tuple[Award, ...]:
    """Who wins each prize, in the order the organiser listed them.

    The standings' tie-break orders equal totals (under countback, by the last hand, then the one before…). A prize
    for a place that several share (equal all the way back, or under `share`) goes to all of them under `ties`
    "share", or by a cut the app draws and records (`draws`: {"kind": "cut", "among", "order"}) under "cut". A
    lucky-number prize goes to the card number drawn ({"kind": "lucky", "prize": index, "key"}). With `one_each`,
    someone who has a prize listed earlier is passed over for the others (the next in the standings takes it);
    places of the same kind and role (1st, 2nd, 3rd lady) are counted among the same people. Prizes go only to
    those who played every hand counted. A draw that no longer fits (a correction changed the tie) is drawn again.
    """
    setup = drive.setup
    countback = setup.tie_break == "countback"
    taken: dict[str, tuple[str, str]] = {}  # key → the ladder it won in
    out: list[Award] = []
    for index, rule in enumerate(rules):
        if rule.kind == "lucky":
            pool = [
                s
                for s in drive.standings
                if s.played and (rule.role == "any" or s.role == rule.role) and not (one_each and s.key in taken)
            ]
            if one_each and any(a.status in ("waiting", "draw") for a in out):
                out.append(Award(rule, "waiting"))
                continue
            drawn = next((d for d in draws if d.get("kind") == "lucky" and d.get("prize") == index), None)
            winner = next((s for s in pool if drawn is not None and s.key == drawn.get("key")), None)
            if winner is None:
                out.append(Award(rule, "draw" if pool else "none", candidates=tuple(s.key for s in pool)))
                continue
            taken[winner.key] = _ladder(rule)
            out.append(Award(rule, "won", (winner.key,), (" & ".join(winner.names),), drawn=True, number=winner.number))
            continue
        table = drive.half_time if rule.kind == "half_time" else (drive.standings if drive.finished else None)
        if table is None:
            out.append(Award(rule, "waiting"))
            continue
        ladder = _ladder(rule)
        pool = [
            s
            for s in table
            if (rule.role == "any" or s.role == rule.role)
            and s.full
            and not (one_each and s.key in taken and taken[s.key] != ladder)
        ]
        pool.sort(key=lambda s: _rank_key(s, countback), reverse=True)  # "any": the ladies' and gents' together
        groups = _groups(pool, countback)
        if not groups:
            out.append(Award(rule, "none"))
            continue
        found = (groups[-1], len(groups[-1]) - 1) if rule.kind == "booby" else _at_place(groups, rule.place)
        if found is None:
            out.append(Award(rule, "none"))
            continue
        group, offset = found
        if len(group) == 1:
            chosen, shared, by_draw = group, False, False
        elif ties == "share":
            chosen, shared, by_draw = group, True, False
        else:
            order = _cut(draws, [s.key for s in group])
            if order is None or sorted(order) != sorted(s.key for s in group):
                out.append(Award(rule, "draw", candidates=tuple(s.key for s in group), total=group[0].total))
                continue
            by_key = {s.key: s for s in group}
            chosen, shared, by_draw = [by_key[order[offset]]], False, True
        for s in chosen:
            taken.setdefault(s.key, ladder)
        out.append(
            Award(
                rule,
                "won",
                tuple(s.key for s in chosen),
                tuple(" & ".join(s.names) for s in chosen),
                shared,
                _reasons(pool, group, countback),
                drawn=by_draw,
                total=chosen[0].total,
            )
        )
    return tuple(out)
