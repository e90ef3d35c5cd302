"""Swedish whist (Firemannswhist) scoring, as RULES.md states it (seed 004)."""

import pytest

from helpers import points, refused
from scorekeeper.core import GameOver, InputError, make_setup, play

PLAYERS = ["Ola", "Kari", "Per", "Liv"]


def game(dealer=0, **options):
    return make_setup("swedish", PLAYERS, dealer, options)


def red(seat, a):
    return {"red": seat, "tricks": [a, 13 - a]}


def black(a):
    return {"red": None, "tricks": [a, 13 - a]}


# ------------------------------------------------------------------ red: a game for tricks


@pytest.mark.parametrize("seat", range(4))
@pytest.mark.parametrize("t", range(0, 14))
def test_red_table(seat, t):
    """t = tricks of the red shower's side."""
    side = seat % 2
    a = t if side == 0 else 13 - t
    expected = [0, 0]
    if t >= 7:
        expected[side] = t - 6
    else:
        expected[1 - side] = 2 * (13 - t - 6)
    assert points(play(game(target=100), [red(seat, a)])) == [expected]


def test_seed_red_each_trick_over_six_is_a_point():
    # "I rødt spill gir hvert stikk over seks ett poeng"
    assert points(play(game(), [red(2, 9)])) == [[3, 0]]


def test_seed_red_missed_opponents_get_double():
    # "Bommer laget på målet, får motstanderne doble poeng for hvert eget stikk over seks."
    assert points(play(game(), [red(0, 5)])) == [[0, 4]]
    assert points(play(game(), [red(1, 9)])) == [[6, 0]]


# ------------------------------------------------------------------ all black: a pass game


@pytest.mark.parametrize("a", range(0, 14))
def test_black_table(a):
    b = 13 - a
    expected = [7 - a if a <= 6 else 0, 7 - b if b <= 6 else 0]
    assert points(play(game(target=100), [black(a)])) == [expected]


def test_seed_black_fewer_than_seven_scores():
    # "i pass gir hvert stikk under sju ett poeng til det laget som best unngår stikk"
    assert points(play(game(), [black(6)])) == [[1, 0]]
    assert points(play(game(), [black(4)])) == [[3, 0]]
    assert points(play(game(), [black(7)])) == [[0, 1]]


# ------------------------------------------------------------------ leads


@pytest.mark.parametrize("dealer", range(4))
@pytest.mark.parametrize("seat", range(4))
def test_red_right_of_the_red_shower_leads(dealer, seat):
    # "I spill spiller spilleren til høyre for den som viste rødt ut det første stikket"
    assert play(game(dealer=dealer), [red(seat, 7)]).hands[0].leader == (seat - 1) % 4


@pytest.mark.parametrize("dealer", range(4))
def test_black_left_of_the_dealer_leads(dealer):
    # "i pass spiller spilleren til venstre for giveren ut"
    p = play(game(dealer=dealer), [black(6), black(7)])
    assert [h.leader for h in p.hands] == [(dealer + 1) % 4, (dealer + 2) % 4]


# ------------------------------------------------------------------ game


def test_default_target_13():
    assert game().options["target"] == 13
    s = game()
    p = play(s, [red(0, 13), red(0, 12)])
    assert list(p.totals) == [13, 0] and p.finished and p.winner == 0
    p = play(s, [red(0, 13), red(0, 11)])
    assert list(p.totals) == [12, 0] and not p.finished


def test_no_hand_after_the_end():
    with pytest.raises(GameOver) as exc:
        play(game(), [red(0, 13), red(0, 12), black(6)])
    assert exc.value.number == 3


def test_deals_4_larger_total_wins():
    s = game(deals=4)
    inputs = [red(0, 13), red(1, 13), black(4), red(3, 8)]
    p = play(s, inputs)
    # hand 2: red side 1 took 0 -> side 0 scores 2 × 7 = 14; hand 3: side 0 took 4 -> 3; hand 4: side 1 took 5 -> side 0 scores 4
    assert points(p) == [[7, 0], [14, 0], [3, 0], [4, 0]]
    assert p.finished and p.winner == 0 and list(p.totals) == [28, 0]


def test_deals_4_target_does_not_end_it():
    s = game(deals=4)
    p = play(s, [red(0, 13), red(0, 13), red(0, 13)])
    assert list(p.totals) == [21, 0] and not p.finished and p.deals_left == 1


def test_deals_4_equal_totals_is_a_draw():
    s = game(deals=4)
    inputs = [red(0, 9), red(1, 4), black(6), black(7)]  # 3-0, 3-3, 4-3, 4-4
    p = play(s, inputs[:3])
    assert not p.finished and p.deals_left == 1
    p = play(s, inputs)
    assert [list(h.totals) for h in p.hands] == [[3, 0], [3, 3], [4, 3], [4, 4]]
    assert p.finished and p.winner is None and p.deals_left == 0
    with pytest.raises(GameOver):
        play(s, inputs + [black(6)])


@pytest.mark.parametrize("dealer", range(4))
def test_deals_4_everyone_deals_once(dealer):
    p = play(game(dealer=dealer, deals=4), [black(6)] * 4)
    assert sorted(h.dealer for h in p.hands) == [0, 1, 2, 3]
    assert [h.dealer for h in p.hands] == [(dealer + i) % 4 for i in range(4)]
    assert p.next_dealer == dealer


@pytest.mark.parametrize("dealer", range(4))
def test_dealer_rotation(dealer):
    p = play(game(dealer=dealer, target=100), [black(6)] * 7)
    assert [h.dealer for h in p.hands] == [(dealer + i) % 4 for i in range(7)]
    assert p.next_dealer == (dealer + 7) % 4


def test_sides():
    assert [list(s) for s in play(game(), []).sides] == [[0, 2], [1, 3]]


# ------------------------------------------------------------------ bad input


def test_red_missing():
    refused(game(), [{"tricks": [7, 6]}], "red")


@pytest.mark.parametrize("value", [4, -1, "0", True, 1.0, "black"])
def test_bad_red_seat(value):
    refused(game(), [{"red": value, "tricks": [7, 6]}], "red")


@pytest.mark.parametrize("tricks", [[7, 7], [14, -1], [13], None, [False, 13], "7,6"])
def test_bad_tricks(tricks):
    refused(game(), [{"red": 0, "tricks": tricks}], "tricks")


def test_unknown_field():
    refused(game(), [{"red": 0, "tricks": [7, 6], "bid": "grand"}], "bid")


@pytest.mark.parametrize(
    "options, field",
    [
        ({"target": 0}, "options.target"),
        ({"deals": 0}, "options.deals"),
        ({"deals": "4"}, "options.deals"),
        ({"set_bonus": 2}, "options.set_bonus"),
    ],
)
def test_bad_options(options, field):
    with pytest.raises(InputError) as exc:
        make_setup("swedish", PLAYERS, 0, options)
    assert field in exc.value.errors
