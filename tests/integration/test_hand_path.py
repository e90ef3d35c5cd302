"""Issue 47, "the hand's path halved" and "memory bounded": a kept game holds one input per hand and shares its card's
options with every game of that card, it is bounded by bytes as counted, a worker behind catches up in one read, and a
hand's look at the live tags moves its page's files by one rename, the folder's count staying exact."""

from __future__ import annotations

import os
import sys

import pytest

from helpers import Api
from scorekeeper import create_app
from scorekeeper.games import cache, service
from scorekeeper.games.service import scored
from scorekeeper.server import live_tags
from scorekeeper.server.db import get_db
from scorekeeper.storage import store

HAND = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 9}


@pytest.fixture
def app(db_path, tmp_path):
    return create_app(
        {"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "x", "LIVE_TAGS": str(tmp_path / "live-tags")}
    )


def _key(app, game_id):
    return (os.path.realpath(app.config["DATABASE"]), game_id)


def test_a_kept_game_holds_one_input_per_hand_and_one_options_per_card(app, monkeypatch):
    monkeypatch.setattr(cache, "games", cache.Kept())
    api = Api(app.test_client())
    games = [api.create("danish"), api.create("danish")]
    for game in games:
        for tricks in (9, 7, 10):
            api.hand(game, dict(HAND, tricks=tricks))
    with app.app_context():
        first, second = (service.load(get_db(), game["id"]) for game in games)
        cache.games.clear()  # as a worker that never saw them: replayed from the stored hands
        replayed = service.load(get_db(), games[0]["id"])
        assert replayed == first
        for kept in (first, second, replayed):
            assert all(h.input is s.input for h, s in zip(kept.hands, kept.protokoll.hands))
        assert first.game.options is second.game.options is replayed.game.options  # one mapping per stored text
        assert first.setup.options is second.setup.options is replayed.setup.options  # resolved once
        assert store.get_game(get_db(), games[0]["id"]).options is first.game.options


def test_the_kept_games_are_bounded_by_their_bytes():
    kept = cache.Kept(max_items=100, max_size=None, max_bytes=10_000)
    for name in "abc":
        kept.put(name, name, 1, 3_000)
    assert kept.get("a") == "a"  # now the most recently used
    kept.put("d", "d", 1, 3_000)  # 12,000 bytes: the least recently used goes
    assert kept.get("b") is None and [kept.get(name) for name in "acd"] == ["a", "c", "d"]
    assert kept.bytes == 9_000 and len(kept) == 3
    kept.put("a", "a again", 1, 1_000)  # replaced: counted anew
    assert kept.bytes == 7_000
    kept.put("e", "too large", 1, 10_001)
    assert kept.get("e") is None and kept.bytes == 7_000


def test_a_worker_keeps_the_bytes_it_is_told_and_counts_a_game_as_it_grows(db_path, monkeypatch):
    monkeypatch.setattr(cache, "games", cache.Kept())
    small = create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "x", "KEPT_GAMES_BYTES": 12_000})
    assert (cache.games.max_items, cache.games.max_size, cache.games.max_bytes) == (10_000, None, 12_000)
    api = Api(small.test_client())
    game = api.create("danish")
    for _ in range(4):
        api.hand(game, HAND)
    kept = cache.games.get(_key(small, game["id"]))
    assert kept.size == cache.game_bytes(kept.hands) == cache.games.bytes  # counted on, hand by hand, as recounted
    other = api.create("danish")
    for _ in range(12):  # together past the bound: the game played longest ago goes
        api.hand(other, HAND)
    assert cache.games.get(_key(small, game["id"])) is None
    assert cache.games.bytes <= 12_000


def test_a_worker_behind_catches_up_in_one_read(app, monkeypatch):
    workers = [cache.Kept(), cache.Kept()]
    monkeypatch.setattr(cache, "games", workers[0])
    api = Api(app.test_client())
    game = api.create("danish")
    api.hand(game, HAND)
    with app.app_context():
        service.load(get_db(), game["id"])
        monkeypatch.setattr(cache, "games", workers[1])
        for _ in range(3):
            service.add_hand(get_db(), game["id"], HAND, game["edit_key"])
        monkeypatch.setattr(cache, "games", workers[0])
        seen: list[str] = []
        get_db().conn.set_trace_callback(seen.append)
        try:
            caught = service.load(get_db(), game["id"])
        finally:
            get_db().conn.set_trace_callback(None)
        assert len(caught.hands) == 4 and caught == scored.ScoredGame(
            caught.game, tuple(store.get_hands(get_db(), game["id"])), caught.protokoll
        )
        reads = [s for s in seen if "FROM edits" in s or "FROM hands" in s]
        assert len(reads) == 1 and "JOIN hands" in reads[0]  # the log's lines since and their hands: one read


def test_a_hand_moves_its_pages_files_by_one_rename_and_the_count_stays_exact(app):
    from test_live_tags_bound import measured

    publisher = live_tags.publisher(app)
    publisher.every = 3600.0
    writer, reader = app.test_client(), app.test_client()
    api = Api(writer)
    game = api.create("danish")
    folder = publisher.folder
    events: list[tuple[str, str]] = []

    def audit(event, args):
        if event in ("os.rename", "os.remove", "os.mkdir", "open") and args and str(folder) in str(args[0]):
            events.append((event, str(args[0])))

    sys.addaudithook(audit)
    tag = reader.get(f"/g/{game['id']}/live").headers["ETag"].strip('"')
    for _ in range(4):
        reader.get(f"/g/{game['id']}/live", headers={"X-Live-Tag": tag})  # the tag's file written
        assert (folder / "g" / game["id"] / tag).exists()
        events.clear()
        api.hand(game, HAND)
        renames = [path for event, path in events if event == "os.rename"]
        assert renames == [f"{folder}/g/{game['id']}"]  # the page's folder, one rename
        assert not (folder / "g" / game["id"]).exists() and (folder / "was" / "g" / game["id"] / tag).exists()
        tag = (
            reader.get(f"/g/{game['id']}/live", headers={"X-Live-Tag": tag, "X-Live-Parts": "1"})
            .headers["ETag"]
            .strip('"')
        )
        assert publisher.accounted() == measured(folder)
