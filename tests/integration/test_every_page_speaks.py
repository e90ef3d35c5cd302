"""Every page and form speaks the reader's language: rendered in da, nb, sv and en, none shows a raw option name, a
Danish, Norwegian or Swedish page shows no English sentence from the catalogue, and numbers, money, dates and times
are written as Babel writes them for the locale."""

import re
from datetime import UTC, datetime
from decimal import Decimal
from html import unescape
from pprint import pformat

import pytest
from babel.dates import format_date, format_datetime
from babel.numbers import format_currency
from catalogues import app_packages, read

from helpers import MEMBERS, PASSWORD, fields, log_in, post_hand, start, token
from scorekeeper import create_app
from scorekeeper.clubs import service as club_service
from scorekeeper.core import VARIANTS
from scorekeeper.storage import close, connect
from scorekeeper.variants.views import VIEWS
from variants import EXAMPLES

LANGS = ("da", "nb", "sv", "en")
NOW = datetime(2025, 3, 7, 21, 5, tzinfo=UTC)  # the app's clock (config CLOCK): the pages' dates do not follow the day
LONG_NAMES = ["Anne-Kathrine", "Christoffer", "Kirsten-Marie", "Bo"]
SHARED = {"target", "deals", "rate", "currency", "set_bonus"}
# The Danish tariff's and the Norwegian grand and pass options (their labels and presets are the tariff work's).
TARIFF_WORK = {
    word
    for variant in ("danish", "norwegian")
    for name, opt in VARIANTS[variant].OPTIONS.items()
    if name not in SHARED
    for word in (name, *(opt.choices if opt.kind in ("choice", "preset") else ()))  # an int_map's are its keys
} | set(VIEWS["danish"].TARIFF_PRESETS)
# Option keys and choice values as the code spells them: never text on a page.
CODE_WORDS = {name for module in VARIANTS.values() for name in module.OPTIONS if "_" in name} | {
    c for module in VARIANTS.values() for opt in module.OPTIONS.values() for c in opt.choices if "_" in c
}
# Option names that are English words, shown raw as a label: "rate", "deals" (looked for on pages not in English).
ENGLISH_NAMES = {name for module in VARIANTS.values() for name in module.OPTIONS if "_" not in name}


def words_re(words) -> re.Pattern:
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(words))) + r")(?![\w-])")


HANDS = {name: example.FORM_HANDS for name, example in EXAMPLES.items()}


def text_of(html: str) -> str:
    """What a reader sees: no tags, scripts, styles or attribute values; entities resolved, spaces collapsed. A
    textarea's content is data the reader typed or keeps (the house tariff's JSON keys), and a template's is the same
    data for the script to put there (never shown): neither is words of the page."""
    html = re.sub(r"(?is)<(script|style|textarea|template)\b.*?</\1>", " ", html)
    html = re.sub(r"(?s)<[^>]*>", " ", html)
    return re.sub(r"\s+", " ", unescape(html))


def english_sentences() -> dict:
    """Each msgid of more than one word (its literal parts between placeholders), with what the da/nb/sv catalogues
    make of it; a msgid a catalogue keeps as it is (a name, "CSV") is no tell-tale."""
    out = {}
    every = [(lang, package) for lang in ("da", "nb", "sv") for package in app_packages()]  # shared, each variant's
    for lang, package in every:
        for message in read(package.po(lang), lang):
            if not message.id:
                continue
            msgid = message.id if isinstance(message.id, str) else message.id[0]
            string = message.string if isinstance(message.string, str) else message.string[0]
            for part in re.split(r"%\([a-z_]+\)[sd]|%%|\n", msgid):
                part = part.strip(" .,:;()")
                if len(part.split()) > 1 and part not in string:
                    out.setdefault(lang, set()).add(part)
    return out


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """Every page and form, in every language: {(page, lang): text}."""
    tmp = tmp_path_factory.mktemp("speaks")
    db_path = str(tmp / "speaks.sqlite")
    app = create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "speaks", "CLOCK": lambda: NOW})
    client = app.test_client()
    viewer = app.test_client()
    urls: dict[str, tuple] = {"home": ("/",), "choose": ("/new",), "blank index": ("/blank/",)}
    urls["404"] = ("/g/nothing",)
    for variant in VARIANTS:
        urls[f"new {variant}"] = (f"/new/{variant}",)
        urls[f"blank {variant}"] = (f"/blank/{variant}",)
        players = LONG_NAMES[:2] if variant == "german" else LONG_NAMES
        gid = start(client, variant, players, rate="0.05") if variant == "danish" else start(client, variant, players)
        for data in HANDS[variant]:
            post_hand(client, gid, data)
        urls[f"protokoll {variant}"] = (f"/g/{gid}",)
        urls[f"read-only {variant}"] = (f"/g/{gid}", viewer)
        urls[f"hand {variant}"] = (f"/g/{gid}/hands/new",)
        urls[f"edit {variant}"] = (f"/g/{gid}/hands/1",)
        urls[f"delete {variant}"] = (f"/g/{gid}/hands/1/delete",)
        urls[f"print {variant}"] = (f"/g/{gid}/print",)
        urls[f"game blank {variant}"] = (f"/g/{gid}/blank",)
        urls[f"403 {variant}"] = (f"/g/{gid}/hands/new", viewer)
    urls["blank error"] = ("/blank/danish?target=x&rate=abc",)
    urls["blank error classic"] = ("/blank/classic?target=0",)

    # An edit, so that the protokoll lists a change with its date and time.
    danish = urls["hand danish"][0].split("/")[2]
    post_hand(client, danish, {**HANDS["danish"][0], "tricks": "9"}, number=1)

    # A Norwegian game decided at hand 2: an edit of hand 1 that decides it at once does not fit hand 2.
    gid = start(client, "norwegian", LONG_NAMES, target="3")
    post_hand(client, gid, {"bid": "pass", "tricks": "4"})
    post_hand(client, gid, {"bid": "pass", "tricks": "4"})
    conn = connect(db_path)
    try:
        club_id = club_service.create_club(
            conn,
            {
                "name": "Kløverklubben",
                "currency": "DKK",
                "variant": "danish",
                "options": {"rate": "0.05"},
                "password": PASSWORD,
            },
        )
        ids = [club_service.add_member(conn, club_id, name) for name in MEMBERS[:5]]
        evening = club_service.create_evening(conn, club_id, "2026-01-08", "5", "pairwise")
        table, key, _ = club_service.add_table(conn, club_id, evening, ids[:4], 0, "danish")
        from scorekeeper.games import service

        service.add_hand(
            conn, table, {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 10}, key
        )
        classic_club = club_service.create_club(
            conn,
            {"name": "Bridgeklubben", "currency": "EUR", "variant": "classic", "options": {}, "password": PASSWORD},
        )
    finally:
        close(conn)
    log_in(client, club_id)
    club = f"/c/{club_id}"
    for name, url in {
        "clubs": "/clubs",
        "new club": "/clubs/new",
        "new club classic": "/clubs/new?variant=classic",
        "new club norwegian": "/clubs/new?variant=norwegian",
        "club": club,
        "club classic": f"/c/{classic_club}",
        "settings": f"{club}/settings",
        "evening": f"{club}/e/{evening}",
        "evening new": f"{club}/evenings/new",
        "evening edit": f"{club}/e/{evening}/edit",
        "result": f"{club}/e/{evening}/result",
        "ledger": f"{club}/ledger",
        "ledger range": f"{club}/ledger?from=2026-06-01&to=2026-01-01",
        "stats": f"{club}/stats",
        "member": f"{club}/members/{ids[0]}",
    }.items():
        urls[name] = (url,)
    urls["login"] = (f"{club}/login", viewer)

    out = {}
    for lang in LANGS:
        for c in (client, viewer):
            c.get(f"/lang/{lang}")
        for name, (url, *who) in urls.items():
            r = (who[0] if who else client).get(url)
            assert r.status_code in (200, 400, 403, 404), (name, lang, r.status_code)
            out[name, lang] = text_of(r.get_data(as_text=True))
        # Forms sent back with errors.
        r = client.post(
            "/new/classic",
            data={
                **fields(client.get("/new/classic").get_data(as_text=True)),
                "player0": "A",
                "player1": "B",
                "player2": "C",
                "player3": "D",
                "dealer": "0",
                "opt_target": "x",
                "opt_deals": "99",
            },
        )
        out["new game errors", lang] = text_of(r.get_data(as_text=True))
        danish = urls["hand danish"][0].split("/")[2]
        r = post_hand(client, danish, {"bidder": "0", "bid": "8", "tricks": "8"}, expect=400)
        out["hand errors", lang] = text_of(r.get_data(as_text=True))
        r = post_hand(client, gid, {"bid": "grand-0", "tricks": "13"}, number=1, expect=409)
        out["edit error norwegian", lang] = text_of(r.get_data(as_text=True))
        r = client.post(f"{club}/members", data={"csrf_token": token(client, club), "name": ""}, follow_redirects=True)
        out["member error", lang] = text_of(r.get_data(as_text=True))
        r = client.get(f"/g/{danish}", headers={"Accept-Language": "en-GB,en;q=0.8"})
        out["protokoll en-GB", lang] = text_of(r.get_data(as_text=True))
    return out


def test_the_pages_were_rendered(pages):
    assert len(pages) > 4 * 60


def raw_names(pages, lang, words) -> dict:
    pattern = words_re(words)
    found = {name: pattern.findall(text) for (name, code), text in pages.items() if code == lang}
    return {k: v for k, v in found.items() if v}


@pytest.mark.parametrize("lang", LANGS)
def test_no_raw_option_names(pages, lang):
    found = raw_names(pages, lang, (CODE_WORDS - TARIFF_WORK) | ({"under_six", "per_trick"} - TARIFF_WORK))
    assert not found, pformat(found)
    if lang != "en":
        found = raw_names(pages, lang, ENGLISH_NAMES - TARIFF_WORK)
        assert not found, pformat(found)


@pytest.mark.parametrize("lang", LANGS)
def test_no_raw_tariff_names(pages, lang):
    found = raw_names(pages, lang, {w for w in TARIFF_WORK if "_" in w or lang != "en"})
    assert not found, pformat(found)


@pytest.mark.parametrize("lang", ["da", "nb", "sv"])
def test_no_english_sentences(pages, lang):
    tell_tales = english_sentences()[lang]
    found = {}
    for (name, code), text in pages.items():
        if code == lang:
            hits = sorted(s for s in tell_tales if s in text)
            if hits:
                found[name] = hits
    assert not found, pformat(found)


@pytest.mark.parametrize("lang", ["da", "nb", "sv"])
def test_numbers_amounts_dates_and_times_in_the_locale(pages, lang):
    """No number written the English way (0.05), no US date or AM/PM; the rate and fee as Babel writes them, a change's time in the locale's short form."""
    for (name, code), text in pages.items():
        if code != lang or name == "protokoll en-GB":
            continue
        text = re.sub(r"\d{4},? \d{1,2}[.:]\d{2}\b", "", text)  # a date and time: 30.11.2026 13.46 in Danish
        assert not re.search(r"(?<![\d.,/])\d+\.\d{2}(?![\d.])", text), (name, re.findall(r".{30}\d\.\d{2}.{10}", text))
        assert not re.search(r"\d/\d{1,2}/\d{2}|\b[AP]M\b", text), name
    rate = format_currency(Decimal("0.05"), "DKK", locale=lang, decimal_quantization=False).replace("\xa0", " ")
    for name in ("protokoll danish", "print danish", "blank danish", "game blank danish", "club", "evening"):
        assert rate in pages[name, lang], name
    fee = format_currency(Decimal("5"), "DKK", locale=lang).replace("\xa0", " ")
    assert fee in pages["evening", lang]
    stamp = format_datetime(NOW, "short", locale=lang)
    assert stamp.split()[0].rstrip(",") in pages["protokoll danish", lang]


def test_english_takes_the_browsers_region(pages):
    """en-GB writes 30/11/2026 and a 24-hour clock; no US date or AM/PM."""
    text = pages["protokoll en-GB", "en"]
    assert re.search(r"\b\d{2}/\d{2}/\d{4}, \d{2}:\d{2}\b", text), text[-600:]
    assert not re.search(r"\b[AP]M\b", text)
    assert format_date(NOW, "long", locale="en_GB") in text


def test_one_minus_sign(pages):
    """Points and money have the same minus sign (−, U+2212) on a page."""
    for (name, lang), text in pages.items():
        text = re.sub(r"\S*/\S*", " ", text)  # links and paths: a game's id may hold "-2"
        assert not re.search(r"(?<![\w-])-\d", text.replace(" - ", " ")), (
            name,
            lang,
            re.findall(r".{20}-\d.{10}", text),
        )
