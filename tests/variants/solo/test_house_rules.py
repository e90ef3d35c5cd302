"""Solo whist's house rules of issue 36, each worked example of RULES.md "solo" as a test: `overtricks` and
`undertricks` per contract (Culbertson's Hoyle, a copy of pagat's), `prop_slam: double` (Hoyle's Games Modernized),
`prop_undertricks: first_free` (German Wikipedia); refusals by the option; zero-sum with these options drawn."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import examples, points
from scorekeeper.core import InputError, make_setup, play
from scorekeeper.variants.solo import rules as solo
from strategies import one_hand

PLAYERS = ["Anna", "Bo", "Carl", "Dina"]
CULBERTSON = {
    "values": {
        "prop": 6,
        "solo": 6,
        "misere": 12,
        "abundance": 18,
        "royal_abundance": 18,
        "misere_ouverte": 24,
        "abundance_declared": 36,
    },
    "overtricks": {"prop": 1, "solo": 3, "abundance": 3, "royal_abundance": 3},
}
PAGAT_COPY = {"overtricks": {"prop": 1, "solo": 1, "abundance": 2, "royal_abundance": 2}, "undertricks": 1}


def game(**options):
    return make_setup("solo", PLAYERS, 0, options)


def one(options, inp):
    return points(play(game(**options), [inp]))[0]


def alone(bid, bidder, tricks):
    return {"bid": bid, "bidder": bidder, "tricks": tricks}


def prop(tricks):
    return {"bid": "prop", "bidder": 0, "partner": 2, "tricks": tricks}


def test_culbertson_a_solo_made_with_seven_pays_twelve():
    assert one(CULBERTSON, alone("solo", 1, 7)) == [-12, 36, -12, -12]


def test_culbertson_an_abundance_lost_with_eight_pays_twenty_one():
    assert one(CULBERTSON, alone("abundance", 1, 8)) == [21, -63, 21, 21]


def test_culbertson_the_misere_has_no_overtricks():
    assert one(CULBERTSON, alone("misere", 3, 0)) == [-12, -12, -12, 36]


def test_pagat_copy_an_abundance_made_with_eleven_and_lost_with_seven():
    assert one(PAGAT_COPY, alone("abundance", 2, 11)) == [-7, -7, 21, -7]  # 3 + 2 × 2
    assert one(PAGAT_COPY, alone("abundance", 2, 7)) == [5, 5, -15, 5]  # 3 + 2 × 1


def test_undertricks_as_a_mapping_and_contracts_left_out_pay_nothing():
    options = {"overtricks": 2, "undertricks": {"solo": 4}}
    assert one(options, alone("solo", 0, 3)) == [-27, 9, 9, 9]  # 1 + 2 × 4
    assert one(options, alone("abundance", 0, 7)) == [-9, 3, 3, 3]  # undertricks 0 in abundance
    assert one(options, alone("abundance", 0, 10)) == [15, -5, -5, -5]  # overtricks 2


def test_hoyle_modernized_a_prop_of_all_thirteen_pays_its_overtricks_double():
    options = {"values": {"prop": 6}, "overtricks": 1, "prop_slam": "double"}
    assert one(options, prop(13)) == [16, -16, 16, -16]  # 6 + 2 × 1 × 5
    assert one(options, prop(12)) == [10, -10, 10, -10]  # 6 + 4
    assert one({**options, "prop_slam": "single"}, prop(13)) == [11, -11, 11, -11]


def test_prop_slam_doubles_no_other_contract():
    options = {"overtricks": 1, "prop_slam": "double"}
    assert one(options, alone("abundance", 1, 13)) == [-7, 21, -7, -7]  # 3 + 4, not doubled


def test_german_wikipedia_the_first_undertrick_of_a_lost_prop_is_free():
    options = {"values": {"prop": 5}, "overtricks": 1, "prop_undertricks": "first_free"}
    assert one(options, prop(5)) == [-7, 7, -7, 7]  # 3 short: 5 + 2
    assert one(options, prop(7)) == [-5, 5, -5, 5]  # 1 short: 5
    assert one({**options, "prop_undertricks": "all"}, prop(7)) == [-6, 6, -6, 6]


def test_a_lost_solo_pays_every_undertrick_under_first_free():
    assert one({"overtricks": 1, "prop_undertricks": "first_free"}, alone("solo", 0, 3)) == [-9, 3, 3, 3]


def test_the_options_are_resolved_and_the_defaults_unchanged():
    o = game().options
    assert o["overtricks"] == 0 and o["undertricks"] is None
    assert o["prop_slam"] == "single" and o["prop_undertricks"] == "all"
    o = game(overtricks={"solo": 3}, undertricks={"prop": 2}).options
    assert o["overtricks"] == {"prop": 0, "solo": 3, "abundance": 0, "royal_abundance": 0}
    assert o["undertricks"] == {"prop": 2, "solo": 0, "abundance": 0, "royal_abundance": 0}


@pytest.mark.parametrize(
    "options, field",
    [
        ({"overtricks": {"misere": 1}}, "options.overtricks"),
        ({"overtricks": {"solo": 101}}, "options.overtricks"),
        ({"overtricks": {"solo": -1}}, "options.overtricks"),
        ({"overtricks": {"solo": "3"}}, "options.overtricks"),
        ({"overtricks": 101}, "options.overtricks"),
        ({"overtricks": None}, "options.overtricks"),
        ({"overtricks": [1, 2]}, "options.overtricks"),
        ({"undertricks": {"abundance_declared": 1}}, "options.undertricks"),
        ({"undertricks": -1}, "options.undertricks"),
        ({"undertricks": "1"}, "options.undertricks"),
        ({"prop_slam": "triple"}, "options.prop_slam"),
        ({"prop_undertricks": "none"}, "options.prop_undertricks"),
    ],
)
def test_bad_house_rules_are_refused_naming_the_option(options, field):
    with pytest.raises(InputError) as exc:
        game(**options)
    assert field in exc.value.errors


RATE = st.one_of(
    st.integers(0, 100),
    st.dictionaries(st.sampled_from(solo.WITH_OVERTRICKS), st.integers(0, 100)),
)


@settings(max_examples=examples(300), deadline=None)
@given(data=st.data())
def test_zero_sum_and_totals_with_the_house_rules_drawn(data):
    options = {
        "overtricks": data.draw(RATE),
        "undertricks": data.draw(st.one_of(st.none(), RATE)),
        "prop_slam": data.draw(st.sampled_from(["single", "double"])),
        "prop_undertricks": data.draw(st.sampled_from(["all", "first_free"])),
    }
    setup = make_setup("solo", PLAYERS, data.draw(st.integers(0, 3)), options)
    inputs = [one_hand(data.draw, setup, i) for i in range(data.draw(st.integers(0, 12)))]
    p = play(setup, inputs)
    for h in p.hands:
        assert sum(h.points) == 0
        inp = h.input
        if inp.get("passed"):
            continue
        team = {inp["bidder"], inp.get("partner", inp["bidder"])}
        gain = sum(h.points[s] for s in team)
        assert (gain > 0) == solo.made(inp) and gain != 0
    for s in range(4):
        assert p.totals[s] == sum(h.points[s] for h in p.hands)
    assert sum(p.totals) == 0
