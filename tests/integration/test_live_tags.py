"""Issue 37: the tags nginx answers watching phones from (server/live_tags.py, LIVE_TAGS) are kept while their page
stands and taken away when anything it is made of changes, whoever wrote it (nginx itself: test_proxy.py)."""

from __future__ import annotations

import re
import sqlite3

import pytest

from helpers import ROOT, Api
from scorekeeper import create_app
from scorekeeper.server import live_tags

DANISH = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 9}


@pytest.fixture
def served(db_path, tmp_path):
    folder = tmp_path / "live-tags"
    app = create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "x", "LIVE_TAGS": str(folder)})
    publisher = live_tags.publisher(app)
    publisher.every = 3600.0  # the thread asleep: each test says when the changes are looked at
    return app, folder, publisher


def _watch(client, game_id):
    """A phone opens the protokoll and polls as live.js does: (its tag, the answer)."""
    page = client.get(f"/g/{game_id}").get_data()
    tag = re.search(rb'data-live-tag="([^"]+)"', page).group(1).decode()
    answer = client.get(f"/g/{game_id}/live", headers={"X-Live-Tag": tag, "X-Live-Parts": "1"})
    return tag, answer


def test_a_told_tag_is_kept_and_a_hand_takes_it_away_before_its_answer(served):
    app, folder, _ = served
    client = app.test_client()
    api = Api(client)
    game, other = api.create("danish"), api.create("danish")
    page = client.get(f"/g/{game['id']}").get_data()  # the page tells the phone its tag: kept before its first poll
    told = re.search(rb'data-live-tag="([^"]+)"', page).group(1).decode()
    assert (folder / "g" / game["id"] / told).is_file()
    tag, answer = _watch(client, game["id"])
    assert (answer.status_code, answer.data) == (200, b"")
    kept = folder / "g" / game["id"] / tag
    assert kept.is_file() and kept.stat().st_size == 0
    assert oct(kept.stat().st_mode & 0o777) == "0o644"  # nginx reads it whatever the app's umask
    other_tag, _ = _watch(client, other["id"])
    api.hand(game, DANISH)
    assert not kept.exists()  # gone with the write's own request, before its answer
    assert (folder / "g" / other["id"] / other_tag).is_file()  # another table's hand moves nothing of this one's


def test_a_write_by_another_program_is_seen_at_the_next_look(served, db_path):
    app, folder, publisher = served
    client = app.test_client()
    game = Api(client).create("danish")
    tag, _ = _watch(client, game["id"])
    kept = folder / "g" / game["id"] / tag
    with sqlite3.connect(db_path) as other:  # not through the app: no request looks at the changes for it
        other.execute("UPDATE games SET title = 'Renamed' WHERE id = ?", (game["id"],))
    assert kept.exists()
    publisher.tick()
    assert not kept.exists()


def test_a_clubs_change_takes_away_its_tables_tags_and_a_restore_all(served, db_path):
    app, folder, publisher = served
    client = app.test_client()
    game = Api(client).create("danish")
    tag, _ = _watch(client, game["id"])
    kept = folder / "g" / game["id"] / tag
    with sqlite3.connect(db_path) as other:
        other.execute(
            "INSERT INTO live_versions (scope, version) VALUES ('epoch', 7)"
            " ON CONFLICT (scope) DO UPDATE SET version = excluded.version"
        )
    publisher.tick()
    assert not kept.exists()  # a new epoch (a restore): every tag goes

    with sqlite3.connect(db_path) as other:  # the game becomes a club's table
        other.execute(
            "INSERT INTO clubs (id, name, currency, variant, options, password_hash, created, updated)"
            " VALUES ('c1', 'Klub', 'DKK', 'danish', '{}', 'x', '2026-12-02', '2026-12-02')"
        )
        other.execute("INSERT INTO club_evenings (id, club_id, date, created) VALUES (1, 'c1', '2026-12-02', 'x')")
        other.execute("INSERT INTO club_tables (game_id, evening_id, number) VALUES (?, 1, 1)", (game["id"],))
    publisher.tick()
    tag, _ = _watch(client, game["id"])
    kept = folder / "g" / game["id"] / tag
    assert kept.exists()
    with sqlite3.connect(db_path) as other:  # the club renamed: what its tables' protokolls say of it
        other.execute("UPDATE clubs SET name = 'Klubben' WHERE id = 'c1'")
    publisher.tick()
    assert not kept.exists()


def test_a_tag_worked_out_before_a_change_is_not_kept(served, db_path):
    """The state was worked out over versions that moved before its file was made: the change may have been looked at
    already, so the file is not kept (else nginx would answer "nothing changed" for ever)."""
    app, folder, publisher = served
    client = app.test_client()
    game = Api(client).create("danish")
    with app.app_context():
        from scorekeeper.server.db import get_db

        before = publisher.versions(get_db(), "g", game["id"])
        with sqlite3.connect(db_path) as other:
            other.execute("UPDATE games SET title = 'Renamed' WHERE id = ?", (game["id"],))
        publisher.publish(get_db(), "g", game["id"], "0123456789abcdef", before)
        assert not (folder / "g" / game["id"] / "0123456789abcdef").exists()
        publisher.publish(get_db(), "g", game["id"], "0123456789abcdef", publisher.versions(get_db(), "g", game["id"]))
        assert (folder / "g" / game["id"] / "0123456789abcdef").exists()
        for tag, ident in (("../../x", game["id"]), ("0123456789abcdef", "../x"), ("ABCDEF0123456789", game["id"])):
            publisher.publish(get_db(), "g", ident, tag, before)  # never a path of its own making
    assert sorted(p.name for p in (folder / "g").rglob("*") if p.is_file()) == ["0123456789abcdef"]


def test_without_live_tags_nothing_is_written(app, client, api, tmp_path):
    assert live_tags.publisher(app) is None
    game = api.create("danish")
    _, answer = _watch(client, game["id"])
    assert answer.status_code == 200


def _poll(client, game_id, tag, parts=True, **headers):
    return client.get(
        f"/g/{game_id}/live", headers={"X-Live-Tag": tag, **({"X-Live-Parts": "1"} if parts else {}), **headers}
    )


def test_the_first_readers_answer_after_a_hand_is_kept_for_the_others_who_showed_the_same_page(served):
    """After a hand the table's watching phones ask with the same tag: the first is answered by the app, which keeps
    that answer beside the tags (`<tag>.parts`, `<tag>.page`) for nginx to give the others; only for a tag it told a
    plain reader in that language just before, and only until the page's next change."""
    app, folder, _ = served
    writer, reader = app.test_client(), app.test_client()
    api = Api(writer)
    game = api.create("danish")
    tag, _ = _watch(reader, game["id"])
    writer.get(f"/g/{game['id']}/k/{game['edit_key']}")  # the scorer's phone: its page has the edit form
    editor_tag, _ = _watch(writer, game["id"])
    assert editor_tag != tag
    api.hand(game, DANISH)
    here = folder / "g" / game["id"]
    assert not (here / tag).exists() and (folder / "was" / "g" / game["id"] / f"{tag}.en").exists()

    answer = _poll(reader, game["id"], tag)
    assert answer.status_code == 200 and b"hand-1" in answer.data
    assert (here / f"{tag}.parts").read_bytes() == answer.data  # what nginx gives the next phone with this tag
    assert oct((here / f"{tag}.parts").stat().st_mode & 0o777) == "0o644"
    danish = app.test_client()  # a reader in another language with the English reader's tag: its answer not kept
    assert b'lang="da"' in _poll(danish, game["id"], tag, parts=False, **{"Accept-Language": "da"}).data
    assert not (here / f"{tag}.page").exists()
    page = _poll(reader, game["id"], tag, parts=False)
    assert (here / f"{tag}.page").read_bytes() == page.data and b'id="sheet"' in page.data
    assert [p.name for p in here.iterdir() if p.name.startswith(".")] == []  # no temporary file left

    _poll(writer, game["id"], editor_tag)  # an editor's answer is its own: never kept
    assert not (here / f"{editor_tag}.parts").exists()
    _poll(reader, game["id"], "0123456789abcdef")  # a made-up tag writes nothing
    assert not (here / "0123456789abcdef.parts").exists()

    api.hand(game, DANISH)  # the next change: the kept answers leave nginx's sight with the tags
    assert not (here / f"{tag}.parts").exists() and not (here / f"{tag}.page").exists()


def test_an_answer_worked_out_before_a_change_is_not_kept(served, db_path):
    app, folder, publisher = served
    client = app.test_client()
    api = Api(client)
    game = api.create("danish")
    tag, _ = _watch(app.test_client(), game["id"])
    api.hand(game, DANISH)
    with app.app_context():
        from scorekeeper.server.db import get_db

        before = publisher.versions(get_db(), "g", game["id"])
        with sqlite3.connect(db_path) as other:
            other.execute("UPDATE games SET title = 'Renamed' WHERE id = ?", (game["id"],))
        publisher.keep_answer(get_db(), "g", game["id"], tag, "en", True, "<p>old</p>", before)
        assert not (folder / "g" / game["id"] / f"{tag}.parts").exists()
        for asked, ident, reader in ((tag, "../x", "en"), ("../../x", game["id"], "en"), (tag, game["id"], "../x")):
            publisher.keep_answer(get_db(), "g", ident, asked, reader, True, "<p>x</p>", before)
    assert not [p for p in (folder / "g").rglob("*") if p.is_file()]


def test_every_worker_sees_a_change_and_only_the_first_moves_its_tags(served, db_path):
    """Two workers look at the same change: the second leaves alone the tags told since (of the page as it is now)
    and the marks of the page before."""
    app, folder, publisher = served
    client = app.test_client()
    game = Api(client).create("danish")
    other_worker = live_tags.Publisher(str(folder), db_path, tick=3600.0)
    other_worker.tick()
    old_tag, _ = _watch(client, game["id"])
    with sqlite3.connect(db_path) as other:
        other.execute("UPDATE games SET title = 'Renamed' WHERE id = ?", (game["id"],))
    publisher.tick()
    new_tag, answer = _watch(client, game["id"])
    assert new_tag != old_tag and (folder / "g" / game["id"] / new_tag).exists()
    other_worker.tick()
    assert (folder / "g" / game["id"] / new_tag).exists()
    assert (folder / "was" / "g" / game["id"] / f"{old_tag}.en").exists()


# ---------------------------------------------------------------- a phone that takes the key after its page was drawn

NGINX_TAG = re.search(
    r'map \$http_x_live_tag \$scorekeeper_live_tag \{\s*"~(.+?)" \$tag;', (ROOT / "deploy" / "nginx.conf").read_text()
).group(1)


def _nginx(folder, game_id, asked: str, parts: bool = True) -> bytes | None:
    """What deploy/nginx.conf answers a poll with: its map takes the tag only as the app writes them, and try_files
    gives the tag's file or the answer kept for it; None: the poll goes to the app."""
    found = re.fullmatch(NGINX_TAG.replace("(?<tag>", "(?P<tag>").replace('\\"', '"'), asked)
    tag = found.group("tag") if found else "none"
    for name in (tag, f"{tag}.{'parts' if parts else 'page'}"):
        if (folder / "g" / game_id / name).is_file():
            return (folder / "g" / game_id / name).read_bytes()
    return None


def _asked(client, folder, game_id, asked: str) -> bytes:
    """A poll as live.js sends it, through nginx: its file, or the app's answer."""
    kept = _nginx(folder, game_id, asked)
    return kept if kept is not None else _poll(client, game_id, asked).data


def test_a_phone_that_took_the_key_after_its_page_was_drawn_gets_the_editors_answer(served):
    """Issue 43 (low): a phone whose page was drawn for a reader, and which took the edit key since (the edit link in
    another tab), asked with its page's tag: the readers' tag, so nginx answered it "nothing changed", and after a hand
    the readers' kept answer, without edit buttons until a reload. live.js sends that tag marked (web/live.KEYED) once
    this browser has drawn an editor's page of the game: nginx's map does not take it, and the app answers as the phone
    now is: the editor's page; the mark on a phone that is a reader again is answered and kept as a reader's."""
    from scorekeeper.web import live

    app, folder, _ = served
    scorer, reader, awake, asleep = (app.test_client() for _ in range(4))
    api = Api(scorer)
    game = api.create("danish")
    here = folder / "g" / game["id"]
    tag, _ = _watch(reader, game["id"])
    for phone in (awake, asleep):
        assert _watch(phone, game["id"])[0] == tag  # the same page, the same tag
        phone.get(f"/g/{game['id']}/k/{game['edit_key']}")  # then the phone takes the key
    marked = tag + live.KEYED

    assert _nginx(folder, game["id"], tag) == b""  # asked with the readers' tag: "nothing changed", no edit buttons
    assert _nginx(folder, game["id"], marked) is None  # the mark: not nginx's to answer
    answer = _poll(awake, game["id"], marked)
    editor_tag = answer.headers["ETag"].strip('"')
    assert editor_tag != tag and b'id="enter-hand"' in answer.data and b"data-form=" in answer.data
    assert not list(here.glob(f"{tag}.p*"))  # an editor's answer is never kept

    api.hand(game, DANISH)  # a phone that asks only after a hand: the readers' answer is kept for the readers
    seen = _asked(reader, folder, game["id"], tag)
    assert b'id="hand-1"' in seen and (here / f"{tag}.parts").read_bytes() == seen
    assert _nginx(folder, game["id"], tag) == seen and b"enter-hand" not in seen  # what the readers' tag would get
    again = _asked(asleep, folder, game["id"], marked)  # marked: the app's answer, the editor's page
    assert b'id="enter-hand"' in again and b"Enter hand 2" in again and (here / f"{tag}.parts").read_bytes() == seen

    other = app.test_client()  # a reader whose browser says it took the key, but whose phone holds none (any more)
    new_tag, _ = _watch(other, game["id"])
    assert _poll(other, game["id"], new_tag + live.KEYED).data == b""  # its page is as it is: nothing changed
    api.hand(game, DANISH)
    kept = _poll(other, game["id"], new_tag + live.KEYED)  # what changed, kept for the readers by the bare tag
    assert b'id="hand-2"' in kept.data and (here / f"{new_tag}.parts").read_bytes() == kept.data
