"""The standings: tricks per player or pair, sit-outs, places by share or countback."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from scorekeeper.core.messages import Msg
from scorekeeper.drives.rules.model import DEFAULT_SIT_OUT, SIT_OUT_AVERAGE, DriveSetup, Person, Round, Standing

# ---------------------------------------------------------------- standings


def _sit_out_score(setup: DriveSetup, played: list[int]) -> int:
    """What a hand sat out scores: the drive's fixed number, or (under "average") the player's own average over the
    hands they played, rounded half up (7 before they have played one)."""
    if setup.sit_out == SIT_OUT_AVERAGE:
        return int(sum(played) / len(played) + 0.5) if played else DEFAULT_SIT_OUT
    return int(setup.sit_out)


def rank_key(s: Standing, countback: bool) -> tuple[int, tuple[int, ...]]:
    return s.total, tuple(reversed(s.by_hand)) if countback else ()


def _places(entries: Sequence[Standing], countback: bool) -> list[Standing]:
    """Sorted by total (then, under countback, the last hand's tricks, the one before, …); equal keys share a place.
    Those who did not play every hand follow, unplaced."""
    full = sorted((s for s in entries if s.full), key=lambda s: rank_key(s, countback), reverse=True)
    out: list[Standing] = []
    for i, s in enumerate(full):
        same = bool(out) and rank_key(full[i - 1], countback) == rank_key(s, countback)
        out.append(replace(s, place=out[-1].place if same else i + 1))
    out += sorted((s for s in entries if not s.full), key=lambda s: s.total, reverse=True)
    return out


OUT = -1  # a hand a seat sat out, in seat_tricks


def standings(
    setup: DriveSetup, rounds: list[Round] | tuple[Round, ...], now: int | None = None
) -> tuple[Standing, ...]:
    """Each player's (couples: each pair's; under the "continue" substitute rule, each card's) tricks in these hands,
    ladies then gents, each sorted and placed. `now`: the hand whose holders name a card or a pair (the last counted
    unless given: the hand being played, so that a substitute is named on the card before their first hand is in).

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
    named = max(last, min(now or last, setup.hands))

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

    def cards(role: str, seats: int) -> list[Standing]:
        """One card a seat: it plays every hand, whoever held it; named by who holds it `named`."""
        out = []
        for seat in range(seats):
            holders = [p for p in setup.seat_index.get((role, seat), ()) if p.first <= named]
            if not holders:
                continue
            first, holder = holders[0], holders[-1]
            formerly = tuple(p.name for p in holders[:-1])
            out.append(
                replace(
                    entry(first.key, role, (holder.name,), first, range(1, count + 1), formerly=formerly),
                    number=first.number,
                    lady_as_gent=holder.lady_as_gent,
                )
            )
        return out

    if setup.couples:
        pairs = []
        for seat in range(len(setup.ladies)):
            first, second = setup.holder("lady", seat, named), setup.holder("gent", seat, named)
            assert first is not None and second is not None
            formerly = tuple(
                p.name for p in setup.people if p.seat == seat and p.first <= named and p not in (first, second)
            )
            # A pair is what scores in a couples drive: it plays every hand, whoever of the two sat in it.
            pairs.append(
                entry(f"pair:{seat}", "pair", (first.name, second.name), first, range(1, count + 1), formerly=formerly)
            )
        return tuple(_places(pairs, countback))
    if setup.substitute_card == "continue":
        return tuple(
            _places(cards("lady", len(setup.ladies)), countback) + _places(cards("gent", len(setup.gents)), countback)
        )
    rows: dict[str, list[Standing]] = {"lady": [], "gent": []}
    for p in setup.people:
        if p.first <= last:
            left = p.last < setup.hands
            rows[p.role].append(entry(p.key, p.role, (p.name,), p, range(p.first, min(p.last, count) + 1), left=left))
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
