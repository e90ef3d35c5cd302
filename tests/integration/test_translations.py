"""Every page speaks Danish, Norwegian (bokmål) and Swedish: complete catalogues, the players' words, local formats."""

import re
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest
from catalogues import LANGS, MESSAGES, app_packages, plug_in_packages, read

from helpers import PLAYERS, post_hand, start

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]")
# Every package of words: the shared one, each built-in variant's, and each installed plug-in's (the example's too).
PACKAGES = {package.name: package for package in [*app_packages(), *plug_in_packages()]}


@pytest.fixture(scope="module")
def extracted():
    """What each package's files say, extracted afresh as `make messages` does: name → msgids."""
    return {
        name: {m.id if isinstance(m.id, str) else m.id[0] for m in MESSAGES.messages_of(package) if m.id}
        for name, package in PACKAGES.items()
    }


def test_every_package_of_words_is_checked():
    assert {"shared", "danish", "swedish", "scorekeeper_israeli"} <= set(PACKAGES)
    assert all((package.folder / "messages.pot").is_file() for package in PACKAGES.values())


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_every_message_has_a_translation(extracted, package, lang):
    cat = read(PACKAGES[package].po(lang), lang)
    missing, empty, fuzzy, placeholders = [], [], [], []
    for msgid in sorted(extracted[package]):
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
    where = PACKAGES[package].folder.relative_to(ROOT) if PACKAGES[package].folder.is_relative_to(ROOT) else package
    assert not missing, f"{where} {lang}: not in the catalogue (run `make messages`): {missing[:5]}"
    assert not empty, f"{where} {lang}: untranslated: {empty[:5]}"
    assert not fuzzy, f"{where} {lang}: fuzzy: {fuzzy[:5]}"
    assert not placeholders, f"{where} {lang}: placeholders differ: {placeholders[:5]}"


@pytest.mark.parametrize("lang", LANGS)
def test_a_catalogue_holds_what_its_files_say_and_a_word_two_hold_is_translated_alike(extracted, lang):
    """The shared catalogue holds the shared files' words, each variant's its own package's (no leftovers: a word
    moved keeps no entry behind); where two catalogues hold a word (both use it), they translate it the same, since
    Flask-Babel merges them all into one and the shared one would win."""
    seen: dict = {}
    for package in app_packages():
        cat = read(package.po(lang), lang)
        held = {m.id if isinstance(m.id, str) else m.id[0]: m.string for m in cat if m.id}
        assert set(held) == extracted[package.name], f"{package.folder.relative_to(ROOT)}: run `make messages`"
        for msgid, string in held.items():
            first = seen.setdefault(msgid, (package.name, string))
            assert first[1] == string, f"{lang} {msgid!r}: {first[0]} says {first[1]!r}, {package.name} {string!r}"


def test_the_catalogues_are_compiled_by_the_setup():
    for package in app_packages():
        for lang in LANGS:
            po = package.po(lang)
            mo = po.with_suffix(".mo")
            assert mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime - 1, f"run `make catalogs` ({po})"


def test_make_messages_on_an_unchanged_tree_changes_no_file():
    """`make messages` is scripts/messages.py: run over the checkout as it is, it has nothing to write."""
    assert [str(p.relative_to(ROOT)) for p in MESSAGES.changes(MESSAGES.plan(ROOT))] == []


# ------------------------------------------------------------------ make messages carries a translation

BABEL_CFG = (ROOT / "babel.cfg").read_text(encoding="utf-8")
HEADER = """msgid ""
msgstr ""
"Language: {lang}\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"
"Content-Type: text/plain; charset=utf-8\\n"

"""


def _tree(tmp_path, shared: str, own: str) -> Path:
    """A checkout in small: babel.cfg, a shared module, a variant `toy` (its rules and view) and a shared template,
    with shared catalogues that translate every word (as before a split: the variant has none of its own yet)."""
    (tmp_path / "babel.cfg").write_text(BABEL_CFG, encoding="utf-8")
    (tmp_path / "scorekeeper" / "variants" / "toy" / "templates").mkdir(parents=True)
    (tmp_path / "templates").mkdir()
    (tmp_path / "scorekeeper" / "shared.py").write_text(shared, encoding="utf-8")
    (tmp_path / "scorekeeper" / "variants" / "view_shared.py").write_text('_("Helper")\n', encoding="utf-8")
    (tmp_path / "scorekeeper" / "variants" / "toy" / "rules.py").write_text('Msg("Toy rule")\n', encoding="utf-8")
    (tmp_path / "scorekeeper" / "variants" / "toy" / "view.py").write_text(own, encoding="utf-8")
    (tmp_path / "scorekeeper" / "variants" / "toy" / "templates" / "hand.html").write_text(
        '{{ _("Toy page") }}', encoding="utf-8"
    )
    (tmp_path / "templates" / "base.html").write_text('{{ ngettext("%(num)d hand", "%(num)d hands", n) }}')
    words = {"Helper": "Hjælper", "Toy rule": "Legetøjsregel", "Toy page": "Legetøjsside", "Moving": "Flytter"}
    for lang in LANGS:
        folder = tmp_path / "scorekeeper" / "translations" / lang / "LC_MESSAGES"
        folder.mkdir(parents=True)
        entries = "".join(f'msgid "{k}"\nmsgstr "{v} {lang}"\n\n' for k, v in words.items())
        entries += '#, python-format\nmsgid "%(num)d hand"\nmsgid_plural "%(num)d hands"\n'
        entries += f'msgstr[0] "%(num)d spil {lang}"\nmsgstr[1] "%(num)d spil {lang}"\n'
        (folder / "messages.po").write_text(HEADER.format(lang=lang) + entries, encoding="utf-8")
    return tmp_path


def _strings(root: Path, where: str, lang: str) -> dict:
    path = root / where / "translations" / lang / "LC_MESSAGES" / "messages.po"
    cat = read(path, lang)
    return {m.id if isinstance(m.id, str) else m.id[0]: m.string for m in cat if m.id}


def test_make_messages_splits_moves_and_keeps_every_translation(tmp_path):
    root = _tree(tmp_path, '_("Moving")\n', '_("Toy view")\n')
    written = MESSAGES.write(MESSAGES.plan(root))
    assert len(written) == 8  # the shared template and catalogues rewritten; the variant's made
    for lang in LANGS:
        shared, toy = _strings(root, "scorekeeper", lang), _strings(root, "scorekeeper/variants/toy", lang)
        assert shared == {
            "Helper": f"Hjælper {lang}",
            "Moving": f"Flytter {lang}",
            "%(num)d hand": (f"%(num)d spil {lang}", f"%(num)d spil {lang}"),
        }
        assert toy == {"Toy rule": f"Legetøjsregel {lang}", "Toy page": f"Legetøjsside {lang}", "Toy view": ""}
    assert "#~" not in (root / "scorekeeper/translations/da/LC_MESSAGES/messages.po").read_text(encoding="utf-8")
    pot = (root / "scorekeeper/variants/toy/translations/messages.pot").read_bytes()

    # A run that finds nothing new changes nothing, not even a date.
    assert MESSAGES.changes(MESSAGES.plan(root, now=datetime(2030, 1, 1, tzinfo=UTC))) == []

    # "Moving" moves from the shared module into the variant's view, then back: it keeps its words both ways.
    (root / "scorekeeper" / "shared.py").write_text("", encoding="utf-8")
    (root / "scorekeeper" / "variants" / "toy" / "view.py").write_text('_("Toy view")\n_("Moving")\n')
    MESSAGES.write(MESSAGES.plan(root))
    for lang in LANGS:
        assert "Moving" not in _strings(root, "scorekeeper", lang)
        assert _strings(root, "scorekeeper/variants/toy", lang)["Moving"] == f"Flytter {lang}"
    assert (root / "scorekeeper/variants/toy/translations/messages.pot").read_bytes() != pot
    (root / "scorekeeper" / "shared.py").write_text('_("Moving")\n', encoding="utf-8")
    (root / "scorekeeper" / "variants" / "toy" / "view.py").write_text('_("Toy view")\n')
    MESSAGES.write(MESSAGES.plan(root))
    for lang in LANGS:
        assert _strings(root, "scorekeeper", lang)["Moving"] == f"Flytter {lang}"
        assert "Moving" not in _strings(root, "scorekeeper/variants/toy", lang)
        text = (root / "scorekeeper/variants/toy/translations" / lang / "LC_MESSAGES/messages.po").read_text("utf-8")
        assert "#~" not in text  # the word moved on: no obsolete copy left behind
    assert MESSAGES.changes(MESSAGES.plan(root)) == []


def test_make_messages_runs_the_script():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "$(PY) scripts/messages.py" in makefile.split("\nmessages:", 1)[1].split("\n\n", 1)[0]
    catalogs = makefile.split("\ncatalogs:", 1)[1].split("\n\n", 1)[0]
    assert "scorekeeper/variants/*/translations" in catalogs


# ------------------------------------------------------------------ a variant's templates are its package's


def test_no_variant_template_is_left_in_the_shared_templates():
    assert not (ROOT / "templates" / "variants").exists()


def test_the_wheel_carries_every_variant_s_templates_and_catalogues():
    """pyproject.toml's package data names each built-in variant's templates and catalogues (setup.py compiles the
    catalogues in the build; tests/integration/test_packaging.py builds a wheel and serves from it)."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    package = ROOT / "scorekeeper"
    shipped = {
        path for glob in config["tool"]["setuptools"]["package-data"]["scorekeeper"] for path in package.glob(glob)
    }
    own = [*package.glob("variants/*/templates/**/*"), *package.glob("variants/*/translations/*/LC_MESSAGES/*.po")]
    assert len(own) >= 9 * 4 and not {p for p in own if p.is_file()} - shipped


@pytest.mark.parametrize("name", [p.name for p in app_packages() if p.name != "shared"])
def test_a_built_in_variant_keeps_its_templates_in_its_package(app, name):
    folder = ROOT / "scorekeeper" / "variants" / name / "templates"
    assert (folder / "hand.html").is_file()
    for template in folder.glob("*.html"):
        loaded = app.jinja_env.get_template(f"variants/{name}/{template.name}")
        assert Path(loaded.filename or "").resolve() == template.resolve()


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


@pytest.mark.needs_program
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
