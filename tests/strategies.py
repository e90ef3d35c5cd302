"""Hypothesis strategies: random valid games of every variant, cut where they end."""

from hypothesis import strategies as st

from scorekeeper.core import GameOver, make_setup, play

NAMES = ["Anna", "Bo", "Carl", "Dina", "Erik"]
SUITS = ["hearts", "diamonds", "clubs", "spades"]
SOLO_BIDS = ["sol", "ren_sol", "bordlaegger", "ren_bordlaegger"]
VARIANTS = ["classic", "norwegian", "danish", "german", "swedish"]
# Variants whose hand points depend only on the hand and its dealer, never on the score before it.
CONTEXT_FREE = {"norwegian", "danish", "german", "swedish"}


# ------------------------------------------------------------------ strategies: one hand


def classic_hand(draw, options, number):
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


def norwegian_hand(draw, options, number):
    a = draw(st.integers(0, 13))
    if draw(st.booleans()):
        return {"bid": "grand", "bidder": draw(st.integers(0, 3)), "tricks": [a, 13 - a]}
    return {"bid": "pass", "tricks": [a, 13 - a]}


def german_hand(draw, options, number):
    total = 26 if options.get("count") == "all26" else 13
    a = draw(st.integers(0, total))
    return {"tricks": [a, total - a]}


def swedish_hand(draw, options, number):
    a = draw(st.integers(0, 13))
    return {"red": draw(st.one_of(st.none(), st.integers(0, 3))), "tricks": [a, 13 - a]}


def danish_hand(draw, n, dealer):
    """A valid Danish hand for a table of n whose dealer is `dealer` (who sits out when n is 5)."""
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


CLASSIC_OPTIONS = [
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
OPTION_SETS = {
    "classic": CLASSIC_OPTIONS,
    "norwegian": [{}, {"set_bonus": 1}, {"pass_scoring": "under_seven"}, {"target": 25}, {"target": 100}],
    "danish": [
        {},
        {"lost": "per_trick"},
        {"deals": 8},
        {"tariff": [3, 5, 7, 11, 13, 17, 19], "solo_values": {"sol": 7, "ren_bordlaegger": 999}},
    ],
    "german": [{}, {"count": "all26"}, {"target": 30}, {"count": "all26", "target": 12}],
    "swedish": [{}, {"deals": 4}, {"target": 40}],
}
HAND = {"classic": classic_hand, "norwegian": norwegian_hand, "german": german_hand, "swedish": swedish_hand}


def one_hand(draw, setup, index):
    """A valid input for hand number index + 1 of the game `setup`."""
    if setup.variant == "danish":
        return danish_hand(draw, setup.n, (setup.dealer + index) % setup.n)
    return HAND[setup.variant](draw, setup.options, index + 1)


def table_size(variant, draw):
    if variant == "danish":
        return draw(st.sampled_from([4, 5]))
    return 2 if variant == "german" else 4


@st.composite
def games(draw, variant, n=None, max_hands=14):
    """(setup, inputs): a random valid game, cut where it ended."""
    n = n or table_size(variant, draw)
    options = draw(st.sampled_from(OPTION_SETS[variant]))
    setup = make_setup(variant, NAMES[:n], draw(st.integers(0, n - 1)), options)
    inputs = [one_hand(draw, setup, i) for i in range(draw(st.integers(0, max_hands)))]
    return setup, until_end(setup, inputs)


def until_end(setup, inputs):
    """The inputs up to the hand that ended the game."""
    try:
        play(setup, inputs)
    except GameOver as exc:
        return inputs[: exc.number - 1]
    return inputs


# ------------------------------------------------------------------ Danish house tariffs (option `house`)

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
    from scorekeeper.core.variants import danish

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
