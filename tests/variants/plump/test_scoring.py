"""Plump (Oh Hell) scoring, as RULES.md states it: the schedule, the hook, exact bids, misses, leads, the game's end."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import examples, points, refused
from scorekeeper.core import VARIANTS, GameOver, InputError, deal_sizes, hand_context, make_setup, play, table_context
from strategies import games, one_hand

PLAYERS = ["Anna", "Bo", "Carl", "Dina"]


def game(n=4, dealer=0, **options):
    return make_setup("plump", (PLAYERS + ["Erik", "Frida", "Gunnar", "Hanne"])[:n], dealer, options)


def hand(bids, tricks, **more):
    return {"bids": bids, "tricks": tricks, **more}


# ------------------------------------------------------------------ the schedule


@pytest.mark.parametrize(
    "n, max_cards",
    [(2, 10), (3, 10), (4, 10), (5, 10), (6, 8), (7, 7), (8, 6)],
)
def test_max_cards_defaults_to_ten_or_52_over_players_and_is_resolved_as_a_number(n, max_cards):
    assert game(n).options["max_cards"] == max_cards


@pytest.mark.parametrize(
    "schedule, sizes",
    [
        ("down_up", [4, 3, 2, 1, 2, 3, 4]),
        ("up_down", [1, 2, 3, 4, 3, 2, 1]),
        ("down", [4, 3, 2, 1]),
        ("up", [1, 2, 3, 4]),
        ([10, 9, 1, 1, 9, 10], [10, 9, 1, 1, 9, 10]),
    ],
)
def test_each_schedule_deals_its_sizes(schedule, sizes):
    assert list(deal_sizes(game(schedule=schedule, max_cards=4))) == sizes


def test_down_up_by_default_deals_the_one_card_deal_once():
    sizes = deal_sizes(game())
    assert list(sizes) == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert len(sizes) == 2 * 10 - 1


def test_hand_k_is_played_with_the_kth_size():
    s = game(schedule="down", max_cards=3)
    p = play(s, [hand([1, 0, 0, 0], [3, 0, 0, 0]), hand([0, 0, 0, 0], [1, 1, 0, 0])])
    assert [h.cards for h in p.hands] == [3, 2] and p.next_cards == 1 and p.deals_left == 1


@pytest.mark.parametrize(
    "n, options, field",
    [
        (6, {"max_cards": 9}, "options.max_cards"),
        (8, {"max_cards": 7}, "options.max_cards"),
        (2, {"max_cards": 27}, "options.max_cards"),
        (4, {"max_cards": 0}, "options.max_cards"),
        (7, {"schedule": [7, 8]}, "options.schedule"),
        (4, {"schedule": []}, "options.schedule"),
        (4, {"schedule": [1] * 61}, "options.schedule"),
        (4, {"schedule": [0, 1]}, "options.schedule"),
        (4, {"schedule": "sideways"}, "options.schedule"),
        (4, {"schedule": [True]}, "options.schedule"),
        (4, {"miss": "half"}, "options.miss"),
        (4, {"lead": "dealer"}, "options.lead"),
        (4, {"bonus": 101}, "options.bonus"),
        (4, {"zero_bid": -1}, "options.zero_bid"),
        (4, {"hook": "yes"}, "options.hook"),
    ],
)
def test_options_out_of_range_for_the_table_are_refused_at_creation(n, options, field):
    with pytest.raises(InputError) as exc:
        game(n, **options)
    assert field in exc.value.errors


def test_the_largest_schedules_fit():
    assert game(2, max_cards=26).options["max_cards"] == 26
    assert len(deal_sizes(game(8, schedule=[6] * 60))) == 60


@pytest.mark.parametrize("players", [["Anna"], PLAYERS + ["E", "F", "G", "H", "I", "J", "K", "L"]])
def test_two_to_ten_players(players):
    with pytest.raises(InputError) as exc:
        make_setup("plump", players)
    assert "players" in exc.value.errors


# ------------------------------------------------------------------ points


def test_rules_example_bid_three_made_is_thirteen():
    assert points(play(game(), [hand([3, 2, 0, 4], [3, 1, 0, 6])])) == [[13, 0, 5, 0]]


@pytest.mark.parametrize(
    "miss, expected",
    [("zero", [13, 0, 5, 0]), ("tricks", [13, 1, 5, 6]), ("minus_difference", [13, -1, 5, -2])],
)
def test_a_miss_scores_by_the_miss_option(miss, expected):
    assert points(play(game(miss=miss), [hand([3, 2, 0, 4], [3, 1, 0, 6])])) == [expected]


def test_bonus_and_zero_bid_options():
    p = play(game(bonus=5, zero_bid=10), [hand([3, 2, 0, 4], [3, 1, 0, 6])])
    assert points(p) == [[8, 0, 10, 0]]


def test_a_zero_bid_missed_scores_by_the_miss_rule():
    assert points(play(game(miss="minus_difference"), [hand([0, 2, 0, 4], [2, 2, 0, 6])])) == [[-2, 12, 5, -2]]


def test_totals_are_the_sum_of_the_hands():
    s = game(schedule="down", max_cards=3)
    p = play(s, [hand([1, 1, 0, 0], [1, 1, 1, 0]), hand([0, 1, 0, 0], [0, 1, 1, 0]), hand([1, 1, 0, 0], [1, 0, 0, 0])])
    assert points(p) == [[11, 11, 0, 5], [5, 11, 0, 5], [11, 0, 5, 5]]
    assert list(p.totals) == [27, 22, 5, 15]


# ------------------------------------------------------------------ the hook


def test_the_hook_refuses_bids_adding_up_to_the_cards():
    e = refused(game(), [hand([3, 3, 0, 4], [3, 1, 0, 6])], "bids")
    assert "add up to 10" in e.errors["bids"]


def test_without_the_hook_bids_may_add_up():
    assert points(play(game(hook=False), [hand([3, 3, 0, 4], [3, 3, 0, 4])])) == [[13, 13, 5, 14]]


# ------------------------------------------------------------------ leads


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_the_dealers_left_leads(dealer):
    p = play(game(dealer=dealer), [hand([3, 2, 0, 4], [3, 1, 0, 6])])
    assert p.hands[0].leader == (dealer + 1) % 4


@pytest.mark.parametrize(
    "dealer, bids, leader",
    [(0, [3, 2, 0, 4], 3), (0, [4, 2, 0, 4], 3), (2, [4, 2, 0, 4], 3), (3, [4, 2, 0, 4], 0), (1, [1, 1, 1, 1], 2)],
)
def test_highest_bid_leads_ties_to_the_first_from_the_dealers_left(dealer, bids, leader):
    tricks = [10, 0, 0, 0]
    p = play(game(dealer=dealer, lead="highest_bid", hook=False), [hand(bids, tricks)])
    assert p.hands[0].leader == leader


# ------------------------------------------------------------------ the game's end


def test_the_game_ends_after_the_schedules_last_deal_highest_total_wins():
    s = game(schedule="down", max_cards=2)
    p = play(s, [hand([1, 1, 0, 1], [1, 1, 0, 0]), hand([1, 0, 1, 0], [1, 0, 0, 0])])
    assert p.finished and p.winner == 0 and list(p.totals) == [22, 16, 5, 5] and p.next_cards is None
    with pytest.raises(GameOver):
        play(s, [hand([1, 1, 0, 1], [1, 1, 0, 0]), hand([1, 0, 1, 0], [1, 0, 0, 0]), hand([0, 0, 0, 0], [1, 0, 0, 0])])


def test_equal_highest_is_a_draw():
    p = play(game(schedule=[1]), [hand([1, 1, 0, 0], [1, 0, 0, 0])])
    assert list(p.totals) == [11, 0, 5, 5] and p.finished and p.winner == 0
    p = play(game(schedule=[2]), [hand([1, 1, 1, 1], [1, 1, 0, 0])])
    assert list(p.totals) == [11, 11, 0, 0] and p.finished and p.winner is None


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    "inp, field",
    [
        (hand([3, 2, 0], [3, 1, 6]), "bids"),
        (hand([3, 2, 0, 11], [3, 1, 0, 6]), "bids"),
        (hand([3, 2, 0, -1], [3, 1, 0, 6]), "bids"),
        (hand([3, 2, 0, True], [3, 1, 0, 6]), "bids"),
        (hand("3204", [3, 1, 0, 6]), "bids"),
        ({"tricks": [3, 1, 0, 6]}, "bids"),
        (hand([3, 2, 0, 4], [3, 1, 0, 5]), "tricks"),
        (hand([3, 2, 0, 4], [3, 1, 0, 6, 0]), "tricks"),
        (hand([3, 2, 0, 4], [11, -1, 0, 0]), "tricks"),
        ({"bids": [3, 2, 0, 4]}, "tricks"),
        (hand([3, 2, 0, 4], [3, 1, 0, 6], cards=9), "cards"),
        (hand([3, 2, 0, 4], [3, 1, 0, 6], cards="10"), "cards"),
        (hand([3, 2, 0, 4], [3, 1, 0, 6], trump="hearts"), "trump"),
    ],
)
def test_bad_hands_are_refused_naming_the_field(inp, field):
    refused(game(), [inp], field)


def test_the_cards_may_be_sent_and_are_the_schedules():
    p = play(game(), [hand([3, 2, 0, 4], [3, 1, 0, 6], cards=10), hand([0, 0, 0, 0], [9, 0, 0, 0], cards=9)])
    assert [h.cards for h in p.hands] == [10, 9]
    assert "cards" not in p.hands[0].input  # the schedule says it: what is kept is the bids and the tricks


# ------------------------------------------------------------------ properties

MANY = settings(max_examples=examples(300), deadline=None)


@MANY
@given(data=st.data())
def test_the_hook_is_refused_exactly_when_the_bids_add_up_to_the_cards(data):
    n = data.draw(st.integers(2, 10))
    hook = data.draw(st.booleans())
    setup = make_setup("plump", [f"P{i}" for i in range(n)], data.draw(st.integers(0, n - 1)), {"hook": hook})
    index = data.draw(st.integers(0, len(deal_sizes(setup)) - 1))
    cards = deal_sizes(setup)[index]
    before = [one_hand(data.draw, setup, i) for i in range(index)]
    bids = [data.draw(st.integers(0, cards)) for _ in range(n)]
    tricks = [cards] + [0] * (n - 1)
    try:
        play(setup, before + [{"bids": bids, "tricks": tricks}])
    except InputError as exc:
        assert exc.number == index + 1 and set(exc.errors) == {"bids"}
        assert hook and sum(bids) == cards
    else:
        assert not (hook and sum(bids) == cards)
    rules = VARIANTS["plump"]
    ctx = core_hand_context(rules, setup, index + 1)
    refused_first = hook and sum(bids) == cards
    try:
        rules.check_bids({"bids": bids}, ctx)
    except InputError as exc:
        assert refused_first and set(exc.errors) == {"bids"}
    else:
        assert not refused_first


def core_hand_context(rules, setup, number):
    return hand_context(rules, table_context(setup), number)


@MANY
@given(data=st.data())
def test_totals_are_the_sum_of_each_players_points(data):
    setup, inputs = data.draw(games("plump", max_hands=20))
    p = play(setup, inputs)
    for s in range(setup.n):
        assert p.totals[s] == sum(h.points[s] for h in p.hands)
        for h in p.hands:
            bid, took = h.input["bids"][s], h.input["tricks"][s]
            bonus_zero = setup.options["bonus_round_zero"] if h.cards == 51 // setup.n else None
            zero = setup.options["zero_bid"] if bonus_zero is None else bonus_zero
            if bid == took:
                assert h.points[s] == (zero if bid == 0 else setup.options["bonus"] + bid)


@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_a_whole_game_has_as_many_hands_as_its_schedule(data):
    n = data.draw(st.integers(2, 10))
    options = data.draw(
        st.one_of(
            st.fixed_dictionaries(
                {
                    "schedule": st.sampled_from(["down_up", "up_down", "down", "up"]),
                    "max_cards": st.integers(1, 52 // n),
                }
            ),
            st.fixed_dictionaries({"schedule": st.lists(st.integers(1, 52 // n), min_size=1, max_size=60)}),
        )
    )
    setup = make_setup("plump", [f"P{i}" for i in range(n)], 0, options)
    sizes = deal_sizes(setup)
    inputs = [one_hand(data.draw, setup, i) for i in range(len(sizes))]
    p = play(setup, inputs)
    assert p.finished and len(p.hands) == len(sizes) == p.deals_left + len(p.hands)
    assert [h.cards for h in p.hands] == list(sizes)
    assert p.winner is None or p.totals[p.winner] == max(p.totals)
    assert not play(setup, inputs[:-1]).finished
