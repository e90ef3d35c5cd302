"""The JSON API as ../shared/API.md states it, through a real SQLite file."""

import pytest

from helpers import PLAYERS, dump

DANISH_8 = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 10}


def test_create_game_answers_the_game_with_all_options_and_edit_key(client):
    r = client.post(
        "/api/games",
        json={
            "variant": "danish",
            "players": PLAYERS["danish"],
            "dealer": 0,
            "title": "Thursday",
            "options": {"rate": 0.05},
        },
    )
    assert r.status_code == 201
    game = r.json
    assert game["variant"] == "danish" and game["title"] == "Thursday"
    assert game["players"] == PLAYERS["danish"]
    assert game["sides"] == [[0], [1], [2], [3]]
    assert game["options"]["tariff"] == [10, 20, 40, 80, 160, 320, 640]
    assert game["options"]["rate"] == 0.05
    assert set(game["options"]) == {
        "tariff",
        "lost",
        "solo_values",
        "preset",
        "house",
        "card_names",
        "iron_hand",
        "rate",
        "currency",
        "deals",
    }
    assert len(game["edit_key"]) >= 32
    assert game["edit_key"] in game["edit_page"]
    assert game["links"] == {
        "page": f"/g/{game['id']}",
        "json": f"/api/games/{game['id']}",
        "pdf": f"/g/{game['id']}/sheet.pdf",
        "csv": f"/g/{game['id']}/hands.csv",
    }
    assert game["hands"] == [] and game["totals"] == [0, 0, 0, 0]
    assert game["next_dealer"] == 0 and game["finished"] is False and game["winner"] is None


def test_read_never_shows_the_edit_key(client, api):
    game = api.create("classic")
    r = client.get(f"/api/games/{game['id']}")
    assert "edit_key" not in r.json and game["edit_key"] not in r.get_data(as_text=True)


@pytest.mark.parametrize(
    "variant,sides",
    [
        ("classic", [[0, 2], [1, 3]]),
        ("norwegian", [[0, 2], [1, 3]]),
        ("danish", [[0], [1], [2], [3]]),
        ("german", [[0], [1]]),
        ("swedish", [[0, 2], [1, 3]]),
    ],
)
def test_sides_per_variant(api, variant, sides):
    assert api.create(variant)["sides"] == sides


def test_danish_hand_and_settlement(client, api):
    game = api.create("danish", options={"rate": 0.05})
    hand = api.hand(game, DANISH_8)
    assert hand["number"] == 1 and hand["dealer"] == 0
    assert hand["points"] == [60, -60, 60, -60] and hand["totals"] == [60, -60, 60, -60]
    assert hand["input"] == DANISH_8
    r = client.get(f"/api/games/{game['id']}/settlement")
    assert r.json == {
        "rate": 0.05,
        "currency": "DKK",
        "balances": ["3.00", "-3.00", "3.00", "-3.00"],
        "payments": [{"from": 1, "to": 0, "amount": "3.00"}, {"from": 3, "to": 2, "amount": "3.00"}],
    }


def test_settlement_of_a_game_without_rate_is_404(client, api):
    game = api.create("classic")
    assert client.get(f"/api/games/{game['id']}/settlement").status_code == 404


def test_partnership_settlement_with_a_rate(client, api):
    game = api.create("norwegian", options={"rate": 1})
    api.hand(game, {"bid": "grand", "bidder": 0, "tricks": [9, 4]})
    r = client.get(f"/api/games/{game['id']}/settlement").json
    assert r["balances"] == ["3.00", "-3.00", "3.00", "-3.00"]
    assert len(r["payments"]) == 2


@pytest.mark.parametrize(
    "variant,hands,totals",
    [
        ("classic", [{"trump": "hearts", "tricks": [8, 5]}], [2, 0]),
        ("norwegian", [{"bid": "grand", "bidder": 2, "tricks": [5, 8]}], [0, 4]),
        ("danish", [{"bidder": 1, "bid": "sol", "tricks": 1}], [-50, 150, -50, -50]),
        ("german", [{"tricks": [9, 4]}, {"tricks": [5, 8]}, {"tricks": [10, 3]}], [7, 2]),
        ("swedish", [{"red": 3, "tricks": [5, 8]}], [0, 2]),
    ],
)
def test_one_game_per_variant(api, variant, hands, totals):
    game = api.create(variant)
    for h in hands:
        api.hand(game, h)
    assert api.get(game)["totals"] == totals


def test_german_example_game_ends_seven_two(api):
    game = api.create("german", players=["Anna", "Bo"])
    api.hand(game, {"tricks": [9, 4]})
    api.hand(game, {"tricks": [5, 8]})
    api.hand(game, {"tricks": [10, 3]})
    state = api.get(game)
    assert state["totals"] == [7, 2] and state["finished"] and state["winner"] == 0
    r = api.hand(game, {"tricks": [7, 6]}, status=409)
    assert "hand" in r["errors"]


def test_replace_and_delete_rescore_everything_after(client, api):
    game = api.create("danish")
    api.hand(game, DANISH_8)
    api.hand(game, {"passed": True})
    api.hand(game, {"bidder": 2, "bid": 9, "suffix": "gode", "partner": 2, "tricks": 9})
    key = {"X-Edit-Key": game["edit_key"]}
    r = client.put(f"/api/games/{game['id']}/hands/1", json={**DANISH_8, "tricks": 8}, headers=key)
    assert r.status_code == 200 and r.json["points"] == [20, -20, 20, -20]
    state = api.get(game)
    assert state["totals"] == [20 - 80, -20 - 80, 20 + 240, -20 - 80]
    r = client.delete(f"/api/games/{game['id']}/hands/2", headers=key)
    assert r.status_code == 200
    state = api.get(game)
    assert [h["number"] for h in state["hands"]] == [1, 2]
    assert [h["dealer"] for h in state["hands"]] == [0, 1]
    assert state["hands"][1]["input"]["bid"] == 9
    assert state["next_dealer"] == 2


def test_rubber_fields(api):
    game = api.create("classic", options={"rubber": True})
    for tricks in ([13, 0], [0, 13], [13, 0]):
        api.hand(game, {"trump": "hearts", "tricks": tricks})
    state = api.get(game)
    assert state["games_won"] == [2, 1] and state["finished"] and state["winner"] == 0
    assert [h["game"] for h in state["hands"]] == [1, 2, 3]
    assert state["rubber_points"] == [3 + 3 + 2, 3]


def test_rubber_points_null_until_over(api):
    game = api.create("classic", options={"rubber": True})
    api.hand(game, {"trump": "hearts", "tricks": [13, 0]})
    state = api.get(game)
    assert state["games_won"] == [1, 0] and state["rubber_points"] is None and state["totals"] == [0, 0]


# ------------------------------------------------------------------ errors


def test_unknown_game_and_hand_are_404(client, api):
    assert client.get("/api/games/nope").status_code == 404
    game = api.create("german")
    key = {"X-Edit-Key": game["edit_key"]}
    assert client.put(f"/api/games/{game['id']}/hands/1", json={"tricks": [7, 6]}, headers=key).status_code == 404
    assert client.delete(f"/api/games/{game['id']}/hands/x", headers=key).status_code == 404


@pytest.mark.parametrize("headers", [{}, {"X-Edit-Key": "wrong"}, {"X-Edit-Key": ""}])
def test_writes_need_the_edit_key(client, api, db_path, headers):
    game = api.create("german")
    api.hand(game, {"tricks": [7, 6]})
    before = dump(db_path)
    gid = game["id"]
    assert client.post(f"/api/games/{gid}/hands", json={"tricks": [7, 6]}, headers=headers).status_code == 403
    assert client.put(f"/api/games/{gid}/hands/1", json={"tricks": [8, 5]}, headers=headers).status_code == 403
    assert client.delete(f"/api/games/{gid}/hands/1", headers=headers).status_code == 403
    assert dump(db_path) == before


def test_key_of_another_game_is_refused(client, api):
    a, b = api.create("german"), api.create("german")
    r = client.post(f"/api/games/{a['id']}/hands", json={"tricks": [7, 6]}, headers={"X-Edit-Key": b["edit_key"]})
    assert r.status_code == 403


BAD_GAMES = [
    ({"variant": "bridge"}, "variant"),
    ({"players": ["A", "B", "C"]}, "players"),
    ({"players": ["A", "B", "C", "D", "E"]}, "players"),
    ({"players": ["A", "B", "C", ""]}, "players"),
    ({"players": ["A", "B", "C", "a"]}, "players"),
    ({"players": ["A", "B", "C", "<script>alert(1)</script>"]}, "players"),
    ({"players": ["A", "B", "C", "x" * 65]}, "players"),  # NAME_MAX is 64
    ({"players": ["A", "B", "C", "D\x07"]}, "players"),
    ({"players": "ABCD"}, "players"),
    ({"dealer": 4}, "dealer"),
    ({"dealer": "0"}, "dealer"),
    ({"title": "t" * 81}, "title"),
    ({"options": {"target": 0}}, "options.target"),
    ({"options": {"target": 31}}, "options.target"),
    ({"options": {"target": "5"}}, "options.target"),
    ({"options": {"trumps": True}}, "options.trumps"),
    ({"options": {"honours": "yes"}}, "options.honours"),
    ({"options": {"revoke_penalty": 0}}, "options.revoke_penalty"),
    ({"options": {"rubber": True, "deals": 8}}, "options.rubber"),
    ({"options": {"deals": 8, "honours": True}}, "options.honours"),
    ({"options": {"no_trump_every": 5}}, "options.no_trump_every"),
    ({"options": []}, "options"),
    ({"colour": "red"}, "colour"),
]


@pytest.mark.parametrize("change,field", BAD_GAMES)
def test_bad_games_are_refused_naming_the_field(client, db_path, change, field):
    before = dump(db_path)
    body = {"variant": "classic", "players": PLAYERS["classic"], **change}
    r = client.post("/api/games", json=body)
    assert r.status_code == 400
    assert field in r.json["errors"], r.json
    assert r.json["errors"][field]
    assert dump(db_path) == before


@pytest.mark.parametrize(
    "variant,options,field",
    [
        ("danish", {"tariff": [10, 20]}, "options.tariff"),
        ("danish", {"lost": "sometimes"}, "options.lost"),
        ("danish", {"solo_values": {"sol": 0}}, "options.solo_values"),
        ("danish", {"rate": -1}, "options.rate"),
        ("danish", {"rate": "lots"}, "options.rate"),
        ("danish", {"currency": "JPY"}, "options.currency"),
        ("norwegian", {"pass_scoring": "under_five"}, "options.pass_scoring"),
        ("norwegian", {"set_bonus": 0}, "options.set_bonus"),
        ("german", {"count": "all"}, "options.count"),
        ("swedish", {"deals": 0}, "options.deals"),
    ],
)
def test_bad_options_per_variant(client, db_path, variant, options, field):
    before = dump(db_path)
    r = client.post("/api/games", json={"variant": variant, "players": PLAYERS[variant], "options": options})
    assert r.status_code == 400 and field in r.json["errors"], r.json
    assert dump(db_path) == before


BAD_HANDS = [
    ("classic", {"trump": "hearts", "tricks": [8, 6]}, "tricks"),
    ("classic", {"trump": "hearts", "tricks": [14, -1]}, "tricks"),
    ("classic", {"trump": "hearts"}, "tricks"),
    ("classic", {"tricks": [7, 6]}, "trump"),
    ("classic", {"trump": "none", "tricks": [7, 6]}, "trump"),
    ("classic", {"trump": "hearts", "tricks": [7, 6], "honours": [3, 1]}, "honours"),
    ("classic", {"trump": "hearts", "tricks": [7, 6], "revoke": {"side": 2}}, "revoke.side"),
    ("classic", {"trump": "hearts", "tricks": [7, 6], "revoke": {"side": 0, "penalty": "fine"}}, "revoke.penalty"),
    ("classic", {"trump": "hearts", "tricks": [True, 12]}, "tricks"),
    ("classic", {"trump": "hearts", "tricks": [7, 6], "bonus": 1}, "bonus"),
    ("norwegian", {"bid": "grand", "tricks": [7, 6]}, "bidder"),
    ("norwegian", {"bid": "grand", "bidder": 4, "tricks": [7, 6]}, "bidder"),
    ("norwegian", {"bid": "pass", "bidder": 1, "tricks": [7, 6]}, "bidder"),
    ("norwegian", {"bid": "slam", "tricks": [7, 6]}, "bid"),
    ("danish", {"bidder": 0, "bid": 8, "suffix": "gode", "trump": "hearts", "partner": 2, "tricks": 8}, "trump"),
    ("danish", {"bidder": 0, "bid": 8, "suffix": "sans", "trump": "hearts", "partner": 2, "tricks": 8}, "trump"),
    ("danish", {"bidder": 0, "bid": 8, "suffix": "extra", "trump": "hearts", "partner": 2, "tricks": 8}, "suffix"),
    ("danish", {"bidder": 0, "bid": 8, "suffix": "", "trump": "hearts", "partner": 2, "tricks": 8}, "suffix"),
    ("danish", {"bidder": 0, "bid": 6, "trump": "hearts", "partner": 2, "tricks": 8}, "bid"),
    ("danish", {"bidder": 0, "bid": 14, "trump": "hearts", "partner": 2, "tricks": 8}, "bid"),
    ("danish", {"bidder": 0, "bid": 8, "trump": "hearts", "partner": 2, "tricks": 14}, "tricks"),
    ("danish", {"bidder": 0, "bid": 8, "trump": "hearts", "tricks": 8}, "partner"),
    ("danish", {"bidder": 0, "bid": 8, "trump": "none", "partner": 1, "tricks": 8}, "trump"),
    ("danish", {"bid": 8, "trump": "hearts", "partner": 1, "tricks": 8}, "bidder"),
    ("danish", {"bidder": 1, "bid": "sol", "partner": 2, "tricks": 0}, "partner"),
    ("danish", {"bidder": 1, "bid": "sol", "trump": "hearts", "tricks": 0}, "trump"),
    ("danish", {"passed": True, "bidder": 1}, "bidder"),
    ("german", {"tricks": [7, 7]}, "tricks"),
    ("german", {"tricks": 7}, "tricks"),
    ("swedish", {"tricks": [7, 6]}, "red"),
    ("swedish", {"red": 5, "tricks": [7, 6]}, "red"),
]


@pytest.mark.parametrize("variant,data,field", BAD_HANDS)
def test_bad_hands_are_refused_naming_the_field(client, api, db_path, variant, data, field):
    game = api.create(variant)
    before = dump(db_path)
    r = client.post(f"/api/games/{game['id']}/hands", json=data, headers={"X-Edit-Key": game["edit_key"]})
    assert r.status_code == 400
    assert field in r.json["errors"], r.json
    assert dump(db_path) == before


def test_five_player_danish_dealer_cannot_bid(client, api, db_path):
    game = api.create("danish", players=["A", "B", "C", "D", "E"], dealer=2)
    before = dump(db_path)
    r = client.post(
        f"/api/games/{game['id']}/hands",
        json={**DANISH_8, "bidder": 2, "partner": 0},
        headers={"X-Edit-Key": game["edit_key"]},
    )
    assert r.status_code == 400 and "bidder" in r.json["errors"]
    assert dump(db_path) == before
    r = client.post(f"/api/games/{game['id']}/hands", json=DANISH_8, headers={"X-Edit-Key": game["edit_key"]})
    assert r.status_code == 400 and "partner" in r.json["errors"]
    hand = api.hand(game, {**DANISH_8, "partner": 3})
    assert hand["points"] == [60, -60, 0, 60, -60] and hand["sitting_out"] == 2


@pytest.mark.parametrize(
    "payload,ctype",
    [
        (b"not json", "application/json"),
        (b"[1, 2]", "application/json"),
        (b"\xff\xfe\x00", "application/json"),
        (b"", "application/json"),
        (b"tricks=7", "application/x-www-form-urlencoded"),
    ],
)
def test_malformed_bodies_are_400(client, api, db_path, payload, ctype):
    game = api.create("german")
    before = dump(db_path)
    r = client.post(
        f"/api/games/{game['id']}/hands", data=payload, content_type=ctype, headers={"X-Edit-Key": game["edit_key"]}
    )
    assert r.status_code == 400 and "body" in r.json["errors"]
    assert dump(db_path) == before


def test_huge_body_is_413(client, api, db_path):
    game = api.create("german")
    before = dump(db_path)
    r = client.post(
        f"/api/games/{game['id']}/hands",
        data=b'{"tricks": "' + b"x" * 70000 + b'"}',
        content_type="application/json",
        headers={"X-Edit-Key": game["edit_key"]},
    )
    assert r.status_code == 413 and "body" in r.json["errors"]
    assert dump(db_path) == before


def test_edit_that_breaks_a_later_hand_is_refused(client, api, db_path):
    game = api.create("german", players=["Anna", "Bo"])
    api.hand(game, {"tricks": [9, 4]})
    api.hand(game, {"tricks": [9, 4]})
    before = dump(db_path)
    # Hand 1 at 13–0 would end the game (7 points) before hand 2.
    r = client.put(
        f"/api/games/{game['id']}/hands/1", json={"tricks": [13, 0]}, headers={"X-Edit-Key": game["edit_key"]}
    )
    assert r.status_code == 409 and "hand 2" in r.json["errors"]["hand"]
    assert dump(db_path) == before


def test_an_edit_can_reopen_a_finished_game(client, api):
    game = api.create("german", players=["Anna", "Bo"])
    api.hand(game, {"tricks": [13, 0]})
    assert api.get(game)["finished"]
    r = client.put(
        f"/api/games/{game['id']}/hands/1", json={"tricks": [8, 5]}, headers={"X-Edit-Key": game["edit_key"]}
    )
    assert r.status_code == 200
    assert not api.get(game)["finished"]
    api.hand(game, {"tricks": [8, 5]})


def test_five_player_delete_that_makes_the_dealer_bid_is_refused(client, api, db_path):
    game = api.create("danish", players=["A", "B", "C", "D", "E"])
    api.hand(game, {"passed": True})  # dealer 0
    api.hand(game, {**DANISH_8, "bidder": 0, "partner": 3})  # dealer 1; after deleting hand 1, dealer 0 would bid
    before = dump(db_path)
    r = client.delete(f"/api/games/{game['id']}/hands/1", headers={"X-Edit-Key": game["edit_key"]})
    assert r.status_code == 400 and "hand 2" in r.json["errors"]["hand"]
    assert dump(db_path) == before


# ---------------------------------------------------------------- numbers as API.md writes them (issue 43)


def danish_with(made):
    return {"variant": "danish", "players": PLAYERS["danish"], "options": {"house": {"levels": {"8": {
        "made": made, "over": 1, "lost": 2}}, "rounding": "none"}}}  # fmt: skip


@pytest.mark.parametrize(
    "made", ["1.5/3", "1.5/0.5", "1/3e2", "1e2/3", "+1/3", "1 / 3", "+1 1/4", "1/0", "0,75", "¾", "1¼", "1 5/4"]
)
def test_a_house_number_looser_than_api_md_is_a_400_naming_it(client, db_path, made):
    before = dump(db_path)
    r = client.post("/api/games", json=danish_with(made), headers={"Accept-Language": "da"})
    assert r.status_code == 400 and list(r.json["errors"]) == ["options.house.levels.8.made"], r.json
    assert "brøk" in r.json["errors"]["options.house.levels.8.made"]  # in the reader's language
    assert dump(db_path) == before


@pytest.mark.parametrize(
    "made, kept",
    [
        ("3/4", "3/4"),
        ("6/8", "3/4"),
        ("1 1/4", "5/4"),
        ("0.75", "3/4"),
        (0.75, "3/4"),
        ("3", 3),
        (3, 3),
        ("2.5e0", "5/2"),
    ],
)
def test_a_house_number_as_api_md_writes_it_is_kept_in_lowest_terms(client, made, kept):
    r = client.post("/api/games", json=danish_with(made))
    assert r.status_code == 201, r.json
    assert r.json["options"]["house"]["levels"]["8"]["made"] == kept


@pytest.mark.parametrize("suffix", ["", " ", "Plain", 0, False, [], {}])
def test_a_danish_deal_in_progress_with_no_suffix_is_a_400_naming_it(client, api, db_path, suffix):
    """Before: `"suffix": ""` opened a plain deal (`or "plain"`); API.md: a suffix is one of its names, plain when left
    out."""
    game = api.create("danish")
    before = dump(db_path)
    body = {"bidder": 0, "bid": 8, "suffix": suffix, "trump": "hearts"}
    r = client.put(f"/api/games/{game['id']}/bids", json=body, headers={"X-Edit-Key": game["edit_key"]})
    assert r.status_code == 400 and list(r.json["errors"]) == ["suffix"], r.json
    assert dump(db_path) == before


def test_a_danish_suffix_left_out_is_plain(client, api):
    game = api.create("danish")
    body = {"bidder": 0, "bid": 8, "trump": "hearts"}
    r = client.put(f"/api/games/{game['id']}/bids", json=body, headers={"X-Edit-Key": game["edit_key"]})
    assert r.status_code == 201 and r.json["open_deal"]["input"]["suffix"] == "plain", r.json
