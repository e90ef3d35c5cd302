"""Danish whist's bids before play (RULES.md "Bids before play", API.md "A deal in progress"): the bidder, the bid, its
suffix, the trump, the called ace and the partner (or a sol's gå med seats) entered after the auction, shown on every
phone while the deal is played, then completed by the tricks, scoring exactly as the hand entered whole. The called
ace (`ace`) is kept, shown and never scored. Through the API, the service and the pages, on the real SQLite file."""

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import dump, examples, fields, form_data
from scorekeeper.games import service
from scorekeeper.variants.danish import grid
from scorekeeper.variants.danish import house as model
from scorekeeper.variants.danish import rules as danish
from variants.danish import (
    PLAYERS,
    QUARTER_BALANCES,
    QUARTER_CARD,
    QUARTER_HANDS,
    QUARTER_PLAYERS,
    QUARTER_TOTALS,
    SUITS,
    house_games,
)

FIVE = ["Anna", "Bo", "Carl", "Dina", "Eva"]


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def text(r) -> str:
    return text_of(r.get_data(as_text=True))


def new_game(client, players=PLAYERS, **options):
    r = client.post("/api/games", json={"variant": "danish", "players": players, "options": options})
    assert r.status_code == 201, r.json
    return r.json


def key(game, **more):
    return {"X-Edit-Key": game["edit_key"], **more}


def put_bids(client, game, bids, status=None, **headers):
    r = client.put(f"/api/games/{game['id']}/bids", json=bids, headers=key(game, **headers))
    if status is not None:
        assert r.status_code == status, r.json
    return r


def post_hand(client, game, hand, **headers):
    r = client.post(f"/api/games/{game['id']}/hands", json=hand, headers=key(game, **headers))
    assert r.status_code == 201, r.json
    return r.json


def bids_of(hand: dict) -> dict:
    """What the table knows after the auction: the hand without its tricks (a gå med player's seat alone)."""
    out = {k: v for k, v in hand.items() if k != "tricks"}
    if "with" in out:
        out["with"] = [{"seat": w["seat"]} for w in out["with"]]
    return out


# ---------------------------------------------------------------- RULES.md's worked examples, bids first


def test_the_quarter_point_card_bids_first_scores_its_worked_example_exactly(client):
    """RULES.md "Exact points": the club's eight hands at five, each played hand's bids entered before the play (a
    called ace with each trick bid), then its tricks; the passed-out deal entered as a hand. Same points, totals and
    money as the worked example."""
    game = new_game(client, QUARTER_PLAYERS, house=QUARTER_CARD, rate=0.05)
    aces = iter(["spades", "hearts", "diamonds", "clubs"])
    for number, (hand, points) in enumerate(QUARTER_HANDS, 1):
        if hand.get("passed"):
            put_bids(client, game, hand, 400)
            got = post_hand(client, game, hand)
        else:
            hand = hand | ({} if danish.is_solo(hand["bid"]) else {"ace": next(aces)})
            deal = put_bids(client, game, bids_of(hand), 201, **{"X-Hand-Number": str(number)}).json["open_deal"]
            assert deal["number"] == number and deal["dealer"] == (number - 1) % 5
            assert deal["leader"] == number % 5  # forhånden, the dealer's left, also at five
            got = post_hand(client, game, hand, **{"X-Hand-Number": str(number)})
            assert got["input"].get("ace") == hand.get("ace")
        assert " ".join(map(str, got["points"])) == points, number
        assert client.get(f"/api/games/{game['id']}/bids").status_code == 404
    after = client.get(f"/api/games/{game['id']}").json
    assert after["totals"] == QUARTER_TOTALS and "open_deal" not in after
    assert client.get(f"/api/games/{game['id']}/settlement").json["balances"] == QUARTER_BALANCES


@pytest.mark.parametrize(
    "suffix, trump, points",
    [("plain", "hearts", [60, -60, 60, -60]), ("sans", None, [120, -120, 120, -120])],
)
def test_the_seeds_example_bids_first_with_the_called_ace(client, suffix, trump, points):
    """Seed 002: bid 8, 10 tricks: 20 + 2 × 20 = 60; as 8 sans 120. The ace is shown, not scored."""
    game = new_game(client)
    bids = {"bidder": 0, "bid": 8, "suffix": suffix, "ace": "spades"}
    deal = put_bids(client, game, bids, 201).json["open_deal"]
    assert deal["input"] == bids | ({"trump": "none"} if suffix == "sans" else {})  # sans fills in its trump
    put_bids(client, game, bids | ({"trump": trump} if trump else {}) | {"partner": 2}, 200)
    hand = post_hand(client, game, bids | {"trump": trump or "none", "partner": 2, "tricks": 10})
    assert hand["points"] == points
    without = new_game(client)
    assert post_hand(client, without, {k: v for k, v in hand["input"].items() if k != "ace"})["points"] == points


# ---------------------------------------------------------------- the property, through the service and the file

PROPERTY = settings(
    max_examples=examples(100),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@st.composite
def bids_first_games(draw):
    """A game with a preset or a random house, its hands (a called ace on some trick bids), and for each played hand
    the bids a table may know before the play: the trump and the partner perhaps not yet."""
    setup, inputs = draw(house_games(max_hands=6))
    hands, bids = [], []
    for inp in inputs:
        if inp.get("passed") or "iron_hand" in inp:
            hands.append(inp)
            bids.append(None)
            continue
        if not danish.is_solo(inp["bid"]) and draw(st.booleans()):
            inp = inp | {"ace": draw(st.sampled_from(SUITS))}
        known = bids_of(inp)
        for field in ("trump", "partner"):
            if field in known and draw(st.booleans()):
                del known[field]
        hands.append(inp)
        bids.append(known)
    return setup, hands, bids


@PROPERTY
@given(bids_first_games())
def test_a_hand_entered_bids_first_then_tricks_scores_as_the_hand_entered_whole(db, game):
    setup, hands, bids = game
    data = {"variant": "danish", "players": list(setup.players), "dealer": setup.dealer, "options": setup.options}
    whole_id, whole_key = service.start_game(db, data)
    first_id, first_key = service.start_game(db, data)
    for number, (hand, known) in enumerate(zip(hands, bids), 1):
        service.add_hand(db, whole_id, hand, whole_key)
        if known is not None:
            opened = service.put_bids(db, first_id, known, first_key, expected_number=number)
            deal = service.open_deal(opened)
            assert deal is not None and deal.number == number
            assert {k: v for k, v in deal.input.items() if k != "trump"} == {
                k: v for k, v in known.items() if k != "trump"
            }
        service.add_hand(db, first_id, hand, first_key, expected_number=number)
        assert service.open_deal(service.load(db, first_id)) is None
    whole, first = service.load(db, whole_id), service.load(db, first_id)
    assert [h.input for h in first.hands] == [h.input for h in whole.hands]
    assert [h.points for h in first.protokoll.hands] == [h.points for h in whole.protokoll.hands]
    assert first.protokoll.totals == whole.protokoll.totals


# ---------------------------------------------------------------- the API: what is kept, who leads, refusals


def test_the_bids_are_kept_as_entered_changed_as_the_auction_goes_and_read_back(client):
    game = new_game(client, preset="sol_join_independent")
    r = put_bids(client, game, {"bidder": 1, "bid": 9, "suffix": "halve"}, 201)
    assert r.json["open_deal"] == {
        "number": 1,
        "dealer": 0,
        "leader": 1,
        "input": {"bidder": 1, "bid": 9, "suffix": "halve"},
        "version": 1,
    }
    # The partner names the trump in a halve; the ace shows who the partner is.
    r = put_bids(client, game, {"bidder": 1, "bid": 9, "suffix": "halve", "trump": "diamonds", "ace": "clubs"}, 200)
    r = put_bids(client, game, {**r.json["open_deal"]["input"], "partner": 3}, 200, **{"If-Match": '"2"'})
    assert r.json["open_deal"]["version"] == 3
    assert client.get(f"/api/games/{game['id']}/bids").json == r.json["open_deal"]
    # Or a sol with another player going with it (gå med): the seats now, their tricks with the hand.
    r = put_bids(client, game, {"bidder": 2, "bid": "sol", "with": [{"seat": 0}, {"seat": 3}]}, 200)
    assert r.json["open_deal"]["input"] == {"bidder": 2, "bid": "sol", "with": [{"seat": 0}, {"seat": 3}]}
    hand = post_hand(
        client,
        game,
        {"bidder": 2, "bid": "sol", "tricks": 1, "with": [{"seat": 0, "tricks": 0}, {"seat": 3, "tricks": 3}]},
    )
    # Each sol settles with all three others: Carl and Anna made (50 from each), Dina lost (100 to each).
    assert hand["points"] == [200, 0, 200, -400] and "open_deal" not in client.get(f"/api/games/{game['id']}").json


def test_the_called_ace_is_kept_with_the_hand_shown_and_not_scored(client):
    game = new_game(client)
    hand = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "hearts", "ace": "spades", "partner": 2, "tricks": 10}
    got = post_hand(client, game, hand)
    assert got["input"]["ace"] == "spades" and got["points"] == [60, -60, 60, -60]
    for url in (f"/g/{game['id']}", f"/g/{game['id']}/print"):
        assert "Anna 8 ♥, ace ♠, partner Carl, 10 tricks" in text(client.get(url)), url
    csv = client.get(f"/g/{game['id']}/hands.csv").data.decode("utf-8-sig").splitlines()
    assert csv[0].split(",")[9] == "ace" and csv[1].split(",")[9] == "♠"  # as the sheet prints it (issue 44)


BAD_BIDS = [
    ({"bidder": 1, "bid": 6, "suffix": "plain"}, "bid", {}),
    ({"bidder": 1, "bid": "grand"}, "bid", {}),
    ({"bidder": 1, "bid": 7, "suffix": "plain"}, "bid", {"house": QUARTER_CARD}),  # the card has no 7
    ({"bidder": 1, "bid": "ren_sol"}, "bid", {"house": QUARTER_CARD}),  # nor a ren sol
    ({"bidder": 1, "bid": 8, "suffix": "vip2"}, "suffix", {}),  # not in the standard house
    ({"bidder": 1, "bid": 8, "suffix": "gode", "trump": "hearts"}, "trump", {}),
    ({"bidder": 1, "bid": 8, "suffix": "plain", "trump": "none"}, "trump", {}),
    ({"bidder": 1, "bid": "sol", "partner": 2}, "partner", {}),
    ({"bidder": 1, "bid": 8, "partner": 0}, "partner", {"players": FIVE}),  # the dealer sits out
    ({"bidder": 1, "bid": "sol", "ace": "hearts"}, "ace", {}),
    ({"bidder": 1, "bid": 8, "ace": "none"}, "ace", {}),
    ({"bidder": 1, "bid": 8, "ace": "joker"}, "ace", {}),
    ({"bidder": 4, "bid": 8}, "bidder", {}),
    ({"bidder": 0, "bid": 8}, "bidder", {"players": FIVE}),
    ({"bid": 8}, "bidder", {}),
    ({"bidder": 1, "bid": "sol", "with": [{"seat": 2}]}, "with", {}),  # no gå med in this house
    ({"bidder": 1, "bid": 8, "with": [{"seat": 2}]}, "with", {"preset": "sol_join_independent"}),
    ({"bidder": 1, "bid": "sol", "with": [{"seat": 1}]}, "with", {"preset": "sol_join_independent"}),
    ({"bidder": 1, "bid": "sol", "with": [{"seat": 2}, {"seat": 2}]}, "with", {"preset": "sol_join_independent"}),
    ({"bidder": 1, "bid": "sol", "with": [{"seat": 0}]}, "with", {"preset": "sol_join_independent", "players": FIVE}),
    ({"bidder": 1, "bid": "sol", "with": [{"seat": 2, "tricks": 1}]}, "with", {"preset": "sol_join_independent"}),
    ({"bidder": 1, "bid": 8, "tricks": 9}, "tricks", {}),
    ({"passed": True}, "passed", {}),
    ({"iron_hand": 2}, "iron_hand", {"iron_hand": True}),
    ({"bidder": 1, "bid": 8, "called": "hearts"}, "called", {}),
]


@pytest.mark.parametrize("bids, field, setup", BAD_BIDS)
def test_bad_bids_are_refused_in_words_by_their_field_and_nothing_is_stored(client, app, bids, field, setup):
    setup = dict(setup)
    game = new_game(client, setup.pop("players", PLAYERS), **setup)
    before = dump(app.config["DATABASE"])
    r = put_bids(client, game, bids, 400)
    assert field in r.json["errors"], r.json
    message = r.json["errors"][field]
    assert isinstance(message, str) and " " in message and field not in message.split()[:1]
    assert dump(app.config["DATABASE"]) == before
    assert client.get(f"/api/games/{game['id']}/bids").status_code == 404


def test_a_refusal_speaks_the_readers_language(client):
    game = new_game(client)
    r = client.put(
        f"/api/games/{game['id']}/bids",
        json={"bidder": 1, "bid": "sol", "ace": "hearts"},
        headers=key(game, **{"Accept-Language": "da"}),
    )
    assert r.status_code == 400 and r.json["errors"]["ace"] == "en sol kalder intet es: udelad det"


def test_a_finished_game_takes_no_bids(client):
    game = new_game(client, deals=1)
    post_hand(client, game, {"passed": True})
    assert put_bids(client, game, {"bidder": 1, "bid": 8}, 409)


def test_a_change_to_the_hands_must_still_fit_the_bids_of_the_deal_being_played(client, app):
    """Five at the table: Bo deals hand 2 and sits out, Anna bids. Were hand 1 deleted, Anna would deal the deal
    being played and sit out: refused, nothing changed."""
    game = new_game(client, FIVE)
    post_hand(client, game, {"passed": True})
    put_bids(client, game, {"bidder": 0, "bid": 8}, 201)  # hand 2: Bo deals and sits out; Anna bids
    before = dump(app.config["DATABASE"])
    r = client.delete(f"/api/games/{game['id']}/hands/1", headers=key(game))
    assert r.status_code == 400 and "hand 2" in r.json["errors"]["hand"]  # Anna would deal hand 1 and sit out
    assert dump(app.config["DATABASE"]) == before


def test_the_bids_kept_offline_are_sent_as_the_bids_pages_fields(client):
    """A phone without network kept the bids page's fields (one name per gå med box), read by the same form."""
    game = new_game(client, preset="sol_join_independent")
    client.get(game["edit_page"])
    page = client.get(f"/g/{game['id']}/bids").get_data(as_text=True)
    r = client.put(
        f"/api/games/{game['id']}/bids",
        json={"form": {"bidder": "2", "bid": "sol", "joined_0": "y", "joined_3": "y"}},
        headers={"X-CSRFToken": fields_csrf(page), "X-Hand-Number": "1", "Idempotency-Key": "form:dk1"},
    )
    assert r.status_code == 201, r.json
    assert r.json["open_deal"]["input"] == {"bidder": 2, "bid": "sol", "with": [{"seat": 0}, {"seat": 3}]}
    r = client.put(
        f"/api/games/{game['id']}/bids",
        json={"form": {"bidder": "1", "bid": "9-gode", "ace": "hearts", "partner": "self"}},
        headers={"X-CSRFToken": fields_csrf(page), "X-Hand-Number": "1", "Idempotency-Key": "form:dk2"},
    )
    assert r.status_code == 200, r.json
    assert r.json["open_deal"]["input"] == {
        "bidder": 1,
        "bid": 9,
        "suffix": "gode",
        "trump": "clubs",
        "ace": "hearts",
        "partner": 1,
    }


def fields_csrf(page: str) -> str:
    return re.search(r'id="csrf_token" name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)


# ---------------------------------------------------------------- the pages


def test_the_bids_on_one_phone_shown_on_another_then_the_tricks_in_one_tap(app):
    game = new_game(app.test_client())
    table, viewer = app.test_client(), app.test_client()
    table.get(game["edit_page"])
    assert 'id="enter-bids"' in table.get(f"/g/{game['id']}").get_data(as_text=True)
    html = table.get(f"/g/{game['id']}/bids").get_data(as_text=True)
    assert 'data-kind="bids"' in html and 'name="ace"' in html and 'name="partner"' in html
    assert 'name="tricks"' not in html and 'name="passed"' not in html and 'name="iron_hand"' not in html
    r = table.post(f"/g/{game['id']}/bids", data={**fields(html), "bidder": "1", "ace": "hearts"})
    assert r.status_code == 400 and "is missing: a number of tricks from 7 to 13, or a sol bid" in text(r)
    assert 'id="bidder-1" value="1" checked' in r.get_data(as_text=True)  # the taps kept
    # After the auction: Bo 9 gode, the ace of hearts called; the partner not known yet.
    r = table.post(f"/g/{game['id']}/bids", data={**fields(html), "bidder": "1", "bid": "9-gode", "ace": "hearts"})
    assert r.status_code == 302
    seen = text(viewer.get(f"/g/{game['id']}"))
    assert "Hand 1 is being played" in seen and "Bo 9 gode ♣, ace ♥" in seen and "Bo leads" in seen
    # The ace has shown: Dina holds it.
    html = table.get(f"/g/{game['id']}/bids").get_data(as_text=True)
    assert 'id="ace-hearts" value="hearts" checked' in html and 'id="bid-9-gode" value="9-gode" checked' in html
    assert table.post(f"/g/{game['id']}/bids", data={**form_data(html), "partner": "3"}).status_code == 302
    assert "Bo 9 gode ♣, ace ♥, partner Dina" in text(viewer.get(f"/g/{game['id']}"))
    # The hand form opens with it all filled in: one tap for the tricks, and save.
    form = table.get(f"/g/{game['id']}/hands/new").get_data(as_text=True)
    assert 'id="partner-3" value="3" checked' in form and 'id="trump-clubs" value="clubs" checked' in form
    r = table.post(f"/g/{game['id']}/hands/new", data={**form_data(form), "tricks": "10"})
    assert r.status_code == 302
    seen = text(viewer.get(f"/g/{game['id']}"))
    assert "being played" not in seen and "Bo 9 gode ♣, ace ♥, partner Dina, 10 tricks" in seen
    got = viewer.get(f"/api/games/{game['id']}").json["hands"][0]
    whole = new_game(app.test_client())
    expected = post_hand(app.test_client(), whole, got["input"])
    assert got["points"] == expected["points"] == [-160, 160, -160, 160]


def test_a_sol_with_gaa_med_bids_first_asks_each_players_tricks(app):
    game = new_game(app.test_client(), preset="sol_join_independent")
    table, viewer = app.test_client(), app.test_client()
    table.get(game["edit_page"])
    html = table.get(f"/g/{game['id']}/bids").get_data(as_text=True)
    r = table.post(f"/g/{game['id']}/bids", data={**fields(html), "bidder": "2", "bid": "sol", "joined_0": "y"})
    assert r.status_code == 302
    assert "Carl sol; Anna goes with it (gå med)" in text(viewer.get(f"/g/{game['id']}"))
    form = table.get(f"/g/{game['id']}/hands/new").get_data(as_text=True)
    assert 'id="joined-0" value="y" checked' in form
    r = table.post(f"/g/{game['id']}/hands/new", data={**form_data(form), "tricks": "1"})
    assert r.status_code == 400 and "how many tricks this other player of the sol took" in text(r)
    r = table.post(f"/g/{game['id']}/hands/new", data={**form_data(form), "tricks": "1", "with_0": "2"})
    assert r.status_code == 302
    got = viewer.get(f"/api/games/{game['id']}").json["hands"][0]
    assert got["input"] == {"bidder": 2, "bid": "sol", "tricks": 1, "with": [{"seat": 0, "tricks": 2}]}
    # Editing it keeps the gå med player's tricks.
    form = table.get(f"/g/{game['id']}/hands/1").get_data(as_text=True)
    assert re.search(r'name="with_0">.*?<option value="2" selected>', form, re.S)


def test_the_clubs_own_names_in_the_deal_in_progress(client):
    """A club card's own name of its sol bid (option card_names) on the protokoll while the deal is played."""
    card = grid.Grid(
        columns=(grid.Column("almindelig", ("plain",)), grid.Column("sans, gode", ("sans", "gode"))),
        levels=(8, 9, 10, 11, 12, 13),
        values={n: (n - 7, 2 * (n - 7)) for n in range(8, 14)},
        made="over",
        lost="per_trick",
    )
    house = model.merged(
        danish.build_house({}),
        grid.house_parts(card) | {"sol": {"bordlaegger": {"max_tricks": 1, "won": 14, "lost": 14}}},
    )
    game = new_game(
        client,
        ["Inger", "Grethe", "Poul", "Erik"],
        house=model.check_house(house),
        card_names=grid.names_of(card, {"bordlaegger": "stor bordlægger"}),
    )
    put_bids(client, game, {"bidder": 1, "bid": "bordlaegger"}, 201)
    assert "Grethe stor bordlægger" in text(client.get(f"/g/{game['id']}?lang=da"))


def test_the_deal_in_progress_speaks_the_readers_language(client):
    game = new_game(client)
    put_bids(client, game, {"bidder": 1, "bid": 8, "suffix": "plain", "trump": "spades", "ace": "hearts", "partner": 1})
    seen = text(client.get(f"/g/{game['id']}?lang=da"))
    assert "Bo 8 ♠, es ♥, alene (selvmakker)" in seen, seen
