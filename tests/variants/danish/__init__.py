"""Danish whist's test data (tests/variants/__init__.py says what each name is for), and its house tariffs'
strategies: random valid houses and hands of a game with one (variants/danish/test_house_properties.py)."""

import random

from hypothesis import strategies as st

from scorekeeper.core import make_setup
from scorekeeper.variants.danish import rules as danish

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
    bid = int(row["bid"]) if row["bid"].isdigit() else row["bid"]
    out = {"bidder": seat[row["bidder"]], "bid": bid, "tricks": int(row["tricks"])}
    if isinstance(bid, int):
        out.update(suffix=row["suffix"], trump=row["trump"], partner=seat[row["partner"]])
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
ROUNDINGS = ["half_away", "ceil", "floor", "trunc", "away"]
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
    if draw(st.booleans()):
        n, s = draw(st.sampled_from(levels)), draw(st.sampled_from(suffixes))
        house["overrides"] = {f"{n}/{s}": draw(level)}
    if draw(st.booleans()):
        n, s = int(draw(st.sampled_from(levels))), draw(st.sampled_from(suffixes))
        step = draw(st.sampled_from([f"+{d}" for d in range(0, 14 - n)] + [f"-{d}" for d in range(1, n + 1)]))
        house["cells"] = {f"{n}/{s}/{step}": draw(st.integers(0, 999))}
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
        if house.gaa_med and draw(st.booleans()):
            limit = len(playing) - (2 if house.gaa_med == "winners_pool" else 1)
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
