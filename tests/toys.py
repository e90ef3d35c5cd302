"""A toy variant package for a test: written into tmp_path as a plug-in's folder (rules.py, view.py, templates/,
maybe examples.py), found through an entry point as an installed one is (core/registry.py), and put into the registries
the app reads for the length of the test (monkeypatch). THROWN is a toy of Israeli whist's shape: each player says
their tricks before the play (bids first), the last may not make them add up to the deal, and a deal thrown in when all
pass counts for no deal of the game and doubles the next."""

from __future__ import annotations

import zlib
from importlib.metadata import EntryPoint

from jinja2 import ChoiceLoader

import scorekeeper.core as core
from scorekeeper.core import registry
from scorekeeper.core.contract import variant
from scorekeeper.variants import views


def register(monkeypatch, tmp_path, app, name: str, files: dict[str, str]):
    """Variant `name` as a package in tmp_path (its folder named after the test's tmp_path, so no two tests share
    a module), registered in the core's and the views' registries and the app's template loader; answers its view."""
    package = f"sk_{name}_{zlib.crc32(str(tmp_path).encode())}"
    for path, text in {"__init__.py": f'"""The {name} toy."""\n', **files}.items():
        target = tmp_path / package / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    found = registry.discover([EntryPoint(name=name, value=package, group=registry.GROUP)])
    assert not found.broken, found.broken
    monkeypatch.setitem(core.VARIANTS, name, variant(found.rules[name]))
    monkeypatch.setitem(core.PACKAGES, name, package)
    view = views.load(name)
    monkeypatch.setitem(views.VIEWS, name, view)
    own = views.template_loader(None)
    monkeypatch.setattr(app, "jinja_loader", ChoiceLoader([app.jinja_loader, own]))
    return view


THROWN_RULES = '''
"""Thrown whist: three players each alone, seven cards; each says the tricks they will take before the play (the last
to say may not make them add up to seven), then takes them: an exact call scores its tricks and 10, a miss the
difference, negative. When all pass the deal is thrown in: it counts for none of the game's `deals` and doubles the
next."""

from typing import NamedTuple

from scorekeeper.core.fields import is_int, require_fields, side_winner
from scorekeeper.core.messages import InputError, Msg
from scorekeeper.core.options import int_option

NAME = "thrown"
TITLE = Msg("Thrown whist")
DESCRIPTION = Msg("Say your tricks; a deal thrown in doubles the next.")
PLAYER_COUNTS = (3,)
BID_FIELDS = ("says",)
INPUT_FIELDS = ("passed", "says", "tricks")
OPTIONS = {"deals": int_option(2, 1, 20, Msg("Deals that count."))}


class State(NamedTuple):
    counted: int  # deals played that count (a thrown-in one does not)
    factor: int  # what the next deal's points are multiplied by


def initial_state(table):
    return State(0, 1)


def fold(state, hand, ctx):
    if hand.input.get("passed"):
        return State(state.counted, state.factor * 2)
    return State(state.counted + 1, 1)


def deals_counted(state, played, table):
    return state.counted if state is not None else played


def cards(number, table):
    return 7


def _list(value, ctx, name, errors):
    if not isinstance(value, list) or len(value) != ctx.n_players or not all(is_int(v) and 0 <= v <= 7 for v in value):
        errors[name] = Msg("one number from 0 to 7 per player")
        return None
    return list(value)


def check_bids(raw, ctx):
    data = require_fields(raw, BID_FIELDS)
    errors = {}
    says = _list(data.get("says"), ctx, "says", errors)
    if says is not None and sum(says) == ctx.cards:
        errors["says"] = Msg("the last to say may not make them add up to %(n)d", n=ctx.cards)
    if errors:
        raise InputError(errors)
    return {"says": says}


def check_hand(raw, ctx):
    data = require_fields(raw, INPUT_FIELDS)
    if data.get("passed"):
        return {"passed": True}
    out = check_bids({"says": data.get("says")}, ctx)
    errors = {}
    tricks = _list(data.get("tricks"), ctx, "tricks", errors)
    if tricks is not None and sum(tricks) != ctx.cards:
        errors["tricks"] = Msg("must add up to %(n)d", n=ctx.cards)
    if errors:
        raise InputError(errors)
    return {**out, "tricks": tricks}


def hand_points(inp, ctx):
    if inp.get("passed"):
        return (0,) * ctx.n_players
    factor = ctx.state.factor
    return tuple(factor * (t + 10 if s == t else -abs(s - t)) for s, t in zip(inp["says"], inp["tricks"]))


def game_end(hand, ctx):
    after = fold(ctx.state, hand, ctx)
    done = after.counted >= ctx.options["deals"]
    return done, side_winner(hand.totals) if done else None
'''

THROWN_VIEW = '''
"""Thrown whist on the pages: each player's call and tricks; a deal thrown in, in one tap, in the variant's words."""

from wtforms.fields import SelectChoice

from scorekeeper.games.forms import HandForm as BaseHandForm
from scorekeeper.games.forms import radio
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.inputs import number_or_raw

NAME = "thrown"
FIELD_LABELS = {"says": "Calls", "tricks": "Tricks", "passed": "Thrown in"}


class HandForm(BaseHandForm):
    s0 = radio()
    s1 = radio()
    s2 = radio()
    t0 = radio()
    t1 = radio()
    t2 = radio()

    def submitted(self, formdata, ctx):
        if formdata.get("passed"):
            return {"passed": True}
        return self.to_input(ctx)

    def asks_first(self, raw, before, formdata):
        return bool(raw.get("passed")) and not before.get("passed") and formdata.get("passed") != "confirmed"

    @staticmethod
    def played(inp):
        return not inp.get("passed")

    def to_input(self, ctx):
        says = [number_or_raw(self[f"s{s}"].data) for s in range(3)]
        tricks = [number_or_raw(self[f"t{s}"].data) for s in range(3)]
        return {"says": says, "tricks": None if all(t is None for t in tricks) else tricks}

    @staticmethod
    def data_from(inp, ctx):
        if inp.get("passed"):
            return {}
        data = {f"s{s}": v for s, v in enumerate(inp["says"])}
        return data | {f"t{s}": v for s, v in enumerate(inp.get("tricks") or [])}


def buttons(form, ctx, side_names):
    for s in range(3):
        for kind in "st":
            form[f"{kind}{s}"].choices = [SelectChoice(str(t), str(t)) for t in range(8)]
    return {"seats": [(f"s{s}", f"t{s}", name) for s, name in enumerate(ctx.players)]}


def hand_words(inp, ctx):
    if inp.get("passed"):
        return _("Thrown in")
    return "calls " + "–".join(map(str, inp["says"])) + ", tricks " + "–".join(map(str, inp["tricks"]))


def blank_columns(table):
    return [("says", "Calls")]


def hand_fields(hand, ctx):
    return {"factor": ctx.state.factor}


def passed_words(ctx):
    return {
        "button": "Thrown in: hand %d counts double" % (ctx.number + 1),
        "ask": "Throw this hand in?",
        "replace": "Throw in hand %(n)d (%(hand)s)?",
        "yes": "Yes, it was thrown in",
    }
'''

THROWN_HAND = """{% extends "games/_hand_form.html" %}
{% from "_macros.html" import buttons %}
{% block fields %}
{% include "games/_passed_out.html" %}
{% for says, tricks, player in seats %}<h2 class="q">{{ player }}</h2>
{{ buttons(form[says], cols=8) }}{% if not bidding %}{{ buttons(form[tricks], cols=8) }}{% endif %}{% endfor %}
{% endblock %}
"""

THROWN_EXAMPLES = '''
"""Thrown whist's data for the conformance kit (scorekeeper/testing/kit.py)."""

PLAYERS = ["Ada", "Bea", "Cy"]
GAME = {"options": {"deals": 3}, "hands": [{"says": [3, 2, 1], "tricks": [3, 2, 2]}, {"passed": True}]}
FORM_HANDS = [{"s0": "3", "s1": "2", "s2": "1", "t0": "3", "t1": "2", "t2": "2"}]
FINISHED = {"options": {"deals": 1}, "hands": [{"passed": True}, {"says": [1, 1, 1], "tricks": [1, 1, 5]}]}
'''

THROWN_DOCS = """### thrown — Thrown whist
Three players each say their tricks, then take them. A deal thrown in counts for none of the `deals` (2).
"""

THROWN_FILES = {
    "rules.py": THROWN_RULES,
    "view.py": THROWN_VIEW,
    "templates/hand.html": THROWN_HAND,
    "examples.py": THROWN_EXAMPLES,
    "rules.md": THROWN_DOCS,
}
