"""Bounded paper for whist drives (issue 22, finding 2): a drive takes at most DRIVE_MAX_TABLES tables and
DRIVE_MAX_HANDS hands, a drive stored with more gets a page that says so instead of a minute of drawing, a drive's PDFs
are kept per drive version and language as a game's are, its expensive print pages are kept per version in the worker,
and drive paper is drawn by a renderer of its own, so that it never holds the one a game's PDF needs."""

import contextlib
import json
import os
import re
import threading
import time
import urllib.error
import urllib.request

import pytest

from helpers import PLAYERS, dump, token, waitress_in_thread
from scorekeeper import create_app
from scorekeeper.drives import cards as drive_cards
from scorekeeper.games import service as game_service
from scorekeeper.games import sheets
from scorekeeper.server import printing
from scorekeeper.server.db import get_db


def people(tables: int) -> dict:
    return {
        "format": "progressive",
        "ladies": [f"Lady {i}" for i in range(2 * tables)],
        "gents": [f"Gent {i}" for i in range(2 * tables)],
    }


@pytest.fixture
def app(db_path):
    return create_app(
        {"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "test", "DRIVE_MAX_TABLES": 3, "DRIVE_MAX_HANDS": 4}
    )


def new_drive(client, tables=2, hands=2, status=201, **extra):
    r = client.post("/api/drives", json={**people(tables), "hands": hands, "title": "Village hall", **extra})
    assert r.status_code == status, r.json
    return r.json


def enter(client, drive, hand, table, first, status=201):
    r = client.post(
        f"/api/drives/{drive['id']}/hands/{hand}/tables/{table}",
        json={"tricks": [first, 13 - first]},
        headers={"X-Edit-Key": drive["edit_key"]},
    )
    assert r.status_code == status, r.json
    return r.json


@pytest.fixture
def renders(monkeypatch):
    """Counts the PDFs drawn, by which renderer (each a tiny fake PDF naming its count), in place of the child
    processes. Every PDF is a ReportLab document now (the renderer's job {"doc": …}), never a page's HTML."""
    drawn = []

    def fake(paper):
        def draw(doc):
            assert isinstance(doc, dict) and isinstance(doc.get("blocks"), list), "not a document for ReportLab"
            drawn.append((paper, doc))
            return b"%PDF-1.7 fake " + str(len(drawn)).encode()

        return draw

    monkeypatch.setattr(sheets, "render_pdf", fake("sheets"))
    monkeypatch.setattr(sheets, "render_drive_pdf", fake("drives"))
    return drawn


# ---------------------------------------------------------------- the bounds


def test_the_bounds_are_30_tables_and_30_hands_and_set_by_the_environment(db_path, monkeypatch):
    app = create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "x"})
    assert (app.config["DRIVE_MAX_TABLES"], app.config["DRIVE_MAX_HANDS"]) == (30, 30)
    monkeypatch.setenv("SCOREKEEPER_DRIVE_MAX_TABLES", "40")
    monkeypatch.setenv("SCOREKEEPER_DRIVE_MAX_HANDS", "36")
    app = create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "x"})
    assert (app.config["DRIVE_MAX_TABLES"], app.config["DRIVE_MAX_HANDS"]) == (40, 36)
    client = app.test_client()
    assert client.post("/api/drives", json={**people(40), "hands": 36}).status_code == 201
    assert client.post("/api/drives", json={**people(41), "hands": 36}).status_code == 400


def test_the_default_bounds_refuse_the_drive_of_the_attack(db_path):
    """100 tables and 100 hands: refused in words, naming the fields, and nothing is stored."""
    client = create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "x"}).test_client()
    before = dump(db_path)
    r = client.post("/api/drives", json={**people(100), "hands": 100}, headers={"Accept-Language": "da"})
    assert r.status_code == 400, r.json
    assert sorted(r.json["errors"]) == ["hands", "ladies"]
    assert "30" in r.json["errors"]["ladies"] and "30" in r.json["errors"]["hands"]
    assert r.json["errors"]["ladies"] != "a drive has at most 30 tables"  # in the reader's language
    assert dump(db_path) == before
    assert client.post("/api/drives", json={**people(30), "hands": 30}).status_code == 201


@pytest.mark.parametrize(
    "tables, hands, field, words",
    [
        (4, 2, "ladies", "a drive has at most 3 tables"),
        (3, 5, "hands", "must be a whole number from 1 to 4"),
    ],
)
def test_a_drive_over_the_bounds_is_refused_by_the_api(client, db_path, tables, hands, field, words):
    before = dump(db_path)
    r = new_drive(client, tables=tables, hands=hands, status=400)
    assert r["errors"] == {field: words}
    assert dump(db_path) == before
    couples = client.post(
        "/api/drives",
        json={"format": "couples", "pairs": [[f"L{i}", f"G{i}"] for i in range(8)], "hands": 2},
    )
    assert couples.status_code == 400 and couples.json["errors"] == {"pairs": "a drive has at most 3 tables"}
    assert dump(db_path) == before
    new_drive(client, tables=3, hands=4)  # at the bounds: taken


def test_a_drive_over_the_bounds_is_refused_on_the_form_page(client, db_path):
    page = client.get("/drives/new").get_data(as_text=True)
    assert "At most 3 tables and 4 hands." in page  # said before it is filled in
    before = dump(db_path)
    data = {
        "csrf_token": token(client, "/drives/new"),
        "format": "progressive",
        "ladies": "\n".join(f"Lady {i}" for i in range(8)),
        "gents": "\n".join(f"Gent {i}" for i in range(8)),
        "hands": "5",
        "interval_after": "2",
        "tie_break": "share",
        "trump0": "hearts",
    }
    r = client.post("/drives/new", data=data)
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert "a drive has at most 3 tables" in html and "must be a whole number from 1 to 4" in html
    assert dump(db_path) == before


def test_a_blank_card_has_at_most_the_bound_of_hands(client):
    html = client.get("/drives/blank?hands=5").get_data(as_text=True)
    assert "<tr><td>5</td>" not in html and "<tr><td>24</td>" not in html  # over the bound: the default, cut to it
    assert "<tr><td>4</td>" in client.get("/drives/blank?hands=4").get_data(as_text=True)


def test_a_drive_stored_before_the_bound_gets_a_page_not_paper(app, client, renders, monkeypatch):
    """A drive with more tables or hands than the bounds now allow (stored under larger ones): its score cards and tally
    cards, page and PDF, are a 413 page in words, nothing is drawn and the cards are not even built; its own pages,
    the standings and the table cards (one per table: bounded by the tables) still work."""
    app.config.update(DRIVE_MAX_TABLES=100, DRIVE_MAX_HANDS=100)
    drive = new_drive(client, tables=5, hands=6)
    app.config.update(DRIVE_MAX_TABLES=3, DRIVE_MAX_HANDS=4)
    built = []
    monkeypatch.setattr(drive_cards, "score_cards", lambda sheet: built.append(sheet))
    monkeypatch.setattr(drive_cards, "tally_cards", lambda sheet: built.append(sheet))
    for kind in ("scorecards", "tally", "scorecards.pdf", "tally.pdf"):
        r = client.get(f"/d/{drive['id']}/{kind}", headers={"Accept-Language": "en"})
        assert r.status_code == 413 and r.mimetype == "text/html", kind
        text = r.get_data(as_text=True)
        assert "Too large to print" in text
        assert "This drive has 5 tables and 6 hands" in text and "at most 3 tables and 4 hands" in text
    danish = client.get(f"/d/{drive['id']}/scorecards", headers={"Accept-Language": "da"}).get_data(as_text=True)
    assert "This drive has" not in danish and "5" in danish
    assert renders == [] and built == []
    client.get(drive["edit_page"])
    for path in ("", "/screen", "/standings", "/standings.pdf", "/cards", "/cards.pdf"):
        assert client.get(f"/d/{drive['id']}{path}").status_code == 200, path
    assert client.get(f"/api/drives/{drive['id']}").status_code == 200


# ---------------------------------------------------------------- drive PDFs kept per version and language


@pytest.mark.parametrize("kind", ["scorecards", "tally", "standings", "cards"])
def test_a_drives_pdf_is_drawn_once_per_version_and_language_then_kept(client, renders, tmp_path, kind):
    drive = new_drive(client, tables=2, hands=3)
    client.get(drive["edit_page"])  # the table cards are the organiser's
    url = f"/d/{drive['id']}/{kind}.pdf"
    first = client.get(url)
    assert first.status_code == 200 and first.mimetype == "application/pdf"
    assert [paper for paper, _html in renders] == ["drives"]  # drawn by the drives' renderer
    assert first.headers["Content-Disposition"] == f'attachment; filename="drive-{drive["id"]}-{kind}.pdf"'
    etag = first.headers["ETag"]
    assert re.fullmatch(rf'"0-[0-9a-f]+-en-{kind}"', etag)
    kept = list((tmp_path / "pdf").glob("*.pdf"))
    assert [p.read_bytes() for p in kept] == [first.data]
    again = client.get(url)
    assert again.data == first.data and again.headers["ETag"] == etag and len(renders) == 1
    unchanged = client.get(url, headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.data == b"" and len(renders) == 1
    swedish = client.get(url + "?lang=sv")
    assert swedish.headers["ETag"].endswith(f'-sv-{kind}"') and len(renders) == 2
    assert len(list((tmp_path / "pdf").glob("*.pdf"))) == 2
    # A result is a new version: drawn again, and the older version's files go.
    enter(client, drive, 1, 1, 8)
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"].startswith('"1-') and len(renders) == 3
    assert [p.read_bytes() for p in (tmp_path / "pdf").glob("*.pdf")] == [changed.data]


def test_a_drives_kinds_of_paper_are_kept_side_by_side(client, renders, tmp_path):
    drive = new_drive(client)
    client.get(drive["edit_page"])
    for kind in ("scorecards", "tally", "standings", "cards"):
        client.get(f"/d/{drive['id']}/{kind}.pdf")
    assert len(renders) == 4 and len(list((tmp_path / "pdf").glob("*.pdf"))) == 4
    for kind in ("scorecards", "tally", "standings", "cards"):
        client.get(f"/d/{drive['id']}/{kind}.pdf")
    assert len(renders) == 4


def test_another_host_header_draws_only_the_table_cards_again(client, renders):
    """The table cards' QR codes carry the address the phone used (without PUBLIC_URL): theirs is kept per address;
    the score cards show no address, so a Host header of a stranger's choosing does not make them drawn again."""
    drive = new_drive(client)
    for host in ("localhost", "hall.local", "other.example"):
        client.get(drive["edit_page"], headers={"Host": host})  # the session cookie is the host's
        assert client.get(f"/d/{drive['id']}/scorecards.pdf", headers={"Host": host}).status_code == 200
        assert client.get(f"/d/{drive['id']}/cards.pdf", headers={"Host": host}).status_code == 200
    assert ["Own tricks" in json.dumps(doc) for _paper, doc in renders].count(True) == 1  # the score cards
    cards = [json.dumps(doc) for _paper, doc in renders if '"kind": "qr"' in json.dumps(doc)]  # a card a section
    assert len(cards) == 3 and "http://other.example/d/" in cards[-1]


def test_a_drive_and_a_game_with_the_same_id_keep_their_own_pdfs(client, api, renders, tmp_path, monkeypatch):
    game = api.create("german")
    drive = new_drive(client)
    client.get(f"/g/{game['id']}/sheet.pdf")
    client.get(f"/d/{drive['id']}/scorecards.pdf")
    enter(client, drive, 1, 1, 8)
    client.get(f"/d/{drive['id']}/scorecards.pdf")  # the drive's older file goes, the game's stays
    names = sorted(p.name for p in (tmp_path / "pdf").glob("*.pdf"))
    assert len(names) == 2 and any(n.startswith(game["id"] + ".") for n in names), names


def test_the_real_renderer_draws_drive_paper_once(client, tmp_path, monkeypatch):
    """Through the drives' own renderer process: the PDF is ReportLab's (its job a document, {"doc": …}), kept byte
    for byte, not drawn again."""
    real = sheets.drive_renderer.draw
    jobs = []
    monkeypatch.setattr(sheets.drive_renderer, "draw", lambda job, timeout: jobs.append(job) or real(job, timeout))
    drive = new_drive(client, tables=2, hands=2)
    first = client.get(f"/d/{drive['id']}/scorecards.pdf")
    assert first.status_code == 200 and first.data.startswith(b"%PDF") and len(jobs) == 1
    assert list(jobs[0]) == ["doc"] and b"ReportLab" in first.data
    assert sheets.drive_renderer.pool is not None and sheets.drive_renderer.pool.active
    assert client.get(f"/d/{drive['id']}/scorecards.pdf").data == first.data and len(jobs) == 1
    assert [p.read_bytes() for p in (tmp_path / "pdf").glob("*.pdf")] == [first.data]


def test_score_cards_are_drawn_as_one_document_four_to_a_sheet(client, monkeypatch):
    """ReportLab draws a hall's score cards from the whole context in one document (no parts joined: its memory does
    not grow with the cards as WeasyPrint's layout did): every card in order, four A6 to an A4 page (issue 25), no
    page numbers; the tally cards a page each."""
    import io

    from pypdf import PdfReader

    real = sheets.render_drive_pdf
    jobs = []
    monkeypatch.setattr(sheets, "render_drive_pdf", lambda doc: jobs.append(doc) or real(doc))
    drive = new_drive(client, tables=3, hands=2)  # 12 score cards: three sheets of four
    r = client.get(f"/d/{drive['id']}/scorecards.pdf")
    assert r.status_code == 200 and len(jobs) == 1 and isinstance(jobs[0], dict)
    assert [len(b["cells"]) for b in jobs[0]["blocks"]] == [4, 4, 4]
    pages = [page.extract_text() for page in PdfReader(io.BytesIO(r.data)).pages]
    names = [f"Lady {i}" for i in range(6)] + [f"Gent {i}" for i in range(6)]
    assert len(pages) == 3, pages
    for n, name in enumerate(names):
        assert name in pages[n // 4], (name, pages)
    assert not any(re.search(r"\b\d / \d\b", page) for page in pages)
    tally = client.get(f"/d/{drive['id']}/tally.pdf")
    assert tally.status_code == 200 and isinstance(jobs[1], dict)
    assert len(PdfReader(io.BytesIO(tally.data)).pages) == 3


def test_drive_paper_has_its_own_time_limit(app, client, monkeypatch):
    """The drives' renderer waits DRIVE_PDF_TIMEOUT (300 s: a hall's score cards on a loaded machine), the games'
    PDF_TIMEOUT; past it, the drive's PDF is a 503 and the next one is drawn."""
    assert app.config["DRIVE_PDF_TIMEOUT"] == 300 and app.config["PDF_TIMEOUT"] == 120
    waited = []

    def draw(job, timeout):
        waited.append(timeout)
        raise sheets.Busy(f"the PDF took more than {timeout} s")

    monkeypatch.setattr(sheets.drive_renderer, "draw", draw)
    drive = new_drive(client)
    r = client.get(f"/d/{drive['id']}/scorecards.pdf")
    assert r.status_code == 503 and r.headers["Retry-After"] == "5" and waited == [300]
    assert sheets.drive_renderer.turns.taken() == 0


# ---------------------------------------------------------------- the print pages kept per version


@pytest.mark.parametrize("kind, builder", [("scorecards", "score_cards"), ("tally", "tally_cards")])
def test_a_drives_print_page_is_built_once_per_version(client, monkeypatch, kind, builder):
    built = []
    real = getattr(drive_cards, builder)
    monkeypatch.setattr(drive_cards, builder, lambda sheet: built.append(sheet.version) or real(sheet))
    drive = new_drive(client, tables=2, hands=3)
    url = f"/d/{drive['id']}/{kind}"
    first = client.get(url)
    assert first.status_code == 200 and built == [0]
    assert "Lady 0" in first.get_data(as_text=True)
    other_phone = client.application.test_client()  # anonymous: the same kept page
    assert other_phone.get(url).data == first.data and built == [0]
    etag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "private, no-cache"
    assert other_phone.get(url, headers={"If-None-Match": etag}).status_code == 304 and built == [0]
    danish = client.get(url + "?lang=da")
    assert danish.data != first.data and built == [0, 0]  # another language is another page
    assert "?lang=da" in danish.get_data(as_text=True)  # its PDF link keeps the language
    enter(client, drive, 1, 1, 8)
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag and built == [0, 0, 1]
    assert "<td>8</td>" in changed.get_data(as_text=True)


# ---------------------------------------------------------------- a renderer for drive paper, another for games


# A stand-in for drive paper, run in the drives' renderer process by name (this module is importable there): it says it
# has the job (the file $HOLD_STARTED), then holds it until the file $HOLD_RELEASE exists, then answers a tiny PDF.
def holding(job) -> bytes:
    open(os.environ["HOLD_STARTED"], "w").close()
    while not os.path.exists(os.environ["HOLD_RELEASE"]):
        time.sleep(0.02)
    return b"%PDF-held-one."


@pytest.mark.needs_program  # a stand-in renderer that holds the drives' renderer
def test_a_games_pdf_is_drawn_while_a_drives_paper_is_drawn(tmp_path, monkeypatch):
    """While one drive's score cards are drawn (held by a stand-in renderer until the test lets it go), a game's PDF
    is drawn by the real renderer and answered 200, the drive's other paper is told to come back (503), and the
    held PDF is answered and kept once it is done. Before, one lock per worker answered the game 503 too."""
    started, release = tmp_path / "started", tmp_path / "release"
    monkeypatch.setenv("HOLD_STARTED", str(started))
    monkeypatch.setenv("HOLD_RELEASE", str(release))
    held = printing.Renderer(1, None)
    monkeypatch.setattr(held, "TASK", f"{__name__}:holding")
    monkeypatch.setattr(printing, "drive_renderer", held)
    monkeypatch.setattr(sheets, "drive_renderer", held)
    app = create_app({"DATABASE": str(tmp_path / "w.sqlite"), "SECRET_KEY": "x", "GC_FREEZE": False})
    client = app.test_client()
    drive = client.post("/api/drives", json={**people(2), "hands": 2}).json
    with app.app_context():
        game_id, _key = game_service.import_game(
            get_db(),
            {
                "format": game_service.EXPORT_FORMAT,
                "variant": "danish",
                "players": PLAYERS["danish"],
                "dealer": 0,
                "options": {},
                "hands": [{"passed": True}] * 3,
            },
        )
    stack = contextlib.ExitStack()
    server = stack.enter_context(waitress_in_thread(app, threads=4))
    stack.callback(held.stop)
    base = f"http://127.0.0.1:{server.effective_port}"

    def get(path):
        try:
            with urllib.request.urlopen(base + path, timeout=300) as r:
                return r.status, r.read(), r.headers
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read(), exc.headers

    answers = []
    scorecards = threading.Thread(target=lambda: answers.append(get(f"/d/{drive['id']}/scorecards.pdf")))
    try:
        scorecards.start()
        deadline = time.monotonic() + 120
        while not started.exists():  # the stand-in has the job (a wait, not a measurement)
            assert time.monotonic() < deadline and scorecards.is_alive(), answers
            time.sleep(0.05)
        status, body, _headers = get(f"/g/{game_id}/sheet.pdf")
        assert status == 200 and body.startswith(b"%PDF-") and b"held" not in body  # the real renderer's
        status, _body, headers = get(f"/d/{drive['id']}/tally.pdf")
        assert status == 503 and headers["Retry-After"] == "5"  # drive paper waits for drive paper
        assert answers == []  # the score cards are still being drawn
        release.touch()
        scorecards.join(120)
        assert [(s, b) for s, b, _h in answers] == [(200, b"%PDF-held-one.")]
        assert [p.read_bytes() for p in (tmp_path / "pdf").glob("drive-*.pdf")] == [b"%PDF-held-one."]
        assert get(f"/d/{drive['id']}/tally.pdf")[0] == 200  # the drives' renderer is free again
    finally:
        release.touch()
        stack.close()


def test_drive_paper_is_503_while_the_drives_renderer_is_busy_and_games_are_not(client, api, renders):
    drive = new_drive(client)
    game = api.create("danish")
    assert sheets.drive_renderer.turns.take("10.9.9.9", 1)  # another client's drive paper is being drawn
    try:
        assert client.get(f"/d/{drive['id']}/scorecards.pdf").status_code == 503
        assert client.get("/drives/blank.pdf").status_code == 503
        assert client.get(f"/g/{game['id']}/sheet.pdf").status_code == 200
    finally:
        sheets.drive_renderer.turns.give_back("10.9.9.9")
    assert [paper for paper, _html in renders] == ["sheets"]
    assert sheets.renderer.turns.take("127.0.0.1", 3)  # this client's other sheet is being drawn
    try:
        assert client.get(f"/g/{game['id']}/blank.pdf").status_code == 503
        assert client.get(f"/d/{drive['id']}/scorecards.pdf").status_code == 200
    finally:
        sheets.renderer.turns.give_back("127.0.0.1")
