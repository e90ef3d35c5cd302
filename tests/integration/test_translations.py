"""Every page speaks Danish, Norwegian (bokmål) and Swedish: complete catalogues, the players' words, local formats."""

import re
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from helpers import PLAYERS, post_hand, start

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("da", "nb", "sv")
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]")


def catalog(lang):
    with open(ROOT / "scorekeeper" / "translations" / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
        return read_po(f)


def messages_in_the_code() -> set:
    """What pybabel extract finds with the project's babel.cfg and keywords, extracted afresh."""
    from babel.messages.extract import DEFAULT_KEYWORDS

    keywords = {**DEFAULT_KEYWORDS, "_l": None, "Msg": None}
    method_map = [("scorekeeper/**.py", "python"), ("templates/**.html", "jinja2")]
    found = set()
    for _filename, _lineno, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map=method_map, keywords=keywords
    ):
        found.add(message if isinstance(message, str) else message[0])
    return found


@pytest.fixture(scope="module")
def extracted():
    return messages_in_the_code()


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_has_a_translation(extracted, lang):
    cat = catalog(lang)
    missing, empty, fuzzy, placeholders = [], [], [], []
    for msgid in sorted(extracted):
        message = cat.get(msgid)
        if message is None:
            missing.append(msgid)
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings):
            empty.append(msgid)
        if message.fuzzy:
            fuzzy.append(msgid)
        wanted = set(PLACEHOLDER.findall(msgid))
        if any(
            set(PLACEHOLDER.findall(s)) - wanted or (wanted - set(PLACEHOLDER.findall(s)) and len(strings) == 1)
            for s in strings
        ):
            placeholders.append(msgid)
    assert not missing, f"{lang}: not in the catalogue (run `make messages`): {missing[:5]}"
    assert not empty, f"{lang}: untranslated: {empty[:5]}"
    assert not fuzzy, f"{lang}: fuzzy: {fuzzy[:5]}"
    assert not placeholders, f"{lang}: placeholders differ: {placeholders[:5]}"


def test_the_catalogues_are_compiled_by_the_setup():
    for lang in LANGS:
        po = ROOT / "scorekeeper" / "translations" / lang / "LC_MESSAGES" / "messages.po"
        mo = po.with_suffix(".mo")
        assert mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime - 1, f"run `make catalogs` ({lang})"


# ------------------------------------------------------------------ pages in each language

WORDS = {
    "new_game": {
        "da": ["Spillere", "Husregler", "Start"],
        "nb": ["Spillerne", "Husregler"],
        "sv": ["Spelare", "Husregler"],
    },
    "danish_entry": {
        "da": ["Melder", "Makker", "Trumf", "Gem"],
        "nb": ["Melder", "Makker", "Trumf", "Lagre"],
        "sv": ["Spelförare", "Partner", "Trumf", "Spara"],
    },
    "classic_entry": {"da": ["Trumf", "Stik"], "nb": ["Trumf", "Stikk"], "sv": ["Trumf", "Stick"]},
    "norwegian_entry": {"da": ["Melding"], "nb": ["Melding", "Stikk", "Pass (alle passet)"], "sv": ["Bud", "Stick"]},
    "german_entry": {"da": ["Stik"], "nb": ["Stikk"], "sv": ["Stick"]},
    "swedish_entry": {
        "da": ["Stik"],
        "nb": ["Hvem viste rødt først?", "Alle svarte"],
        "sv": ["Första röda kortet", "Alla svarta"],
    },
}


def in_language(app, lang):
    client = app.test_client()
    client.set_cookie("lang", lang)
    return client


@pytest.mark.parametrize("lang", LANGS)
def test_new_game_page_in_each_language(app, lang):
    html = in_language(app, lang).get("/new/danish").get_data(as_text=True)
    assert f'<html lang="{lang}">' in html
    for word in WORDS["new_game"][lang]:
        assert word in html, (lang, word)
    assert "House rules" not in html and "Players in seating order" not in html


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("variant", ["danish", "classic", "norwegian", "german", "swedish"])
def test_hand_entry_in_each_language(app, lang, variant):
    client = in_language(app, lang)
    gid = start(client, variant)
    html = client.get(f"/g/{gid}/hands/new").get_data(as_text=True)
    for word in WORDS[f"{variant}_entry"][lang]:
        assert word in html, (lang, variant, word)
    assert ">Save<" not in html


def test_the_browser_language_is_used_and_norwegian_means_bokmal(app):
    client = app.test_client()
    assert 'lang="nb"' in client.get("/", headers={"Accept-Language": "no, en;q=0.5"}).get_data(as_text=True)
    assert 'lang="sv"' in client.get("/", headers={"Accept-Language": "sv-SE"}).get_data(as_text=True)
    assert 'lang="en"' in client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    client.set_cookie("lang", "da")
    assert 'lang="da"' in client.get("/", headers={"Accept-Language": "sv"}).get_data(as_text=True)


MONEY = {"da": "3,00\xa0kr.", "nb": "3,00\xa0DKK", "sv": "3,00\xa0Dkr"}  # Danish kroner as each locale writes them


@pytest.mark.parametrize("lang", LANGS)
def test_protokoll_in_each_language_with_local_money_and_dates(app, lang):
    app.config["CLOCK"] = lambda: datetime(2025, 3, 7, 21, 5, tzinfo=UTC)  # the suite passes on any day
    client = in_language(app, lang)
    gid = start(client, "danish", rate="0.05")
    post_hand(client, gid, {"bidder": "0", "bid": "8", "trump": "spades", "partner": "2", "tricks": "10"})
    html = client.get(f"/g/{gid}").get_data(as_text=True)
    assert {"da": "Afregning", "nb": "Oppgjør", "sv": "Avräkning"}[lang] in html
    assert MONEY[lang] in html, lang
    assert {"da": "makker Carl, 10 stik", "nb": "makker Carl, 10 stikk", "sv": "partner Carl, 10 stick"}[lang] in html
    home = client.get("/").get_data(as_text=True)
    assert {"da": "7. mar. 2025", "nb": "7. mars 2025", "sv": "7 mars 2025"}[lang] in home, lang


@pytest.mark.parametrize("lang", LANGS)
def test_form_errors_in_each_language(app, lang):
    client = in_language(app, lang)
    gid = start(client, "german", ["Anna", "Bo"])
    r = post_hand(client, gid, {}, expect=400)
    html = r.get_data(as_text=True)
    assert "is missing" not in html


@pytest.mark.parametrize("lang,word", [("da", "mangler"), ("sv", "saknas"), ("nb", "mangler")])
def test_api_errors_keep_english_keys_and_speak_the_language(client, lang, word):
    game = client.post("/api/games", json={"variant": "german", "players": ["Anna", "Bo"]}).json
    r = client.post(
        f"/api/games/{game['id']}/hands", json={}, headers={"X-Edit-Key": game["edit_key"], "Accept-Language": lang}
    )
    assert r.status_code == 400 and list(r.json["errors"]) == ["tricks"]
    assert word in r.json["errors"]["tricks"].lower(), r.json
    english = client.post(f"/api/games/{game['id']}/hands", json={}, headers={"X-Edit-Key": game["edit_key"]})
    assert english.json["errors"]["tricks"].startswith("is missing")


def pdf_text(data: bytes, tmp_path) -> str:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


def test_a_danish_sheet_prints_in_danish_and_a_swedish_one_in_swedish(client, tmp_path):
    danish = client.post(
        "/api/games",
        json={"variant": "danish", "players": PLAYERS["danish"], "language": "da", "options": {"rate": 0.05}},
    ).json
    client.post(
        f"/api/games/{danish['id']}/hands",
        headers={"X-Edit-Key": danish["edit_key"]},
        json={"bidder": 0, "bid": 8, "trump": "spades", "partner": 2, "tricks": 10},
    )
    text = pdf_text(client.get(f"/g/{danish['id']}/sheet.pdf").data, tmp_path)
    assert "Afregning" in text and "makker Carl, 10 stik" in text and "3,00 kr." in text
    swedish = client.post(
        "/api/games", json={"variant": "swedish", "players": PLAYERS["swedish"], "language": "sv"}
    ).json
    client.post(
        f"/api/games/{swedish['id']}/hands",
        headers={"X-Edit-Key": swedish["edit_key"]},
        json={"red": None, "tricks": [4, 9]},
    )
    text = pdf_text(client.get(f"/g/{swedish['id']}/sheet.pdf").data, tmp_path)
    assert "Alla svarta" in text and "Åsa" in text and "Märta" in text
    # The reader's own language does not change a sheet that names one.
    assert "Alla svarta" in pdf_text(
        client.get(f"/g/{swedish['id']}/sheet.pdf", headers={"Accept-Language": "da"}).data, tmp_path
    )


@pytest.mark.parametrize(
    "lang,words,money",
    [
        ("da", ["Afregning", "betaler"], r"\d+,\d\d\xa0kr\."),
        ("nb", ["betaler"], r"\d+,\d\d\xa0DKK"),
        ("sv", ["betalar"], r"\d+,\d\d\xa0Dkr"),
    ],
)
def test_a_club_evening_result_in_each_language(app, season, lang, words, money):
    client = in_language(app, lang)
    html = client.get(f"/c/{season['club']}/e/{season['evenings'][0]}/result").get_data(as_text=True)
    assert f'<html lang="{lang}">' in html
    for word in words:
        assert word in html, (lang, word)
    assert re.search(money, html), lang
    assert {"da": "8. jan. 2026", "nb": "8. jan. 2026", "sv": "8 jan. 2026"}[lang] in html  # the evening's date


def test_a_club_language_makes_its_tables_print_in_it(app, db_path, client):
    from scorekeeper.clubs import service as club_service
    from scorekeeper.storage import close, connect

    db = connect(db_path)
    try:
        with app.test_request_context():
            club_id = club_service.create_club(
                db,
                {
                    "name": "Sparklubben",
                    "currency": "DKK",
                    "variant": "danish",
                    "language": "da",
                    "options": {"rate": "0.05"},
                    "password": "hemmeligt ord",
                },
            )
            members = [club_service.add_member(db, club_id, n) for n in PLAYERS["danish"]]
            evening_id = club_service.create_evening(db, club_id, "2026-11-26", None, "pairwise")
            game_id, _key, _n = club_service.add_table(db, club_id, evening_id, members)
    finally:
        close(db)
    html = client.get(f"/g/{game_id}/print", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert 'lang="da"' in html and "Første giver" in html
    assert client.get(f"/api/games/{game_id}").json["language"] == "da"
