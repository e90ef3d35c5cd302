"""Solo whist through the API and the pages, over a real SQLite file: the options resolved in full, `leader` in every
hand, the settlement at a rate, every refusal of RULES.md by its field with nothing stored, the hand form (ladder
order, the partner only for prop, passed out), the protokoll, print, blank sheet and CSV, and a club that plays it
for money through its pages."""

import csv
import io
import re

import pytest

from helpers import dump, fields, log_in, post_hand, start, token
from scorekeeper.clubs import service as club_service
from scorekeeper.variants.solo.rules import BIDS
from variants.solo import FOSTER

PLAYERS = ["Anna", "Bo", "Carl", "Dina"]


def text(r) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r.get_data(as_text=True)))


def hand_post(client, game, data):
    return client.post(f"/api/games/{game['id']}/hands", json=data, headers={"X-Edit-Key": game["edit_key"]})


# ------------------------------------------------------------------ the API


def test_the_options_are_resolved_in_full_and_the_sides_each_alone(api):
    game = api.create("solo", players=PLAYERS, options={"values": {"solo": 10}, "overtricks": 1})
    assert game["sides"] == [[0], [1], [2], [3]]
    assert game["options"]["values"] == {
        "prop": 1,
        "solo": 10,
        "misere": 2,
        "abundance": 3,
        "royal_abundance": 3,
        "misere_ouverte": 4,
        "abundance_declared": 6,
    }
    assert set(game["options"]) == {
        "values",
        "overtricks",
        "undertricks",
        "prop_slam",
        "prop_undertricks",
        "deals",
        "rate",
        "currency",
    }
    assert game["options"]["overtricks"] == 1 and game["options"]["deals"] is None


def test_every_hand_answers_its_leader_and_zero_sum_points(api):
    game = api.create("solo", players=PLAYERS, dealer=1, options=FOSTER)
    h1 = api.hand(game, {"bid": "solo", "bidder": 1, "tricks": 7})
    assert h1["points"] == [-12, 36, -12, -12] and h1["leader"] == 2  # the dealer's left
    h2 = api.hand(game, {"bid": "abundance_declared", "bidder": 0, "tricks": 13})
    assert h2["leader"] == 0 and h2["points"] == [120, -40, -40, -40]  # the bidder leads
    h3 = api.hand(game, {"passed": True})
    assert h3["leader"] == 0 and h3["points"] == [0, 0, 0, 0]
    h4 = api.hand(game, {"bid": "prop", "bidder": 3, "partner": 1, "tricks": 7})
    assert h4["points"] == [6, -6, 6, -6] and h4["leader"] == 1
    g = api.get(game)
    assert [h["leader"] for h in g["hands"]] == [2, 0, 0, 1]
    assert g["totals"] == [114, -10, -46, -58] and sum(g["totals"]) == 0


def test_the_settlement_at_a_rate_as_for_danish(client, api):
    game = api.create("solo", players=PLAYERS, options={**FOSTER, "rate": 0.25, "currency": "DKK"})
    api.hand(game, {"bid": "solo", "bidder": 1, "tricks": 7})  # +36 / −12
    api.hand(game, {"bid": "solo", "bidder": 2, "tricks": 4})  # −33 / +11
    r = client.get(f"/api/games/{game['id']}/settlement")
    assert r.status_code == 200
    s = r.json
    # Anna −12 + 11 = −1, Bo 36 + 11 = 47, Carl −12 − 33 = −45, Dina −1: × 0.25
    assert s["rate"] == 0.25 and s["currency"] == "DKK"
    assert s["balances"] == ["-0.25", "11.75", "-11.25", "-0.25"]
    paid = {0: 0, 1: 0, 2: 0, 3: 0}
    for p in s["payments"]:
        cents = round(float(p["amount"]) * 100)
        paid[p["from"]] += cents
        paid[p["to"]] -= cents
    assert paid == {0: 25, 1: -1175, 2: 1125, 3: 25} and len(s["payments"]) <= 3


def test_without_a_rate_there_is_no_settlement(client, api):
    game = api.create("solo", players=PLAYERS)
    assert client.get(f"/api/games/{game['id']}/settlement").status_code == 404


def test_deals_end_the_game_and_a_new_hand_is_409(client, api, db_path):
    game = api.create("solo", players=PLAYERS, options={"deals": 2})
    api.hand(game, {"bid": "solo", "bidder": 1, "tricks": 6})
    g = api.get(game)
    assert g["deals_left"] == 1 and not g["finished"]
    api.hand(game, {"passed": True})
    g = api.get(game)
    assert g["finished"] and g["winner"] == 1
    before = dump(db_path)
    assert hand_post(client, game, {"passed": True}).status_code == 409
    assert dump(db_path) == before


REFUSED = [
    ({"bid": "sol", "bidder": 0, "tricks": 5}, "bid"),
    ({"bid": "grand_slam", "bidder": 0, "tricks": 5}, "bid"),
    ({"bidder": 0, "tricks": 5}, "bid"),
    ({"bid": "prop", "bidder": 0, "tricks": 8}, "partner"),
    ({"bid": "prop", "bidder": 2, "partner": 2, "tricks": 8}, "partner"),
    ({"bid": "solo", "bidder": 0, "partner": 2, "tricks": 5}, "partner"),
    ({"bid": "misere", "bidder": 0, "partner": 1, "tricks": 0}, "partner"),
    ({"bid": "solo", "bidder": 4, "tricks": 5}, "bidder"),
    ({"bid": "solo", "bidder": -1, "tricks": 5}, "bidder"),
    ({"bid": "solo", "tricks": 5}, "bidder"),
    ({"bid": "prop", "bidder": 0, "partner": 4, "tricks": 8}, "partner"),
    ({"bid": "solo", "bidder": 0, "tricks": 14}, "tricks"),
    ({"bid": "solo", "bidder": 0, "tricks": -1}, "tricks"),
    ({"bid": "solo", "bidder": 0}, "tricks"),
    ({"passed": True, "bidder": 1}, "bidder"),
]


@pytest.mark.parametrize("data, field", REFUSED)
def test_each_refusal_names_its_field_and_stores_nothing(client, api, db_path, data, field):
    game = api.create("solo", players=PLAYERS)
    api.hand(game, {"bid": "solo", "bidder": 0, "tricks": 5})
    before = dump(db_path)
    r = hand_post(client, game, data)
    assert r.status_code == 400 and field in r.json["errors"], r.json
    r = client.put(f"/api/games/{game['id']}/hands/1", json=data, headers={"X-Edit-Key": game["edit_key"]})
    assert r.status_code == 400 and field in r.json["errors"], r.json
    assert dump(db_path) == before


@pytest.mark.parametrize(
    "options, field",
    [
        ({"values": {"sol": 5}}, "options.values"),
        ({"values": {"solo": 0}}, "options.values"),
        ({"values": [1, 1, 2, 3, 3, 4, 6]}, "options.values"),
        ({"overtricks": 101}, "options.overtricks"),
        ({"deals": 0}, "options.deals"),
        ({"rate": "lots"}, "options.rate"),
    ],
)
def test_bad_options_are_refused_and_nothing_stored(client, db_path, options, field):
    client.get("/")
    before = dump(db_path)
    r = client.post("/api/games", json={"variant": "solo", "players": PLAYERS, "options": options})
    assert r.status_code == 400 and field in r.json["errors"], r.json
    assert dump(db_path) == before


def test_a_table_of_three_or_five_is_refused(client):
    for players in (PLAYERS[:3], PLAYERS + ["Erik"]):
        r = client.post("/api/games", json={"variant": "solo", "players": players})
        assert r.status_code == 400 and "players" in r.json["errors"]


# ------------------------------------------------------------------ the pages


def test_the_form_lists_the_contracts_in_ladder_order_and_plays_a_game(client):
    gid = start(client, "solo", PLAYERS)
    html = client.get(f"/g/{gid}/hands/new").get_data(as_text=True)
    order = re.findall(r'name="bid" id="bid-([a-z_]+)"', html)
    assert order == list(BIDS)
    assert 'class="partner-q"' in html and "variants/solo/solo.css" in html
    assert len(re.findall(r'name="tricks" id="tricks-\d+"', html)) == 14  # 0..13
    post_hand(client, gid, {"bid": "solo", "bidder": "1", "tricks": "7"})
    post_hand(client, gid, {"bid": "prop", "bidder": "0", "partner": "2", "tricks": "8"})
    # A partner tapped before the contract changed from prop is no part of a misère.
    post_hand(client, gid, {"bid": "misere", "bidder": "3", "partner": "1", "tricks": "0"})
    post_hand(client, gid, {"passed": "1"})
    game = client.get(f"/api/games/{gid}").json
    assert [h["input"] for h in game["hands"]] == [
        {"bid": "solo", "bidder": 1, "tricks": 7},
        {"bid": "prop", "bidder": 0, "partner": 2, "tricks": 8},
        {"bid": "misere", "bidder": 3, "tricks": 0},
        {"passed": True},
    ]
    assert game["totals"] == [-2, 0, -2, 4]  # solo +3, prop ±1, misère made +6
    page = text(client.get(f"/g/{gid}"))
    assert "Bo solo, 7 tricks" in page and "Anna prop, Carl cop, 8 tricks" in page
    assert "Dina misère, 0 tricks" in page and "Passed out" in page
    # Editing hand 2: the form comes back with prop and its partner.
    edit = client.get(f"/g/{gid}/hands/2").get_data(as_text=True)
    assert 'id="bid-prop" value="prop" checked' in edit and 'id="partner-2" value="2" checked' in edit
    post_hand(client, gid, {"bid": "prop", "bidder": "0", "partner": "2", "tricks": "7"}, number=2)
    assert client.get(f"/api/games/{gid}").json["totals"] == [-4, 2, -4, 6]


@pytest.mark.parametrize(
    "data, field, message",
    [
        ({"bidder": "1", "tricks": "7"}, "bid", "is missing"),
        ({"bid": "prop", "bidder": "1", "tricks": "8"}, "partner", "accepted the proposal"),
        ({"bid": "prop", "bidder": "1", "partner": "1", "tricks": "8"}, "partner", "its own proposal"),
        ({"bid": "solo", "tricks": "7"}, "bidder", "choose a player"),
        ({"bid": "solo", "bidder": "1"}, "tricks", "is missing"),
        ({"bid": "solo", "bidder": "1", "tricks": "14"}, "tricks", "from 0 to 13"),
        ({"bid": "nolo", "bidder": "1", "tricks": "7"}, "bid", "must be one of"),
    ],
)
def test_a_bad_hand_is_shown_by_its_field_and_nothing_stored(client, db_path, data, field, message):
    gid = start(client, "solo", PLAYERS)
    before = dump(db_path)
    r = post_hand(client, gid, data, expect=400)
    html = r.get_data(as_text=True)
    m = re.search(rf'id="f-{field}".*?</fieldset>\s*<p class="error" role="alert"[^>]*>([^<]+)</p>', html, re.S)
    assert m and message in m.group(1), html[:3000]
    assert dump(db_path) == before


def test_the_refusal_speaks_danish_on_a_danish_page(client, db_path):
    gid = start(client, "solo", PLAYERS)
    client.get("/lang/da")
    before = dump(db_path)
    r = post_hand(client, gid, {"bid": "prop", "bidder": "1", "partner": "1", "tricks": "8"}, expect=400)
    assert "melderen kan ikke acceptere sit eget forslag" in text(r)
    assert dump(db_path) == before


def errors_shown(r) -> str:
    """The error messages a page shows (each field's and the box at the top), as text."""
    html = r.get_data(as_text=True)
    return " ".join(
        re.findall(r'<p class="error"[^>]*>(.*?)</p>', html, re.S)
        + re.findall(r'class="error-box"[^>]*>(.*?)</', html, re.S)
    )


@pytest.mark.parametrize(
    "lang, words",
    [
        ("sv", "saknas: ett av förslag och accept, solo, misère, abondance, kunglig abondance"),
        ("da", "mangler: en af forslag og accept, solo, misère, abondance, kongelig abondance"),
    ],
)
def test_an_empty_hand_names_the_contracts_in_the_readers_words(client, api, db_path, lang, words):
    """Issue 33: a Swedish Solo hand saved empty said "saknas: ett av prop, solo, misere, abundance, royal_abundance…",
    the API's codes; the page names the contracts as its buttons do, and the API still spells its codes."""
    gid = start(client, "solo", PLAYERS)
    client.get(f"/lang/{lang}")
    before = dump(db_path)
    shown = errors_shown(post_hand(client, gid, {}, expect=400))
    assert words in shown, shown
    assert not re.search(r"\b(prop|misere|royal_abundance|misere_ouverte|abundance_declared)\b", shown), shown
    assert dump(db_path) == before
    game = api.create("solo", players=PLAYERS)
    assert "royal_abundance" in hand_post(client, game, {"bidder": 1, "tricks": 7}).json["errors"]["bid"]


def test_passed_out_over_a_played_hand_asks_first(client):
    gid = start(client, "solo", PLAYERS)
    post_hand(client, gid, {"bid": "solo", "bidder": "1", "tricks": "7"})
    r = post_hand(client, gid, {"passed": "1"}, number=1, expect=200)
    assert 'id="confirm-passed"' in r.get_data(as_text=True)
    assert client.get(f"/api/games/{gid}").json["hands"][0]["input"]["bid"] == "solo"
    post_hand(client, gid, {"passed": "confirmed"}, number=1)
    assert client.get(f"/api/games/{gid}").json["hands"][0]["input"] == {"passed": True}


def test_a_new_game_with_values_typed_in_the_ladders_order(client):
    gid = start(client, "solo", PLAYERS, values="5, 10, 15, 20, 20, 30, 40", overtricks="1", rate="0,10")
    game = client.get(f"/api/games/{gid}").json
    assert game["options"]["values"] == FOSTER["values"] and game["options"]["rate"] == 0.1
    post_hand(client, gid, {"bid": "solo", "bidder": "1", "tricks": "7"})
    assert client.get(f"/api/games/{gid}").json["hands"][0]["points"] == [-12, 36, -12, -12]
    page = text(client.get(f"/g/{gid}"))
    assert "Anna pays Bo" in page or "pays Bo" in page


def test_print_blank_and_csv(client, api, tmp_path):
    game = api.create("solo", players=PLAYERS, options={**FOSTER, "rate": 0.1})
    for hand in (
        {"bid": "solo", "bidder": 1, "tricks": 7},
        {"bid": "prop", "bidder": 0, "partner": 2, "tricks": 9},
        {"passed": True},
    ):
        api.hand(game, hand)
    printed = text(client.get(f"/g/{game['id']}/print"))
    assert "Solo whist" in printed and "Anna prop, Carl cop, 9 tricks" in printed
    assert "prop and cop 5, solo 10, misère 15" in printed and "Over- and undertricks" in printed
    assert "Σ" in printed
    blank = text(client.get(f"/g/{game['id']}/blank"))
    for column in ("Contract", "Bidder", "Partner", "Tricks", "Σ = 0"):
        assert column in blank
    rows = list(csv.DictReader(io.StringIO(client.get(f"/g/{game['id']}/hands.csv").data.decode("utf-8-sig"))))
    # The contracts as the sheet names them (issue 44).
    assert [r["bid"] for r in rows] == ["solo", "prop and cop", ""] and rows[1]["partner"] == "Carl"
    assert rows[2]["passed"] == "yes" and rows[-1]["total Bo"] == "30"


# ------------------------------------------------------------------ a club plays it for money


def test_a_club_chooses_solo_whist_for_money_and_settles_its_tables(client, db):
    page = client.get("/clubs/new?variant=solo").get_data(as_text=True)
    assert 'id="rules-solo"' in page and 'name="opt_rate"' in page and 'name="opt_values"' in page
    assert "is not played for money" not in page
    csrf = token(client, "/clubs/new?variant=solo")
    form = {
        "csrf_token": csrf,
        "name": "Soloklubben",
        "currency": "DKK",
        "preset": "own",
        "opt_values": "5, 10, 15, 20, 20, 30, 40",
        "opt_overtricks": "1",
        "opt_rate": "0,50",
        "opt_deals": "",
        "password": "long enough",
        "password2": "long enough",
    }
    r = client.post("/clubs/new?variant=solo", data=form)
    assert r.status_code == 302, text(r)[:2000]
    club_id = r.location.rsplit("/", 1)[-1]
    club = club_service.get_club(db, club_id)
    assert club.variant == "solo" and club.options["rate"] == 0.5 and club.options["values"]["solo"] == 10
    for name in PLAYERS:
        assert client.post(f"/c/{club_id}/members", data={"name": name, "csrf_token": csrf}).status_code == 302
    ids = {m.name: m.id for m in club_service.members(db, club_id).values()}
    r = client.post(f"/c/{club_id}/evenings/new", data={"date": "2026-03-05", "fee": "", "csrf_token": csrf})
    evening_id = int(r.location.rsplit("/", 1)[-1])
    seats = {f"seat{i}": ids[n] for i, n in enumerate(PLAYERS)}
    r = client.post(
        f"/c/{club_id}/e/{evening_id}/tables", data={**seats, "variant": "solo", "dealer": "0", "csrf_token": csrf}
    )
    assert r.status_code == 302
    page = client.get(r.location).get_data(as_text=True)
    game_id = re.search(r'id="open-table-1" href="/g/([^"/]+)"', page).group(1)
    code = club_service.evening(db, club_id, evening_id).tables[0].record.code
    assert client.get(f"/c/{club_id}/k/{code}").status_code == 302  # the table's code, as its scorer is handed it
    post_hand(client, game_id, {"bid": "solo", "bidder": "1", "tricks": "7"})  # Bo +36, the others −12
    post_hand(client, game_id, {"bid": "prop", "bidder": "0", "partner": "2", "tricks": "8"})  # ±5
    result = text(client.get(f"/c/{club_id}/e/{evening_id}/result"))
    # Anna −7, Bo +31, Carl −7, Dina −17: × 0.50 DKK
    assert "Bo" in result and "15.50" in result and "8.50" in result and "3.50" in result
    r = client.post(
        f"/c/{club_id}/e/{evening_id}/settle",
        data={"settlement": "pairwise", "action": "settle", "csrf_token": csrf},
    )
    assert r.status_code == 302 and club_service.get_evening(db, club_id, evening_id).settled
    ledger = text(client.get(f"/c/{club_id}/ledger"))
    assert "15.50" in ledger
    assert log_in(client, club_id, "long enough").status_code == 302
    settings = client.get(f"/c/{club_id}/settings").get_data(as_text=True)
    assert 'value="5, 10, 15, 20, 20, 30, 40"' in settings and fields(settings)["csrf_token"]
