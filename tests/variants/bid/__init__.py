"""Bid whist's test data (tests/variants/__init__.py says what each name is for)."""

from hypothesis import strategies as st

from scorekeeper.variants.bid.rules import DIRECTIONS

PLAYERS = ["Ada", "Ben", "Cleo", "Dan"]
GAME = {
    "options": {"target": 11, "rate": 1},
    "hands": [
        {"bidder": 0, "bid": 4, "direction": "uptown", "tricks": [10, 3]},  # made: 4
        {"passed": True},
        {"bidder": 1, "bid": 5, "direction": "no_trump", "tricks": [6, 7]},  # set: −10, the defenders 0
        {"bidder": 3, "bid": 3, "direction": "downtown", "tricks": [4, 9]},  # made: 3
    ],
}
FORM_HANDS = [
    {"bidder": "0", "bid": "4", "direction": "uptown", "tricks": "10"},
    {"bidder": "1", "bid": "3", "direction": "no_trump", "tricks": "9"},
    {"passed": "1"},
]
BLANK_COLUMNS = ["Bidder", "Bid", "Direction", "Books"]
LONG = ({"target": 100}, None)
OPTION_SETS = [
    {},
    {"target": 21},
    {"made": "books", "boston": "wins_game"},
    {"set_defenders": False, "no_trump_double": False, "boston": "none"},
    {"kitty": False, "min_bid": 1, "target": 11},
    {"min_bid": 4, "target": 3},
]
CONTEXT_FREE = True


def long_hands(n: int, seed: int = 1) -> list[dict]:
    """Bids of 3 made by exactly nine books, then set by one, in turn: the totals stay near 0, no game ends."""
    del seed
    out = []
    for i in range(n):
        bidder = i % 4
        books = 9 if (i // 4) % 2 == 0 else 8
        side = bidder % 2
        tricks = [books, 13 - books] if side == 0 else [13 - books, books]
        out.append({"bidder": bidder, "bid": 3, "direction": "uptown", "tricks": tricks})
    return out


def hand(draw, setup, index):
    options = setup.options
    if draw(st.integers(0, 9)) == 0:
        return {"passed": True}
    bidder = draw(st.integers(0, 3))
    books = draw(st.integers(1 if options["kitty"] else 0, 13))
    side = bidder % 2
    return {
        "bidder": bidder,
        "bid": draw(st.integers(options["min_bid"], 7)),
        "direction": draw(st.sampled_from(DIRECTIONS)),
        "tricks": [books, 13 - books] if side == 0 else [13 - books, books],
    }


def from_csv(row, game):
    seat = {name: i for i, name in enumerate(game["players"])}
    if row["passed"] == "yes":
        return {"passed": True}
    sides = [" & ".join(game["players"][s] for s in side) for side in game["sides"]]
    return {
        "bidder": seat[row["bidder"]],
        "bid": int(row["bid"]),
        "direction": row["direction"].replace(" ", "_"),  # "no trump", as the sheet says it
        "tricks": [int(row[f"tricks {s}"]) for s in sides],
    }
