"""A variant is its own files: a toy of a shape none of the real ones has (three players each alone, seven cards a
deal, no trump, not zero-sum, a house rule that is on by default) is written here as the files a new variant adds —
its rules, its view, its hand page, its test examples — registered by monkeypatch, and then played through every
page, print view, blank sheet, PDF, CSV and the API. Nothing shared is edited for it; docs/adding-a-variant.md lists
these files (TOY_FILES), and the guard test (unit/test_variant_guard.py) holds that no shared file names a variant.

A toy of knock-out's shape (KNOCK_FILES) keeps a state of its own over the hands: players leave, nobody scores, the
deal skips those out and whoever took most tricks leads; its standing is words, not points, on every page and sheet.

A second toy, whose deal size shrinks hand by hand, shows that deleting a hand that would leave a later one not
fitting its new size is refused with 400 and changes nothing."""

from __future__ import annotations

import csv
import importlib.util
import io
import re
import sys

import pytest
from jinja2 import ChoiceLoader, DictLoader

from helpers import ROOT, dump, fields, form_data, pdfinfo, pdftotext, post_hand, start, words_off_the_page
from scorekeeper.core import VARIANTS
from scorekeeper.core.contract import variant
from scorekeeper.variants import views as web_variants
from scorekeeper.variants.view_contract import View
from variants import EXAMPLES

# ---------------------------------------------------------------- the toy's files, as a newcomer writes them

TOY_RULES = '''
"""Toy whist: three players each alone, seven cards each, no trump; a trick is a point, and a player who takes
none loses `blank` points when the house rule is on."""

from scorekeeper.core.fields import is_int, require_fields
from scorekeeper.core.messages import InputError, Msg
from scorekeeper.core.options import bool_option, currency_option, int_option, rate_option

NAME = "toy"
TITLE = Msg("Toy whist")
DESCRIPTION = Msg("Three players alone, seven cards each.")
PLAYER_COUNTS = (3,)
INPUT_FIELDS = ("tricks",)
OPTIONS = {
    "target": int_option(20, 1, 100, Msg("Points that win.")),
    "blank": bool_option(True, Msg("A player without a trick loses 2 points.")),
    "rate": rate_option(None, Msg("Money per point.")),
    "currency": currency_option("SEK"),
}


def cards(number, table):
    return 7


def check_hand(raw, ctx):
    data = require_fields(raw, INPUT_FIELDS)
    tricks = data.get("tricks")
    if not isinstance(tricks, list) or len(tricks) != ctx.n_players or not all(is_int(t) and t >= 0 for t in tricks):
        raise InputError({"tricks": Msg("one number per player")})
    if sum(tricks) != ctx.cards:
        raise InputError({"tricks": Msg("must add up to %(n)d", n=ctx.cards)})
    return {"tricks": list(tricks)}


def hand_points(inp, ctx):
    return tuple(t if t or not ctx.options["blank"] else -2 for t in inp["tricks"])
'''

TOY_VIEW = '''
"""Toy whist on the pages: each player's tricks, in their own protokoll cell."""

from scorekeeper.games.forms import HandForm as BaseHandForm
from scorekeeper.games.forms import radio
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.inputs import number_or_raw
from wtforms.fields import SelectChoice

NAME = "toy"
OPTION_LABELS = {"blank": "Blank hand loses"}


class HandForm(BaseHandForm):
    t0 = radio()
    t1 = radio()
    t2 = radio()

    def to_input(self, ctx):
        return {"tricks": [number_or_raw(self[f"t{s}"].data, negative=True) for s in range(ctx.n_players)]}

    @staticmethod
    def data_from(inp, ctx):
        return {f"t{s}": t for s, t in enumerate(inp["tricks"])}


def buttons(form, ctx, side_names):
    for s in range(ctx.n_players):
        form[f"t{s}"].choices = [SelectChoice(str(t), str(t)) for t in range(ctx.cards + 1)]
    return {"seats": [(f"t{s}", name) for s, name in enumerate(ctx.players)]}


def hand_words(inp, ctx):
    return _("Tricks") + " " + "–".join(map(str, inp["tricks"]))


def cell_words(inp, ctx):
    return [f"{t}/{ctx.cards}" for t in inp["tricks"]]


def blank_columns(table):
    return [("cards", _("Cards"))]


def blank_cells(number, table):
    return {"cards": "7"}
'''

TOY_TEMPLATE = """{% extends "games/_hand_form.html" %}
{% from "_macros.html" import buttons %}
{% block fields %}
{% for name, player in seats %}<h2 class="q">{{ player }}</h2>
{{ buttons(form[name], cols=8, cls="tricks") }}{% endfor %}
{% endblock %}
"""

TOY_EXAMPLES = '''
"""Toy whist's test data."""

from hypothesis import strategies as st

PLAYERS = ["Ada", "Bea", "Cy"]
GAME = {"options": {}, "hands": [{"tricks": [3, 4, 0]}, {"tricks": [2, 2, 3]}]}
FORM_HANDS = [{"t0": "3", "t1": "4", "t2": "0"}]
BLANK_COLUMNS = ["Cards"]
LONG = ({"target": 100}, None)
OPTION_SETS = [{}, {"blank": False}]
CONTEXT_FREE = True


def long_hands(n, seed=1):
    return [{"tricks": [2, 2, 3]} for _ in range(n)]


def hand(draw, setup, index):
    a = draw(st.integers(0, 7))
    b = draw(st.integers(0, 7 - a))
    return {"tricks": [a, b, 7 - a - b]}


def from_csv(row, game):
    return {"tricks": [int(t) for t in row["tricks"].split()]}
'''

# What a new variant adds, as this test writes it (docs/adding-a-variant.md names each).
TOY_FILES = {
    "scorekeeper/variants/toy/rules.py": TOY_RULES,
    "scorekeeper/variants/toy/view.py": TOY_VIEW,
    "scorekeeper/variants/toy/templates/hand.html": TOY_TEMPLATE,
    "tests/variants/toy/__init__.py": TOY_EXAMPLES,
}


# ---------------------------------------------------------------- a toy of knock-out's shape, as a newcomer writes it

KNOCK_RULES = """
\"\"\"Knock-out toy: three players; seven cards the first deal and one fewer each deal after; whoever takes no trick is
out; the last one in wins (or whoever takes the one-card deal's trick). No points: the standing is who is still in.
The deal passes to the next player still in, and whoever took most tricks last deal leads the next.\"\"\"

from typing import NamedTuple

from scorekeeper.core.fields import is_int, require_fields
from scorekeeper.core.messages import InputError, Msg

NAME = "knock"
TITLE = Msg("Knock-out toy")
DESCRIPTION = Msg("Whoever takes no trick is out.")
PLAYER_COUNTS = (3,)
INPUT_FIELDS = ("tricks",)
OPTIONS = {}
POINTS = False


class State(NamedTuple):
    out_after: tuple  # per seat: the hand a player went out with, None while still in
    most: int | None  # who took most tricks last deal
    dealt: int | None  # who dealt last


def initial_state(table):
    return State((None,) * table.n_players, None, None)


def fold(state, hand, ctx):
    tricks = hand.input["tricks"]
    out_after = tuple(o if o is not None or t else hand.number for o, t in zip(state.out_after, tricks))
    return State(out_after, tricks.index(max(tricks)), hand.dealer)


def _next_in(seat, state, n):
    return next(s for k in range(1, n + 1) if state.out_after[(s := (seat + k) % n)] is None)


def dealer(number, state, table):
    if number == 1:
        return table.first_dealer
    if state is None or state.dealt is None:
        return None  # a sheet printed ahead cannot know who will be out
    return _next_in(state.dealt, state, table.n_players)


def next_leader(ctx):
    state = ctx.state
    return state.most if state.most is not None else _next_in(ctx.dealer, state, ctx.n_players)


def leader(inp, ctx):
    return next_leader(ctx)


def cards(number, table):
    return max(1, 8 - number)


def check_hand(raw, ctx):
    data = require_fields(raw, INPUT_FIELDS)
    tricks = data.get("tricks")
    if not isinstance(tricks, list) or len(tricks) != ctx.n_players or not all(is_int(t) and t >= 0 for t in tricks):
        raise InputError({"tricks": Msg("one number per player")})
    if any(t and ctx.state.out_after[s] is not None for s, t in enumerate(tricks)):
        raise InputError({"tricks": Msg("a player who is out takes no tricks")})
    if sum(tricks) != ctx.cards:
        raise InputError({"tricks": Msg("must add up to %(n)d", n=ctx.cards)})
    return {"tricks": list(tricks)}


def hand_points(inp, ctx):
    return (0,) * ctx.n_players


def game_end(hand, ctx):
    after = fold(ctx.state, hand, ctx)
    left = [s for s, o in enumerate(after.out_after) if o is None]
    if len(left) == 1:
        return True, left[0]
    if hand.cards == 1:
        return True, after.most
    return False, None


def standing(state, totals, table):
    return tuple(Msg("still in") if o is None else Msg("out after hand %(n)d", n=o) for o in state.out_after)
"""

KNOCK_VIEW = """
\"\"\"The knock-out toy on the pages: the tricks of the players still in.\"\"\"

from scorekeeper.games.forms import HandForm as BaseHandForm
from scorekeeper.games.forms import radio
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.inputs import number_or_raw
from wtforms.fields import SelectChoice

NAME = "knock"


class HandForm(BaseHandForm):
    t0 = radio()
    t1 = radio()
    t2 = radio()

    def to_input(self, ctx):
        out = ctx.state.out_after
        return {"tricks": [0 if out[s] is not None else number_or_raw(self[f"t{s}"].data) for s in range(3)]}

    @staticmethod
    def data_from(inp, ctx):
        return {f"t{s}": t for s, t in enumerate(inp["tricks"])}


def buttons(form, ctx, side_names):
    for s in range(ctx.n_players):
        form[f"t{s}"].choices = [SelectChoice(str(t), str(t)) for t in range(ctx.cards + 1)]
    return {"seats": [(f"t{s}", name) for s, name in enumerate(ctx.players) if ctx.state.out_after[s] is None]}


def hand_words(inp, ctx):
    return _("Tricks") + " " + "–".join(map(str, inp["tricks"]))


def cell_words(inp, ctx):
    return [str(t) if o is None else "·" for t, o in zip(inp["tricks"], ctx.state.out_after)]


def blank_columns(table):
    return [("cards", _("Cards"))]


def blank_side_columns(table):
    return [("tricks", _("Tricks"))]


def blank_cells(number, table):
    return {"cards": str(max(1, 8 - number))}
"""

KNOCK_EXAMPLES = """
\"\"\"The knock-out toy's test data.\"\"\"

PLAYERS = ["Ada", "Bea", "Cy"]
GAME = {"options": {}, "hands": [{"tricks": [3, 4, 0]}, {"tricks": [4, 2, 0]}]}
FORM_HANDS = [{"t0": "3", "t1": "4", "t2": "0"}]
BLANK_COLUMNS = ["Cards"]
CONTEXT_FREE = False
LONG = ({}, None)
OPTION_SETS = [{}]


def long_hands(n, seed=1):
    \"\"\"Until one is left (Cy out after hand 1, Bea after hand 3), then hands the finished game refuses.\"\"\"
    return ([{"tricks": [4, 3, 0]}, {"tricks": [3, 3, 0]}, {"tricks": [5, 0, 0]}] + [{"tricks": [4, 0, 0]}] * n)[:n]


def from_csv(row, game):
    return {"tricks": [int(t) for t in row["tricks"].split()]}
"""

KNOCK_FILES = {
    "scorekeeper/variants/knock/rules.py": KNOCK_RULES,
    "scorekeeper/variants/knock/view.py": KNOCK_VIEW,
    "scorekeeper/variants/knock/templates/hand.html": TOY_TEMPLATE,
    "tests/variants/knock/__init__.py": KNOCK_EXAMPLES,
}


def _module(monkeypatch, tmp_path, name: str, source: str):
    """A module written to a file and imported under `name` (gone from sys.modules after the test)."""
    path = tmp_path / f"{name.replace('.', '_')}.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)
    return module


def register(
    monkeypatch, tmp_path, app, rules_source=TOY_RULES, view_source=TOY_VIEW, name="toy", examples=TOY_EXAMPLES
):
    """The toy in every registry the app reads: the core's, the views', the tests' examples, the hand template."""
    rules = _module(monkeypatch, tmp_path, f"scorekeeper.variants.{name}.rules", rules_source)
    view = _module(monkeypatch, tmp_path, f"scorekeeper.variants.{name}.view", view_source)
    monkeypatch.setitem(VARIANTS, name, variant(rules))
    monkeypatch.setitem(web_variants.VIEWS, name, View(view))
    monkeypatch.setitem(EXAMPLES, name, _module(monkeypatch, tmp_path, f"variants.{name}", examples))
    monkeypatch.setattr(
        app, "jinja_loader", ChoiceLoader([DictLoader({f"variants/{name}/hand.html": TOY_TEMPLATE}), app.jinja_loader])
    )
    return rules, view


@pytest.fixture
def toy(monkeypatch, tmp_path, app):
    return register(monkeypatch, tmp_path, app)


def text(r) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r.get_data(as_text=True)))


def test_the_toy_is_its_own_files_and_nothing_else():
    assert sorted(TOY_FILES) == [
        "scorekeeper/variants/toy/rules.py",
        "scorekeeper/variants/toy/templates/hand.html",
        "scorekeeper/variants/toy/view.py",
        "tests/variants/toy/__init__.py",
    ]
    assert "toy" not in VARIANTS  # registered only inside the tests that ask for it


def test_the_pages_play_a_game_of_the_toy(client, toy):
    assert "Toy whist" in text(client.get("/new"))
    page = client.get("/new/toy")
    assert page.status_code == 200
    assert "3 players." in text(page)  # the hint from its table sizes, not "four players; partners opposite"
    assert 'name="opt_blank" value="y" checked' in page.get_data(as_text=True)
    gid = start(client, "toy", ["Ada", "Bea", "Cy"])  # the whole form, as a browser sends it: the box stays ticked
    game = client.get(f"/api/games/{gid}").json
    assert game["options"]["blank"] is True and game["sides"] == [[0], [1], [2]]
    entry = client.get(f"/g/{gid}/hands/new")
    assert entry.status_code == 200 and 'name="t2" id="t2-7"' in entry.get_data(as_text=True)
    post_hand(client, gid, {"t0": "3", "t1": "4", "t2": "0"})
    post_hand(client, gid, {"t0": "2", "t1": "2", "t2": "3"})
    r = post_hand(client, gid, {"t0": "2", "t1": "2", "t2": "2"}, expect=400)
    assert "must add up to 7" in text(r)
    protokoll = text(client.get(f"/g/{gid}"))
    assert "Tricks 3–4–0" in protokoll and "3/7" in protokoll and "0/7" in protokoll  # each player's own cell
    assert "−2" in protokoll and "7 cards" in protokoll  # the blank hand, and the deal's size said ahead
    # Edit hand 1 through its page: the form comes back filled in.
    edit = client.get(f"/g/{gid}/hands/1").get_data(as_text=True)
    assert 'id="t1-4" value="4" checked' in edit
    post_hand(client, gid, {"t0": "1", "t1": "5", "t2": "1"}, number=1)
    assert client.get(f"/api/games/{gid}").json["totals"] == [3, 7, 4]
    # Delete hand 2 through its page.
    delete = client.get(f"/g/{gid}/hands/2/delete")
    assert delete.status_code == 200
    r = client.post(f"/g/{gid}/hands/2/delete", data=fields(delete.get_data(as_text=True)))
    assert r.status_code == 302 and len(client.get(f"/api/games/{gid}").json["hands"]) == 1


@pytest.mark.needs_program
def test_print_blank_sheets_pdf_and_csv_of_the_toy(client, api, toy, tmp_path):
    game = api.create("toy", players=["Ada", "Bea", "Cy"], options={"rate": 0.5})
    for hand in EXAMPLES["toy"].GAME["hands"]:
        api.hand(game, hand)
    printed = text(client.get(f"/g/{game['id']}/print"))
    assert "Toy whist" in printed and "Ada, Bea, Cy" in printed and "4/7" in printed
    pdf = client.get(f"/g/{game['id']}/sheet.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    assert "Toy whist" in pdftotext(pdf.data, tmp_path) and not words_off_the_page(pdf.data, tmp_path)
    for url in (f"/g/{game['id']}/blank", "/blank/toy?player=Ada&player=Bea&player=Cy&dealer=0"):
        blank = client.get(url)
        assert blank.status_code == 200 and "Cards" in text(blank)
        assert '<td class="entry">7</td>' in blank.get_data(as_text=True)  # the deal's cards printed ahead
    blank_pdf = client.get("/blank/toy.pdf")
    assert blank_pdf.status_code == 200
    assert "Cards" in pdftotext(blank_pdf.data, tmp_path)
    assert int(pdfinfo(blank_pdf.data, tmp_path)["Pages"]) == 1 and not words_off_the_page(blank_pdf.data, tmp_path)
    assert 'href="/blank/toy.pdf"' in client.get("/blank/").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(client.get(f"/g/{game['id']}/hands.csv").data.decode("utf-8-sig"))))
    assert [EXAMPLES["toy"].from_csv(row, game) for row in rows] == EXAMPLES["toy"].GAME["hands"]
    assert client.get(f"/g/{game['id']}/game.json").json["variant"] == "toy"


def test_the_api_plays_the_toy(client, api, toy):
    game = api.create("toy", players=["Ada", "Bea", "Cy"], options={"blank": False, "rate": 1})
    hand = api.hand(game, {"tricks": [7, 0, 0]})
    assert hand["points"] == [7, 0, 0] and hand["leader"] == 1
    r = client.put(
        f"/api/games/{game['id']}/hands/1", json={"tricks": [0, 0, 7]}, headers={"X-Edit-Key": game["edit_key"]}
    )
    assert r.status_code == 200
    r = client.post(f"/api/games/{game['id']}/hands", json={"tricks": [1, 1]}, headers={"X-Edit-Key": game["edit_key"]})
    assert r.status_code == 400 and "tricks" in r.json["errors"]
    settlement = client.get(f"/api/games/{game['id']}/settlement").json
    # Each player alone, not zero-sum: the sum of their differences to each other player.
    assert settlement["balances"] == ["-7.00", "-7.00", "14.00"]
    exported = client.get(f"/api/games/{game['id']}/export").json
    assert client.post("/api/games/import", json=exported).status_code == 201
    assert (
        client.delete(f"/api/games/{game['id']}/hands/1", headers={"X-Edit-Key": game["edit_key"]}).status_code == 200
    )


SHRINKING = TOY_RULES.replace('NAME = "toy"', 'NAME = "shrinking"').replace(
    "def cards(number, table):\n    return 7", "def cards(number, table):\n    return 8 - number"
)


def test_a_deletion_that_leaves_a_hand_not_fitting_its_new_size_is_refused(client, api, monkeypatch, tmp_path, app):
    register(monkeypatch, tmp_path, app, SHRINKING, TOY_VIEW.replace('NAME = "toy"', 'NAME = "shrinking"'), "shrinking")
    game = api.create("shrinking", players=["Ada", "Bea", "Cy"])
    for hand in ({"tricks": [7, 0, 0]}, {"tricks": [6, 0, 0]}, {"tricks": [5, 0, 0]}):  # 7, 6, 5 cards
        api.hand(game, hand)
    assert [h["leader"] for h in api.get(game)["hands"]] == [1, 2, 0]
    before = dump(app.config["DATABASE"])
    r = client.delete(f"/api/games/{game['id']}/hands/1", headers={"X-Edit-Key": game["edit_key"]})
    assert r.status_code == 400 and "hand" in r.json["errors"], r.json
    assert "does not fit hand 2" in r.json["errors"]["hand"]  # hand 2 would be dealt 7 cards, its tricks add to 6
    assert dump(app.config["DATABASE"]) == before
    # The delete page says so, in the page's language (Danish here), and deletes nothing either.
    assert client.get(game["edit_page"]).status_code == 302  # this phone holds the edit key
    client.get("/lang/da")
    page = client.get(f"/g/{game['id']}/hands/1/delete")
    r = client.post(f"/g/{game['id']}/hands/1/delete", data=fields(page.get_data(as_text=True)))
    assert r.status_code == 400 and "passer ikke til spil 2" in text(r) and "does not fit" not in text(r)
    assert dump(app.config["DATABASE"]) == before


def test_form_data_sends_a_default_on_checkbox_as_a_browser_does():
    html = (
        '<form method="post"><input type="hidden" name="csrf_token" value="t"><input type="checkbox" name="a" '
        'value="y" checked><input type="checkbox" name="b" value="y"><select name="c"><option value="1">'
        '<option value="2" selected></select><textarea name="d">x</textarea><input type="radio" name="e" value="1">'
        '<input type="radio" name="e" value="2" checked><button name="go" value="1">Go</button></form>'
    )
    assert form_data(html) == {"csrf_token": "t", "a": "y", "c": "2", "d": "x", "e": "2"}


def test_a_variant_without_its_test_data_fails_loudly(monkeypatch, tmp_path, app):
    """tests/variants/__init__.py (and so bench/run.py, which reads it) stops on a registered variant it does not
    know, rather than leaving it out of the property tests and the benchmark."""
    import variants

    rules = _module(monkeypatch, tmp_path, "scorekeeper.variants.toy.rules", TOY_RULES)
    monkeypatch.setitem(VARIANTS, "toy", variant(rules))
    with pytest.raises(ImportError, match="tests/variants/toy/__init__.py"):
        variants.load("toy")


def test_the_benchmark_keeps_no_variant_lists_of_its_own():
    import ast

    tree = ast.parse((ROOT / "bench" / "run.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            assert len(keys & set(VARIANTS)) < 2, f"bench/run.py:{node.lineno} keeps a dict of variants"
    assert "from variants import EXAMPLES" in (ROOT / "bench" / "run.py").read_text(encoding="utf-8")


def test_the_walk_through_lists_the_files_the_toy_and_the_guard_say():
    """docs/adding-a-variant.md's table of files: the toy's files and the guard's own files with <name> for the
    variant, and the four the toy leaves to a real variant (its scoring tests, entry point, catalogues, docs section)."""
    spec = importlib.util.spec_from_file_location("variant_guard", ROOT / "tests" / "unit" / "test_variant_guard.py")
    guard = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(guard)
    doc = (ROOT / "docs" / "adding-a-variant.md").read_text(encoding="utf-8")
    table = doc.split("| file | what |", 1)[1].split("\n\n", 1)[0]
    listed = {m for row in table.splitlines()[2:] for m in re.findall(r"`([^`]+)`", row.split("|")[1])}
    wanted = {path.replace("toy", "<name>") for path in TOY_FILES} | set(guard.own_files("<name>"))
    wanted |= {
        "tests/variants/<name>/test_*.py",
        "scorekeeper/variants/<name>/rules.md",
        "scorekeeper/variants/<name>/translations/messages.pot",
    }
    wanted |= {"pyproject.toml"}  # its entry point (tests/integration/test_variant_packages.py)
    assert listed - {"da", "nb", "sv", "messages.po"} == wanted


EIGHT = TOY_RULES.replace('NAME = "toy"', 'NAME = "eight"').replace("PLAYER_COUNTS = (3,)", "PLAYER_COUNTS = (6, 7, 8)")
EIGHT_VIEW = TOY_VIEW.replace('NAME = "toy"', 'NAME = "eight"').replace(
    "    t2 = radio()\n", "    t2 = radio()\n" + "".join(f"    t{s} = radio()\n" for s in range(3, 8))
)
LONG_NAMES = ["Anne-Kathrine", "Christoffer", "Kirsten-Marie", "Bo", "Sønderborg", "Åsa-Lena", "Østergaard", "Ida"]


@pytest.mark.needs_program
@pytest.mark.parametrize("n", [6, 7, 8])
def test_six_to_eight_players_fit_the_phone_and_a4(client, api, monkeypatch, tmp_path, app, n):
    """A table of up to eight: grids for its buttons and totals, and blank and printed sheets within an A4 page."""
    register(monkeypatch, tmp_path, app, EIGHT, EIGHT_VIEW, "eight")
    css = (ROOT / "scorekeeper" / "static" / "app.css").read_text(encoding="utf-8")
    assert f".cols-{n} {{ grid-template-columns: repeat({n}," in css
    assert "6 to 8 players." in text(client.get("/new/eight"))
    names = LONG_NAMES[:n]
    query = "&".join(f"player={p}" for p in names)
    blank = client.get(f"/blank/eight.pdf?{query}&dealer=0")
    assert blank.status_code == 200
    assert int(pdfinfo(blank.data, tmp_path)["Pages"]) == 1 and not words_off_the_page(blank.data, tmp_path)
    game = api.create("eight", players=names, options={"target": 100})
    for k in range(6):
        api.hand(game, {"tricks": [7 if s == k % n else 0 for s in range(n)]})
    protokoll = client.get(f"/g/{game['id']}").get_data(as_text=True)
    assert f'class="totals cols-{n}"' in protokoll and f'class="sheet cols-{n}"' in protokoll
    pdf = client.get(f"/g/{game['id']}/sheet.pdf")
    assert pdf.status_code == 200 and not words_off_the_page(pdf.data, tmp_path)
    assert not words_off_the_page(client.get(f"/g/{game['id']}/blank.pdf").data, tmp_path)


@pytest.fixture
def knock(monkeypatch, tmp_path, app):
    return register(monkeypatch, tmp_path, app, KNOCK_RULES, KNOCK_VIEW, "knock", KNOCK_EXAMPLES)


def test_the_knockout_toy_is_its_own_files_and_nothing_else():
    assert sorted(KNOCK_FILES) == sorted(path.replace("toy", "knock") for path in TOY_FILES)
    assert "knock" not in VARIANTS


def test_the_pages_play_a_knockout_game_the_variant_deals_and_leads(client, knock):
    """Players leave, nobody scores: the variant's state says who is in, its dealer skips them, whoever took most
    tricks leads; every page says its standing in its words, with no points, totals, Σ or chart."""
    gid = start(client, "knock", ["Ada", "Bea", "Cy"])
    post_hand(client, gid, {"t0": "3", "t1": "4", "t2": "0"})  # Ada deals; Cy takes nothing: out
    entry = text(client.get(f"/g/{gid}/hands/new"))
    assert "Deals: Bea Leads: Bea" in entry  # the deal passes on; Bea took most tricks last deal
    assert "Cy" not in entry.split("Leads:", 1)[1]  # no buttons for a player who is out
    r = client.post(f"/api/games/{gid}/hands", json={"tricks": [3, 2, 1]})
    assert r.status_code in (400, 401, 403)
    post_hand(client, gid, {"t0": "4", "t1": "2"})  # six cards; Cy's tricks are not asked
    game = client.get(f"/api/games/{gid}").json
    # The deal passes from Bea to Ada, skipping Cy who is out; Ada took most and leads.
    assert game["next_dealer"] == 0 and game["next_leader"] == 0
    assert [h["dealer"] for h in game["hands"]] == [0, 1] and [h["leader"] for h in game["hands"]] == [1, 1]
    assert game["standing"] == ["still in", "still in", "out after hand 1"] and game["points"] is False
    page = client.get(f"/g/{gid}").get_data(as_text=True)
    protokoll = text(client.get(f"/g/{gid}"))
    assert "out after hand 1" in protokoll and "still in" in protokoll
    assert "Hand 3: Ada deals, Ada leads." in protokoll
    assert "Σ" not in page and 'class="chart"' not in page
    printed = client.get(f"/g/{gid}/print").get_data(as_text=True)
    assert "Standing" in text(client.get(f"/g/{gid}/print")) and "out after hand 1" in printed
    assert 'class="chart"' not in printed and "Σ" not in printed
    blank = client.get(f"/g/{gid}/blank").get_data(as_text=True)
    assert ">Tricks<" in blank and ">points<" not in blank  # the variant's own column, no points or total
    assert '<td class="dealer">Ada</td>' in blank and '<td class="dealer"></td>' in blank  # hand 3, then unknown
    post_hand(client, gid, {"t0": "5", "t1": "0"})  # five cards: Bea out, Ada the last one in
    game = client.get(f"/api/games/{gid}").json
    assert game["finished"] and game["winner"] == 0
    assert game["standing"] == ["still in", "out after hand 3", "out after hand 1"]
    assert "Game over: Ada won." in text(client.get(f"/g/{gid}"))


@pytest.mark.needs_program  # pdftotext reads the PDF back
def test_the_knockout_toy_on_paper_in_csv_in_a_spreadsheet_and_the_api(client, api, knock, tmp_path):
    import openpyxl

    game = api.create("knock", players=["Ada", "Bea", "Cy"], dealer=1)
    for hand in EXAMPLES["knock"].GAME["hands"]:
        api.hand(game, hand)
    answer = api.get(game)
    # Bea dealt first; Cy went out, so the deal goes Bea, Ada (not Cy), then Bea again.
    assert [h["dealer"] for h in answer["hands"]] == [1, 0] and answer["next_dealer"] == 1
    assert answer["next_leader"] == 0 and answer["standing"][2] == "out after hand 1"
    pdf = client.get(f"/g/{game['id']}/sheet.pdf")
    assert pdf.status_code == 200
    pdf_text = " ".join(pdftotext(pdf.data, tmp_path).split())  # "out after hand 1" wraps in its narrow column
    assert "Standing" in pdf_text and "after hand 1" in pdf_text and "Running totals" not in pdf_text
    assert not words_off_the_page(pdf.data, tmp_path)
    for url in (f"/g/{game['id']}/blank.pdf", "/blank/knock.pdf?player=Ada&player=Bea&player=Cy&dealer=0"):
        blank = client.get(url)
        assert blank.status_code == 200 and "Tricks" in pdftotext(blank.data, tmp_path)
        assert "points" not in pdftotext(blank.data, tmp_path) and not words_off_the_page(blank.data, tmp_path)
    blank = client.get("/blank/knock?player=Ada&player=Bea&player=Cy&dealer=2").get_data(as_text=True)
    assert '<td class="dealer">Cy</td>' in blank and ">points<" not in blank
    data = client.get(f"/g/{game['id']}/hands.csv").data.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(data)))
    assert [EXAMPLES["knock"].from_csv(row, game) for row in rows] == EXAMPLES["knock"].GAME["hands"]
    assert not any(key.startswith(("points", "total")) for key in rows[0])
    assert [row["standing Cy"] for row in rows] == ["out after hand 1", "out after hand 1"]
    assert [row["standing Bea"] for row in rows] == ["still in", "still in"]
    book = openpyxl.load_workbook(io.BytesIO(client.get(f"/g/{game['id']}/hands.xlsx").data))
    cells = [[c.value for c in row] for row in book.worksheets[0].iter_rows()]
    assert "standing Cy" in cells[0] and "out after hand 1" in cells[1] and "points Ada" not in cells[0]
    assert client.get(f"/g/{game['id']}/game.json").json["standing"] == answer["standing"]


def test_the_knockout_state_goes_on_from_a_protokoll_as_from_the_first_hand(knock):
    """play_on carries the variant's state from the protokoll it goes on from: the same as replaying every hand."""
    from scorekeeper.core import Setup, game_context, play, play_on

    setup = Setup("knock", ("Ada", "Bea", "Cy"), 1, {})
    hands = [{"tricks": [3, 4, 0]}, {"tricks": [4, 2, 0]}, {"tricks": [0, 5, 0]}]
    whole = play(setup, hands)
    for k in range(len(hands) + 1):
        assert play_on(play(setup, hands[:k]), hands[k:]) == whole
    assert [h.dealer for h in whole.hands] == [1, 0, 1] and whole.finished and whole.winner == 1
    assert whole.state.out_after == (3, None, 1) and [h.state.out_after for h in whole.hands][1] == (None, None, 1)
    ctx = game_context(VARIANTS["knock"], whole, 2)  # a hand's context again, as a page asks it: its own state
    assert ctx.dealer == 0 and ctx.state == whole.hands[1].state and ctx.state.most == 1
