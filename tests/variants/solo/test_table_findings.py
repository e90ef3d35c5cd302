"""Issue 33, "The family's tables": no raw code word in a translated error. A Swedish Solo hand saved empty listed
"prop, solo, misere, abundance, royal_abundance…"; a Danish Bid whist hand "uptown, downtown, no_trump". The hand pages
were fixed before (tests/variants/{solo,bid}/test_pages.py); here the bids pages of a deal in progress, and the
house rules' own refusals on the new-game page, in each language."""

import re

import pytest

from helpers import dump, fields

FOUR = ["Anna", "Bo", "Carl", "Dina"]
SOLO_CODES = r"\b(prop|misere|royal_abundance|misere_ouverte|abundance_declared|first_free)\b"
BID_CODES = r"\b(uptown|downtown|no_trump)\b(?! ?\))"  # "højt (uptown)" names the American word as the button does


def errors_shown(html: str) -> str:
    return " ".join(
        re.findall(r'<p class="error"[^>]*>(.*?)</p>', html, re.S)
        + re.findall(r'class="error-box"[^>]*>(.*?)</div>', html, re.S)
    )


def post_bids(client, game, data, lang):
    client.get(game["edit_page"])
    client.get(f"/lang/{lang}")
    page = client.get(f"/g/{game['id']}/bids")
    assert page.status_code == 200
    return client.post(f"/g/{game['id']}/bids", data={**fields(page.get_data(as_text=True)), **data})


@pytest.mark.parametrize(
    "lang, words",
    [
        ("sv", "saknas: ett av förslag och accept, solo, misère, abondance, kunglig abondance"),
        ("da", "mangler: en af forslag og accept, solo, misère, abondance, kongelig abondance"),
        ("nb", "forslag og aksept, solo, misère, abondance, kongelig abondance"),
    ],
)
def test_solo_bids_saved_empty_name_the_contracts_in_the_readers_words(client, db_path, lang, words):
    game = client.post("/api/games", json={"variant": "solo", "players": FOUR}).json
    before = dump(db_path)
    r = post_bids(client, game, {}, lang)
    shown = errors_shown(r.get_data(as_text=True))
    assert r.status_code == 400 and words in shown, shown
    assert not re.search(SOLO_CODES, shown), shown
    assert dump(db_path) == before


@pytest.mark.parametrize("lang, words", [("da", "højt (uptown), lavt (downtown), uden trumf"), ("sv", "utan trumf")])
def test_bid_whist_bids_without_a_direction_name_the_directions_in_the_readers_words(client, db_path, lang, words):
    game = client.post("/api/games", json={"variant": "bid", "players": FOUR}).json
    before = dump(db_path)
    r = post_bids(client, game, {"bidder": "0", "bid": "4"}, lang)
    shown = errors_shown(r.get_data(as_text=True))
    assert r.status_code == 400 and words in shown and "no_trump" not in shown, shown
    assert dump(db_path) == before


@pytest.mark.parametrize("lang", ["sv", "da", "nb"])
def test_a_solo_overtricks_mapping_refused_in_the_readers_words(client, db_path, lang):
    client.get(f"/lang/{lang}")
    before = dump(db_path)
    page = client.get("/new/solo").get_data(as_text=True)
    from helpers import form_data

    data = {**form_data(page), "dealer": "0", "opt_undertricks": "x"}
    data.update({f"player{i}": name for i, name in enumerate(FOUR)})
    html = client.post("/new/solo", data=data).get_data(as_text=True)
    box = re.search(r'id="o-undertricks".*?<p class="error" role="alert">([^<]+)</p>', html, re.S)
    assert box and "abondance" in box.group(1) and not re.search(r"royal_abundance|\bprop\b", box.group(1)), box
    assert dump(db_path) == before
