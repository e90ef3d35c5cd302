"""What changed after a hand, drawn from the scored game (issue 47): a watching phone's changed poll is answered the
new rows, the standing, the chart … by the protokoll's own macros (games/_protokoll.html), not by the whole page
drawn and cut into parts. Whatever the answer, the page the phone shows after putting it in place as static/live.js
does (`Phone.take`, the same rules in Python) is the page drawn fresh: for random games of every variant, with
hands added, edited and deleted, bids entered, changed and cleared, a finished game, a club's table whose evening
settles through the kitty, a game with its chart. The browser half is tests/browser/test_live_browser.py."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field

import pytest
from flask import template_rendered
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import PLAYERS, examples
from scorekeeper.clubs import service as club_service
from scorekeeper.core import VARIANTS as RULES
from scorekeeper.core import make_setup
from scorekeeper.server import heavy
from scorekeeper.testing import page_parts
from strategies import VARIANTS, one_hand, until_end
from variants import EXAMPLES, players, tables

TAG = re.compile(r'data-live-tag="([^"]+)"')
ATTRIBUTE = re.compile(r'\s([a-zA-Z][a-zA-Z0-9:-]*)(?:="([^"]*)")?')
DELTA = re.compile(r"<!doctype html><div hidden data-live-delta[^>]*>")


def attributes(tag: str) -> list[tuple[str, str | None]]:
    """An opening tag's attributes, in order (the values as written)."""
    head = re.match(r"<[a-zA-Z][a-zA-Z0-9:-]*", tag)
    assert head is not None, tag
    return ATTRIBUTE.findall(tag[head.end() : -1])


def opening(html: str) -> str:
    return html[: html.index(">") + 1]


def unmarked(html: str) -> str:
    """A part as live.js puts it in place: without its data-live-part and data-live-after."""
    head = opening(html)
    clean = re.sub(r' data-live-after="[^"]*"', "", re.sub(r" data-live-part(?=[ >])", "", head))
    return clean + html[len(head) :]


def ident(html: str) -> str:
    return dict(attributes(opening(html)))["id"] or ""


@dataclass
class Phone:
    """A phone's <main> as live.js leaves it: its blocks in order, the sheet's own tag, its head and its rows."""

    order: list[str]
    blocks: dict[str, str]
    sheet: list[tuple[str, str | None]]
    rows: list[tuple[str, str]]
    tag: str = ""
    log: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, page: str) -> Phone:
        parts = page_parts.parts_of(page)
        assert parts is not None
        found = TAG.search(page)
        assert found is not None
        return cls(list(parts.order), dict(parts.blocks), attributes(parts.sheet_open), list(parts.rows), found[1])

    def assert_shows(self, page: str) -> None:
        fresh = Phone.of(page)
        assert self.tag == fresh.tag, self.log
        assert self.order == fresh.order, self.log
        for name in self.order:
            assert self.blocks[name] == fresh.blocks[name], (name, self.log)
        assert self.sheet == fresh.sheet, self.log
        assert [r for r, _ in self.rows] == [r for r, _ in fresh.rows], self.log
        assert self.rows == fresh.rows, self.log

    # ------------------------------------------------------------ live.js's take() and apply(), in Python

    def take(self, answer: str) -> bool:
        """Put an answer in place; whether it was what changed (else the whole page)."""
        root = DELTA.match(answer)
        if root is None:
            whole = Phone.of(answer)
            self.order, self.blocks, self.sheet, self.rows, self.tag = (
                whole.order,
                whole.blocks,
                whole.sheet,
                whole.rows,
                whole.tag,
            )
            return False
        found = TAG.search(root[0])
        assert found is not None
        self.tag = found[1]
        spans = page_parts.children(answer, root.end(), answer.rindex("</div>"))
        assert spans is not None, answer
        elements = [answer[a:b] for a, b in spans]
        parts: list[str] = []
        for element in elements:  # what querySelectorAll finds, in the document's order
            head = dict(attributes(opening(element)))
            if element.startswith("<i data-live-gone="):
                continue
            if "data-live-attrs" in head or "data-live-part" in head:
                parts.append(element)
                continue
            assert opening(element) == "<table>", element  # rows, where a parser keeps them
            rows = page_parts.children(element, len("<table>"), len(element) - len("</table>"))
            assert rows is not None
            parts += [element[a:b] for a, b in rows]
        for element in elements:  # the rows gone, at once
            gone = re.match(r'<i data-live-gone="([^"]+)"></i>$', element)
            if gone:
                self.remove(gone[1])
        for element in parts:  # the attributes, at once
            if "data-live-attrs" in dict(attributes(opening(element))):
                assert ident(element) == "sheet"
                now = [(n, v) for n, v in attributes(opening(element)) if n != "data-live-attrs"]
                given = dict(now)
                self.sheet = [(n, given[n]) for n, _ in self.sheet if n in given]
                self.sheet += [(n, v) for n, v in now if n not in dict(self.sheet)]
        for element in parts:  # then the parts, each in place of its namesake or after the one it follows
            head = dict(attributes(opening(element)))
            if "data-live-part" not in head:
                continue
            self.put(ident(element), head.get("data-live-after"), unmarked(element))
        return True

    def remove(self, name: str) -> None:
        if name in self.blocks:
            self.order.remove(name)
            del self.blocks[name]
        self.rows = [(r, html) for r, html in self.rows if r != name]

    def put(self, name: str, after: str | None, html: str) -> None:
        rows = [r for r, _ in self.rows]
        if name == "sheet":  # the sheet whole: its tag, its head, its rows
            whole = page_parts.parts_of(f"<main>{html}</main>")
            assert whole is not None
            self.sheet, self.blocks["sheet"], self.rows = (
                attributes(whole.sheet_open),
                whole.blocks["sheet"],
                list(whole.rows),
            )
        elif name in self.blocks:
            self.blocks[name] = html
        elif name in rows:
            self.rows[rows.index(name)] = (name, html)
        elif after in self.blocks:
            self.order.insert(self.order.index(after) + 1, name)
            self.blocks[name] = html
        elif after in rows:
            self.rows.insert(rows.index(after) + 1, (name, html))
        else:
            raise AssertionError(f"{name} has no place: after {after!r} ({self.log})")


# ---------------------------------------------------------------- a table and a phone watching it


class Table:
    """A game through the API, a plain reader's phone watching its protokoll as live.js does."""

    def __init__(self, app, game: dict, headers: dict | None = None):
        self.app, self.game, self.client = app, game, app.test_client()
        self.headers = headers or {}
        self.editor = {"X-Edit-Key": game["edit_key"]}
        self.url = f"/g/{game['id']}"
        self.phone = Phone.of(self.page())
        self.deltas = self.pages = 0

    def page(self) -> str:
        r = self.client.get(self.url, headers=self.headers)
        assert r.status_code == 200
        return r.get_data(as_text=True)

    def ask(self) -> str:
        """The phone's question, its answer put in place."""
        r = self.client.get(
            f"{self.url}/live", headers={**self.headers, "X-Live-Tag": self.phone.tag, "X-Live-Parts": "1"}
        )
        assert r.status_code == 200
        answer = r.get_data(as_text=True)
        if answer:
            if self.phone.take(answer):
                self.deltas += 1
            else:
                self.pages += 1
            assert r.headers["ETag"] == f'"{self.phone.tag}"'
        return answer

    def poll(self) -> str:
        """The phone's question, and its page then checked against the page drawn fresh."""
        answer = self.ask()
        self.phone.assert_shows(self.page())
        return answer

    def write(self, method: str, path: str, body=None) -> bool:
        r = self.app.test_client().open(
            f"/api/games/{self.game['id']}{path}", method=method, json=body, headers=self.editor
        )
        self.phone.log.append(f"{method} {path} {body} → {r.status_code}")
        return r.status_code < 300

    def hand(self, data) -> bool:
        return self.write("POST", "/hands", data)


def delta(answer: str) -> bool:
    return DELTA.match(answer) is not None


# ---------------------------------------------------------------- random games of every variant


@st.composite
def nights(draw, variant):
    """A game's setup and what happens at its table: ("hand", input), ("bids", input), ("edit", n, input),
    ("delete", n), ("clear",), ("poll",); inputs each valid where the game stands if nothing else changed."""
    n = draw(st.sampled_from(tables(variant)))
    options = draw(st.sampled_from(EXAMPLES[variant].OPTION_SETS))
    dealer = draw(st.integers(0, n - 1))
    setup = make_setup(variant, players(variant, n), dealer, options)
    inputs = until_end(setup, [one_hand(draw, setup, i) for i in range(draw(st.integers(1, 9)))])
    bids = RULES[variant].BID_FIELDS
    steps: list[tuple] = []
    for i, inp in enumerate(inputs):
        if bids and draw(st.booleans()):
            steps.append(("bids", {k: v for k, v in inp.items() if k in bids}))
            if draw(st.booleans()):
                steps.append(("poll",))
        steps.append(("hand", inp))
        if i and draw(st.integers(0, 5)) == 0:
            number = draw(st.integers(1, i + 1))
            steps.append(("edit", number, one_hand(draw, setup, number - 1)))
        if i and draw(st.integers(0, 6)) == 0:
            steps.append(("delete", draw(st.sampled_from([i + 1, draw(st.integers(1, i + 1))]))))
        if draw(st.integers(0, 2)):
            steps.append(("poll",))
    if bids and inputs and draw(st.booleans()):
        steps += [("bids", {k: v for k, v in inputs[-1].items() if k in bids}), ("poll",), ("clear",)]
    steps.append(("poll",))
    return {"variant": variant, "players": list(setup.players), "dealer": dealer, "options": dict(options)}, steps


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_phones_page_after_what_changed_is_the_fresh_page(app, variant):
    @settings(
        max_examples=examples(40),
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(nights(variant))
    def night(setup_and_steps):
        body, steps = setup_and_steps
        r = app.test_client().post("/api/games", json=body)
        assert r.status_code == 201, r.json
        table = Table(app, r.json)
        for step in steps:
            if step[0] == "poll":
                table.poll()
            elif step[0] == "hand":
                table.hand(step[1])
            elif step[0] == "bids":
                table.write("PUT", "/bids", step[1])
            elif step[0] == "clear":
                table.write("DELETE", "/bids")
            elif step[0] == "edit":
                table.write("PUT", f"/hands/{step[1]}", step[2])
            else:
                table.write("DELETE", f"/hands/{step[1]}")
        assert table.pages == 0, table.phone.log  # what changed, every time: hands, bids, edits, deletions

    night()


# ---------------------------------------------------------------- the cases by name


def danish(app, hands: int = 3, **headers) -> Table:
    r = app.test_client().post("/api/games", json={"variant": "danish", "players": PLAYERS["danish"]})
    table = Table(app, r.json, headers)
    for data in EXAMPLES["danish"].long_hands(hands, 1):
        assert table.hand(data)
    table.phone = Phone.of(table.page())
    return table


@pytest.fixture
def rendered(app):
    """The templates rendered while the test runs (Flask's template_rendered signal)."""
    names: list[str] = []

    def seen(sender, template, context, **extra):
        names.append(template.name)

    template_rendered.connect(seen, app)
    yield names
    template_rendered.disconnect(seen, app)


def test_a_hand_added_is_its_row_the_standing_and_the_chart_not_the_page(app, rendered):
    table = danish(app, 3)
    table.hand(EXAMPLES["danish"].long_hands(4, 1)[3])
    rendered.clear()
    answer = table.ask()
    assert rendered == []  # no page drawn: the protokoll's macros
    table.phone.assert_shows(table.page())
    assert delta(answer) and 'id="hand-4"' in answer and 'data-live-after="hand-3"' in answer
    assert 'id="hand-3"' not in answer and 'id="share"' not in answer and 'id="paper"' not in answer
    assert '<figure data-live-part class="chart" id="chart">' in answer  # in place of the chart it had
    assert len(answer) < len(table.page()) / 2


def test_the_first_hand_is_the_sheet_whole_and_no_hands_yet_goes(app):
    table = danish(app, 0)
    assert "no-hands" in table.phone.order
    table.hand(EXAMPLES["danish"].long_hands(1, 1)[0])
    answer = table.poll()
    assert delta(answer) and '<table data-live-part class="sheet' in answer and 'data-live-gone="no-hands"' in answer
    assert 'data-live-after="sheet" class="chart"' in answer  # the chart's first drawing, after the sheet


def test_the_phone_a_few_hands_behind_and_in_its_own_language(app):
    table = danish(app, 2, **{"Accept-Language": "da"})
    for data in EXAMPLES["danish"].long_hands(6, 1)[2:]:
        table.hand(data)
    answer = table.poll()
    assert delta(answer) and 'data-live-after="hand-5" id="hand-6"' in answer and table.pages == 0
    assert 'lang="da"' in table.page()


def test_a_deal_in_progress_its_bids_changed_its_tricks_and_cleared(app):
    r = app.test_client().post(
        "/api/games", json={"variant": "plump", "players": PLAYERS["plump"], "options": {"lead": "highest_bid"}}
    )
    table = Table(app, r.json)
    table.hand({"bids": [3, 2, 0, 4], "tricks": [3, 1, 0, 6]})
    table.poll()
    assert table.write("PUT", "/bids", {"bids": [1, 2, 3, 0]})
    answer = table.poll()
    assert (
        delta(answer)
        and 'data-live-after="hand-1" id="open-deal"' in answer
        and "hand-1" not in answer.replace('data-live-after="hand-1"', "")
    )
    assert table.write("PUT", "/bids", {"bids": [1, 2, 3, 1]})
    assert delta(table.poll())
    assert table.hand({"bids": [1, 2, 3, 1], "tricks": [1, 2, 3, 3]})
    answer = table.poll()
    assert delta(answer) and 'data-live-gone="open-deal"' in answer and 'id="hand-2"' in answer
    assert table.write("PUT", "/bids", {"bids": [0, 0, 0, 0]})
    table.poll()
    assert table.write("DELETE", "/bids")
    answer = table.poll()
    assert delta(answer) and 'data-live-gone="open-deal"' in answer
    assert table.pages == 0


def test_a_deal_in_progress_before_the_first_hand(app):
    r = app.test_client().post("/api/games", json={"variant": "plump", "players": PLAYERS["plump"]})
    table = Table(app, r.json)
    assert table.write("PUT", "/bids", {"bids": [1, 2, 3, 1]})
    answer = table.poll()
    assert delta(answer) and 'data-live-gone="no-hands"' in answer and 'id="open-deal"' in answer
    assert table.hand({"bids": [1, 2, 3, 1], "tricks": [1, 2, 3, 4]})
    assert delta(table.poll())


def test_the_last_hand_of_a_finished_game_and_its_deletion(app):
    r = app.test_client().post("/api/games", json={"variant": "german", "players": PLAYERS["german"]})
    table = Table(app, r.json)
    table.hand({"tricks": [8, 5]})
    table.poll()
    number = 1
    while not app.test_client().get(f"/api/games/{table.game['id']}").json["finished"]:
        assert table.hand({"tricks": [8, 5]})
        number += 1
    answer = table.poll()
    assert delta(answer) and 'data-live-every="30"' in answer and "Game over" in answer
    assert table.write("DELETE", f"/hands/{number}")
    answer = table.poll()
    assert delta(answer) and "data-live-every" not in answer and f'data-live-gone="hand-{number}"' in answer


def test_edits_and_deletions_and_their_words_in_the_changes(app):
    table = danish(app, 5)
    hands = EXAMPLES["danish"].long_hands(8, 1)
    assert table.write("PUT", "/hands/3", hands[6])
    answer = table.poll()
    assert delta(answer) and '<tbody data-live-part id="hand-3"' in answer and 'id="hand-2"' not in answer
    assert 'data-live-after="settlement"' in answer or 'data-live-after="chart" class="changes"' in answer
    assert table.write("DELETE", "/hands/2") and table.hand(hands[5])
    answer = table.poll()
    assert delta(answer) and '<section data-live-part class="changes"' in answer  # its words drawn again
    assert table.write("DELETE", "/hands/5") and table.write("DELETE", "/hands/4")
    answer = table.poll()
    assert delta(answer) and 'data-live-gone="hand-5"' in answer and 'data-live-gone="hand-4"' in answer
    assert table.pages == 0


def test_a_club_table_whose_evening_settles_through_the_kitty(app, db):
    club_id = club_service.create_club(
        db,
        {"name": "Kløver", "currency": "DKK", "variant": "danish", "options": {"rate": "0.05"}, "password": "x" * 12},
    )
    ids = club_service.add_members(db, club_id, ["Anna", "Bo", "Carl", "Dina"])
    evening = club_service.create_evening(db, club_id, "2026-02-05", "10", "kitty")
    game_id, key, _ = club_service.add_table(db, club_id, evening, ids)
    table = Table(app, {"id": game_id, "edit_key": key})
    assert 'id="club-line"' in table.phone.blocks["standing"]
    for data in EXAMPLES["danish"].long_hands(3, 2):
        assert table.hand(data)
        answer = table.poll()
        assert delta(answer)
    assert "kitty" in table.phone.blocks["settlement"]


def test_the_page_where_it_cannot_tell(app, db_path):
    """A change another program made at the file (the version on, no line in the log), the title changed, a phone more
    changes behind than it looks back: the whole page, which is the page."""
    table = danish(app, 2)
    with sqlite3.connect(db_path) as other:
        other.execute(
            "UPDATE hands SET input = input WHERE id = (SELECT min(id) FROM hands WHERE game_id = ?)",
            (table.game["id"],),
        )
    table.hand(EXAMPLES["danish"].long_hands(3, 1)[2])
    assert not delta(table.poll())
    with sqlite3.connect(db_path) as other:
        other.execute("UPDATE games SET title = 'Renamed' WHERE id = ?", (table.game["id"],))
    assert not delta(table.poll())
    for data in EXAMPLES["danish"].long_hands(21, 1)[3:]:
        assert table.hand(data)
    assert not delta(table.poll())
    assert table.deltas == 0 and table.pages == 3


def test_any_worker_answers_what_changed(app):
    """Nothing of the page a phone showed is remembered anywhere: a worker that never drew it, with no page and no
    scored game kept, answers what changed all the same."""
    from scorekeeper.games import cache

    table = danish(app, 3)
    table.hand(EXAMPLES["danish"].long_hands(4, 1)[3])
    heavy.PAGES.clear()
    cache.games.clear()
    assert delta(table.poll())


def test_an_editors_phone_and_a_phone_without_parts_get_the_page(app):
    table = danish(app, 2)
    table.hand(EXAMPLES["danish"].long_hands(3, 1)[2])
    plain = table.client.get(f"{table.url}/live", headers={"X-Live-Tag": table.phone.tag}).get_data(as_text=True)
    assert not delta(plain) and 'id="share"' in plain
    table.client.get(f"{table.url}/k/{table.game['edit_key']}")
    answer = table.client.get(f"{table.url}/live", headers={"X-Live-Tag": table.phone.tag, "X-Live-Parts": "1"})
    assert not delta(answer.get_data(as_text=True)) and b'id="enter-hand"' in answer.data


def test_a_tag_worked_out_again_is_the_tag(app):
    """The tags of a phone's possible states (web/live.tags_with) are the tags the pages carry (web/live.tag)."""
    from scorekeeper.web import live

    with app.test_request_context("/g/x/live", headers={"Accept-Language": "sv"}):
        parts = [[live.NUMBERS, 'Title "q" ✓', ["A", "B"], 1, {"x": [1, "2"]}, None, 7], False, {"club": "Kløver"}]
        tags = live.tags_with(parts)
        assert tags is not None
        for numbers in ((0, 0, 0), (12, 3, 999), (1,)):
            assert tags(*numbers) == live.tag([[*numbers, *parts[0][1:]], *parts[1:]])
        assert live.tags_with([[live.NUMBERS, live.NUMBERS]]) is None


def test_behind_nginx_the_first_answer_is_kept_for_the_others_and_the_mark_holds_no_page(db_path, tmp_path):
    """With LIVE_TAGS: the tag's mark a plain reader was told is an empty file (no worker reads the page told any more),
    and a worker that never drew the phone's page answers what changed all the same, kept for the table's other
    phones (LIVE_TAGS' keep_answer) as before."""
    from scorekeeper import create_app
    from scorekeeper.games import cache

    folder = tmp_path / "live-tags"
    app = create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "x", "LIVE_TAGS": str(folder)})
    table = danish(app, 2)
    here = folder / "g" / table.game["id"]
    assert (here / table.phone.tag).is_file() and (here / f"{table.phone.tag}.en").read_bytes() == b""
    asked = table.phone.tag
    table.hand(EXAMPLES["danish"].long_hands(3, 1)[2])
    heavy.PAGES.clear()
    cache.games.clear()
    answer = table.poll()
    assert delta(answer) and (here / f"{asked}.parts").read_text() == answer
