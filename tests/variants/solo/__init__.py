"""Solo whist's test data (tests/variants/__init__.py says what each name is for)."""

import random

from hypothesis import strategies as st

from scorekeeper.variants.solo.rules import BIDS

PLAYERS = ["Anna", "Bo", "Carl", "Dina"]
# Foster's Hoyle: red counters worth five white, a white per over- or undertrick.
FOSTER = {
    "values": {
        "prop": 5,
        "solo": 10,
        "misere": 15,
        "abundance": 20,
        "royal_abundance": 20,
        "misere_ouverte": 30,
        "abundance_declared": 40,
    },
    "overtricks": 1,
}
GAME = {
    "options": {**FOSTER, "rate": 0.1, "deals": 8},
    "hands": [
        {"bid": "solo", "bidder": 1, "tricks": 7},  # Foster: +36 / −12
        {"bid": "prop", "bidder": 0, "partner": 2, "tricks": 9},  # 5 + 1 = 6 each way
        {"passed": True},
        {"bid": "misere", "bidder": 3, "tricks": 1},  # lost: −45 / +15
        {"bid": "abundance_declared", "bidder": 2, "tricks": 13},  # the bidder leads: +120 / −40
    ],
}
FORM_HANDS = [
    {"bid": "solo", "bidder": "1", "tricks": "7"},
    {"bid": "prop", "bidder": "0", "partner": "2", "tricks": "8"},
    {"bid": "misere", "bidder": "3", "tricks": "0"},
    {"passed": "1"},
]
BLANK_COLUMNS = ["Contract", "Bidder", "Partner", "Tricks", "Σ"]
LONG = ({}, None)  # no end
OPTION_SETS = [
    {},
    FOSTER,
    {"deals": 8},
    {"overtricks": 3, "values": {"solo": 2, "misere": 5}},
    {"rate": 0.5},
    {"overtricks": {"prop": 1, "solo": 3, "abundance": 3}, "undertricks": 1, "prop_slam": "double"},
    {"overtricks": 2, "undertricks": {"solo": 4}, "prop_undertricks": "first_free"},
]
CONTEXT_FREE = True


def long_hands(n: int, seed: int = 1) -> list[dict]:
    """Mostly props and solos, a misère or an abundance now and then, a passed-out deal."""
    rng = random.Random(f"solo-{n}-{seed}")
    out = []
    for _ in range(n):
        r = rng.random()
        bidder = rng.randrange(4)
        if r < 0.08:
            out.append({"passed": True})
        elif r < 0.5:
            partner = rng.choice([s for s in range(4) if s != bidder])
            out.append({"bid": "prop", "bidder": bidder, "partner": partner, "tricks": rng.randint(5, 11)})
        else:
            bid = rng.choice(["solo", "solo", "solo", "misere", "abundance", "royal_abundance", "misere_ouverte"])
            tricks = rng.choice([0, 0, 1]) if bid.startswith("misere") else rng.randint(3, 11)
            out.append({"bid": bid, "bidder": bidder, "tricks": tricks})
    return out


def hand(draw, setup, index):
    if draw(st.integers(0, 9)) == 0:
        return {"passed": True}
    bid = draw(st.sampled_from(BIDS))
    bidder = draw(st.integers(0, 3))
    inp = {"bid": bid, "bidder": bidder}
    if bid == "prop":
        inp["partner"] = draw(st.sampled_from([s for s in range(4) if s != bidder]))
    inp["tricks"] = draw(st.integers(0, 13))
    return inp


# The contracts as the CSV names them (the sheet's words), back to the API's codes.
BID_CODES = {
    "prop and cop": "prop",
    "misère": "misere",
    "royal abundance": "royal_abundance",
    "misère ouverte": "misere_ouverte",
    "abundance declared": "abundance_declared",
}


def from_csv(row, game):
    seat = {name: i for i, name in enumerate(game["players"])}
    if row["passed"] == "yes":
        return {"passed": True}
    out = {"bid": BID_CODES.get(row["bid"], row["bid"]), "bidder": seat[row["bidder"]]}
    if row["partner"]:
        out["partner"] = seat[row["partner"]]
    out["tricks"] = int(row["tricks"])
    return out
