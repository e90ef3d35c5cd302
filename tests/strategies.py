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
