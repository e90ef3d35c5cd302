"""A Scotch game won in the count-out is explained where its result is shown (issue 33: "the page shows 53 against 49
and 'Ola & Per & Lars vant'; the team with more points thinks the app is wrong"): the protokoll, the print page and
the PDF say who reached the target first, at which step of the last deal, and that the other side came later."""

import re
from html import unescape

import pytest

from helpers import pdftotext

SIX = ["Ola", "Kari", "Per", "Liv", "Lars", "Eva"]  # two teams of three: Ola & Per & Lars against Kari & Liv & Eva
HONOURS = ("jack", "ten", "ace", "king", "queen")
# T = 6, a team of three dealt 18: card points 6 × tricks − 18.
HANDS = [
    # 4–2: team 0 cards 6, jack, ten, ace, king 28 → 34; team 1 the queen → 2
    {"tricks": [4, 2], "honours": dict(zip(HONOURS, (0, 0, 0, 0, 1)))},
    # 3–3: team 0 king and queen → 39; team 1 jack, ten, ace → 27
    {"tricks": [3, 3], "honours": dict(zip(HONOURS, (1, 1, 1, 0, 0)))},
    # 1–5: counted out, the ten first: team 0 49, over 41; team 1 cards 12 → 39, ace → 43 (later), and ends at 59
    {"tricks": [1, 5], "honours": dict(zip(HONOURS, (1, 0, 1, 1, 1)))},
]
FIRST = "Ola & Per & Lars reached 41 first when the last deal was counted out (ten, cards, ace, king, queen, jack): at the ten, with 49."
LATER = "Kari & Liv & Eva reached it later, at the ace: more points in the end, but the count-out decides."


def words(text: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", text)))


@pytest.fixture
def won_by_count_out(api):
    game = api.create("scotch", players=SIX, options={"teams": 2})
    for hand in HANDS:
        api.hand(game, hand)
    answer = api.get(game)
    assert answer["totals"] == [49, 59] and answer["finished"] and answer["winner"] == 0
    return game


def test_the_protokoll_explains_the_count_out(client, won_by_count_out):
    page = words(client.get(f"/g/{won_by_count_out['id']}").get_data(as_text=True))
    assert "Ola & Per & Lars won" in page
    assert FIRST in page and LATER in page


def test_the_print_page_explains_it(client, won_by_count_out):
    page = words(client.get(f"/g/{won_by_count_out['id']}/print").get_data(as_text=True))
    assert FIRST in page and LATER in page


@pytest.mark.needs_program
def test_the_pdf_explains_it(client, won_by_count_out, tmp_path):
    text = re.sub(r"\s+", " ", pdftotext(client.get(f"/g/{won_by_count_out['id']}/sheet.pdf").data, tmp_path))
    assert FIRST in text and LATER in text


def test_in_norwegian(client, won_by_count_out):
    client.get("/lang/nb")
    page = words(client.get(f"/g/{won_by_count_out['id']}").get_data(as_text=True))
    assert "Ola & Per & Lars nådde 41 først" in page


def test_a_game_won_by_one_side_alone_needs_no_explanation(api, client):
    game = api.create("scotch", players=SIX, options={"teams": 2, "target": 30})
    api.hand(game, HANDS[0])
    page = words(client.get(f"/g/{game['id']}").get_data(as_text=True))
    assert "first when the last deal was counted out" not in page and "Ola & Per & Lars won" in page


def cell_lines(pdf: bytes) -> list[str]:
    """The lines of the sides' own words in the hands' cells (bold, under 7 pt): words on one baseline joined, a gap
    wider than a word space starting the next cell."""
    import io

    import pdfplumber

    out = []
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for page in doc.pages:
            words = [
                w
                for w in page.extract_words(extra_attrs=["size", "fontname"])
                if w["size"] < 7 and "Bold" in w["fontname"]
            ]
            rows: dict[float, list] = {}
            for w in words:
                rows.setdefault(round(w["top"]), []).append(w)
            for _top, ws in sorted(rows.items()):
                ws.sort(key=lambda w: w["x0"])
                line = [ws[0]]
                for w in ws[1:]:
                    if w["x0"] - line[-1]["x1"] > 6:
                        out.append(" ".join(x["text"] for x in line))
                        line = []
                    line.append(w)
                out.append(" ".join(x["text"] for x in line))
    return out


@pytest.mark.needs_program
def test_the_team_pdf_keeps_each_entry_on_one_line(client, won_by_count_out):
    """Issue 33: the team PDF wrapped cells mid-entry ("3 st. 10 / D"): a side's tricks and its honours are each one
    entry, never broken between two lines (Norwegian: st. for tricks, Kn 10 E K D for the honours)."""
    client.get("/lang/nb")
    lines = cell_lines(client.get(f"/g/{won_by_count_out['id']}/sheet.pdf").data)
    groups = ["Kn 10 E K", "D", "K D", "Kn 10 E", "10", "Kn E K D"]  # each side's honours, hand by hand
    for group in groups:
        assert any(line == group or line.endswith(" " + group) for line in lines), (group, lines)
    for line in lines:  # a line holds whole entries: the tricks, then the honours
        assert re.fullmatch(r"(\d+ st\.)?( ?(Kn|10|E|K|D)( (Kn|10|E|K|D))*)?", line), (line, lines)
    for tricks in ("4 st.", "2 st.", "3 st.", "1 st.", "5 st."):
        assert any(line.startswith(tricks) for line in lines), (tricks, lines)
