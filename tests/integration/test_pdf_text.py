"""A PDF's text is its print page's text: the two renderings of one context (the print page's template, and
web/sheets/document.py for ReportLab) cannot drift. For every variant in the registry, so that a new variant is held
to it when it lands; and hostile names and titles reach the PDF as letters, never as ReportLab's markup."""

import sqlite3

import pytest

from helpers import ARTIFACTS, page_words, paper_words, pdf_words, pdftotext
from scorekeeper.core import VARIANTS
from variants import EXAMPLES

LONG_HANDS = 45  # enough for a second and third page


def game_with(api, variant: str, options: dict, hands: list[dict], players=None, title=None) -> dict:
    body = {"options": options}
    if title:
        body["title"] = title
    game = api.create(variant, players=players or EXAMPLES[variant].GAME.get("players"), **body)
    for hand in hands:
        api.hand(game, hand)
    return api.get(game)


def assert_same_text(client, game: dict, tmp_path, name: str) -> None:
    page = client.get(f"/g/{game['id']}/print")
    pdf = client.get(f"/g/{game['id']}/sheet.pdf")
    assert page.status_code == 200 and pdf.status_code == 200
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"text-{name}.pdf").write_bytes(pdf.data)
    html = page.get_data(as_text=True)
    title = game["title"] or VARIANTS[game["variant"]].TITLE.template  # the English pages
    words = page_words(html)
    header_end = words.index(paper_words(game["sides_names"][-1])[-1], words.index("#")) + 1
    header = words[words.index("#") : header_end + (1 if VARIANTS[game["variant"]].ZERO_SUM else 0)]
    assert pdf_words(pdf.data, tmp_path, title, header) == words


def named(game: dict) -> dict:
    game["sides_names"] = [" & ".join(game["players"][s] for s in side) for side in game["sides"]]
    return game


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_pdf_says_what_the_print_page_says(client, api, variant, tmp_path):
    example = EXAMPLES[variant]
    options = dict(example.GAME["options"])
    if VARIANTS[variant].FOR_MONEY and "rate" not in options:
        options["rate"] = 0.05
    game = named(game_with(api, variant, options, example.GAME["hands"], title="Fredag på Ærø"))
    assert_same_text(client, game, tmp_path, variant)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_long_pdf_says_what_the_print_page_says_page_after_page(client, api, variant, tmp_path):
    example = EXAMPLES[variant]
    options, most = example.LONG
    n = min(LONG_HANDS, most or LONG_HANDS)
    game = named(game_with(api, variant, dict(options), example.long_hands(n), players=example.PLAYERS))
    assert len(game["hands"]) == n
    assert_same_text(client, game, tmp_path, f"{variant}-long")


HOSTILE = ['<img src="/etc/passwd">', "Tom & Jerry", "<b>Bo</b>", "Ann </para><para> Lis"]


def test_hostile_names_and_titles_are_printed_as_letters(client, api, db_path, tmp_path):
    import json

    game = api.create("danish", options={"rate": 0.05})
    api.hand(game, {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 9})
    # The pages refuse such names (check_name); a file mended by hand, an old import or a club's rename need not.
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute(
            "UPDATE games SET players = ?, title = ? WHERE id = ?",
            [json.dumps(HOSTILE), '<img src="/etc/passwd"/> & <font size="80">', game["id"]],
        )
    conn.close()
    r = client.get(f"/g/{game['id']}/sheet.pdf")
    assert r.status_code == 200 and r.data.startswith(b"%PDF")
    assert b"/Subtype /Image" not in r.data and b"/Subtype/Image" not in r.data  # no file was read in as a picture
    words = " ".join(pdftotext(r.data, tmp_path).split())
    for name in HOSTILE:
        assert " ".join(name.split()) in words
    assert '<img src="/etc/passwd"/> & <font size="80">' in words
    assert "root:" not in words  # /etc/passwd's first line
    assert_same_text(
        client, named(api.get(game) | {"title": '<img src="/etc/passwd"/> & <font size="80">'}), tmp_path, "hostile"
    )


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("named_players", [False, True])
def test_a_blank_sheets_pdf_says_what_its_page_says(client, variant, named_players, tmp_path):
    players = EXAMPLES[variant].PLAYERS
    query = "&".join(f"player={p}" for p in players) + "&dealer=1&title=Fredag" if named_players else ""
    page = client.get(f"/blank/{variant}?{query}")
    pdf = client.get(f"/blank/{variant}.pdf?{query}")
    assert page.status_code == 200 and pdf.status_code == 200
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"text-blank-{variant}-{named_players}.pdf").write_bytes(pdf.data)
    title = "Fredag" if named_players else VARIANTS[variant].TITLE.template
    assert pdf_words(pdf.data, tmp_path, title) == page_words(page.get_data(as_text=True))


def test_a_games_blank_sheet_says_what_its_page_says(client, api, tmp_path):
    game = api.create("swedish", players=["Åsa", "Björn", "Örjan", "Märta"], options={"deals": 8})
    api.hand(game, {"red": 3, "tricks": [5, 8]})
    page = client.get(f"/g/{game['id']}/blank")
    pdf = client.get(f"/g/{game['id']}/blank.pdf")
    words = page_words(page.get_data(as_text=True))
    assert "carried" in words
    assert pdf_words(pdf.data, tmp_path, VARIANTS["swedish"].TITLE.template) == words


# ---------------------------------------------------------------- a whist drive's paper
