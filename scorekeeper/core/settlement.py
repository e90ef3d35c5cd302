"""Who pays whom: per-player points × rate, in whole øre/cents that add up exactly, in at most n − 1 payments."""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction


@dataclass(frozen=True)
class Payment:
    payer: int
    payee: int
    cents: int


@dataclass(frozen=True)
class Settlement:
    rate: Decimal
    balances: tuple[int, ...]  # cents per player, adding up to zero when the points do
    payments: tuple[Payment, ...]


def side_balances(side_points, sides, n: int) -> tuple[int, ...]:
    """Per player what the points of k sides of equal size are worth against every other side: k·s_i − Σs for each
    player of side i. Two sides: partners each win or lose the sides' difference; one player a side: the sum of the
    differences to each other player. They add up to zero."""
    k, total = len(side_points), sum(side_points)
    per_player = [0] * n
    for s, seats in enumerate(sides):
        for seat in seats:
            per_player[seat] = k * side_points[s] - total
    return tuple(per_player)


def to_cents(points, rate) -> tuple[int, ...]:
    """Points × rate in cents, rounded once per balance by largest remainder (RULES.md "Exact points"): each rounded
    down, and the cents still missing to the exact sum (rounded half away from zero) go one each to the largest
    remainders, equal ones to the lower seat first. Exact for points that are not whole (Fractions) too."""
    per_point = Fraction(str(rate)) * 100
    exact = [Fraction(p) * per_point for p in points]
    floors = [math.floor(x) for x in exact]
    total = sum(exact, Fraction(0))
    wanted = (1 if total >= 0 else -1) * math.floor(abs(total) + Fraction(1, 2))
    short = wanted - sum(floors)
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - floors[i]), i))
    cents = list(floors)
    for i in order[:short]:
        cents[i] += 1
    return tuple(cents)


def payments(balances) -> tuple[Payment, ...]:
    """Largest debtor pays largest creditor until all are square: each payment clears at least one player."""
    owed = {i: b for i, b in enumerate(balances) if b}
    result = []
    while owed:
        creditor = max(owed, key=lambda i: (owed[i], -i))
        debtor = min(owed, key=lambda i: (owed[i], i))
        if owed[creditor] <= 0 or owed[debtor] >= 0:
            break  # the balances do not add up to zero; what is left cannot be paid between players
        amount = min(owed[creditor], -owed[debtor])
        result.append(Payment(debtor, creditor, amount))
        for i, delta in ((creditor, -amount), (debtor, amount)):
            owed[i] += delta
            if not owed[i]:
                del owed[i]
    return tuple(result)


def settle(points, rate) -> Settlement:
    balances = to_cents(points, rate)
    return Settlement(Decimal(str(rate)), balances, payments(balances))


def format_cents(cents: int) -> str:
    """Cents as a decimal string with two places: -305 → "-3.05"."""
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"
