"""A leaner hand entry (issue 27) answers exactly as before, and costs what it should, counted rather than timed.

The answers: every variant's example game and its option sets (tests/variants/) played through the JSON API on the
real SQLite file — each hand, a refused one, a stale `X-Hand-Number`, an `Idempotency-Key` sent twice and once for
another hand, the game's JSON now and then — equal the answers recorded before the hand entry was trimmed
(hand_answers_before.json.gz; `LEAN_RECORD=1 pytest tests/integration/test_lean_hand_entry.py` writes it anew, which
is only right before a change meant to keep every answer). A variant added since the recording is not in it: its
answers are checked against a fresh replay of the hands it accepted (core.play) instead, so a new variant needs no
re-recorded fixture.
"""

import gzip
import importlib.util
import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.core import VARIANTS, Setup, play
from scorekeeper.games import cache
from scorekeeper.server import db as web_db
from variants import EXAMPLES, players

RECORD = Path(__file__).parent / "hand_answers_before.json.gz"
NOW = datetime(2026, 3, 7, 21, 5, tzinfo=UTC)
LONG_HANDS = 24


def cases() -> list[tuple[str, str, dict, list, list]]:
    """(variant, name, options, players, hands): the example game, a long one, then each option set with long hands (some
    end early or refuse them: those answers count too)."""
    out = []
    for variant, example in EXAMPLES.items():
        game = example.GAME
        names = game.get("players") or players(variant)
        out.append((variant, "game", game.get("options") or {}, names, list(game["hands"])))
        out.append((variant, "long", example.LONG[0], players(variant), example.long_hands(LONG_HANDS)))
        for i, options in enumerate(example.OPTION_SETS):
            out.append((variant, f"options {i}", options, players(variant), example.long_hands(LONG_HANDS)))
    return out


def _clean(value, game_id: str | None, key: str | None):
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    for secret, name in ((game_id, "<id>"), (key, "<key>")):
        if secret:
            text = text.replace(secret, name)
    return json.loads(text)


def play_case(client, variant: str, options: dict, names: list, hands: list) -> list:
    """Every answer of one game, in order: (what, status, JSON) with the game's id and key left out."""
    answers = []
    r = client.post("/api/games", json={"variant": variant, "players": names, "dealer": 0, "options": options})
    answers.append(("create", r.status_code, _clean(r.json if r.status_code != 201 else {}, None, None)))
    if r.status_code != 201:
        return answers
    game_id, key = r.json["id"], r.json["edit_key"]

    def post(what, body, **headers):
        r = client.post(f"/api/games/{game_id}/hands", json=body, headers={"X-Edit-Key": key, **headers})
        answers.append((what, r.status_code, _clean(r.json, game_id, key)))
        return r

    stored = 0
    for i, hand in enumerate(hands):
        if i % 3 == 1:  # an idempotency key, sent twice: the second answers the hand the first made
            r = post("keyed", hand, **{"Idempotency-Key": f"key-{i}", "X-Hand-Number": str(stored + 1)})
            post("keyed again", hand, **{"Idempotency-Key": f"key-{i}"})
        else:
            r = post("hand", hand, **{"X-Hand-Number": str(stored + 1)})
        stored += r.status_code == 201
        if i == 2:
            post("stale", hand, **{"X-Hand-Number": "1"})
            post("refused", {"bogus": 1})
            post("wrong key", hand, **{"X-Edit-Key": "nope"})
            post("key for another change", hands[0], **{"Idempotency-Key": "key-1"})
        if i % 8 == 7:
            answers.append(("game", 200, _clean(client.get(f"/api/games/{game_id}").json, game_id, key)))
    answers.append(("game", 200, _clean(client.get(f"/api/games/{game_id}").json, game_id, key)))
    return answers


def play_all(tmp_path, only: set[str] | None = None) -> dict:
    cache.games.clear()
    app = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "lean.sqlite"), "SECRET_KEY": "test", "CLOCK": lambda: NOW}
    )
    client = app.test_client()
    return {
        f"{variant} {name}": play_case(client, variant, options, names, hands)
        for variant, name, options, names, hands in cases()
        if only is None or variant in only
    }


def recorded_variants(before: dict) -> set[str]:
    return {case.split()[0] for case in before}


SCORED = ("number", "dealer", "points", "totals", "leader")
STANDS = ("totals", "next_dealer", "next_leader", "finished", "winner")


def replay_mismatches(played: list) -> list[str]:
    """What a game's answers say that a fresh replay of the hands it accepted does not (empty: they agree): each hand as
    scored, how the game stands, and the answers every variant gives alike (a stale hand 409, a bad key 403)."""
    kinds = {what: status for what, status, _answer in played}
    wrong = [f"{what}: {kinds[what]}" for what, status in EXPECTED if what in kinds and kinds[what] != status]
    if kinds.get("create") != 201:
        return wrong
    game = played[-1][2]
    setup = Setup(game["variant"], tuple(game["players"]), game["dealer"], game["options"])
    fresh = play(setup, [h["input"] for h in game["hands"]])
    for now, then in zip(game["hands"], fresh.hands, strict=True):
        scored = {"number": then.number, "dealer": then.dealer, "points": list(then.points)}
        scored |= {"totals": list(then.totals), "leader": then.leader}
        if {k: now[k] for k in SCORED} != scored:
            wrong.append(f"hand {then.number}: {now} is not {scored}")
    stands = {"totals": list(fresh.totals), "next_dealer": fresh.next_dealer, "next_leader": fresh.next_leader}
    stands |= {"finished": fresh.finished, "winner": fresh.winner}
    if {k: game[k] for k in STANDS} != stands:
        wrong.append(f"the game: {[game[k] for k in STANDS]} is not {stands}")
    return wrong


EXPECTED = [("stale", 409), ("wrong key", 403)]


def check_answers(answers: dict, before: dict) -> None:
    """The answers of every variant recorded as they were recorded; a variant or an option set the recording does not
    hold (added since) against a fresh replay of its own hands, since no answer of it was ever recorded to compare
    with."""
    recorded = recorded_variants(before)
    assert recorded <= set(EXAMPLES), "a recorded variant is gone from tests/variants/"
    for case, played in answers.items():
        if case.split()[0] not in recorded or case not in before:  # a variant or an option set added since
            assert not replay_mismatches(played), (case, replay_mismatches(played))
            continue
        assert len(played) == len(before[case]), case
        for i, (now, then) in enumerate(zip(played, before[case])):
            assert as_recorded(now, then, case.split()[0]) == then, (case, i)


def as_recorded(now, then, variant: str):
    """An answer without the options added since the recording, where they are at their defaults (a new house rule
    changes no answer of a game that does not choose it; issue 36's were added so): the rest compared as it is."""
    if isinstance(now, dict) and isinstance(then, dict):
        out = {k: as_recorded(v, then.get(k), variant) for k, v in now.items()}
        if isinstance(now.get("options"), dict) and isinstance(then.get("options"), dict):
            spec = VARIANTS[variant].OPTIONS
            out["options"] = {
                k: v for k, v in now["options"].items() if k in then["options"] or k not in spec or v != spec[k].default
            }
        return out
    if isinstance(now, list) and isinstance(then, list) and len(now) == len(then):
        return [as_recorded(a, b, variant) for a, b in zip(now, then)]
    return now


def test_hand_entry_answers_as_it_did_before(tmp_path):
    answers = json.loads(json.dumps(play_all(tmp_path)))
    if os.environ.get("LEAN_RECORD"):
        RECORD.write_bytes(gzip.compress(json.dumps(answers, sort_keys=True).encode(), mtime=0))
        pytest.skip("recorded")
    before = json.loads(gzip.decompress(RECORD.read_bytes()))
    assert set(before) <= set(answers)  # every recorded case is played again
    check_answers(answers, before)


def test_a_variant_absent_from_the_recording_is_held_to_a_fresh_replay(tmp_path, monkeypatch, app):
    """A new variant (the knock-out toy of test_toy_variant.py, registered as its files) is not in the recording: its
    answers are held to core.play of its own hands, not skipped, and an answer the replay does not give fails."""
    spec = importlib.util.spec_from_file_location("toy_variant", Path(__file__).parent / "test_toy_variant.py")
    toy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(toy)
    toy.register(monkeypatch, tmp_path, app, toy.KNOCK_RULES, toy.KNOCK_VIEW, "knock", toy.KNOCK_EXAMPLES)
    before = json.loads(gzip.decompress(RECORD.read_bytes()))
    assert "knock" not in recorded_variants(before)
    answers = json.loads(json.dumps(play_all(tmp_path, {"knock"})))
    assert {case.split()[0] for case in answers} == {"knock"} and len(answers) >= 3
    assert any(status == 201 for played in answers.values() for what, status, _ in played[1:])
    check_answers(answers, before)
    played = answers["knock long"]
    game = played[-1][2]
    assert game["finished"] and game["standing"].count("still in") == 1  # the long game ran until one was left
    assert [h["dealer"] for h in game["hands"]] == [0, 1, 0]  # hand 3 skips Cy, out after hand 1
    game["hands"][2]["dealer"] = 2  # what the default rule would have said
    wrong = replay_mismatches(played)
    assert len(wrong) == 1 and wrong[0].startswith("hand 3:"), wrong


def test_the_record_covers_every_variant_and_every_kind_of_answer():
    """Every variant there was when it was recorded; one added since is held to a fresh replay instead (above)."""
    before = json.loads(gzip.decompress(RECORD.read_bytes()))
    assert recorded_variants(before) <= set(EXAMPLES) and len(recorded_variants(before)) >= 7
    seen = {(what, status) for played in before.values() for what, status, _ in played}
    for expected in [("hand", 201), ("keyed", 201), ("keyed again", 201), ("stale", 409), ("refused", 400)]:
        assert expected in seen, expected
    assert ("wrong key", 403) in seen and ("key for another change", 400) in seen
    recorded = recorded_variants(before)  # a variant newer than the recording is held to a fresh replay instead
    assert all(any(status == 201 for what, status, _ in before[f"{variant} long"][1:]) for variant in recorded)
    assert sum(status == 201 for played in before.values() for what, status, _ in played) > 700


# ---------------------------------------------------------------- what one hand entry costs, counted

DANISH_HAND = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 9}


@pytest.fixture
def statements(statements):
    """The SQL statements the app's connections run (the suite's `statements`). A trigger's steps are traced with
    the text of the statement that fired them: consecutive repeats are one statement."""

    def read():
        seen = statements()
        return [s for i, s in enumerate(seen) if i == 0 or s != seen[i - 1]]

    return read


def _danish_game(client) -> tuple[str, str]:
    r = client.post("/api/games", json={"variant": "danish", "players": players("danish"), "dealer": 0})
    assert r.status_code == 201
    return r.json["id"], r.json["edit_key"]


def test_a_hand_entry_reads_the_game_once_and_writes_in_five_statements(app, statements):
    client = app.test_client()
    game_id, key = _danish_game(client)
    client.post(f"/api/games/{game_id}/hands", json=DANISH_HAND, headers={"X-Edit-Key": key})  # the sheet is kept
    for number in (2, 3, 4):
        statements()
        r = client.post(
            f"/api/games/{game_id}/hands", json=DANISH_HAND, headers={"X-Edit-Key": key, "X-Hand-Number": str(number)}
        )
        assert r.status_code == 201 and r.json["number"] == number
        seen = statements()
        reads = [s for s in seen if s.startswith("SELECT") and " FROM games" in s]
        assert len(reads) == 1, seen
        assert len(seen) == 5, seen  # the game; BEGIN IMMEDIATE, the hand, the edit log line, COMMIT
    statements()
    r = client.post(
        f"/api/games/{game_id}/hands", json=DANISH_HAND, headers={"X-Edit-Key": key, "Idempotency-Key": "once"}
    )
    assert r.status_code == 201
    assert len(statements()) == 7  # and the key: looked up, kept


def _kept_is_stored(app, game_id: str) -> None:
    """The scored game this worker kept after a write holds the game's row as the file has it now."""
    from scorekeeper.storage import store

    kept = cache.games.get((os.path.realpath(app.config["DATABASE"]), game_id))
    assert kept is not None
    with app.app_context():
        assert kept.game == store.get_game(web_db.get_db(), game_id)  # so the next hand reads nothing more


def test_the_game_kept_after_a_hand_is_the_row_as_stored(app):
    client = app.test_client()
    game_id, key = _danish_game(client)
    for number in (1, 2, 3):
        client.post(f"/api/games/{game_id}/hands", json=DANISH_HAND, headers={"X-Edit-Key": key})
        _kept_is_stored(app, game_id)
        assert client.get(f"/api/games/{game_id}").json["version"] == number
    # A hand that completes a deal in progress (its bids entered first) closes the deal: its version moves too.
    r = client.post("/api/games", json={"variant": "plump", "players": players("plump", 4)})
    game_id, key = r.json["id"], r.json["edit_key"]
    for bids, tricks in (([3, 2, 1, 3], [3, 2, 1, 4]), ([2, 2, 2, 2], [2, 3, 2, 2])):
        r = client.put(f"/api/games/{game_id}/bids", json={"bids": bids}, headers={"X-Edit-Key": key})
        assert r.status_code in (200, 201), r.json
        r = client.post(
            f"/api/games/{game_id}/hands", json={"bids": bids, "tricks": tricks}, headers={"X-Edit-Key": key}
        )
        assert r.status_code == 201, r.json
        _kept_is_stored(app, game_id)


def test_the_house_is_parsed_once_per_game_not_per_hand(app, monkeypatch):
    from scorekeeper.variants.danish import house as danish_house

    client = app.test_client()
    game_id, key = _danish_game(client)
    client.post(f"/api/games/{game_id}/hands", json=DANISH_HAND, headers={"X-Edit-Key": key})
    calls = []
    parse = danish_house.parse
    monkeypatch.setattr(danish_house, "parse", lambda house: calls.append(1) or parse(house))
    for _ in range(4):
        assert (
            client.post(f"/api/games/{game_id}/hands", json=DANISH_HAND, headers={"X-Edit-Key": key}).status_code == 201
        )
    assert calls == []


def test_the_keyed_hand_entry_asks_no_rate_limit_and_a_new_game_does(db_path, monkeypatch):
    from scorekeeper.server import guard

    app = create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "t", "RATELIMIT_ENABLED": True})
    client = app.test_client()
    game_id, key = _danish_game(client)
    asked = []
    resolve = guard.limiter.limit_manager.resolve_limits
    monkeypatch.setattr(
        guard.limiter.limit_manager, "resolve_limits", lambda *a, **k: asked.append(a[1]) or resolve(*a, **k)
    )
    assert client.post(f"/api/games/{game_id}/hands", json=DANISH_HAND, headers={"X-Edit-Key": key}).status_code == 201
    assert client.put(f"/api/games/{game_id}/hands/1", json=DANISH_HAND, headers={"X-Edit-Key": key}).status_code == 200
    assert asked == []
    _danish_game(client)
    assert set(asked) == {"api.create_game"}
    for _ in range(40):  # and it still limits them (LIMIT_NEW_GAMES)
        r = client.post("/api/games", json={"variant": "danish", "players": players("danish")})
        if r.status_code == 429:
            break
    assert r.status_code == 429
    assert client.post(f"/api/games/{game_id}/hands", json=DANISH_HAND, headers={"X-Edit-Key": key}).status_code == 201


def test_a_house_kept_by_its_options_is_never_another_games():
    from scorekeeper.core import make_setup
    from scorekeeper.variants.danish import rules as danish

    plain = make_setup("danish", players("danish"), 0, {}).options
    dear = make_setup("danish", players("danish"), 0, {"tariff": [3, 5, 7, 11, 13, 17, 19]}).options
    assert danish.house_of(plain) is danish.house_of(plain)
    assert danish.house_of(dear) != danish.house_of(plain)
    assert danish.house_of(dict(dear)) == danish.house_of(dear)  # another mapping of the same options: the same house
    changed = dict(plain)
    danish.house_of(changed)
    changed["house"] = dear["house"]  # its house replaced: parsed again
    assert danish.house_of(changed) == danish.house_of(dear)
    for _ in range(danish.HOUSES_KEPT + 5):  # bounded
        danish.house_of(dict(plain))
    assert len(danish._houses) <= danish.HOUSES_KEPT


def test_the_limiter_skips_exactly_the_keyed_hand_entry_and_the_live_polls(db_path):
    from scorekeeper.server import guard

    app = create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "t", "RATELIMIT_ENABLED": True})
    skipped = guard.unlimited(app)
    assert {"api.add_hand", "api.replace_hand", "api.delete_hand", "games.new_hand", "games.edit_hand"} <= skipped
    assert {"games.protokoll_live", "drives.table_live", "drives.screen_live"} <= skipped  # the live pages' polls
    for endpoint in skipped:
        view = app.view_functions[endpoint]
        assert guard.declared(view) == f"exempt: {guard.EDIT_KEY}" or view.limiter_skip == guard.POLLED, endpoint
    limited = {e for e, v in app.view_functions.items() if getattr(v, "limited", None) or getattr(v, "guard", None)}
    assert limited and not limited & skipped  # the table codes, creates, imports, clubs, logins are still asked
    # Nothing else is skipped there: the limiter has no limit for every route (a default or an application limit
    # would apply to the hands too; a table is never refused its next hand, so none is set).
    assert guard.limiter.limit_manager.default_limits == [] and guard.limiter.limit_manager.application_limits == []


# ---------------------------------------------------------------- another writer in between: the conflict semantics
# A hand entry that another worker's write overtakes is scored after it, or refused with 409 when it named the number
# the other took. Written for a hand scored before the write lock (issue 27, item 4: not kept, see
# docs/benchmark.md); they hold the hand entry in the lock as well, and whichever comes next.


def _another_writer_first(monkeypatch, app, game_id, key, what):
    """Another worker (a connection of its own, its own kept sheets) writes `what` in the moment between this request's
    scoring and its write lock: the first time this request takes the lock, that write is made and committed first."""
    from contextlib import contextmanager

    from scorekeeper.games.service import hands
    from scorekeeper.storage import close, connect

    real = hands.writing
    done = []

    @contextmanager
    def writing(db):
        if not done:
            done.append(1)
            other = connect(app.config["DATABASE"])
            try:
                mine = cache.games
                monkeypatch.setattr(cache, "games", cache.Kept())
                what(other)
                monkeypatch.setattr(cache, "games", mine)
            finally:
                close(other)
        with real(db) as inside:
            yield inside

    monkeypatch.setattr(hands, "writing", writing)
    return done


def _fresh_replay(app, game_id):
    from scorekeeper.games import service
    from scorekeeper.storage import store

    with app.app_context():
        db = web_db.get_db()
        game = store.get_game(db, game_id)
        hands = [h.input for h in store.get_hands(db, game_id)]
        return service.play(service.setup_of(game), hands)


def test_a_hand_scored_before_the_lock_is_scored_again_when_another_came_first(app, monkeypatch):
    from scorekeeper.games import service

    client = app.test_client()
    game_id, key = _danish_game(client)
    client.post(f"/api/games/{game_id}/hands", json=DANISH_HAND, headers={"X-Edit-Key": key})
    sol = {"bidder": 1, "bid": "sol", "tricks": 0}
    done = _another_writer_first(monkeypatch, app, game_id, key, lambda db: service.add_hand(db, game_id, sol, key))
    r = client.post(f"/api/games/{game_id}/hands", json=DANISH_HAND, headers={"X-Edit-Key": key})
    assert done and r.status_code == 201
    assert r.json["number"] == 3  # after the other's hand 2, scored on its totals
    replayed = _fresh_replay(app, game_id)
    assert [dict(h.input) for h in replayed.hands] == [DANISH_HAND, sol, DANISH_HAND]
    assert r.json["totals"] == list(replayed.totals)
    assert client.get(f"/api/games/{game_id}").json["totals"] == list(replayed.totals)
    _kept_is_stored(app, game_id)


def test_the_writer_who_expected_the_number_the_other_took_gets_409_as_before(app, monkeypatch):
    from scorekeeper.games import service

    client = app.test_client()
    game_id, key = _danish_game(client)
    client.post(f"/api/games/{game_id}/hands", json=DANISH_HAND, headers={"X-Edit-Key": key})
    _another_writer_first(monkeypatch, app, game_id, key, lambda db: service.add_hand(db, game_id, DANISH_HAND, key))
    r = client.post(f"/api/games/{game_id}/hands", json=DANISH_HAND, headers={"X-Edit-Key": key, "X-Hand-Number": "2"})
    assert r.status_code == 409 and r.json["latest"] == 2 and r.json["version"] == 2, r.json
    assert len(_fresh_replay(app, game_id).hands) == 2  # nothing of the late one stored


def test_bids_entered_meanwhile_are_closed_by_the_hand_as_before(app, monkeypatch):
    from scorekeeper.games import service

    client = app.test_client()
    r = client.post("/api/games", json={"variant": "plump", "players": players("plump", 4)})
    game_id, key = r.json["id"], r.json["edit_key"]
    hand = {"bids": [3, 2, 1, 3], "tricks": [3, 2, 1, 4]}
    _another_writer_first(
        monkeypatch, app, game_id, key, lambda db: service.put_bids(db, game_id, {"bids": hand["bids"]}, key)
    )
    r = client.post(f"/api/games/{game_id}/hands", json=hand, headers={"X-Edit-Key": key})
    assert r.status_code == 201, r.json
    assert client.get(f"/api/games/{game_id}/bids").status_code == 404  # the deal in progress was played
    _kept_is_stored(app, game_id)


def test_what_the_record_covers_is_asked_only_of_the_variants_it_recorded(monkeypatch):
    """A variant newer than the recording (its test data in EXAMPLES, no case in the recording) does not make the
    coverage check fail with a KeyError (issue 46: every new variant turned `make quick` red)."""
    import types

    monkeypatch.setitem(EXAMPLES, "newer", types.ModuleType("variants.newer"))
    test_the_record_covers_every_variant_and_every_kind_of_answer()
