"""Danish es-makker whist scoring, as RULES.md states it (seed 002)."""

import pytest

from helpers import points, refused
from scorekeeper.core import GameOver, InputError, make_setup, play
from scorekeeper.variants.danish import rules as danish

PLAYERS = ["Anna", "Bo", "Carl", "Dina"]
FIVE = PLAYERS + ["Erik"]
TARIFF = {7: 10, 8: 20, 9: 40, 10: 80, 11: 160, 12: 320, 13: 640}
SOLO = {"sol": (50, 1), "ren_sol": (100, 0), "bordlaegger": (150, 1), "ren_bordlaegger": (200, 0)}
SUFFIX_TRUMP = {"plain": "spades", "vip": "hearts", "gode": "clubs", "sans": "none", "halve": "diamonds"}


def game(players=PLAYERS, dealer=0, **options):
    return make_setup("danish", players, dealer, options)


def bid(bidder, n, tricks, partner, suffix="plain", trump=None):
    return {
        "bidder": bidder,
        "bid": n,
        "suffix": suffix,
        "trump": SUFFIX_TRUMP[suffix] if trump is None else trump,
        "partner": partner,
        "tricks": tricks,
    }


def sol(bidder, name, tricks):
    return {"bidder": bidder, "bid": name, "tricks": tricks}


PASSED = {"passed": True}


def one(inp, **kw):
    return list(play(game(**kw), [inp]).hands[0].points)


# ------------------------------------------------------------------ seed examples


def test_seed_bid_8_with_10_tricks_is_60():
    # "Melder man 8 og tager 10 stik, giver det 20 + 2 × 20 = 60 point."
    assert one(bid(0, 8, 10, 2)) == [60, -60, 60, -60]


def test_seed_bid_8_sans_with_10_tricks_is_120():
    # "Et påhæng (vip, gode, sans, halve) fordobler pointene."
    assert one(bid(0, 8, 10, 2, "sans")) == [120, -120, 120, -120]


def test_seed_bidder_and_partner_need_not_sit_opposite():
    assert one(bid(1, 8, 10, 2)) == [-60, 60, 60, -60]


def test_seed_sol_values():
    # "Sol giver 50, ren sol 100, bordlægger 150 og ren bordlægger 200 point fra hver af de tre andre."
    assert one(sol(0, "sol", 1)) == [150, -50, -50, -50]
    assert one(sol(1, "ren_sol", 0)) == [-100, 300, -100, -100]
    assert one(sol(2, "bordlaegger", 0)) == [-150, -150, 450, -150]
    assert one(sol(3, "ren_bordlaegger", 0)) == [-200, -200, -200, 600]


def test_seed_sol_lost_pays_double_to_each():
    # "Taber melderen, betaler han den dobbelte takst til hver."
    assert one(sol(0, "sol", 2)) == [-300, 100, 100, 100]


def test_seed_selvmakker_gets_three_times():
    # "Hver af de tre modspillere betaler det normale beløb til melderen, så melderen får tre gange så meget"
    assert one(bid(0, 8, 10, 0)) == [180, -60, -60, -60]


def test_seed_lost_bid_pays_double_tariff():
    # "Går meldingen ikke hjem, betaler melderens side den dobbelte takst."
    assert one(bid(0, 8, 7, 2)) == [-40, 40, -40, 40]


SEED_LADDER = (
    "7 < 7 vip < 7 gode < 7 sans < 7 halve < 8 < 8 vip < 8 gode < 8 sans < 8 halve < 9 < Sol < 9 vip "
    "< 9 gode < 9 sans < 9 halve < 10 < Ren sol < 10 vip < 10 gode < 10 sans < 10 halve < 11 < Bordlægger "
    "< 11 vip < 11 gode < 11 sans < 11 halve < 12 < Ren bordlægger < 12 vip < 12 gode < 12 sans < 12 halve "
    "< 13 < 13 vip < 13 gode < 13 sans < 13 halve"
)
SOLO_WORDS = {"Sol": "sol", "Ren sol": "ren_sol", "Bordlægger": "bordlaegger", "Ren bordlægger": "ren_bordlaegger"}


def parse_seed_ladder():
    out = []
    for item in SEED_LADDER.split(" < "):
        if item in SOLO_WORDS:
            out.append((SOLO_WORDS[item], None))
        else:
            parts = item.split()
            out.append((int(parts[0]), parts[1] if len(parts) > 1 else "plain"))
    return out


def test_seed_bid_ladder_order():
    expected = parse_seed_ladder()
    assert len(expected) == 7 * 5 + 4
    assert [tuple(b) for b in danish.ladder()] == expected


# ------------------------------------------------------------------ tariff


@pytest.mark.parametrize("n, t", [(n, t) for n in range(7, 14) for t in range(n, 14)])
def test_made_bid_value_is_tariff_times_one_plus_overtricks(n, t):
    v = TARIFF[n] * (1 + t - n)
    assert one(bid(0, n, t, 2)) == [v, -v, v, -v]


@pytest.mark.parametrize("n, t", [(n, t) for n in range(7, 14) for t in range(0, n)])
def test_lost_bid_flat_is_twice_the_tariff(n, t):
    v = 2 * TARIFF[n]
    assert one(bid(0, n, t, 2)) == [-v, v, -v, v]


@pytest.mark.parametrize("n, t", [(n, t) for n in range(7, 14) for t in range(0, n)])
def test_lost_bid_per_trick(n, t):
    v = 2 * TARIFF[n] * (n - t)
    assert one(bid(0, n, t, 2), lost="per_trick") == [-v, v, -v, v]


def test_per_trick_does_not_change_a_made_bid():
    assert one(bid(0, 8, 10, 2), lost="per_trick") == [60, -60, 60, -60]


def test_lost_default_is_flat():
    assert game().options["lost"] == "flat"
    assert list(game().options["tariff"]) == [10, 20, 40, 80, 160, 320, 640]


@pytest.mark.parametrize("suffix", ["vip", "gode", "sans", "halve"])
@pytest.mark.parametrize("n, t, base", [(8, 10, 60), (7, 7, 10), (9, 8, -80), (13, 13, 640), (10, 3, -160)])
def test_every_suffix_doubles_won_or_lost(suffix, n, t, base):
    v = 2 * base
    assert one(bid(3, n, t, 1, suffix)) == [-v, v, -v, v]


@pytest.mark.parametrize("suffix", ["vip", "gode", "sans", "halve"])
def test_suffix_doubles_per_trick_loss(suffix):
    v = 2 * (2 * 40 * 3)  # 9 bid, 6 tricks
    assert one(bid(0, 9, 6, 2, suffix), lost="per_trick") == [-v, v, -v, v]


def test_vip_with_a_joker_is_played_without_trump():
    assert one(bid(0, 8, 10, 2, "vip", "none")) == [120, -120, 120, -120]


@pytest.mark.parametrize("trump", ["hearts", "diamonds", "clubs", "spades"])
def test_plain_halve_and_vip_take_any_suit(trump):
    for suffix in ("plain", "halve", "vip"):
        assert one(bid(0, 7, 7, 2, suffix, trump))[0] == (10 if suffix == "plain" else 20)


def test_suffix_defaults_to_plain():
    inp = {"bidder": 0, "bid": 8, "trump": "hearts", "partner": 2, "tricks": 10}
    assert one(inp) == [60, -60, 60, -60]


# ------------------------------------------------------------------ selvmakker


@pytest.mark.parametrize("bidder", range(4))
@pytest.mark.parametrize(
    "n, t, suffix, v",
    [
        (8, 10, "plain", 60),
        (9, 9, "plain", 40),
        (9, 8, "plain", -80),
        (8, 10, "gode", 120),
        (7, 0, "sans", -40),
    ],
)
def test_selvmakker_three_times_from_and_to_each_opponent(bidder, n, t, suffix, v):
    pts = one(bid(bidder, n, t, bidder, suffix))
    assert pts[bidder] == 3 * v
    assert [x for s, x in enumerate(pts) if s != bidder] == [-v] * 3


def test_selvmakker_lost_per_trick():
    v = 2 * 40 * 2  # bid 9, 7 tricks
    assert one(bid(2, 9, 7, 2), lost="per_trick") == [v, v, -3 * v, v]


# ------------------------------------------------------------------ sol bids


@pytest.mark.parametrize("name", list(SOLO))
@pytest.mark.parametrize("bidder", range(4))
def test_sol_bids_made(name, bidder):
    v, most = SOLO[name]
    for t in range(0, most + 1):
        pts = one(sol(bidder, name, t))
        assert pts[bidder] == 3 * v
        assert [x for s, x in enumerate(pts) if s != bidder] == [-v] * 3


@pytest.mark.parametrize("name", list(SOLO))
@pytest.mark.parametrize("bidder", range(4))
def test_sol_bids_lost(name, bidder):
    v, most = SOLO[name]
    for t in range(most + 1, 14):
        pts = one(sol(bidder, name, t))
        assert pts[bidder] == -6 * v
        assert [x for s, x in enumerate(pts) if s != bidder] == [2 * v] * 3


def test_sol_with_trump_none_is_accepted():
    assert one({"bidder": 0, "bid": "sol", "trump": "none", "tricks": 0}) == [150, -50, -50, -50]


def test_sol_bids_are_not_doubled_by_lost_per_trick():
    assert one(sol(0, "ren_sol", 3), lost="per_trick") == [-600, 200, 200, 200]


def test_custom_solo_values():
    values = {"sol": 50, "ren_sol": 100, "bordlaegger": 200, "ren_bordlaegger": 400}
    assert one(sol(0, "bordlaegger", 1), solo_values=values) == [600, -200, -200, -200]
    assert one(sol(0, "ren_bordlaegger", 1), solo_values=values) == [-2400, 800, 800, 800]


def test_custom_solo_values_partial_keeps_the_defaults():
    s = game(solo_values={"sol": 60})
    p = play(s, [sol(0, "sol", 0), sol(1, "ren_sol", 0)])
    assert points(p) == [[180, -60, -60, -60], [-100, 300, -100, -100]]


def test_default_solo_values():
    assert dict(game().options["solo_values"]) == {
        "sol": 50,
        "ren_sol": 100,
        "bordlaegger": 150,
        "ren_bordlaegger": 200,
    }


# ------------------------------------------------------------------ custom tariff


def test_custom_tariff():
    tariff = [1, 2, 3, 4, 5, 6, 7]
    assert one(bid(0, 7, 9, 2), tariff=tariff) == [3, -3, 3, -3]
    assert one(bid(0, 10, 10, 2, "halve"), tariff=tariff) == [8, -8, 8, -8]
    assert one(bid(0, 13, 12, 2), tariff=tariff) == [-14, 14, -14, 14]
    assert one(bid(0, 13, 10, 2), tariff=tariff, lost="per_trick") == [-42, 42, -42, 42]


def test_custom_tariff_selvmakker():
    assert one(bid(1, 8, 8, 1), tariff=[5, 15, 25, 35, 45, 55, 65]) == [-15, 45, -15, -15]


# ------------------------------------------------------------------ passed out, deals, dealer


def test_passed_out_scores_zero_and_passes_the_deal():
    s = game(dealer=1)
    p = play(s, [PASSED])
    assert points(p) == [[0, 0, 0, 0]] and list(p.totals) == [0, 0, 0, 0]
    assert p.next_dealer == 2
    p = play(s, [bid(0, 8, 10, 2), PASSED, PASSED, bid(1, 7, 7, 3)])
    assert points(p) == [[60, -60, 60, -60], [0] * 4, [0] * 4, [-10, 10, -10, 10]]
    assert [h.dealer for h in p.hands] == [1, 2, 3, 0]
    assert p.next_dealer == 1
    assert list(p.totals) == [50, -50, 50, -50]


@pytest.mark.parametrize("dealer", range(4))
def test_dealer_rotation_and_forehand_leads(dealer):
    p = play(game(dealer=dealer), [PASSED] * 6)
    assert [h.dealer for h in p.hands] == [(dealer + i) % 4 for i in range(6)]
    assert [h.leader for h in p.hands] == [(dealer + i + 1) % 4 for i in range(6)]
    assert p.next_dealer == (dealer + 6) % 4


def test_no_end_by_default():
    p = play(game(), [bid(0, 13, 13, 2)] * 30)
    assert not p.finished and p.winner is None and p.deals_left is None


def test_deals_option_ends_the_game():
    s = game(deals=4)
    inputs = [bid(0, 8, 10, 2), PASSED, bid(1, 7, 7, 1), PASSED]
    for k in range(4):
        p = play(s, inputs[:k])
        assert not p.finished and p.deals_left == 4 - k
    p = play(s, inputs)
    assert p.finished and p.deals_left == 0
    assert list(p.totals) == [60 - 10, -60 + 30, 60 - 10, -60 - 10]
    assert p.winner in (0, 2, None)  # seats 0 and 2 are level on 50: no single winner
    with pytest.raises(GameOver) as exc:
        play(s, inputs + [PASSED])
    assert exc.value.number == 5


def test_deals_option_single_winner():
    p = play(game(deals=2), [bid(1, 7, 7, 1), PASSED])
    assert p.finished and p.winner == 1


def test_zero_sum_hands_and_totals():
    p = play(
        game(), [bid(0, 8, 10, 2), bid(1, 9, 3, 1, "gode"), sol(2, "ren_sol", 1), PASSED, bid(3, 12, 12, 0, "halve")]
    )
    for h in p.hands:
        assert sum(h.points) == 0 and sum(h.totals) == 0
    assert sum(p.totals) == 0


def test_sides_are_one_seat_each():
    assert [list(s) for s in play(game(), []).sides] == [[0], [1], [2], [3]]
    assert [list(s) for s in play(game(FIVE), []).sides] == [[0], [1], [2], [3], [4]]


# ------------------------------------------------------------------ five players


def test_five_dealer_sits_out_with_zero():
    p = play(game(FIVE, dealer=0), [bid(1, 7, 7, 3)])
    h = p.hands[0]
    assert list(h.points) == [0, 10, -10, 10, -10]
    assert h.sitting_out == 0


def test_five_selvmakker_and_sol_against_the_three_playing():
    p = play(game(FIVE, dealer=2), [bid(1, 8, 10, 1), sol(4, "sol", 0)])
    assert points(p) == [[-60, 180, 0, -60, -60], [-50, -50, -50, 0, 150]]


def test_five_everyone_sits_out_in_turn():
    s = game(FIVE, dealer=3)
    inputs = []
    for i in range(10):
        dealer = (3 + i) % 5
        b = (dealer + 1) % 5
        inputs.append(bid(b, 7, 8, (dealer + 3) % 5))
    p = play(s, inputs)
    assert [h.sitting_out for h in p.hands] == [(3 + i) % 5 for i in range(10)]
    assert [h.dealer for h in p.hands] == [(3 + i) % 5 for i in range(10)]
    for h in p.hands:
        assert h.points[h.sitting_out] == 0
        assert sum(h.points) == 0
        assert sorted(h.points) == [-20, -20, 0, 20, 20]
    assert p.next_dealer == (3 + 10) % 5
    assert sum(p.totals) == 0


def test_five_passed_out_deal_passes():
    p = play(game(FIVE, dealer=4), [PASSED, PASSED])
    assert [h.sitting_out for h in p.hands] == [4, 0]
    assert p.next_dealer == 1 and list(p.totals) == [0] * 5


def test_five_dealer_may_not_bid():
    e = refused(game(FIVE, dealer=2), [bid(2, 8, 10, 0)], "bidder")
    assert e.number == 1
    refused(game(FIVE, dealer=2), [sol(2, "sol", 0)], "bidder")
    refused(game(FIVE), [PASSED, bid(1, 8, 10, 3)], "bidder")


def test_five_dealer_may_not_be_partner():
    refused(game(FIVE, dealer=2), [bid(0, 8, 10, 2)], "partner")


def test_five_bidder_seat_4_exists():
    assert one(bid(4, 7, 7, 4), players=FIVE) == [0, -10, -10, -10, 30]


def test_four_players_have_no_one_sitting_out():
    p = play(game(), [bid(0, 7, 7, 2)])
    assert p.hands[0].sitting_out is None


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize("trump", ["hearts", "diamonds", "spades", "none"])
def test_gode_with_another_trump_than_clubs(trump):
    refused(game(), [bid(0, 8, 8, 2, "gode", trump)], "trump")


def test_gode_without_a_trump_is_clubs():
    assert one({"bidder": 0, "bid": 8, "suffix": "gode", "partner": 2, "tricks": 8}) == [40, -40, 40, -40]


@pytest.mark.parametrize("trump", ["hearts", "diamonds", "clubs", "spades"])
def test_sans_with_a_suit(trump):
    refused(game(), [bid(0, 8, 8, 2, "sans", trump)], "trump")


@pytest.mark.parametrize("suffix", ["plain", "halve"])
def test_plain_and_halve_need_a_suit(suffix):
    refused(game(), [bid(0, 8, 8, 2, suffix, "none")], "trump")
    inp = bid(0, 8, 8, 2, suffix)
    del inp["trump"]
    refused(game(), [inp], "trump")


@pytest.mark.parametrize("name", list(SOLO))
def test_partner_in_a_sol_bid(name):
    refused(game(), [{"bidder": 0, "bid": name, "partner": 2, "tricks": 0}], "partner")


@pytest.mark.parametrize("name", list(SOLO))
def test_trump_in_a_sol_bid(name):
    refused(game(), [{"bidder": 0, "bid": name, "trump": "hearts", "tricks": 0}], "trump")


def test_suffix_in_a_sol_bid():
    refused(game(), [{"bidder": 0, "bid": "sol", "suffix": "vip", "tricks": 0}], "suffix")


@pytest.mark.parametrize("value", [6, 14, 0, "8", "solo", True, 8.0, None])
def test_bad_bid(value):
    refused(
        game(), [{"bidder": 0, "bid": value, "suffix": "plain", "trump": "hearts", "partner": 2, "tricks": 8}], "bid"
    )


@pytest.mark.parametrize("value", [14, -1, "8", True, 8.5, None])
def test_bad_tricks(value):
    refused(game(), [bid(0, 8, value, 2)], "tricks")
    refused(game(), [sol(0, "sol", value)], "tricks")


@pytest.mark.parametrize("value", [4, -1, "0", True, None])
def test_bad_bidder(value):
    refused(game(), [bid(value, 8, 8, 2)], "bidder")


@pytest.mark.parametrize("value", [4, -1, "2", False, None])
def test_bad_or_missing_partner(value):
    refused(game(), [bid(0, 8, 8, value)], "partner")


@pytest.mark.parametrize("value", ["double", "Vip", 1])
def test_bad_suffix(value):
    refused(game(), [bid(0, 8, 8, 2, "plain") | {"suffix": value}], "suffix")


def test_bad_trump():
    refused(game(), [bid(0, 8, 8, 2, "plain", "joker")], "trump")


def test_passed_out_with_a_bid_is_refused():
    with pytest.raises(InputError) as exc:
        play(game(), [{"passed": True, "bid": 8}])
    assert "bid" in exc.value.errors


def test_passed_must_be_a_bool():
    refused(game(), [{"passed": "yes"}], "passed")


def test_unknown_field():
    refused(game(), [bid(0, 8, 8, 2) | {"honours": [4, 0]}], "honours")


@pytest.mark.parametrize(
    "options, field",
    [
        ({"target": 13}, "options.target"),
        ({"tariff": [10, 20, 40]}, "options.tariff"),
        ({"tariff": [10, 20, 40, 80, 160, 320, "640"]}, "options.tariff"),
        ({"tariff": [10, 20, 40, 80, 160, 320, -640]}, "options.tariff"),
        ({"tariff": "standard"}, "options.tariff"),
        ({"lost": "double"}, "options.lost"),
        ({"solo_values": {"sol": 50, "grand": 10}}, "options.solo_values"),
        ({"solo_values": {"sol": -50}}, "options.solo_values"),
        ({"solo_values": {"sol": True}}, "options.solo_values"),
        ({"solo_values": [50, 100, 150, 200]}, "options.solo_values"),
        ({"deals": 0}, "options.deals"),
        ({"deals": "8"}, "options.deals"),
        ({"rate": -0.05}, "options.rate"),
        ({"rate": "five"}, "options.rate"),
        ({"rate": True}, "options.rate"),
    ],
)
def test_bad_options(options, field):
    with pytest.raises(InputError) as exc:
        make_setup("danish", PLAYERS, 0, options)
    assert field in exc.value.errors, exc.value.errors


def test_rate_option_default():
    assert game().options["rate"] == 0.05


def test_hand_after_the_game_ended():
    with pytest.raises(GameOver):
        play(game(deals=1), [PASSED, PASSED])


def test_wrong_player_counts():
    for names in (PLAYERS[:3], FIVE + ["Fia"]):
        with pytest.raises(InputError) as exc:
            make_setup("danish", names)
        assert "players" in exc.value.errors
