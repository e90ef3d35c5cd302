"""Classic whist's test data (tests/variants/__init__.py says what each name is for)."""

import random

from hypothesis import strategies as st

from variants import trump_code

PLAYERS = ["Anna", "Bo", "Carl", "Dina"]
GAME = {
    "options": {"honours": True, "rubber": True, "target": 7},  # no game of the rubber ends in these three
    "hands": [
        {"trump": "hearts", "tricks": [8, 5], "honours": [3, 1]},
        {"trump": "spades", "tricks": [4, 9], "revoke": {"side": 0, "penalty": "deduct"}},
        {"trump": "clubs", "tricks": [7, 6], "revoke": {"side": 1, "penalty": "add"}},
    ],
}
FORM_HANDS = [{"trump": "hearts", "tricks": "8"}, {"trump": "spades", "tricks": "5"}]
BLANK_COLUMNS = ["Trump", "Tricks", "Revoke"]
# A tournament of at most 500 deals.
LONG = ({"deals": 500}, 500)
OPTION_SETS = [
    {},
    {"honours": True},
    {"rubber": True},
    {"rubber": True, "honours": True},
    {"target": 7, "honours": True},
    {"target": 10, "revoke_penalty": 2},
    {"deals": 6},
    {"deals": 8, "trump_rotation": True, "no_trump_every": 3},
    {"rubber": True, "target": 7},
    {"target": 30, "honours": True},
]
CONTEXT_FREE = False  # honours and a revoke depend on the score before the hand
SUITS = ["hearts", "diamonds", "clubs", "spades"]


def long_hands(n: int, seed: int = 1) -> list[dict]:
    rng = random.Random(f"classic-{n}-{seed}")
    out = []
    for _ in range(n):
        a = rng.randint(3, 10)
        out.append({"trump": rng.choice(SUITS), "tricks": [a, 13 - a]})
    return out


def hand(draw, setup, index):
    options = setup.options
    inp = {}
    if not options.get("trump_rotation"):
        inp["trump"] = draw(st.sampled_from(SUITS))
    a = draw(st.integers(0, 13))
    inp["tricks"] = [a, 13 - a]
    if options.get("honours") and draw(st.booleans()):
        h = draw(st.integers(0, 4))
        inp["honours"] = [h, 4 - h]
    if draw(st.integers(0, 4)) == 0:
        inp["revoke"] = {"side": draw(st.integers(0, 1)), "penalty": draw(st.sampled_from(["tricks", "add", "deduct"]))}
    return inp


def from_csv(row, game):
    sides = [" & ".join(game["players"][s] for s in side) for side in game["sides"]]

    def per_side(field):
        values = [row.get(f"{field} {s}") for s in sides]
        return [int(v) for v in values] if all(values) else None

    out = {"tricks": per_side("tricks"), "trump": trump_code(row["trump"])}
    if per_side("honours"):
        out["honours"] = per_side("honours")
    if row["revoke"]:
        out["revoke"] = {"side": sides.index(row["revoke"]), "penalty": row["revoke penalty"]}
    return out
