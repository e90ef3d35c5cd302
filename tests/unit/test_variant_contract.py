"""A variant is a plug-in: every registered rules module provides what the contract requires (core/contract.py:
VariantModule), core/defaults.py is a whole implementation of the rest (VariantDefaults), a module's own members
take the contract's parameters, `VARIANTS[name].member` answers every member, the core names no variant outside the
registry and the variant's own module, and the core loads no web or storage library."""

import ast
import importlib.util
import inspect
import subprocess
import sys
import types
from pathlib import Path

import pytest

import scorekeeper.core as core
from scorekeeper.core import VARIANTS, make_setup, play, table_context
from scorekeeper.core import defaults as default_rules
from scorekeeper.core.contract import MEMBERS, OPTIONAL, REQUIRED, VariantDefaults, VariantModule, VariantRules, variant
from scorekeeper.core.messages import Msg
from scorekeeper.core.options import KINDS, Option

ROOT = Path(core.__file__).resolve().parents[2]
PROTOCOL = {**vars(VariantModule), **vars(VariantDefaults)}
FUNCTIONS = [name for name in MEMBERS if inspect.isfunction(PROTOCOL[name])]
DATA = [name for name in MEMBERS if isinstance(PROTOCOL[name], property)]


def test_the_contract_requires_little_and_defaults_the_rest():
    assert set(REQUIRED) == {
        "NAME",
        "TITLE",
        "DESCRIPTION",
        "PLAYER_COUNTS",
        "INPUT_FIELDS",
        "OPTIONS",
        "check_hand",
        "hand_points",
    }
    assert set(OPTIONAL) == {
        "ORDER",
        "ZERO_SUM",
        "POINTS",
        "standing",
        "FOR_MONEY",
        "check_options",
        "resolve_options",
        "sides",
        "deals",
        "deals_counted",
        "initial_state",
        "fold",
        "dealer",
        "next_leader",
        "cards",
        "sits_out",
        "fixed_trump",
        "leader",
        "trump",
        "game_end",
        "games_to_win",
        "match_points",
        "bid_result",
        "BID_FIELDS",
        "check_bids",
    }
    assert set(DATA) | set(FUNCTIONS) == set(MEMBERS)


@pytest.mark.parametrize("name", MEMBERS)
def test_every_member_of_the_contract_says_why_it_is_there(name):
    member = PROTOCOL[name]
    doc = (member.fget if isinstance(member, property) else member).__doc__
    assert doc and doc.strip(), name
    if name in OPTIONAL:
        assert "Default" in doc, f"{name}: say the default"


@pytest.mark.parametrize("name", OPTIONAL)
def test_the_defaults_are_a_whole_implementation_of_the_optional_members(name):
    assert hasattr(default_rules, name)
    if name in FUNCTIONS:
        wanted = [p.name for p in inspect.signature(PROTOCOL[name]).parameters.values() if p.name != "self"]
        assert list(inspect.signature(getattr(default_rules, name)).parameters) == wanted


@pytest.mark.parametrize("variant_name", VARIANTS)
def test_every_registered_variant_satisfies_the_contract(variant_name):
    rules = VARIANTS[variant_name]
    assert isinstance(rules.module, VariantModule)
    assert isinstance(rules, VariantRules) or all(hasattr(rules, name) for name in MEMBERS)
    assert variant_name == rules.NAME
    for name in MEMBERS:
        assert getattr(rules, name) is getattr(rules.module, name, getattr(default_rules, name, None)), name


OWN = [(v, name) for v, rules in VARIANTS.items() for name in FUNCTIONS if hasattr(rules.module, name)]


@pytest.mark.parametrize("variant_name, name", OWN, ids=[f"{v}.{n}" for v, n in OWN])
def test_every_function_a_module_defines_takes_the_contract_parameters(variant_name, name):
    module = VARIANTS[variant_name].module
    wanted = [p for p in inspect.signature(PROTOCOL[name]).parameters.values() if p.name != "self"]
    given = list(inspect.signature(getattr(module, name)).parameters.values())
    assert [p.name for p in given] == [p.name for p in wanted]


@pytest.mark.parametrize("variant_name", VARIANTS)
def test_every_variant_describes_itself_with_the_data_of_the_contract(variant_name):
    rules = VARIANTS[variant_name]
    assert isinstance(rules.TITLE, Msg) and isinstance(rules.DESCRIPTION, Msg)
    assert rules.PLAYER_COUNTS and all(isinstance(n, int) and n >= 2 for n in rules.PLAYER_COUNTS)
    assert isinstance(rules.ZERO_SUM, bool) and isinstance(rules.FOR_MONEY, bool)
    assert rules.INPUT_FIELDS and all(isinstance(f, str) for f in rules.INPUT_FIELDS)
    assert rules.OPTIONS and all(isinstance(o, Option) for o in rules.OPTIONS.values())
    for name, option in rules.OPTIONS.items():
        assert option.kind in KINDS, name
        assert option.check(option.default) == option.default, name
        assert option.help, name
        if option.low is not None:
            assert option.low <= option.high
    for n in rules.PLAYER_COUNTS:
        setup = make_setup(variant_name, [f"P{i}" for i in range(n)])
        table = table_context(setup)
        assert rules.check_options(table) == {}
        sides = rules.sides(table)
        assert sorted(s for side in sides for s in side) == list(range(n))  # each seat in one side
        assert len({len(side) for side in sides}) == 1, "sides of equal size: settlement_points relies on it"


@pytest.mark.parametrize("variant_name", VARIANTS)
def test_play_of_no_hands_is_a_fresh_game(variant_name):
    rules = VARIANTS[variant_name]
    setup = make_setup(variant_name, [f"P{i}" for i in range(max(rules.PLAYER_COUNTS))])
    p = play(setup, [])
    assert p.hands == () and not p.finished
    assert p.totals == (0,) * len(rules.sides(table_context(setup)))
    assert core.play_on(p, []) == p
    assert p.next_cards == rules.cards(1, table_context(setup))


def test_a_module_that_lacks_a_required_member_is_not_a_variant():
    partial = types.ModuleType("partial")
    for name in REQUIRED:
        setattr(partial, name, getattr(VARIANTS["german"].module, name))
    assert isinstance(partial, VariantModule)
    rules = variant(partial)
    assert rules.sides is default_rules.sides and rules.ZERO_SUM is False  # the rest from the defaults
    del partial.hand_points
    assert not isinstance(partial, VariantModule)


def test_a_member_added_to_a_module_replaces_its_default():
    partial = types.ModuleType("partial")
    for name in REQUIRED:
        setattr(partial, name, getattr(VARIANTS["german"].module, name))
    partial.cards = lambda number, table: 7
    rules = variant(partial)
    assert rules.cards(1, None) == 7 and rules.sits_out is default_rules.sits_out


def _guard():
    spec = importlib.util.spec_from_file_location("variant_guard", ROOT / "tests" / "unit" / "test_variant_guard.py")
    guard = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(guard)
    return guard


GUARD = _guard()


def _variant_names(path: Path) -> set[str]:
    """The variants a module spells: a name anywhere in a string; a name that is also a card-table word (a bid, a
    solo) only where it names the variant (the guard's rule: compared with a variant, a key of the registries)."""
    source = path.read_text(encoding="utf-8")
    constants = {
        node.value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    words = {
        name
        for name in GUARD.WORD_NAMES
        if any(f"names the variant {name!r}" in leak for leak in GUARD.python_source_leaks(source, path.name))
    }
    return (set(GUARD.DISTINCT_NAMES) & constants) | words


@pytest.mark.parametrize(
    "path",
    sorted((ROOT / "scorekeeper" / "core").rglob("*.py")) + sorted((ROOT / "scorekeeper" / "services").rglob("*.py")),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_only_a_variants_own_module_spells_its_name(path):
    """What a variant is (settled per player, played for money at a club …) is data of its module, not an
    `if variant == "danish"` somewhere else."""
    named = _variant_names(path)
    assert named <= {path.stem}, f"{path.relative_to(ROOT)} names {sorted(named)}"


@pytest.mark.needs_program
def test_importing_the_core_loads_no_web_or_storage_library():
    code = (
        "import sys, pkgutil, importlib, scorekeeper.core, scorekeeper.core.contract, scorekeeper.clubs.rules.club, "
        "scorekeeper.core.settlement\n"
        "import scorekeeper.variants, scorekeeper.variants.danish.house, scorekeeper.drives.rules\n"
        "for m in pkgutil.iter_modules(scorekeeper.variants.__path__): "
        "m.ispkg and importlib.import_module('scorekeeper.variants.' + m.name + '.rules')\n"
        "print(' '.join(sorted(n for n in ('flask', 'sqlite3', 'wtforms', 'sqlite_utils', 'flask_babel', "
        "'werkzeug', 'jinja2') if n in sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.split() == []


@pytest.mark.parametrize(
    "counts, words",
    [((4,), "4"), ((4, 5), "4 or 5"), ((3, 4, 5, 6, 7), "3 to 7"), ((2, 4, 6), "2, 4 or 6"), ((3, 7), "3 or 7")],
)
def test_table_sizes_in_words_say_a_range_as_a_range(counts, words):
    assert core.player_counts(counts) == words


def test_a_name_that_is_a_card_word_counts_where_it_names_the_variant(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text('x = inp["bid"]\nif setup.variant == "solo":\n    y = "danish"\n', encoding="utf-8")
    assert _variant_names(probe) == {"solo", "danish"} & set(VARIANTS)


@pytest.mark.parametrize("variant_name", VARIANTS)
def test_a_variant_whose_bids_come_first_checks_them_itself(variant_name):
    """Bids entered before the deal is played (a deal in progress) are fields of its hands, checked by its own
    check_bids: the default refuses them."""
    rules = VARIANTS[variant_name]
    assert set(rules.BID_FIELDS) <= set(rules.INPUT_FIELDS)
    if rules.BID_FIELDS:
        assert "check_bids" in rules.own
    else:
        setup = make_setup(variant_name, [f"P{i}" for i in range(min(rules.PLAYER_COUNTS))])
        with pytest.raises(core.InputError):
            rules.check_bids({}, core.hand_context(rules, table_context(setup), 1))


@pytest.mark.parametrize("variant_name", [name for name, rules in VARIANTS.items() if rules.BID_FIELDS])
def test_bids_entered_first_and_the_rest_after_score_as_the_hand_entered_whole(variant_name):
    """Each played hand of the variant's example game, split as a table enters it: its BID_FIELDS through check_bids
    (kept as entered), then the rest; the hand checked from the two is the hand checked whole. A hand with a field
    that is no bid (a passed-out deal, the tricks) is refused by check_bids, naming that field."""
    from variants import EXAMPLES

    example = EXAMPLES[variant_name].GAME
    players = example.get("players") or EXAMPLES[variant_name].PLAYERS
    assert split_as_entered(VARIANTS[variant_name], make_setup(variant_name, players, 0, example["options"]), example)


def split_as_entered(rules, setup, example) -> int:
    """Each hand of `example` split into its bids and the rest, checked in the hand's own context (its state too);
    answers how many played hands were split."""
    protokoll = play(setup, example["hands"])
    split = 0
    for number, raw in enumerate(example["hands"], 1):
        ctx = core.game_context(rules, protokoll, number)  # the context it was scored in, the variant's state too
        whole = rules.check_hand(raw, ctx)
        bids = {k: v for k, v in raw.items() if k in rules.BID_FIELDS}
        rest = {k: v for k, v in raw.items() if k not in rules.BID_FIELDS}
        if bids and rest and "passed" not in raw:  # a played hand: its bids, then the rest
            kept = rules.check_bids(bids, ctx)
            assert set(kept) <= set(rules.BID_FIELDS)
            assert rules.check_hand({**kept, **rest}, ctx) == whole
            assert rules.hand_points({**kept, **rest}, ctx) == protokoll.hands[number - 1].points
            assert isinstance(rules.leader(kept, ctx), int)
            split += 1
        with pytest.raises(core.InputError) as refused:
            rules.check_bids(raw, ctx)
        assert set(refused.value.errors) & (set(raw) - set(rules.BID_FIELDS))
    assert split, "the example game has no hand whose bids come first"
    return split


def test_the_split_is_checked_in_each_hands_own_context(tmp_path, monkeypatch):
    """A variant whose points depend on its state (a deal thrown in doubles the next: tests/toys.py) splits as its
    hands score: the hand's context is the one it was scored in, not one without the state (issue 46)."""
    from importlib.metadata import EntryPoint

    from toys import THROWN_RULES

    from scorekeeper.core import registry

    (tmp_path / "sk_thrown_rules").mkdir()
    (tmp_path / "sk_thrown_rules" / "__init__.py").write_text("")
    (tmp_path / "sk_thrown_rules" / "rules.py").write_text(THROWN_RULES)
    monkeypatch.syspath_prepend(str(tmp_path))
    found = registry.discover([EntryPoint(name="thrown", value="sk_thrown_rules", group=registry.GROUP)])
    rules = variant(found.rules["thrown"])
    monkeypatch.setitem(VARIANTS, "thrown", rules)
    example = {"hands": [{"passed": True}, {"says": [3, 2, 1], "tricks": [3, 2, 2]}]}
    assert split_as_entered(rules, make_setup("thrown", ["Ada", "Bea", "Cy"], 0, {}), example) == 1


def test_a_member_of_the_contract_is_looked_up_once_and_any_other_name_each_time():
    """Issue 47: a hand asks the registry's entry for some fifteen members; each is found once (the module's own, else
    the default) and then kept as a plain attribute. A name outside the contract (a module's own helper) is looked up
    in the module each time, so a module's later change of it is seen."""
    module = types.ModuleType("scorekeeper.variants.kept_members_probe")
    module.helper = 1
    entry = variant(module)
    assert "leader" not in vars(entry)
    assert entry.leader is default_rules.leader
    assert vars(entry)["leader"] is default_rules.leader
    assert entry.helper == 1
    module.helper = 2
    assert entry.helper == 2 and "helper" not in vars(entry)
    with pytest.raises(AttributeError):
        entry.no_such_name  # noqa: B018
