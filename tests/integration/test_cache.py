"""The kept sheets (scorekeeper.cache): a sheet served from the cache is always the sheet a full replay of the stored
hands gives, whatever the players did to the game and whichever worker did it, through the real SQLite file."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import examples
from scorekeeper import create_app
from scorekeeper.core import InputError
from scorekeeper.games import cache, service
from scorekeeper.games.service import hands, scored
from scorekeeper.server.db import get_db
from scorekeeper.storage import store
from strategies import VARIANTS, games, one_hand

HAND = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 9}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    path = tmp_path_factory.mktemp("cache") / "scorekeeper.sqlite"
    return create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "test"})


class Workers:
    """Two gunicorn workers in one test: each keeps its own sheets; `use(w)` makes worker w the one serving."""

    def __init__(self, monkeypatch):
        self.monkeypatch = monkeypatch
        self.kept = [cache.Kept(), cache.Kept()]

    def use(self, worker: int) -> None:
        self.monkeypatch.setattr(cache, "games", self.kept[worker])


def fresh(db, game_id):
    """The game as a worker that never saw it scores it: every stored hand replayed."""
    game = store.get_game(db, game_id)
    hands = tuple(store.get_hands(db, game_id))
    return service.ScoredGame(game, hands, service.play(service.setup_of(game), [h.input for h in hands]))


@pytest.mark.parametrize("variant", VARIANTS)
@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_a_kept_sheet_equals_replaying_the_stored_hands(app, monkeypatch, variant, data):
    setup, inputs = data.draw(games(variant, max_hands=8))
    workers = Workers(monkeypatch)
    with app.app_context():
        db = get_db()
        game_id, key = service.start_game(
            db,
            {
                "variant": variant,
                "players": list(setup.players),
                "dealer": setup.dealer,
                "options": dict(setup.options),
            },
        )
        for raw in inputs:
            workers.use(data.draw(st.integers(0, 1)))
            service.add_hand(db, game_id, raw, key)
        for _ in range(data.draw(st.integers(1, 8))):
            workers.use(data.draw(st.integers(0, 1)))
            n = len(store.get_hands(db, game_id))
            action = data.draw(st.sampled_from(["add", "add", "add", "replace", "delete", "bad", "read"]))
            try:
                if action == "add":
                    service.add_hand(db, game_id, one_hand(data.draw, setup, n), key)
                elif action == "bad":
                    service.add_hand(db, game_id, {"tricks": [14, 0], "bid": 99}, key)
                elif action == "read":
                    service.load(db, game_id)
                elif n and action == "replace":
                    number = data.draw(st.integers(1, n))
                    service.replace_hand(db, game_id, number, one_hand(data.draw, setup, number - 1), key)
                elif n:
                    service.delete_hand(db, game_id, data.draw(st.integers(1, n)), key)
            except InputError:
                pass  # refused (a bad hand, a finished game, an edit that does not fit): nothing changed
            expected = fresh(db, game_id)
            for worker in (0, 1):
                workers.use(worker)
                assert service.load(db, game_id) == expected


def test_a_worker_behind_scores_only_the_hands_added_since(app, monkeypatch):
    workers = Workers(monkeypatch)
    calls = []
    with app.app_context():
        db = get_db()
        game_id, key = service.start_game(db, {"variant": "danish", "players": ["A", "B", "C", "D"]})
        for worker in (0, 1):
            workers.use(worker)
            service.add_hand(db, game_id, HAND, key)
        play_on = service.play_on
        for module in (scored, hands):  # where a kept game catches up, and where a hand goes on from it
            monkeypatch.setattr(module, "play_on", lambda p, inputs: calls.append(len(inputs)) or play_on(p, inputs))
        workers.use(1)
        for _ in range(3):
            service.add_hand(db, game_id, HAND, key)
        workers.use(0)  # kept the game at 1 hand; 4 more since, all added: scores them and the new one
        assert len(service.load(db, game_id).hands) == 5
        assert calls == [1, 1, 1, 4]
        service.add_hand(db, game_id, dict(HAND, tricks=7), key)
        assert calls[-1] == 1
        workers.use(1)
        service.replace_hand(db, game_id, 1, dict(HAND, tricks=10), key)
        workers.use(0)  # an edit since: replays everything
        calls.clear()
        assert service.load(db, game_id) == fresh(db, game_id)
        assert calls == []


def test_a_write_rolled_back_leaves_no_sheet_behind(app, monkeypatch):
    """A hand that fails while being stored must not leave its sheet kept: the next hand comes to the same version."""
    with app.app_context():
        db = get_db()
        game_id, key = service.start_game(db, {"variant": "danish", "players": ["A", "B", "C", "D"]})
        service.add_hand(db, game_id, HAND, key)
        assert service.load(db, game_id) == fresh(db, game_id)

        def power_cut(*args, **kwargs):
            raise RuntimeError("power cut")

        monkeypatch.setattr(store, "log_edit", power_cut)
        with pytest.raises(RuntimeError):
            service.add_hand(db, game_id, dict(HAND, tricks=13), key)
        monkeypatch.undo()
        assert service.load(db, game_id) == fresh(db, game_id)
        service.add_hand(db, game_id, dict(HAND, tricks=6), key)
        scored_game = service.load(db, game_id)
        assert scored_game == fresh(db, game_id)
        assert [h.input["tricks"] for h in scored_game.hands] == [9, 6]
        assert scored_game.game.version == 2


def test_the_cache_is_bounded_by_sheets_and_by_hands():
    kept = cache.Kept(max_items=2, max_size=10)
    kept.put("a", "sheet a", 4)
    kept.put("b", "sheet b", 4)
    assert kept.get("a") == "sheet a"  # a is now the most recently used
    kept.put("c", "sheet c", 1)
    assert kept.get("b") is None and kept.get("a") == "sheet a" and kept.get("c") == "sheet c"
    kept.put("d", "sheet d", 6)  # 4 + 1 + 6 hands > 10: the least recently used goes
    assert kept.get("a") is None and len(kept) == 2
    kept.put("e", "too long a game", 11)
    assert kept.get("e") is None


def test_the_builds_digest_reads_the_package_not_the_checkout_around_it(app, monkeypatch):
    """The digest in every kept page's and PDF's tag read the whole checkout (its .venv, tests/, a wheel's build/): a
    wheel built while the app ran gave the drawing process another tag for the same page than its worker's."""
    from pathlib import Path

    import scorekeeper
    from scorekeeper.games import sheets

    read: list = []
    monkeypatch.setattr(sheets, "_build", lambda *folders: read.extend(folders) or "build")
    with app.test_request_context("/"):
        sheets.kept_state([])
    package = Path(scorekeeper.__file__).resolve().parent
    assert read and all(
        Path(folder).resolve().is_relative_to(package) or Path(folder).resolve().name in ("templates", "static")
        for folder in read
    ), read


def test_a_worker_keeps_as_many_games_and_hands_as_it_is_told(tmp_path, monkeypatch):
    """KEPT_GAMES and KEPT_HANDS bound what a worker keeps (a night's machine keeps every game its tables play: a game
    not kept costs its next hand a replay)."""
    monkeypatch.setattr(cache, "games", cache.Kept())
    assert (cache.games.max_items, cache.games.max_size, cache.games.max_bytes) == (10_000, None, 96 * 1024 * 1024)
    assert (cache.MAX_GAMES, cache.MAX_HANDS, cache.MAX_BYTES) == (10_000, None, 96 * 1024 * 1024)
    small = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "s.sqlite"), "SECRET_KEY": "x", "KEPT_GAMES": 2, "KEPT_HANDS": 4}
    )
    client = small.test_client()

    def game(hands):
        made = client.post("/api/games", json={"variant": "danish", "players": ["A", "B", "C", "D"]}).json
        for _ in range(hands):
            answer = client.post(f"/api/games/{made['id']}/hands", json=HAND, headers={"X-Edit-Key": made["edit_key"]})
            assert answer.status_code == 201
        return made["id"]

    games = [game(1), game(1), game(1)]
    assert {key[1] for key in cache.games._kept} == {games[1], games[2]}  # two games, the last ones played
    games.append(game(5))  # more hands than all kept together: kept up to four, then let go
    assert len(cache.games) == 0
    with small.app_context():
        assert service.load(get_db(), games[3]) == fresh(get_db(), games[3])  # not kept: replayed, the same
