"""The running totals' chart: inline SVG drawn on the server, on the protokoll and on the printed sheet."""

import re
import subprocess

import pytest

from helpers import PLAYERS
from scorekeeper.web import chart

POLYLINE = re.compile(r'<polyline class="line line-(\d)" points="([^"]+)"')
ZERO = re.compile(r'<line class="axis" x1="[^"]+" y1="([^"]+)" x2="[^"]+" y2="([^"]+)"')
FIGURE = re.compile(r'<figure class="chart".*?</figure>', re.S)


def lines(html: str) -> tuple[float, list[list[tuple[float, float]]]]:
    """The axis' y and each polyline's points, parsed from the page."""
    zero = ZERO.search(html)
    assert zero and zero.group(1) == zero.group(2)
    found = POLYLINE.findall(html)
    assert [int(i) for i, _ in found] == list(range(len(found)))
    return float(zero.group(1)), [[tuple(map(float, p.split(","))) for p in pts.split()] for _, pts in found]


def assert_scaled(html: str, totals: list[list[int]]):
    """Every line starts at 0 and goes through the running totals scaled into the chart's box: x evenly spaced from
    the left gutter, y from the top (the highest value or 0) down to the bottom (the lowest or 0)."""
    zero, polylines = lines(html)
    values = [v for row in totals for v in row]
    top, bottom = max(0, *values), min(0, *values)
    y_scale = (chart.HEIGHT - 2 * chart.PAD) / ((top - bottom) or 1)
    x_step = (chart.WIDTH - chart.LEFT - chart.PAD) / len(totals)
    assert zero == pytest.approx(chart.PAD + top * y_scale, abs=0.51)
    assert len(polylines) == len(totals[0])
    for side, points in enumerate(polylines):
        expected = [(chart.LEFT, chart.PAD + top * y_scale)] + [
            (chart.LEFT + (i + 1) * x_step, chart.PAD + (top - row[side]) * y_scale) for i, row in enumerate(totals)
        ]
        assert len(points) == len(expected)
        for (x, y), (ex, ey) in zip(points, expected):
            assert x == pytest.approx(ex, abs=0.51) and y == pytest.approx(ey, abs=0.51)


@pytest.fixture
def danish(api):
    game = api.create("danish")
    for hand in (
        {"bidder": 1, "bid": 9, "trump": "clubs", "partner": 3, "tricks": 10},
        {"bidder": 0, "bid": "sol", "tricks": 1},
        {"bidder": 2, "bid": 8, "trump": "hearts", "partner": 0, "tricks": 6},
    ):
        api.hand(game, hand)
    return game


def test_the_protokoll_draws_the_running_totals(client, api, danish):
    totals = [h["totals"] for h in api.get(danish)["hands"]]
    html = client.get(f"/g/{danish['id']}").get_data(as_text=True)
    assert_scaled(html, totals)
    figure = FIGURE.search(html).group(0)
    assert "Running totals" in figure and "style=" not in figure
    for name in PLAYERS["danish"]:
        assert f'<span class="name">{name}</span>' in figure  # the legend names every line


def test_the_printed_sheet_draws_it_too(client, api, danish):
    totals = [h["totals"] for h in api.get(danish)["hands"]]
    html = client.get(f"/g/{danish['id']}/print").get_data(as_text=True)
    assert_scaled(html, totals)
    assert "style=" not in FIGURE.search(html).group(0)


def test_partnership_sides_are_one_line_each(client, api):
    game = api.create("classic")
    for tricks in ([8, 5], [4, 9], [6, 7]):
        api.hand(game, {"trump": "hearts", "tricks": tricks})
    totals = [h["totals"] for h in api.get(game)["hands"]]
    html = client.get(f"/g/{game['id']}").get_data(as_text=True)
    assert_scaled(html, totals)
    assert len(POLYLINE.findall(html)) == 2 and "Anna &amp; Carl" in FIGURE.search(html).group(0)


def test_no_chart_before_the_first_hand(client, api):
    game = api.create("german")
    assert 'class="chart"' not in client.get(f"/g/{game['id']}").get_data(as_text=True)
    assert chart.running_totals([], ["A", "B"]) is None


@pytest.mark.parametrize(
    "totals",
    [[[0, 0]], [[3, 0], [5, 0]], [[-4, 4], [-10, 10]], [[100, -50, -50], [60, 0, -60]]],
)
def test_the_scale_always_holds_zero_and_stays_in_the_box(totals):
    c = chart.running_totals(totals, [str(i) for i in range(len(totals[0]))])
    assert c["top"]["y"] <= c["zero"] <= c["bottom"]["y"]
    for line in c["lines"]:
        for point in line["points"].split():
            x, y = map(float, point.split(","))
            assert c["left"] <= x <= c["right"] and 0 <= y <= c["height"]


@pytest.mark.needs_program
def test_the_pdf_prints_the_chart(client, api, danish, tmp_path):
    r = client.get(danish["links"]["pdf"])
    assert r.status_code == 200 and r.data[:4] == b"%PDF"
    path = tmp_path / "sheet.pdf"
    path.write_bytes(r.data)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    assert "Running totals" in text
    assert all(name in text.split("Running totals", 1)[1] for name in PLAYERS["danish"])
    subprocess.run(["pdftoppm", "-r", "40", "-png", str(path), str(tmp_path / "page")], check=True)
    assert list(tmp_path.glob("page*.png"))
