"""Danish house tariffs (option `house`, RULES.md): each preset with a hand worked out from the formula, the model's
parts, gå med, jernhånd, the club suffixes, and the house's checks naming the path inside it."""

import pytest

from scorekeeper.core import InputError, make_setup, play
from scorekeeper.variants.danish import rules as danish

PLAYERS = ["Anna", "Bo", "Carl", "Dina"]
TRUMP = {"plain": "spades", "vip": "hearts", "gode": "clubs", "sans": "none", "halve": "diamonds"}
TRUMP |= {"vip2": "hearts", "vip3": "none", "staerke": "spades"}


def bid(bidder, n, tricks, partner, suffix="plain"):
    return {"bidder": bidder, "bid": n, "suffix": suffix, "trump": TRUMP[suffix], "partner": partner, "tricks": tricks}


def sol(bidder, name, tricks, *joined):
    inp = {"bidder": bidder, "bid": name, "tricks": tricks}
    if joined:
        inp["with"] = [{"seat": s, "tricks": t} for s, t in joined]
    return inp


def points(inp, players=PLAYERS, dealer=0, **options):
    return list(play(make_setup("danish", players, dealer, options), [inp]).hands[0].points)


def refused(inp, **options):
    with pytest.raises(InputError) as caught:
        play(make_setup("danish", PLAYERS, 0, options), [inp])
    return caught.value.errors


def option_errors(**options):
    with pytest.raises(InputError) as caught:
        make_setup("danish", PLAYERS, 0, options)
    return caught.value.errors


# ------------------------------------------------------------------ presets, a worked example each
# X = (made + over × (t − n)) for a made bid, −(lost + short × (n − t)) for a lost one, each field times the suffix's
# base (made, lost) or trick (over, short) factor; the tariff T(n) is 10, 20, 40, 80, 160, 320, 640 for 7..13.

PRESET_EXAMPLES = [
    # standard: 8 with 10: 20 + 20 × 2 = 60 (the seed's example).
    ("standard", bid(0, 8, 10, 2), [60, -60, 60, -60]),
    # per_trick: 9 with 6: lost 0 + short 2 × 40 × 3 = 240.
    ("per_trick", bid(0, 9, 6, 2), [-240, 240, -240, 240]),
    # double_sol: bordlægger made with 1 trick: 200 from each of three: +600.
    ("double_sol", sol(1, "bordlaegger", 1), [-200, 600, -200, -200]),
    # quarter_steps: 8 vip with 10: made 20 × 5/4 = 25, over 25 × 2 = 50: 75.
    ("quarter_steps", bid(0, 8, 10, 2, "vip"), [75, -75, 75, -75]),
    # quarter_steps: 7 halve with 7: 10 × 7/4 = 17.5, rounded half away from zero: 18.
    ("quarter_steps", bid(0, 7, 7, 2, "halve"), [18, -18, 18, -18]),
    # suffix_base_only: 8 sans with 10: made 20 × 2 = 40, over 20 × 1 × 2 = 40: 80 (standard: 120).
    ("suffix_base_only", bid(0, 8, 10, 2, "sans"), [80, -80, 80, -80]),
    # gode_not_doubled: 8 gode with 10 is worth what plain is: 60.
    ("gode_not_doubled", bid(0, 8, 10, 2, "gode"), [60, -60, 60, -60]),
    # tricks_times_tariff: 8 with 10: made 8 × 20 = 160 + 20 × 2 = 200 = 10 tricks × 20.
    ("tricks_times_tariff", bid(0, 8, 10, 2), [200, -200, 200, -200]),
    # tricks_times_tariff: 8 with 5, lost: 8 × 20 = 160.
    ("tricks_times_tariff", bid(0, 8, 5, 2), [-160, 160, -160, 160]),
    # half_overtricks: 7 with 8: 10 + 10/2 × 1 = 15.
    ("half_overtricks", bid(0, 7, 8, 2), [15, -15, 15, -15]),
    # lost_base_plus_short: 8 with 5: 20 + 20 × 3 = 80.
    ("lost_base_plus_short", bid(0, 8, 5, 2), [-80, 80, -80, 80]),
    # grand_slam_double: 7 with 13: (10 + 10 × 6) × 2 = 140.
    ("grand_slam_double", bid(0, 7, 13, 2), [140, -140, 140, -140]),
    # selvmakker_two_shares: 7 with 8 alone: X = 20, Q = round(2/3 × 20 = 13.33) = 13; the bidder gets 3 × 13 = 39.
    ("selvmakker_two_shares", bid(0, 7, 8, 0), [39, -13, -13, -13]),
    # sol_lost_equals_won: sol with 2 tricks: the bidder pays 50 (not 100) to each.
    ("sol_lost_equals_won", sol(0, "sol", 2), [-150, 50, 50, 50]),
    # sol_join_independent: Anna's sol made (V 50: +150, each other −50); Carl's lost with 3 tricks (V 100: −300,
    # each other +100): Anna 150 + 100, Bo −50 + 100, Carl −50 − 300, Dina −50 + 100.
    ("sol_join_independent", sol(0, "sol", 0, (2, 3)), [250, 50, -350, 50]),
    # sol_join_vs_others: Anna made: +50 from Bo and Dina; Carl lost: pays 100 to Bo and Dina.
    ("sol_join_vs_others", sol(0, "sol", 0, (2, 3)), [100, 50, -200, 50]),
    # winners_pool (won 150, lost 300 as the sol player's totals): Anna and Carl make it, W = 2: each +150, Bo and
    # Dina each pay ceil(150 × 2 / 2) = 150.
    ("winners_pool", sol(0, "sol", 1, (2, 0)), [150, -150, 150, -150]),
    # winners_pool alone and lost: Anna pays 300, the three others receive floor(300 × 1 / 3) = 100 each.
    ("winners_pool", sol(0, "sol", 2), [-300, 100, 100, 100]),
    # more_suffixes: 8 stærke (spades) with 10: doubled like any suffix: 120.
    ("more_suffixes", bid(0, 8, 10, 2, "staerke"), [120, -120, 120, -120]),
    # more_suffixes: 9 vip3 (joker on the third card: no trump) with 9: 40 × 2 = 80.
    ("more_suffixes", bid(1, 9, 9, 3, "vip3"), [-80, 80, -80, 80]),
]


@pytest.mark.parametrize("preset, inp, expected", PRESET_EXAMPLES)
def test_each_preset_scores_its_worked_example(preset, inp, expected):
    assert points(inp, preset=preset) == expected


def test_every_preset_has_an_example_and_is_offered():
    assert {p for p, _inp, _x in PRESET_EXAMPLES} == set(danish.PRESETS) == set(danish.TARIFF_PRESETS)


def test_the_winners_pool_need_not_add_up_and_the_house_may_say_so():
    # won 100: W = 1, the three others pay ceil(100 / 3) = 34 each: the hand sums to 100 − 102 = −2.
    house = {"gaa_med": "winners_pool", "sol": {"sol": {"max_tricks": 1, "won": 100, "lost": 100}}}
    assert points(sol(0, "sol", 1), house=house) == [100, -34, -34, -34]
    # lost: Anna pays 100; the others receive floor(100 / 3) = 33.
    assert points(sol(0, "sol", 3), house=house) == [-100, 33, 33, 33]


def test_the_shorthands_build_the_house_the_answer_shows():
    options = make_setup("danish", PLAYERS).options
    house = options["house"]
    assert house["levels"]["8"] == {"made": 20, "over": 20, "lost": 40, "short": 0}
    assert house["suffixes"]["vip"] == {"base": 2, "trick": 2} and house["gaa_med"] is None
    assert house["sol"]["sol"] == {"max_tricks": 1, "won": 50, "lost": 100, "won_per_under": 0, "lost_per_over": 0}
    per_trick = make_setup("danish", PLAYERS, 0, {"lost": "per_trick", "tariff": [1, 2, 3, 4, 5, 6, 7]}).options
    assert per_trick["house"]["levels"]["9"] == {"made": 3, "over": 3, "lost": 0, "short": 6}


def test_a_preset_sets_the_shorthands_unless_they_are_given():
    options = make_setup("danish", PLAYERS, 0, {"preset": "per_trick", "tariff": [1, 2, 3, 4, 5, 6, 7]}).options
    assert options["lost"] == "per_trick" and options["tariff"] == [1, 2, 3, 4, 5, 6, 7]
    assert options["house"]["levels"]["7"]["short"] == 2


def test_options_stored_before_house_score_as_before():
    old = {"tariff": [10, 20, 40, 80, 160, 320, 640], "lost": "per_trick", "solo_values": danish.DEFAULT_SOLO_VALUES}
    assert danish.bid_value({"bid": 9, "suffix": "vip", "tricks": 7}, old) == (2 * 2 * 40 * 2, False)
    assert danish.house_of(old) == danish.house_of(make_setup("danish", PLAYERS, 0, old).options)


def test_fractions_decimals_and_rounding_modes():
    # made 7/3 per level, over 0: X = 7/3 → ceil 3, floor 2, trunc 2, away 3, half_away 2; lost −7/3 the mirror.
    for mode, made, lost in [
        ("ceil", 3, -2),
        ("floor", 2, -3),
        ("trunc", 2, -2),
        ("away", 3, -3),
        ("half_away", 2, -2),
    ]:
        house = {"levels": {"7": {"made": "7/3", "over": 0, "lost": "7/3", "short": 0}}, "rounding": mode}
        assert points(bid(0, 7, 7, 2), house=house)[0] == made, mode
        assert points(bid(0, 7, 3, 2), house=house)[0] == lost, mode
    # 2.5 as a decimal and "5/2" are the same number.
    assert make_setup("danish", PLAYERS, 0, {"house": {"levels": {"7": {"made": 2.5, "over": 0, "lost": 0}}}}).options[
        "house"
    ]["levels"]["7"] == {"made": "5/2", "over": 0, "lost": 0, "short": 0}


def test_overrides_cells_and_slam_factors():
    house = {
        "overrides": {"7/halve": {"made": 1, "over": 1, "lost": 1, "short": 1}},
        "cells": {"7/vip/-6": 5, "9/plain/+1": 60},
        "slam": {"lost_factor": {"0": 2}, "made_extra": {"13": 1}},
    }
    assert points(bid(0, 7, 9, 2, "halve"), house=house)[0] == 1 + 1 * 2  # the override, no suffix factor
    assert points(bid(0, 7, 1, 2, "vip"), house=house)[0] == -5  # a cell replaces the size: lost by 6
    assert points(bid(0, 9, 10, 2), house=house)[0] == 60  # 40 + 40 would be 80
    assert points(bid(0, 8, 0, 2), house=house)[0] == -40 * 2  # lost with no trick: doubled
    assert points(bid(0, 12, 13, 2), house=house)[0] == 320 + 320 * (1 + 1)  # one extra trick counted at 13


def test_sol_per_trick_under_and_over():
    house = {"sol": {"sol": {"max_tricks": 2, "won": 10, "lost": 20, "won_per_under": 5, "lost_per_over": 10}}}
    assert points(sol(0, "sol", 0), house=house) == [3 * 20, -20, -20, -20]  # 10 + 5 × 2
    assert points(sol(0, "sol", 4), house=house) == [-3 * 40, 40, 40, 40]  # 20 + 10 × 2


def test_a_missing_level_suffix_or_sol_cannot_be_bid():
    house = {"levels": {"8": {"made": 1, "over": 1, "lost": 1}}, "suffixes": {"plain": {"base": 1, "trick": 1}}}
    assert "bid" in refused(bid(0, 7, 7, 2), house=house)
    assert "suffix" in refused(bid(0, 8, 8, 2, "vip"), house=house)
    assert "bid" in refused(sol(0, "ren_sol", 0), house={"sol": {}})
    assert "suffix" in refused(bid(0, 8, 8, 2, "staerke"))
    assert list(danish.ladder(danish.house_of({"house": house}))) == [
        (8, "plain"),
        ("sol", None),
        ("ren_sol", None),
        ("bordlaegger", None),
        ("ren_bordlaegger", None),
    ]


def test_the_club_suffixes_come_after_halve_and_staerke_takes_spades():
    ladder = danish.ladder(danish.house_of({"preset": "more_suffixes"}))
    assert ladder[:8] == [(7, s) for s in ("plain", "vip", "gode", "sans", "halve", "vip2", "vip3", "staerke")]
    assert refused(bid(0, 8, 8, 2, "staerke") | {"trump": "hearts"}, preset="more_suffixes") == {
        "trump": "in a stærke bid spades are trump"
    }


def test_gaa_med_is_checked():
    assert "with" in refused(sol(0, "sol", 0, (2, 0)))  # gaa_med null
    assert "with.0.seat" in refused(sol(0, "sol", 0, (0, 0)), preset="sol_join_independent")
    assert "with" in refused(sol(0, "sol", 6, (2, 8)), preset="sol_join_independent")
    assert "with" in refused(bid(0, 8, 8, 2) | {"with": [{"seat": 1, "tricks": 0}]}, preset="sol_join_independent")
    assert "with" in refused(sol(0, "sol", 0, (1, 0), (2, 0), (3, 0)), preset="winners_pool")
    five = make_setup("danish", PLAYERS + ["Erik"], 4, {"preset": "sol_join_independent"})
    with pytest.raises(InputError) as caught:
        play(five, [sol(0, "sol", 0, (4, 0))])
    assert "with.0.seat" in caught.value.errors


def test_five_at_the_table_the_dealer_stays_out_of_a_joined_sol():
    five = make_setup("danish", PLAYERS + ["Erik"], 4, {"preset": "sol_join_independent"})
    assert play(five, [sol(0, "sol", 0, (2, 0))]).hands[0].points == (100, -100, 100, -100, 0)


def test_jernhand_scores_nothing_and_passes_the_deal():
    p = play(make_setup("danish", PLAYERS, 0, {"iron_hand": True}), [{"iron_hand": 2}, bid(1, 8, 10, 3)])
    assert p.hands[0].points == (0, 0, 0, 0) and p.hands[1].dealer == 1
    assert refused({"iron_hand": 2}) == {"iron_hand": "this game is played without jernhånd (option iron_hand)"}
    assert "bid" in refused({"iron_hand": 2, "bid": 8}, iron_hand=True)


@pytest.mark.parametrize(
    "house, where",
    [
        ({"levels": {"7": {"made": -1, "over": 0, "lost": 0}}}, "options.house.levels.7.made"),
        ({"levels": {"7": {"made": "x", "over": 0, "lost": 0}}}, "options.house.levels.7.made"),
        ({"levels": {"7": {"made": "1/0", "over": 0, "lost": 0}}}, "options.house.levels.7.made"),
        ({"levels": {"7": {"made": True, "over": 0, "lost": 0}}}, "options.house.levels.7.made"),
        ({"levels": {"7": {"over": 0, "lost": 0}}}, "options.house.levels.7.made"),
        ({"levels": {"7": {"made": 1, "over": 0, "lost": 0, "extra": 1}}}, "options.house.levels.7.extra"),
        ({"levels": {"6": {"made": 1, "over": 0, "lost": 0}}}, "options.house.levels.6"),
        ({"suffixes": {"blue": {"base": 1, "trick": 1}}}, "options.house.suffixes.blue"),
        ({"suffixes": {"vip": {"base": 1}}}, "options.house.suffixes.vip.trick"),
        ({"overrides": {"7/red": {"made": 1, "over": 1, "lost": 1}}}, "options.house.overrides.7/red"),
        ({"cells": {"7/vip/+7": 5}}, "options.house.cells.7/vip/+7"),
        ({"cells": {"7/vip/-1": -1}}, "options.house.cells.7/vip/-1"),
        ({"cells": {"7/vip/-1": "¾"}}, "options.house.cells.7/vip/-1"),
        ({"slam": {"made_factor": {"14": 2}}}, "options.house.slam.made_factor.14"),
        ({"slam": {"made_factor": {"13": 0}}}, "options.house.slam.made_factor.13"),
        ({"rounding": "bankers"}, "options.house.rounding"),
        ({"selvmakker": {"factor": "a"}}, "options.house.selvmakker.factor"),
        ({"sol": {"sol": {"won": 1, "lost": 1}}}, "options.house.sol.sol.max_tricks"),
        ({"sol": {"sol": {"max_tricks": 14, "won": 1, "lost": 1}}}, "options.house.sol.sol.max_tricks"),
        ({"sol": {"solo": {}}}, "options.house.sol.solo"),
        ({"gaa_med": "everyone"}, "options.house.gaa_med"),
        ({"colour": 1}, "options.house.colour"),
        ([], "options.house"),
    ],
)
def test_a_wrong_house_is_refused_naming_the_path(house, where):
    assert where in option_errors(house=house)


def test_an_unknown_preset_is_refused():
    assert "options.preset" in option_errors(preset="cheap")


@pytest.mark.parametrize(
    "house, where",
    [
        ({"levels": {}}, "options.house.levels"),
        ({"suffixes": {}}, "options.house.suffixes"),
        ({"levels": {}, "sol": {}}, "options.house.levels"),
    ],
)
def test_a_house_in_which_no_bid_can_be_made_is_refused(house, where):
    """Issue 23, finding 7: `"levels": {}` was accepted, a game nobody could bid in (every hand a pass or a sol)."""
    errors = option_errors(house=house)
    assert list(errors) == [where]
    assert "no bid" in errors[where]
