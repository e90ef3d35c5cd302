"""Classic (English) whist scoring, as RULES.md states it (seeds 000 and 001).

Also holds the make_setup checks common to every variant (names, dealer, variant)."""

import pytest

import helpers
from helpers import points
from scorekeeper.core import GameOver, InputError, make_setup, play

PLAYERS = ["Anna", "Bo", "Carl", "Dina"]


def game(dealer=0, **options):
    return make_setup("classic", PLAYERS, dealer, options)


def hand(a, trump="hearts", **extra):
    """Side 0 took `a` tricks, side 1 the rest."""
    return {"trump": trump, "tricks": [a, 13 - a], **extra}


def refused(setup, inputs, field):
    """The hand is refused with an error naming `field` (or one of its parts, e.g. revoke.side)."""
    return helpers.refused(setup, inputs, field, parts=True)


# ------------------------------------------------------------------ tricks


@pytest.mark.parametrize("tricks, score", [(7, 1), (8, 2), (9, 3), (10, 4), (11, 5), (12, 6), (13, 7)])
def test_seed_trick_table_7_to_13_scores_1_to_7(tricks, score):
    p = play(game(target=10), [hand(tricks)])
    assert points(p) == [[score, 0]]
    p = play(game(target=10), [hand(13 - tricks)])
    assert points(p) == [[0, score]]


@pytest.mark.parametrize("a", range(0, 14))
def test_only_the_side_with_seven_or_more_scores(a):
    p = play(game(target=10), [hand(a)])
    assert points(p) == [[max(a - 6, 0), max(13 - a - 6, 0)]]


def test_seed_nine_tricks_is_three_points():
    # seed 001: "Tar laget ditt for eksempel 9 stikk, får dere 9 − 6 = 3 poeng"
    assert points(play(game(), [hand(9)])) == [[3, 0]]


@pytest.mark.parametrize("trump", ["hearts", "diamonds", "clubs", "spades"])
def test_every_suit_is_a_trump(trump):
    p = play(game(), [hand(8, trump)])
    assert points(p) == [[2, 0]]


def test_totals_are_running_sums():
    p = play(game(target=10), [hand(8), hand(4), hand(7)])
    assert [list(h.totals) for h in p.hands] == [[2, 0], [2, 3], [3, 3]]
    assert list(p.totals) == [3, 3]


# ------------------------------------------------------------------ game and target


@pytest.mark.parametrize("target", [5, 7, 10])
def test_first_side_to_reach_the_target_wins(target):
    inputs = []
    p = play(game(target=target), inputs)
    while not p.finished:
        inputs.append(hand(4))  # side 1: 3 points a hand
        p = play(game(target=target), inputs)
    assert p.winner == 1
    assert p.totals[1] >= target and p.totals[1] - 3 < target
    assert p.totals[0] == 0


def test_default_target_is_five():
    p = play(game(), [hand(10)])  # 4
    assert not p.finished and p.winner is None
    p = play(game(), [hand(10), hand(7)])  # 4 + 1
    assert p.finished and p.winner == 0 and list(p.totals) == [5, 0]


def test_points_beyond_the_target_end_the_game_all_the_same():
    p = play(game(), [hand(10), hand(13)])
    assert p.finished and p.winner == 0 and list(p.totals) == [11, 0]


def test_finished_game_takes_no_more_hands():
    with pytest.raises(GameOver) as exc:
        play(game(), [hand(12), hand(8)])
    assert exc.value.number == 2
    assert isinstance(exc.value, InputError)


# ------------------------------------------------------------------ honours


@pytest.mark.parametrize(
    "honours, expected",
    [
        ([4, 0], [1 + 4, 0]),  # all four: 4
        ([3, 1], [1 + 2, 0]),  # three: 2
        ([2, 2], [1, 0]),  # two each: nothing
        ([1, 3], [1, 2]),  # the side without the tricks scores its honours
        ([0, 4], [1, 4]),
    ],
)
def test_honours_four_score_4_three_score_2(honours, expected):
    p = play(game(target=10, honours=True), [hand(7, honours=honours)])
    assert points(p) == [expected]


def test_seed_honours_not_scored_by_a_side_at_target_minus_one():
    # seed 000: "Ett lag som redan står på 4 poäng på väg mot målet får dock inte poängsätta honnörer"
    s = game(honours=True)
    p = play(s, [hand(10), hand(6, honours=[4, 0])])
    assert points(p) == [[4, 0], [0, 1]]
    assert list(p.totals) == [4, 1] and not p.finished


def test_honours_at_target_minus_one_the_other_side_still_scores_its_own():
    s = game(honours=True)
    p = play(s, [hand(10), hand(6, honours=[1, 3])])  # side 0 at 4 holds 1; side 1 at 0 holds 3
    assert points(p) == [[4, 0], [0, 1 + 2]]


def test_honours_at_target_minus_one_with_target_ten():
    s = game(target=10, honours=True)
    p = play(s, [hand(13), hand(8), hand(6, honours=[4, 0])])  # 7 + 2 = 9 = target - 1
    assert points(p)[-1] == [0, 1]


def test_tricks_count_before_honours_game_won_on_tricks_scores_no_honours():
    # seed 000: "Om båda sidor skulle få poäng samma omgång räknas sticken alltid först."
    s = game(honours=True)
    p = play(s, [hand(9), hand(2, honours=[4, 0])])  # side 0 at 3 with 4 honours; side 1 takes 11: 5 points
    assert points(p) == [[3, 0], [0, 5]]
    assert p.finished and p.winner == 1


def test_tricks_end_the_game_no_honours_for_the_winner_either():
    s = game(honours=True)
    p = play(s, [hand(9), hand(8, honours=[3, 1])])  # 3 + 2 tricks = 5
    assert points(p) == [[3, 0], [2, 0]]
    assert p.finished and p.winner == 0


def test_honours_can_win_the_game_when_tricks_did_not():
    s = game(honours=True)
    p = play(s, [hand(8), hand(7, honours=[3, 1])])  # 2, then 1 + 2
    assert points(p) == [[2, 0], [3, 0]]
    assert p.finished and p.winner == 0


def test_honours_refused_when_the_option_is_off():
    refused(game(), [hand(7, honours=[4, 0])], "honours")


def test_honours_off_by_default():
    assert game().options["honours"] is False


@pytest.mark.parametrize("bad", [[3, 3], [5, -1], [4], "4-0", [True, 3], [2.0, 2]])
def test_honours_must_be_two_numbers_adding_up_to_four(bad):
    refused(game(honours=True), [hand(7, honours=bad)], "honours")


def test_honours_only_with_a_trump():
    # every 2nd deal without trump (deal 2); honours there are refused or score nothing
    s = game(honours=True, trump_rotation=True, no_trump_every=2)
    inputs = [{"tricks": [7, 6]}, {"tricks": [7, 6], "honours": [4, 0]}]
    try:
        p = play(s, inputs)
    except InputError as exc:
        assert "honours" in exc.errors and exc.number == 2
    else:
        assert points(p)[1] == [1, 0]


def test_honours_in_a_trump_deal_of_a_rotation():
    s = game(target=10, honours=True, trump_rotation=True, no_trump_every=2)
    p = play(s, [{"tricks": [7, 6], "honours": [4, 0]}])
    assert points(p) == [[5, 0]]


# ------------------------------------------------------------------ revoke


@pytest.mark.parametrize(
    "revoker, tricks, penalty, expected",
    [
        # tricks: move 3 tricks from the revoking side to the other
        (1, 7, "tricks", [4, 0]),  # 7/6 -> 10/3
        (0, 10, "tricks", [1, 0]),  # 10/3 -> 7/6
        (0, 8, "tricks", [0, 2]),  # 8/5 -> 5/8
        (1, 11, "tricks", [7, 0]),  # 11/2 -> 13/0: never below 0
        (1, 13, "tricks", [7, 0]),  # 13/0 -> nothing to move
        (0, 2, "tricks", [0, 7]),  # 2/11 -> 0/13
        # add: 3 points to the side that did not revoke
        (1, 5, "add", [3, 2]),
        (0, 5, "add", [0, 2 + 3]),
        # deduct: 3 points off the revoking side
        (1, 5, "deduct", [0, 2 - 3]),
        (0, 9, "deduct", [3 - 3, 0]),
        (0, 6, "deduct", [-3, 1]),
    ],
)
def test_revoke_penalties(revoker, tricks, penalty, expected):
    s = game(target=10)
    p = play(s, [hand(tricks, revoke={"side": revoker, "penalty": penalty})])
    assert points(p) == [expected]


def test_revoke_penalty_two_in_older_books():
    s = game(target=10, revoke_penalty=2)
    assert points(play(s, [hand(7, revoke={"side": 1, "penalty": "tricks"})])) == [[3, 0]]
    assert points(play(s, [hand(5, revoke={"side": 1, "penalty": "add"})])) == [[2, 2]]
    assert points(play(s, [hand(5, revoke={"side": 1, "penalty": "deduct"})])) == [[0, 0]]


def test_revoke_penalty_default_is_three():
    assert game().options["revoke_penalty"] == 3


def test_no_game_out_on_a_revoke_capped_at_target_minus_one():
    # side 1 revokes but still takes 12 tricks (6 points); the penalty is add: side 0 +3
    p = play(game(), [hand(1, revoke={"side": 1, "penalty": "add"})])
    assert points(p) == [[3, 4]]
    assert list(p.totals) == [3, 4] and not p.finished


def test_no_game_out_on_a_revoke_counts_the_total_before_the_hand():
    p = play(game(), [hand(4), hand(0, revoke={"side": 1, "penalty": "deduct"})])
    # side 1 at 3; 13 tricks = 7, minus 3 = 4 would make 7: stops at 4
    assert points(p) == [[0, 3], [0, 1]]
    assert list(p.totals) == [0, 4] and not p.finished


def test_no_game_out_on_a_revoke_with_tricks_penalty():
    p = play(game(), [hand(3), hand(13, revoke={"side": 0, "penalty": "tricks"})])
    # side 0 at 0: 13 - 3 = 10 tricks = 4 points, fine
    assert points(p)[-1] == [4, 0]
    p = play(game(), [hand(9), hand(13, revoke={"side": 0, "penalty": "tricks"})])
    # side 0 at 3: 4 points would make 7: stops at 4
    assert points(p)[-1] == [1, 0]
    assert list(p.totals) == [4, 0] and not p.finished


def test_no_game_out_on_a_revoke_at_target_minus_one_scores_nothing():
    p = play(game(), [hand(10), hand(12, revoke={"side": 0, "penalty": "add"})])
    assert points(p)[-1] == [0, 3]
    assert list(p.totals) == [4, 3] and not p.finished


def test_revoke_cap_includes_honours():
    p = play(game(honours=True), [hand(8), hand(7, honours=[4, 0], revoke={"side": 0, "penalty": "add"})])
    # side 0 at 2 would score 1 + 4: stops at 4
    assert list(p.totals)[0] == 4 and not p.finished


def test_the_side_that_did_not_revoke_can_win_on_the_penalty():
    p = play(game(), [hand(9), hand(8, revoke={"side": 1, "penalty": "add"})])
    assert points(p)[-1] == [2 + 3, 0]
    assert p.finished and p.winner == 0


def test_revoke_settled_before_tricks_so_the_book_counts_after_the_move():
    # 5/8 with side 1 revoking, tricks: 8/5 → side 0 scores 2, side 1 nothing
    p = play(game(target=10), [hand(5, revoke={"side": 1, "penalty": "tricks"})])
    assert points(p) == [[2, 0]]


@pytest.mark.parametrize(
    "revoke, field",
    [
        ({"side": 2, "penalty": "tricks"}, "revoke"),
        ({"side": True, "penalty": "tricks"}, "revoke"),
        ({"side": 0, "penalty": "points"}, "revoke"),
        ({"side": 0, "penalty": "tricks", "extra": 1}, "revoke"),
        ("side 0", "revoke"),
    ],
)
def test_bad_revoke_is_refused(revoke, field):
    e = refused(game(), [hand(7, revoke=revoke)], field)
    assert e.number == 1


# ------------------------------------------------------------------ rubber


def rubber_example():
    return [
        hand(10),
        hand(3),
        hand(7),  # game 1: 4-0, 4-4, 5-4
        hand(7),
        hand(2),  # game 2: 1-0, 1-5
        hand(11),  # game 3: 5-0
    ]


def test_rubber_example_games_5_4_1_5_5_0_rubber_points_6_against_2():
    p = play(game(rubber=True), rubber_example())
    assert p.finished and p.winner == 0
    assert tuple(p.games_won) == (2, 1)
    assert tuple(p.rubber_points) == (6, 2)  # 1 + 3 + 2 against 2: worth 4
    assert [h.game for h in p.hands] == [1, 1, 1, 2, 2, 3]
    assert [list(h.totals) for h in p.hands] == [[4, 0], [4, 4], [5, 4], [1, 0], [1, 5], [5, 0]]


def test_rubber_new_game_starts_at_0_0():
    p = play(game(rubber=True), rubber_example()[:3])
    assert not p.finished and p.winner is None
    assert list(p.totals) == [0, 0]
    assert tuple(p.games_won) == (1, 0)
    assert p.rubber_points is None  # only when the rubber is over
    p = play(game(rubber=True), rubber_example()[:4])
    assert list(p.totals) == [1, 0] and p.hands[-1].game == 2


def test_rubber_points_none_while_in_progress():
    for k in range(0, 6):
        p = play(game(rubber=True), rubber_example()[:k])
        assert p.rubber_points is None
        assert not p.finished


def test_rubber_won_two_nil_ends_after_two_games():
    p = play(game(rubber=True), [hand(12), hand(11)])
    assert p.finished and p.winner == 0
    assert tuple(p.games_won) == (2, 0)
    assert tuple(p.rubber_points) == (3 + 3 + 2, 0)
    with pytest.raises(GameOver):
        play(game(rubber=True), [hand(12), hand(11), hand(7)])


@pytest.mark.parametrize("loser, value", [(0, 3), (1, 2), (2, 2), (3, 1), (4, 1)])
def test_rubber_game_values_treble_double_single(loser, value):
    # game 1: side 1 first gets `loser` points (≤ 4), then side 0 wins with 13 tricks; game 2: 5-0
    first = [hand(13 - 6 - loser)] if loser else []
    inputs = first + [hand(13), hand(13)]
    p = play(game(rubber=True), inputs)
    assert p.finished and p.winner == 0
    assert tuple(p.rubber_points) == (value + 3 + 2, 0)


def test_rubber_loser_side_also_gets_the_value_of_its_game():
    # games: side 1 wins 5-0 (3), side 0 wins 5-3 (1), side 0 wins 5-2 (2): 1 + 2 + 2 = 5 against 3
    inputs = [hand(2), hand(4), hand(11), hand(5), hand(11)]
    p = play(game(rubber=True), inputs)
    assert [list(h.totals) for h in p.hands] == [[0, 5], [0, 3], [5, 3], [0, 2], [5, 2]]
    assert p.finished and p.winner == 0
    assert tuple(p.games_won) == (2, 1)
    assert tuple(p.rubber_points) == (5, 3)


@pytest.mark.parametrize("target", [7, 10])
def test_rubber_points_only_with_target_five(target):
    s = game(rubber=True, target=target)
    inputs = []
    while not play(s, inputs).finished:
        inputs.append(hand(13))
    p = play(s, inputs)
    assert p.finished and p.winner == 0
    assert tuple(p.games_won) == (2, 0)
    assert p.rubber_points is None


def test_no_rubber_no_games_won():
    p = play(game(), [hand(12)])
    assert p.games_won is None and p.rubber_points is None
    assert all(h.game is None for h in p.hands)


def test_rubber_honours_start_fresh_in_a_new_game():
    # after game 1 the totals are 0-0, so a side that stood at 4 may score honours again
    p = play(game(rubber=True, honours=True), [hand(10), hand(7), hand(6, honours=[4, 0])])
    assert points(p)[-1] == [4, 1]


# ------------------------------------------------------------------ tournament


def test_tournament_deals_no_target_larger_total_wins():
    s = game(deals=4)
    inputs = [hand(13), hand(12), hand(2), hand(7)]  # 7, 6 -> 13-0, then 0-5, then 14-5
    for k in range(4):
        p = play(s, inputs[:k])
        assert not p.finished and p.deals_left == 4 - k
    p = play(s, inputs)
    assert p.finished and p.winner == 0 and list(p.totals) == [14, 5] and p.deals_left == 0


def test_tournament_equal_totals_is_a_draw():
    p = play(game(deals=2), [hand(9), hand(4)])
    assert p.finished and p.winner is None and list(p.totals) == [3, 3]


def test_tournament_takes_no_hand_after_the_last_deal():
    with pytest.raises(GameOver) as exc:
        play(game(deals=2), [hand(9), hand(4), hand(7)])
    assert exc.value.number == 3


def test_tournament_has_no_honours():
    try:
        s = game(deals=4, honours=True)
    except InputError as exc:
        assert "options.honours" in exc.errors or "options.deals" in exc.errors
    else:
        try:
            p = play(s, [hand(7, honours=[4, 0])])
        except InputError as exc:
            assert "honours" in exc.errors
        else:
            assert points(p) == [[1, 0]]


def test_tournament_no_game_out_on_a_revoke_does_not_apply_without_a_target():
    # no target: the penalty is applied, nothing is capped
    p = play(game(deals=3), [hand(13, revoke={"side": 1, "penalty": "add"})])
    assert points(p) == [[7 + 3, 0]]


def trumps(p):
    return [h.trump for h in p.hands]


def test_trump_rotation_hearts_diamonds_spades_clubs():
    s = game(deals=8, trump_rotation=True)
    p = play(s, [{"tricks": [7, 6]}] * 8)
    assert trumps(p) == ["hearts", "diamonds", "spades", "clubs"] * 2


@pytest.mark.parametrize(
    "every, expected",
    [
        (3, ["hearts", "diamonds", "none", "spades", "clubs", "none", "hearts", "diamonds", "none", "spades"]),
        (4, ["hearts", "diamonds", "spades", "none", "clubs", "hearts", "diamonds", "none", "spades", "clubs"]),
        (5, ["hearts", "diamonds", "spades", "clubs", "none", "hearts", "diamonds", "spades", "clubs", "none"]),
        (2, ["hearts", "none", "diamonds", "none", "spades", "none", "clubs", "none", "hearts", "none"]),
    ],
)
def test_trump_rotation_no_trump_every_m_is_inserted_into_the_cycle(every, expected):
    s = game(deals=10, trump_rotation=True, no_trump_every=every)
    p = play(s, [{"tricks": [7, 6]}] * 10)
    assert trumps(p) == expected
    assert points(p) == [[1, 0]] * 10  # a no-trump deal scores its tricks like any other


def test_trump_rotation_accepts_the_rotation_trump_and_refuses_another():
    s = game(deals=4, trump_rotation=True, no_trump_every=2)
    p = play(s, [hand(7, "hearts"), hand(7, "none")])
    assert trumps(p) == ["hearts", "none"]
    e = refused(s, [hand(7, "hearts"), hand(7, "diamonds")], "trump")
    assert e.number == 2


def test_trump_rotation_with_the_dealer_not_at_seat_zero_follows_the_deal_number():
    s = game(dealer=2, deals=5, trump_rotation=True)
    p = play(s, [{"tricks": [7, 6]}] * 5)
    assert trumps(p) == ["hearts", "diamonds", "spades", "clubs", "hearts"]


def test_no_trump_only_in_tournament_no_trump_deals():
    refused(game(), [hand(7, "none")], "trump")
    refused(game(deals=4, trump_rotation=True), [hand(7, "none")], "trump")


# ------------------------------------------------------------------ dealer and leader


@pytest.mark.parametrize("dealer", range(4))
def test_deal_passes_clockwise_and_left_of_dealer_leads(dealer):
    s = game(dealer=dealer, target=30)
    p = play(s, [hand(7)] * 6)
    assert [h.dealer for h in p.hands] == [(dealer + i) % 4 for i in range(6)]
    assert [h.leader for h in p.hands] == [(dealer + i + 1) % 4 for i in range(6)]
    assert p.next_dealer == (dealer + 6) % 4
    assert [h.number for h in p.hands] == [1, 2, 3, 4, 5, 6]


def test_empty_game():
    p = play(game(dealer=3), [])
    assert p.hands == () and list(p.totals) == [0, 0]
    assert p.next_dealer == 3 and not p.finished and p.winner is None


def test_sides_are_partners_opposite():
    p = play(game(), [])
    assert [list(s) for s in p.sides] == [[0, 2], [1, 3]]


def test_an_edit_can_reopen_a_finished_game():
    s = game()
    assert play(s, [hand(10), hand(8)]).finished
    p = play(s, [hand(10), hand(6)])
    assert not p.finished
    p = play(s, [hand(10), hand(6), hand(7)])
    assert p.finished and p.winner == 0


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    "tricks", [[7, 7], [6, 6], [14, -1], [-1, 14], [13], [7, 6, 0], "7-6", None, [True, 12], [7.0, 6.0], ["7", "6"]]
)
def test_tricks_out_of_range_or_not_adding_up_to_13(tricks):
    e = refused(game(), [{"trump": "hearts", "tricks": tricks}], "tricks")
    assert e.number == 1


def test_missing_tricks():
    refused(game(), [{"trump": "hearts"}], "tricks")


@pytest.mark.parametrize("trump", ["joker", "Hearts", "", 1, None])
def test_bad_or_missing_trump(trump):
    refused(game(), [{"trump": trump, "tricks": [7, 6]}], "trump")


def test_unknown_input_field():
    refused(game(), [hand(7, bid="grand")], "bid")


def test_hand_must_be_an_object():
    with pytest.raises(InputError):
        play(game(), [[7, 6]])


def test_bad_hand_number_is_reported():
    e = refused(game(target=30), [hand(7), hand(7), {"trump": "hearts", "tricks": [9, 9]}], "tricks")
    assert e.number == 3


@pytest.mark.parametrize(
    "options, field",
    [
        ({"trumps": True}, "options.trumps"),
        ({"target": 0}, "options.target"),
        ({"target": -5}, "options.target"),
        ({"target": "5"}, "options.target"),
        ({"target": True}, "options.target"),
        ({"target": 5.5}, "options.target"),
        ({"honours": "yes"}, "options.honours"),
        ({"honours": 1}, "options.honours"),
        ({"rubber": None}, "options.rubber"),
        ({"revoke_penalty": 0}, "options.revoke_penalty"),
        ({"revoke_penalty": 14}, "options.revoke_penalty"),
        ({"deals": 0}, "options.deals"),
        ({"deals": -4}, "options.deals"),
        ({"deals": True}, "options.deals"),
        ({"trump_rotation": "on"}, "options.trump_rotation"),
        ({"trump_rotation": True, "no_trump_every": 0}, "options.no_trump_every"),
    ],
)
def test_bad_options_are_refused(options, field):
    with pytest.raises(InputError) as exc:
        make_setup("classic", PLAYERS, 0, options)
    assert field in exc.value.errors, exc.value.errors


def test_defaults():
    o = game().options
    assert o["target"] == 5 and o["honours"] is False and o["rubber"] is False
    assert o["revoke_penalty"] == 3 and o["deals"] is None
    assert o["trump_rotation"] is False and o["no_trump_every"] is None


def test_rubber_is_played_to_a_target_not_deals():
    with pytest.raises(InputError) as exc:
        make_setup("classic", PLAYERS, 0, {"rubber": True, "deals": 8})
    assert any(k.startswith("options.") for k in exc.value.errors)


# ------------------------------------------------------------------ make_setup, common to all variants


@pytest.mark.parametrize(
    "variant, counts",
    [
        ("classic", [4]),
        ("norwegian", [4]),
        ("danish", [4, 5]),
        ("german", [2]),
        ("swedish", [4]),
    ],
)
def test_player_counts(variant, counts):
    names = ["Anna", "Bo", "Carl", "Dina", "Eva", "Finn", "Gro"]
    for n in range(0, 8):
        if n in counts:
            s = make_setup(variant, names[:n])
            assert s.players == tuple(names[:n])
        else:
            with pytest.raises(InputError) as exc:
                make_setup(variant, names[:n])
            assert "players" in exc.value.errors


@pytest.mark.parametrize("variant", ["classic", "norwegian", "danish", "german", "swedish"])
def test_duplicate_names_are_refused(variant):
    n = 2 if variant == "german" else 4
    names = ["Anna", "Bo", "Carl", "Dina"][:n]
    names[-1] = "Anna"
    with pytest.raises(InputError) as exc:
        make_setup(variant, names)
    assert "players" in exc.value.errors


@pytest.mark.parametrize(
    "bad", ["<b>Bo</b>", "Bo>", "<script>", "Bo\x00", "B\x07o", "Bo\x1b[31m", "Bo\x7f", "", "   ", None, 7, ["Bo"]]
)
def test_bad_names_are_refused(bad):
    with pytest.raises(InputError) as exc:
        make_setup("classic", ["Anna", bad, "Carl", "Dina"])
    assert "players" in exc.value.errors


def test_players_must_be_a_list():
    with pytest.raises(InputError) as exc:
        make_setup("classic", "Anna, Bo, Carl, Dina")
    assert "players" in exc.value.errors


@pytest.mark.parametrize("variant", ["bridge", "", None, "Classic"])
def test_unknown_variant(variant):
    with pytest.raises(InputError) as exc:
        make_setup(variant, PLAYERS)
    assert "variant" in exc.value.errors


@pytest.mark.parametrize("dealer", [-1, 4, "0", True, 1.0])
def test_bad_first_dealer(dealer):
    with pytest.raises(InputError) as exc:
        make_setup("classic", PLAYERS, dealer)
    assert "dealer" in exc.value.errors


def test_default_first_dealer_is_seat_zero():
    assert make_setup("classic", PLAYERS).dealer == 0


def test_options_must_be_an_object():
    with pytest.raises(InputError) as exc:
        make_setup("classic", PLAYERS, 0, ["target", 5])
    assert any(k.startswith("options") for k in exc.value.errors)


def test_option_of_another_variant_is_unknown_here():
    with pytest.raises(InputError) as exc:
        make_setup("classic", PLAYERS, 0, {"set_bonus": 1})
    assert "options.set_bonus" in exc.value.errors
