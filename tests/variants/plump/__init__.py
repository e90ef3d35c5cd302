"""Plump's test data (tests/variants/__init__.py says what each name is for)."""

from hypothesis import strategies as st

from scorekeeper.core import VARIANTS, table_context

PLAYERS = ["Anna", "Bo", "Carl", "Dina"]
# Three deals of 3, 2 and 1 cards: bids, tricks, the deal's size sent once as the form sends it.
GAME = {
    "options": {"schedule": "down", "max_cards": 3, "lead": "highest_bid"},
    "hands": [
        {"bids": [1, 1, 0, 0], "tricks": [1, 1, 1, 0]},
        {"bids": [0, 1, 0, 0], "tricks": [0, 1, 1, 0]},
        {"bids": [1, 1, 0, 0], "tricks": [1, 0, 0, 0]},
    ],
}
# The first deal of the default schedule (10 cards); the last player's tricks are filled in.
FORM_HANDS = [
    {"b0": "3", "b1": "2", "b2": "0", "b3": "4", "t0": "3", "t1": "1", "t2": "0"},
    {"b0": "0", "b1": "1", "b2": "1", "b3": "1", "t0": "0", "t1": "1", "t2": "1", "t3": "7"},
]
BLANK_COLUMNS = ["Cards", "bid"]
LONG = ({"schedule": [5] * 60}, 60)
OPTION_SETS = [
    {},
    {"schedule": "up", "max_cards": 3},
    {"hook": False, "miss": "tricks"},
    {"lead": "highest_bid", "miss": "minus_difference", "zero_bid": 10},
    {"schedule": [2, 1, 2], "bonus": 0},
    {"schedule": "up_down_twice", "max_cards": 5, "bonus_round_zero": 20, "miss": "minus_made"},
    {"schedule": "down_up_twice", "max_cards": 3, "miss": "minus_made", "zero_bid": 10},
]
# The points of a hand depend on no score before it, but whether it fits depends on its place (the deal's size).
CONTEXT_FREE = False


def long_hands(n: int, seed: int = 1) -> list[dict]:
    """Five cards a deal, four players: each takes their bid in turn, the others miss."""
    out = []
    for i in range(n):
        lucky = (i + seed) % 4
        out.append({"bids": [1, 1, 1, 1], "tricks": [2 if s == lucky else 1 for s in range(4)]})
    return out


def hand(draw, setup, index):
    rules, table = VARIANTS[setup.variant], table_context(setup)
    cards, n = rules.cards(index + 1, table), setup.n
    dealer = (setup.dealer + index) % n
    bids = [draw(st.integers(0, cards)) for _ in range(n)]
    if setup.options["hook"] and sum(bids) == cards:
        bids[dealer] = draw(st.sampled_from([b for b in range(cards + 1) if b != bids[dealer]]))
    tricks, left = [], cards
    for _ in range(n - 1):
        tricks.append(draw(st.integers(0, left)))
        left -= tricks[-1]
    tricks.append(left)
    order = draw(st.permutations(range(n)))
    return {"bids": bids, "tricks": [tricks[order[s]] for s in range(n)]}


def from_csv(row, game):
    players = game["players"]
    return {
        "bids": [int(row[f"bid {p}"]) for p in players],
        "tricks": [int(row[f"tricks {p}"]) for p in players],
    }
