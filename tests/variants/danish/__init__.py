"""Danish whist's test data (tests/variants/__init__.py says what each name is for), and its house tariffs'
strategies: random valid houses and hands of a game with one (variants/danish/test_house_properties.py)."""

import random

from hypothesis import strategies as st

from scorekeeper.core import make_setup
from scorekeeper.variants.danish import rules as danish
from variants import trump_code

PLAYERS = ["Anna", "Bo", "Carl", "Dina"]
NAMES = ["Anna", "Bo", "Carl", "Dina", "Erik"]
SUITS = ["hearts", "diamonds", "clubs", "spades"]
SOLO_BIDS = ["sol", "ren_sol", "bordlaegger", "ren_bordlaegger"]
TABLES = (4, 5)
GAME = {
    "players": ["Anna", "Bo", "Carl", "Dina", "Eva"],  # five: the dealer sits out
    "options": {"rate": 0.05, "lost": "per_trick"},
    "hands": [
        {"bidder": 2, "bid": 8, "suffix": "sans", "partner": 4, "tricks": 10},
        {"passed": True},
        {"bidder": 0, "bid": "sol", "tricks": 1},
        {"bidder": 0, "bid": 9, "suffix": "gode", "partner": 0, "tricks": 9},
        {"bidder": 3, "bid": 10, "suffix": "plain", "trump": "spades", "partner": 1, "tricks": 8},
    ],
}
# RULES.md "Exact points": the club's card with quarter points ("ingen afrunding: kvarte point føres"), as the API takes
# it (strings "3/4", "1 1/4"), its eight hands at five players and what each scores, the totals and the money.
Q = {"made": "3/4", "over": "3/4", "lost": 0, "short": "3/4"}
QUARTER_CARD = {
    "levels": {
        "8": Q,
        "9": {"made": "3/2", "over": "3/2", "lost": 0, "short": "3/2"},
        "10": {"made": 3, "over": 3, "lost": 0, "short": 3},
    },
    "suffixes": {s: {"base": 1, "trick": 1} for s in ("plain", "vip", "gode", "sans", "halve", "vip2", "vip3")},
    "overrides": {
        "8/sans": {"made": "1 1/4", "over": "1 1/4", "lost": 0, "short": "1 1/4"},
        "8/halve": {"made": "1 1/4", "over": "1 1/4", "lost": 0, "short": "1 1/4"},
        "8/vip2": {"made": "1 1/4", "over": "1 1/4", "lost": 0, "short": "1 1/4"},
        "8/gode": {"made": "1 3/4", "over": "1 3/4", "lost": 0, "short": "1 3/4"},
        "8/vip3": {"made": "1 3/4", "over": "1 3/4", "lost": 0, "short": "1 3/4"},
        "9/vip2": {"made": 3, "over": 3, "lost": 0, "short": 3},
        "10/sans": {"made": 7, "over": 7, "lost": 0, "short": 7},
    },
    "sol": {
        "sol": {"max_tricks": 1, "won": "2 1/2", "lost": "2 1/2"},
        "bordlaegger": {"max_tricks": 1, "won": 14, "lost": 14},
    },
    "gaa_med": "independent",
    "rounding": "none",
}
QUARTER_PLAYERS = ["Anna", "Bo", "Carl", "Dina", "Eva"]
QUARTER_HANDS = [
    ({"bidder": 1, "bid": 8, "suffix": "plain", "trump": "hearts", "partner": 3, "tricks": 9}, "0 3/2 -3/2 3/2 -3/2"),
    ({"bidder": 2, "bid": "sol", "tricks": 0}, "-5/2 0 15/2 -5/2 -5/2"),
    ({"passed": True}, "0 0 0 0 0"),
    ({"bidder": 4, "bid": 9, "suffix": "vip2", "trump": "hearts", "partner": 0, "tricks": 8}, "-3 3 3 0 -3"),
    (
        {"bidder": 0, "bid": 8, "suffix": "gode", "trump": "clubs", "partner": 0, "tricks": 10},
        "63/4 -21/4 -21/4 -21/4 0",
    ),
    ({"bidder": 1, "bid": "sol", "tricks": 1, "with": [{"seat": 3, "tricks": 2}]}, "0 10 0 -10 0"),
    ({"bidder": 3, "bid": 10, "suffix": "sans", "trump": "none", "partner": 4, "tricks": 7}, "21 0 21 -21 -21"),
    ({"bidder": 0, "bid": "bordlaegger", "tricks": 2}, "-42 14 0 14 14"),
]
QUARTER_TOTALS = ["-43/4", "93/4", "99/4", "-93/4", -14]  # as the API writes them
QUARTER_BALANCES = ["-0.54", "1.16", "1.24", "-1.16", "-0.70"]  # at 0.05 a point, largest remainder
FORM_HANDS = [
    {"bidder": "0", "bid": "8", "trump": "spades", "partner": "2", "tricks": "10"},
    {"bidder": "1", "bid": "9-sans", "partner": "self", "tricks": "9"},
    {"bidder": "1", "bid": "sol", "tricks": "1"},
    {"passed": "1"},
]
BLANK_COLUMNS = ["Bidder", "Bid", "Trump", "Partner", "Tricks", "Σ"]
LONG = ({}, None)  # no end
OPTION_SETS = [
    {},
    {"lost": "per_trick"},
    {"deals": 8},
    {"tariff": [3, 5, 7, 11, 13, 17, 19], "solo_values": {"sol": 7, "ren_bordlaegger": 999}},
]
CONTEXT_FREE = True


def long_hands(n: int, seed: int = 1) -> list[dict]:
    """A realistic mix: made and lost bids with every suffix, sols, a passed-out deal now and then."""
    rng = random.Random(f"danish-{n}-{seed}")
    out = []
    for _ in range(n):
        r = rng.random()
        bidder = rng.randrange(4)
        if r < 0.06:
            out.append({"passed": True})
        elif r < 0.14:
            out.append(
                {
                    "bidder": bidder,
                    "bid": rng.choice(["sol", "sol", "ren_sol", "bordlaegger"]),
                    "tricks": rng.choice([0, 1, 1, 2]),
                }
            )
        else:
            bid = rng.choice([7, 7, 8, 8, 8, 9, 9, 10, 11])
            suffix = rng.choice(["plain", "plain", "plain", "vip", "gode", "sans", "halve"])
            trump = {"gode": "clubs", "sans": "none"}.get(suffix) or rng.choice(SUITS)
            out.append(
                {
                    "bidder": bidder,
                    "bid": bid,
                    "suffix": suffix,
                    "trump": trump,
                    "partner": rng.choice([bidder, (bidder + 1) % 4, (bidder + 2) % 4, (bidder + 3) % 4]),
                    "tricks": rng.randint(bid - 2, min(13, bid + 2)),
                }
            )
    return out


def hand(draw, setup, index):
    """A valid hand for a table of n whose dealer (who sits out when n is 5) deals hand index + 1."""
    n, dealer = setup.n, (setup.dealer + index) % setup.n
    playing = [s for s in range(n) if not (n == 5 and s == dealer)]
    kind = draw(st.sampled_from(["trick", "trick", "trick", "solo", "passed"]))
    if kind == "passed":
        return {"passed": True}
    bidder = draw(st.sampled_from(playing))
    tricks = draw(st.integers(0, 13))
    if kind == "solo":
        return {"bidder": bidder, "bid": draw(st.sampled_from(SOLO_BIDS)), "tricks": tricks}
    suffix = draw(st.sampled_from(["plain", "vip", "gode", "sans", "halve"]))
    trump = {"gode": "clubs", "sans": "none"}.get(suffix) or draw(
        st.sampled_from(SUITS + (["none"] if suffix == "vip" else []))
    )
    return {
        "bidder": bidder,
        "bid": draw(st.integers(7, 13)),
        "suffix": suffix,
        "trump": trump,
        "partner": draw(st.sampled_from(playing)),
        "tricks": tricks,
    }


def from_csv(row, game):
    seat = {name: i for i, name in enumerate(game["players"])}
    if row["passed"] == "yes":
        return {"passed": True}
    # The CSV says a bid, its suffix and trump as the sheet does (issue 44): "ren sol", "vip 3", "♥".
    bid = int(row["bid"]) if row["bid"].isdigit() else row["bid"].replace(" ", "_").replace("æ", "ae")
    out = {"bidder": seat[row["bidder"]], "bid": bid, "tricks": int(row["tricks"])}
    if isinstance(bid, int):
        suffix = row["suffix"].replace(" ", "").replace("æ", "ae") or "plain"
        out.update(suffix=suffix, trump=trump_code(row["trump"]), partner=seat[row["partner"]])
    return out


# ------------------------------------------------------------------ house tariffs (option `house`)

PRESET_NAMES = [
    "standard",
    "per_trick",
    "double_sol",
    "quarter_steps",
    "suffix_base_only",
    "gode_not_doubled",
    "tricks_times_tariff",
    "half_overtricks",
    "lost_base_plus_short",
    "grand_slam_double",
    "selvmakker_two_shares",
    "sol_lost_equals_won",
    "sol_join_independent",
    "sol_join_vs_others",
    "winners_pool",
    "more_suffixes",
]
ALL_SUFFIXES = ["plain", "vip", "gode", "sans", "halve", "vip2", "vip3", "staerke"]
SUFFIX_TRUMPS = {"gode": ["clubs"], "sans": ["none"], "staerke": ["spades"]}
ROUNDINGS = ["half_away", "ceil", "floor", "trunc", "away", "none"]
# Numbers as a table might type them: whole, decimal, a fraction string.
AMOUNTS = st.one_of(st.integers(0, 500), st.sampled_from([0.5, 2.5, "1/2", "7/3", "10/4", "12.5"]))
FACTORS = st.sampled_from([1, 2, 3, "5/4", "3/2", "7/4", "1/2", 0.75, "2/3"])


@st.composite
def houses(draw):
    """A random valid `house`: some levels and suffixes, maybe overrides, cells, slam factors, any rounding."""
    levels = draw(st.lists(st.sampled_from([str(n) for n in range(7, 14)]), min_size=1, max_size=7, unique=True))
    suffixes = ["plain"] + draw(st.lists(st.sampled_from(ALL_SUFFIXES[1:]), max_size=7, unique=True))
    level = st.fixed_dictionaries({"made": AMOUNTS, "over": AMOUNTS, "lost": AMOUNTS, "short": AMOUNTS})
    house = {
        "levels": {n: draw(level) for n in levels},
        "suffixes": {s: {"base": draw(FACTORS), "trick": draw(FACTORS)} for s in suffixes},
        "rounding": draw(st.sampled_from(ROUNDINGS)),
        "selvmakker": {"factor": draw(FACTORS), "rounding": draw(st.sampled_from(ROUNDINGS))},
        "gaa_med": draw(st.sampled_from([None, "independent", "vs_non_participants", "winners_pool"])),
        "sol": {
            bid: {
                "max_tricks": draw(st.integers(0, 2)),
                "won": draw(AMOUNTS),
                "lost": draw(AMOUNTS),
                "won_per_under": draw(st.sampled_from([0, 5, "1/2"])),
                "lost_per_over": draw(st.sampled_from([0, 10, 2.5])),
            }
            for bid in draw(st.lists(st.sampled_from(SOLO_BIDS), min_size=1, max_size=4, unique=True))
        },
    }
    for entry in house["sol"].values():  # a sol bid's own gå med rule (issue 44), or the house's
        own = draw(st.sampled_from(["house", None, "independent", "vs_non_participants", "winners_pool"]))
        if own != "house":
            entry["gaa_med"] = own
    if draw(st.booleans()):
        n, s = draw(st.sampled_from(levels)), draw(st.sampled_from(suffixes))
        house["overrides"] = {f"{n}/{s}": draw(level)}
    if draw(st.booleans()):
        n, s = int(draw(st.sampled_from(levels))), draw(st.sampled_from(suffixes))
        step = draw(st.sampled_from([f"+{d}" for d in range(0, 14 - n)] + [f"-{d}" for d in range(1, n + 1)]))
        house["cells"] = {f"{n}/{s}/{step}": draw(st.one_of(st.integers(0, 999), AMOUNTS))}  # a square: ¾ too
    if draw(st.booleans()):
        house["slam"] = {
            "made_factor": {"13": draw(FACTORS)},
            "lost_factor": {"0": draw(FACTORS)},
            "made_extra": {"13": draw(st.integers(0, 2))},
        }
    return house


def house_hand(draw, setup, index):
    """A valid Danish hand for hand index + 1 of a game with a house: only its bids, gå med when it allows it."""
    house = danish.house_of(setup.options)
    n, dealer = setup.n, (setup.dealer + index) % setup.n
    playing = [s for s in range(n) if not (n == 5 and s == dealer)]
    kinds = ["trick", "trick", "trick", "solo", "passed"] + (["iron"] if setup.options.get("iron_hand") else [])
    kind = draw(st.sampled_from(kinds))
    bids = list(danish.ladder(house))
    if kind == "passed" or not bids:
        return {"passed": True}
    if kind == "iron":
        return {"iron_hand": draw(st.sampled_from(playing))}
    bidder = draw(st.sampled_from(playing))
    solos = [b for b, s in bids if s is None]
    tricks_ = [b for b in bids if b[1] is not None]
    if (kind == "solo" and solos) or not tricks_:
        inp = {"bidder": bidder, "bid": draw(st.sampled_from(solos)), "tricks": draw(st.integers(0, 13))}
        rule = house.gaa_med_of(inp["bid"])
        if rule and draw(st.booleans()):
            limit = len(playing) - (2 if rule == "winners_pool" else 1)
            others = draw(st.lists(st.sampled_from([s for s in playing if s != bidder]), max_size=limit, unique=True))
            left = 13 - inp["tricks"]
            joined = []
            for s in others:
                t = draw(st.integers(0, left))
                left -= t
                joined.append({"seat": s, "tricks": t})
            if joined:
                inp["with"] = joined
        return inp
    number, suffix = draw(st.sampled_from(tricks_))
    trump = draw(st.sampled_from(SUFFIX_TRUMPS.get(suffix) or SUITS + (["none"] if suffix.startswith("vip") else [])))
    return {
        "bidder": bidder,
        "bid": number,
        "suffix": suffix,
        "trump": trump,
        "partner": draw(st.sampled_from(playing)),
        "tricks": draw(st.integers(0, 13)),
    }


@st.composite
def house_games(draw, max_hands=12):
    """(setup, inputs): a Danish game with a preset or a random house (maybe with jernhånd), and its hands."""
    n = draw(st.sampled_from([4, 5]))
    options = draw(
        st.one_of(
            st.sampled_from(PRESET_NAMES).map(lambda name: {"preset": name}),
            houses().map(lambda house: {"house": house}),
        )
    )
    if draw(st.booleans()):
        options["iron_hand"] = True
    setup = make_setup("danish", NAMES[:n], draw(st.integers(0, n - 1)), options)
    inputs = [house_hand(draw, setup, i) for i in range(draw(st.integers(0, max_hands)))]
    return setup, inputs


# ------------------------------------------------------------------ the largest card (issue 44: no square ever lost)

# What a square may hold as the API takes it, in turn: whole, a fraction, a mixed number, a decimal, zero, large.
SQUARE_WRITINGS = [7, "3/4", "1 1/4", 0.75, 0, "12.5", "999999/7", 250000, "2 2/3", "5/8"]
LONG_NAME = "Ren bordlægger med tre vendte kort og stærke i sidste stik!!"  # 60 characters, the most a name may be


def signed_matrix() -> dict[tuple[int, str, int], object]:
    """The card as a matrix card prints it: a square per bid 7–13, suffix and tricks 0–13, what bidder and partner
    each get (negative when lost), written in every way the API takes a number; 7 × 8 × 14 = 784 squares."""
    out = {}
    k = 0
    for n in range(7, 14):
        for s in ALL_SUFFIXES:
            for t in range(14):
                value = SQUARE_WRITINGS[k % len(SQUARE_WRITINGS)]
                k += 1
                out[(n, s, t)] = value if t >= n else ("-" + value if isinstance(value, str) else -value)
    return out


def cells_of(matrix) -> dict[str, object]:
    """RULES.md's `cells` for a signed matrix: the key says made with d over or lost by d, the value its size."""
    out = {}
    for (n, s, t), value in matrix.items():
        key = f"{n}/{s}/+{t - n}" if t >= n else f"{n}/{s}/-{n - t}"
        out[key] = (
            value[1:]
            if isinstance(value, str) and value.startswith("-")
            else abs(value)
            if not isinstance(value, str)
            else value
        )
    return out


def largest_card() -> dict:
    """A club's options with every part of the house the model has, filled: every level, every suffix, an override for
    every bid and suffix, a square of its own for every one of the 784 (bid, suffix, tricks), slam factors for every
    number of tricks, every sol bid with its own gå med rule, exact points, and the club's words at their longest."""
    levels = {str(n): {"made": f"{n} 1/4", "over": "3/4", "lost": 2 * n, "short": f"{n}/3"} for n in range(7, 14)}
    suffixes = {s: {"base": f"{i + 4}/4", "trick": 1.5 if i % 2 else "7/4"} for i, s in enumerate(ALL_SUFFIXES)}
    overrides = {
        f"{n}/{s}": {"made": n + i, "over": "1/2", "lost": f"{i} 1/2", "short": 0.25}
        for n in range(7, 14)
        for i, s in enumerate(ALL_SUFFIXES)
    }
    house = {
        "levels": levels,
        "suffixes": suffixes,
        "overrides": overrides,
        "cells": cells_of(signed_matrix()),
        "slam": {
            "made_factor": {str(t): "5/4" if t % 2 else 2 for t in range(14)},
            "lost_factor": {str(t): "3/2" if t % 2 else 1 for t in range(14)},
            "made_extra": {str(t): t % 3 for t in range(14)},
        },
        "rounding": "none",
        "selvmakker": {"factor": "2/3", "rounding": "none"},
        "sol": {
            "sol": {
                "max_tricks": 1,
                "won": "2 1/2",
                "lost": "5/2",
                "won_per_under": "1/4",
                "lost_per_over": 1,
                "gaa_med": "independent",
            },
            "ren_sol": {"max_tricks": 0, "won": 5, "lost": 5, "gaa_med": "vs_non_participants"},
            "bordlaegger": {"max_tricks": 1, "won": 4, "lost": "4.5", "gaa_med": "winners_pool"},
            "ren_bordlaegger": {"max_tricks": 0, "won": 5, "lost": 5, "gaa_med": None},
        },
        "gaa_med": "vs_non_participants",
    }
    names = {
        "columns": [{"heading": LONG_NAME[:59] + str(i), "suffixes": [s]} for i, s in enumerate(ALL_SUFFIXES)],
        "sol": {bid: LONG_NAME[:59] + str(i) for i, bid in enumerate(SOLO_BIDS)},
    }
    return {"house": house, "card_names": names, "rate": "0.25", "iron_hand": True}


def squares(options) -> dict[tuple, object]:
    """Every square a house scores, as the scorer computes it: each (bid, suffix, tricks) of the 784, each sol bid
    made and lost by every number of tricks; with the gå med rule of each sol bid."""
    house = danish.house_of(options)
    out: dict[tuple, object] = {}
    for n in range(7, 14):
        for s in ALL_SUFFIXES:
            for t in range(14):
                out[(n, s, t)] = house.trick_value(n, s, t) if house.can_bid(n, s) else None
    for bid in SOLO_BIDS:
        for t in range(14):
            out[(bid, t)] = house.sol_value(bid, t) if bid in house.sol else None
        out[(bid, "gaa_med")] = house.gaa_med_of(bid) if bid in house.sol else "missing"
    return out
