"""Scotch whist dealt ten each at two or three players (`hand_size: 10`, en.shram.kiev.ua "Scottish Whist"): the
rest put aside, so an honour may not be dealt. RULES.md's worked examples, its refusals, then the invariants."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import examples, points, refused
from scorekeeper.core import InputError, make_setup, play

NAMES = ["Anna", "Bo", "Carl", "Dina"]
HONOURS = ("jack", "ten", "ace", "king", "queen")


def game(n=3, **options):
    return make_setup("scotch", NAMES[:n], 0, {"hand_size": 10, **options})


def test_ten_tricks_a_deal():
    assert play(game(3), []).next_cards == 10 and play(game(2), []).next_cards == 10


def test_card_points_with_ten_dealt():
    # Three players, a player who took 5 tricks took 15 cards of 10 dealt: 5.
    honours = {"jack": 1, "ten": 1, "ace": 1, "king": 1, "queen": 1}
    assert points(play(game(3), [{"tricks": [5, 3, 2], "honours": honours}])) == [[5, 30, 0]]


def test_the_worked_hand_with_the_ace_not_dealt():
    # Tricks 5–3–2, jack and king to 0, ten to 1, queen to 2, the ace not dealt: 5 + 11 + 3 = 19, 10, 2.
    honours = {"jack": 0, "ten": 1, "ace": None, "king": 0, "queen": 2}
    assert points(play(game(3), [{"tricks": [5, 3, 2], "honours": honours}])) == [[19, 10, 2]]


def test_the_count_out_passes_over_an_honour_not_dealt():
    # Two players to 20. Deal 1, 5–5: jack and ace to 0 (15), ten and king to 1 (13), the queen not dealt.
    first = {"tricks": [5, 5], "honours": {"jack": 0, "ten": 1, "ace": 0, "king": 1, "queen": None}}
    # Deal 2, 4–6, the ten not dealt: counted out cards (1: 12 of 10 dealt, +2 → 15), ace 1 → 19, king 0 → 18,
    # queen 1 → 21: player 1 over first, though player 0's jack ends the deal at 29 against 21.
    second = {"tricks": [4, 6], "honours": {"jack": 0, "ten": None, "ace": 1, "king": 0, "queen": 1}}
    p = play(game(2, target=20), [first, second])
    assert points(p) == [[15, 13], [14, 8]]
    assert p.totals == (29, 21) and p.finished and p.winner == 1


def test_null_while_all_the_cards_are_dealt_is_refused():
    setup = make_setup("scotch", NAMES[:3])
    refused(
        setup, [{"tricks": [4, 4, 4], "honours": {"jack": 0, "ten": 1, "ace": None, "king": 0, "queen": 2}}], "honours"
    )


def test_tricks_must_add_up_to_ten():
    refused(game(3), [{"tricks": [4, 4, 4], "honours": dict.fromkeys(HONOURS, 0)}], "tricks")


@pytest.mark.parametrize("n, value", [(4, 10), (5, 10), (8, 10), (3, 9), (2, 12), (3, "10"), (3, True), (3, 10.0)])
def test_other_sizes_and_larger_tables_are_refused_by_the_option(n, value):
    with pytest.raises(InputError) as exc:
        make_setup("scotch", (NAMES + ["Erik", "Frida", "Gunnar", "Hanne"])[:n], 0, {"hand_size": value})
    assert list(exc.value.errors) == ["options.hand_size"]


def test_the_default_deals_all_the_cards():
    assert make_setup("scotch", NAMES[:3]).options["hand_size"] is None
    assert play(make_setup("scotch", NAMES[:3]), []).next_cards == 12


@st.composite
def deal(draw, width):
    cuts = sorted(draw(st.lists(st.integers(0, 10), min_size=width - 1, max_size=width - 1)))
    tricks = [b - a for a, b in zip([0, *cuts], [*cuts, 10])]
    took = [s for s in range(width) if tricks[s]]
    return {"tricks": tricks, "honours": {h: draw(st.sampled_from([None, *took])) for h in HONOURS}}


@settings(max_examples=examples(300), deadline=None)
@given(st.sampled_from([2, 3]), st.data())
def test_totals_are_the_sum_of_the_hands_and_nothing_scores_an_honour_not_dealt(n, data):
    setup = game(n, target=500)
    hands = data.draw(st.lists(deal(n), max_size=10))
    p = play(setup, hands)
    for k, h in enumerate(p.hands):
        assert h.totals == tuple(sum(x.points[s] for x in p.hands[: k + 1]) for s in range(n))
        dealt = sum(v for name, v in setup.options["values"].items() if h.input["honours"][name] is not None)
        cards = sum(max(0, n * t - 10) for t in h.input["tricks"])
        assert sum(h.points) == dealt + cards
