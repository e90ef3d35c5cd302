"""Hypothesis over the JSON API: whatever is sent, never a 500, and a refused request leaves the database as it was."""

import json
import sqlite3
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from helpers import PLAYERS, examples
from scorekeeper import create_app
from scorekeeper.core import VARIANTS, make_setup
from variants import EXAMPLES, hands

FUZZ = settings(deadline=None, suppress_health_check=list(HealthCheck), database=None)
HAND_FIELDS = sorted({f for m in VARIANTS.values() for f in m.INPUT_FIELDS})
OPTION_NAMES = sorted({o for m in VARIANTS.values() for o in m.OPTIONS})
HAND_MAX = 12  # a game with more hands is set aside, so that every replay stays short


class Env:
    """One app and database for a whole test; the state the last accepted request left."""

    def __init__(self, path):
        self.path = path
        self.app = create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "fuzz"})
        self.client = self.app.test_client()
        self.reader = sqlite3.connect(path, isolation_level=None)
        self.reader.execute("PRAGMA foreign_keys=ON")
        self.games, self.hands = {}, {}
        for variant in VARIANTS:
            self.new_game(variant)
        self.snapshot, self.version = self.dump(), self.data_version()

    def new_game(self, variant):
        options = EXAMPLES[variant].LONG[0]
        r = self.client.post("/api/games", json={"variant": variant, "players": PLAYERS[variant], "options": options})
        assert r.status_code == 201
        self.games[variant], self.hands[variant] = r.json, 0

    def dump(self):
        tables = [
            r[0] for r in self.reader.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        ]
        return {t: self.reader.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in tables}

    def data_version(self):
        """Changes whenever another connection commits to the file."""
        return self.reader.execute("PRAGMA data_version").fetchone()[0]

    def check(self, response):
        """Never a 500; errors as {"errors": {...}}; a refusal (or a redirect) stores nothing."""
        status = response.status_code
        event(f"status {status}")
        assert status < 500, response.get_data(as_text=True)
        if status >= 300:  # 308: werkzeug's redirect of a path with a double slash
            if status >= 400:
                data = response.get_json(silent=True)
                assert isinstance(data, dict) and isinstance(data.get("errors"), dict) and data["errors"], response.data
            assert self.data_version() == self.version, f"a refused request ({status}) committed a change"
            assert self.dump() == self.snapshot, f"a refused request ({status}) changed the database"
        else:
            self.accepted()
        return status

    def accepted(self):
        """After a write went through: set long games aside and drop other games, so that the dump stays small."""
        for variant, n in list(self.hands.items()):
            if n > HAND_MAX:
                self.new_game(variant)
        keep = [g["id"] for g in self.games.values()]
        self.reader.execute(f"DELETE FROM games WHERE id NOT IN ({','.join('?' * len(keep))})", keep)
        self.snapshot, self.version = self.dump(), self.data_version()


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    env = Env(str(tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite"))
    yield env
    env.reader.close()


# ---------------------------------------------------------------- strategies

json_scalar = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(-20, 20)
    | st.integers(min_value=10**15, max_value=10**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(
        [
            "",
            " ",
            "hearts",
            "none",
            "grand",
            "pass",
            "sol",
            "plain",
            "sans",
            "tricks",
            "add",
            "deduct",
            "DKK",
            "\x00",
            "<b>",
            "\u202e",
        ]
    )
)
json_value = st.recursive(
    json_scalar,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=6,
)
plausible = (
    st.integers(-2, 15)
    | st.sampled_from(
        [
            None,
            True,
            False,
            "hearts",
            "spades",
            "clubs",
            "none",
            "grand",
            "pass",
            "sol",
            "ren_sol",
            "bordlaegger",
            "plain",
            "vip",
            "gode",
            "sans",
            "halve",
            "tricks",
            "add",
            "deduct",
            "7",
            7.0,
            1e300,
        ]
    )
    | st.lists(st.integers(-1, 14), min_size=0, max_size=3)
    | st.fixed_dictionaries(
        {}, optional={"side": st.integers(-1, 2), "penalty": st.sampled_from(["tricks", "add", "x"])}
    )
)
hand_body = (
    st.dictionaries(st.sampled_from(HAND_FIELDS + ["note", "number", ""]), plausible, max_size=7)
    | st.dictionaries(st.sampled_from(HAND_FIELDS), json_value, max_size=4)
    | json_value
)


def valid_hand(variant):
    """Hands that are right for a game as new_game starts it (the variant's own strategy, tests/variants/<name>.py),
    so that writes succeed between the refusals."""
    example = EXAMPLES[variant]
    setup = make_setup(variant, list(example.PLAYERS), 0, example.LONG[0])
    return st.integers(0, 20).flatmap(lambda index: hands(setup, index))


# Another game to take a wrong edit key from.
OTHER = dict(zip(VARIANTS, list(VARIANTS)[1:] + list(VARIANTS)[:1]))


header_text = st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF), max_size=40)
variants = st.sampled_from(sorted(VARIANTS))


@st.composite
def write_headers(draw, game, other):
    headers = {}
    key = draw(st.sampled_from(["right", "right", "right", "missing", "other", "junk"]))
    if key != "missing":
        headers["X-Edit-Key"] = {"right": game["edit_key"], "other": other["edit_key"]}.get(key) or draw(header_text)
    for name, values in (
        ("X-Hand-Number", st.integers(0, 20).map(str) | header_text),
        ("If-Match", st.integers(0, 40).map(str) | st.integers(0, 40).map(lambda v: f'"{v}"') | header_text),
        ("Idempotency-Key", st.sampled_from(["k1", "k2", "form:k3"]) | header_text),
    ):
        if draw(st.booleans()):
            headers[name] = draw(values)
    return headers


# ---------------------------------------------------------------- the tests (10,000 examples in all)


names = st.text(max_size=45) | st.sampled_from(
    ["Anna", "Bo", "Carl", "Dina", "Eva", "anna", " ", "\t", "A\x07", "x" * 41, "<script>", "Åsa", "\u0000", "\ud7ff"]
)
game_body = (
    st.fixed_dictionaries(
        {},
        optional={
            "variant": st.sampled_from(sorted(VARIANTS) + ["bridge", ""]) | json_value,
            "players": st.lists(names, max_size=6) | json_value,
            "dealer": st.integers(-1, 5) | json_value,
            "title": names | st.text(min_size=70, max_size=100) | json_value,
            "options": st.dictionaries(st.sampled_from(OPTION_NAMES + ["colour"]), plausible | json_value, max_size=4)
            | json_value,
            "hands": st.lists(hand_body, max_size=3),
            "format": st.sampled_from(["scorekeeper/game/1", "other"]),
            "extra": json_value,
        },
    )
    | json_value
)


@st.composite
def likely_game(draw, importing):
    """Games that are often right: the right number of players, known options with plausible values."""
    variant = draw(variants)
    module = VARIANTS[variant]
    n = draw(st.sampled_from(module.PLAYER_COUNTS))
    body = {
        "variant": variant,
        "players": draw(st.just((PLAYERS[variant] + ["Eva"])[:n]) | st.lists(names, min_size=n, max_size=n)),
    }
    if draw(st.booleans()):
        body["dealer"] = draw(st.integers(-1, n))
    if draw(st.booleans()):
        body["title"] = draw(names)
    if draw(st.booleans()):
        body["options"] = draw(st.dictionaries(st.sampled_from(sorted(module.OPTIONS)), plausible, max_size=2))
    if importing:
        body["format"] = "scorekeeper/game/1"
        body["hands"] = draw(st.lists(valid_hand(variant) | hand_body, max_size=4))
    return body


@settings(FUZZ, max_examples=examples(2800))
@given(data=st.data(), route=st.sampled_from(["/api/games", "/api/games", "/api/games/import"]))
def test_fuzz_start_and_import_games(env, data, route):
    body = data.draw(likely_game(route.endswith("import")) | game_body)
    status = env.check(env.client.post(route, json=body))
    assert status in (201, 400)


@settings(FUZZ, max_examples=examples(2800))
@given(data=st.data(), variant=variants)
def test_fuzz_add_hand(env, data, variant):
    game = env.games[variant]
    other = env.games[OTHER[variant]]
    body = data.draw(valid_hand(variant) | hand_body)
    headers = data.draw(write_headers(game, other))
    r = env.client.post(f"/api/games/{game['id']}/hands", json=body, headers=headers)
    if r.status_code == 201:
        env.hands[variant] = max(env.hands[variant], r.json["number"])
    assert env.check(r) in (201, 400, 403, 404, 409)


@settings(FUZZ, max_examples=examples(2400))
@given(data=st.data(), variant=variants, method=st.sampled_from(["put", "put", "delete"]))
def test_fuzz_replace_and_delete_hand(env, data, variant, method):
    game = env.games[variant]
    other = env.games[OTHER[variant]]
    if data.draw(st.integers(0, 3)) == 0:  # keep some hands to edit
        r = env.client.post(
            f"/api/games/{game['id']}/hands",
            json=data.draw(valid_hand(variant)),
            headers={"X-Edit-Key": game["edit_key"]},
        )
        if r.status_code == 201:
            env.hands[variant] = r.json["number"]
        env.accepted()
    number = data.draw(
        st.integers(0, 4).map(str) | st.text(max_size=5).map(lambda t: quote(t, safe="")) | st.just("1" * 30)
    )
    headers = data.draw(write_headers(game, other))
    url = f"/api/games/{game['id']}/hands/{number}"
    if method == "put":
        r = env.client.put(url, json=data.draw(valid_hand(variant) | hand_body), headers=headers)
    else:
        r = env.client.delete(url, headers=headers)
        if r.status_code == 200:
            env.hands[variant] = len(r.json["hands"])
    assert env.check(r) in (200, 308, 400, 403, 404, 409)


raw_bodies = st.one_of(
    st.binary(max_size=200),
    st.text(max_size=100).map(lambda t: t.encode("utf-8")),
    st.sampled_from(
        [
            b"",
            b"null",
            b"[]",
            b"{",
            b'{"tricks": [9, 4]',
            b"\xff\xfe{}",
            b'{"tricks": NaN}',
            b'{"tricks": [Infinity, 4]}',
            b'{"tricks": [1e999, 4]}',
            b'{"tricks": [' + b"9" * 5000 + b", 4]}",
            b'{"players": ["\\ud800", "B"], "variant": "german"}',
            b'{"variant": "german", "players": ["A\\u0000", "B"]}',
            b"[" * 5000 + b"]" * 5000,
            b'{"a":' * 3000 + b"1" + b"}" * 3000,
            b'{"tricks": "' + b"x" * 70000 + b'"}',
            '{"title": "caf\xe9"}'.encode("latin-1"),
            b'\xef\xbb\xbf{"tricks": [9, 4]}',
            '{"variant": "german", "players": ["Åsa", "Bo"]}'.encode("utf-16"),
        ]
    ),
    json_value.map(lambda v: json.dumps(v).encode()),
)
content_types = st.sampled_from(
    [
        "application/json",
        "application/json",
        "application/json; charset=utf-8",
        "application/problem+json",
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "",
        "application/json; charset=latin-1",
    ]
)


@settings(FUZZ, max_examples=examples(2000))
@given(
    data=st.data(),
    body=raw_bodies,
    content_type=content_types,
    target=st.sampled_from(["create", "import", "add", "put", "delete", "read", "log", "export", "settlement", "odd"]),
)
def test_fuzz_raw_requests_to_every_route(env, data, body, content_type, target):
    game = env.games[data.draw(variants)]
    gid = game["id"] if data.draw(st.integers(0, 5)) else quote(data.draw(st.text(max_size=12)), safe="") or "x"
    headers = {"X-Edit-Key": game["edit_key"]}
    method, path = {
        "create": ("post", "/api/games"),
        "import": ("post", "/api/games/import"),
        "add": ("post", f"/api/games/{gid}/hands"),
        "put": ("put", f"/api/games/{gid}/hands/1"),
        "delete": ("delete", f"/api/games/{gid}/hands/1"),
        "read": ("get", f"/api/games/{gid}"),
        "log": ("get", f"/api/games/{gid}/log"),
        "export": ("get", f"/api/games/{gid}/export"),
        "settlement": ("get", f"/api/games/{gid}/settlement"),
        "odd": (data.draw(st.sampled_from(["patch", "put", "post", "delete", "options"])), f"/api/games/{gid}"),
    }[target]
    r = getattr(env.client, method)(path, data=body, headers=headers, content_type=content_type or None)
    if target == "delete" and r.status_code == 200:
        env.hands = {v: len(env.client.get(f"/api/games/{g['id']}").json["hands"]) for v, g in env.games.items()}
    if env.check(r) >= 400:
        assert r.is_json
