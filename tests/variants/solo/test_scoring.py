"""Solo whist scoring, as RULES.md "solo" states it: the seven contracts and their units, over- and undertricks,
prop and cop, Foster's worked example, leads, `deals`, passed out, and every refusal naming its field."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import examples, points, refused
from scorekeeper.core import VARIANTS, InputError, make_setup, play, settle, settlement_points
from scorekeeper.variants.solo import rules as solo
from strategies import games
from variants.solo import FOSTER

PLAYERS = ["Anna", "Bo", "Carl", "Dina"]
# RULES.md's table: each contract, the tricks that make it, its units.
TABLE = [
    ("prop", 8, 1),
    ("solo", 5, 1),
    ("misere", 0, 2),
    ("abundance", 9, 3),
    ("royal_abundance", 9, 3),
    ("misere_ouverte", 0, 4),
    ("abundance_declared", 13, 6),
]


def game(dealer=0, **options):
    return make_setup("solo", PLAYERS, dealer, options)


def alone(bid, bidder, tricks):
    return {"bid": bid, "bidder": bidder, "tricks": tricks}


def prop(bidder, partner, tricks):
    return {"bid": "prop", "bidder": bidder, "partner": partner, "tricks": tricks}


def made_with(bid, tricks):
    need = solo.NEEDS[bid]
    return tricks == 0 if bid in ("misere", "misere_ouverte") else tricks >= need


# ------------------------------------------------------------------ Foster's worked example


def test_foster_a_solo_made_with_seven_tricks_two_red_and_two_white_from_each():
    # "each opponent pays two red and two white": P = 10 + 2 = 12
    assert points(play(game(**FOSTER), [alone("solo", 1, 7)])) == [[-12, 36, -12, -12]]


def test_foster_a_solo_lost_with_four_tricks_pays_each_ten_and_one():
    # lost with four tricks, the bidder pays each 10 + 1 = 11
    assert points(play(game(**FOSTER), [alone("solo", 1, 4)])) == [[11, -33, 11, 11]]


def test_foster_the_partners_each_receive_from_one_opponent():
    # "each of the partners pays one of his adversaries": prop made with 10, 5 + 2 each way
    assert points(play(game(**FOSTER), [prop(0, 2, 10)])) == [[7, -7, 7, -7]]
    # lost with 6: 5 + 2 each way the other way
    assert points(play(game(**FOSTER), [prop(3, 1, 6)])) == [[7, -7, 7, -7]]


# ------------------------------------------------------------------ the table of units


@pytest.mark.parametrize("bid, need, units", TABLE)
@pytest.mark.parametrize("bidder", range(4))
@pytest.mark.parametrize("tricks", range(14))
def test_the_table_of_units_without_overtricks(bid, need, units, bidder, tricks):
    inp = prop(bidder, (bidder + 2) % 4, tricks) if bid == "prop" else alone(bid, bidder, tricks)
    p = play(game(), [inp]).hands[0].points
    sign = 1 if made_with(bid, tricks) else -1
    if bid == "prop":
        team = {bidder, (bidder + 2) % 4}
        assert list(p) == [sign * units if s in team else -sign * units for s in range(4)]
    else:
        assert list(p) == [3 * sign * units if s == bidder else -sign * units for s in range(4)]


@pytest.mark.parametrize("bid, need, units", TABLE)
def test_made_exactly_at_the_target_and_lost_one_short(bid, need, units):
    if need == 0:  # the misères: made with none, lost with one
        assert points(play(game(), [alone(bid, 0, 0)])) == [[3 * units, -units, -units, -units]]
        assert points(play(game(), [alone(bid, 0, 1)])) == [[-3 * units, units, units, units]]
    elif bid != "prop":
        assert points(play(game(), [alone(bid, 0, need)])) == [[3 * units, -units, -units, -units]]
        assert points(play(game(), [alone(bid, 0, need - 1)])) == [[-3 * units, units, units, units]]


def test_the_ladder_is_the_rules_order():
    assert tuple(b for b, _need, _units in TABLE) == solo.BIDS


# ------------------------------------------------------------------ over- and undertricks


@pytest.mark.parametrize("bid", ["prop", "solo", "abundance", "royal_abundance"])
@pytest.mark.parametrize("over", [1, 3])
def test_over_and_undertricks_count_in_prop_solo_and_the_abundances(bid, over):
    need = solo.NEEDS[bid]
    units = solo.DEFAULT_VALUES[bid]
    make = (lambda t: prop(0, 2, t)) if bid == "prop" else (lambda t: alone(bid, 0, t))
    each = 1 if bid == "prop" else 3
    for tricks in range(14):
        pay = units + over * abs(tricks - need)
        sign = 1 if tricks >= need else -1
        assert play(game(overtricks=over), [make(tricks)]).hands[0].points[0] == sign * each * pay


@pytest.mark.parametrize("bid", ["misere", "misere_ouverte", "abundance_declared"])
@pytest.mark.parametrize("tricks", [0, 1, 5, 12, 13])
def test_no_over_or_undertricks_in_the_miseres_and_abundance_declared(bid, tricks):
    assert (
        play(game(overtricks=5), [alone(bid, 2, tricks)]).hands[0].points
        == play(game(), [alone(bid, 2, tricks)]).hands[0].points
    )


# ------------------------------------------------------------------ values


def test_values_left_out_keep_their_defaults_and_the_options_list_all_seven():
    options = game(values={"solo": 7, "misere": 9}).options
    assert options["values"] == {
        "prop": 1,
        "solo": 7,
        "misere": 9,
        "abundance": 3,
        "royal_abundance": 3,
        "misere_ouverte": 4,
        "abundance_declared": 6,
    }
    assert list(options["values"]) == list(solo.BIDS)


def test_the_default_options():
    o = game().options
    assert o["values"] == dict(zip(solo.BIDS, [1, 1, 2, 3, 3, 4, 6]))
    assert o["overtricks"] == 0 and o["deals"] is None and o["rate"] is None


@pytest.mark.parametrize(
    "values",
    [{"sol": 5}, {"solo": 0}, {"solo": 1001}, {"solo": 2.5}, {"solo": True}, {"solo": "5"}, [1, 1, 2, 3, 3, 4, 6], 5],
)
def test_bad_values_are_refused_naming_the_option(values):
    with pytest.raises(InputError) as exc:
        game(values=values)
    assert "options.values" in exc.value.errors


@pytest.mark.parametrize(
    "options, field",
    [
        ({"overtricks": -1}, "options.overtricks"),
        ({"overtricks": 101}, "options.overtricks"),
        ({"deals": 0}, "options.deals"),
        ({"deals": 201}, "options.deals"),
        ({"rate": -1}, "options.rate"),
        ({"target": 7}, "options.target"),
    ],
)
def test_bad_options(options, field):
    with pytest.raises(InputError) as exc:
        game(**options)
    assert field in exc.value.errors


@pytest.mark.parametrize("players", [PLAYERS[:3], PLAYERS + ["Erik"]])
def test_four_players_only(players):
    with pytest.raises(InputError) as exc:
        make_setup("solo", players)
    assert "players" in exc.value.errors


# ------------------------------------------------------------------ leads, passed out, game end


@pytest.mark.parametrize("dealer", range(4))
def test_the_dealers_left_leads_and_the_bidder_leads_an_abundance_declared(dealer):
    hands = [alone("solo", 2, 6), prop(1, 3, 8), {"passed": True}, alone("abundance_declared", 3, 13)]
    p = play(game(dealer=dealer), hands)
    assert [h.dealer for h in p.hands] == [(dealer + i) % 4 for i in range(4)]
    assert [h.leader for h in p.hands] == [(dealer + 1) % 4, (dealer + 2) % 4, (dealer + 3) % 4, 3]


def test_passed_out_scores_nothing_and_the_deal_passes_on():
    p = play(game(), [{"passed": True}, {"passed": True}])
    assert points(p) == [[0, 0, 0, 0]] * 2 and p.next_dealer == 2 and not p.finished


def test_no_game_end_by_default():
    assert not play(game(), [alone("abundance_declared", 0, 13)] * 30).finished


def test_deals_ends_the_game_passed_out_deals_counted_highest_total_wins():
    s = game(deals=3)
    p = play(s, [alone("solo", 1, 6), {"passed": True}])
    assert not p.finished and p.deals_left == 1
    p = play(s, [alone("solo", 1, 6), {"passed": True}, prop(0, 2, 8)])
    assert p.finished and list(p.totals) == [0, 2, 0, -2] and p.winner == 1
    refused(s, [{"passed": True}] * 4, "hand")


def test_deals_equal_highest_is_a_draw():
    p = play(game(deals=2), [alone("solo", 1, 6), alone("solo", 2, 6)])
    assert list(p.totals) == [-2, 2, 2, -2] and p.finished and p.winner is None


def test_sides_each_alone_zero_sum_and_for_money():
    rules = VARIANTS["solo"]
    assert [list(s) for s in play(game(), []).sides] == [[0], [1], [2], [3]]
    assert rules.ZERO_SUM and rules.FOR_MONEY


def test_the_settlement_with_a_rate():
    p = play(game(rate=0.5, **FOSTER), [alone("solo", 1, 7), prop(0, 2, 8)])
    assert list(p.totals) == [-7, 31, -7, -17]
    s = settle(settlement_points(p), 0.5)
    assert list(s.balances) == [-350, 1550, -350, -850] and sum(s.balances) == 0 and len(s.payments) <= 3


# ------------------------------------------------------------------ refused, naming the field


@pytest.mark.parametrize("bid", ["sol", "grand", 5, None, "", "Solo", ["solo"]])
def test_a_bid_not_in_the_table(bid):
    refused(game(), [{"bid": bid, "bidder": 0, "tricks": 6}], "bid")


def test_prop_without_a_partner():
    refused(game(), [alone("prop", 0, 8)], "partner")


def test_prop_with_the_bidder_as_its_own_partner():
    refused(game(), [prop(2, 2, 8)], "partner")


@pytest.mark.parametrize(
    "bid", ["solo", "misere", "abundance", "royal_abundance", "misere_ouverte", "abundance_declared"]
)
def test_a_partner_for_any_other_bid(bid):
    refused(game(), [{**alone(bid, 0, 5), "partner": 2}], "partner")


@pytest.mark.parametrize("value", [4, -1, 1.0, True, "1", None])
def test_a_bidder_outside_the_table(value):
    refused(game(), [alone("solo", value, 5)], "bidder")


@pytest.mark.parametrize("value", [4, -1, 2.0, True, "3"])
def test_a_partner_outside_the_table(value):
    refused(game(), [prop(0, value, 8)], "partner")


@pytest.mark.parametrize("tricks", [14, -1, 6.5, True, "6", None, [6, 7]])
def test_tricks_outside_0_to_13(tricks):
    refused(game(), [alone("solo", 0, tricks)], "tricks")


def test_a_passed_out_deal_has_nothing_else():
    refused(game(), [{"passed": True, "bid": "solo"}], "bid")
    refused(game(), [{"passed": "yes"}], "passed")


def test_an_unknown_field():
    refused(game(), [{**alone("solo", 0, 5), "trump": "hearts"}], "trump")


# ------------------------------------------------------------------ properties


@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_every_hand_adds_up_to_zero(data):
    setup, inputs = data.draw(games("solo", max_hands=20))
    p = play(setup, inputs)
    for h in p.hands:
        assert sum(h.points) == 0 and sum(h.totals) == 0
    assert sum(p.totals) == 0


@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_the_bidders_side_wins_what_the_others_lose_exactly_when_made(data):
    setup, inputs = data.draw(games("solo", max_hands=8))
    for h in play(setup, inputs).hands:
        inp = h.input
        if inp.get("passed"):
            assert set(h.points) == {0}
            continue
        team = {inp["bidder"], inp.get("partner", inp["bidder"])}
        gain = sum(h.points[s] for s in team)
        assert (gain > 0) == solo.made(inp) and gain != 0
