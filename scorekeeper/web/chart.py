"""The running totals as a small line chart: pure geometry, no markup (the macro in templates/_chart.html draws it).

One line per side from 0 before the first hand through each hand's total; the y scale always holds zero, where the
axis is drawn. Coordinates are in the SVG's own units, rounded to whole units (a third of a millimetre on the phone, a quarter
on paper: finer digits only made the 50-hand page heavier).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from scorekeeper.core.numbers import Point

WIDTH, HEIGHT = 340, 140
LEFT, PAD = 40, 6  # the left gutter holds the top and bottom values
DASHES = ("", "6 3", "2 3", "9 3 2 3", "1 3")  # so that the lines part on grey paper too


def _r(v: float | Fraction) -> int:
    return round(v)


def running_totals(totals: Sequence[Sequence[Point]], names: Sequence[str], label=str) -> dict | None:
    """The chart of `totals` (each hand's running totals, one per side) for sides called `names`; `label` writes a
    number (the pages' minus sign). None before the first hand."""
    if not totals:
        return None
    values = [v for row in totals for v in row]
    top, bottom = max(0, *values), min(0, *values)
    span = (top - bottom) or 1
    inner_w, inner_h = WIDTH - LEFT - PAD, HEIGHT - 2 * PAD
    step = inner_w / len(totals)

    def y(v: Point) -> float:
        return _r(PAD + (top - v) * inner_h / span)

    lines = []
    for side, name in enumerate(names):
        coords = [(_r(LEFT), y(0))] + [(_r(LEFT + (i + 1) * step), y(row[side])) for i, row in enumerate(totals)]
        lines.append(
            {
                "name": name,
                "index": side,
                "dash": DASHES[side % len(DASHES)],
                "points": " ".join(f"{x:g},{yy:g}" for x, yy in coords),
                "last": coords[-1],
            }
        )
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - PAD,
        "zero": y(0),
        "top": {"y": _r(PAD), "text": label(top)},
        "bottom": {"y": _r(HEIGHT - PAD), "text": label(bottom)},
        "label_x": LEFT - 4,
        "lines": lines,
    }


def season(values: Sequence[Point], name: str, label=str) -> dict | None:
    """A member's season evening by evening: the running sum of `values` (one per evening played) as one line."""
    running: list[tuple[Point]] = []
    total: Point = 0
    for v in values:
        total += v
        running.append((total,))
    return running_totals(running, [name], label=label)
