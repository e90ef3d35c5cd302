"""Bounded cost for the expensive answers: a game takes at most MAX_HANDS hands, a game's PDF is drawn once per
version and language and then kept, and one PDF at a time per worker is drawn, in a child process."""

import contextlib
import json
import re
import sqlite3
import threading
import time
import urllib.error
import urllib.request

import pytest

from helpers import PLAYERS, dump, waitress_in_thread
from scorekeeper import create_app
from scorekeeper.games import service, sheets
from scorekeeper.server.db import get_db

HAND = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 9}
FORM_HAND = {"bidder": "0", "bid": "8", "trump": "spades", "partner": "2", "tricks": "9"}


@pytest.fixture
def app(db_path):
    return create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "test", "MAX_HANDS": 5})


def exported(n: int, variant: str = "danish", **extra) -> dict:
    return {
        "format": service.EXPORT_FORMAT,
        "variant": variant,
        "players": PLAYERS[variant],
        "dealer": 0,
        "options": {},
        "hands": [{"passed": True}] * n,
        **extra,
    }


# ---------------------------------------------------------------- the hand limit


def test_the_limit_is_500_hands_and_set_by_the_environment(db_path, monkeypatch):
    assert create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "x"}).config["MAX_HANDS"] == 500
    monkeypatch.setenv("SCOREKEEPER_MAX_HANDS", "42")
    assert create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "x"}).config["MAX_HANDS"] == 42


def test_a_hand_beyond_the_limit_is_refused_by_the_api(api, db_path):
    game = api.create("danish")
    for _ in range(5):
        api.hand(game, HAND)
    before = dump(db_path)
    refused = api.hand(game, {"passed": True}, status=409)
    assert list(refused["errors"]) == ["hands"] and "at most 5 hands" in refused["errors"]["hands"]
    assert dump(db_path) == before


def test_a_hand_beyond_the_limit_is_refused_on_the_form_page(client, api, db_path):
    game = api.create("danish")
    for _ in range(5):
        api.hand(game, HAND)
    client.get(f"/g/{game['id']}/k/{game['edit_key']}")
    page = client.get(f"/g/{game['id']}/hands/new")
    assert page.status_code == 200 and "at most 5 hands" in page.get_data(as_text=True)  # said before it is filled in
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    before = dump(db_path)
    r = client.post(f"/g/{game['id']}/hands/new", data={"csrf_token": token, **FORM_HAND})
    assert r.status_code == 409
    assert "at most 5 hands; start a new game to play on" in r.get_data(as_text=True)
    assert dump(db_path) == before
    assert client.get(f"/g/{game['id']}/hands/5").status_code == 200  # the hands it has can still be edited


def test_an_import_with_more_hands_than_the_limit_is_refused(client, db_path):
    before = dump(db_path)
    r = client.post("/api/games/import", json=exported(6))
    assert r.status_code == 400 and list(r.json["errors"]) == ["hands"]
    assert "has 6 hands; a game takes at most 5" in r.json["errors"]["hands"]
    assert dump(db_path) == before
    assert client.post("/api/games/import", json=exported(5)).status_code == 201


def test_the_service_takes_the_limit_from_its_caller(app):
    with app.app_context():
        game_id, key = service.import_game(get_db(), exported(3), max_hands=3)
        with pytest.raises(service.HandLimit):
            service.add_hand(get_db(), game_id, HAND, key, max_hands=3)
        service.add_hand(get_db(), game_id, HAND, key)  # None: no limit (the scorer tests' long games)


# ---------------------------------------------------------------- the kept PDF


@pytest.fixture
def renders(monkeypatch):
    """Counts the PDFs drawn (each a tiny fake PDF naming its count), in place of the child process."""
    drawn = []

    def fake(html):
        drawn.append(html)
        return b"%PDF-1.7 fake " + str(len(drawn)).encode()

    monkeypatch.setattr(sheets, "render_pdf", fake)
    return drawn


def test_a_games_pdf_is_drawn_once_then_kept(client, api, renders, tmp_path):
    game = api.create("danish", title="Torsdag")
    api.hand(game, HAND)
    url = f"/g/{game['id']}/sheet.pdf"
    first = client.get(url)
    assert first.status_code == 200 and first.mimetype == "application/pdf" and len(renders) == 1
    assert first.headers["Content-Disposition"] == f'attachment; filename="protokoll-{game["id"]}.pdf"'
    assert first.headers["Cache-Control"] == "private, no-cache"
    etag = first.headers["ETag"]
    assert re.fullmatch(r'"[0-9]+-[0-9a-f]+-en-sheet"', etag)  # strong
    kept = list((tmp_path / "pdf").glob("*.pdf"))
    assert [p.read_bytes() for p in kept] == [first.data]
    again = client.get(url)
    assert again.data == first.data and again.headers["ETag"] == etag and len(renders) == 1
    assert "X-Content-Type-Options" in again.headers  # the app's headers still
    # The browser revalidates: 304, no body, nothing drawn.
    unchanged = client.get(url, headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.data == b"" and unchanged.headers["ETag"] == etag
    assert len(renders) == 1
    # Another language is another PDF, kept beside the first.
    danish = client.get(url + "?lang=da")
    assert danish.headers["ETag"] != etag and danish.headers["ETag"].endswith('-da-sheet"') and len(renders) == 2
    assert len(list((tmp_path / "pdf").glob("*.pdf"))) == 2
    # A new hand is a new version: a new ETag, drawn again, and the old version's files are gone.
    api.hand(game, {"passed": True})
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag and len(renders) == 3
    assert [p.read_bytes() for p in (tmp_path / "pdf").glob("*.pdf")] == [changed.data]


def test_a_renamed_player_is_a_new_pdf(client, api, renders, db_path):
    """A club renames a member in the games they played: the version stays, the printed names change."""
    game = api.create("danish")
    url = f"/g/{game['id']}/sheet.pdf"
    etag = client.get(url).headers["ETag"]
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute("UPDATE games SET players = ? WHERE id = ?", ['["Anne","Bo","Carl","Dina"]', game["id"]])
    conn.close()
    r = client.get(url, headers={"If-None-Match": etag})
    assert r.status_code == 200 and r.headers["ETag"] != etag and len(renders) == 2
    assert "Anne" in json.dumps(renders[-1], ensure_ascii=False)  # the document the renderer was sent


def test_the_games_blank_pdf_is_kept_too(client, api, renders):
    game = api.create("german")
    first = client.get(f"/g/{game['id']}/blank.pdf")
    assert first.status_code == 200 and first.headers["ETag"].endswith('-blank"')
    assert client.get(f"/g/{game['id']}/blank.pdf").data == first.data and len(renders) == 1
    assert client.get(f"/g/{game['id']}/sheet.pdf").headers["ETag"] != first.headers["ETag"]


def test_the_kept_pdfs_stay_under_their_size(app, client, api, renders, tmp_path):
    app.config["PDF_KEEP_BYTES"] = 40  # two fake PDFs of 15 bytes, not three
    urls = [f"/g/{api.create('german')['id']}/sheet.pdf" for _ in range(3)]
    for url in urls:
        client.get(url)
    assert len(list((tmp_path / "pdf").glob("*.pdf"))) == 2
    client.get(urls[0])  # the oldest went; it is drawn again
    assert len(renders) == 4


def test_a_pdf_half_written_by_a_killed_worker_goes_an_hour_on(client, api, renders, tmp_path):
    """A `.part-` file is moved into place or removed at once, unless its worker was killed while writing it: the next
    PDF kept takes such a file away once it is older than PART_AGE (issue 43: every store has a bound)."""
    import os
    import time

    folder = tmp_path / "pdf"
    folder.mkdir(exist_ok=True)
    old, new = folder / ".part-killed", folder / ".part-drawing"
    for path in (old, new):
        path.write_bytes(b"%PDF half")
    long_ago = time.time() - sheets.PART_AGE - 1
    os.utime(old, (long_ago, long_ago))
    client.get(f"/g/{api.create('german')['id']}/sheet.pdf")
    assert not old.exists() and new.exists()  # one another worker may be writing now stays


# ---------------------------------------------------------------- one at a time


@pytest.mark.parametrize("path", ["sheet.pdf", "blank.pdf", "/blank/danish.pdf"])
def test_a_pdf_asked_for_while_the_clients_other_is_drawn_is_503(client, api, renders, path):
    game = api.create("danish", language="sv")
    url = path if path.startswith("/") else f"/g/{game['id']}/{path}"
    assert sheets.renderer.turns.take("127.0.0.1", 3)  # this client's other PDF is being drawn
    try:
        r = client.get(url, headers={"Accept-Language": "en"})
    finally:
        sheets.renderer.turns.give_back("127.0.0.1")
    assert r.status_code == 503 and r.headers["Retry-After"] == "5" and r.mimetype == "text/html"
    page = r.get_data(as_text=True)
    assert '<html lang="en"' in page  # the reader's language, not the sheet's (sv)
    assert "Another PDF is being made right now. Please try again in a few seconds." in page
    assert renders == []
    assert client.get(url).status_code == 200 and len(renders) == 1


def test_a_pdf_that_takes_too_long_is_503_and_its_turn_is_given_back(client, api, monkeypatch):
    def slow(html):
        raise sheets.Busy("the PDF took more than 120 s")

    monkeypatch.setattr(sheets, "render_pdf", slow)
    game = api.create("danish")
    r = client.get(f"/g/{game['id']}/sheet.pdf")
    assert r.status_code == 503 and r.headers["Retry-After"] == "5"
    assert sheets.renderer.turns.taken() == 0


def test_the_child_process_draws_the_pdf(app):
    with app.test_request_context("/"):
        assert sheets.render_pdf({"title": "Æ", "blocks": [{"kind": "p", "text": "Æ"}]}).startswith(b"%PDF")


# ---------------------------------------------------------------- the largest game under waitress


def long_danish_game() -> dict:
    """The most expensive sheet the app takes: 500 Danish hands, five players with long names."""
    import random

    rng = random.Random(1)
    hands = []
    for i in range(500):
        out = i % 5  # the dealer sits out
        seats = [s for s in range(5) if s != out]
        bidder, partner = rng.choice(seats), rng.choice(seats)
        hands.append(
            {
                "bidder": bidder,
                "bid": rng.choice([7, 8, 9]),
                "suffix": rng.choice(["plain", "vip", "halve"]),
                "trump": rng.choice(["hearts", "spades"]),
                "partner": partner,
                "tricks": rng.randrange(4, 14),
            }
        )
    names = [f"Skovbo-Kristoffersen-Høegh-Guldberg {i}" for i in range(5)]
    return {
        "format": service.EXPORT_FORMAT,
        "variant": "danish",
        "title": "Lang aften " * 7,
        "players": names,
        "dealer": 0,
        "options": {"rate": 0.05},
        "hands": hands,
    }


@pytest.mark.slow  # two 500-hand PDFs under waitress
def test_two_pdfs_of_the_largest_game_do_not_hold_up_the_pages(tmp_path):
    """One PDF drawn at a time per worker, the other told at once to come back; the pages answered meanwhile as
    quickly as before it (relative to the same pages in the same run: the machine may be loaded), and the drawn PDF
    kept. The render may take as long as a loaded machine needs: PDF_TIMEOUT and the client's wait are generous."""
    app = create_app(
        {"DATABASE": str(tmp_path / "w.sqlite"), "SECRET_KEY": "x", "GC_FREEZE": False, "PDF_TIMEOUT": 600}
    )
    with app.app_context():
        big, _ = service.import_game(get_db(), long_danish_game(), max_hands=app.config["MAX_HANDS"])
        small, _ = service.import_game(get_db(), exported(10))
    stack = contextlib.ExitStack()
    server = stack.enter_context(waitress_in_thread(app, threads=8))
    base = f"http://127.0.0.1:{server.effective_port}"

    def get(path):
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(base + path, timeout=900) as r:
                r.read()
                return r.status, time.perf_counter() - started, r.headers
        except urllib.error.HTTPError as exc:
            return exc.code, time.perf_counter() - started, exc.headers

    def download():
        try:
            answers.append(get(f"/g/{big}/sheet.pdf"))
        except Exception as exc:  # reported by the assertion below, not lost with the thread
            answers.append((repr(exc), 0, {}))

    try:
        assert get("/")[0] == 200 and get(f"/g/{small}")[0] == 200 and get(f"/g/{big}")[0] == 200
        before = sorted(get("/")[1] + get(f"/g/{small}")[1] for _ in range(10))
        answers: list = []
        downloads = [threading.Thread(target=download) for _ in range(2)]
        for thread in downloads:
            thread.start()
        time.sleep(0.1)
        waits = []
        while downloads[0].is_alive() or downloads[1].is_alive():
            waits.append(get("/")[1] + get(f"/g/{small}")[1])
            time.sleep(0.05)
        statuses = sorted(str(a[0]) for a in answers)
        assert statuses == ["200", "503"], statuses  # one drawn; the other told to come back
        assert [a[2]["Retry-After"] for a in answers if a[0] == 503] == ["5"]
        drawn = next(a[1] for a in answers if a[0] == 200)
        waits.sort()
        # Answered throughout: a server held up by the drawing would keep every page waiting for most of it. ReportLab
        # draws the 500 hands in under a second of CPU, so a few page pairs fit in it (three at least on a loaded
        # machine); one of them may meet the two cores at their busiest (a fresh clone's run once saw one pair of ten
        # at 1.3 s of a 2.0 s drawing, the other nine under 0.02 s).
        assert len(waits) >= 3 and waits[-2] < drawn / 2, (len(waits), waits, drawn)
        assert waits[len(waits) // 2] < max(20 * before[len(before) // 2], 0.5), (waits, before)
        again = get(f"/g/{big}/sheet.pdf")  # kept: a file read, not drawn again
        assert again[0] == 200 and again[1] < drawn / 2
    finally:
        stack.close()


def test_a_game_stored_before_the_limit_is_not_drawn_as_a_pdf(client, api, renders, db_path):
    """A game with more hands than MAX_HANDS (stored before the limit, or with a larger one) gets a 413 page, not a
    PDF whose drawing could take a minute and a gigabyte; its print page and CSV still work."""
    game = api.create("danish")
    for _ in range(5):
        api.hand(game, HAND)
    conn = sqlite3.connect(db_path)
    conn.execute(
        "INSERT INTO hands (game_id, input, created, updated) SELECT game_id, input, created, updated FROM hands LIMIT 1"
    )
    conn.commit()
    conn.close()
    r = client.get(f"/g/{game['id']}/sheet.pdf")
    assert r.status_code == 413 and b"CSV" in r.data and renders == []
    assert client.get(f"/g/{game['id']}/print").status_code == 200
    assert client.get(f"/g/{game['id']}/hands.csv").status_code == 200
