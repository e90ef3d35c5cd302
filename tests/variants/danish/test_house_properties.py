"""Property tests of Danish house tariffs: every preset and random houses add up, replay like a fresh game, and score
what their printed matrix says."""

import dataclasses

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import examples
from scorekeeper.core import make_setup, play, play_on
from scorekeeper.variants.danish import rules as danish
from variants.danish import house_games, house_hand, houses

SETTINGS = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def is_pool(setup, inp):
    bid = inp.get("bid")
    return danish.is_solo(bid) and danish.house_of(setup.options).gaa_med_of(bid) == "winners_pool"


@SETTINGS
@given(house_games())
def test_every_hand_adds_up_to_zero_but_the_winners_pool(game):
    setup, inputs = game
    p = play(setup, inputs)
    for h in p.hands:
        if not is_pool(setup, h.input):
            assert sum(h.points) == 0, h
        if setup.n == 5:
            assert h.points[h.dealer] == 0


@SETTINGS
@given(house_games(), st.data())
def test_going_on_and_editing_equal_a_fresh_replay(game, data):
    setup, inputs = game
    whole = play(setup, inputs)
    for j in range(len(inputs) + 1):
        assert play_on(play(setup, inputs[:j]), inputs[j:]) == whole
    if inputs:
        k = data.draw(st.integers(0, len(inputs) - 1))
        edited = inputs[:k] + [house_hand(data.draw, setup, k)] + inputs[k + 1 :]
        fresh = play(make_setup("danish", list(setup.players), setup.dealer, dict(setup.options)), edited)
        assert play(setup, edited) == fresh
        assert fresh.hands[:k] == whole.hands[:k]


@SETTINGS
@given(house_games())
def test_the_stored_options_score_the_same_game(game):
    """The resolved options (what is stored and answered) make the same game when a game is started with them."""
    setup, inputs = game
    again = make_setup("danish", list(setup.players), setup.dealer, dict(setup.options))
    assert again.options == setup.options
    assert play(again, inputs).totals == play(setup, inputs).totals


@SETTINGS
@given(house_games())
def test_the_printed_matrix_is_what_a_hand_scores(game):
    setup, inputs = game
    matrix = danish.tariff_matrix(setup.options)
    rows = {(bid, suffix): values for bid, suffix, values in matrix["rows"]}
    sols = dict(matrix["sol_rows"])
    house = danish.house_of(setup.options)
    for h in play(setup, inputs).hands:
        inp = h.input
        if inp.get("passed") or "iron_hand" in inp:
            assert set(h.points) == {0}
        elif danish.is_solo(inp["bid"]):
            if "with" not in inp and house.gaa_med_of(inp["bid"]) != "winners_pool":
                assert h.points[inp["bidder"]] == 3 * sols[inp["bid"]][inp["tricks"]]
        else:
            x = rows[(inp["bid"], inp["suffix"])][inp["tricks"]]
            if inp["partner"] == inp["bidder"]:
                assert h.points[inp["bidder"]] == 3 * house.selvmakker(x)
            else:
                assert h.points[inp["bidder"]] == h.points[inp["partner"]] == x


@SETTINGS
@given(houses())
def test_a_house_is_normalised_once(house):
    """Resolving a resolved house changes nothing: what the answer shows starts the same game."""
    setup = make_setup("danish", ["A", "B", "C", "D"], 0, {"house": house})
    assert (
        make_setup("danish", ["A", "B", "C", "D"], 0, {"house": setup.options["house"]}).options["house"]
        == (setup.options["house"])
    )


@SETTINGS
@given(houses())
def test_a_houses_remembered_values_are_what_its_rule_and_squares_say(given_house):
    """trick_value keeps what it found per (bid, suffix, tricks) (issue 47: a night scores the same few squares again
    and again): the second look is the first's value, every value is the rule's or the square's, and what is kept
    stays within the card's bids × suffixes × 14."""
    options = make_setup("danish", ["A", "B", "C", "D"], 0, {"house": given_house}).options
    house = danish.house_of(options)
    fresh = dataclasses.replace(house)  # the same house, nothing looked up yet
    seen = {}
    for n in house.levels:
        for suffix in house.suffixes:
            for tricks in range(14):
                first = house.trick_value(n, suffix, tricks)
                assert house.trick_value(n, suffix, tricks) is first
                cell = house.cells.get(house.cell_key(n, suffix, tricks))
                expected = house.rule_value(n, suffix, tricks) if cell is None else (cell if tricks >= n else -cell)
                assert first == expected
                seen[n, suffix, tricks] = first
    assert len(house._values) == len(seen) <= len(house.levels) * len(house.suffixes) * 14
    assert house == fresh  # what is kept is no part of the house's value
