"""A variant is a Python package found by an entry point (group `scorekeeper.variants`), as pytest and Datasette find
their plug-ins: the nine built-in ones are registered so in pyproject.toml, the registry is what is installed, in menu
order, and a plug-in that does not load is reported with its name and error and left out instead of taking the app
down. A package holds its rules, view, templates, static files and catalogues: the app's Jinja loader, its static
routes and Flask-Babel look in each package (tested here in-process; test_variant_plugin.py installs a real one with
pip in a venv of its own)."""

from __future__ import annotations

import logging
import re
import sys
import tomllib
from importlib.metadata import EntryPoint

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

import scorekeeper.core as core
from helpers import ROOT
from scorekeeper import create_app
from scorekeeper.core import registry
from scorekeeper.core.contract import variant
from scorekeeper.variants import views
from scorekeeper.variants.view_contract import View

BUILT_IN = sorted(p.parent.name for p in (ROOT / "scorekeeper" / "variants").glob("*/rules.py"))
TOY_RULES = '''
"""A toy: three players each alone, seven cards, a trick is a point."""

from scorekeeper.core.messages import InputError, Msg
from scorekeeper.core.options import int_option

NAME = "{name}"
TITLE = Msg("Pocket whist")
DESCRIPTION = Msg("Three players alone, seven cards each.")
PLAYER_COUNTS = (3,)
INPUT_FIELDS = ("tricks",)
OPTIONS = {{"target": int_option(20, 1, 100, Msg("Points that win."))}}


def cards(number, table):
    return 7


def check_hand(raw, ctx):
    tricks = raw.get("tricks") if isinstance(raw, dict) else None
    if not isinstance(tricks, list) or len(tricks) != 3 or sum(tricks) != 7:
        raise InputError({{"tricks": Msg("must add up to %(n)d", n=7)}})
    return {{"tricks": list(tricks)}}


def hand_points(inp, ctx):
    return tuple(inp["tricks"])
'''
TOY_VIEW = '''
"""The toy on the pages."""

from wtforms.fields import SelectChoice

from scorekeeper.games.forms import HandForm as BaseHandForm
from scorekeeper.games.forms import radio
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.inputs import number_or_raw

NAME = "{name}"
STYLESHEET = "variants/{name}/pocket.css"


class HandForm(BaseHandForm):
    t0 = radio()
    t1 = radio()
    t2 = radio()

    def to_input(self, ctx):
        return {{"tricks": [number_or_raw(self[f"t{{s}}"].data) for s in range(3)]}}

    @staticmethod
    def data_from(inp, ctx):
        return {{f"t{{s}}": t for s, t in enumerate(inp["tricks"])}}


def buttons(form, ctx, side_names):
    for s in range(3):
        form[f"t{{s}}"].choices = [SelectChoice(str(t), str(t)) for t in range(8)]
    return {{"seats": [(f"t{{s}}", name) for s, name in enumerate(ctx.players)]}}


def hand_words(inp, ctx):
    return _("Pocket tricks %(t)s", t="–".join(map(str, inp["tricks"])))


def blank_columns(table):
    return [("cards", _("Cards"))]
'''
TOY_HAND = """{% extends "games/_hand_form.html" %}
{% from "_macros.html" import buttons %}
{% block fields %}<p class="pocket">{{ _("Seven cards each, from the pocket") }}</p>
{% for name, player in seats %}<h2 class="q">{{ player }}</h2>{{ buttons(form[name], cols=8) }}{% endfor %}
{% endblock %}
"""


@pytest.fixture
def fresh_modules():
    """The packages a test imports from its tmp_path (sk_…) are gone after it; the app's own modules stay."""
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:
        if name.startswith("sk_"):
            del sys.modules[name]


def write_package(root, package: str, files: dict[str, str | bytes]) -> None:
    for path, content in files.items():
        target = root / package / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")


def entry(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=registry.GROUP)


def toy_files(name: str) -> dict[str, str]:
    return {
        "__init__.py": '"""A toy variant package."""\n',
        "rules.py": TOY_RULES.format(name=name),
        "view.py": TOY_VIEW.format(name=name),
    }


# ---------------------------------------------------------------- the nine, registered as a plug-in is


def test_every_built_in_variant_is_registered_by_an_entry_point_to_its_package():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    table = project["entry-points"][registry.GROUP]
    assert table == {name: f"scorekeeper.variants.{name}" for name in BUILT_IN}
    installed = {e.name: e.value for e in registry.registered()}
    assert {name: installed.get(name) for name in BUILT_IN} == table, "run `pip install -e .` to register them"
    assert set(BUILT_IN) <= set(core.VARIANTS) and not core.BROKEN
    assert {name: core.PACKAGES[name] for name in BUILT_IN} == table


def test_the_registry_is_in_menu_order():
    order = [(rules.ORDER, rules.NAME) for rules in core.VARIANTS.values()]
    assert order == sorted(order) and len(order) >= 9
    assert list(views.VIEWS) == list(core.VARIANTS)


def test_a_broken_plug_in_is_reported_by_name_and_left_out(tmp_path, monkeypatch, fresh_modules, caplog):
    monkeypatch.syspath_prepend(str(tmp_path))
    write_package(tmp_path, "sk_good", toy_files("good"))
    write_package(tmp_path, "sk_boom", {"__init__.py": "raise RuntimeError('the plug-in fell over')\n"})
    write_package(tmp_path, "sk_short", {"__init__.py": "", "rules.py": 'NAME = "short"\nTITLE = "Short"\n'})
    write_package(tmp_path, "sk_misnamed", toy_files("other"))
    write_package(tmp_path, "sk_norules", {"__init__.py": ""})
    write_package(tmp_path, "sk_twice", toy_files("twice"))
    (tmp_path / "sk_module.py").write_text("NAME = 'module'\n")
    entries = [
        entry("good", "sk_good"),
        entry("boom", "sk_boom"),
        entry("short", "sk_short"),
        entry("misnamed", "sk_misnamed"),
        entry("norules", "sk_norules"),
        entry("missing", "sk_not_installed"),
        entry("module", "sk_module"),
        entry("twice", "sk_twice"),
        entry("twice", "sk_good"),
    ]
    with caplog.at_level(logging.ERROR, logger="scorekeeper.variants"):
        found = registry.discover(entries)
    assert list(found.rules) == ["good"] and found.packages == {"good": "sk_good"}
    broken = found.broken
    assert set(broken) == {"boom", "short", "misnamed", "norules", "missing", "module", "twice"}
    assert broken["boom"] == "RuntimeError: the plug-in fell over"
    assert "lacks" in broken["short"] and "hand_points" in broken["short"] and "core/contract.py" in broken["short"]
    assert "NAME = 'other'" in broken["misnamed"] and "'misnamed'" in broken["misnamed"]
    assert "has no rules.py" in broken["norules"]
    assert "ModuleNotFoundError" in broken["missing"] and "sk_not_installed" in broken["missing"]
    assert "not a package" in broken["module"]
    assert "registered twice" in broken["twice"]
    logged = [r.getMessage() for r in caplog.records]
    assert any("'boom' is left out: RuntimeError: the plug-in fell over" in line for line in logged), logged
    assert len(logged) == len(broken)


def test_a_variant_whose_view_does_not_load_is_left_out_of_both_registries(
    tmp_path, monkeypatch, fresh_modules, caplog
):
    monkeypatch.syspath_prepend(str(tmp_path))
    files = toy_files("halfway")
    files["view.py"] = "import scorekeeper.nowhere\n"
    write_package(tmp_path, "sk_halfway", files)
    found = registry.discover([entry("halfway", "sk_halfway")])
    monkeypatch.setitem(core.VARIANTS, "halfway", variant(found.rules["halfway"]))
    monkeypatch.setitem(core.PACKAGES, "halfway", "sk_halfway")
    monkeypatch.setitem(core.BROKEN, "halfway", "")  # taken away again after the test
    with caplog.at_level(logging.ERROR, logger="scorekeeper.variants"):
        loaded = views._load_all()
    assert "halfway" not in loaded and "halfway" not in core.VARIANTS and "halfway" not in core.PACKAGES
    assert core.BROKEN["halfway"] == "ModuleNotFoundError: No module named 'scorekeeper.nowhere'"
    assert list(loaded) == list(core.VARIANTS)  # every other variant still loads
    assert "'halfway' is left out" in caplog.text


def test_the_app_starts_and_serves_with_a_broken_plug_in_left_out(client, monkeypatch):
    monkeypatch.setitem(core.BROKEN, "boom", "RuntimeError: the plug-in fell over")
    assert client.get("/new").status_code == 200 and "boom" not in client.get("/new").get_data(as_text=True)


# ---------------------------------------------------------------- a package's templates, static files and words


def compiled(language: str, words: dict[str, str]) -> bytes:
    import io

    catalog = Catalog(locale=language)
    for msgid, msgstr in words.items():
        catalog.add(msgid, msgstr)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


@pytest.fixture
def pocket(tmp_path, monkeypatch, fresh_modules):
    """A variant package outside scorekeeper/ with its own templates/, static/ and translations/, registered as its
    entry point would register it, and an app made after it."""
    monkeypatch.syspath_prepend(str(tmp_path))
    files: dict[str, str | bytes] = {
        **toy_files("pocket"),
        "templates/hand.html": TOY_HAND,
        "static/pocket.css": ".pocket { font-weight: bold }\n",
        "translations/da/LC_MESSAGES/messages.mo": compiled(
            "da",
            {
                "Pocket whist": "Lommewhist",
                "Seven cards each, from the pocket": "Syv kort hver, fra lommen",
                "Pocket tricks %(t)s": "Lommestik %(t)s",
            },
        ),
    }
    write_package(tmp_path, "sk_pocket", files)
    found = registry.discover([entry("pocket", "sk_pocket")])
    monkeypatch.setitem(core.VARIANTS, "pocket", variant(found.rules["pocket"]))
    monkeypatch.setitem(core.PACKAGES, "pocket", "sk_pocket")
    monkeypatch.setitem(views.VIEWS, "pocket", views.load("pocket"))
    app = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "pocket.sqlite"), "SECRET_KEY": "t", "GC_FREEZE": False}
    )
    return app


def text(r) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r.get_data(as_text=True)))


def test_a_package_brings_its_hand_page_its_stylesheet_and_its_words(pocket):
    assert isinstance(views.VIEWS["pocket"], View)
    assert views.own_folders("templates")["pocket"].parent.name == "sk_pocket"
    client = pocket.test_client()
    r = client.post("/api/games", json={"variant": "pocket", "players": ["Ada", "Bea", "Cy"]})
    assert r.status_code == 201, r.json
    game = r.json
    client.get(game["links"]["page"] + "/k/" + game["edit_key"])
    page = client.get(f"/g/{game['id']}/hands/new")
    assert page.status_code == 200 and "Seven cards each, from the pocket" in text(page)
    assert "/static/variants/pocket/pocket.css" in page.get_data(as_text=True)
    css = client.get("/static/variants/pocket/pocket.css")
    assert css.status_code == 200 and b".pocket" in css.data
    css.close()
    danish = client.get(f"/g/{game['id']}/hands/new?lang=da")
    assert "Syv kort hver, fra lommen" in text(danish)
    assert "Lommewhist" in text(client.get("/new?lang=da"))
    assert "Gem" in text(danish)  # the app's own words still in Danish beside the package's
    hand = client.post(
        f"/api/games/{game['id']}/hands", json={"tricks": [3, 4, 0]}, headers={"X-Edit-Key": game["edit_key"]}
    )
    assert hand.status_code == 201
    assert "Lommestik 3–4–0" in text(client.get(f"/g/{game['id']}?lang=da"))
    sw = client.get("/sw.js").get_data(as_text=True)
    assert "/static/variants/pocket/pocket.css" in sw  # kept offline too


def test_the_packages_catalogues_are_read_before_the_apps(pocket):
    folders = pocket.config["BABEL_TRANSLATION_DIRECTORIES"].split(";")
    assert folders[-1] == "translations" and any(f.endswith("sk_pocket/translations") for f in folders[:-1])


@pytest.mark.needs_program  # a fresh interpreter, to import in that order
def test_a_rules_module_imported_before_the_core_is_registered_all_the_same():
    """A variant's rules import the core; the registry is read when first looked at, so a program that imports one
    before the core finds it whole (a plug-in's own tests did, and its variant was left out as half-imported)."""
    import subprocess

    code = (
        "import scorekeeper.variants.danish.rules, scorekeeper.core as core\n"
        "print(sorted(core.VARIANTS) == sorted(core.PACKAGES), 'danish' in core.VARIANTS, dict(core.BROKEN))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert done.stdout.split() == ["True", "True", "{}"]
