"""The package's shape, read from its source: no import cycles — imports inside functions counted too, so a cycle
cannot hide behind a lazy import —, no import inside a function but the app factory's, no reaching into another
module's private names, and each room imports only from the rooms below it, told by path: the rules (core/, a
variant's rules.py, clubs/rules/, drives/rules/) ← storage ← services ← pages and plumbing."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "scorekeeper"


def _name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
TREES = {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in MODULES.items()}


def _source(module: str, node: ast.ImportFrom) -> str:
    """The module a `from … import` reads from, relative imports resolved."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if MODULES[module].name != "__init__.py":
        base = base[:-1]
    base = base[: len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(module: str, nodes) -> set[str]:
    """The package's modules these import statements load."""
    found = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in MODULES}
        elif isinstance(node, ast.ImportFrom):
            source = _source(module, node)
            for a in node.names:  # a submodule by its own name, else a name from the module itself
                found |= {f"{source}.{a.name}"} if f"{source}.{a.name}" in MODULES else {source} & MODULES.keys()
    return found - {module}


# The one import kept inside a function: `scorekeeper.create_app` loads the factory (and Flask) when called, so that
# `import scorekeeper.core` loads no Flask.
FACTORY = ("scorekeeper", "scorekeeper.app")
# Every import, at module level or in a function: a lazy import is a dependency too, and a cycle through one is real.
GRAPH = {
    name: _imports(name, ast.walk(tree)) - ({FACTORY[1]} if name == FACTORY[0] else set())
    for name, tree in TREES.items()
}


def _lazy_imports(module: str, tree) -> list[str]:
    """The package's modules a function imports (at module level an import inside `if TYPE_CHECKING:` is no import)."""
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in top:
            for target in sorted(_imports(module, [node])):
                found.append(f"{module}:{node.lineno} → {target}")
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each cycle as the path that closes it (depth-first; one path per back edge)."""
    cycles, state = [], {}

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                cycles.append(path[path.index(nxt) :] + [nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return cycles


def test_the_graph_is_read():
    assert GRAPH["scorekeeper.games.paper"] >= {"scorekeeper.web.present", "scorekeeper.web.options"}
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]


def test_no_import_cycles_lazy_imports_included():
    assert _cycles(GRAPH) == []


def test_no_import_inside_a_function_but_the_factorys():
    found = [line for name, tree in TREES.items() for line in _lazy_imports(name, tree)]
    assert found == [f"scorekeeper:{_factory_line()} → scorekeeper.app"]


def _factory_line() -> int:
    tree = TREES["scorekeeper"]
    return next(n.lineno for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module == "scorekeeper.app")


def test_a_lazy_import_that_closes_a_cycle_is_seen():
    """i18n ↔ words was such a cycle: words imported i18n at its top, i18n imported words inside a function, and a
    graph of module-level imports only did not see it."""
    words = ast.parse("from scorekeeper.web.i18n import gettext\n")
    i18n = ast.parse("def with_field():\n    from scorekeeper.web.words import field_words\n")
    every = {
        "scorekeeper.web.words": _imports("scorekeeper.web.words", ast.walk(words)),
        "scorekeeper.web.i18n": _imports("scorekeeper.web.i18n", ast.walk(i18n)),
    }
    top_only = {
        "scorekeeper.web.words": _imports("scorekeeper.web.words", words.body),
        "scorekeeper.web.i18n": _imports("scorekeeper.web.i18n", i18n.body),
    }
    assert _cycles(every) == [["scorekeeper.web.i18n", "scorekeeper.web.words", "scorekeeper.web.i18n"]]
    assert _cycles(top_only) == []
    assert _lazy_imports("scorekeeper.web.i18n", i18n) == ["scorekeeper.web.i18n:2 → scorekeeper.web.words"]


def _private_reaches(module: str, tree) -> list[str]:
    """`from x import _name`, and `x._name` where x is another of the package's modules imported here."""
    aliases, found = {}, []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = _source(module, node)
            if not source.startswith("scorekeeper"):
                continue
            for a in node.names:
                if f"{source}.{a.name}" in MODULES:
                    aliases[a.asname or a.name] = f"{source}.{a.name}"
                elif a.name.startswith("_") and not a.name.startswith("__"):
                    found.append(f"{module}:{node.lineno} from {source} import {a.name}")
        elif isinstance(node, ast.Import):
            aliases.update({a.asname: a.name for a in node.names if a.asname and a.name in MODULES})
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
            and aliases[node.value.id] != module
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ):
            found.append(f"{module}:{node.lineno} {node.value.id}.{node.attr}")
    return found


def test_no_module_reaches_into_another_ones_private_names():
    assert [reach for name, tree in TREES.items() for reach in _private_reaches(name, tree)] == []


def test_the_private_check_sees_both_forms():
    tree = ast.parse("from scorekeeper.games import forms\nfrom scorekeeper.web.inputs import _x\nforms._int(1)\n")
    assert _private_reaches("scorekeeper.clubs.pages.views", tree) == [
        "scorekeeper.clubs.pages.views:2 from scorekeeper.web.inputs import _x",
        "scorekeeper.clubs.pages.views:3 forms._int",
    ]


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def pure(module: str) -> bool:
    """The rules, by path: core/, a variant's rules.py (and Danish whist's house.py, grid.py, presets.py, sol.py and
    tariff.py), clubs/rules/, drives/rules*, and the packages on their way (docstrings only), so that importing any rule
    loads no Flask, SQL or form."""
    parts = module.split(".")
    return (
        _within(module, "scorekeeper.core")
        or _within(module, "scorekeeper.clubs.rules")
        or _within(module, "scorekeeper.drives.rules")
        or (
            parts[:2] == ["scorekeeper", "variants"]
            and (len(parts) == 2 or parts[-1] in ("rules", "house", "grid", "presets", "sol", "tariff"))
        )
        or (len(parts) == 3 and parts[1] == "variants" and MODULES[module].name == "__init__.py")
        or module in ("scorekeeper.clubs", "scorekeeper.drives")
    )


def storage(module: str) -> bool:
    return _within(module, "scorekeeper.storage")


def service(module: str) -> bool:
    """What a write does: a feature's service.py and what only it keeps or asks (a game's cache, a live page's row, who
    may change a game, the deal in progress)."""
    return "service" in module.split(".") or module in (
        "scorekeeper.games.cache",
        "scorekeeper.games.live",
        "scorekeeper.games.keys",
        "scorekeeper.games.deal",
        "scorekeeper.drives.money",
    )


# Each room by its path, and the rooms it may import from. Everything else (pages, server, paper) may import these.
LAYERS = [
    ("the rules", pure, (pure,)),
    ("storage", storage, (storage,)),
    ("services", service, (pure, storage, service)),
]


@pytest.mark.parametrize("room,inside,allowed", LAYERS, ids=[room for room, _, _ in LAYERS])
def test_a_room_imports_only_from_the_rooms_below_it(room, inside, allowed):
    """Every import counts here, in a function too: a lazy one is still a dependency."""
    wrong = sorted(
        f"{name} → {target}"
        for name, tree in TREES.items()
        if inside(name)
        for target in _imports(name, ast.walk(tree))
        if not any(ok(target) for ok in allowed)
    )
    assert wrong == []


def test_the_rooms_are_found_by_path():
    assert pure("scorekeeper.variants.danish.rules") and pure("scorekeeper.variants.danish.house")
    assert pure("scorekeeper.variants.danish.grid")
    assert not pure("scorekeeper.variants.danish.view") and not pure("scorekeeper.variants.views")
    assert pure("scorekeeper.clubs.rules.evening") and not pure("scorekeeper.clubs.service")
    assert service("scorekeeper.drives.service") and not service("scorekeeper.drives.pages")
    assert all(any(inside(name) for _, inside, _ in LAYERS) for name in MODULES if name.endswith(".rules"))


def test_the_rules_and_services_import_no_flask_or_forms():
    """The rules and the storage no web library at all; a service no request, form or template (a service may
    translate a word and hash a password)."""
    web = {"flask", "werkzeug", "wtforms", "flask_wtf", "flask_babel", "jinja2"}
    for name, tree in TREES.items():
        if pure(name) or storage(name):
            assert not _third_party(tree) & web, name
        if service(name):
            assert not _third_party(tree) & (web - {"flask_babel", "werkzeug"}), name


def _third_party(tree) -> set[str]:
    """The top-level names of what a module imports from outside the package (functions' imports too)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_serving_needs_no_weasyprint_pango_or_pypdf():
    """Issue 27: every PDF is drawn by ReportLab, so the app imports neither WeasyPrint nor pypdf, neither is a
    runtime dependency (WeasyPrint is the `bench` extra's, the benchmark's baseline), and a server needs no Debian
    package (scripts/system-packages.sh run): issue 35, the fonts ship in the package (scorekeeper/fonts/), so no
    module looks for them in the system's folders. Pango, HarfBuzz and fontconfig are the benchmark's, in its set."""
    import re
    import tomllib

    root = PACKAGE.parent
    importing = sorted(name for name, tree in TREES.items() if _third_party(tree) & {"weasyprint", "pypdf"})
    assert importing == []
    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    runtime = {re.split(r"[<>=!~ ;\[]", d)[0].lower() for d in project["dependencies"]}
    assert "reportlab" in runtime and not runtime & {"weasyprint", "pypdf", "gunicorn"}
    extras = {
        extra: {re.split(r"[<>=!~ ;\[]", d)[0].lower() for d in wanted}
        for extra, wanted in project["optional-dependencies"].items()
    }
    assert "pypdf" in extras["test"] and "weasyprint" in extras["bench"] and "weasyprint" not in extras["test"]
    system_fonts = sorted(
        str(p.relative_to(root)) for p in PACKAGE.rglob("*.py") if "/usr/share/fonts" in p.read_text()
    )
    assert system_fonts == []
    script = (root / "scripts" / "system-packages.sh").read_text()
    run = re.search(r"^run=\(([^)]*)\)", script, re.M).group(1).split()
    test = re.search(r"^test=\(([^)]*)\)", script, re.M | re.S).group(1).split()
    bench = re.search(r"^bench=\(([^)]*)\)", script, re.M | re.S).group(1).split()
    assert run == []
    assert not {"libpango-1.0-0", "libharfbuzz0b", "fontconfig"} & set(test)
    assert {"libpango-1.0-0", "libharfbuzz0b", "fontconfig"} <= set(bench)
