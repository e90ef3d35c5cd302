"""Israeli whist's own tests, run where the package is installed beside scorekeeper (`pip install .`, then
`pytest`): its scoring hand by hand, and the app's conformance kit over every page, paper, export and API answer."""

from __future__ import annotations

import pytest
from scorekeeper_israeli import examples, rules

from scorekeeper.core import VARIANTS, InputError, make_setup, play
from scorekeeper.testing import kit

PLAYERS = examples.PLAYERS


def points(hands, **options):
    return [list(h.points) for h in play(make_setup("israeli", PLAYERS, 0, options), hands).hands]


def test_it_is_registered_by_its_entry_point():
    assert VARIANTS["israeli"].module is rules


def test_the_example_game_scores_as_written():
    assert points(examples.GAME["hands"], **examples.GAME["options"]) == examples.GAME_POINTS


@pytest.mark.parametrize(
    "called, took, over, expected",
    [(3, 3, False, 19), (0, 0, False, 50), (0, 0, True, 25), (4, 2, False, -20), (0, 3, True, -30), (0, 1, False, -50)],
)
def test_a_call_scores(called, took, over, expected):
    assert rules.call_points(called, took, over, {"zero_under": 50, "zero_over": 25}) == expected


def test_deals_thrown_in_double_the_next_and_count_for_no_deal():
    hand = {"declarer": 0, "bid": 5, "trump": "hearts", "predictions": [5, 3, 2, 2], "tricks": [5, 3, 2, 3]}
    protokoll = play(make_setup("israeli", PLAYERS, 0, {"deals": 2}), [{"passed": True}, {"passed": True}, hand])
    assert list(protokoll.hands[2].points) == [4 * 35, 4 * 19, 4 * 14, 4 * -10]
    assert protokoll.deals_left == 1 and not protokoll.finished
    single = play(make_setup("israeli", PLAYERS, 0, {"thrown_doubles": False}), [{"passed": True}, hand])
    assert list(single.hands[1].points) == [35, 19, 14, -10]


def test_the_last_to_call_may_not_make_thirteen():
    hand = {"declarer": 1, "bid": 6, "trump": "spades", "predictions": [3, 6, 3, 1], "tricks": [2, 5, 4, 2]}
    with pytest.raises(InputError) as refused:
        play(make_setup("israeli", PLAYERS, 0, {}), [hand])
    assert "Avi calls last" in refused.value.errors["predictions"]


def test_the_kit(tmp_path):
    kit.check(kit.make_app(tmp_path), "israeli")
