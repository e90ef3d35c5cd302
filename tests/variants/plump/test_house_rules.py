"""Plump's house rules of issue 36, each worked example of RULES.md "plump" as a test: ten players, the schedules
`up_down_twice` and `down_up_twice`, the bonus round (`bonus_round_zero`) and `miss: minus_made`; and the properties
with these options drawn."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import examples, points
from scorekeeper.core import InputError, deal_sizes, make_setup, play
from strategies import one_hand

NAMES = ["Anna", "Bo", "Carl", "Dina", "Erik", "Frida", "Gunnar", "Hanne", "Ida", "Jens", "Karl"]


def game(n=4, dealer=0, **options):
    return make_setup("plump", NAMES[:n], dealer, options)


def hand(bids, tricks):
    return {"bids": bids, "tricks": tricks}


@pytest.mark.parametrize("n, max_cards", [(9, 5), (10, 5)])
def test_nine_and_ten_players_are_dealt_five_cards_at_most(n, max_cards):
    assert game(n).options["max_cards"] == max_cards
    with pytest.raises(InputError) as exc:
        game(n, max_cards=6)
    assert "options.max_cards" in exc.value.errors


def test_ten_players_play_a_deal_and_eleven_are_refused():
    p = play(game(10), [hand([1, 0, 0, 0, 0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 0, 0, 0, 0, 0])])
    assert points(p) == [[11, 0, 0, 0, 0, 5, 5, 5, 5, 5]] and p.hands[0].cards == 5
    with pytest.raises(InputError) as exc:
        game(11)
    assert "players" in exc.value.errors


@pytest.mark.parametrize(
    "schedule, sizes",
    [
        ("up_down_twice", [1, 2, 3, 3, 2, 1]),  # the largest deal twice: 2 × max_cards deals
        ("down_up_twice", [3, 2, 1, 1, 2, 3]),  # the one-card deal twice
    ],
)
def test_the_twice_schedules(schedule, sizes):
    assert list(deal_sizes(game(schedule=schedule, max_cards=3))) == sizes


def test_the_scorecards_game_for_three_is_34_deals_from_1_to_17_and_back():
    sizes = list(deal_sizes(game(3, schedule="up_down_twice", max_cards=17)))
    assert sizes == list(range(1, 18)) + list(range(17, 0, -1)) and len(sizes) == 34


def test_the_scorecards_game_for_four_is_up_down_with_thirteen():
    sizes = list(deal_sizes(game(4, schedule="up_down", max_cards=13)))
    assert len(sizes) == 25 and sizes[12] == 13


def test_rules_example_the_bonus_round_of_three_players():
    """zero_bid 10, bonus_round_zero 20, three players, 17 cards, bids 10, 6, 0 and tricks 10, 7, 0: 20, (miss), 20."""
    setup = game(3, schedule=[17, 16], zero_bid=10, bonus_round_zero=20)
    p = play(setup, [hand([10, 6, 0], [10, 7, 0]), hand([0, 6, 9], [0, 7, 9])])
    assert points(p)[0] == [20, 0, 20]
    assert points(p)[1] == [10, 0, 19]  # 16 cards is no bonus round: a made zero is zero_bid


@pytest.mark.parametrize("n, cards", [(2, 25), (3, 17), (4, 12), (5, 10), (6, 8), (7, 7), (8, 6), (9, 5), (10, 5)])
def test_the_bonus_round_is_the_deal_of_51_over_players(n, cards):
    setup = game(n, schedule=[cards, cards - 1] if cards > 1 else [cards], bonus_round_zero=30)
    bids = [0] * n
    tricks = [cards] + [0] * (n - 1)
    assert points(play(setup, [hand(bids, tricks)]))[0][1:] == [30] * (n - 1)
    if cards > 1:
        assert points(play(setup, [hand(bids, tricks), hand(bids, [cards - 1] + [0] * (n - 1))]))[1][1] == 5


def test_without_bonus_round_zero_the_bonus_round_is_an_ordinary_deal():
    p = play(game(3, schedule=[17], zero_bid=10), [hand([10, 6, 0], [10, 7, 0])])
    assert points(p) == [[20, 0, 10]]


def test_rules_example_minus_made_bid_two_made_twelve_missed_minus_twelve():
    p = play(game(miss="minus_made"), [hand([2, 2, 0, 4], [2, 3, 1, 4])])
    assert points(p) == [[12, -12, -5, 14]]  # a missed 0 costs zero_bid


def test_minus_made_a_missed_zero_in_the_bonus_round_costs_bonus_round_zero():
    p = play(game(3, schedule=[17], miss="minus_made", bonus_round_zero=20), [hand([10, 6, 0], [9, 7, 1])])
    assert points(p) == [[-20, -16, -20]]


@pytest.mark.parametrize(
    "options, field",
    [
        ({"schedule": "twice"}, "options.schedule"),
        ({"bonus_round_zero": 101}, "options.bonus_round_zero"),
        ({"bonus_round_zero": -1}, "options.bonus_round_zero"),
        ({"bonus_round_zero": "20"}, "options.bonus_round_zero"),
        ({"miss": "minus"}, "options.miss"),
    ],
)
def test_bad_house_rules_are_refused_naming_the_option(options, field):
    with pytest.raises(InputError) as exc:
        game(**options)
    assert field in exc.value.errors


def test_every_default_is_unchanged():
    o = game().options
    assert o["schedule"] == "down_up" and o["bonus_round_zero"] is None and o["miss"] == "zero"
    assert o["zero_bid"] == 5 and o["bonus"] == 10


HOUSE = st.fixed_dictionaries(
    {
        "schedule": st.sampled_from(["up_down_twice", "down_up_twice", "down_up", "up_down"]),
        "miss": st.sampled_from(["zero", "tricks", "minus_difference", "minus_made"]),
        "bonus_round_zero": st.one_of(st.none(), st.integers(0, 100)),
        "zero_bid": st.integers(0, 100),
        "hook": st.booleans(),
    }
)


@settings(max_examples=examples(300), deadline=None)
@given(data=st.data())
def test_totals_are_the_sum_of_the_hands_and_each_seat_scores_by_the_rules(data):
    n = data.draw(st.integers(2, 10))
    options = data.draw(HOUSE)
    options["max_cards"] = data.draw(st.integers(1, 52 // n))
    setup = make_setup("plump", NAMES[:n], data.draw(st.integers(0, n - 1)), options)
    sizes = deal_sizes(setup)
    assert len(sizes) == {"up_down_twice": 2, "down_up_twice": 2, "down_up": 2, "up_down": 2}[
        options["schedule"]
    ] * options["max_cards"] - (0 if options["schedule"].endswith("twice") else 1)
    inputs = [one_hand(data.draw, setup, i) for i in range(data.draw(st.integers(0, len(sizes))))]
    p = play(setup, inputs)
    for s in range(n):
        assert p.totals[s] == sum(h.points[s] for h in p.hands)
    for h in p.hands:
        bonus_deal = h.cards == 51 // n
        for bid, took, got in zip(h.input["bids"], h.input["tricks"], h.points):
            if bid == 0 and bonus_deal and options["bonus_round_zero"] is not None:
                worth = options["bonus_round_zero"]
            else:
                worth = options["zero_bid"] if bid == 0 else 10 + bid
            if bid == took:
                assert got == worth
            elif options["miss"] == "minus_made":
                assert got == -worth
