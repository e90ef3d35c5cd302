"""The PDF renderer process: started once per worker and kept, one job at a time; a job that runs out of time or a
renderer that dies is a 503 and the next PDF works; a renderer that has grown past its bound is replaced."""

import os
import signal
import sys

import pytest

from scorekeeper.games import sheets

pytestmark = pytest.mark.slow  # starts, times out and kills PDF renderer processes

HAND = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 9}
SHEET = {"title": "Æ Ø Å", "blocks": [{"kind": "p", "text": "Æ Ø Å −20 ♠ ♥ ♦ ♣"}]}

# A stand-in renderer speaking the same protocol: it dies on a job while the file `crash` exists (and removes it),
# and otherwise answers a tiny PDF.
FAKE = """
import os, sys
from scorekeeper.server.pdf import ANSWER, JOB, read_exactly
while (head := read_exactly(sys.stdin.buffer, JOB.size)) is not None:
    read_exactly(sys.stdin.buffer, JOB.unpack(head)[0])
    if os.path.exists(sys.argv[1]):
        os.remove(sys.argv[1])
        os._exit(3)
    sys.stdout.buffer.write(ANSWER.pack(b"K", 9, 1) + b"%PDF-fake")
    sys.stdout.buffer.flush()
"""


@pytest.fixture
def renderer(monkeypatch):
    """A renderer of this test's own, stopped after it."""
    fresh = sheets.Renderer()
    monkeypatch.setattr(sheets, "renderer", fresh)
    yield fresh
    fresh.stop()


@pytest.fixture
def fake(renderer, tmp_path, monkeypatch):
    script = tmp_path / "fake_renderer.py"
    script.write_text(FAKE)
    monkeypatch.setattr(renderer, "COMMAND", (sys.executable, str(script), str(tmp_path / "crash")))
    return tmp_path / "crash"


def pid(renderer) -> int:
    return renderer.proc.pid


def test_one_renderer_draws_one_pdf_after_another(app, renderer):
    with app.test_request_context("/"):
        assert sheets.render_pdf(SHEET).startswith(b"%PDF")
        first = pid(renderer)
        assert sheets.render_pdf(SHEET).startswith(b"%PDF")
    assert pid(renderer) == first


def test_a_renderer_that_died_while_idle_is_replaced_without_a_503(app, renderer):
    with app.test_request_context("/"):
        sheets.render_pdf(SHEET)
        os.kill(pid(renderer), signal.SIGKILL)
        renderer.proc.wait()
        assert sheets.render_pdf(SHEET).startswith(b"%PDF")


def test_a_renderer_that_dies_during_a_pdf_is_503_and_the_next_pdf_works(client, api, fake):
    game = api.create("danish")
    api.hand(game, HAND)
    fake.write_text("")
    r = client.get(f"/g/{game['id']}/sheet.pdf")
    assert r.status_code == 503 and r.headers["Retry-After"] == "5"
    assert sheets._drawing.acquire(blocking=False)
    sheets._drawing.release()
    r = client.get(f"/g/{game['id']}/sheet.pdf")
    assert r.status_code == 200 and r.data == b"%PDF-fake"


def test_a_pdf_that_runs_out_of_time_is_503_the_renderer_is_killed_and_the_next_pdf_works(
    client, api, renderer, monkeypatch
):
    game = api.create("danish")
    for _ in range(3):
        api.hand(game, HAND)
    with client.application.test_request_context("/"):
        sheets.render_pdf(SHEET)  # started and warm
    slow = pid(renderer)
    monkeypatch.setitem(client.application.config, "PDF_TIMEOUT", 0.001)
    r = client.get(f"/g/{game['id']}/sheet.pdf")
    assert r.status_code == 503 and r.headers["Retry-After"] == "5"
    assert pid(renderer) != slow  # killed, and a fresh one started
    with pytest.raises(ProcessLookupError):
        os.kill(slow, 0)
    monkeypatch.setitem(client.application.config, "PDF_TIMEOUT", 120)
    r = client.get(f"/g/{game['id']}/sheet.pdf")
    assert r.status_code == 200 and r.data.startswith(b"%PDF")


def test_a_renderer_grown_past_its_bound_is_replaced_after_its_pdf(app, renderer, monkeypatch):
    with app.test_request_context("/"):
        sheets.render_pdf(SHEET)
        first = pid(renderer)
        monkeypatch.setattr(renderer, "MAX_RSS", 1)
        assert sheets.render_pdf(SHEET).startswith(b"%PDF")  # the PDF is answered; then the renderer goes
        assert pid(renderer) != first
        monkeypatch.setattr(renderer, "MAX_RSS", sheets.Renderer.MAX_RSS)
        second = pid(renderer)
        sheets.render_pdf(SHEET)
        assert pid(renderer) == second
