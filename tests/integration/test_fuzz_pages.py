"""Issue 22, finding 8: no request is a 500. The listed ones as plain tests (a Host with a label over 63 characters
or an empty one, a drive table token that is not ASCII, a blank sheet's query naming the route's own argument or one
of url_for's), then hypothesis over the app's whole URL map: every rule, with real and odd ids, GET and POST, odd
query strings and forms, hostile Host headers, bad tokens and keys, deep nesting, huge numbers and non-ASCII digits.
The API's own bodies are fuzzed in test_fuzz_api.py."""

import json
import re
from urllib.parse import quote, urlencode

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from helpers import PASSWORD, PLAYERS, examples
from scorekeeper import create_app
from scorekeeper.clubs import service as club_service
from scorekeeper.drives import service as drive_service
from scorekeeper.storage import close, connect

FUZZ = settings(deadline=None, suppress_health_check=list(HealthCheck), database=None)
BAD_HOSTS = ["a" * 64 + ".example", "a..b", "..", ".example", "a." + "b" * 70, "x" * 300]


class Site:
    """One app over one SQLite file with something behind every kind of id: a game of each variant (this phone holds
    the edit keys), a club with members, an evening and a table (its admin logged in), a drive (its organiser)."""

    def __init__(self, path):
        self.app = create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "fuzz", "WTF_CSRF_ENABLED": False})
        self.client = self.app.test_client()
        self.ids: dict[str, list[str]] = {"variant": sorted(PLAYERS) + ["bridge"], "code": ["da", "nb", "sv", "en"]}
        games, keys = [], []
        for variant, players in PLAYERS.items():
            r = self.client.post("/api/games", json={"variant": variant, "players": players, "options": {}})
            games.append(r.json["id"])
            keys.append(r.json["edit_key"])
            self.client.get(r.json["edit_page"])  # this phone may edit it
        db = connect(path)
        try:
            club = club_service.create_club(
                db, {"name": "Klubben", "currency": "DKK", "variant": "danish", "options": {}, "password": PASSWORD}
            )
            members = [club_service.add_member(db, club, n) for n in ("Anna", "Bo", "Carl", "Dina")]
            evening = club_service.create_evening(db, club, "2026-01-08", "5", "pairwise")
            table, _key, _ = club_service.add_table(db, club, evening, members, 0, "danish")
            drive, drive_key = drive_service.create_drive(
                db,
                {
                    "title": "Hall",
                    "format": "progressive",
                    "ladies": ["A", "B", "C", "D"],
                    "gents": ["E", "F", "G", "H"],
                },
            )
            scored_game = drive_service.load(db, drive)
            tokens = [drive_service.table_token(scored_game, t) for t in (1, 2)]
        finally:
            close(db)
        self.client.post(f"/c/{club}/login", data={"password": PASSWORD})  # no CSRF here: the fuzz reaches further
        self.client.get(f"/d/{drive}/k/{drive_key}")
        self.ids |= {
            "game_id": games + [table],
            "key": keys + [drive_key],
            "club_id": [club],
            "member_id": [str(m) for m in members],
            "evening_id": [str(evening)],
            "drive_id": [drive],
            "token": tokens,
            "table": ["1", "2"],
            "hand": ["1", "2"],
            "number": ["1", "2"],
            "filename": ["app.css", "sw.js", "icons/icon-192.png"],
        }


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return Site(str(tmp_path_factory.mktemp("pages") / "pages.sqlite"))


def rules(app):
    return sorted(app.url_map.iter_rules(), key=lambda r: r.rule)


def build(rule, values: dict) -> str:
    """The rule's path with these values (quoted as they are, whatever the converter would accept)."""
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", lambda m: quote(str(values[m.group(1)]), safe=""), rule.rule)


# ---------------------------------------------------------------- the findings, as they were reported


def test_a_host_with_a_long_or_an_empty_label_is_a_400_on_every_route(site):
    """Before: werkzeug's IDNA encoding refused the Host, Flask was left without a URL adapter, and the error page
    (it links its style sheet) failed with AttributeError: a 500 on every route, /healthz too."""
    for rule in rules(site.app):
        path = build(rule, {name: site.ids[name][0] for name in rule.arguments})
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            for host in BAD_HOSTS:
                r = site.client.open(path, method=method, headers={"Host": host})
                r.close()
                assert r.status_code == 400, (rule.rule, method, host[:20], r.status_code)


def test_a_host_with_a_long_label_is_a_400_in_words_and_json_under_the_api(site):
    r = site.client.get("/api/games/" + site.ids["game_id"][0], headers={"Host": "a..b"})
    assert r.status_code == 400 and r.is_json and r.json["errors"]
    r = site.client.get("/healthz", headers={"Host": "a" * 64 + ".example"})
    assert r.status_code == 400


@pytest.mark.parametrize("token", ["%C3%A9", "%E2%98%83" * 8, "%00", "%FF", "A" * 20 + "%C3%A9"])
def test_a_table_token_that_is_not_ascii_is_refused_not_a_500(site, token):
    """Before: hmac.compare_digest(str, str) raised TypeError on a non-ASCII token."""
    drive = site.ids["drive_id"][0]
    for method in ("GET", "POST"):
        r = site.client.open(f"/d/{drive}/t/1/{token}", method=method, data={"hand": "1", "tricks": "7"})
        assert r.status_code in (403, 404), (method, token, r.status_code)


@pytest.mark.parametrize(
    "query",
    ["variant=x", "variant=danish&variant=x", "_scheme=javascript", "_anchor=x", "_external=1", "_method=POST"],
)
@pytest.mark.parametrize("path", ["/blank/classic", "/blank/danish", "/blank/", "/drives/blank"])
def test_a_blank_sheets_query_cannot_name_the_routes_own_arguments(site, path, query):
    """Before: /blank/classic?variant=x passed `variant` to url_for twice (TypeError), and `_scheme`, `_anchor` …
    reached url_for as its own keywords."""
    r = site.client.get(f"{path}?{query}")
    assert r.status_code in (200, 302, 400), r.status_code
    assert "javascript:" not in r.get_data(as_text=True)


# ---------------------------------------------------------------- hypothesis over the whole URL map

DEEP = ["[" * 2000 + "]" * 2000, '{"a":' * 1500 + "1" + "}" * 1500, "[" * 30]
HUGE = ["1e10000000", "1e-10000000", "9" * 5000, "0." + "0" * 5000 + "1", str(10**4000), "-" + "9" * 40, "1e999"]
DIGITS = ["١٢", "１２", "1_0", "²", "+7", "0x10", "7.0", "٠.٠٥", "0_05", "½"]
ODD = ["", " ", "\x00", "\u202e", "<b>", "%", "../..", "//evil.example", "\\\\evil", "null", "NaN", "x" * 3000, "é"]
odd_text = (
    st.sampled_from(DEEP + HUGE + DIGITS + ODD)
    | st.text(max_size=30)
    | st.integers(-(10**40), 10**40).map(str)
    | st.sampled_from(["1", "2", "7", "13", "0", "-1", "true", "on", "own", "standard", "danish", "hearts"])
)
house_text = st.builds(
    lambda made, over: json.dumps({"levels": {"13": {"made": made, "over": over, "lost": 1}}}),
    st.sampled_from(HUGE + DIGITS + ["1/2", "10", "7/0"]),
    st.sampled_from([1, "1e5", "١"]),
)
PARAMS = [
    "house", "rate", "tariff", "lost", "solo_values", "preset", "deals", "target", "variant", "player", "seats",
    "dealer", "rows", "title", "lang", "next", "changed", "saved", "more", "settlement", "from", "to", "hands", "trump",
    "_scheme", "_anchor", "_external", "_method", "key", "format", "page",
]  # fmt: skip
FIELDS = [
    "player0", "player1", "player2", "player3", "player4", "title", "dealer", "language", "preview", "house_shown",
    "opt_house", "opt_rate", "opt_tariff", "opt_solo_values", "opt_preset", "opt_deals", "opt_target", "opt_lost",
    "opt_grand_value", "number", "version", "token", "hand", "tricks", "bid", "bidder", "suffix", "partner", "passed",
    "fee", "date", "name", "names", "password", "password2", "currency", "preset", "settlement", "action", "seat0",
    "seat1", "seat2", "seat3", "variant", "ladies", "gents", "pairs", "format", "interval_after", "tie_break",
    "prize_top_lady_amount", "prize_booby", "trump0", "next",
]  # fmt: skip
values = odd_text | house_text


def arguments(site, rule):
    """For each of the rule's arguments: mostly a real id, else something odd."""
    return st.fixed_dictionaries(
        {
            name: st.sampled_from(site.ids.get(name, ["x"])) | st.sampled_from(site.ids.get(name, ["x"])) | odd_text
            for name in sorted(rule.arguments)
        }
    )


hosts = st.sampled_from(["localhost"] * 6 + BAD_HOSTS + ["é.example", "[::1]", "localhost:99999", "a b", "x:y:z"])
headers = st.fixed_dictionaries(
    {"Host": hosts},
    optional={
        "X-Edit-Key": st.sampled_from(["", "x", "é", "\x00", "A" * 300]) | st.text(max_size=40),
        "Accept-Language": st.sampled_from(["da", "nb;q=0.5, sv", "xx", "*", "é", ";q=NaN"]),
        "X-Hand-Number": odd_text,
        "If-Match": odd_text,
        "Idempotency-Key": odd_text,
    },
)


@st.composite
def requests(draw, site):
    rule = draw(st.sampled_from(site.rules))
    path = build(rule, draw(arguments(site, rule)))
    method = draw(st.sampled_from(sorted(rule.methods - {"HEAD", "OPTIONS"})))
    query = draw(st.lists(st.tuples(st.sampled_from(PARAMS), values), max_size=4))
    sent = {"method": method, "headers": {k: v for k, v in draw(headers).items() if "\n" not in v and "\r" not in v}}
    if method != "GET":
        if rule.rule.startswith("/api/"):
            body = draw(
                st.sampled_from(DEEP)
                | house_text.map(
                    lambda h: f'{{"variant": "danish", "players": ["A","B","C","D"], "options": {{"house": {h}}}}}'
                )
                | st.sampled_from(HUGE + DIGITS).map(lambda n: f'{{"tricks": {n}, "options": {{"rate": "{n}"}}}}')
                | st.dictionaries(st.sampled_from(["tricks", "bid", "options", "players", "variant"]), odd_text).map(
                    json.dumps
                )
            )
            sent |= {"data": body, "content_type": "application/json"}
        else:
            sent["data"] = dict(draw(st.lists(st.tuples(st.sampled_from(FIELDS), values), max_size=8)))
    url = path + ("?" + urlencode(query) if query else "")
    return rule.rule, url, sent


@pytest.fixture(scope="module")
def fuzz_site(site):
    site.rules = rules(site.app)
    return site


@settings(FUZZ, max_examples=examples(1000))
@given(data=st.data())
def test_fuzz_every_route_is_never_a_500(fuzz_site, data):
    rule, url, sent = data.draw(requests(fuzz_site))
    r = fuzz_site.client.open(url, **sent)
    r.close()  # a static file's answer holds the file open
    event(f"{r.status_code}")
    assert r.status_code < 500 or r.status_code in (503, 507), (rule, url[:300], sent["method"], r.status_code)
    if rule.startswith("/api/") and r.status_code >= 400:
        assert r.is_json and r.json.get("errors"), (rule, url[:300], r.get_data(as_text=True)[:300])
