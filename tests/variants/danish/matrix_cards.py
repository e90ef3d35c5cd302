"""Two clubs' cards printed as a matrix (issue 44): a row per bid and suffix as the club names them, a column per number
of tricks the bidder's side takes (0–13), in each square what the bidder and the partner each get. Made once from a
table of rates (the tariffs of docs/rules.md) and rounded square by square, as clubs do, so no rule of the grid gives
them. Each card as a treasurer copies it from her spreadsheet (tab- or semicolon-separated, decimal commas, the row's
name first) and as the squares the scorer must score."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

TRICKS = range(14)


def half_up(value: Fraction) -> int:
    """Rounded as a treasurer rounds: a half up, in size (−2½ is −3)."""
    size = math.floor(abs(value) + Fraction(1, 2))
    return size if value >= 0 else -size


def to_five(value: Fraction) -> int:
    """Rounded to the nearest 5, a half up in size (a card in whole øre of five)."""
    return 5 * half_up(Fraction(value) / 5)


@dataclass(frozen=True)
class MatrixCard:
    name: str
    columns: tuple[tuple[str, str], ...]  # (the card's heading, the suffix), in the card's order
    squares: dict[tuple[int, str, int], int]  # (bid, suffix, tricks): what bidder and partner each get
    sol: dict[str, tuple[int, int]]  # won, lost
    sol_gaa_med: dict[str, str] = field(default_factory=dict)  # a sol bid's own gå med rule
    gaa_med: str = "independent"

    def label(self, n: int, suffix: str) -> str:
        heading = {s: h for h, s in self.columns}[suffix]
        return f"{n} {heading}".strip()

    def rows(self) -> list[tuple[str, int, str, list[int]]]:
        """(the row's name, bid, suffix, its 14 squares) in the card's order: bid by bid, the columns in turn."""
        return [
            (self.label(n, s), n, s, [self.squares[(n, s, t)] for t in TRICKS])
            for n in range(7, 14)
            for _heading, s in self.columns
        ]

    def paste(self, sep: str = "\t", *, header: bool = True, minus: str = "-", group: str = "", rows=None) -> str:
        """The card's rows as copied from a spreadsheet: the row's name, then its squares (the thousands grouped by
        `group`, as a Danish spreadsheet shows 1.280); a header of tricks first."""

        def written(v: int) -> str:
            size = f"{abs(v):,}".replace(",", group)
            return f"{minus}{size}" if v < 0 else size

        lines = [sep.join(["Stik", *map(str, TRICKS)])] if header else []
        for label, n, s, values in self.rows():
            if rows is not None and (n, s) not in rows:
                continue
            lines.append(sep.join([label, *map(written, values)]))
        return "\r\n".join(lines) + "\r\n"


def _club_of_quarters() -> MatrixCard:
    """Kløverknægten's card (the issue's club): a rate per bid of ¼, ½, 1, 2, 4, 8, 16 points, gode ×1½, halve ×1¾,
    vip ×1¼, 2 vip ×1½, 3 vip ×2; made: the rate and a third of it per trick over, lost: the rate and a half of it per
    missing trick beyond the first, a 13 lost 16 + 16 per missing trick; every square rounded on its own."""
    columns = (
        ("", "plain"),
        ("gode", "gode"),
        ("halve", "halve"),
        ("vip", "vip"),
        ("2 vip", "vip2"),
        ("3 vip", "vip3"),
    )
    factor = {"plain": 1, "gode": Fraction(3, 2), "halve": Fraction(7, 4), "vip": Fraction(5, 4)}
    factor |= {"vip2": Fraction(3, 2), "vip3": 2}
    rate = {7: Fraction(1, 4), 8: Fraction(1, 2), 9: 1, 10: 2, 11: 4, 12: 8, 13: 16}
    squares = {}
    for n in range(7, 14):
        for _h, s in columns:
            r = rate[n] * factor[s]
            for t in TRICKS:
                if t >= n:
                    squares[(n, s, t)] = half_up(r * (1 + Fraction(t - n, 3)))
                elif n == 13:
                    squares[(n, s, t)] = -half_up(16 * factor[s] * (1 + (n - t)))
                else:
                    squares[(n, s, t)] = -half_up(r * (1 + Fraction(n - t - 1, 2)))
    return MatrixCard(
        name="Kløverknægten",
        columns=columns,
        squares=squares,
        sol={"sol": (2, 2), "ren_sol": (5, 5), "bordlaegger": (4, 4), "ren_bordlaegger": (5, 5)},
        sol_gaa_med={"sol": "independent"},
        gaa_med="vs_non_participants",
    )


def _club_of_fives() -> MatrixCard:
    """Spar Es' card: docs/rules.md's tariff 10, 20, 40, 80, 160, 320, 640 with vip ×1¼, gode and sans ×1½, halve
    ×1¾, stærke ×2; made: the value per trick taken from the bid on, lost: twice the value per missing trick; every
    square rounded to the nearest five."""
    columns = (("alm.", "plain"), ("vip", "vip"), ("gode", "gode"), ("sans", "sans"), ("halve", "halve"))
    columns += (("stærke", "staerke"),)
    factor = {"plain": 1, "vip": Fraction(5, 4), "gode": Fraction(3, 2), "sans": Fraction(3, 2)}
    factor |= {"halve": Fraction(7, 4), "staerke": 2}
    tariff = dict(zip(range(7, 14), (10, 20, 40, 80, 160, 320, 640)))
    squares = {}
    for n in range(7, 14):
        for _h, s in columns:
            v = tariff[n] * factor[s]
            for t in TRICKS:
                squares[(n, s, t)] = to_five(v * (1 + t - n)) if t >= n else -to_five(2 * v * (n - t))
    return MatrixCard(
        name="Spar Es",
        columns=columns,
        squares=squares,
        sol={"sol": (50, 100), "ren_sol": (100, 200), "bordlaegger": (150, 300), "ren_bordlaegger": (200, 400)},
        gaa_med="independent",
    )


QUARTERS = _club_of_quarters()
FIVES = _club_of_fives()
CARDS = (QUARTERS, FIVES)


def cells(card: MatrixCard) -> dict[str, int]:
    """RULES.md's `cells` of every square: made with d over, or lost by d, and its size."""
    return {(f"{n}/{s}/+{t - n}" if t >= n else f"{n}/{s}/-{n - t}"): abs(v) for (n, s, t), v in card.squares.items()}


def house(card: MatrixCard) -> dict:
    """The card as the API takes it: a factor per suffix (any: every square has its own value) and every square."""
    suffixes = {s: {"base": 1, "trick": 1} for _h, s in card.columns}
    return {
        "suffixes": suffixes,
        "overrides": {},
        "cells": cells(card),
        "sol": {
            bid: {"max_tricks": 0 if bid.startswith("ren") else 1, "won": won, "lost": lost}
            | ({"gaa_med": card.sol_gaa_med[bid]} if bid in card.sol_gaa_med else {})
            for bid, (won, lost) in card.sol.items()
        },
        "gaa_med": card.gaa_med,
    }


def names(card: MatrixCard) -> dict:
    return {"columns": [{"heading": h, "suffixes": [s]} for h, s in card.columns], "sol": {}}
