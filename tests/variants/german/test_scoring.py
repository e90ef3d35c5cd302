"""Two-player (German) whist scoring, as RULES.md states it (seed 003)."""

import pytest

from helpers import points, refused
from scorekeeper.core import GameOver, InputError, make_setup, play

PLAYERS = ["Anna", "Bo"]


def game(dealer=0, **options):
    return make_setup("german", PLAYERS, dealer, options)


def hand(a, total=13):
    return {"tricks": [a, total - a]}


# ------------------------------------------------------------------ seed example


def test_seed_anna_and_bo_play_to_seven():
    # "I första given tar Anna 9 stick och Bo 4 ... Bo 8 stick ... Anna 10 stick ... Hon har nu 7 poäng"
    s = game()
    p = play(s, [hand(9)])
    assert points(p) == [[3, 0]] and not p.finished
    p = play(s, [hand(9), hand(5)])
    assert points(p)[-1] == [0, 2] and list(p.totals) == [3, 2] and not p.finished
    p = play(s, [hand(9), hand(5), hand(10)])
    assert points(p) == [[3, 0], [0, 2], [4, 0]]
    assert list(p.totals) == [7, 2]
    assert p.finished and p.winner == 0


def test_seed_game_over_after_anna_wins():
    with pytest.raises(GameOver) as exc:
        play(game(), [hand(9), hand(5), hand(10), hand(7)])
    assert exc.value.number == 4


@pytest.mark.parametrize(
    "tricks, score", [(0, 0), (3, 0), (6, 0), (7, 1), (8, 2), (9, 3), (10, 4), (11, 5), (12, 6), (13, 7)]
)
def test_seed_phase_two_table(tricks, score):
    assert play(game(target=100), [hand(tricks)]).hands[0].points[0] == score
    assert play(game(target=100), [hand(13 - tricks)]).hands[0].points[1] == score


@pytest.mark.parametrize("a", range(0, 14))
def test_only_the_player_with_seven_or_more_scores(a):
    assert points(play(game(target=100), [hand(a)])) == [[max(a - 6, 0), max(7 - a, 0)]]


def test_default_target_seven_and_count_phase2():
    o = game().options
    assert o["target"] == 7 and o["count"] == "phase2"


def test_target_option():
    s = game(target=10)
    assert not play(s, [hand(13)]).finished
    p = play(s, [hand(13), hand(0)])
    assert not p.finished and list(p.totals) == [7, 7]
    p = play(s, [hand(13), hand(0), hand(3)])
    assert p.finished and p.winner == 1 and list(p.totals) == [7, 11]


# ------------------------------------------------------------------ all 26 tricks


@pytest.mark.parametrize(
    "a, expected", [(14, [1, 0]), (26, [1, 0]), (13, [0, 0]), (12, [0, 1]), (0, [0, 1]), (20, [1, 0])]
)
def test_all26_more_tricks_wins_the_deal_and_scores_one(a, expected):
    assert points(play(game(count="all26"), [hand(a, 26)])) == [expected]


def test_all26_game_to_target_deals_won():
    s = game(count="all26", target=3)
    inputs = [hand(14, 26), hand(13, 26), hand(10, 26), hand(20, 26), hand(16, 26)]
    p = play(s, inputs[:4])
    assert list(p.totals) == [2, 1] and not p.finished
    p = play(s, inputs)
    assert list(p.totals) == [3, 1] and p.finished and p.winner == 0


def test_all26_default_target_is_seven_deals():
    s = game(count="all26")
    p = play(s, [hand(14, 26)] * 6)
    assert not p.finished
    p = play(s, [hand(14, 26)] * 7)
    assert p.finished and p.winner == 0 and list(p.totals) == [7, 0]


def test_all26_draws_do_not_end_the_game():
    p = play(game(count="all26"), [hand(13, 26)] * 20)
    assert list(p.totals) == [0, 0] and not p.finished


@pytest.mark.parametrize("tricks", [[13, 0], [14, 14], [27, -1], [7, 6]])
def test_all26_tricks_must_add_up_to_26(tricks):
    refused(game(count="all26"), [{"tricks": tricks}], "tricks")


# ------------------------------------------------------------------ dealer and leader


@pytest.mark.parametrize("dealer", [0, 1])
def test_deal_alternates_and_the_non_dealer_leads(dealer):
    p = play(game(dealer=dealer, target=100), [hand(7)] * 5)
    assert [h.dealer for h in p.hands] == [(dealer + i) % 2 for i in range(5)]
    assert [h.leader for h in p.hands] == [(dealer + i + 1) % 2 for i in range(5)]
    assert p.next_dealer == (dealer + 5) % 2


def test_sides():
    assert [list(s) for s in play(game(), []).sides] == [[0], [1]]


def test_edit_can_reopen():
    s = game()
    assert play(s, [hand(13)]).finished
    p = play(s, [hand(12)])
    assert not p.finished
    assert play(s, [hand(12), hand(7)]).finished


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize("tricks", [[7, 7], [13, 13], [14, -1], [13], [6, 7, 0], None, [True, 12], [6.5, 6.5], "9-4"])
def test_bad_tricks(tricks):
    refused(game(), [{"tricks": tricks}], "tricks")


def test_unknown_field():
    refused(game(), [{"tricks": [7, 6], "trump": "hearts"}], "trump")


@pytest.mark.parametrize(
    "options, field",
    [
        ({"count": "all13"}, "options.count"),
        ({"target": 0}, "options.target"),
        ({"target": None}, "options.target"),
        ({"deals": 4}, "options.deals"),
    ],
)
def test_bad_options(options, field):
    with pytest.raises(InputError) as exc:
        make_setup("german", PLAYERS, 0, options)
    assert field in exc.value.errors


@pytest.mark.parametrize("players", [["Anna"], ["Anna", "Bo", "Carl"], ["Anna", "Bo", "Carl", "Dina"]])
def test_two_players_only(players):
    with pytest.raises(InputError) as exc:
        make_setup("german", players)
    assert "players" in exc.value.errors


@pytest.mark.parametrize("dealer", [2, -1])
def test_dealer_is_one_of_two(dealer):
    with pytest.raises(InputError) as exc:
        make_setup("german", PLAYERS, dealer)
    assert "dealer" in exc.value.errors
