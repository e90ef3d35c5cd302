"""Hypothesis strategies: random valid games of every variant, cut where they end. Each variant's own hand
strategy, option sets and table sizes are in tests/variants/<name>.py."""

from hypothesis import strategies as st

from scorekeeper.core import VARIANTS as REGISTRY
from scorekeeper.core import GameOver, make_setup, play
from variants import EXAMPLES, players, tables

VARIANTS = list(REGISTRY)
# Variants whose hand points depend only on the hand and its dealer, never on the score before it.
CONTEXT_FREE = {name for name in VARIANTS if EXAMPLES[name].CONTEXT_FREE}


def one_hand(draw, setup, index):
    """A valid input for hand number index + 1 of the game `setup`."""
    return EXAMPLES[setup.variant].hand(draw, setup, index)


def table_size(variant, draw):
    return draw(st.sampled_from(tables(variant)))


@st.composite
def games(draw, variant, n=None, max_hands=14):
    """(setup, inputs): a random valid game, cut where it ended."""
    n = n or table_size(variant, draw)
    options = draw(st.sampled_from(EXAMPLES[variant].OPTION_SETS))
    setup = make_setup(variant, players(variant, n), draw(st.integers(0, n - 1)), options)
    inputs = [one_hand(draw, setup, i) for i in range(draw(st.integers(0, max_hands)))]
    return setup, until_end(setup, inputs)


def until_end(setup, inputs):
    """The inputs up to the hand that ended the game."""
    try:
        play(setup, inputs)
    except GameOver as exc:
        return inputs[: exc.number - 1]
    return inputs
