"""Nothing but a variant's own files knows the variant: shared code, templates and static files name no variant, no
option or input field only one variant has, no value of such an option, and compare no table size with a number.

A variant's own files (OWN below) are the only places allowed to name it:
scorekeeper/core/variants/<name>.py (and <name>_*.py), scorekeeper/web/variants/<name>.py,
templates/games/hand_<name>.html, scorekeeper/static/variants/<name>.* . What a variant is (played for money, its
table sizes, the columns of its sheet) the shared code asks the variant's contract (core/contract.py,
web/variants/contract.py); docs/adding-a-variant.md lists the files from OWN.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

import pytest

from scorekeeper.core import VARIANTS

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "scorekeeper"


def own_files(name: str) -> list[str]:
    """The files that belong to variant `name` alone (relative to the project's root), as patterns."""
    return [
        f"scorekeeper/core/variants/{name}.py",
        f"scorekeeper/core/variants/{name}_*.py",
        f"scorekeeper/web/variants/{name}.py",
        f"templates/games/hand_{name}.html",
        f"scorekeeper/static/variants/{name}.*",
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


# Words the shared code owns with a meaning of its own, whatever a variant also calls a field so: a deal's `cards`
# (the contract's own: core cards(), HandContext.cards; a drive's score cards) and `bids` (a club's count of its
# members' bids, a tariff's rows of bids).
SHARED_WORDS = {"cards", "bids"}
# What only one variant has: its option names, its input fields, the values of its choice options.
ONLY = {
    k: v
    for k, v in _alone({name: set(rules.OPTIONS) | set(rules.INPUT_FIELDS) for name, rules in VARIANTS.items()}).items()
    if k not in SHARED_WORDS
}
ONLY_VALUES = _alone(
    {
        name: {c for opt in rules.OPTIONS.values() if opt.kind == "choice" for c in opt.choices if isinstance(c, str)}
        for name, rules in VARIANTS.items()
    }
)
NAMES = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(sorted(VARIANTS)) + r")(?![A-Za-z0-9])", re.I)
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

    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if NAMES.search(node.value):
                found.append(f"{where(node)} names {NAMES.search(node.value).group(0)!r}")
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
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            if node.func.attr in ("get", "pop", "setdefault"):
                keyed(node.args[0])
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for op, left, right in zip(node.ops, operands, operands[1:]):
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
    for m in NAMES.finditer(text):
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
        ("scorekeeper", "services"),
        ("scorekeeper", "web"),
        ("templates", "games"),
    ]:
        assert folder in folders
    assert any(p.name == "app.js" for p in SHARED_TEXT) and any(p.name == "new.html" for p in SHARED_TEXT)
    assert owner(ROOT / "scorekeeper/core/variants/danish_house.py") == "danish"
    assert owner(ROOT / "templates/games/hand_danish.html") == "danish"
    assert owner(ROOT / "scorekeeper/web/games/views.py") is None


@pytest.mark.parametrize(
    "source, leak",
    [
        ('if "house" in module.OPTIONS: pass', "house"),
        ('x = raw.get("passed")', "passed"),
        ('x = o.get("count") != "all26"', "all26"),
        ("x = len(players) == 5", "table size"),
        ("x = module.PLAYER_COUNTS == (4, 5)", "table size"),
        ("from scorekeeper.core.variants import danish as danish_rules", "danish"),
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
