"""Scotch whist's test data (tests/variants/__init__.py says what each name is for)."""

import random

from hypothesis import strategies as st

from scorekeeper.core import VARIANTS, table_context

HONOURS = ("jack", "ten", "ace", "king", "queen")
PLAYERS = ["Anna", "Bo", "Carl", "Dina"]
GAME = {
    "options": {},
    "hands": [
        {"tricks": [3, 2, 4, 0], "honours": {"jack": 2, "ten": 0, "ace": 1, "king": 2, "queen": 0}},
        {"tricks": [1, 1, 1, 6], "honours": {"jack": 3, "ten": 3, "ace": 0, "king": 1, "queen": 2}},
    ],
}
# Each player's tricks but the last (filled in), and one tap per honour: the side that took it.
FORM_HANDS = [{"t0": "3", "t1": "2", "t2": "4", "jack": "2", "ten": "0", "ace": "1", "king": "2", "queen": "0"}]
BLANK_COLUMNS = ["Tricks", "Honours"]
# Only the ten counts, one point: a game to 500 at four is over after at most 4 × 499 + 1 hands.
LONG = ({"target": 500, "values": {"jack": 0, "ten": 1, "ace": 0, "king": 0, "queen": 0}, "card_points": "none"}, 1997)
OPTION_SETS = [
    {},
    {"card_points": "none"},
    {"target": 100},
    {"values": {"ten": 20, "jack": 5}},
    {"target": 25, "card_points": "none"},
]
CONTEXT_FREE = True


def long_hands(n: int, seed: int = 1) -> list[dict]:
    """Four alone, nine tricks: every side takes some, the ten goes round, the other honours anywhere."""
    rng = random.Random(f"scotch-{n}-{seed}")
    out = []
    for i in range(n):
        tricks = [2, 2, 2, 2]
        tricks[rng.randrange(4)] += 1
        out.append({"tricks": tricks, "honours": {h: (i % 4 if h == "ten" else rng.randrange(4)) for h in HONOURS}})
    return out


def hand(draw, setup, index):
    rules = VARIANTS[setup.variant]
    table = table_context(setup)
    width, total = len(rules.sides(table)), rules.cards(index + 1, table)
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=width - 1, max_size=width - 1)))
    tricks = [b - a for a, b in zip([0, *cuts], [*cuts, total])]
    took = [s for s in range(width) if tricks[s]]
    return {"tricks": tricks, "honours": {h: draw(st.sampled_from(took)) for h in HONOURS}}


def from_csv(row, game):
    sides = [" & ".join(game["players"][s] for s in side) for side in game["sides"]]
    return {
        "tricks": [int(row[f"tricks {s}"]) for s in sides],
        "honours": {h: sides.index(row[h]) for h in HONOURS},
    }
