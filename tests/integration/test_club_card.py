"""Issue 23: the club's own tariff card, entered by its treasurer through fields (no JSON), previews that are free,
presets that only fill the fields, and every word and printed number drawn from the house that scores.

Each finding of the issue is a test here that failed on the main of issue 22 and 26 (b00b5fe).
"""

import json
import re

import pytest

from helpers import PASSWORD, dump, form_data, log_in, token
from scorekeeper import create_app
from scorekeeper.core.variants import danish
from scorekeeper.services import clubs as club_service
from scorekeeper.services import games as service

PLAYERS = ["Anna", "Bo", "Carl", "Dina"]
# The club card: trick values 10/20/40/60/80/200/400, a lost bid pays double, every suffix doubles,
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
