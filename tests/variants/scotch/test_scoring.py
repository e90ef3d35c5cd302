"""Scotch whist (Catch the Ten) scoring, as RULES.md states it: the five trump honours, the cards taken beyond
those dealt, the game to 41 counted out ten, cards, ace, king, queen, jack. Every number below is worked out by
hand in the comment beside it."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import examples, points, refused
from scorekeeper.core import VARIANTS, GameOver, InputError, make_setup, play
from scorekeeper.variants.scotch import rules as scotch

NAMES = ["Anna", "Bo", "Carl", "Dina", "Erik", "Frida", "Gunnar", "Hanne"]
DEFAULT_VALUES = {"jack": 11, "ten": 10, "ace": 4, "king": 3, "queen": 2}


def game(n=4, dealer=0, **options):
    return make_setup("scotch", NAMES[:n], dealer, options)


def honours(jack, ten, ace, king, queen):
    return {"jack": jack, "ten": ten, "ace": ace, "king": king, "queen": queen}


def hand(tricks, jack=0, ten=0, ace=0, king=0, queen=0):
    return {"tricks": list(tricks), "honours": honours(jack, ten, ace, king, queen)}


# ------------------------------------------------------------------ the table: deck, tricks, sides


@pytest.mark.parametrize(
    "n, tricks, deck", [(2, 18, 36), (3, 12, 36), (4, 9, 36), (5, 7, 35), (6, 6, 36), (7, 5, 35), (8, 4, 32)]
)
def test_the_deck_and_the_tricks_of_a_deal_by_table_size(n, tricks, deck):
    # 36 cards (six to ace); the six of spades out with five or seven (35), all four sixes with eight (32).
    p = play(game(n), [])
    assert p.next_cards == tricks  # each player is dealt T cards in the deal (two and three: in packets of six)
    assert scotch.deck(n) == deck == n * tricks


def test_each_for_himself_by_default():
    assert play(game(5), []).sides == ((0,), (1,), (2,), (3,), (4,))


@pytest.mark.parametrize(
    "n, k, sides",
    [
        (4, 2, ((0, 2), (1, 3))),
        (6, 2, ((0, 2, 4), (1, 3, 5))),
        (6, 3, ((0, 3), (1, 4), (2, 5))),
        (8, 2, ((0, 2, 4, 6), (1, 3, 5, 7))),
        (8, 4, ((0, 4), (1, 5), (2, 6), (3, 7))),
    ],
)
def test_teams_seat_s_on_side_s_mod_k(n, k, sides):
    assert play(game(n, teams=k), []).sides == sides


@pytest.mark.parametrize("n, k", [(2, 2), (3, 2), (4, 3), (4, 4), (5, 2), (6, 4), (7, 2), (8, 3), (6, 6)])
def test_teams_that_do_not_fit_the_table_are_refused(n, k):
    with pytest.raises(InputError) as exc:
        game(n, teams=k)
    assert list(exc.value.errors) == ["options.teams"]


@pytest.mark.parametrize("k", [0, 1, 5, 9, "2", True, 2.0])
def test_teams_out_of_range(k):
    with pytest.raises(InputError) as exc:
        game(8, teams=k)
    assert "options.teams" in exc.value.errors


def test_default_options_are_listed_in_full():
    assert game().options == {
        "target": 41,
        "values": DEFAULT_VALUES,
        "card_points": "excess",
        "teams": None,
        "hand_size": None,
    }


def test_values_left_out_keep_their_defaults():
    assert game(values={"ten": 20}).options["values"] == {"jack": 11, "ten": 20, "ace": 4, "king": 3, "queen": 2}


@pytest.mark.parametrize(
    "values", [{"two": 1}, {"ten": -1}, {"ten": 101}, {"ten": 1.5}, {"ten": True}, {"ten": "10"}, [11, 10], "x"]
)
def test_bad_values(values):
    with pytest.raises(InputError) as exc:
        game(values=values)
    assert list(exc.value.errors) == ["options.values"]


@pytest.mark.parametrize(
    "options, field",
    [
        ({"target": 0}, "options.target"),
        ({"target": 501}, "options.target"),
        ({"card_points": "all"}, "options.card_points"),
        ({"rate": 1}, "options.rate"),
    ],
)
def test_bad_options(options, field):
    with pytest.raises(InputError) as exc:
        game(**options)
    assert field in exc.value.errors


@pytest.mark.parametrize("n", [1, 9])
def test_two_to_eight_players(n):
    with pytest.raises(InputError) as exc:
        make_setup("scotch", [f"P{i}" for i in range(n)])
    assert "players" in exc.value.errors


# ------------------------------------------------------------------ points of a hand


def test_the_api_example_four_each_for_himself():
    # T = 9. Card points max(0, 4·tricks − 9): 3, 0, 7, 0. Honours: Anna ten 10 + queen 2 = 12, Bo ace 4,
    # Carl jack 11 + king 3 = 14, Dina none.
    p = play(game(), [hand([3, 2, 4, 0], jack=2, ten=0, ace=1, king=2, queen=0)])
    assert points(p) == [[15, 4, 21, 0]]
    assert p.hands[0].leader == 1  # the dealer's left


def test_two_players_eighteen_tricks():
    # 36 cards, 18 each: 10 tricks are 20 cards, 2 beyond the 18 dealt; all five honours 30.
    assert points(play(game(2), [hand([10, 8])])) == [[32, 0]]


def test_two_players_even_tricks_score_no_cards():
    assert points(play(game(2), [hand([9, 9], jack=1, ace=1)])) == [[10 + 3 + 2, 11 + 4]]


def test_four_in_two_teams():
    # m = 2, T = 9: 5 tricks are 20 cards against 18 dealt (+2), 4 tricks 16 (0).
    # Honours: side 0 jack 11 + ace 4 = 15, side 1 ten 10 + king 3 + queen 2 = 15.
    p = play(game(4, teams=2), [hand([5, 4], jack=0, ten=1, ace=0, king=1, queen=1)])
    assert points(p) == [[17, 15]]


def test_six_in_three_pairs():
    # T = 6, m = 2: 3 tricks 18 cards against 12 (+6), 2 tricks 12 (0), 1 trick 6 (0).
    # Honours: pair 0 jack 11, pair 1 ten 10 + ace 4, pair 2 king 3 + queen 2.
    p = play(game(6, teams=3), [hand([3, 2, 1], jack=0, ten=1, ace=1, king=2, queen=2)])
    assert points(p) == [[17, 14, 5]]


def test_six_in_two_teams_of_three():
    # T = 6, m = 3: 4 tricks 24 cards against 18 (+6).
    assert points(play(game(6, teams=2), [hand([4, 2], ten=1, queen=1)])) == [[6 + 11 + 4 + 3, 10 + 2]]


def test_five_players_thirty_five_cards():
    # T = 7: 3 tricks 15 cards (+8), 2 tricks 10 (+3); the others short by 2, 2 and 7: 11 in all either way.
    p = play(game(5), [hand([3, 1, 1, 2, 0], jack=3, ten=0, ace=1, king=2, queen=0)])
    assert points(p) == [[8 + 10 + 2, 4, 3, 3 + 11, 0]]


def test_eight_players_thirty_two_cards():
    # T = 4, four cards dealt each: 2 tricks are 16 cards (+12), 1 trick 8 (+4); the five without a trick are short
    # by 4 each, 20 in all, as many as the 12 + 4 + 4 taken beyond.
    p = play(game(8), [hand([2, 1, 1, 0, 0, 0, 0, 0], jack=0, ten=1, ace=2, king=0, queen=0)])
    assert points(p) == [[12 + 11 + 3 + 2, 4 + 10, 4 + 4, 0, 0, 0, 0, 0]]


def test_eight_in_four_pairs():
    # T = 4, m = 2: 2 tricks 16 cards against 8 (+8), 1 trick 8 (0). Pair 0 jack 11 + ten 10, pair 1 ace 4 + queen 2,
    # pair 2 king 3.
    p = play(game(8, teams=4), [hand([2, 1, 1, 0], ace=1, king=2, queen=1)])
    assert points(p) == [[8 + 11 + 10, 4 + 2, 3, 0]]


def test_card_points_none_counts_the_honours_only():
    assert points(play(game(card_points="none"), [hand([3, 2, 4, 0], jack=2, ace=1, king=2)])) == [[12, 4, 14, 0]]


def test_values_option():
    p = play(game(2, values={"ten": 20, "jack": 0}), [hand([9, 9], ten=1, jack=1)])
    assert points(p) == [[4 + 3 + 2, 20]]


# ------------------------------------------------------------------ the game: to 41, counted out


def test_first_to_41_wins():
    # Anna 32 then 32 + 12 = 44; Bo 0 then 18.
    s = game(2)
    p = play(s, [hand([10, 8])])
    assert list(p.totals) == [32, 0] and not p.finished
    p = play(s, [hand([10, 8]), hand([9, 9], jack=1, ace=1, king=1)])
    assert list(p.totals) == [32 + 12, 18] and p.finished and p.winner == 0
    with pytest.raises(GameOver):
        play(s, [hand([10, 8]), hand([9, 9], jack=1, ace=1, king=1), hand([9, 9])])


def test_target_option():
    s = game(2, target=100)
    p = play(s, [hand([10, 8])] * 3)
    assert list(p.totals) == [96, 0] and not p.finished
    assert play(s, [hand([10, 8])] * 4).winner == 0


def count_out(before, last, n=2, **options):
    """The game's winner when `last` is played after totals `before` (checked to be reached exactly)."""
    s = game(n, **options)
    ctx_totals = tuple(before)
    from scorekeeper.core import hand_context, table_context
    from scorekeeper.core.game import ScoredHand

    rules = VARIANTS["scotch"]
    ctx = hand_context(rules, table_context(s), 5, ctx_totals)
    inp = rules.check_hand(last, ctx)
    pts = rules.hand_points(inp, ctx)
    totals = tuple(b + x for b, x in zip(before, pts))
    return rules.game_end(ScoredHand(5, ctx.dealer, inp, pts, totals, 0, cards=ctx.cards), ctx), totals


def test_count_out_the_ten_first():
    # Before 35–38. Anna: ten 10 + ace 4 + queen 2 = 16 → 51; Bo: jack 11 + king 3 = 14 → 52. Both reach 41;
    # counted out, the ten takes Anna to 45 first: she wins, though Bo ends the deal higher.
    (finished, winner), totals = count_out([35, 38], hand([9, 9], jack=1, ten=0, ace=0, king=1, queen=0))
    assert totals == (51, 52) and finished and winner == 0


def test_count_out_the_cards_before_the_ace():
    # Before 37–30. Tricks 8–10: Bo 2 card points. Anna: jack 11 + ace 4 + king 3 + queen 2 = 20 → 57; Bo: ten 10
    # + 2 → 42. Counted out: ten, Bo 40; cards, Bo 42: Bo wins (Anna would have reached 41 only at the ace).
    (finished, winner), totals = count_out([37, 30], hand([8, 10], jack=0, ten=1, ace=0, king=0, queen=0))
    assert totals == (57, 42) and finished and winner == 1


def test_count_out_the_ace_before_the_king():
    # Three alone, before 39–38–20, tricks 4–4–4 (no card points). Anna: king 3 + queen 2 + jack 11 = 16 → 55;
    # Bo: ace 4 → 42; Carl: ten 10 → 30. Counted out: ten (Carl 30), cards (none), ace: Bo 42 wins.
    (finished, winner), totals = count_out([39, 38, 20], hand([4, 4, 4], jack=0, ten=2, ace=1, king=0, queen=0), n=3)
    assert totals == (55, 42, 30) and finished and winner == 1


def test_count_out_the_king_before_the_queen():
    # Before 25–38. Anna: ten 10 + ace 4 + queen 2 + jack 11 = 27 → 52; Bo: king 3 → 41. Counted out: ten (Anna 35),
    # ace (Anna 39), king: Bo 41 wins; Anna's queen would have made 41 only after it.
    (finished, winner), totals = count_out([25, 38], hand([9, 9], jack=0, ten=0, ace=0, king=1, queen=0))
    assert totals == (52, 41) and finished and winner == 1


def test_count_out_the_queen_before_the_jack():
    # Before 39–20. Anna: queen 2 → 41; Bo: ten 10 + ace 4 + king 3 + jack 11 = 28 → 48. Counted out: ten (Bo 30),
    # ace (Bo 34), king (Bo 37), queen: Anna 41 wins; Bo's jack, counted last, comes too late.
    (finished, winner), totals = count_out([39, 20], hand([9, 9], jack=1, ten=1, ace=1, king=1, queen=0))
    assert totals == (41, 48) and finished and winner == 0


def test_card_points_taking_two_over_together_the_higher_wins():
    # Three alone, before 38–39–10. Tricks 5–5–2: card points 3·5 − 12 = 3, 3, 0. Carl: ten 10 + jack 11 → 31.
    # Anna: ace 4 + king 3 + queen 2 + 3 → 50; Bo: 3 → 42. Counted out: ten (Carl 20), cards: Anna 41 and Bo 42
    # together; the higher after them, Bo, wins — though Anna ends the deal at 50.
    (finished, winner), totals = count_out([38, 39, 10], hand([5, 5, 2], jack=2, ten=2, ace=0, king=0, queen=0), n=3)
    assert totals == (50, 42, 31) and finished and winner == 1


def test_card_points_taking_two_over_together_equal_is_a_draw():
    # As above from 38–38–10: after the cards Anna and Bo have 41 each: a draw, the game over.
    (finished, winner), totals = count_out([38, 38, 10], hand([5, 5, 2], jack=2, ten=2, ace=0, king=0, queen=0), n=3)
    assert totals == (50, 41, 31) and finished and winner is None


def test_count_out_without_card_points_goes_on_to_the_ace():
    # The cards case with card_points none: ten (Bo 40), no cards, ace: Anna 41 wins.
    (finished, winner), totals = count_out(
        [37, 30], hand([8, 10], jack=0, ten=1, ace=0, king=0, queen=0), card_points="none"
    )
    assert totals == (57, 40) and finished and winner == 0


def test_count_out_in_teams():
    # Four in two teams, before 36–32. Tricks 4–5: team 1 has 20 cards against 18 (+2). Team 0: ace 4 + jack 11
    # → 51; team 1: ten 10 + king 3 + queen 2 + 2 → 49. Counted out: ten (team 1 42): team 1 wins.
    (finished, winner), totals = count_out([36, 32], hand([4, 5], jack=0, ten=1, ace=0, king=1, queen=1), n=4, teams=2)
    assert totals == (51, 49) and finished and winner == 1


def test_only_one_side_over_wins_as_usual():
    (finished, winner), totals = count_out([30, 0], hand([10, 8]))
    assert totals == (62, 0) and finished and winner == 0


def test_count_out_through_the_replay():
    # Two alone. Hands 1 and 2: Anna jack 11 + king 3 + queen 2 = 16, Bo ten 10 + ace 4 = 14 → 32–28. Hand 3,
    # tricks 7–11 (Bo 22 cards, +4): Anna ace 4 + king 3 + queen 2 + jack 11 → 52; Bo ten 10 + 4 → 42. Counted
    # out: ten (Bo 38), cards (Bo 42): Bo wins with the lower total.
    level = hand([9, 9], jack=0, ten=1, ace=1, king=0, queen=0)
    p = play(game(2), [level, level, hand([7, 11], jack=0, ten=1, ace=0, king=0, queen=0)])
    assert [list(h.totals) for h in p.hands] == [[16, 14], [32, 28], [52, 42]]
    assert p.finished and p.winner == 1


def test_a_draw_through_the_replay():
    # Three alone to 33. Hand 1: Anna jack + ten + king 24, Bo ace + queen 6; hand 2 the other way: 30–30–0.
    # Hand 3, tricks 5–5–2 (card points 3, 3, 0): Carl jack + ten 21, Anna ace + king 7, Bo queen 2 → 40–35–21.
    # Counted out: ten (Carl 10), cards: Anna 33 and Bo 33 together, equal: a draw.
    s = game(3, target=33)
    p = play(
        s,
        [
            hand([4, 4, 4], jack=0, ten=0, ace=1, king=0, queen=1),
            hand([4, 4, 4], jack=1, ten=1, ace=0, king=1, queen=0),
            hand([5, 5, 2], jack=2, ten=2, ace=0, king=0, queen=1),
        ],
    )
    assert list(p.totals) == [40, 35, 21] and p.finished and p.winner is None
    with pytest.raises(GameOver):
        play(s, [*[h.input for h in p.hands], hand([4, 4, 4])])


# ------------------------------------------------------------------ bad hands


@pytest.mark.parametrize(
    "tricks",
    [None, [9], [3, 2, 4], [3, 2, 4, 0, 0], [3, 2, 4, 1], [3, 2, 5, -1], [9.0, 0, 0, 0], [True, 8, 0, 0], "3-2-4-0"],
)
def test_bad_tricks(tricks):
    refused(game(), [{"tricks": tricks, "honours": honours(0, 0, 0, 0, 0)}], "tricks")


@pytest.mark.parametrize(
    "given",
    [
        None,
        "jack",
        [0, 0, 0, 0, 0],
        {"jack": 0, "ten": 0, "ace": 0, "king": 0},  # the queen missing: all five are always in play
        {**honours(0, 0, 0, 0, 0), "nine": 0},
        honours(4, 0, 0, 0, 0),  # no side 4 at four
        honours(-1, 0, 0, 0, 0),
        honours(True, 0, 0, 0, 0),
        honours("0", 0, 0, 0, 0),
        honours(3, 0, 0, 0, 0),  # Dina took no trick
    ],
)
def test_bad_honours(given):
    refused(game(), [{"tricks": [3, 2, 4, 0], "honours": given}], "honours")


def test_an_honour_to_a_team_without_a_trick():
    refused(game(4, teams=2), [hand([9, 0], queen=1)], "honours")


def test_unknown_field_and_missing_honours():
    refused(game(), [{"tricks": [3, 2, 4, 0], "honours": honours(0, 0, 0, 0, 0), "trump": "hearts"}], "trump")
    refused(game(), [{"tricks": [3, 2, 4, 0]}], "honours")


def test_the_hand_is_stored_in_its_own_order():
    p = play(game(2), [{"honours": {"queen": 1, "king": 0, "ace": 1, "ten": 0, "jack": 1}, "tricks": [9, 9]}])
    assert list(p.hands[0].input["honours"]) == ["jack", "ten", "ace", "king", "queen"]


@pytest.mark.parametrize("dealer", [0, 3])
def test_the_dealers_left_leads(dealer):
    p = play(game(5, dealer=dealer, target=500), [hand([3, 1, 1, 2, 0])] * 6)
    assert [h.leader for h in p.hands] == [(dealer + i + 1) % 5 for i in range(6)]


# ------------------------------------------------------------------ properties


@st.composite
def deals(draw, card_points="excess"):
    n = draw(st.integers(2, 8))
    fits = [k for k in range(2, n // 2 + 1) if n % k == 0]
    k = draw(st.sampled_from([None, *fits]))
    setup = game(n, card_points=card_points, teams=k, target=500)
    sides = k or n
    T = scotch.TRICKS[n]
    cuts = sorted(draw(st.lists(st.integers(0, T), min_size=sides - 1, max_size=sides - 1)))
    tricks = [b - a for a, b in zip([0, *cuts], [*cuts, T])]
    took = [s for s in range(sides) if tricks[s]]
    honour_sides = {name: draw(st.sampled_from(took)) for name in scotch.HONOURS}
    return setup, {"tricks": tricks, "honours": honour_sides}


@settings(max_examples=examples(400), deadline=None)
@given(deals())
def test_card_points_and_the_cards_dealt_add_up_to_the_deck(deal):
    """Each side's card points plus the cards it was dealt and took back (all it took, at most its share) add up,
    over the sides, to the deck: the cards beyond a side's share are the cards short of the others' shares."""
    setup, inp = deal
    n = setup.n
    p = play(setup, [inp])
    sides, T = p.sides, p.hands[0].cards
    cp = scotch.card_points(inp["tricks"], sides, n, T)
    honour_points = [
        sum(DEFAULT_VALUES[h] for h, s in inp["honours"].items() if s == side) for side in range(len(sides))
    ]
    assert [h + c for h, c in zip(honour_points, cp)] == list(p.hands[0].points)
    taken = [n * t for t in inp["tricks"]]
    dealt = [len(side) * T for side in sides]
    assert sum(taken) == sum(dealt) == scotch.deck(n)
    assert sum(c + min(t, d) for c, t, d in zip(cp, taken, dealt)) == scotch.deck(n)
    assert sum(cp) == sum(max(0, d - t) for t, d in zip(taken, dealt))


@settings(max_examples=examples(200), deadline=None)
@given(deals(card_points="none"))
def test_the_honours_sum_to_thirty(deal):
    setup, inp = deal
    assert sum(play(setup, [inp]).hands[0].points) == 30


@settings(max_examples=examples(400), deadline=None)
@given(st.data())
def test_the_winner_under_count_out_reached_the_target(data):
    setup, inp = data.draw(deals())
    width = len(play(setup, []).sides)
    target = data.draw(st.integers(1, 60))
    before = tuple(data.draw(st.lists(st.integers(0, target - 1), min_size=width, max_size=width)))
    s = make_setup("scotch", list(setup.players), 0, {**setup.options, "target": target})
    from scorekeeper.core import hand_context, table_context
    from scorekeeper.core.game import ScoredHand

    rules = VARIANTS["scotch"]
    ctx = hand_context(rules, table_context(s), 1, before)
    pts = rules.hand_points(inp, ctx)
    totals = tuple(b + x for b, x in zip(before, pts))
    finished, winner = rules.game_end(ScoredHand(1, 0, inp, pts, totals, 1, cards=ctx.cards), ctx)
    reached = [side for side, t in enumerate(totals) if t >= target]
    assert finished == bool(reached)
    if winner is not None:
        assert winner in reached
    if len(reached) == 1:
        assert winner == reached[0]


@settings(max_examples=examples(100), deadline=None)
@given(st.data())
def test_games_in_teams_are_the_sum_of_their_hands_and_replay_as_entered(data):
    """The shared property tests play each alone (their option sets fit every table size); teams here."""
    from scorekeeper.core import play_on
    from strategies import until_end
    from variants import hands

    n = data.draw(st.sampled_from([4, 6, 8]))
    k = data.draw(st.sampled_from(scotch.fitting_teams(n)))
    setup = game(n, dealer=data.draw(st.integers(0, n - 1)), teams=k, target=data.draw(st.sampled_from([41, 100])))
    inputs = until_end(setup, [data.draw(hands(setup, i)) for i in range(data.draw(st.integers(0, 12)))])
    p = play(setup, inputs)
    assert list(p.totals) == [sum(h.points[s] for h in p.hands) for s in range(k)]
    cut = data.draw(st.integers(0, len(inputs)))
    assert play_on(play(setup, inputs[:cut]), inputs[cut:]) == p
    if p.finished and p.winner is not None:
        assert p.totals[p.winner] >= setup.options["target"]
