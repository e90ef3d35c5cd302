"""Nothing but a variant's own files knows the variant: shared code, templates and static files name no variant, no
option or input field only one variant has, no value of such an option, and compare no table size with a number.

A variant's own files (OWN below) are the only places allowed to name it:
its folder scorekeeper/variants/<name>/ (rules.py, view.py and its other modules), its templates
scorekeeper/variants/<name>/templates/ (hand.html, an option editor's), its scripts and styles
scorekeeper/variants/<name>/static/ . What a variant is (played for money, its table sizes, the columns of its sheet)
the shared code asks the variant's contract (core/contract.py, variants/view_contract.py); docs/adding-a-variant.md
lists the files from OWN.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

import pytest

from scorekeeper.clubs.rules.club import SETTLEMENTS
from scorekeeper.core import VARIANTS
from scorekeeper.core.game import TRUMPS

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "scorekeeper"


def own_files(name: str) -> list[str]:
    """The files that belong to variant `name` alone (relative to the project's root), as patterns."""
    return [
        f"scorekeeper/variants/{name}/*",
        f"scorekeeper/variants/{name}/templates/*",
        f"scorekeeper/variants/{name}/static/*",
    ]


def owner(path: Path) -> str | None:
    """The variant a file belongs to, or None for a shared file."""
    rel = path.relative_to(ROOT)
    for name in VARIANTS:
        if any(rel.match(pattern) for pattern in own_files(name)):
            return name
    return None


def _alone(values_by_variant: dict[str, set[str]]) -> dict[str, str]:
    """Each value only one variant has → that variant."""
    counts = Counter(v for values in values_by_variant.values() for v in values)
    return {v: name for name, values in values_by_variant.items() for v in values if counts[v] == 1}


# Words the shared code owns with a meaning of its own, whatever a variant also calls so: the trumps (no trump is
# "none"), a club's ways of settling up (its "kitty"), the outcomes of a hand the view contract names, a deal's
# `cards` (the contract's own: core cards(), HandContext.cards; a drive's score cards) and `bids` (a club's count
# of its members' bids, a tariff's rows of bids).
SHARED_WORDS = set(TRUMPS) | set(SETTLEMENTS) | {"made", "lost", "cards", "bids"}
# What only one variant has: its option names, its input fields, the values of its choice options.
ONLY = {
    k: v
    for k, v in _alone({name: set(rules.OPTIONS) | set(rules.INPUT_FIELDS) for name, rules in VARIANTS.items()}).items()
    if k not in SHARED_WORDS
}
ONLY_VALUES = {
    k: v
    for k, v in _alone(
        {
            name: {
                c for opt in rules.OPTIONS.values() if opt.kind == "choice" for c in opt.choices if isinstance(c, str)
            }
            for name, rules in VARIANTS.items()
        }
    ).items()
    if k not in SHARED_WORDS
}
# Variant names that are also words every whist table uses (a bid, a solo): shared code says "bid" of Danish and
# Norwegian hands and "solo" of a sol bid, so these names count only where they name the variant (WORD_CONTEXT, and
# in Python a comparison with a variant or a key of the registries); the others count anywhere.
WORD_NAMES = sorted(name for name in VARIANTS if name in ("bid", "solo"))
DISTINCT_NAMES = sorted(name for name in VARIANTS if name not in WORD_NAMES)
NAMES = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(DISTINCT_NAMES) + r")(?![A-Za-z0-9])", re.I)
WORDS_ALT = "|".join(WORD_NAMES) or "(?!)"
WORD_CONTEXT = re.compile(r"(?<![A-Za-z0-9])(?:variants?[-_/.]|hand_)(" + WORDS_ALT + r")(?![A-Za-z0-9])", re.I)
WORD_COMPARED = re.compile(
    r"variant\w*\s*(?:==|!=|\bin\b)\s*[\"']("
    + WORDS_ALT
    + r")[\"']|[\"']("
    + WORDS_ALT
    + r")[\"']\s*(?:==|!=)\s*[\w.]*variant",
    re.I,
)
REGISTRIES = ("VARIANTS", "VIEWS", "EXAMPLES", "RULES")
SIZE_WORDS = ("PLAYER_COUNTS", "n_players", "seats", "players", "sides")


def _docstrings(tree) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                ids.add(id(first.value))
    return ids


def _mentions_size(node) -> bool:
    """An expression about how many sit at the table: len(players), ctx.n_players, rules.PLAYER_COUNTS …"""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id in SIZE_WORDS:
            return True
        if isinstance(sub, ast.Attribute) and sub.attr in SIZE_WORDS:
            return True
    return False


def _mentions(node, word: str, names: tuple[str, ...] = ()) -> bool:
    """An expression that names `word` (any case) in an identifier, or one of `names`: game.variant, VIEWS."""
    for sub in ast.walk(node):
        ident = sub.id if isinstance(sub, ast.Name) else sub.attr if isinstance(sub, ast.Attribute) else None
        if ident is not None and (word in ident.lower() or ident in names):
            return True
    return False


def _is_size_literal(node) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value >= 2
    return isinstance(node, ast.Tuple) and all(_is_size_literal(e) for e in node.elts) and bool(node.elts)


def python_leaks(path: Path) -> list[str]:
    return python_source_leaks(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))


def python_source_leaks(source: str, label: str) -> list[str]:
    tree = ast.parse(source)
    docs = _docstrings(tree)
    found = []

    def where(node) -> str:
        return f"{label}:{getattr(node, 'lineno', '?')}"

    def keyed(node) -> None:
        """A string used as a key or a compared value: options["house"], inp.get("passed"), "house" in OPTIONS."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in ONLY:
            found.append(f"{where(node)} reads {node.value!r} ({ONLY[node.value]}'s)")

    def word_named(node, other) -> None:
        """A variant name that is also a card-table word, where it names the variant: compared with a variant, or a
        key of the registries (VARIANTS["bid"])."""
        if isinstance(node, ast.Constant) and node.value in WORD_NAMES and _mentions(other, "variant", REGISTRIES):
            found.append(f"{where(node)} names the variant {node.value!r}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            named = NAMES.search(node.value) or WORD_CONTEXT.search(node.value)
            if named:
                found.append(f"{where(node)} names {named.group(0)!r}")
        elif isinstance(node, (ast.Name, ast.arg)):
            ident = node.id if isinstance(node, ast.Name) else node.arg
            if NAMES.search(ident.replace("_", " ")):
                found.append(f"{where(node)} names {ident!r}")
        elif isinstance(node, ast.Attribute) and NAMES.search(node.attr.replace("_", " ")):
            found.append(f"{where(node)} names .{node.attr}")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            modules += [f"{node.module}.{a.name}" for a in node.names] if isinstance(node, ast.ImportFrom) else []
            for m in modules:
                if re.search(r"\.variants\.(" + "|".join(VARIANTS) + r")\b", m):
                    found.append(f"{where(node)} imports {m}")
        elif isinstance(node, ast.Subscript):
            keyed(node.slice)
            word_named(node.slice, node.value)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            if node.func.attr in ("get", "pop", "setdefault"):
                keyed(node.args[0])
                word_named(node.args[0], node.func.value)
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for op, left, right in zip(node.ops, operands, operands[1:]):
                if isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)):
                    word_named(left, right)
                    word_named(right, left)
                if isinstance(op, (ast.In, ast.NotIn)):
                    keyed(left)
                if isinstance(op, (ast.Eq, ast.NotEq)):
                    for side in (left, right):
                        if isinstance(side, ast.Constant) and side.value in ONLY_VALUES:
                            found.append(f"{where(side)} compares with {side.value!r} ({ONLY_VALUES[side.value]}'s)")
                ordered = isinstance(op, (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE))
                if ordered and (
                    (_is_size_literal(left) and _mentions_size(right))
                    or (_is_size_literal(right) and _mentions_size(left))
                ):
                    found.append(f"{where(node)} compares a table size with a number")
    return found


QUOTED = re.compile(r"""(==|!=|\bin\b|\[|\.get\()\s*["']([\w.]+)["']|["']([\w.]+)["']\s*(==|!=|\bin\b)""")
SIZE_COMPARED = re.compile(
    r"(PLAYER_COUNTS|players\s*\|\s*length|sides\s*\|\s*length|n_players)\s*(==|!=|<=|>=|<|>)\s*\(?\s*\d"
    r"|\d\s*\)?\s*(==|!=|<=|>=|<|>)\s*(PLAYER_COUNTS|players\s*\|\s*length|sides\s*\|\s*length|n_players)"
)


def text_leaks(path: Path) -> list[str]:
    return text_source_leaks(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))


def text_source_leaks(text: str, rel: str) -> list[str]:
    """Templates, scripts and stylesheets: a variant's name anywhere (comments too), a key only one variant has
    used as a key or compared, a table size compared with a number."""
    found = []
    for pattern in (NAMES, WORD_CONTEXT, WORD_COMPARED):
        for m in pattern.finditer(text):
            found.append(f"{rel}:{text.count(chr(10), 0, m.start()) + 1} names {m.group(0)!r}")
    for m in QUOTED.finditer(text):
        key = m.group(2) or m.group(3)
        if key in ONLY or key in ONLY_VALUES:
            found.append(f"{rel}:{text.count(chr(10), 0, m.start()) + 1} reads {key!r}")
    for m in SIZE_COMPARED.finditer(text):
        found.append(f"{rel}:{text.count(chr(10), 0, m.start()) + 1} compares a table size: {m.group(0)!r}")
    return found


SHARED_PY = sorted(p for p in PACKAGE.rglob("*.py") if owner(p) is None)
SHARED_TEXT = sorted(
    p
    for folder in (ROOT / "templates", PACKAGE / "static")
    for p in folder.rglob("*")
    if p.is_file() and p.suffix in (".html", ".js", ".css", ".txt", ".svg") and owner(p) is None
)


@pytest.mark.parametrize("path", SHARED_PY, ids=lambda p: str(p.relative_to(ROOT)))
def test_shared_code_names_no_variant(path):
    assert python_leaks(path) == []


@pytest.mark.parametrize("path", SHARED_TEXT, ids=lambda p: str(p.relative_to(ROOT)))
def test_shared_templates_and_static_files_name_no_variant(path):
    assert text_leaks(path) == []


def test_the_guard_looks_everywhere_it_should():
    folders = {p.relative_to(ROOT).parts[:2] for p in SHARED_PY + SHARED_TEXT}
    for folder in [
        ("scorekeeper", "core"),
        ("scorekeeper", "games"),
        ("scorekeeper", "clubs"),
        ("scorekeeper", "drives"),
        ("scorekeeper", "server"),
        ("scorekeeper", "web"),
        ("templates", "games"),
    ]:
        assert folder in folders
    assert any(p.name == "app.js" for p in SHARED_TEXT) and any(p.name == "new.html" for p in SHARED_TEXT)
    assert owner(ROOT / "scorekeeper/variants/danish/house.py") == "danish"
    assert owner(ROOT / "scorekeeper/variants/danish/templates/hand.html") == "danish"
    assert owner(ROOT / "scorekeeper/variants/danish/templates/card.html") == "danish"
    assert not (ROOT / "templates" / "variants").exists()  # a variant's templates are its package's
    assert owner(ROOT / "scorekeeper/variants/danish/card.py") == "danish"
    assert owner(ROOT / "scorekeeper/games/pages/hands.py") is None


@pytest.mark.parametrize(
    "source, leak",
    [
        ('if "house" in module.OPTIONS: pass', "house"),
        ('x = raw.get("iron_hand")', "iron_hand"),
        ('x = o.get("count") != "all26"', "all26"),
        ("x = len(players) == 5", "table size"),
        ("x = module.PLAYER_COUNTS == (4, 5)", "table size"),
        ("from scorekeeper.variants import danish as danish_rules", "danish"),
        ('x = VIEWS["danish"].PRESET_LABELS', "danish"),
        ('x = options["house"]', "house"),
    ],
)
def test_the_guard_catches_each_leak_the_issue_found(source, leak):
    assert any(leak in line for line in python_source_leaks(source, "probe.py"))


@pytest.mark.parametrize(
    "text, leak",
    [
        ("{% if module.PLAYER_COUNTS == (4, 5) %}", "table size"),
        ('if (!document.body.classList.contains("variant-danish")) return;', "danish"),
        ('{% if "house" in module.OPTIONS %}', "house"),
    ],
)
def test_the_guard_catches_leaks_in_templates_and_static_files(text, leak):
    assert any(leak in line for line in text_source_leaks(text, "probe.html"))


@pytest.mark.parametrize(
    "source, leak",
    [
        ('if game.variant == "solo": pass', "solo"),
        ('x = "bid" == scored_game.game.variant', "bid"),
        ('x = VIEWS["bid"].HandForm', "bid"),
        ('x = VARIANTS.get("solo")', "solo"),
        ('x = "variant-bid"', "bid"),
        ("from scorekeeper.variants.solo import view", "solo"),
    ],
)
def test_a_variant_named_like_a_card_word_is_caught_where_it_names_the_variant(source, leak):
    assert any(leak in line for line in python_source_leaks(source, "probe.py"))


@pytest.mark.parametrize(
    "source",
    ['x = inp.get("bid")', 'x = inp["bid"] == 7', 'label = _("Bid")', 'css = "ladder solo"', "def bid_result(): pass"],
)
def test_a_card_word_that_names_no_variant_is_no_leak(source):
    assert python_source_leaks(source, "probe.py") == []


@pytest.mark.parametrize(
    "text, leak",
    [
        ('<body class="variant-solo">', "solo"),
        ('{% if game.variant == "bid" %}', "bid"),
        ('{% include "variants/solo/hand.html" %}', "solo"),
        ("url_for('static', filename='variants/bid.css')", "bid"),
    ],
)
def test_a_card_word_naming_the_variant_in_a_template_is_caught(text, leak):
    assert any(leak in line for line in text_source_leaks(text, "probe.html"))


@pytest.mark.parametrize("text", ['<th>{{ _("Bid") }}</th>', ".ladder label.solo { }", "{% if hand.bid == 7 %}"])
def test_a_card_word_in_a_template_is_no_leak(text):
    assert text_source_leaks(text, "probe.html") == []
