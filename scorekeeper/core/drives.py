"""Whist drives: many tables play the same numbered hands at once, players move after each hand by the drive's
movement, and each player (or pair) adds up the tricks their partnership took. Pure: the setup, the seating of every
hand and the standings are replayed from the results the tables entered, so nothing derived is ever stored."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.core import TITLE_MAX, check_name
from scorekeeper.core.fields import is_int, trick_pair
from scorekeeper.core.game import TRUMPS
from scorekeeper.core.messages import InputError, Msg, message_of

FORMATS = ("progressive", "couples")
TIE_BREAKS = ("share", "countback")
DEFAULT_TRUMPS = ("hearts", "clubs", "diamonds", "spades")
DEFAULT_HANDS = 24
# The bounds make_drive applies unless its caller gives its own (the app gives DRIVE_MAX_TABLES and DRIVE_MAX_HANDS);
# a stored drive is read back with none, whatever bound it was started under.
MAX_HANDS = 100
MAX_TABLES = 100
MAX_TRUMPS = 100
TRICKS = 13
WINNING_TRICKS = 7
FIELDS = ("title", "format", "ladies", "gents", "pairs", "hands", "trumps", "interval_after", "tie_break")

# A partnership at a table: (lady, gent) as indexes into the setup's ladies and gents. In a couples drive pair i is
# (i, i): its first name is ladies[i], its second gents[i].
Partnership = tuple[int, int]
Seating = tuple[tuple[Partnership, Partnership], ...]  # per table, from table 1: the two partnerships


class OutOfTurn(InputError):
    """A result for a hand that takes none now: not the hand being played (nor the one before it, while the hand being
    played has no result yet), or after the last hand."""


class SeatingChanged(OutOfTurn):
    """A result sent for a seating the table no longer has: a correction of the hand before seated this hand anew
    after the sender's page showed it. Stored, it would credit the hand to players who did not play it."""


@dataclass(frozen=True, slots=True)
class DriveSetup:
    """What a drive is started with, checked and with its defaults filled in."""

    format: str
    ladies: tuple[str, ...]
    gents: tuple[str, ...]
    hands: int = DEFAULT_HANDS
    trumps: tuple[str, ...] = DEFAULT_TRUMPS
    interval_after: int | None = None
    tie_break: str = "share"
    title: str | None = None

    @property
    def tables(self) -> int:
        return len(self.ladies) // 2

    @property
    def couples(self) -> bool:
        return self.format == "couples"

    def trump(self, hand: int) -> str:
        return self.trumps[(hand - 1) % len(self.trumps)]

    def names(self, pair: Partnership) -> tuple[str, str]:
        return self.ladies[pair[0]], self.gents[pair[1]]

    def as_dict(self) -> dict[str, Any]:
        """The setup as the API takes it (make_drive gives it back): what is stored."""
        people: dict[str, Any] = (
            {"pairs": [[lady, gent] for lady, gent in zip(self.ladies, self.gents)]}
            if self.couples
            else {"ladies": list(self.ladies), "gents": list(self.gents)}
        )
        return {
            "title": self.title,
            "format": self.format,
            **people,
            "hands": self.hands,
            "trumps": list(self.trumps),
            "interval_after": self.interval_after,
            "tie_break": self.tie_break,
        }


@dataclass(frozen=True, slots=True)
class TableHand:
    """One table in one hand: its two partnerships as seated and the tricks each took (None until entered)."""

    table: int
    pairs: tuple[Partnership, Partnership]
    tricks: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class Round:
    """One hand of the drive at every table."""

    hand: int
    trump: str
    tables: tuple[TableHand, ...]

    @property
    def complete(self) -> bool:
        return all(t.tricks is not None for t in self.tables)

    @property
    def started(self) -> bool:
        return any(t.tricks is not None for t in self.tables)


@dataclass(frozen=True, slots=True)
class Standing:
    """A player (progressive) or a pair (couples) with the tricks taken so far and their place within their role."""

    names: tuple[str, ...]
    role: str
    total: int
    place: int
    by_hand: tuple[int, ...]  # tricks in hands 1, 2, … (what countback reads from the end)


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


def _names(value: Any, field: str, what: Callable[[int], Msg], errors: dict[str, str]) -> list[str]:
    if not isinstance(value, list):
        errors[field] = Msg("must be a list of names")
        return []
    names: list[str] = []
    for i, raw in enumerate(value):
        try:
            names.append(check_name(raw, what(i + 1)))
        except ValueError as exc:
            errors.setdefault(field, message_of(exc))
    return names


def _pairs(value: Any, errors: dict[str, str]) -> tuple[list[str], list[str]]:
    if not isinstance(value, list) or not all(isinstance(p, list) and len(p) == 2 for p in value):
        errors["pairs"] = Msg('must be a list of pairs of names, such as [["Anna", "Bo"], ["Carl", "Dina"]]')
        return [], []
    firsts = _names([p[0] for p in value], "pairs", lambda n: Msg("pair %(n)d's first name", n=n), errors)
    seconds = _names([p[1] for p in value], "pairs", lambda n: Msg("pair %(n)d's second name", n=n), errors)
    return firsts, seconds


def _tables(count: int, field: str, errors: dict[str, str], max_tables: int | None) -> None:
    """Two ladies and two gents (two pairs) a table, at least two tables, at most max_tables (None: no bound)."""
    if field in errors:
        return
    if count < 4 or count % 2:
        errors[field] = (
            Msg(
                "must be an even number of pairs, at least 4: two pairs a table, two tables or more (not %(n)d)",
                n=count,
            )
            if field == "pairs"
            else Msg(
                "must be an even number of ladies, at least 4: two a table, two tables or more (not %(n)d)", n=count
            )
        )
    elif max_tables is not None and count > 2 * max_tables:
        errors[field] = Msg("a drive has at most %(max)d tables", max=max_tables)


def make_drive(data: Any, max_tables: int | None = MAX_TABLES, max_hands: int | None = MAX_HANDS) -> DriveSetup:
    """Check everything a drive is started with; raises InputError naming every wrong field. The bounds on tables and
    hands are the caller's (None: none, for a drive read back as it was stored)."""
    if not isinstance(data, Mapping):
        raise InputError({"body": Msg("must be a JSON object with the drive's format and players")})
    errors: dict[str, str] = {k: Msg("unknown field") for k in sorted(set(data) - set(FIELDS))}
    title = None
    try:
        title = check_name(data.get("title"), Msg("the title"), required=False, limit=TITLE_MAX)
    except ValueError as exc:
        errors["title"] = message_of(exc)
    format = data.get("format")
    ladies: list[str] = []
    gents: list[str] = []
    if format == "progressive":
        if "pairs" in data:
            errors["pairs"] = Msg("is for a couples drive; a progressive drive takes ladies and gents")
        ladies = _names(data.get("ladies"), "ladies", lambda n: Msg("lady %(n)d's name", n=n), errors)
        gents = _names(data.get("gents"), "gents", lambda n: Msg("gent %(n)d's name", n=n), errors)
        _tables(len(ladies), "ladies", errors, max_tables)
        if "ladies" not in errors and "gents" not in errors and len(gents) != len(ladies):
            errors["gents"] = Msg(
                "must be as many as the ladies (%(ladies)d ladies, %(gents)d gents)",
                ladies=len(ladies),
                gents=len(gents),
            )
    elif format == "couples":
        for field in ("ladies", "gents"):
            if field in data:
                errors[field] = Msg("is for a progressive drive; a couples drive takes pairs")
        ladies, gents = _pairs(data.get("pairs"), errors)
        _tables(len(ladies), "pairs", errors, max_tables)
    else:
        errors["format"] = Msg("must be one of %(choices)s", choices=", ".join(FORMATS))
    people = "pairs" if format == "couples" else "ladies"
    if people not in errors and "gents" not in errors:
        folded = [n.casefold() for n in ladies + gents]
        twice = sorted({n for n in ladies + gents if folded.count(n.casefold()) > 1})
        if twice:
            errors[people] = Msg("two players have the same name: %(names)s", names=", ".join(twice))
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
        errors["interval_after"] = Msg(
            "must be null or the number of hands before the interval, from 1 to %(last)d", last=max(hands - 1, 1)
        )
    tie_break = data.get("tie_break", "share")
    if tie_break not in TIE_BREAKS:
        errors["tie_break"] = Msg("must be one of %(choices)s", choices=", ".join(TIE_BREAKS))
    if errors:
        raise InputError(errors)
    return DriveSetup(str(format), tuple(ladies), tuple(gents), hands, tuple(trumps), interval, tie_break, title)


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


def _winner_loser(pairs: tuple[Partnership, Partnership], tricks: tuple[int, int]) -> tuple[Partnership, Partnership]:
    return (pairs[0], pairs[1]) if tricks[0] >= WINNING_TRICKS else (pairs[1], pairs[0])


def next_seating(setup: DriveSetup, seating: Seating, tricks: tuple[tuple[int, int], ...]) -> Seating:
    """The seating of the next hand from this one's results, by the drive's movement.

    Progressive: table t seats (the losing lady of t, the winning gent of up(t)) and (the winning lady of down(t),
    the losing gent of t). Couples: table t seats its losing pair and the winning pair of down(t).
    """
    results = [_winner_loser(pairs, t) for pairs, t in zip(seating, tricks)]
    n = setup.tables
    seated = []
    for t in range(1, n + 1):
        winner_up, winner_down = results[up(t, n) - 1][0], results[down(t, n) - 1][0]
        loser = results[t - 1][1]
        if setup.couples:
            seated.append((loser, winner_down))
        else:
            seated.append(((loser[0], winner_up[1]), (winner_down[0], loser[1])))
    return tuple(seated)


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


def seated_names(setup: DriveSetup, table: TableHand) -> list[list[str]]:
    """The table's two partnerships by name, as the drive lists them ([[lady, gent], [lady, gent]]): what a result
    may carry to say which seating it was entered for."""
    return [list(setup.names(pair)) for pair in table.pairs]


def _check_pairs(pairs: Any) -> bool:
    return (
        isinstance(pairs, list)
        and len(pairs) == 2
        and all(isinstance(p, list) and len(p) == 2 and all(isinstance(n, str) for n in p) for p in pairs)
    )


def play(setup: DriveSetup, results: Mapping[tuple[int, int], Any]) -> Drive:
    """Replay a drive from its results, keyed (hand, table): seat each hand, move by the results, add up.

    Raises InputError for a result that does not fit (bad tricks, an unknown table, a hand not yet seated).
    """
    checked: dict[tuple[int, int], tuple[int, int]] = {}
    for (hand, table), tricks in results.items():
        try:
            checked[hand, check_table(setup, table)] = check_tricks(tricks)
        except InputError as exc:
            exc.number = hand
            raise
    rounds: list[Round] = []
    seating = first_seating(setup)
    for hand in range(1, setup.hands + 1):
        tables = tuple(TableHand(t + 1, pairs, checked.get((hand, t + 1))) for t, pairs in enumerate(seating))
        rounds.append(Round(hand, setup.trump(hand), tables))
        if not rounds[-1].complete or hand == setup.hands:
            break
        seating = next_seating(setup, seating, tuple(t.tricks for t in tables if t.tricks is not None))
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


def accept(drive: Drive, hand: Any, table: Any, tricks: Any, pairs: Any = None) -> tuple[int, int, tuple[int, int]]:
    """Check a table's result for hand `hand` against the drive as it stands: (hand, table, tricks), or InputError
    (a wrong table, tricks or pairs), OutOfTurn (a hand that takes no result now) or SeatingChanged (`pairs`, the
    table's partnerships as the sender was shown them, are not the table's now: a correction of the hand before has
    seated this hand anew since). Without `pairs` the result is taken for whoever sits there now."""
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
    current = drive.current
    if not is_int(hand):
        raise OutOfTurn({"hand": Msg("must be a whole number")})
    if hand > setup.hands:
        raise OutOfTurn(
            {"hand": Msg("the drive has %(hands)d hands; there is no hand %(n)d", hands=setup.hands, n=hand)}
        )
    playing = drive.rounds[current - 1]
    if hand >= 1 and (hand == current or (hand == current - 1 and not playing.started)):
        if pairs is not None and pairs != seated_names(setup, drive.rounds[hand - 1].tables[table - 1]):
            raise SeatingChanged({"pairs": Msg("the seating changed — reload")}, hand)
        return hand, table, tricks
    if hand == current - 1:
        raise OutOfTurn(
            {"hand": Msg("hand %(next)d has results already; hand %(n)d can no longer change", next=current, n=hand)}
        )
    raise OutOfTurn(
        {"hand": Msg("results are taken for hand %(current)d now, not hand %(n)d", current=current, n=hand)}
    )


# ---------------------------------------------------------------- standings


def _places(by_total: Sequence[tuple[tuple[str, ...], tuple[int, ...]]], role: str, countback: bool) -> list[Standing]:
    """Sorted by total (then, under countback, the last hand's tricks, the one before, …); equal keys share a place."""

    def key(entry: tuple[tuple[str, ...], tuple[int, ...]]) -> tuple[int, tuple[int, ...]]:
        by_hand = entry[1]
        return sum(by_hand), tuple(reversed(by_hand)) if countback else ()

    ranked = sorted(by_total, key=key, reverse=True)  # stable: equal ones keep the order they were listed in
    out: list[Standing] = []
    for i, (names, by_hand) in enumerate(ranked):
        place = out[-1].place if out and key(ranked[i - 1]) == key((names, by_hand)) else i + 1
        out.append(Standing(names, role, sum(by_hand), place, by_hand))
    return out


def standings(setup: DriveSetup, rounds: list[Round] | tuple[Round, ...]) -> tuple[Standing, ...]:
    """Each player's (couples: each pair's) tricks in these hands, ladies then gents, each sorted and placed."""
    count = len(rounds)
    ladies = [[0] * count for _ in setup.ladies]
    gents = [[0] * count for _ in setup.gents]
    for i, played in enumerate(rounds):
        for table in played.tables:
            if table.tricks is None:
                continue
            for (lady, gent), tricks in zip(table.pairs, table.tricks):
                ladies[lady][i] += tricks
                gents[gent][i] += tricks
    countback = setup.tie_break == "countback"
    if setup.couples:
        pairs = [(setup.names((p, p)), tuple(ladies[p])) for p in range(len(setup.ladies))]
        return tuple(_places(pairs, "pair", countback))
    return tuple(
        _places([((name,), tuple(ladies[i])) for i, name in enumerate(setup.ladies)], "lady", countback)
        + _places([((name,), tuple(gents[i])) for i, name in enumerate(setup.gents)], "gent", countback)
    )
