"""Issue 34, F-S2: the renderer is shared fairly. One client re-printing its own 500-hand game kept another user's
1-page PDFs at "503 Busy printing" (one renderer and a first-come lock per process); now each client has one PDF
drawing or waiting at a time (a second is 503 at once), the others' PDFs are drawn meanwhile, and the waiting is
bounded (RENDER_QUEUE in all; then 503)."""

import threading

import pytest

from scorekeeper.games import sheets

HAND = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 9}
PRINTER, READER, THIRD = "10.0.0.1", "10.0.0.2", "2001:db8::3"


@pytest.fixture
def held(monkeypatch):
    """render_pdf in place of the renderer: a document whose title starts with "hold" is drawn only once `release` is
    set (a 500-hand game being drawn, for as long as the test needs); any other at once."""
    release, started, drawn = threading.Event(), threading.Event(), []

    def render(doc):
        if str(doc.get("title", "")).startswith("hold"):
            started.set()
            assert release.wait(60), "never released"
        drawn.append(doc.get("title"))
        return b"%PDF-1.7 fake"

    monkeypatch.setattr(sheets, "render_pdf", render)
    yield release, started, drawn
    release.set()


def _get(app, url, who):
    return app.test_client().get(url, environ_base={"REMOTE_ADDR": who})


def _printing(app, url, who, answers):
    thread = threading.Thread(target=lambda: answers.append(_get(app, url, who).status_code))
    thread.start()
    return thread


def test_one_page_is_drawn_while_another_client_prints_its_big_game(app, api, held):
    release, started, drawn = held
    big = api.create("danish", title="hold: 500 hands")
    small = api.create("danish", title="one page")
    api.hand(small, HAND)
    answers = []
    printer = _printing(app, f"/g/{big['id']}/sheet.pdf", PRINTER, answers)
    try:
        assert started.wait(30)
        r = _get(app, f"/g/{small['id']}/sheet.pdf", READER)
        assert r.status_code == 200, r.status_code  # was 503 "Busy printing"
        assert r.data.startswith(b"%PDF") and "one page" in drawn
        assert _get(app, f"/blank/{'danish'}.pdf", THIRD).status_code == 200  # and a blank sheet for a third
    finally:
        release.set()
        printer.join(60)
    assert answers == [200]


def test_a_client_has_one_pdf_at_a_time_and_is_told_to_come_back(app, api, held):
    release, started, _drawn = held
    big = api.create("danish", title="hold: 500 hands")
    other = api.create("danish", title="hold too")
    answers = []
    printer = _printing(app, f"/g/{big['id']}/sheet.pdf", PRINTER, answers)
    try:
        assert started.wait(30)
        again = _get(app, f"/g/{other['id']}/sheet.pdf", PRINTER)
        assert again.status_code == 503 and again.headers["Retry-After"] == "5"
        assert "Another PDF is being made right now" in again.get_data(as_text=True)
    finally:
        release.set()
        printer.join(60)
    assert answers == [200]
    assert _get(app, f"/g/{other['id']}/sheet.pdf", PRINTER).status_code == 200  # its turn, once the first is done


def test_the_waiting_is_bounded(app, api, held, monkeypatch):
    """RENDER_QUEUE PDFs drawing or waiting in all, one per client: one more client is 503 at once, not a thread held."""
    release, started, _drawn = held
    app.config["RENDER_QUEUE"] = 2
    games = [api.create("danish", title=f"hold {i}") for i in range(3)]
    answers = []
    threads = [_printing(app, f"/g/{games[i]['id']}/sheet.pdf", f"10.0.1.{i}", answers) for i in range(2)]
    try:
        assert started.wait(30)
        for _ in range(200):  # both admitted (one drawing, one waiting on the held stand-in)
            if sheets.renderer.turns.taken() == 2:
                break
            threading.Event().wait(0.05)
        assert sheets.renderer.turns.taken() == 2
        third = _get(app, f"/g/{games[2]['id']}/sheet.pdf", "10.0.1.9")
        assert third.status_code == 503
    finally:
        release.set()
        for thread in threads:
            thread.join(60)
    assert answers == [200, 200]
    assert sheets.renderer.turns.taken() == 0
