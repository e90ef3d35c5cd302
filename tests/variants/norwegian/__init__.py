"""Norwegian whist's test data (tests/variants/__init__.py says what each name is for)."""

import random

from hypothesis import strategies as st

PLAYERS = ["Ola", "Kari", "Per", "Liv"]
GAME = {
    "options": {"target": 25, "rate": 1},
    "hands": [{"bid": "grand", "bidder": 2, "tricks": [8, 5]}, {"bid": "pass", "tricks": [4, 9]}],
}
FORM_HANDS = [{"bid": "grand-2", "tricks": "5"}, {"bid": "pass", "tricks": "4"}]
BLANK_COLUMNS = ["Grand by / pass", "Tricks"]
LONG = ({"target": 100}, None)
OPTION_SETS = [
    {},
    {"set_bonus": 1},
    {"pass_scoring": "under_seven"},
    {"target": 25},
    {"target": 100},
    {"grand_lost": "bidder_loses"},
    {"preset": "parlett"},
    {"preset": "south_dakota"},
]
CONTEXT_FREE = True


def long_hands(n: int, seed: int = 1) -> list[dict]:
    """A pass of 6–7 scores nothing; every tenth hand a grand made by 7 scores 1."""
    rng = random.Random(f"norwegian-{n}-{seed}")
    out = []
    for i in range(n):
        if i % 10 == 9:
            bidder = (i // 10) % 4
            out.append({"bid": "grand", "bidder": bidder, "tricks": [7, 6] if bidder % 2 == 0 else [6, 7]})
        else:
            out.append({"bid": "pass", "tricks": rng.choice([[6, 7], [7, 6]])})
    return out


def hand(draw, setup, index):
    a = draw(st.integers(0, 13))
    bids = ["grand", "pass"] + (["nullo"] if setup.options.get("lead") == "bidder_left" else [])
    bid = draw(st.sampled_from(bids))
    if bid == "pass":
        return {"bid": "pass", "tricks": [a, 13 - a]}
    return {"bid": bid, "bidder": draw(st.integers(0, 3)), "tricks": [a, 13 - a]}


def from_csv(row, game):
    seat = {name: i for i, name in enumerate(game["players"])}
    sides = [" & ".join(game["players"][s] for s in side) for side in game["sides"]]
    out = {"tricks": [int(row[f"tricks {s}"]) for s in sides], "bid": row["bid"].lower()}  # "Grand", as the sheet
    if row["bidder"]:
        out["bidder"] = seat[row["bidder"]]
    return out
