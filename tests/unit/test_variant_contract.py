"""A variant is a plug-in: every registered rules module provides the whole contract (core/contract.py), the core
names no variant outside the registry and the variant's own module, and the core loads no web or storage library."""

import ast
import inspect
import subprocess
import sys
import types
from pathlib import Path

import pytest

import scorekeeper.core as core
from scorekeeper.core import VARIANTS, make_setup, play
from scorekeeper.core.base import Msg, Option
from scorekeeper.core.contract import VariantRules

ROOT = Path(core.__file__).resolve().parents[2]
MEMBERS = [name for name in VariantRules.__dict__ if not name.startswith("_")]
FUNCTIONS = [name for name in MEMBERS if inspect.isfunction(VariantRules.__dict__[name])]
DATA = [name for name in MEMBERS if isinstance(VariantRules.__dict__[name], property)]


def test_the_contract_declares_what_the_core_and_the_shell_rely_on():
    assert set(DATA) == {"NAME", "TITLE", "DESCRIPTION", "PLAYER_COUNTS", "ZERO_SUM", "INPUT_FIELDS", "OPTIONS"}
    assert set(FUNCTIONS) == {
        "check_options",
        "resolve_options",
        "sides",
        "check_hand",
        "hand_points",
        "leader",
        "game_end",
        "sits_out",
        "play",
    }


@pytest.mark.parametrize("name", MEMBERS)
def test_every_member_of_the_contract_says_why_it_is_there(name):
    member = VariantRules.__dict__[name]
    doc = (member.fget if isinstance(member, property) else member).__doc__
    assert doc and doc.strip(), name


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_registered_variant_satisfies_the_contract(variant):
    rules = VARIANTS[variant]
    assert isinstance(rules, VariantRules)
    assert variant == rules.NAME


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", FUNCTIONS)
def test_every_function_takes_the_contract_parameters(variant, name):
    wanted = [p for p in inspect.signature(VariantRules.__dict__[name]).parameters.values() if p.name != "self"]
    given = list(inspect.signature(getattr(VARIANTS[variant], name)).parameters.values())
    assert [p.name for p in given] == [p.name for p in wanted]
    for p, w in zip(given, wanted):
        if w.default is not inspect.Parameter.empty:
            assert p.default == w.default, f"{variant}.{name}({p.name})"


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_describes_itself_with_the_data_of_the_contract(variant):
    rules = VARIANTS[variant]
    assert isinstance(rules.TITLE, Msg) and isinstance(rules.DESCRIPTION, Msg)
    assert rules.PLAYER_COUNTS and all(isinstance(n, int) and n >= 2 for n in rules.PLAYER_COUNTS)
    assert isinstance(rules.ZERO_SUM, bool)
    assert rules.INPUT_FIELDS and all(isinstance(f, str) for f in rules.INPUT_FIELDS)
    assert rules.OPTIONS and all(isinstance(o, Option) for o in rules.OPTIONS.values())
    for name, option in rules.OPTIONS.items():
        assert option.check(option.default) == option.default, name
        assert option.help, name
        if option.low is not None:
            assert option.low <= option.high
    defaults = {name: o.default for name, o in rules.OPTIONS.items()}
    assert rules.check_options(defaults) == {}
    for n in rules.PLAYER_COUNTS:
        assert sorted(s for side in rules.sides(n) for s in side) == list(range(n))  # each seat in one side


@pytest.mark.parametrize("variant", VARIANTS)
def test_play_of_no_hands_is_a_fresh_game(variant):
    rules = VARIANTS[variant]
    setup = make_setup(variant, [f"P{i}" for i in range(max(rules.PLAYER_COUNTS))])
    p = rules.play(setup, [])
    assert p == play(setup, []) and p.hands == () and not p.finished
    assert p.totals == (0,) * len(rules.sides(setup.n))
    assert rules.play(setup, [], start=p) == p


def test_a_module_that_lacks_a_member_is_not_a_variant():
    partial = types.ModuleType("partial")
    for name in MEMBERS:
        setattr(partial, name, getattr(VARIANTS["german"], name))
    assert isinstance(partial, VariantRules)
    del partial.sits_out
    assert not isinstance(partial, VariantRules)


def _string_constants(path: Path) -> set[str]:
    return {
        node.value
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }


@pytest.mark.parametrize(
    "path",
    sorted((ROOT / "scorekeeper" / "core").rglob("*.py")) + sorted((ROOT / "scorekeeper" / "services").rglob("*.py")),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_only_a_variants_own_module_spells_its_name(path):
    """What a variant is (settled per player, played for money at a club …) is data of its module, not an
    `if variant == "danish"` somewhere else."""
    named = set(VARIANTS) & _string_constants(path)
    assert named <= {path.stem}, f"{path.relative_to(ROOT)} names {sorted(named)}"


def test_importing_the_core_loads_no_web_or_storage_library():
    code = (
        "import sys, pkgutil, importlib, scorekeeper.core, scorekeeper.core.contract, scorekeeper.core.club, "
        "scorekeeper.core.settlement\n"
        "for m in pkgutil.iter_modules(scorekeeper.core.variants.__path__): "
        "importlib.import_module('scorekeeper.core.variants.' + m.name)\n"
        "print(' '.join(sorted(n for n in ('flask', 'sqlite3', 'wtforms', 'sqlite_utils', 'flask_babel', "
        "'werkzeug', 'jinja2') if n in sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.split() == []
