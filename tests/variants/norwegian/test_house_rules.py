"""Norwegian whist's house rules of RULES.md (issue 36): a failed grand that the bidder loses (South Dakota whist),
Parlett's leads with the nullo bid, and the named scales; each worked example of RULES.md, then the invariants."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import examples, points, refused
from scorekeeper.core import make_setup, play, play_on
from scorekeeper.variants.norwegian import rules

PLAYERS = ["Ola", "Kari", "Per", "Liv"]


def game(dealer=0, **options):
    return make_setup("norwegian", PLAYERS, dealer, options)


# ------------------------------------------------------------------ grand_lost


def test_a_failed_grand_the_bidder_loses():
    # RULES.md: grand by seat 0 (side 0), 5 tricks to 8: side 0 −2, side 1 0.
    assert points(play(game(grand_lost="bidder_loses"), [{"bid": "grand", "bidder": 0, "tricks": [5, 8]}])) == [[-2, 0]]


@pytest.mark.parametrize("t", range(7))
@pytest.mark.parametrize("value", [1, 4])
def test_bidder_loses_grand_value_times_the_tricks_short_of_seven(t, value):
    setup = game(grand_lost="bidder_loses", grand_value=value, target=100)
    assert points(play(setup, [{"bid": "grand", "bidder": 3, "tricks": [13 - t, t]}])) == [[0, -value * (7 - t)]]


def test_bidder_loses_leaves_a_made_grand_and_the_set_bonus_alone():
    setup = game(grand_lost="bidder_loses", set_bonus=3)
    assert points(play(setup, [{"bid": "grand", "bidder": 1, "tricks": [4, 9]}])) == [[0, 3]]
    assert points(play(setup, [{"bid": "grand", "bidder": 1, "tricks": [8, 5]}])) == [[0, -2]]


def test_the_default_failed_grand_is_unchanged():
    assert game().options["grand_lost"] == "opponents"
    assert points(play(game(), [{"bid": "grand", "bidder": 0, "tricks": [5, 8]}])) == [[0, 4]]


# ------------------------------------------------------------------ lead and nullo


@pytest.mark.parametrize(
    "lead, grand_leader, pass_leader",
    # RULES.md: grand by seat 2, dealer 0: bidder_right shows seat 1 leading, bidder_left seat 3; all pass, dealer 0:
    # seat 1, or seat 3.
    [("bidder_right", 1, 1), ("bidder_left", 3, 3)],
)
def test_the_leads_of_each_side(lead, grand_leader, pass_leader):
    p = play(game(lead=lead), [{"bid": "grand", "bidder": 2, "tricks": [8, 5]}])
    assert p.hands[0].leader == grand_leader
    p = play(game(lead=lead), [{"bid": "pass", "tricks": [5, 8]}])
    assert p.hands[0].leader == pass_leader
    assert play(game(lead=lead), []).next_leader == pass_leader  # before the bids: a pass game's leader


def test_a_nullo_scores_as_a_pass_game_led_by_the_bidders_right():
    setup = game(lead="bidder_left", pass_scoring="under_seven")
    nullo = play(setup, [{"bid": "nullo", "bidder": 1, "tricks": [4, 9]}])
    passed = play(setup, [{"bid": "pass", "tricks": [4, 9]}])
    assert points(nullo) == points(passed) == [[3, 0]]
    assert nullo.hands[0].leader == 0 and nullo.hands[0].input == {"bid": "nullo", "bidder": 1, "tricks": [4, 9]}


def test_nullo_is_refused_under_the_default_leads():
    refused(game(), [{"bid": "nullo", "bidder": 1, "tricks": [4, 9]}], "bid")


def test_nullo_without_a_bidder_is_refused():
    refused(game(lead="bidder_left"), [{"bid": "nullo", "tricks": [4, 9]}], "bidder")


def test_a_bad_lead_is_refused_by_its_option():
    from scorekeeper.core import InputError

    with pytest.raises(InputError) as exc:
        game(lead="left")
    assert list(exc.value.errors) == ["options.lead"]


# ------------------------------------------------------------------ presets


@pytest.mark.parametrize(
    "preset, named",
    [
        ("standard", {}),
        ("minnesota", {"set_bonus": 1, "pass_scoring": "under_seven"}),
        (
            "parlett",
            {
                "grand_value": 4,
                "set_bonus": 2,
                "pass_value": 2,
                "pass_scoring": "under_seven",
                "target": 50,
                "lead": "bidder_left",
            },
        ),
        ("south_dakota", {"grand_lost": "bidder_loses", "pass_scoring": "majority_loses", "target": 11}),
    ],
)
def test_each_preset_is_its_options_as_rules_md_lists_them(preset, named):
    resolved = game(preset=preset).options
    assert {k: resolved[k] for k in named} == named
    defaults = game().options
    assert all(resolved[k] == defaults[k] for k in rules.SCALE if k not in named)


def test_south_dakota_scores_as_south_dakota_whist():
    setup = game(preset="south_dakota")
    p = play(setup, [{"bid": "grand", "bidder": 0, "tricks": [5, 8]}, {"bid": "pass", "tricks": [9, 4]}])
    assert points(p) == [[-2, 0], [-3, 0]] and setup.options["target"] == 11


def test_parlett_now_leads_as_parlett():
    p = play(game(preset="parlett"), [{"bid": "grand", "bidder": 2, "tricks": [8, 5]}])
    assert p.hands[0].leader == 3 and p.hands[0].points == (8, 0)


def hands(lead):
    bids = ["grand", "pass"] + (["nullo"] if lead == "bidder_left" else [])

    def one(bid, bidder, a):
        return {"bid": bid, "tricks": [a, 13 - a]} | ({} if bid == "pass" else {"bidder": bidder})

    return st.lists(st.builds(one, st.sampled_from(bids), st.integers(0, 3), st.integers(0, 13)), max_size=12)


@settings(max_examples=examples(200), deadline=None)
@given(st.sampled_from(list(rules.PRESETS)), st.data())
def test_each_preset_equals_its_options_given_one_by_one(preset, data):
    """A game under a preset scores, leads and ends as the same game with the preset's options given."""
    named = dict(rules.PRESETS[preset])
    by_preset, by_options = game(preset=preset), game(**named)
    assert {k: by_preset.options[k] for k in rules.SCALE} == {k: by_options.options[k] for k in rules.SCALE}
    a, b = play(by_preset, []), play(by_options, [])
    for inp in data.draw(hands(named["lead"])):
        if a.finished:
            break
        a, b = play_on(a, [inp]), play_on(b, [inp])
    assert [(h.points, h.totals, h.leader) for h in a.hands] == [(h.points, h.totals, h.leader) for h in b.hands]
    assert (a.finished, a.winner) == (b.finished, b.winner)


@settings(max_examples=examples(200), deadline=None)
@given(
    st.sampled_from(["opponents", "bidder_loses"]),
    st.sampled_from(["bidder_right", "bidder_left"]),
    st.sampled_from(["under_six", "under_seven", "majority_loses"]),
    st.data(),
)
def test_totals_are_the_sum_of_the_hands(grand_lost, lead, pass_scoring, data):
    setup = game(grand_lost=grand_lost, lead=lead, pass_scoring=pass_scoring, target=100)
    p = play(setup, data.draw(hands(lead)))
    for k, h in enumerate(p.hands):
        assert h.totals == tuple(sum(x.points[s] for x in p.hands[: k + 1]) for s in (0, 1))
