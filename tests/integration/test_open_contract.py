"""A deal in progress for the games whose contract is bid before the play (Solo whist, Bid whist): the auction's
outcome entered first (PUT /api/games/<id>/bids or the bids page), shown on every phone's protokoll with who leads,
changed or cleared until the tricks complete the hand, which then scores exactly as the hand entered whole. A bad
contract is refused by its field with nothing stored; a passed-out deal has no play, so it is entered as a hand (one
tap), never as bids first. Offline, a kept contract is sent as the bids page's fields, as plump's bids are."""

import re

import pytest

from helpers import dump, fields, form_data

PLAYERS = ["Anna", "Bo", "Carl", "Dina"]


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def text(r) -> str:
    return text_of(r.get_data(as_text=True))


def new_game(client, variant, **options):
    return client.post("/api/games", json={"variant": variant, "players": PLAYERS, "options": options}).json


def key(game, **more):
    return {"X-Edit-Key": game["edit_key"], **more}


def put_bids(client, game, contract, status=None, **headers):
    r = client.put(f"/api/games/{game['id']}/bids", json=contract, headers=key(game, **headers))
    if status is not None:
        assert r.status_code == status, r.json
    return r


def whole(client, variant, hands, **options):
    """The same hands entered whole in a game of their own: the points and totals to match."""
    game = new_game(client, variant, **options)
    for inp in hands:
        assert client.post(f"/api/games/{game['id']}/hands", json=inp, headers=key(game)).status_code == 201
    return client.get(f"/api/games/{game['id']}").json


# ---------------------------------------------------------------- the API


SOLO_HANDS = [
    ({"bid": "prop", "bidder": 0, "partner": 2}, {"tricks": 9}, 1),  # dealer Anna: Bo leads
    ({"bid": "abundance_declared", "bidder": 2}, {"tricks": 13}, 2),  # the declarer leads
    ({"bid": "misere", "bidder": 3}, {"tricks": 1}, 3),  # dealer Carl: Dina leads
]
BID_HANDS = [
    ({"bidder": 1, "bid": 4, "direction": "uptown"}, {"tricks": [3, 10]}, 1),  # the bidder leads
    ({"bidder": 2, "bid": 5, "direction": "no_trump"}, {"tricks": [6, 7]}, 2),
    ({"bidder": 3, "bid": 3, "direction": "downtown"}, {"tricks": [4, 9]}, 3),
]


@pytest.mark.parametrize(
    "variant, hands, options",
    [("solo", SOLO_HANDS, {"overtricks": 1}), ("bid", BID_HANDS, {"target": 21})],
)
def test_the_contract_first_then_the_tricks_score_as_the_hand_entered_whole(client, variant, hands, options):
    game = new_game(client, variant, **options)
    for number, (contract, tricks, leader) in enumerate(hands, 1):
        r = put_bids(client, game, contract, 201, **{"X-Hand-Number": str(number)})
        deal = r.json["open_deal"]
        assert deal["number"] == number and deal["input"] == contract and deal["leader"] == leader
        assert deal["dealer"] == (number - 1) % 4
        got = client.get(f"/api/games/{game['id']}/bids")
        assert got.status_code == 200 and got.json == deal
        r = client.post(
            f"/api/games/{game['id']}/hands",
            json={**contract, **tricks},
            headers=key(game, **{"X-Hand-Number": str(number)}),
        )
        assert r.status_code == 201, r.json
        assert r.json["leader"] == leader
        assert client.get(f"/api/games/{game['id']}/bids").status_code == 404
    after = client.get(f"/api/games/{game['id']}").json
    expected = whole(client, variant, [{**c, **t} for c, t, _ in hands], **options)
    assert [h["points"] for h in after["hands"]] == [h["points"] for h in expected["hands"]]
    assert after["totals"] == expected["totals"] and "open_deal" not in after


@pytest.mark.parametrize(
    "variant, contract, field",
    [
        ("solo", {"bid": "prop", "bidder": 0}, "partner"),  # a prop without its cop
        ("solo", {"bid": "prop", "bidder": 1, "partner": 1}, "partner"),
        ("solo", {"bid": "solo", "bidder": 1, "partner": 2}, "partner"),  # only a prop has a partner
        ("solo", {"bid": "grand", "bidder": 1}, "bid"),
        ("solo", {"bid": "solo"}, "bidder"),
        ("solo", {"bid": "solo", "bidder": 1, "tricks": 5}, "tricks"),  # the tricks come after the play
        ("solo", {"passed": True}, "passed"),  # no play: a passed-out deal is entered as a hand
        ("bid", {"bidder": 1, "bid": 2, "direction": "uptown"}, "bid"),  # below min_bid (3)
        ("bid", {"bidder": 1, "bid": 8, "direction": "uptown"}, "bid"),
        ("bid", {"bidder": 1, "bid": 4}, "direction"),
        ("bid", {"bidder": 4, "bid": 4, "direction": "uptown"}, "bidder"),
        ("bid", {"bidder": 1, "bid": 4, "direction": "uptown", "tricks": [3, 10]}, "tricks"),
        ("bid", {"passed": True}, "passed"),
    ],
)
def test_a_bad_contract_is_refused_by_its_field_and_nothing_is_stored(client, app, variant, contract, field):
    game = new_game(client, variant)
    before = dump(app.config["DATABASE"])
    r = put_bids(client, game, contract, 400)
    assert field in r.json["errors"], r.json
    assert dump(app.config["DATABASE"]) == before
    assert client.get(f"/api/games/{game['id']}/bids").status_code == 404


def test_a_passed_out_deal_says_it_is_entered_as_a_hand(client):
    game = new_game(client, "solo")
    r = put_bids(client, game, {"passed": True}, 400)
    assert "entered as a hand" in r.json["errors"]["passed"]


def test_the_lowest_bid_is_the_tables_own(client):
    game = new_game(client, "bid", min_bid=4)
    r = put_bids(client, game, {"bidder": 0, "bid": 3, "direction": "uptown"}, 400)
    assert "from 4 to 7" in r.json["errors"]["bid"]
    put_bids(client, game, {"bidder": 0, "bid": 4, "direction": "uptown"}, 201)


def test_changing_the_contract_changes_who_leads_and_clearing_it_leaves_no_deal(client):
    game = new_game(client, "solo")
    put_bids(client, game, {"bid": "solo", "bidder": 2}, 201)
    r = put_bids(client, game, {"bid": "abundance_declared", "bidder": 2}, 200, **{"If-Match": '"1"'})
    assert r.json["open_deal"]["version"] == 2 and r.json["open_deal"]["leader"] == 2
    r = put_bids(client, game, {"bid": "prop", "bidder": 2, "partner": 0}, 200, **{"If-Match": '"2"'})
    assert r.json["open_deal"]["leader"] == 1 and r.json["open_deal"]["input"]["partner"] == 0
    assert put_bids(client, game, {"bid": "solo", "bidder": 3}, 409, **{"If-Match": '"1"'}).json["version"] == 3
    r = client.delete(f"/api/games/{game['id']}/bids", headers=key(game, **{"If-Match": '"3"'}))
    assert r.status_code == 200 and "open_deal" not in r.json
    # A passed-out deal after all: entered as the hand; no deal is left open.
    put_bids(client, game, {"bid": "solo", "bidder": 3}, 201)
    r = client.post(f"/api/games/{game['id']}/hands", json={"passed": True}, headers=key(game))
    assert r.status_code == 201 and "open_deal" not in client.get(f"/api/games/{game['id']}").json


def test_a_kept_contract_is_sent_as_the_bids_pages_fields(client):
    """Offline: the bids page's fields, as a phone kept them, read by the variant's own form."""
    game = new_game(client, "bid")
    client.get(game["edit_page"])
    page = client.get(f"/g/{game['id']}/bids").get_data(as_text=True)
    r = client.put(
        f"/api/games/{game['id']}/bids",
        json={"form": {"bidder": "3", "bid": "5", "direction": "downtown"}},
        headers={"X-CSRFToken": fields(page)["csrf_token"], "X-Hand-Number": "1", "Idempotency-Key": "form:k1"},
    )
    assert r.status_code == 201, r.json
    assert r.json["open_deal"]["input"] == {"bidder": 3, "bid": 5, "direction": "downtown"}
    assert r.json["open_deal"]["leader"] == 3


# ---------------------------------------------------------------- the pages


def test_solo_the_contract_on_one_phone_shown_on_another_then_the_tricks(app):
    game = new_game(app.test_client(), "solo")
    table, viewer = app.test_client(), app.test_client()
    table.get(game["edit_page"])
    sheet = table.get(f"/g/{game['id']}").get_data(as_text=True)
    assert 'id="enter-bids"' in sheet
    page = table.get(f"/g/{game['id']}/bids")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and 'data-kind="bids"' in html
    assert 'name="bid"' in html and 'name="bidder"' in html and 'name="partner"' in html
    assert 'name="tricks"' not in html and 'name="passed"' not in html  # the contract alone
    r = table.post(f"/g/{game['id']}/bids", data={**fields(html), "bid": "prop", "bidder": "0"})
    assert r.status_code == 400 and "who accepted the proposal" in text(r)
    assert 'id="partner-0"' in r.get_data(as_text=True)  # the error by the partner's buttons, the taps kept
    r = table.post(f"/g/{game['id']}/bids", data={**fields(html), "bid": "prop", "bidder": "0", "partner": "2"})
    assert r.status_code == 302
    seen = text(viewer.get(f"/g/{game['id']}"))
    assert "Hand 1 is being played" in seen and "Anna prop, Carl cop" in seen and "Bo leads" in seen
    # Changed on the table's phone: abundance declared, so the declarer leads.
    html = table.get(f"/g/{game['id']}/bids").get_data(as_text=True)
    assert 'value="prop" checked' in html and "Clear the bids" in html
    data = {**form_data(html), "bid": "abundance_declared", "bidder": "2"}
    data.pop("partner", None)
    assert table.post(f"/g/{game['id']}/bids", data=data).status_code == 302
    seen = text(viewer.get(f"/g/{game['id']}"))
    assert "Carl abundance declared" in seen and "Carl leads" in seen
    # The hand form opens with the contract filled in (changeable) and asks the tricks.
    form = table.get(f"/g/{game['id']}/hands/new").get_data(as_text=True)
    assert 'value="abundance_declared" checked' in form and 'id="bidder-2" value="2" checked' in form
    assert 'name="tricks"' in form and re.search(r"Leads: <b[^>]*>Carl</b>", form)  # it follows the taps too
    r = table.post(f"/g/{game['id']}/hands/new", data={**form_data(form), "tricks": "13"})
    assert r.status_code == 302
    seen = text(viewer.get(f"/g/{game['id']}"))
    assert "being played" not in seen and "Carl abundance declared, 13 tricks" in seen


def test_bid_whist_the_contract_on_one_phone_shown_on_another_then_the_books(app):
    game = new_game(app.test_client(), "bid")
    table, viewer = app.test_client(), app.test_client()
    table.get(game["edit_page"])
    html = table.get(f"/g/{game['id']}/bids").get_data(as_text=True)
    assert 'name="bidder"' in html and 'name="direction"' in html and 'name="tricks"' not in html
    assert 'id="bid-2"' not in html and 'id="bid-3"' in html  # the table's lowest bid
    r = table.post(f"/g/{game['id']}/bids", data={**fields(html), "bidder": "1", "bid": "2", "direction": "uptown"})
    assert r.status_code == 400 and "from 3 to 7" in text(r)
    r = table.post(f"/g/{game['id']}/bids", data={**fields(html), "bidder": "1", "bid": "4", "direction": "uptown"})
    assert r.status_code == 302
    seen = text(viewer.get(f"/g/{game['id']}"))
    assert "Hand 1 is being played" in seen and "Bo 4 uptown" in seen and "Bo leads" in seen
    form = table.get(f"/g/{game['id']}/hands/new").get_data(as_text=True)
    assert 'id="bidder-1" value="1" checked' in form and 'id="direction-uptown" value="uptown" checked' in form
    assert "Leads: Bo" in text_of(form) and 'name="tricks"' in form
    r = table.post(f"/g/{game['id']}/hands/new", data={**form_data(form), "tricks": "10"})
    assert r.status_code == 302
    got = viewer.get(f"/api/games/{game['id']}").json
    assert got["hands"][0]["input"] == {"bidder": 1, "bid": 4, "direction": "uptown", "tricks": [3, 10]}
    assert got["hands"][0]["points"] == [0, 4] and "open_deal" not in got


def test_the_contract_can_be_cleared_on_the_page(client):
    game = new_game(client, "bid")
    client.get(game["edit_page"])
    html = client.get(f"/g/{game['id']}/bids").get_data(as_text=True)
    client.post(f"/g/{game['id']}/bids", data={**fields(html), "bidder": "0", "bid": "3", "direction": "no_trump"})
    html = client.get(f"/g/{game['id']}/bids").get_data(as_text=True)
    r = client.post(f"/g/{game['id']}/bids/clear", data=fields(html))
    assert r.status_code == 302 and "being played" not in text(client.get(f"/g/{game['id']}"))


def test_the_deal_in_progress_speaks_the_readers_language(client):
    game = new_game(client, "solo")
    client.get(game["edit_page"])
    html = client.get(f"/g/{game['id']}/bids").get_data(as_text=True)
    client.post(f"/g/{game['id']}/bids", data={**fields(html), "bid": "prop", "bidder": "0", "partner": "2"})
    client.get("/lang/da")
    seen = text(client.get(f"/g/{game['id']}"))
    assert "Anna forslag, Carl accept" in seen, seen
