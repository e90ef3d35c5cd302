"""Score sheets on paper: the print page, its PDF (read back with pdftotext), blank sheets, the tariff matrix."""

import json
import re
import urllib.request

import pytest

from helpers import PLAYERS, artifact, pdfinfo, pdftotext, words_off_the_page
from scorekeeper.variants.danish import rules as danish
from variants import EXAMPLES

NORDIC = ["Ann-Kristin", "Søren", "Åsa", "Bo"]
# A finished Danish evening of 8 deals: a made bid, a sol, a passed-out deal, a selvmakker, a lost sans, a lost sol …
DANISH_EVENING = [
    {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 10},
    {"bidder": 1, "bid": "sol", "tricks": 1},
    {"passed": True},
    {"bidder": 2, "bid": 9, "suffix": "gode", "partner": 2, "tricks": 9},
    {"bidder": 3, "bid": 10, "suffix": "sans", "partner": 1, "tricks": 8},
    {"bidder": 0, "bid": "ren_sol", "tricks": 1},
    {"bidder": 1, "bid": 7, "suffix": "vip", "trump": "none", "partner": 3, "tricks": 13},
    {"bidder": 2, "bid": 11, "suffix": "halve", "trump": "hearts", "partner": 0, "tricks": 11},
]
# A rubber at target 5 with honours: games 5–3, 0–9, 5–0 (the revoke by Anna & Carl moves 3 tricks).
CLASSIC_RUBBER = [
    {"trump": "hearts", "tricks": [9, 4]},
    {"trump": "spades", "tricks": [4, 9]},
    {"trump": "clubs", "tricks": [8, 5], "honours": [4, 0]},
    {"trump": "hearts", "tricks": [3, 10]},
    {"trump": "diamonds", "tricks": [5, 8], "revoke": {"side": 0, "penalty": "tricks"}},
    {"trump": "hearts", "tricks": [11, 2]},
]


def english_money(amount: str, currency: str) -> str:
    """An amount as the English pages write it (Babel, a real minus sign), spaces as pdftotext gives them."""
    from decimal import Decimal

    from babel.numbers import format_currency

    text = format_currency(Decimal(amount), currency, locale="en").replace(currency, currency + " ")
    return text.replace("-", "\u2212")


# ---------------------------------------------------------------- reading PDFs back


def flat(text: str) -> str:
    return " ".join(text.split())


def numbers(text: str) -> list[int]:
    return [int(n.replace("−", "-")) for n in re.findall(r"[+−-]?\d+", text)]


def hand_rows(text: str) -> dict[int, list[int]]:
    """Each hand's line of the printed table: {number: [points, total, points, total, …(, Σ)]}."""
    rows = {}
    for line in text.splitlines():
        m = re.match(r"\s*(\d+)\s+\S.*? deals(?: · game \d+)?(.*)$", line)
        if m:
            rows[int(m[1])] = numbers(m[2])
    return rows


def expected_row(hand, zero_sum):
    row = [n for pair in zip(hand["points"], hand["totals"]) for n in pair]
    return row + [sum(hand["points"])] if zero_sum else row


def save_artifact(name: str, data: bytes) -> None:
    artifact(name).write_bytes(data)


# ---------------------------------------------------------------- games


@pytest.fixture
def evening(api):
    game = api.create("danish", players=NORDIC, title="Torsdag hos Søren", options={"rate": 0.05, "deals": 8})
    for hand in DANISH_EVENING:
        api.hand(game, hand)
    return api.get(game)


@pytest.fixture
def rubber(api):
    game = api.create("classic", title="Rubber", options={"rubber": True, "honours": True, "rate": 1})
    for hand in CLASSIC_RUBBER:
        api.hand(game, hand)
    return api.get(game)


def test_the_game_links_to_its_pdf_and_csv(client, evening):
    assert evening["links"]["pdf"] == f"/g/{evening['id']}/sheet.pdf"
    assert evening["links"]["csv"] == f"/g/{evening['id']}/hands.csv"
    for link in ("pdf", "csv"):
        assert client.get(evening["links"][link]).status_code == 200


@pytest.mark.needs_program
def test_the_pdf_of_a_finished_danish_evening(client, evening, tmp_path):
    assert evening["finished"]
    r = client.get(evening["links"]["pdf"])
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    assert r.headers["Content-Disposition"] == f'attachment; filename="protokoll-{evening["id"]}.pdf"'
    save_artifact("danish-evening.pdf", r.data)
    info = pdfinfo(r.data, tmp_path)
    assert "595.276 x 841.89" in info["Page size"] and info["Pages"].strip() == "1"
    text = pdftotext(r.data, tmp_path)
    words = flat(text)
    assert "Torsdag hos Søren" in words and "Danish whist".upper() in words
    assert "Players: Ann-Kristin, Søren, Åsa, Bo" in words
    # The house rules it was scored with, drawn from the house that scored it (issue 23).
    assert "Tariff: Standard tariff" in words
    assert "Plain bid made (points): 10, 20, 40, 80, 160, 320, 640" in words
    assert "Sol bids (made / lost): sol 50/100, ren sol 100/200, bordlægger 150/300, ren bordlægger 200/400" in words
    assert "Deals: 8" in words and re.search(r"Stake: DKK\s0\.05 per point", words)
    # Every hand's points, running totals and Σ = 0, in the players' order.
    rows = hand_rows(text)
    assert rows == {h["number"]: expected_row(h, True) for h in evening["hands"]}
    assert "Passed out" in words and "alone (selvmakker)" in words and "ren sol" in words
    total = next(line for line in text.splitlines() if line.strip().startswith("Total"))
    assert numbers(total) == evening["totals"]
    # The settlement: each player's balance and who pays whom.
    settlement = client.get(f"/api/games/{evening['id']}/settlement").json
    for name, amount in zip(NORDIC, settlement["balances"]):
        assert f"{name} {english_money(amount, 'DKK')}" in words
    assert settlement["payments"]
    for p in settlement["payments"]:
        assert f"{NORDIC[p['from']]} pays {NORDIC[p['to']]} {english_money(p['amount'], 'DKK')}" in words
    winner = NORDIC[evening["winner"]]
    assert f"Game over: {winner} won." in words
    # The tariff it was scored with, as a bid × tricks matrix.
    assert "−1280 640" in words and "ren bordlægger 200 400" in words
    assert not words_off_the_page(r.data, tmp_path)


@pytest.mark.needs_program
def test_the_pdf_of_a_classic_rubber(client, rubber, tmp_path):
    assert rubber["finished"] and rubber["games_won"] == [2, 1]
    r = client.get(rubber["links"]["pdf"])
    assert r.status_code == 200
    save_artifact("classic-rubber.pdf", r.data)
    text = pdftotext(r.data, tmp_path)
    words = flat(text)
    assert "Players: Anna & Carl against Bo & Dina" in words
    assert "Target: 5" in words and "Honours: yes" in words and "Rubber: best of three games" in words
    assert hand_rows(text) == {h["number"]: expected_row(h, False) for h in rubber["hands"]}
    assert "Anna deals · game 1" in words and "Bo deals · game 3" in words
    assert "revoke by Anna & Carl (tricks)" in words
    total = next(line for line in text.splitlines() if line.strip().startswith("Total, game 3"))
    assert numbers(total.split("game 3", 1)[1]) == rubber["totals"]
    assert "Games won: Anna & Carl 2 · Bo & Dina 1" in words
    a, b = rubber["rubber_points"]
    assert f"Rubber points: {a} – {b}" in words
    assert "Game over: Anna & Carl won." in words
    settlement = client.get(f"/api/games/{rubber['id']}/settlement").json
    players = PLAYERS["classic"]
    for p in settlement["payments"]:
        assert f"{players[p['from']]} pays {players[p['to']]} {english_money(p['amount'], 'SEK')}" in words
    assert not words_off_the_page(r.data, tmp_path)


@pytest.mark.needs_program
def test_a_40_hand_game_spans_pages_with_the_header_row_on_each(client, api, tmp_path):
    players = ["Ann-Kristin Østergård", "Søren", "Åsa", "Bo", "Jørgen Æbelø"]
    game = api.create("danish", players=players, title="Lang aften i Ærøskøbing")
    for k in range(40):
        playing = [s for s in range(5) if s != k % 5]
        if k % 9 == 4:
            api.hand(game, {"bidder": playing[k % 4], "bid": "sol", "tricks": k % 3})
        else:
            api.hand(
                game,
                {
                    "bidder": playing[k % 4],
                    "bid": 7 + k % 4,
                    "suffix": "plain",
                    "trump": "hearts",
                    "partner": playing[(k + 1) % 4],
                    "tricks": 5 + k % 9,
                },
            )
    game = api.get(game)
    r = client.get(game["links"]["pdf"])
    save_artifact("danish-40-hands.pdf", r.data)
    pages = int(pdfinfo(r.data, tmp_path)["Pages"])
    assert pages >= 2
    seen = {}
    for page in range(1, pages + 1):
        text = pdftotext(r.data, tmp_path, "-f", str(page), "-l", str(page))
        rows = hand_rows(text)
        if rows:
            header = next(line for line in text.splitlines() if line.split()[:2] == ["#", "Hand"])
            assert all(name in header for name in players[1:4]), f"page {page} has no header row"
        assert not set(rows) & set(seen), "a hand printed twice"
        seen.update(rows)
    assert seen == {h["number"]: expected_row(h, True) for h in game["hands"]}
    assert not words_off_the_page(r.data, tmp_path)


# ---------------------------------------------------------------- the print page


def test_the_print_page_shows_the_sheet_without_inline_styles_or_scripts(client, evening):
    r = client.get(f"/g/{evening['id']}/print")
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert "Torsdag hos Søren" in html and "Plain bid made (points)" in html
    assert 'href="/static/print.css"' in html and 'src="/static/print.js"' in html
    assert " style=" not in html and "<style" not in html
    assert re.findall(r"<script(?![^>]*\bsrc=)", html) == []
    assert "script-src 'self'" in r.headers["Content-Security-Policy"]


def test_names_are_escaped_on_the_sheet(client, api):
    game = api.create("german", players=['Anna "A" & Co', "Bo's"], title="Tom & Jerry")
    html = client.get(f"/g/{game['id']}/print").get_data(as_text=True)
    assert "Anna &#34;A&#34; &amp; Co" in html and "Bo&#39;s" in html and "Tom &amp; Jerry" in html


def test_the_protokoll_links_to_paper_and_prints_its_head(client, evening):
    html = client.get(evening["links"]["page"]).get_data(as_text=True)
    gid = evening["id"]
    for href in (
        f"/g/{gid}/print",
        f"/g/{gid}/sheet.pdf",
        f"/g/{gid}/blank",
        f"/g/{gid}/hands.csv",
        f"/g/{gid}/game.json",
    ):
        assert f'href="{href}"' in html
    assert 'class="print-head"' in html and "<dt>Stake</dt>" in html


def test_the_game_json_downloads_as_the_api_answers_it(client, evening):
    r = client.get(f"/g/{evening['id']}/game.json")
    assert r.status_code == 200 and r.mimetype == "application/json"
    assert "attachment" in r.headers["Content-Disposition"]
    assert json.loads(r.data) == client.get(evening["links"]["json"]).json


@pytest.mark.parametrize(
    "path",
    [
        "/g/nosuch/print",
        "/g/nosuch/sheet.pdf",
        "/g/nosuch/hands.csv",
        "/g/nosuch/game.json",
        "/g/nosuch/blank.pdf",
        "/blank/bridge",
        "/blank/bridge.pdf",
    ],
)
def test_unknown_games_and_variants_are_404(client, path):
    assert client.get(path).status_code == 404


@pytest.mark.needs_program
def test_the_pdf_renderer_reads_no_file_and_no_markup(app, tmp_path):
    """ReportLab's Paragraph markup would read a file for <img src>: every text reaches it escaped, and a table cell
    is drawn as a plain string (never parsed)."""
    from scorekeeper.games.sheets import render_pdf

    doc = {
        "title": '<img src="/etc/passwd"/>',
        "blocks": [
            {"kind": "h2", "text": '<img src="/etc/passwd"/>', "small": "<b>&</b>"},
            {"kind": "p", "text": '<img src="/etc/passwd" width="9" height="9"/> & <font size="40">'},
            {
                "kind": "table",
                "columns": [{"wrap": True}, {}],
                "header": [["<b>", "&amp;"]],
                "rows": [["<i>x</i>", "<br/>"]],
            },
        ],
    }
    with app.test_request_context("/"):
        pdf = render_pdf(doc)
    assert pdf.startswith(b"%PDF") and b"/Subtype /Image" not in pdf and b"/XObject" not in pdf
    words = flat(pdftotext(pdf, tmp_path))
    assert '<img src="/etc/passwd" width="9" height="9"/> & <font size="40">' in words
    assert "<i>x</i> <br/>" in words and "root:" not in words


# ---------------------------------------------------------------- blank sheets


BLANK_COLUMNS = {name: example.BLANK_COLUMNS for name, example in EXAMPLES.items()}


@pytest.mark.needs_program
@pytest.mark.parametrize("variant", sorted(BLANK_COLUMNS))
def test_a_blank_sheet_for_each_variant(client, variant, tmp_path):
    from scorekeeper.core import VARIANTS

    r = client.get(f"/blank/{variant}.pdf")
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    save_artifact(f"blank-{variant}.pdf", r.data)
    info = pdfinfo(r.data, tmp_path)
    assert info["Pages"].strip() == "1" and "(A4)" in info["Page size"]
    words = flat(pdftotext(r.data, tmp_path))
    assert VARIANTS[variant].TITLE in words and "Date:" in words and "Players:" in words
    for column in ["#", "Dealer"] + BLANK_COLUMNS[variant]:
        assert column in words
    assert "points total" in words
    if variant == "danish":
        # The default tariff: 7 made with 13 tricks 70, 13 lost 1280, sol values.
        assert "7 −20 −20 −20 −20 −20 −20 −20 10 20 30 40 50 60 70" in words
        assert "13 −1280" in words and "sol 50 100" in words
    assert not words_off_the_page(r.data, tmp_path)


@pytest.mark.needs_program
@pytest.mark.parametrize("variant", sorted(BLANK_COLUMNS))
def test_a_named_blank_sheet_names_the_dealer_of_each_row(client, variant, tmp_path):
    players = (NORDIC + ["Örjan", "Märta", "Øystein", "Æsa"])[: len(EXAMPLES[variant].PLAYERS)]
    query = "&".join(f"player={p}" for p in players)
    r = client.get(f"/blank/{variant}.pdf?{query}&dealer=1&title=Fredag på Öland")
    assert r.status_code == 200
    text = pdftotext(r.data, tmp_path)
    words = flat(text)
    assert "Fredag på Öland" in words and f"First dealer: {players[1]}" in words
    for name in players:
        assert name in words
    first_rows = [line.split() for line in text.splitlines() if re.match(r"\s*[1-4]\s+\S", line)][:4]
    assert [row[1] for row in first_rows] == [players[(1 + k) % len(players)] for k in range(4)]
    assert int(pdfinfo(r.data, tmp_path)["Pages"]) == 1


@pytest.mark.needs_program
def test_a_danish_blank_sheet_prints_the_tables_tariff(client, tmp_path):
    r = client.get(
        "/blank/danish.pdf?tariff=5,10,20,40,80,160,320&lost=per_trick&solo_values=60,120,180,240&seats=5&rate=0.1"
    )
    assert r.status_code == 200
    words = flat(pdftotext(r.data, tmp_path))
    assert "Plain bid made (points): 5, 10, 20, 40, 80, 160, 320" in words
    assert "Lost by one trick: 10, 20, 40, 80, 160, 320, 640" in words  # twice the tariff per missing trick
    assert "Each further trick short: 10, 20, 40, 80, 160, 320, 640" in words
    assert re.search(r"Stake: DKK\s0\.10 per point", words)
    # Bid 7 per missing trick: 0 tricks −70 … 6 tricks −10; made 5 × (1 + t − 7).
    assert "7 −70 −60 −50 −40 −30 −20 −10 5 10 15 20 25 30 35" in words
    assert "sol 60 120" in words and "ren bordlægger 240 480" in words
    preset = flat(pdftotext(client.get("/blank/danish.pdf?preset=double_sol").data, tmp_path))
    assert "ren bordlægger 400 800" in preset


@pytest.mark.needs_program
def test_a_blank_sheet_from_a_game_goes_on_where_it_stands(client, api, tmp_path):
    game = api.create("swedish", players=["Åsa", "Björn", "Örjan", "Märta"], options={"deals": 8})
    api.hand(game, {"red": 3, "tricks": [5, 8]})
    api.hand(game, {"red": None, "tricks": [4, 9]})
    r = client.get(f"/g/{game['id']}/blank.pdf")
    assert r.status_code == 200
    text = pdftotext(r.data, tmp_path)
    carried = next(line for line in text.splitlines() if "Carried forward" in line)
    assert numbers(carried) == api.get(game)["totals"]
    numbered = [
        int(line.split()[0]) for line in text.splitlines() if re.match(r"\s*\d+\s+(Åsa|Björn|Örjan|Märta)$", line)
    ]
    assert numbered == [3, 4, 5, 6, 7, 8]  # the deals that are left; hand 3 is dealt by Örjan
    assert re.search(r"^\s*3\s+Örjan\s*$", text, re.M)
    html = client.get(f"/g/{game['id']}/blank").get_data(as_text=True)
    assert f'href="/g/{game["id"]}/blank.pdf"' in html


@pytest.mark.parametrize(
    "query, field",
    [
        ("tariff=1,2,3", "tariff"),
        ("lost=sometimes", "lost"),
        ("solo_values=1,2", "solo_values"),
        ("preset=cheap", "preset"),
        ("player=<b>Bo</b>", "player"),
        ("player=Bo&player=bo", "player"),
        ("seats=6", "seats"),
        ("rows=0", "rows"),
        ("dealer=7", "dealer"),
        ("rate=lots", "rate"),
    ],
)
def test_a_bad_blank_sheet_request_says_what_is_wrong(client, query, field):
    for path in ("/blank/danish", "/blank/danish.pdf"):
        r = client.get(f"{path}?{query}")
        assert r.status_code == 400
        assert field in r.get_data(as_text=True)


def test_the_blank_sheet_page_links_to_its_pdf_with_the_same_players(client):
    html = client.get("/blank/german?player=Anna&player=Bo").get_data(as_text=True)
    assert 'href="/blank/german.pdf?player=Anna&amp;player=Bo"' in html
    index = client.get("/blank/").get_data(as_text=True)
    for variant in BLANK_COLUMNS:
        assert f'href="/blank/{variant}.pdf"' in index


# ---------------------------------------------------------------- the tariff matrix


def test_the_tariff_matrix_is_bid_value_for_every_bid_and_tricks():
    options = {"tariff": [10, 20, 40, 80, 160, 320, 640], "lost": "flat", "solo_values": danish.DEFAULT_SOLO_VALUES}
    matrix = danish.tariff_matrix(options)
    assert list(matrix["bids"]) == list(range(7, 14))
    assert matrix["bids"][8][10] == 60  # the seed's example: bid 8, 10 tricks
    assert matrix["bids"][8][7] == -40 and matrix["bids"][13][13] == 640 and matrix["bids"][7][0] == -20
    for bid, row in matrix["bids"].items():
        assert len(row) == 14
        for tricks, value in enumerate(row):
            worth, made = danish.bid_value({"bid": bid, "suffix": "plain", "tricks": tricks}, options)
            assert value == (worth if made else -worth)
    assert matrix["sol"] == {
        "sol": (50, 100),
        "ren_sol": (100, 200),
        "bordlaegger": (150, 300),
        "ren_bordlaegger": (200, 400),
    }


def test_the_tariff_matrix_per_missing_trick():
    options = dict(danish.TARIFF_PRESETS["per_trick"])
    matrix = danish.tariff_matrix(options)
    assert matrix["bids"][9][6] == -2 * 40 * 3
    assert matrix["bids"][9][8] == -80 and matrix["bids"][9][9] == 40


# ---------------------------------------------------------------- in a real browser


@pytest.mark.needs_program
@pytest.mark.browser
def test_printing_the_protokoll_from_the_browser(page, live_server, tmp_path):
    base, _ = live_server

    def post(path, body, key=None):
        headers = {"Content-Type": "application/json", **({"X-Edit-Key": key} if key else {})}
        request = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers)
        return json.loads(urllib.request.urlopen(request).read())

    game = post("/api/games", {"variant": "danish", "players": NORDIC, "title": "Torsdag", "options": {"rate": 0.05}})
    for k in range(40):
        post(
            f"/api/games/{game['id']}/hands",
            {
                "bidder": k % 4,
                "bid": 7 + k % 3,
                "suffix": "plain",
                "trump": "hearts",
                "partner": (k + 2) % 4,
                "tricks": 5 + k % 9,
            },
            game["edit_key"],
        )
    page.goto(f"{base}/g/{game['id']}")
    pdf = page.pdf(format="A4")
    save_artifact("browser-protokoll-print.pdf", pdf)
    pages = int(pdfinfo(pdf, tmp_path)["Pages"])
    assert pages >= 2
    first = flat(pdftotext(pdf, tmp_path, "-f", "1", "-l", "1"))
    assert first.startswith("DANISH WHIST Torsdag Date:")  # the sheet's head prints first
    assert "Plain bid made (points)" in first and "Players: Ann-Kristin, Søren, Åsa, Bo" in first
    everything = flat(pdftotext(pdf, tmp_path))
    for gone in ("scorekeeper", "Enter hand", "Follow on another phone", "On paper", "edit"):
        assert gone not in everything
    assert "Settlement" in everything
    for number in range(2, pages + 1):  # the header row repeats on every page with hands
        text = pdftotext(pdf, tmp_path, "-f", str(number), "-l", str(number))
        if re.search(r"\bdeals\b", text):
            assert re.search(r"#\s+Ann-Kristin\s+Søren\s+Åsa\s+Bo", text), f"page {number} has no header row"
    assert not words_off_the_page(pdf, tmp_path, margin=20)

    page.goto(f"{base}/g/{game['id']}/print")
    assert page.is_visible("#print-button")
    printed = page.pdf(format="A4")
    save_artifact("browser-print-page.pdf", printed)
    text = flat(pdftotext(printed, tmp_path))
    assert "Back to the protokoll" not in text and "Torsdag" in text
    assert not words_off_the_page(printed, tmp_path, margin=20)


def test_the_blank_sheet_form_sends_the_table_to_its_sheet(client):
    r = client.get("/blank/?variant=german&player=Åsa&player=Bo&player=&player=&player=&title=&preset=standard")
    assert r.status_code == 302
    assert r.headers["Location"] == "/blank/german?player=%C3%85sa&player=Bo"
    r = client.get("/blank/?variant=danish&player=Anna&player=&player=&player=&player=&title=&preset=double_sol")
    assert r.headers["Location"] == "/blank/danish?player=Anna&player=&player=&player=&preset=double_sol"
    assert client.get(r.headers["Location"]).status_code == 200
