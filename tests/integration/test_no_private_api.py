"""Libraries as their authors mean them (issue 35): no module of the package imports a private module or name of a
third-party package (one whose name starts with `_`), reaches a name-mangled `_Class__name` attribute (in code or as
a string for getattr), or a private attribute of a third-party module or of an object it made at module level."""

import ast
import re
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "scorekeeper"
MODULES = {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(PACKAGE.rglob("*.py"))}
MANGLED = re.compile(r"^_[A-Za-z][A-Za-z0-9]*__[A-Za-z0-9]\w*$")

# Private-looking names that their library documents as its public API, and where.
DOCUMENTED = {
    "_get_current_object": "Flask's docs, 'Notes On Proxies': current_app._get_current_object() is the app itself",
}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _third_party(module: str) -> bool:
    top = module.split(".")[0]
    return bool(top) and top != "scorekeeper" and top != "__future__" and top not in sys.stdlib_module_names


def findings(tree: ast.AST, where: str = "") -> list[str]:
    """Every use of a dependency's private API in one module's syntax tree, as `where:line what`."""
    found = []
    outside = {}  # a name bound to a third-party module, or to what one made at module level: its source
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _third_party(alias.name):
                    outside[alias.asname or alias.name.split(".")[0]] = alias.name
                    if any(_private(part) for part in alias.name.split(".")):
                        found.append(f"{where}:{node.lineno} imports {alias.name}")
        elif isinstance(node, ast.ImportFrom) and not node.level and _third_party(node.module or ""):
            if any(_private(part) for part in node.module.split(".")):
                found.append(f"{where}:{node.lineno} imports from {node.module}")
            for alias in node.names:
                outside[alias.asname or alias.name] = node.module
                if _private(alias.name):
                    found.append(f"{where}:{node.lineno} imports {node.module}.{alias.name}")
    for node in getattr(tree, "body", []):  # module-level objects a library made: limiter = Limiter(...)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            func = node.value.func
            while isinstance(func, ast.Attribute):
                func = func.value
            if isinstance(func, ast.Name) and func.id in outside:
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        outside[target.id] = outside[func.id]
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            if MANGLED.match(node.attr):
                found.append(f"{where}:{node.lineno} reaches {node.attr}")
            elif (
                _private(node.attr)
                and node.attr not in DOCUMENTED
                and isinstance(node.value, ast.Name)
                and node.value.id in outside
            ):
                found.append(f"{where}:{node.lineno} reaches {node.value.id}.{node.attr} ({outside[node.value.id]})")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and MANGLED.match(node.value):
            found.append(f"{where}:{node.lineno} names {node.value}")
    return found


def test_every_module_is_read():
    assert len(MODULES) > 50 and PACKAGE / "server" / "guard.py" in MODULES


@pytest.mark.parametrize("path", sorted(MODULES), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_private_api_of_a_dependency(path):
    assert findings(MODULES[path], str(path.relative_to(PACKAGE))) == []


def test_the_check_sees_every_form():
    """What server/guard.py did before issue 35, and the other ways to write it: each one is found."""
    before = """
import flask_limiter._extension
from flask_limiter import _extension as limiter_extension
from flask_limiter._extension import Limiter as Inner
from flask_limiter import Limiter
from flask import current_app

limiter = Limiter(key_func=None)
inject = getattr(limiter_extension.Limiter, "_Limiter__inject_headers", None)
release = limiter._Limiter__release_context
check = limiter._check_request_limit
app = current_app._get_current_object()
own = self._kept
"""
    found = findings(ast.parse(before))
    assert [f.split(" ", 1)[1] for f in found] == [
        "imports flask_limiter._extension",
        "imports flask_limiter._extension",
        "imports from flask_limiter._extension",
        "reaches _Limiter__release_context",
        "reaches limiter._check_request_limit (flask_limiter)",
        "names _Limiter__inject_headers",
    ]
