"""German whist counting every trick of the second phase (`count: phase2_each`, MeggieSoft's German Whist), with its
rising target: RULES.md's worked example, then the invariants."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import examples, points, refused
from scorekeeper.core import make_setup, play

PLAYERS = ["Anna", "Bo"]


def game(**options):
    return make_setup("german", PLAYERS, 0, {"count": "phase2_each", **options})


def deals(*pairs):
    return [{"tricks": list(p)} for p in pairs]


def test_each_player_scores_its_tricks():
    # RULES.md: 9–4 scores 9 and 4.
    assert points(play(game(target=50), deals((9, 4)))) == [[9, 4]]


def test_the_rising_target_of_rules_md():
    # Target 25: 25–27 after a deal (both over: 35), 31–34, 35–43 (both over: 45), then 12–1 gives 47–44.
    hands = deals((7, 6), (6, 7), (6, 7), (6, 7), (6, 7), (4, 9), (12, 1))
    p = play(game(target=25), hands[:4])
    assert p.totals == (25, 27) and not p.finished and p.state == 35
    p = play(game(target=25), hands[:5])
    assert p.totals == (31, 34) and not p.finished and p.state == 35
    p = play(game(target=25), hands[:6])
    assert p.totals == (35, 43) and not p.finished and p.state == 45
    p = play(game(target=25), hands)
    assert p.totals == (47, 44) and p.finished and p.winner == 0


def test_one_over_and_the_other_below_wins_at_once():
    p = play(game(target=25), deals((10, 3), (10, 3), (5, 8)))
    assert p.totals == (25, 14) and p.finished and p.winner == 0


def test_a_hand_after_the_end_is_refused():
    refused(game(target=10), deals((10, 3), (7, 6)), "hand")


def test_the_tricks_still_add_up_to_13():
    refused(game(), deals((9, 5)), "tricks")


def test_the_default_count_is_unchanged():
    setup = make_setup("german", PLAYERS)
    assert setup.options["count"] == "phase2" and points(play(setup, deals((9, 4)))) == [[3, 0]]
    assert play(setup, deals((9, 4))).state is None


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(1, 60), st.lists(st.integers(0, 13), max_size=30))
def test_totals_are_the_sum_and_the_winner_stands_alone_over_the_target(target, firsts):
    p = play(game(target=target), [])
    for a in firsts:
        if p.finished:
            break
        p = play(game(target=target), [h.input for h in p.hands] + [{"tricks": [a, 13 - a]}])
    for k, h in enumerate(p.hands):
        assert h.totals == tuple(sum(x.points[s] for x in p.hands[: k + 1]) for s in (0, 1))
    if p.finished:  # the target, risen while both stood over it: the winner at or over it, the other below
        assert p.winner is not None and p.totals[p.winner] >= p.state > p.totals[1 - p.winner]
    else:
        assert all(t < p.state for t in p.totals)


@pytest.mark.parametrize("count", ["phase2", "all26"])
def test_the_other_counts_keep_no_state(count):
    assert play(make_setup("german", PLAYERS, 0, {"count": count}), []).state is None
