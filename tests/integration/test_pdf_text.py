"""A PDF's text is its print page's text. The paper's words have one source, the documents (games/, clubs/ and
drives/document.py: blocks of finished text); this holds the two renderers of those blocks to each other — the print
page's macros (templates/print/blocks.html) and ReportLab's drawing (paper/draw.py) — so that neither drops, adds or
reorders a block or a cell's words. For every variant in the registry, so that a new variant is held to it when it
lands; and hostile names and titles reach the PDF as letters, never as ReportLab's markup."""

import sqlite3

import pytest

from helpers import artifact, page_words, paper_words, pdf_words, pdfinfo, pdftotext, raw_pages
from scorekeeper.core import VARIANTS
from variants import EXAMPLES

pytestmark = pytest.mark.needs_program  # poppler's pdftotext (and zbarimg)

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
    artifact(f"text-{name}.pdf").write_bytes(pdf.data)
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
    artifact(f"text-blank-{variant}-{named_players}.pdf").write_bytes(pdf.data)
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
def played_drive(client, tables=2, hands=4, entered=3, couples=False, money=None):
    body = {
        "title": "Sognegården & Co",
        "hands": hands,
        "interval_after": hands // 2,
        "format": "couples" if couples else "progressive",
        "ladies": [f"Lady Skovbo-Kristoffersen-Høegh {i}" for i in range(2 * tables)],
        "gents": [f"Gent Ærø {i}" for i in range(2 * tables)],
    }
    if money is None:
        r = client.post("/api/drives", json=body)
        assert r.status_code == 201, r.json
        drive = r.json
    else:  # the organiser's form keeps the money; here straight through the service
        from scorekeeper.drives import service as drive_service
        from scorekeeper.server.db import get_db

        with client.application.test_request_context("/"):
            drive_id, key = drive_service.create_drive(get_db(), body, money)
            drive = {"id": drive_id, "edit_key": key, "edit_page": drive_service.edit_page(drive_id, key)}
    for hand in range(1, entered + 1):
        for table in range(1, tables + 1):
            r = client.post(
                f"/api/drives/{drive['id']}/hands/{hand}/tables/{table}",
                json={"tricks": [(hand + table) % 14, 13 - (hand + table) % 14]},
                headers={"X-Edit-Key": drive["edit_key"]},
            )
            assert r.status_code == 201, r.json
    return drive


def page_by_page(data: bytes, tmp_path) -> list[str]:
    """A drive's cards carry no footer: their words page after page."""
    return [word for page in raw_pages(data, tmp_path) for word in paper_words(page)]


@pytest.mark.parametrize("kind", ["scorecards", "tally"])
@pytest.mark.parametrize("entered", [0, 3, 4])
def test_a_drives_cards_say_what_their_print_page_says(client, kind, entered, tmp_path):
    drive = played_drive(client, entered=entered)
    page = client.get(f"/d/{drive['id']}/{kind}")
    pdf = client.get(f"/d/{drive['id']}/{kind}.pdf")
    assert page.status_code == 200 and pdf.status_code == 200
    artifact(f"text-drive-{kind}-{entered}.pdf").write_bytes(pdf.data)
    assert page_by_page(pdf.data, tmp_path) == page_words(page.get_data(as_text=True))
    # Score cards four A6 to an A4 sheet (issue 25), a tally card a page: 8 players, 2 tables.
    assert int(pdfinfo(pdf.data, tmp_path)["Pages"]) == 2
    if kind == "scorecards":
        first = paper_words(pdftotext(pdf.data, tmp_path, "-f", "1", "-l", "1"))
        assert all(f"{i}" in first for i in range(4)) and first.count("no.") == 4


def test_a_drives_cards_for_a_substitute_a_lady_as_gent_and_the_interval_say_what_their_pages_say(client, tmp_path):
    """A lady plays as a gent, a substitute comes in at hand 3, ties go by countback:
    the cards and the standings say so, as the pages do."""
    body = {
        "title": "Kirkehuset",
        "hands": 4,
        "interval_after": 2,
        "format": "progressive",
        "ladies": [f"Dame {i}" for i in range(4)],
        "gents": [*[f"Herre {i}" for i in range(3)], "Dame 4"],
        "ladies_as_gents": ["Dame 4"],
        "tie_break": "countback",
    }
    r = client.post("/api/drives", json=body)
    assert r.status_code == 201, r.json
    drive = r.json
    key = {"X-Edit-Key": drive["edit_key"]}
    for hand in (1, 2):
        for table in (1, 2):
            r = client.post(
                f"/api/drives/{drive['id']}/hands/{hand}/tables/{table}", json={"tricks": [7, 6]}, headers=key
            )
            assert r.status_code == 201, r.json
    r = client.post(f"/api/drives/{drive['id']}/substitutes", json={"out": "Herre 0", "in": "Ny Herre"}, headers=key)
    assert r.status_code in (200, 201), r.json
    for kind in ("scorecards", "standings"):
        page = page_words(client.get(f"/d/{drive['id']}/{kind}").get_data(as_text=True))
        pdf = client.get(f"/d/{drive['id']}/{kind}.pdf").data
        got = page_by_page(pdf, tmp_path) if kind == "scorecards" else pdf_words(pdf, tmp_path, "Kirkehuset")
        assert got == page, kind
        if kind == "scorecards":
            assert "lady playing as gent" in " ".join(page) and "from hand 3" in " ".join(page)


def test_blank_drive_cards_say_what_their_page_says(client, tmp_path):
    page = client.get("/drives/blank?hands=12")
    pdf = client.get("/drives/blank.pdf?hands=12")
    assert page.status_code == 200 and pdf.status_code == 200
    assert page_by_page(pdf.data, tmp_path) == page_words(page.get_data(as_text=True))


MONEY = {
    "currency": "DKK",
    "fee": "25",
    "prizes": [
        {"kind": "top_lady", "name": "Flaske rødvin", "amount": "0"},
        {"kind": "top_gent", "name": "Gavekort", "amount": "100"},
        {"kind": "half_time", "name": "Kaffe & kage", "amount": "0"},
        {"kind": "booby", "name": "Trøstepræmie", "amount": "10,50"},
    ],
}


@pytest.mark.parametrize("entered", [0, 2, 4])
def test_a_drives_standings_and_table_cards_say_what_their_pages_say(client, entered, tmp_path):
    drive = played_drive(client, entered=entered, money=MONEY)
    client.get(drive["edit_page"])  # the organiser's phone: the table cards are theirs
    for kind in ("standings", "cards"):
        page = client.get(f"/d/{drive['id']}/{kind}")
        pdf = client.get(f"/d/{drive['id']}/{kind}.pdf")
        assert page.status_code == 200 and pdf.status_code == 200, kind
        artifact(f"text-drive-{kind}-{entered}.pdf").write_bytes(pdf.data)
        words = page_words(page.get_data(as_text=True))
        if kind == "standings":
            assert pdf_words(pdf.data, tmp_path, "Sognegården & Co") == words
        else:
            assert page_by_page(pdf.data, tmp_path) == words


def test_a_table_cards_qr_code_opens_its_tables_page(client, tmp_path):
    import shutil
    import subprocess

    if not shutil.which("zbarimg"):
        pytest.skip("zbarimg (Debian zbar-tools) is not installed")
    drive = played_drive(client, entered=0)
    client.get(drive["edit_page"])
    pdf = client.get(f"/d/{drive['id']}/cards.pdf")
    (tmp_path / "cards.pdf").write_bytes(pdf.data)
    subprocess.run(
        ["pdftoppm", "-r", "100", "-png", "-f", "2", "-l", "2", str(tmp_path / "cards.pdf"), str(tmp_path / "card")],
        check=True,
    )
    image = next(tmp_path.glob("card*.png"))
    decoded = subprocess.run(["zbarimg", "-q", "--raw", str(image)], capture_output=True, text=True).stdout.strip()
    assert decoded.startswith("http://localhost/d/") and "/t/2/" in decoded, decoded
    assert client.get(decoded.removeprefix("http://localhost")).status_code == 200


def test_hostile_names_and_titles_on_a_drives_paper_are_printed_as_letters(client, tmp_path):
    """A drive's names and title reach ReportLab escaped on every kind of its paper: a drive refuses < and > in a
    name, but & and entities are names like any other, and ReportLab's markup would read "&lt;b&gt;" as "<b>" and
    "&amp;" as "&". Each PDF prints them letter for letter and still says what its page says."""
    hostile = ["Tom & Jerry", "Bo &amp; Lis", "Ann &lt;img src=x&gt;", "Lis &#60;b&#62; Ulf"]
    title = "Sognegården &amp; Co &lt;font size=80&gt;"
    body = {
        "title": title,
        "hands": 4,
        "interval_after": 2,
        "format": "progressive",
        "ladies": [f"Dame {i}" for i in range(4)],
        "gents": hostile,
    }
    drive = client.post("/api/drives", json=body).json
    for table in (1, 2):
        r = client.post(
            f"/api/drives/{drive['id']}/hands/1/tables/{table}",
            json={"tricks": [8, 5]},
            headers={"X-Edit-Key": drive["edit_key"]},
        )
        assert r.status_code == 201, r.json
    client.get(drive["edit_page"])
    for kind in ("scorecards", "tally", "standings", "cards"):
        page = client.get(f"/d/{drive['id']}/{kind}")
        r = client.get(f"/d/{drive['id']}/{kind}.pdf")
        assert page.status_code == 200 and r.status_code == 200 and r.data.startswith(b"%PDF"), kind
        assert b"/Subtype /Image" not in r.data and b"/Subtype/Image" not in r.data, kind
        words = " ".join(pdftotext(r.data, tmp_path).split())
        assert title in words, kind
        if kind != "cards":
            for name in hostile:
                assert name in words, (kind, name)
        expected = page_words(page.get_data(as_text=True))
        got = pdf_words(r.data, tmp_path, title) if kind == "standings" else page_by_page(r.data, tmp_path)
        assert got == expected, kind
