"""Norwegian whist (grand/pass, Minnesota whist) scoring, as RULES.md states it (seed 001)."""

import pytest

from helpers import points, refused
from scorekeeper.core import GameOver, InputError, make_setup, play

PLAYERS = ["Ola", "Kari", "Per", "Liv"]


def game(dealer=0, **options):
    return make_setup("norwegian", PLAYERS, dealer, options)


def grand(bidder, a):
    return {"bid": "grand", "bidder": bidder, "tricks": [a, 13 - a]}


def passed(a):
    return {"bid": "pass", "tricks": [a, 13 - a]}


# ------------------------------------------------------------------ seed examples


def test_seed_grand_side_takes_9_scores_3():
    # "melderlaget tar 9 stikk → 9 − 6 = 3 poeng"
    assert points(play(game(), [grand(0, 9)])) == [[3, 0]]
    assert points(play(game(), [grand(1, 4)])) == [[0, 3]]


def test_seed_grand_lost_opponents_take_8_get_4():
    # "Tar motstanderne i stedet 8 → 2 trekk × 2 = 4 poeng til motstanderne"
    assert points(play(game(), [grand(0, 5)])) == [[0, 4]]
    assert points(play(game(), [grand(3, 8)])) == [[4, 0]]


def test_seed_pass_side_takes_4_scores_2():
    # "et lag tar 4 stikk → 6 − 4 = 2 poeng"
    assert points(play(game(), [passed(4)])) == [[2, 0]]
    assert points(play(game(), [passed(9)])) == [[0, 2]]


# ------------------------------------------------------------------ grand


@pytest.mark.parametrize("bidder", range(4))
@pytest.mark.parametrize("t", range(0, 14))
def test_grand_table(bidder, t):
    """t = tricks of the grand side (the bidder's side)."""
    side = bidder % 2
    a = t if side == 0 else 13 - t
    expected = [0, 0]
    if t >= 7:
        expected[side] = t - 6
    else:
        expected[1 - side] = 2 * ((13 - t) - 6)
    assert points(play(game(target=100), [grand(bidder, a)])) == [expected]


@pytest.mark.parametrize("bonus", [1, 2, 3])
@pytest.mark.parametrize("t", range(0, 7))
def test_set_bonus_per_trick_over_six_to_the_other_side(bonus, t):
    p = play(game(target=100, set_bonus=bonus), [grand(0, t)])
    assert points(p) == [[0, bonus * (13 - t - 6)]]


def test_set_bonus_minnesota_is_one():
    assert points(play(game(set_bonus=1), [grand(0, 5)])) == [[0, 2]]


def test_set_bonus_does_not_touch_a_made_grand():
    assert points(play(game(set_bonus=1), [grand(0, 9)])) == [[3, 0]]


def test_set_bonus_default_is_two():
    assert game().options["set_bonus"] == 2


# ------------------------------------------------------------------ pass


@pytest.mark.parametrize("a", range(0, 14))
def test_pass_under_six(a):
    b = 13 - a
    expected = [6 - a if a <= 5 else 0, 6 - b if b <= 5 else 0]
    assert points(play(game(target=100), [passed(a)])) == [expected]


@pytest.mark.parametrize("a", range(0, 14))
def test_pass_under_seven(a):
    b = 13 - a
    expected = [7 - a if a <= 6 else 0, 7 - b if b <= 6 else 0]
    assert points(play(game(target=100, pass_scoring="under_seven"), [passed(a)])) == [expected]


def test_pass_six_tricks_both_ways():
    assert points(play(game(), [passed(6)])) == [[0, 0]]
    assert points(play(game(pass_scoring="under_seven"), [passed(6)])) == [[1, 0]]
    assert points(play(game(pass_scoring="under_seven"), [passed(4)])) == [[3, 0]]


def test_pass_scoring_default_is_under_six():
    assert game().options["pass_scoring"] == "under_six"


# ------------------------------------------------------------------ leads


@pytest.mark.parametrize("dealer", range(4))
@pytest.mark.parametrize("bidder", range(4))
def test_grand_right_of_the_bidder_leads(dealer, bidder):
    p = play(game(dealer=dealer), [grand(bidder, 7)])
    assert p.hands[0].leader == (bidder - 1) % 4  # seats go clockwise: the right-hand neighbour is seat - 1


@pytest.mark.parametrize("dealer", range(4))
def test_pass_left_of_the_dealer_leads(dealer):
    p = play(game(dealer=dealer), [passed(6), passed(6)])
    assert p.hands[0].leader == (dealer + 1) % 4
    assert p.hands[1].leader == (dealer + 2) % 4


# ------------------------------------------------------------------ game


def test_default_target_13():
    s = game()
    inputs = [grand(0, 12)] * 2  # 6 + 6
    p = play(s, inputs)
    assert list(p.totals) == [12, 0] and not p.finished
    p = play(s, inputs + [grand(2, 7)])
    assert list(p.totals) == [13, 0] and p.finished and p.winner == 0


def test_target_25_for_a_long_game():
    s = game(target=25)
    inputs = [grand(1, 0)] * 3  # side 1: 7 each
    p = play(s, inputs)
    assert list(p.totals) == [0, 21] and not p.finished
    p = play(s, inputs + [passed(9)])  # side 1 took 4: 2
    assert not p.finished
    p = play(s, inputs + [passed(9), grand(0, 6)])  # grand lost, side 1 took 7: 2
    assert list(p.totals) == [0, 25] and p.finished and p.winner == 1


def test_winner_by_grand_set_bonus():
    p = play(game(), [grand(0, 0)])  # side 1 took 13: 2 × 7 = 14
    assert p.finished and p.winner == 1 and list(p.totals) == [0, 14]


def test_no_hand_after_the_end():
    with pytest.raises(GameOver) as exc:
        play(game(), [grand(0, 13), grand(0, 13), passed(6)])
    assert exc.value.number == 3


def test_edit_can_reopen():
    s = game()
    assert play(s, [grand(0, 13), grand(0, 13)]).finished
    assert not play(s, [grand(0, 13), passed(6)]).finished


@pytest.mark.parametrize("dealer", range(4))
def test_dealer_rotation(dealer):
    p = play(game(dealer=dealer), [passed(6)] * 5)
    assert [h.dealer for h in p.hands] == [(dealer + i) % 4 for i in range(5)]
    assert p.next_dealer == (dealer + 5) % 4
    assert list(p.totals) == [0, 0]


def test_running_totals():
    p = play(game(), [grand(0, 8), passed(4), grand(1, 5), grand(1, 8)])
    assert [list(h.totals) for h in p.hands] == [[2, 0], [4, 0], [4, 2], [8, 2]]


# ------------------------------------------------------------------ bad input


def test_grand_without_a_bidder():
    refused(game(), [{"bid": "grand", "tricks": [7, 6]}], "bidder")
    refused(game(), [{"bid": "grand", "bidder": None, "tricks": [7, 6]}], "bidder")


@pytest.mark.parametrize("bidder", [4, -1, "0", True, 1.0])
def test_grand_with_a_bad_bidder(bidder):
    refused(game(), [{"bid": "grand", "bidder": bidder, "tricks": [7, 6]}], "bidder")


@pytest.mark.parametrize("bid", ["Grand", "nolo", None, 7, True])
def test_bad_bid(bid):
    refused(game(), [{"bid": bid, "tricks": [7, 6]}], "bid")


@pytest.mark.parametrize("tricks", [[7, 7], [14, -1], [13], None, [True, 12], "76"])
def test_bad_tricks(tricks):
    refused(game(), [{"bid": "pass", "tricks": tricks}], "tricks")


def test_unknown_field():
    refused(game(), [{"bid": "pass", "tricks": [7, 6], "trump": "hearts"}], "trump")


@pytest.mark.parametrize(
    "options, field",
    [
        ({"honours": True}, "options.honours"),
        ({"target": 0}, "options.target"),
        ({"target": "13"}, "options.target"),
        ({"set_bonus": 0}, "options.set_bonus"),
        ({"set_bonus": True}, "options.set_bonus"),
        ({"pass_scoring": "under_five"}, "options.pass_scoring"),
    ],
)
def test_bad_options(options, field):
    with pytest.raises(InputError) as exc:
        make_setup("norwegian", PLAYERS, 0, options)
    assert field in exc.value.errors


def test_sides():
    assert [list(s) for s in play(game(), []).sides] == [[0, 2], [1, 3]]
