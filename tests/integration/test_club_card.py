"""Issue 23: the club's own tariff card, entered by its treasurer through fields (no JSON), previews that are free,
presets that only fill the fields, and every word and printed number drawn from the house that scores.

Each finding of the issue is a test here that failed on the main of issue 22 and 26 (b00b5fe).
"""

import io
import re

import pytest

from helpers import PASSWORD, dump, form_data, token
from scorekeeper import create_app
from scorekeeper.clubs import service as club_service
from scorekeeper.games import service
from scorekeeper.variants.danish import rules as danish

PLAYERS = ["Anna", "Bo", "Carl", "Dina"]
# The issue's club card: trick values 10/20/40/60/80/200/400, a lost bid pays double, every suffix doubles,
# sol 3/6/12/24 (lost: double), 0.50 kr a point, 100 kr evening fee, gå med.
CARD_TARIFF = [10, 20, 40, 60, 80, 200, 400]
CARD_SOL = {"sol": 3, "ren_sol": 6, "bordlaegger": 12, "ren_bordlaegger": 24}


def limited(db_path, **limits):
    return create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "t", "RATELIMIT_ENABLED": True, **limits})


def preview_target(html: str, page_url: str) -> str:
    """Where the page's Preview button sends the form: its formaction, else the form's own address."""
    button = re.search(r"<button[^>]*id=\"preview\"[^>]*>", html).group(0)
    target = re.search(r'formaction="([^"]*)"', button)
    return (target.group(1) if target else page_url).split("#")[0]


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def head_rules(html: str) -> str:
    """The words of a page's house rules (the sheet head's dl.rules, the club page's dl.house-rules)."""
    found = re.search(r'<dl class="(?:rules|house-rules)"[^>]*>(.*?)</dl>', html, re.S)
    return text_of(found.group(1))


def matrix_cell(html: str, bid: str, tricks: int) -> str:
    """The printed matrix's cell of a bid's row (by its label) and a number of tricks."""
    table = re.search(r'<table class="matrix">(.*?)</table>', html, re.S).group(1)
    for row in re.findall(r"<tr>(.*?)</tr>", table, re.S):
        head = re.search(r"<th[^>]*>(.*?)</th>", row, re.S)
        if head and text_of(head.group(1)).strip() == bid:
            return text_of(re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)[tricks]).strip()
    raise AssertionError(f"no row {bid}")


# ---------------------------------------------------------------- finding 3: one source of truth


def test_the_words_the_sheet_head_and_the_matrix_are_the_house_that_scores(client, db):
    """Finding 3: options whose shorthand says 500 for a 13 bid while the house (which scores) says 400 — what the old
    club form stored after an edit — printed 500 in the words and 400 in the matrix, and scored 400."""
    house = danish.build_house({"tariff": CARD_TARIFF, "house": {"gaa_med": "independent"}})
    options = {"tariff": CARD_TARIFF[:-1] + [500], "house": house}
    r = client.post("/api/games", json={"variant": "danish", "players": PLAYERS, "options": options})
    game, key = r.json["id"], r.json["edit_key"]
    r = client.post(
        f"/api/games/{game}/hands",
        headers={"X-Edit-Key": key},
        json={"bidder": 0, "bid": 13, "suffix": "plain", "trump": "hearts", "partner": 2, "tricks": 13},
    )
    assert r.json["points"] == [400, -400, 400, -400]
    for url in (f"/g/{game}/print", f"/g/{game}/blank", f"/g/{game}"):
        html = client.get(url).get_data(as_text=True)
        words = head_rules(html)
        assert "400" in words and "500" not in words, (url, words)
    sheet = client.get(f"/g/{game}/print").get_data(as_text=True)
    assert matrix_cell(sheet, "13", 13) == "400"
    club_id = club_service.create_club(
        db, {"name": "Kortklubben", "currency": "DKK", "variant": "danish", "options": options, "password": PASSWORD}
    )
    page = client.get(f"/c/{club_id}").get_data(as_text=True)
    assert "500" not in head_rules(page) and "400" in head_rules(page)
    assert matrix_cell(page, "13", 13) == "400"


# ---------------------------------------------------------------- finding 4: previews are free


@pytest.mark.parametrize("url", ["/clubs/new", "/new/danish"])
def test_a_preview_writes_nothing_and_is_never_rate_limited(db_path, url):
    """Finding 4: the 6th "Vis tabellen" in a minute on /clubs/new was a 429 that lost the form. A preview writes
    nothing, so it counts against no limit (the limits of new clubs and games set low here to show it)."""
    app = limited(db_path, LIMIT_NEW_CLUBS="2 per minute", LIMIT_NEW_GAMES="2 per minute")
    client = app.test_client()
    page = client.get(url + "?lang=da").get_data(as_text=True)
    data = form_data(page) | {"name": "Kortklubben", "password": PASSWORD, "password2": PASSWORD, "preview": "1"}
    data |= {f"player{i}": name for i, name in enumerate(PLAYERS)}
    target = preview_target(page, url)
    before = dump(db_path)
    for _ in range(7):
        r = client.post(target + ("&" if "?" in target else "?") + "lang=da", data=data)
        assert r.status_code == 200, r.status_code
        assert 'class="matrix"' in r.get_data(as_text=True)
    assert dump(db_path) == before
    data.pop("preview")
    assert client.post(url, data=data).status_code == 302  # and the save is still the first of its kind


def test_a_rate_limit_says_how_long_to_wait(db_path):
    """Finding 4: after the hour's budget the 429 carried Retry-After: 2213 and still said "Wait a minute"."""
    app = limited(db_path, LIMIT_NEW_CLUBS="100 per minute; 2 per hour")
    client = app.test_client()
    data = {"csrf_token": token(client, "/clubs/new"), "name": "K", "currency": "DKK", "password": PASSWORD}
    data["password2"] = PASSWORD
    for _ in range(2):
        assert client.post("/clubs/new", data=data).status_code == 302
    r = client.post("/clubs/new?lang=en", data=data)
    assert r.status_code == 429
    wait = int(r.headers["Retry-After"])
    assert wait > 3000
    text = text_of(r.get_data(as_text=True))
    assert "Wait a minute" not in text
    assert f"{round(wait / 60)} minutes" in text, text


# ---------------------------------------------------------------- the card entered through its fields


def card_fields(tariff=CARD_TARIFF, sol=CARD_SOL) -> dict:
    """The issue's card as a treasurer types it: two columns (plain | the suffixes, double), a value per square, made
    = the value and the value per trick over, lost = the value doubled; sol won and lost double."""
    out = {"card.columns": "2", "card.low": "7", "card.high": "13", "card.made": "over", "card.lost": "double"}
    out |= {"card.col.0.plain": "y"} | {f"card.col.1.{s}": "y" for s in ("vip", "gode", "sans", "halve")}
    for n, value in zip(range(7, 14), tariff):
        out |= {f"card.cell.{n}.0": str(value), f"card.cell.{n}.1": str(2 * value)}
    for bid, value in sol.items():
        out |= {f"card.sol.{bid}.won": str(value), f"card.sol.{bid}.lost": str(2 * value)}
    return out | {"card.gaa_med": "independent"}


def page_form(client, url: str) -> dict:
    return form_data(client.get(url).get_data(as_text=True))


def club_form(client, url="/clubs/new", **more) -> dict:
    data = page_form(client, url) | {"name": "Kortklubben", "password": PASSWORD, "password2": PASSWORD}
    return data | {"opt_rate": "0,50", "evening_fee": "100", "evening_settlement": "kitty"} | more


def game_form(client, **more) -> dict:
    return page_form(client, "/new/danish") | {f"player{i}": name for i, name in enumerate(PLAYERS)} | more


def saved_club(client, db, data) -> str:
    r = client.post("/clubs/new", data=data)
    assert r.status_code == 302, text_of(r.get_data(as_text=True))[:2000]
    return r.location.rsplit("/", 1)[-1]


def saved_game_options(client, data) -> dict:
    r = client.post("/new/danish", data=data)
    assert r.status_code == 302, text_of(r.get_data(as_text=True))[:2000]
    return client.get(f"/api/games/{r.location.rsplit('/', 1)[-1]}").json["options"]


def test_the_issues_card_through_the_fields_alone(client, db):
    """Finding 1: gå med together with the club's own numbers needed JSON ({"gaa_med": "independent"} in a box whose
    help said "as data (RULES.md)"). Now every value is a field, gå med a choice in words."""
    page = client.get("/clubs/new?lang=da").get_data(as_text=True)
    assert re.search(r'<input type="radio" name="card.gaa_med" id="[^"]*" value="independent">', page)
    words = text_of(re.sub(r"(?is)<(textarea|template)\b.*?</\1>", " ", page))
    assert "Ja: hver solspiller afregner med alle tre andre" in words
    for raw in ("independent", "vs_non_participants", "winners_pool", "RULES.md", "JSON"):
        assert raw not in words, raw
    club_id = saved_club(client, db, club_form(client) | card_fields())
    club = club_service.get_club(db, club_id)
    house = club.options["house"]
    assert [house["levels"][str(n)]["made"] for n in range(7, 14)] == CARD_TARIFF
    assert house["levels"]["13"]["lost"] == 800 and house["gaa_med"] == "independent"
    assert {bid: house["sol"][bid]["won"] for bid in CARD_SOL} == CARD_SOL and club.options["rate"] == 0.5
    assert club.options["tariff"] == CARD_TARIFF  # the shorthands say what the house says, not another tariff


def test_errors_are_in_words_beside_their_field(client):
    """Finding 1: errors were raw keys at the top ("skal være en af independent, vs_non_participants …") and a phone's
    curly quotes gave "Skriv bordets takst som JSON". Now each is in words, in the reader's language, by its field."""
    data = club_form(client, **{"card.cell.7.0": "ti", "card.cell.8.1": ""})
    r = client.post("/clubs/new?lang=da", data=data)
    page = r.get_data(as_text=True)
    assert r.status_code == 400
    assert re.search(r'id="card-cell-7-0-error" role="alert">skal være et tal fra 0 til 1000000', page), page
    assert 'id="card-cell-8-1-error" role="alert">udfyld feltet, eller lad kortet begynde ved en højere melding' in page
    assert "2 værdier på kortet skal ses efter" in text_of(page)
    curly = club_form(client, **{"opt_house": "{“gaa_med”: “independent”}"})
    r = client.post("/clubs/new?lang=da", data=curly)
    words = text_of(r.get_data(as_text=True).split('id="card"')[1])
    assert r.status_code == 400 and "kortet som data kunne ikke læses" in words
    assert "JSON" not in words and "independent," not in words
    assert client.get("/clubs").status_code == 200


@pytest.mark.parametrize("where", ["club", "game"])
def test_a_preset_only_fills_the_fields_and_the_page_shows_it(client, db, where):
    """Finding 2: on /clubs/new typed numbers with the gå med preset (or "Standardtakst" left selected) saved
    80/160/320/640 while the boxes showed the typed ones; /new/danish kept them. One rule now, on both pages: the
    fields are what is saved; a preset only fills them when "Fill in the fields" is pressed, and the page shows it."""
    form = club_form if where == "club" else game_form
    typed = form(client) | card_fields() | {"card.gaa_med": "", "card.start": "sol_join_independent"}
    if where == "club":
        house = club_service.get_club(db, saved_club(client, db, typed)).options["house"]
    else:
        house = saved_game_options(client, typed)["house"]
    assert house["levels"]["13"]["made"] == 400 and house["gaa_med"] is None  # a preset chosen, not filled in
    preview = "/clubs/new/preview" if where == "club" else "/new/danish/preview"
    r = client.post(preview, data=typed | {"card.fill": "1"})
    shown = r.get_data(as_text=True)
    assert r.status_code == 200 and "Others may join a sol (gå med), each settles with all" in shown
    filled = form_data(shown) | {"name": "Klub 2", "password": PASSWORD, "password2": PASSWORD}
    assert filled["card.cell.13.0"] == "640" and filled["card.gaa_med"] == "independent"  # the page shows it
    if where == "club":
        house = club_service.get_club(db, saved_club(client, db, filled)).options["house"]
    else:
        house = saved_game_options(client, filled)["house"]
    assert house["levels"]["13"]["made"] == 640 and house["gaa_med"] == "independent"


def test_the_card_says_what_the_clubs_card_says(client):
    """Finding 5 (issue 23), and issue 32: a sol row is named as the club names it (a field, the app's word until then)
    with its own number of tricks, never "in the app: …"; the card's "grundtakst 0,50 kr" is the stake (money),
    never the trick value."""
    page = client.get("/clubs/new?lang=da").get_data(as_text=True)
    sol_html = page.split('id="card-sol"')[1].split("</fieldset>")[0]
    sol = text_of(sol_html)
    assert "i appen" not in sol and "halv bordlægger" not in sol
    placeholders = re.findall(r'name="card\.sol\.(\w+)\.name"[^>]*placeholder="([^"]*)"', sol_html)
    assert placeholders == [
        ("sol", "sol"),
        ("ren_sol", "ren sol"),
        ("bordlaegger", "bordlægger"),
        ("ren_bordlaegger", "ren bordlægger"),
    ]
    words = text_of(page)
    assert "Meldingerne og deres værdier" in words
    stake = text_of(page.split('id="o-rate"')[1].split("</div>")[0])
    # the language review (issue 44): the stake is "indsatsen", what one point is worth; "grundtakst" (a bid's points
    # to a Danish player) is used for neither the money nor the trick value
    assert "Penge pr. point" in stake and "indsatsen: hvad ét point på kortet er værd" in stake
    assert "grundtakst" not in words.lower()


def test_a_card_in_which_nothing_can_be_bid_is_refused_on_the_page(client, db_path):
    """Finding 7, at the club's card: every bid's row emptied."""
    empty = {f"card.col.{i}.{s}": "" for i in range(8) for s in danish.SUFFIXES + danish.EXTRA_SUFFIXES}
    before = dump(db_path)
    r = client.post("/clubs/new?lang=da", data=club_form(client) | empty)
    assert r.status_code == 400 and "sæt flueben ved de påhæng, kolonnen dækker" in text_of(r.get_data(as_text=True))
    assert dump(db_path) == before


# ---------------------------------------------------------------- the evening's defaults, edits, sharing


def test_the_clubs_card_holds_the_evenings_defaults(client, db):
    """Finding 6: every evening started at 0 kr and "Parvis"; forgetting changed who paid whom."""
    club_id = saved_club(client, db, club_form(client) | card_fields())
    assert club_service.get_club(db, club_id).evening_defaults == {"fee_cents": 10000, "settlement": "kitty"}
    page = client.get(f"/c/{club_id}/evenings/new").get_data(as_text=True)
    assert 'id="fee" value="100.00"' in page and 'value="kitty" checked' in page
    r = client.post(f"/c/{club_id}/evenings/new", data=form_data(page))
    evening = club_service.get_evening(db, club_id, int(r.location.rsplit("/", 1)[-1]))
    assert (evening.fee_cents, evening.settlement, evening.rate) == (10000, "kitty", "0.5")
    second = club_service.create_evening(db, club_id, "2026-12-08")  # the service starts from them too
    assert club_service.get_evening(db, club_id, second).fee_cents == 10000
    settings = client.get(f"/c/{club_id}/settings").get_data(as_text=True)
    assert 'id="evening-fee" value="100.00"' in settings


def test_an_edited_card_applies_to_tables_started_afterwards(client, db):
    """Editing the card says so; a table already started keeps its rules, shown on its sheet; the next one scores by
    the new card (finding 3's edit, through the fields)."""
    club_id = saved_club(client, db, club_form(client) | card_fields())
    members = club_service.add_members(db, club_id, PLAYERS)
    evening = club_service.create_evening(db, club_id, "2026-12-01")
    before, key_before, _n = club_service.add_table(db, club_id, evening, members)
    url = f"/c/{club_id}/settings"
    page = client.get(url).get_data(as_text=True)
    assert "A change applies to the tables started from now on" in page
    r = client.post(url, data=form_data(page) | {"card.cell.13.0": "500", "card.cell.13.1": "1000"})
    assert r.status_code == 302
    flashed = client.get(r.location).get_data(as_text=True)
    assert "the tables already started keep the rules they began with" in flashed
    after, key_after, _n = club_service.add_table(db, club_id, evening, members)
    grand = {"bidder": 0, "bid": 13, "suffix": "plain", "trump": "hearts", "partner": 2, "tricks": 13}
    assert service.add_hand(db, before, grand, key_before).points == (400, -400, 400, -400)
    assert service.add_hand(db, after, grand, key_after).points == (500, -500, 500, -500)
    for game, value in ((before, "400"), (after, "500")):
        sheet = client.get(f"/g/{game}/print").get_data(as_text=True)
        assert f"200, {value}" in head_rules(sheet) and matrix_cell(sheet, "13", 13) == value


def test_the_card_is_shared_as_a_file_or_a_link_and_imported_in_one_step(client, db):
    club_id = saved_club(client, db, club_form(client) | card_fields())
    card = client.get(f"/c/{club_id}/card?lang=da")
    page = card.get_data(as_text=True)
    assert card.status_code == 200 and f"/c/{club_id}/card" in page and 'id="card-download"' in page
    assert matrix_cell(page, "13", 13) == "400" and "100,00" in text_of(page)
    assert 'name="card.cell.7.0"' not in page  # the card as text, nothing to type in
    file = client.get(f"/c/{club_id}/card.json")
    assert file.mimetype == "application/json" and "attachment" in file.headers["Content-Disposition"]
    # Another club imports the file in one step: the fields, the stake and the evening's defaults fill in.
    other = client.application.test_client()
    data = club_form(other) | {"opt_rate": "0,05", "evening_fee": "", "card.import": "1"}
    data["card.file"] = (io.BytesIO(file.data), "card.json")
    r = other.post("/clubs/new/preview", data=data, content_type="multipart/form-data")
    shown = r.get_data(as_text=True)
    assert r.status_code == 200 and "Kortklubben" in shown
    filled = form_data(shown) | {"name": "Nabo", "password": PASSWORD, "password2": PASSWORD}
    assert filled["card.cell.13.0"] == "400" and filled["opt_rate"] in ("0.5", "0,5", "0.50")
    assert filled["evening_fee"] == "100.00" and filled["evening_settlement"] == "kitty"
    new = club_service.get_club(db, saved_club(other, db, filled))
    mine = club_service.get_club(db, club_id)
    assert new.options["house"] == mine.options["house"] and new.evening_defaults == mine.evening_defaults
    # A table (or a club) by the card's link: the fields open filled.
    game = client.get(f"/new/danish?card={club_id}").get_data(as_text=True)
    assert form_data(game)["card.cell.13.0"] == "400" and form_data(game)["card.gaa_med"] == "independent"
    blank = re.search(r'id="card-blank" href="([^"]+)"', page).group(1).replace("&amp;", "&")
    sheet = client.get(blank).get_data(as_text=True)
    assert matrix_cell(sheet, "13", 13) == "400" and "400" in head_rules(sheet)
    bad = club_form(other) | {"card.import": "1", "card.file": (io.BytesIO(b'{"format": 1}'), "x.json")}
    r = other.post("/clubs/new/preview?lang=da", data=bad, content_type="multipart/form-data")
    assert "denne fil er ikke et takstkort til dansk whist" in r.get_data(as_text=True)


def test_a_field_with_thousands_of_digits_is_refused_by_its_field_and_costs_nothing(client, db_path):
    """Previews are free but bounded: a field is cut to one more than a number may be long."""
    data = game_form(client, **{"card.cell.7.0": "9" * 5000})
    before = dump(db_path)
    r = client.post("/new/danish/tariff", data=data)
    assert r.status_code == 400 and 'data-field="card.cell.7.0"' in r.get_data(as_text=True)
    assert "has too many digits" in r.get_data(as_text=True)
    assert dump(db_path) == before
