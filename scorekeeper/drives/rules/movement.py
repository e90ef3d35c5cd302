"""The movements: where each pair sits for the next hand (winners move up, losers down, or fresh partners)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from scorekeeper.drives.rules.model import WINNING_TRICKS, DriveSetup, Partnership, Seating

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


def spares_together(setup: DriveSetup, seating: Seating) -> Seating:
    """The seating with the spare seats kept together (the "sit_out" spare-seat rule): each empty lady's seat is
    partnered with an empty gent's seat (in order), the gent who would have partnered her taking the empty gent's
    place, so that one table sits out (its two players scoring the sit-out tricks) rather than two playing with a
    dummy. Couples drives' empty seats are a pair already."""
    if setup.couples:
        return seating
    empty_ladies = [s for s in range(setup.seats) if setup.empty("lady", s)]
    empty_gents = [s for s in range(setup.seats) if setup.empty("gent", s)]
    tables = [list(map(list, t)) for t in seating]
    for lady, gent in zip(empty_ladies, empty_gents):
        where = {(t, i): pair for t, pairs in enumerate(tables) for i, pair in enumerate(pairs)}
        at_lady = next(k for k, pair in where.items() if pair[0] == lady)
        at_gent = next(k for k, pair in where.items() if pair[1] == gent)
        if at_lady != at_gent:
            partner = where[at_lady][1]
            where[at_lady][1], where[at_gent][1] = gent, partner
    return tuple((tuple(t[0]), tuple(t[1])) for t in tables)  # type: ignore[return-value]


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
