"""Swedish whist's test data (tests/variants/__init__.py says what each name is for)."""

import random

from hypothesis import strategies as st

PLAYERS = ["Åsa", "Björn", "Örjan", "Märta"]
GAME = {"options": {"deals": 4}, "hands": [{"red": 3, "tricks": [5, 8]}, {"red": None, "tricks": [4, 9]}]}
FORM_HANDS = [{"red": "3", "tricks": "5"}]
BLANK_COLUMNS = ["First red / black", "Tricks"]
# Every hand scores a point: a game to 100 is over after at most 199 hands.
LONG = ({"target": 100}, 190)
OPTION_SETS = [{}, {"deals": 4}, {"target": 40}]
CONTEXT_FREE = True


def long_hands(n: int, seed: int = 1) -> list[dict]:
    """One point a hand, to each side in turn."""
    rng = random.Random(f"swedish-{n}-{seed}")
    out = []
    for i in range(n):
        side = i % 2
        if rng.random() < 0.3:
            out.append({"red": side + 2 * rng.randrange(2), "tricks": [7, 6] if side == 0 else [6, 7]})
        else:
            out.append({"red": None, "tricks": [6, 7] if side == 0 else [7, 6]})
    return out


def hand(draw, setup, index):
    a = draw(st.integers(0, 13))
    return {"red": draw(st.one_of(st.none(), st.integers(0, 3))), "tricks": [a, 13 - a]}


def from_csv(row, game):
    seat = {name: i for i, name in enumerate(game["players"])}
    sides = [" & ".join(game["players"][s] for s in side) for side in game["sides"]]
    red = row["first red"]  # the column as the sheet heads it (issue 44)
    return {"tricks": [int(row[f"tricks {s}"]) for s in sides], "red": seat[red] if red else None}
