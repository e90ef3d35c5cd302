"""A sol bid's own gå med rule (RULES.md "Gå med", `options.house.sol.<bid>.gaa_med`, issue 44): a card that settles
a sol with everyone but a ren sol only with those not playing along; left out, the bid follows the house's `gaa_med`;
null, the bid is never played along. Each worked example of RULES.md that involves gå med is a test here."""

import pytest

from scorekeeper.core import InputError, make_setup, play
from scorekeeper.variants.danish import house as model
from scorekeeper.variants.danish import rules as danish
from variants.danish import QUARTER_CARD, QUARTER_HANDS, QUARTER_PLAYERS

PLAYERS = ["Anna", "Bo", "Carl", "Dina"]

# The club: sol 2 settles with everyone when two play it; ren sol 5, bordlægger 4 and ren bordlægger 5 only
# with those not playing along.
CLUB_SOL = {
    "sol": {"max_tricks": 1, "won": 2, "lost": 2, "gaa_med": "independent"},
    "ren_sol": {"max_tricks": 0, "won": 5, "lost": 5, "gaa_med": "vs_non_participants"},
    "bordlaegger": {"max_tricks": 1, "won": 4, "lost": 4, "gaa_med": "vs_non_participants"},
    "ren_bordlaegger": {"max_tricks": 0, "won": 5, "lost": 5, "gaa_med": "vs_non_participants"},
}


def sol(bidder, name, tricks, *joined):
    inp = {"bidder": bidder, "bid": name, "tricks": tricks}
    if joined:
        inp["with"] = [{"seat": s, "tricks": t} for s, t in joined]
    return inp


def points(inp, house, players=PLAYERS, dealer=0):
    return list(play(make_setup("danish", players, dealer, {"house": house}), [inp]).hands[0].points)


def refused(inp, house):
    with pytest.raises(InputError) as caught:
        play(make_setup("danish", PLAYERS, 0, {"house": house}), [inp])
    return caught.value.errors


def option_errors(house):
    with pytest.raises(InputError) as caught:
        make_setup("danish", PLAYERS, 0, {"house": house})
    return caught.value.errors


# ---------------------------------------------------------------- the finding


def test_a_ren_sol_played_by_two_settles_only_with_those_not_playing_along():
    """Issue 44: "A ren sol played by two scored ±20 instead of ±10". Anna's ren sol made (5 from Carl and Dina), Bo
    going with it lost (5 to Carl and to Dina): Anna +10, Bo −10, Carl and Dina 0."""
    assert points(sol(0, "ren_sol", 0, (1, 1)), {"sol": CLUB_SOL}) == [10, -10, 0, 0]
    # The same card's sol settles with everyone: Anna made, +2 from each of Bo, Carl, Dina (+6); Bo lost, pays 2 to
    # each of Anna, Carl, Dina (−6): Anna +8, Bo −8, Carl and Dina 0.
    assert points(sol(0, "sol", 0, (1, 2)), {"sol": CLUB_SOL}) == [8, -8, 0, 0]


def test_a_sol_settled_with_everyone_beside_one_settled_with_the_others_on_one_card():
    # Both made: sol (independent) Anna +6 − 2, Bo the same, Carl and Dina −4; ren sol (vs others): +10, +10, −10, −10.
    assert points(sol(0, "sol", 1, (2, 0)), {"sol": CLUB_SOL}) == [4, -4, 4, -4]
    assert points(sol(0, "ren_sol", 0, (2, 0)), {"sol": CLUB_SOL}) == [10, -10, 10, -10]
    assert points(sol(3, "bordlaegger", 1, (1, 1)), {"sol": CLUB_SOL}) == [-8, 8, -8, 8]


# ---------------------------------------------------------------- left out, null, the house's


def test_a_sol_bid_without_its_own_rule_follows_the_house():
    house = {"gaa_med": "vs_non_participants", "sol": {"sol": {"max_tricks": 1, "won": 2, "lost": 2}}}
    assert points(sol(0, "sol", 0, (1, 2)), house) == [4, -4, 0, 0]
    house["gaa_med"] = "independent"
    assert points(sol(0, "sol", 0, (1, 2)), house) == [8, -8, 0, 0]


def test_a_sol_bid_whose_own_rule_is_null_is_never_played_along():
    house = {
        "gaa_med": "independent",
        "sol": {
            "sol": {"max_tricks": 1, "won": 2, "lost": 2},
            "ren_sol": {"max_tricks": 0, "won": 5, "lost": 5, "gaa_med": None},
        },
    }
    assert points(sol(0, "sol", 0, (1, 2)), house) == [8, -8, 0, 0]
    assert "with" in refused(sol(0, "ren_sol", 0, (1, 1)), house)
    assert points(sol(0, "ren_sol", 0), house) == [15, -5, -5, -5]  # alone, as always


def test_a_sol_bid_with_its_own_rule_on_a_house_without_one():
    house = {"gaa_med": None, "sol": {"sol": {"max_tricks": 1, "won": 2, "lost": 2}} | {"ren_sol": CLUB_SOL["ren_sol"]}}
    assert points(sol(0, "ren_sol", 0, (1, 1)), house) == [10, -10, 0, 0]
    assert "with" in refused(sol(0, "sol", 0, (1, 1)), house)


def test_a_sol_bid_of_its_own_winners_pool_scores_every_hand_of_that_bid_so():
    """RULES.md: under `winners_pool` "every hand of that bid, alone or joined, is scored so"; the other bids keep
    theirs."""
    house = {
        "gaa_med": "independent",
        "sol": {
            "sol": {"max_tricks": 1, "won": 100, "lost": 100, "gaa_med": "winners_pool"},
            "ren_sol": {"max_tricks": 0, "won": 100, "lost": 100},
        },
    }
    assert points(sol(0, "sol", 1), house) == [100, -34, -34, -34]  # alone: the pool, not 3 × 100
    assert points(sol(0, "sol", 3), house) == [-100, 33, 33, 33]
    assert points(sol(0, "ren_sol", 0), house) == [300, -100, -100, -100]  # the house's rule: each pays 100
    assert "with" in refused(sol(0, "sol", 0, (1, 0), (2, 0), (3, 0)), house)  # someone must play against it


@pytest.mark.parametrize("number", range(1, len(QUARTER_HANDS) + 1))
def test_the_worked_example_of_exact_points_with_gaa_med_on_the_sol_alone(number):
    """RULES.md "Exact points", hand 6 (sol by 1 with 1 trick, gå med by 3 with 2, `independent`): the same card with
    the rule on the sol bid instead of the house scores every hand the same."""
    sol_bids = {bid: dict(entry) for bid, entry in QUARTER_CARD["sol"].items()}
    sol_bids["sol"]["gaa_med"] = "independent"
    card = QUARTER_CARD | {"gaa_med": None, "sol": sol_bids}
    setup = make_setup("danish", QUARTER_PLAYERS, 0, {"house": card})
    p = play(setup, [inp for inp, _points in QUARTER_HANDS])
    expected = play(make_setup("danish", QUARTER_PLAYERS, 0, {"house": QUARTER_CARD}), [i for i, _p in QUARTER_HANDS])
    assert p.hands[number - 1].points == expected.hands[number - 1].points
    if number == 6:
        assert [str(x) for x in p.hands[5].points] == ["0", "10", "0", "-10", "0"]


# ---------------------------------------------------------------- checked, kept, said


@pytest.mark.parametrize("value", ["everyone", 1, True, "", ["independent"]])
def test_a_wrong_sol_gaa_med_is_refused_naming_the_field(value):
    house = {"sol": {"ren_sol": {"max_tricks": 0, "won": 5, "lost": 5, "gaa_med": value}}}
    assert "options.house.sol.ren_sol.gaa_med" in option_errors(house)


def test_the_resolved_house_keeps_each_sol_rule_as_given_and_leaves_out_what_was_left_out():
    options = make_setup("danish", PLAYERS, 0, {"house": {"gaa_med": "independent", "sol": CLUB_SOL}}).options
    assert {bid: entry["gaa_med"] for bid, entry in options["house"]["sol"].items()} == {
        bid: entry["gaa_med"] for bid, entry in CLUB_SOL.items()
    }
    plain = make_setup("danish", PLAYERS, 0, {"preset": "sol_join_independent"}).options["house"]
    assert all("gaa_med" not in entry for entry in plain["sol"].values())  # each follows the house's
    with_null = model.check_house({"sol": {"sol": {"max_tricks": 1, "won": 1, "lost": 1, "gaa_med": None}}})
    assert with_null["sol"]["sol"]["gaa_med"] is None  # null kept: never played along, not "the house's"


def test_the_rule_of_a_sol_bid_as_the_house_dict_says_it():
    """The function the card's page reads a sol's rule with: its own where it has one, else the house's."""
    house = danish.build_house(
        {"house": {"gaa_med": "independent", "sol": CLUB_SOL | {"sol": {"max_tricks": 1, "won": 2, "lost": 2}}}}
    )
    assert model.sol_gaa_med(house, "sol") == "independent"  # the house's
    assert model.sol_gaa_med(house, "ren_sol") == "vs_non_participants"
    assert model.own_gaa_med(house, "sol") is model.HOUSE_RULE and model.own_gaa_med(house, "ren_sol") == (
        "vs_non_participants"
    )


HOUSE_NULL_REN_SOL = {
    "gaa_med": "independent",
    "sol": {
        "sol": {"max_tricks": 1, "won": 2, "lost": 2},
        "ren_sol": {"max_tricks": 0, "won": 5, "lost": 5, "gaa_med": None},
    },
}


def test_bids_first_with_gaa_med_follow_the_sol_bids_own_rule(client):
    game = client.post(
        "/api/games", json={"variant": "danish", "players": PLAYERS, "options": {"house": HOUSE_NULL_REN_SOL}}
    )
    assert game.status_code == 201, game.json
    url, key = f"/api/games/{game.json['id']}/bids", {"X-Edit-Key": game.json["edit_key"]}
    r = client.put(url, json={"bidder": 1, "bid": "ren_sol", "with": [{"seat": 2}]}, headers=key)
    assert r.status_code == 400 and "with" in r.json["errors"]
    r = client.put(url, json={"bidder": 1, "bid": "sol", "with": [{"seat": 2}]}, headers=key)
    assert r.status_code == 201, r.json


def test_the_api_takes_keeps_exports_and_imports_each_sol_rule(client):
    given = {"gaa_med": "independent", "sol": CLUB_SOL | {"sol": {"max_tricks": 1, "won": 2, "lost": 2}}}
    r = client.post("/api/games", json={"variant": "danish", "players": PLAYERS, "options": {"house": given}})
    assert r.status_code == 201, r.json
    game_id, key = r.json["id"], {"X-Edit-Key": r.json["edit_key"]}
    got = client.get(f"/api/games/{game_id}").json["options"]["house"]["sol"]
    assert got["ren_sol"]["gaa_med"] == "vs_non_participants" and "gaa_med" not in got["sol"]
    hand = {"bidder": 0, "bid": "ren_sol", "tricks": 0, "with": [{"seat": 1, "tricks": 1}]}
    assert client.post(f"/api/games/{game_id}/hands", json=hand, headers=key).json["points"] == [10, -10, 0, 0]
    exported = client.get(f"/api/games/{game_id}/export").json
    again = client.post("/api/games/import", json=exported)
    assert again.status_code == 201, again.json
    back = client.get(f"/api/games/{again.json['id']}").json
    assert back["options"]["house"]["sol"] == got and back["totals"] == [10, -10, 0, 0]
    wrong = {"sol": {"ren_sol": {"max_tricks": 0, "won": 5, "lost": 5, "gaa_med": "all"}}}
    r = client.post("/api/games", json={"variant": "danish", "players": PLAYERS, "options": {"house": wrong}})
    assert r.status_code == 400 and "options.house.sol.ren_sol.gaa_med" in r.json["errors"]


def test_the_card_in_words_says_each_sol_bids_rule_where_they_differ(app):
    from scorekeeper.core import table_for
    from scorekeeper.games.paper import tariff_view
    from scorekeeper.variants.views import VIEWS

    house = {
        "gaa_med": "independent",
        "sol": CLUB_SOL | {"ren_bordlaegger": CLUB_SOL["ren_bordlaegger"] | {"gaa_med": None}},
    }
    options = make_setup("danish", PLAYERS, 0, {"house": house}).options
    with app.test_request_context("/?lang=en"):
        words = dict(VIEWS["danish"].house_rules(table_for("danish", options)))
        printed = tariff_view("danish", options)
    assert words["Gå med"] == (
        "sol: each sol player settles with all three others; ren sol, bordlægger: each sol player settles with those "
        "not playing sol; ren bordlægger: played alone, no gå med"
    )
    assert printed["pool"] is False
    one_rule = make_setup("danish", PLAYERS, 0, {"preset": "sol_join_vs_others"}).options
    with app.test_request_context("/?lang=da"):
        words = dict(VIEWS["danish"].house_rules(table_for("danish", one_rule)))
    assert "ren sol" not in words["Gå med"]  # one rule for the card: said once
    pooled = {"gaa_med": None, "sol": {"sol": {"max_tricks": 1, "won": 9, "lost": 9, "gaa_med": "winners_pool"}}}
    pooled["sol"]["ren_sol"] = {"max_tricks": 0, "won": 5, "lost": 5}
    options = make_setup("danish", PLAYERS, 0, {"house": pooled}).options
    with app.test_request_context("/?lang=en"):
        printed = tariff_view("danish", options)
        words = dict(VIEWS["danish"].house_rules(table_for("danish", options)))
    assert printed["pool"] == "some" and printed["sol_head"] == ["made", "lost"]
    assert words["Gå med"].startswith("sol: the sol values are totals") and "ren sol: played alone" in words["Gå med"]
