"""The cost shape, counted rather than timed: a sheet is scored once per hand, and a page's SQL does not grow with it.

bench/run.py times these paths; these tests keep them from turning quadratic without anyone noticing.
"""

import json
import re
import sqlite3

import pytest

from helpers import PLAYERS
from scorekeeper import create_app
from scorekeeper.core import VARIANTS
from scorekeeper.games import cache, service
from scorekeeper.server.db import get_db
from variants import EXAMPLES

# Options that let a game run long, and the longest game the rules allow (≤ 1,000 hands): each variant's LONG.
LONG = {name: (e.LONG[0], min(e.LONG[1] or 1000, 1000)) for name, e in EXAMPLES.items()}
# Danish hands for the tests of one Danish game below.
DANISH = [
    {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 9},
    {"bidder": 1, "bid": "sol", "tricks": 1},
    {"passed": True},
    {"bidder": 2, "bid": 9, "suffix": "gode", "trump": "clubs", "partner": 2, "tricks": 8},
    {"bidder": 3, "bid": 7, "suffix": "sans", "trump": "none", "partner": 1, "tricks": 10},
    {"bidder": 0, "bid": 10, "suffix": "vip", "trump": "hearts", "partner": 3, "tricks": 10},
]


def long_hands(variant: str, n: int) -> list[dict]:
    """n hands that keep the game going (tests/variants/<name>.py: long_hands)."""
    return EXAMPLES[variant].long_hands(n)


def make_game(app, variant: str, n: int) -> tuple[str, str]:
    options, _longest = LONG[variant]
    with app.app_context():
        return service.import_game(
            get_db(),
            {
                "format": service.EXPORT_FORMAT,
                "variant": variant,
                "title": f"{n} hands",
                "players": PLAYERS[variant],
                "dealer": 0,
                "options": options,
                "hands": long_hands(variant, n),
            },
        )


@pytest.fixture
def scorer_calls(monkeypatch):
    """Counts the calls of every variant's check_hand and hand_points."""
    calls = {}

    def counting(variant, name, fn):
        def wrapper(*args, **kwargs):
            calls[variant, name] = calls.get((variant, name), 0) + 1
            return fn(*args, **kwargs)

        return wrapper

    for variant, module in VARIANTS.items():
        for name in ("check_hand", "hand_points"):
            monkeypatch.setattr(module, name, counting(variant, name, getattr(module, name)))

    def read(variant):
        counts = (calls.get((variant, "check_hand"), 0), calls.get((variant, "hand_points"), 0))
        calls.clear()
        return counts

    return read


@pytest.mark.parametrize("variant", list(LONG))
def test_a_long_sheet_is_scored_once_per_hand_then_kept(app, client, scorer_calls, variant):
    n = LONG[variant][1]
    game_id, key = make_game(app, variant, n)
    scorer_calls(variant)
    assert client.get(f"/g/{game_id}").status_code == 200
    assert scorer_calls(variant) == (n, n)  # once per hand, not once per hand per row
    assert client.get(f"/api/games/{game_id}").status_code == 200
    assert scorer_calls(variant) == (0, 0)  # the game's row is unchanged: the sheet scored above is kept
    client.get(f"/g/{game_id}/k/{key}")
    assert client.get(f"/g/{game_id}").status_code == 200  # with the edit links
    assert scorer_calls(variant) == (0, 0)
    cache.games.clear()  # as a worker that has not seen the game yet
    assert client.get(f"/g/{game_id}").status_code == 200
    assert scorer_calls(variant) == (n, n)


def stored_elsewhere(app, game_id: str, hand: dict) -> None:
    """A hand added by another process, straight into the file (the database's trigger bumps the game's version)."""
    conn = sqlite3.connect(app.config["DATABASE"])
    with conn:
        conn.execute(
            "INSERT INTO hands (game_id, input, created, updated) VALUES (?, ?, 'now', 'now')",
            [game_id, json.dumps(hand)],
        )
    conn.close()


def test_entering_a_hand_scores_that_hand(app, client, scorer_calls):
    n = 300
    game_id, key = make_game(app, "danish", n)
    assert client.get(f"/g/{game_id}").status_code == 200
    scorer_calls("danish")
    r = client.post(f"/api/games/{game_id}/hands", json=DANISH[0], headers={"X-Edit-Key": key})
    assert r.status_code == 201
    assert scorer_calls("danish") == (1, 1)
    client.get(f"/g/{game_id}/k/{key}")
    page = client.get(f"/g/{game_id}/hands/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    scorer_calls("danish")
    r = client.post(
        f"/g/{game_id}/hands/new",
        data={"csrf_token": token, "bidder": "0", "bid": "8", "trump": "spades", "partner": "2", "tricks": "9"},
    )
    assert r.status_code == 302
    assert scorer_calls("danish") == (1, 1)
    # Another worker adds a hand: this one's sheet no longer matches the game's row, so it replays what is stored.
    stored_elsewhere(app, game_id, DANISH[2])
    r = client.post(f"/api/games/{game_id}/hands", json=DANISH[1], headers={"X-Edit-Key": key})
    assert r.status_code == 201 and r.get_json()["number"] == n + 4
    assert scorer_calls("danish") == (n + 4, n + 4)
    r = client.post(f"/api/games/{game_id}/hands", json=DANISH[1], headers={"X-Edit-Key": key})
    assert r.get_json()["number"] == n + 5
    assert scorer_calls("danish") == (1, 1)
    # Editing a hand rescores the game once; the sheet after the edit is kept.
    r = client.put(f"/api/games/{game_id}/hands/1", json=DANISH[3], headers={"X-Edit-Key": key})
    assert r.status_code == 200
    assert scorer_calls("danish") == (n + 5, n + 5)
    assert client.get(f"/g/{game_id}").status_code == 200
    assert scorer_calls("danish") == (0, 0)


def queries(client, statements, method, path, **kwargs) -> list[str]:
    statements()
    response = client.open(path, method=method, **kwargs)
    assert response.status_code < 400, (path, response.status_code)
    return statements()


def test_sql_per_page_does_not_grow_with_the_hands(app, statements):
    counts = {}
    for n in (10, 100):
        game_id, key = make_game(app, "danish", n)
        client = app.test_client()
        client.get(f"/g/{game_id}/k/{key}")
        page = client.get(f"/g/{game_id}/hands/new").get_data(as_text=True)
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
        counts[n] = {
            "protokoll": len(queries(client, statements, "GET", f"/g/{game_id}")),
            "game json": len(queries(client, statements, "GET", f"/api/games/{game_id}")),
            "hand form": len(queries(client, statements, "GET", f"/g/{game_id}/hands/new")),
            "form post": len(
                queries(
                    client,
                    statements,
                    "POST",
                    f"/g/{game_id}/hands/new",
                    data={
                        "csrf_token": token,
                        "bidder": "0",
                        "bid": "8",
                        "trump": "spades",
                        "partner": "2",
                        "tricks": "9",
                    },
                )
            ),
            "api post": len(
                queries(
                    client,
                    statements,
                    "POST",
                    f"/api/games/{game_id}/hands",
                    json=DANISH[1],
                    headers={"X-Edit-Key": key},
                )
            ),
        }
    assert counts[10] == counts[100]
    assert all(0 < count < 30 for count in counts[10].values()), counts[10]


def test_a_served_app_keeps_its_own_objects_out_of_full_collections(tmp_path):
    """Outside tests, create_app freezes what it loaded (gc.freeze), so the collector's full passes walk only what
    requests made since; tests leave the collector as it is (GC_FREEZE defaults to `not TESTING`)."""
    import gc

    gc.unfreeze()
    create_app({"TESTING": True, "DATABASE": str(tmp_path / "a.sqlite"), "SECRET_KEY": "x"})
    assert gc.get_freeze_count() == 0
    try:
        create_app({"DATABASE": str(tmp_path / "b.sqlite"), "SECRET_KEY": "x"})
        assert gc.get_freeze_count() > 10_000
    finally:
        gc.unfreeze()


def test_bids_entered_first_score_no_hand_and_the_sheet_stays_kept(app, client, scorer_calls):
    """The deal in progress has its own version: entering, changing or clearing its bids replays nothing (the kept
    sheet goes on with the new bids), and the hand its tricks complete is scored once, as any hand."""
    n = LONG["plump"][1] - 1
    game_id, key = make_game(app, "plump", n)
    assert client.get(f"/g/{game_id}").status_code == 200
    scorer_calls("plump")
    headers = {"X-Edit-Key": key}
    for bids in ([1, 1, 1, 1], [2, 1, 1, 0]):
        assert client.put(f"/api/games/{game_id}/bids", json={"bids": bids}, headers=headers).status_code in (200, 201)
    assert "bid 2" in client.get(f"/g/{game_id}").get_data(as_text=True)
    assert client.get(f"/api/games/{game_id}").json["open_deal"]["input"] == {"bids": [2, 1, 1, 0]}
    assert scorer_calls("plump") == (0, 0)
    r = client.post(f"/api/games/{game_id}/hands", json={"bids": [2, 1, 1, 0], "tricks": [2, 1, 1, 1]}, headers=headers)
    assert r.status_code == 201 and r.json["number"] == n + 1
    assert scorer_calls("plump") == (1, 1)
    assert client.get(f"/g/{game_id}").status_code == 200
    assert scorer_calls("plump") == (0, 0)
    # Bids entered through another worker: this one's kept sheet goes on, with them, without a replay.
    conn = sqlite3.connect(app.config["DATABASE"])
    with conn:
        conn.execute(
            "UPDATE open_deals SET input = ?, version = version + 1 WHERE game_id = ?",
            ['{"bids": [1, 0, 0, 0]}', game_id],
        )
    conn.close()
    assert client.get(f"/api/games/{game_id}").json["open_deal"]["input"] == {"bids": [1, 0, 0, 0]}
    assert scorer_calls("plump") == (0, 0)
