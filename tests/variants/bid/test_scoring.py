"""Bid whist scoring, as RULES.md "bid" states it: made and set, the defenders' books, no trump doubled, Boston,
the game to `target` or to the hole, the bidder's lead, passed out, every option, and every refusal by its field."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import examples, points, refused
from scorekeeper.core import InputError, make_setup, play
from scorekeeper.variants.bid import rules
from strategies import games

PLAYERS = ["Ada", "Ben", "Cleo", "Dan"]


def game(dealer=0, **options):
    return make_setup("bid", PLAYERS, dealer, {"target": 100, **options})


def hand(bidder, bid, books, direction="uptown"):
    """`books`: the bidder's side's, the kitty included."""
    tricks = [books, 13 - books] if bidder % 2 == 0 else [13 - books, books]
    return {"bidder": bidder, "bid": bid, "direction": direction, "tricks": tricks}


def score(inp, **options):
    return points(play(game(**options), [inp]))[0]


# ------------------------------------------------------------------ the worked rules


def test_made_scores_the_bid():
    assert score(hand(0, 4, 10)) == [4, 0]  # a 4 needs 10
    assert score(hand(0, 4, 12)) == [4, 0]  # books over the contract score nothing more
    assert score(hand(3, 5, 11)) == [0, 5]


def test_made_books_scores_every_book_over_six():
    assert score(hand(0, 4, 10), made="books") == [4, 0]
    assert score(hand(0, 4, 12), made="books") == [6, 0]
    assert score(hand(1, 3, 9), made="books") == [0, 3]


def test_set_scores_minus_the_bid_and_the_defenders_books_over_six_from_seven():
    assert score(hand(0, 5, 10)) == [-5, 0]  # defenders 3
    assert score(hand(0, 5, 7)) == [-5, 0]  # defenders 6: nothing
    assert score(hand(0, 5, 6)) == [-5, 1]  # defenders 7: 1
    assert score(hand(2, 7, 1)) == [-7, 6]  # defenders 12: 6
    assert score(hand(1, 4, 2)) == [5, -4]


def test_set_defenders_off_they_score_nothing():
    assert score(hand(0, 5, 6), set_defenders=False) == [-5, 0]
    assert score(hand(2, 7, 1), set_defenders=False) == [-7, 0]


def test_no_trump_doubles_every_score_made_or_set():
    assert score(hand(0, 4, 10, "no_trump")) == [8, 0]
    assert score(hand(0, 5, 6, "no_trump")) == [-10, 2]
    assert score(hand(1, 3, 10, "no_trump"), made="books") == [0, 8]


def test_no_trump_double_off():
    assert score(hand(0, 4, 10, "no_trump"), no_trump_double=False) == [4, 0]
    assert score(hand(0, 5, 6, "no_trump"), no_trump_double=False) == [-5, 1]


@pytest.mark.parametrize("direction", ["uptown", "downtown"])
def test_uptown_and_downtown_score_alike(direction):
    assert score(hand(0, 4, 10, direction)) == [4, 0] and score(hand(0, 5, 6, direction)) == [-5, 1]


def test_boston_quadruple_is_the_default():
    assert score(hand(0, 3, 13)) == [12, 0]
    assert score(hand(1, 7, 13)) == [0, 28]
    assert score(hand(1, 7, 13, "no_trump")) == [0, 56]  # doubled and four times
    assert score(hand(0, 4, 13), made="books") == [28, 0]


def test_boston_none_scores_as_any_made_bid():
    assert score(hand(0, 3, 13), boston="none") == [3, 0]


def test_boston_wins_the_game_at_once_whatever_the_totals():
    s = make_setup("bid", PLAYERS, 0, {"target": 21, "boston": "wins_game"})
    p = play(s, [hand(0, 3, 13)])
    assert p.finished and p.winner == 0 and list(p.totals) == [3, 0]
    p = play(s, [hand(0, 5, 11), hand(0, 5, 11), hand(1, 3, 13)])
    assert p.finished and p.winner == 1 and list(p.totals) == [10, 3]
    refused(s, [hand(1, 3, 13), hand(0, 3, 9)], "hand")


def test_wins_game_a_boston_without_it_keeps_playing():
    p = play(make_setup("bid", PLAYERS, 0, {"target": 21, "boston": "wins_game"}), [hand(0, 3, 12)])
    assert not p.finished


# ------------------------------------------------------------------ the game


def test_the_default_target_is_seven():
    s = make_setup("bid", PLAYERS, 0, {})
    assert s.options["target"] == 7
    p = play(s, [hand(0, 4, 10)])
    assert not p.finished
    p = play(s, [hand(0, 4, 10), hand(2, 3, 9)])
    assert p.finished and p.winner == 0 and list(p.totals) == [7, 0]


def test_going_to_the_hole_the_other_side_wins():
    s = make_setup("bid", PLAYERS, 0, {"target": 7})
    p = play(s, [hand(1, 4, 9)])
    assert list(p.totals) == [0, -4] and not p.finished
    p = play(s, [hand(1, 4, 9), hand(3, 3, 8)])
    assert list(p.totals) == [0, -7] and p.finished and p.winner == 0
    refused(s, [hand(1, 4, 9), hand(3, 3, 8), hand(0, 3, 9)], "hand")


def test_the_set_side_can_fall_to_the_hole_while_the_other_climbs():
    s = make_setup("bid", PLAYERS, 0, {"target": 11})
    p = play(s, [hand(0, 7, 2, "no_trump")])  # −14 for 0 & 2, the defenders' 11 books: 5 × 2 = 10
    assert list(p.totals) == [-14, 10] and p.finished and p.winner == 1


@pytest.mark.parametrize("target, before", [(11, 3), (21, 6)])
def test_target_11_and_21(target, before):
    """Threes made: 9 (or 18) plays on, the next reaches the target (12 over 11; 21 exactly)."""
    s = make_setup("bid", PLAYERS, 0, {"target": target})
    assert not play(s, [hand(0, 3, 9)] * before).finished
    p = play(s, [hand(0, 3, 9)] * (before + 1))
    assert p.finished and p.winner == 0 and p.totals[0] >= target


def test_an_edit_can_reopen_the_game():
    s = make_setup("bid", PLAYERS, 0, {"target": 7})
    assert play(s, [hand(0, 7, 13)]).finished
    assert not play(s, [hand(0, 3, 9)]).finished


# ------------------------------------------------------------------ leads, sides, passed out


@pytest.mark.parametrize("dealer", range(4))
def test_the_bidder_leads_a_passed_out_deal_shows_the_dealers_left(dealer):
    p = play(game(dealer=dealer), [hand(2, 3, 9), {"passed": True}, hand(1, 4, 10), hand(0, 3, 9)])
    assert [h.leader for h in p.hands] == [2, (dealer + 2) % 4, 1, 0]
    assert [h.dealer for h in p.hands] == [(dealer + i) % 4 for i in range(4)]


def test_passed_out_scores_nothing():
    p = play(game(), [{"passed": True}])
    assert points(p) == [[0, 0]] and p.next_dealer == 1


def test_sides_are_seats_0_and_2_against_1_and_3():
    assert [list(s) for s in play(game(), []).sides] == [[0, 2], [1, 3]]


def test_the_default_options():
    o = make_setup("bid", PLAYERS, 0, {}).options
    assert {k: o[k] for k in ("target", "min_bid", "made", "set_defenders", "no_trump_double", "boston", "kitty")} == {
        "target": 7,
        "min_bid": 3,
        "made": "bid",
        "set_defenders": True,
        "no_trump_double": True,
        "boston": "quadruple",
        "kitty": True,
    }


# ------------------------------------------------------------------ the kitty


def test_with_the_kitty_the_declaring_side_has_a_book():
    refused(game(), [hand(0, 3, 0)], "tricks")
    refused(game(), [hand(1, 3, 0)], "tricks")
    assert score(hand(0, 3, 1)) == [-3, 6]


def test_without_the_kitty_the_declarers_may_take_none():
    assert score(hand(0, 3, 0), kitty=False) == [-3, 7]
    assert score(hand(3, 3, 0), kitty=False) == [7, -3]


# ------------------------------------------------------------------ refused, naming the field


@pytest.mark.parametrize("bid", [2, 8, 0, -3, 3.5, True, "4", None, [4]])
def test_a_bid_outside_min_bid_to_seven(bid):
    refused(game(), [{**hand(0, 4, 10), "bid": bid}], "bid")


def test_min_bid_four_refuses_a_three_and_min_bid_one_takes_a_one():
    refused(game(min_bid=4), [hand(0, 3, 9)], "bid")
    assert score(hand(0, 4, 10), min_bid=4) == [4, 0]
    assert score(hand(0, 1, 7), min_bid=1) == [1, 0]
    refused(game(), [hand(0, 1, 7)], "bid")


@pytest.mark.parametrize("direction", ["up", "no trump", "notrump", "hearts", "none", None, 1, ""])
def test_a_direction_not_in_the_three(direction):
    refused(game(), [{**hand(0, 4, 10), "direction": direction}], "direction")


@pytest.mark.parametrize("bidder", [4, -1, 1.0, True, "0", None])
def test_a_bidder_outside_the_table(bidder):
    refused(game(), [{**hand(0, 4, 10), "bidder": bidder}], "bidder")


@pytest.mark.parametrize("tricks", [[10, 2], [10, 4], [13, 1], [14, -1], [13], [6, 6, 1], None, "10-3", [9.5, 3.5]])
def test_books_that_do_not_add_up_to_13(tricks):
    refused(game(), [{**hand(0, 4, 10), "tricks": tricks}], "tricks")


def test_a_passed_out_deal_has_nothing_else_and_an_unknown_field():
    refused(game(), [{"passed": True, "bid": 4}], "bid")
    refused(game(), [{"passed": 1}], "passed")
    refused(game(), [{**hand(0, 4, 10), "trump": "hearts"}], "trump")


@pytest.mark.parametrize(
    "options, field",
    [
        ({"target": 0}, "options.target"),
        ({"target": 101}, "options.target"),
        ({"min_bid": 0}, "options.min_bid"),
        ({"min_bid": 8}, "options.min_bid"),
        ({"made": "tricks"}, "options.made"),
        ({"boston": "double"}, "options.boston"),
        ({"kitty": "yes"}, "options.kitty"),
        ({"set_defenders": 1}, "options.set_defenders"),
        ({"no_trump_double": None}, "options.no_trump_double"),
        ({"deals": 8}, "options.deals"),
    ],
)
def test_bad_options(options, field):
    with pytest.raises(InputError) as exc:
        make_setup("bid", PLAYERS, 0, options)
    assert field in exc.value.errors


# ------------------------------------------------------------------ properties


@settings(max_examples=examples(300), deadline=None)
@given(data=st.data())
def test_a_made_hand_never_scores_negative_for_the_declarers_and_a_set_never_positive(data):
    setup, inputs = data.draw(games("bid", max_hands=12))
    for h in play(setup, inputs).hands:
        if h.input.get("passed"):
            assert h.points == (0, 0)
            continue
        side = h.input["bidder"] % 2
        if rules.made(h.input):
            assert h.points[side] > 0 and h.points[1 - side] == 0
        else:
            assert h.points[side] < 0 and h.points[1 - side] >= 0


@settings(max_examples=examples(300), deadline=None)
@given(data=st.data())
def test_the_game_ends_exactly_at_plus_or_minus_target_or_a_boston_that_wins_it(data):
    setup, inputs = data.draw(games("bid", max_hands=30))
    p = play(setup, inputs)
    target = setup.options["target"]
    for i, h in enumerate(p.hands):
        last = i == len(p.hands) - 1
        wins = setup.options["boston"] == "wins_game" and rules.boston(h.input)
        over = wins or any(abs(t) >= target for t in h.totals)
        assert over == (last and p.finished), (h, target)
    if p.finished:
        totals = p.totals
        if not (setup.options["boston"] == "wins_game" and rules.boston(p.hands[-1].input)):
            up = [s for s in (0, 1) if totals[s] >= target]
            down = [s for s in (0, 1) if totals[s] <= -target]
            assert p.winner == (up[0] if up else 1 - down[0])
