"""Every page and every variant's hand form through the Flask test client, with CSRF on."""

import re

import pytest

from helpers import PLAYERS, dump, fields, post_hand, start

TOKEN = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"|name="csrf_token" value="([^"]+)"')


def api_game(client, game_id):
    return client.get(f"/api/games/{game_id}").json


def error_next_to(html: str, field: str) -> str:
    """The error message printed right after the field's buttons."""
    m = re.search(rf'id="f-{field}".*?</fieldset>\s*<p class="error" role="alert"[^>]*>([^<]+)</p>', html, re.S)
    assert m, f"no error next to {field}"
    return m.group(1)


# ------------------------------------------------------------------ pages


def test_home_lists_the_games_on_this_phone(client):
    assert "New game" in client.get("/").get_data(as_text=True)
    gid = start(client, "german", ["Anna", "Bo"])
    post_hand(client, gid, {"tricks": "9"})
    html = client.get("/").get_data(as_text=True)
    assert f"/g/{gid}" in html and "German whist" in html and "Anna" in html and "<b>3</b>" in html


def test_choose_variant_lists_all_five_with_a_line_each(client):
    html = client.get("/new").get_data(as_text=True)
    for variant in ("classic", "norwegian", "danish", "german", "swedish"):
        assert f'href="/new/{variant}"' in html
    assert "Es-makker whist" in html


@pytest.mark.parametrize(
    "variant,inputs", [("classic", 4), ("norwegian", 4), ("danish", 5), ("german", 2), ("swedish", 4)]
)
def test_new_game_page_has_players_and_every_option_with_its_default(client, variant, inputs):
    from scorekeeper.core import VARIANTS
    from scorekeeper.variants.views import VIEWS

    html = client.get(f"/new/{variant}").get_data(as_text=True)
    assert len(re.findall(r'name="player\d"', html)) == inputs
    drawn = {name for editor in VIEWS[variant].OPTION_EDITORS.values() for name in editor.covers}
    for name, opt in VARIANTS[variant].OPTIONS.items():
        if name in drawn:  # an option editor's fields draw it (the Danish tariff card)
            continue
        assert f'name="opt_{name}"' in html
        assert opt.help.split("(")[0][:20].replace("'", "&#39;") in html
    for editor in VIEWS[variant].OPTION_EDITORS.values():
        assert f'name="{editor.mark}"' in html


@pytest.mark.parametrize("variant", ["solo", "bid"])
@pytest.mark.parametrize("lang, currency", [("da", "DKK"), ("nb", "NOK"), ("sv", "SEK"), ("en", "GBP")])
def test_a_new_game_preselects_the_currency_of_the_pages_language(client, db_path, variant, lang, currency):
    """Issue 33: Solo and Bid whist preselected SEK whatever the language; the game started as the form came keeps it."""
    client.get(f"/lang/{lang}")
    html = client.get(f"/new/{variant}").get_data(as_text=True)
    select = re.search(r'<select name="opt_currency">(.*?)</select>', html, re.S).group(1)
    assert re.findall(r'<option value="(\w+)" selected>', select) == [currency]
    game_id = start(client, variant)
    assert client.get(f"/api/games/{game_id}").json["options"]["currency"] == currency


@pytest.mark.parametrize("variant, currency", [("danish", "DKK"), ("norwegian", "NOK"), ("swedish", "SEK")])
def test_a_countrys_own_whist_keeps_its_currency_on_any_page(client, variant, currency):
    for lang in ("da", "nb", "sv", "en"):
        client.get(f"/lang/{lang}")
        html = client.get(f"/new/{variant}").get_data(as_text=True)
        select = re.search(r'<select name="opt_currency">(.*?)</select>', html, re.S).group(1)
        assert re.findall(r'<option value="(\w+)" selected>', select) == [currency], lang


def test_new_game_with_house_rules(client):
    gid = start(client, "classic", honours="y", target="7", revoke_penalty="2")
    options = api_game(client, gid)["options"]
    assert options["honours"] is True and options["target"] == 7 and options["revoke_penalty"] == 2
    card = {f"card.cell.{n}.{i}": str(v * (i + 1)) for n, v in zip(range(7, 14), range(1, 8)) for i in (0, 1)}
    gid = start(client, "danish", ["A", "B", "C", "D", "E"], rate="0,25", **card)
    game = api_game(client, gid)
    assert game["options"]["rate"] == 0.25 and game["options"]["tariff"] == [1, 2, 3, 4, 5, 6, 7]
    assert game["options"]["house"]["levels"]["13"] == {"made": 7, "over": 7, "lost": 14, "short": 0}
    assert len(game["players"]) == 5


@pytest.mark.parametrize(
    "change,message",
    [
        ({"player3": ""}, "takes 4 players"),
        ({"player3": "anna"}, "same name"),
        ({"player3": "<script>x</script>"}, "may not contain"),
        ({"opt_target": "0"}, "from 1 to 30"),
        ({"opt_target": "five"}, "whole number"),
    ],
)
def test_new_game_errors_are_shown_and_nothing_stored(client, db_path, change, message):
    page = client.get("/new/classic").get_data(as_text=True)
    data = {**fields(page), "dealer": "0", **{f"player{i}": n for i, n in enumerate(PLAYERS["classic"])}, **change}
    before = dump(db_path)
    r = client.post("/new/classic", data=data)
    assert r.status_code == 400
    assert message in r.get_data(as_text=True)
    assert dump(db_path) == before


def test_protokoll_shows_rows_totals_and_next_dealer(client):
    gid = start(client, "danish")
    post_hand(client, gid, {"bidder": "1", "bid": "9-gode", "partner": "3", "tricks": "10"})
    html = client.get(f"/g/{gid}").get_data(as_text=True)
    assert "Bo 9 gode ♣, partner Dina, 10 tricks" in html
    assert html.count('<td class="sum">0</td>') == 1
    assert "<b>Bo</b> deals" in html and "Enter hand 2" in html
    assert "+160" in html and "−160" in html


def test_read_only_page_shows_no_edit_controls_and_refreshes(client, app):
    gid = start(client, "german", ["Anna", "Bo"])
    other = app.test_client()
    html = other.get(f"/g/{gid}").get_data(as_text=True)
    assert "Enter hand" not in html and 'class="edit' not in html and 'http-equiv="refresh"' in html
    assert other.get(f"/g/{gid}/hands/new").status_code == 403
    assert other.post(f"/g/{gid}/hands/new", data={"tricks": "9"}).status_code in (400, 403)
    assert other.get(f"/g/{gid}/hands/1/delete").status_code == 403


def test_edit_link_gives_the_right_to_edit(client, app):
    r = client.post("/api/games", json={"variant": "german", "players": ["Anna", "Bo"]})
    other = app.test_client()
    assert other.get(r.json["edit_page"]).status_code == 302
    assert "Enter hand 1" in other.get(r.json["links"]["page"]).get_data(as_text=True)
    assert app.test_client().get(r.json["edit_page"][:-3] + "abc").status_code == 403


def test_edit_key_is_not_on_the_read_only_page(client, app):
    r = client.post("/api/games", json={"variant": "german", "players": ["Anna", "Bo"]})
    html = app.test_client().get(r.json["links"]["page"]).get_data(as_text=True)
    assert r.json["edit_key"] not in html


def test_qr_code_is_an_svg_of_the_read_only_link(client):
    gid = start(client, "german", ["Anna", "Bo"])
    r = client.get(f"/g/{gid}/qr.svg")
    assert r.status_code == 200 and r.mimetype == "image/svg+xml" and b"<svg" in r.data


def test_unknown_game_is_404_page(client):
    r = client.get("/g/nothing")
    assert r.status_code == 404 and "Not found" in r.get_data(as_text=True)


def test_language_switch_sets_a_cookie(client):
    r = client.get("/lang/da?next=/new")
    assert r.status_code == 302 and r.headers["Location"].endswith("/new")
    assert "lang=da" in r.headers["Set-Cookie"]
    assert client.get("/lang/da?next=//evil.example").headers["Location"].endswith("/")


# ------------------------------------------------------------------ hand forms, one per variant

GOOD = [
    ("classic", {"trump": "hearts", "tricks": "8"}, [2, 0]),
    ("norwegian", {"bid": "grand-2", "tricks": "5"}, [0, 4]),
    ("norwegian", {"bid": "pass", "tricks": "4"}, [2, 0]),
    ("danish", {"bidder": "0", "bid": "8", "trump": "spades", "partner": "2", "tricks": "10"}, [60, -60, 60, -60]),
    ("danish", {"bidder": "1", "bid": "sol", "tricks": "1"}, [-50, 150, -50, -50]),
    ("danish", {"bidder": "0", "bid": "9-gode", "partner": "self", "tricks": "9"}, [240, -80, -80, -80]),
    ("danish", {"passed": "1"}, [0, 0, 0, 0]),
    ("german", {"tricks": "9"}, [3, 0]),
    ("swedish", {"red": "3", "tricks": "5"}, [0, 2]),
    ("swedish", {"red": "black", "tricks": "4"}, [3, 0]),
]


@pytest.mark.parametrize("variant,data,points", GOOD)
def test_each_variant_form_enters_a_hand(client, variant, data, points):
    gid = start(client, variant)
    html = client.get(f"/g/{gid}/hands/new").get_data(as_text=True)
    assert "Deals:" in html and "Leads:" in html
    post_hand(client, gid, data)
    assert api_game(client, gid)["hands"][0]["points"] == points


BAD = [
    ("classic", {"tricks": "8"}, "trump", "is missing"),
    ("classic", {"trump": "hearts"}, "tricks", "is missing"),
    ("classic", {"trump": "hearts", "tricks": "14"}, "tricks", "from 0 to 13"),
    (
        "classic",
        {"trump": "hearts", "tricks": "8", "revoke_side": "0", "revoke_penalty": "fine"},
        "revoke_penalty",
        "tricks, add or deduct",
    ),
    ("norwegian", {"tricks": "7"}, "bid", "grand or pass"),
    (
        "danish",
        {"bidder": "0", "bid": "8-gode", "trump": "hearts", "partner": "2", "tricks": "8"},
        "trump",
        "clubs are trump",
    ),
    ("danish", {"bidder": "0", "bid": "8", "partner": "2", "tricks": "8"}, "trump", "choose the trump suit"),
    ("danish", {"bidder": "0", "bid": "8", "trump": "hearts", "tricks": "8"}, "partner", "called ace"),
    ("danish", {"bid": "8", "trump": "hearts", "partner": "2", "tricks": "8"}, "bidder", "choose a player"),
    ("danish", {"bidder": "0", "bid": "8", "trump": "hearts", "partner": "2"}, "tricks", "is missing"),
    ("danish", {"bidder": "0", "bid": "6", "trump": "hearts", "partner": "2", "tricks": "8"}, "bid", "7 to 13"),
    ("german", {}, "tricks", "is missing"),
    ("swedish", {"tricks": "6"}, "red", "first red card"),
]


@pytest.mark.parametrize("variant,data,field,message", BAD)
def test_bad_hand_is_shown_next_to_its_field_and_nothing_stored(client, db_path, variant, data, field, message):
    gid = start(client, variant)
    before = dump(db_path)
    r = post_hand(client, gid, data, expect=400)
    assert message in error_next_to(r.get_data(as_text=True), field)
    assert dump(db_path) == before


def test_honours_only_when_the_option_is_on(client):
    gid = start(client, "classic")
    assert 'name="honours"' not in client.get(f"/g/{gid}/hands/new").get_data(as_text=True)
    r = post_hand(client, gid, {"trump": "hearts", "tricks": "8", "honours": "3"}, expect=400)
    assert "not scored in this game" in r.get_data(as_text=True)
    gid = start(client, "classic", honours="y")
    assert 'name="honours"' in client.get(f"/g/{gid}/hands/new").get_data(as_text=True)
    post_hand(client, gid, {"trump": "hearts", "tricks": "8", "honours": "3"})
    assert api_game(client, gid)["totals"] == [4, 0]


def test_revoke_is_tucked_away_until_asked_for(client):
    gid = start(client, "classic")
    html = client.get(f"/g/{gid}/hands/new").get_data(as_text=True)
    assert re.search(r'<details class="revoke">', html)
    post_hand(client, gid, {"trump": "hearts", "tricks": "8", "revoke_side": "1", "revoke_penalty": "tricks"})
    assert api_game(client, gid)["hands"][0]["input"]["revoke"] == {"side": 1, "penalty": "tricks"}


def test_trump_rotation_fills_in_the_trump(client):
    gid = start(client, "classic", deals="8", trump_rotation="y", no_trump_every="4")
    html = client.get(f"/g/{gid}/hands/new").get_data(as_text=True)
    assert 'name="trump"' not in html and "Trump this deal" in html
    post_hand(client, gid, {"tricks": "8"})
    assert api_game(client, gid)["hands"][0]["trump"] == "hearts"


def test_five_danish_players_the_dealer_sits_out(client):
    gid = start(client, "danish", ["A", "B", "C", "D", "E"])
    html = client.get(f"/g/{gid}/hands/new").get_data(as_text=True)
    assert "A deals and sits out" in html and 'id="bidder-0"' not in html
    r = post_hand(
        client, gid, {"bidder": "0", "bid": "8", "trump": "hearts", "partner": "2", "tricks": "8"}, expect=400
    )
    assert "sits out" in error_next_to(r.get_data(as_text=True), "bidder")


def test_danish_bid_buttons_follow_the_ladder(client):
    from scorekeeper.variants.danish import rules as danish

    gid = start(client, "danish")
    html = client.get(f"/g/{gid}/hands/new").get_data(as_text=True)
    values = re.findall(r'name="bid" id="bid-[^"]+" value="([^"]+)"', html)
    expected = [str(b) if s in (None, "plain") else f"{b}-{s}" for b, s in danish.ladder()]
    assert values == expected


def test_a_finished_game_takes_no_more_hands(client):
    gid = start(client, "german", ["Anna", "Bo"])
    post_hand(client, gid, {"tricks": "13"})
    r = client.get(f"/g/{gid}/hands/new")
    assert r.status_code == 302
    assert "Game over: Anna won." in client.get(f"/g/{gid}").get_data(as_text=True)


# ------------------------------------------------------------------ edit, delete, double taps, CSRF


def test_edit_is_prefilled_rescored_and_marked(client):
    gid = start(client, "german", ["Anna", "Bo"])
    post_hand(client, gid, {"tricks": "9"})
    post_hand(client, gid, {"tricks": "5"})
    html = client.get(f"/g/{gid}/hands/1").get_data(as_text=True)
    assert re.search(r'id="tricks-9" value="9" checked', html)
    r = post_hand(client, gid, {"tricks": "10"}, number=1)
    assert "changed=1" in r.headers["Location"]
    assert api_game(client, gid)["totals"] == [4, 2]
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert 'class="hand changed"' in page


def test_delete_asks_first_then_deletes_once(client):
    gid = start(client, "german", ["Anna", "Bo"])
    for tricks in ("9", "5", "8"):
        post_hand(client, gid, {"tricks": tricks})
    page = client.get(f"/g/{gid}/hands/1/delete").get_data(as_text=True)
    assert "Delete hand 1?" in page
    assert len(api_game(client, gid)["hands"]) == 3
    data = fields(page)
    assert client.post(f"/g/{gid}/hands/1/delete", data=data).status_code == 302
    assert client.post(f"/g/{gid}/hands/1/delete", data=data).status_code == 302  # a double tap
    game = api_game(client, gid)
    assert [h["input"]["tricks"] for h in game["hands"]] == [[5, 8], [8, 5]]


def test_a_double_tap_on_save_makes_one_hand(client):
    gid = start(client, "german", ["Anna", "Bo"])
    page = client.get(f"/g/{gid}/hands/new").get_data(as_text=True)
    data = {**fields(page), "tricks": "9"}
    assert client.post(f"/g/{gid}/hands/new", data=data).status_code == 302
    assert client.post(f"/g/{gid}/hands/new", data=data).status_code == 302
    assert len(api_game(client, gid)["hands"]) == 1


def test_two_phones_entering_the_same_hand(client, app):
    gid = start(client, "german", ["Anna", "Bo"])
    page = client.get(f"/g/{gid}/hands/new").get_data(as_text=True)
    second_page = client.get(f"/g/{gid}/hands/new").get_data(as_text=True)
    client.post(f"/g/{gid}/hands/new", data={**fields(page), "tricks": "9"})
    r = client.post(f"/g/{gid}/hands/new", data={**fields(second_page), "tricks": "8"}, follow_redirects=True)
    assert "Someone else just entered hand 1" in r.get_data(as_text=True)
    assert len(api_game(client, gid)["hands"]) == 1


def test_a_form_without_csrf_token_is_refused(client, db_path):
    gid = start(client, "german", ["Anna", "Bo"])
    before = dump(db_path)
    r = client.post(f"/g/{gid}/hands/new", data={"tricks": "9", "number": "1"})
    assert r.status_code == 400
    r = client.post("/new/german", data={"player0": "A", "player1": "B"})
    assert r.status_code == 400
    assert dump(db_path) == before


def test_names_are_escaped(client, app, db_path):
    """Names cannot hold markup, but & and quotes must still come out escaped."""
    gid = start(client, "german", ['Anna "A" & Co', "Bo's"])
    html = client.get(f"/g/{gid}").get_data(as_text=True)
    assert "Anna &#34;A&#34; &amp; Co" in html and "Bo&#39;s" in html


def test_the_protokoll_shows_what_was_changed(client):
    gid = start(client, "german", ["Anna", "Bo"])
    post_hand(client, gid, {"tricks": "9"})
    post_hand(client, gid, {"tricks": "5"})
    post_hand(client, gid, {"tricks": "8"}, number=1)
    page = client.get(f"/g/{gid}/hands/2/delete").get_data(as_text=True)
    client.post(f"/g/{gid}/hands/2/delete", data=fields(page))
    html = client.get(f"/g/{gid}").get_data(as_text=True)
    assert re.search(r"Hand 1 changed [^:]+\d:\d\d[^:]*: 9–4 → 8–5", html)
    assert re.search(r"Hand 2 deleted [^<]+: 5–8", html)
