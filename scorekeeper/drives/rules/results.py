"""The tables' results and the replay: a result checked against the seating, the drive replayed, corrections as a tournament director makes them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scorekeeper.core.fields import is_int, trick_pair
from scorekeeper.core.messages import InputError, Msg
from scorekeeper.drives.rules.model import (
    TRICKS,
    Drive,
    DriveSetup,
    OutOfTurn,
    Round,
    Seating,
    SeatingChanged,
    TableHand,
)
from scorekeeper.drives.rules.movement import first_seating, fresh_seating, next_seating, plays, spares_together
from scorekeeper.drives.rules.standings import standings

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
        if hand not in kept_seatings and setup.spare_seats == "sit_out":
            seating = spares_together(setup, seating)
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
    # The standings after hand n count hands 1 … n: the hand being played counts only once a table has sent it (its
    # sit-outs with it), and is then provisional until every table has.
    counted = rounds if last.started or last.complete else rounds[:-1]
    return Drive(setup, tuple(rounds), last.hand, finished, standings(setup, counted, last.hand), half_time)


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
