"""The README and docs/ against the code: a short door with the two commands on top, every variant and option in the
rules, the rules' hands scoring as written, no link to a missing file, every configuration default documented."""

import json
import os
import re
from pathlib import Path

import pytest

from scorekeeper.config import KEYS
from scorekeeper.core import PACKAGES, VARIANTS, make_setup, play
from scorekeeper.variants.views import package_folder

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
RULES = (ROOT / "docs" / "rules.md").read_text()
OPERATIONS = (ROOT / "docs" / "operations.md").read_text()
PAGES = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "scorekeeper").glob("variants/*/rules.md")),
]


def test_readme_is_a_door_not_a_manual():
    size = len((ROOT / "README.md").read_bytes())
    assert size < 15_000, f"README.md is {size} bytes: move the detail into docs/"


def test_readme_starts_with_the_two_commands():
    before, after = README.split("```sh", 1)
    assert "```" not in before and "\n## " not in before, "the commands come first, before any section"
    first = after.split("```", 1)[0].strip().splitlines()
    assert first[0].startswith("make run ") and first[1].startswith("make test "), first


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_variant_and_option_is_documented(variant):
    """Each variant's rules in words live in its package (`rules.md`, as an installed one's: the kit checks it too);
    docs/rules.md links every built-in's."""
    docs = package_folder(variant) / "rules.md"
    assert docs.is_file(), f"{variant}: its package has no rules.md"
    section = docs.read_text(encoding="utf-8").split(f"### {variant} — ", 1)
    assert len(section) == 2, f"no section '### {variant} — ' in {docs}"
    text = section[1].split("\n### ", 1)[0]
    for option in VARIANTS[variant].OPTIONS:
        assert f"`{option}`" in text, f"{variant}: option {option} is not documented in {docs.name}"
    if PACKAGES[variant] == f"scorekeeper.variants.{variant}":
        assert f"(../scorekeeper/variants/{variant}/rules.md)" in RULES, f"docs/rules.md does not link {variant}"


EXAMPLES = [
    (
        "classic",
        {"honours": True},
        '{"trump": "hearts", "tricks": [8, 5], "honours": [3, 1], "revoke": {"side": 1, "penalty": "tricks"}}',
        [5, 0],
    ),
    ("norwegian", {}, '{"bid": "grand", "bidder": 2, "tricks": [5, 8]}', [0, 4]),
    ("danish", {}, '{"bidder": 1, "bid": "sol", "tricks": 1}', [-50, 150, -50, -50]),
    ("danish", {}, '{"bidder": 0, "bid": 9, "suffix": "gode", "partner": 0, "tricks": 9}', [240, -80, -80, -80]),
    ("german", {}, '{"tricks": [9, 4]}', [3, 0]),
    ("swedish", {}, '{"red": 3, "tricks": [5, 8]}', [0, 2]),
    ("swedish", {}, '{"red": null, "tricks": [4, 9]}', [3, 0]),
    (
        "scotch",
        {},
        '{"tricks": [3, 2, 4, 0], "honours": {"jack": 2, "ten": 0, "ace": 1, "king": 2, "queen": 0}}',
        [15, 4, 21, 0],
    ),
    (
        "scotch",
        {"teams": 2},
        '{"tricks": [5, 4], "honours": {"jack": 0, "ten": 1, "ace": 0, "king": 1, "queen": 1}}',
        [17, 15],
    ),
    ("solo", {}, '{"bid": "solo", "bidder": 1, "tricks": 6}', [-1, 3, -1, -1]),
    ("solo", {}, '{"bid": "prop", "bidder": 0, "partner": 2, "tricks": 7}', [-1, 1, -1, 1]),
    ("bid", {}, '{"bidder": 0, "bid": 4, "direction": "uptown", "tricks": [10, 3]}', [4, 0]),
    ("bid", {}, '{"bidder": 1, "bid": 5, "direction": "no_trump", "tricks": [7, 6]}', [2, -10]),
    ("plump", {}, '{"bids": [3, 2, 0, 4], "tricks": [3, 1, 0, 6]}', [13, 0, 5, 0]),
]


@pytest.mark.parametrize("variant,options,hand,points", EXAMPLES)
def test_the_rules_hand_examples_score_as_written(variant, options, hand, points):
    row = next((line for line in RULES.splitlines() if line.startswith(f"| {variant} |") and f"`{hand}`" in line), None)
    assert row is not None, f"docs/rules.md has no row for {variant} with the hand {hand}"
    players = ["A", "B"] if variant == "german" else ["A", "B", "C", "D"]
    protokoll = play(make_setup(variant, players, 0, options), [json.loads(hand)])
    assert list(protokoll.hands[0].points) == points
    assert f"`{points}`" in row, f"docs/rules.md: the hand {hand} should say it scores {points}"


def _without_blocks(text: str) -> str:
    """Markdown without its fenced code blocks, whose lines are neither links nor headings."""
    return re.sub(r"(?ms)^```.*?^```", "", text)


def _anchors(text: str) -> set[str]:
    """The anchors GitHub makes of a file's headings: lower case, punctuation dropped, spaces as hyphens."""
    headings = re.findall(r"(?m)^#{1,6} +(.+?) *$", _without_blocks(text))
    return {re.sub(r"[^\w\- ]", "", h.replace("`", "").lower()).replace(" ", "-") for h in headings}


def _links(path: Path):
    prose = re.sub(r"`[^`\n]*`", "", _without_blocks(path.read_text()))  # code spans hold no links either
    for target in re.findall(r"\[[^\]]*\]\(([^)\s]+)\)", prose):
        if not re.match(r"[a-z]+:", target):
            yield target


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_somewhere(page):
    broken = []
    for target in _links(page):
        file, _, anchor = target.partition("#")
        dest = (page.parent / file).resolve() if file else page
        if not dest.exists():
            broken.append(f"{target}: no file {dest.relative_to(ROOT) if dest.is_relative_to(ROOT) else dest}")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest.read_text()):
            broken.append(f"{target}: no heading #{anchor} in {dest.relative_to(ROOT)}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


CONFIG_KEYS = [key.name for key in KEYS]  # scorekeeper/config.py: every default create_app sets


def test_the_configuration_keys_were_found():
    assert "DATABASE" in CONFIG_KEYS and "MAX_HANDS" in CONFIG_KEYS and "LIMIT_NEW_GAMES" in CONFIG_KEYS


@pytest.mark.parametrize("key", CONFIG_KEYS)
def test_every_configuration_default_is_documented(key):
    assert f"`{key}`" in OPERATIONS, f"configuration key {key} has a default but is not in docs/operations.md"


# ------------------------------------------------------------------ every path the docs name

ROOTS = ("scorekeeper", "templates", "tests", "bench", "deploy", "scripts", "docs", ".ci")  # the tree's folders
ELSEWHERE = {"scorekeeper/templates"}  # only in a built wheel: setup.py copies templates/ there


def _tree() -> list[str]:
    """Every file and folder under ROOTS, as paths from the checkout's root."""
    paths = []
    for top in ROOTS:
        for folder, dirs, files in os.walk(ROOT / top):
            dirs[:] = [d for d in dirs if d not in ("__pycache__", "results")]
            rel = Path(folder).relative_to(ROOT).as_posix()
            paths += [rel, *(f"{rel}/{f}" for f in files)]
    return paths


def _named_paths(text: str, folders: set[str]) -> set[str]:
    """The code spans that are paths: with a slash, no placeholder (`<name>`), glob or route, starting with one of
    ROOTS or with a folder's name that is somewhere in the tree (`server/guard.py`, `variants/danish/rules.py`)."""
    named = set()
    for span in re.findall(r"`([^`\n]+)`", text):
        span = span.removesuffix("()")
        path = "/" in span and not re.search(r"[\s<>*…?=\"':\\{}(]", span) and not span.startswith("/")
        if path and span.split("/")[0] in folders:
            named.add(span)
    return named


def _exists(span: str, tree: list[str]) -> bool:
    """A path from the root (`scorekeeper/server/guard.py`) exists as written; a short form (`server/guard.py`) is the end
    of some path in the tree. `module.name` (`server/guard.unlimited`) names a name in module.py."""
    path = span.rstrip("/")
    folder, _, last = path.rpartition("/")
    for candidate in {path, f"{folder}/{last.split('.')[0]}.py"}:
        if candidate in ELSEWHERE or candidate in tree or any(p.endswith("/" + candidate) for p in tree):
            return True
    return False


def _missing(pages: dict[str, str]) -> list[str]:
    tree = _tree()
    folders = set(ROOTS) | {Path(p).name for p in tree if (ROOT / p).is_dir()}
    return [
        f"{name}: {span}"
        for name, text in pages.items()
        for span in sorted(_named_paths(text, folders))
        if not _exists(span, tree)
    ]


def test_every_path_the_docs_name_exists():
    missing = _missing({str(page.relative_to(ROOT)): page.read_text() for page in PAGES})
    assert not missing, "paths the docs name that are not in the tree:\n" + "\n".join(missing)


def test_the_path_check_sees_a_missing_path_in_either_form():
    text = "`scorekeeper/server/guard.py`, `server/guard.unlimited`, `web/nowhere.py`, `templates/games/gone.html`, `/g/<id>`"
    assert _missing({"x.md": text}) == ["x.md: templates/games/gone.html", "x.md: web/nowhere.py"]


DOORS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]


def _make_targets() -> set[str]:
    makefile = (ROOT / "Makefile").read_text()
    return {m.group(1) for m in re.finditer(r"^([a-z][a-z-]*):", makefile, re.M)}


def test_every_make_command_the_docs_name_is_a_target():
    targets = _make_targets()
    named = {(page.name, m.group(1)) for page in DOORS for m in re.finditer(r"`make ([a-z][a-z-]*)", page.read_text())}
    missing = sorted(f"{page}: make {target}" for page, target in named if target not in targets)
    assert not missing, missing


def test_every_scorekeeper_command_the_docs_name_is_one():
    from scorekeeper.__main__ import main

    commands = set(main.commands)
    named = {
        (page.name, m.group(1))
        for page in DOORS
        for m in re.finditer(r"`(?:\.venv/bin/)?scorekeeper ([a-z][a-z-]*)", page.read_text())
    }
    missing = sorted(f"{page}: scorekeeper {command}" for page, command in named if command not in commands)
    assert named and not missing, missing


def test_the_readme_names_the_command_line_as_it_runs_in_the_checkout():
    """`make run` makes a virtual environment and does not put it on PATH: in the checkout the command is
    .venv/bin/scorekeeper (issue 46: "scorekeeper backup PATH" from the README was "command not found")."""
    plain = re.findall(r"(?<![/\w])`scorekeeper (?:backup|restore|serve|config|init-db)", README)
    assert not plain, f"the README names {plain}: write .venv/bin/scorekeeper in the checkout"


def test_make_run_installs_what_serving_needs_and_no_more():
    makefile = (ROOT / "Makefile").read_text()
    run = re.search(r"^run: (.*)$", makefile, re.M).group(1).split()
    assert "setup" not in run, "make run must not install the test extras"
    served = re.search(r"^\$\(VENV\)/\.served:.*?\n((?:\t.*\n)+)", makefile, re.M).group(1)
    assert "pip install -q -e ." in served and "[test]" not in served


# ------------------------------------------------------------------ every list of variants, from the registry (issue 46)

# The app's own variants, in menu order (an installed plug-in documents itself: its package's rules.md).
BUILT_IN = [name for name in VARIANTS if PACKAGES[name] == f"scorekeeper.variants.{name}"]
DOCS = {
    path.name: path.read_text()
    for path in [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
}


def _every(rules) -> bool:
    return True


# Each list of variants the docs keep, where it is, and which of the registry's it must name: (file, the list's
# text as a pattern's first group, which variants, how they are written: "bold", "code" or "word").
VARIANT_LISTS = [
    ("README.md", r"by the variant's own rules: (.*?)\. It settles", _every, "bold"),
    ("README.md", r"played for money \(([^)]*) are:", lambda rules: rules.FOR_MONEY, "word"),
    ("api.md", r"start a game: `variant` \(([^)]*)\)", _every, "code"),
    ("api.md", r"Where the bids come before the play \(([^)]*)\)", lambda rules: rules.BID_FIELDS, "word"),
    ("api.md", r"a variant without bids\s+first \(([^)]*)\)", lambda rules: not rules.BID_FIELDS, "word"),
    ("rules.md", r"## One hand per variant(.*?)(?:\n#|\Z)", _every, "row"),
    ("clubs.md", r"house rules\. ([^.]*?) are played for money", lambda rules: rules.FOR_MONEY, "word"),
]
WRITTEN = {"bold": r"\*\*{}\*\*", "code": r"`{}`", "word": r"(?<![\w-]){}(?![\w-])", "row": r"(?m)^\| {} \|"}


def _named(text: str, how: str) -> list[str]:
    """The registered variants a list names, in the order it names them."""
    found = [(m.start(), name) for name in BUILT_IN for m in re.finditer(WRITTEN[how].format(name), text, re.I)]
    return list(dict.fromkeys(name for _at, name in sorted(found)))


@pytest.mark.parametrize("page, pattern, which, how", VARIANT_LISTS, ids=lambda v: v if isinstance(v, str) else "")
def test_every_list_of_variants_the_docs_keep_is_the_registrys(page, pattern, which, how):
    found = re.search(pattern, DOCS[page], re.S)
    assert found, f"{page}: the list /{pattern}/ is gone: take it out of VARIANT_LISTS, or put it back"
    wanted = [name for name in BUILT_IN if which(VARIANTS[name])]
    assert sorted(_named(found.group(1), how)) == sorted(wanted), f"{page} lists other variants than the registry"


def test_the_rules_link_each_variant_and_no_other():
    """docs/rules.md links each built-in's own rules.md and no other variant's."""
    linked = re.findall(r"\(\.\./scorekeeper/variants/([a-z]+)/rules\.md\)", RULES)
    assert sorted(linked) == sorted(BUILT_IN)


NUMBERS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]


def test_a_count_of_the_variants_is_the_registrys():
    """The README once said "nine" by hand: a number of variants the docs say is the registry's."""
    said = {
        (page, m.group(0))
        for page, text in DOCS.items()
        for m in re.finditer(r"\b(\w+) (?:built-in |registered )?(?:whist )?variants\b", text, re.I)
        if m.group(1).lower() in NUMBERS or m.group(1).isdigit()
    }
    wrong = sorted(
        f"{page}: {words}"
        for page, words in said
        if words.split()[0].lower() not in (str(len(BUILT_IN)), NUMBERS[len(BUILT_IN) - 2])
    )
    assert not wrong, wrong


EXAMPLE_PACKAGE = {"<project>": "examples/variant-package", "<package>": "examples/variant-package/scorekeeper_israeli"}
PLACES = r"<name>|<project>|<package>"  # a variant's name, the example package's folders


def _files_named(text: str) -> set[str]:
    """A file named by its name alone (`german.py`), or by a path with a variant's `<name>` in it, or a path in the
    example package (`<package>/rules.py`)."""
    named = set()
    for span in re.findall(r"`([^`\n]+)`", _without_blocks(text)):
        if (
            re.fullmatch(r"[\w.-]+\.(py|html|css|js)", span)
            or re.fullmatch(r"(<project>|<package>|[\w.-]+)(/[\w.*<>-]+)+/?", span)
            and re.search(PLACES, span)
        ):
            named.add(span)
    return named


def _found(span: str, tree: list[str]) -> bool:
    """The file is in the tree: by its name anywhere; a path with `<name>` for some variant, another placeholder
    (`<file>`) or `*` for any name, matched from the right (`scorekeeper/variants/<name>/static/*`)."""
    if "/" not in span:
        return any(path.rsplit("/", 1)[-1] == span for path in tree) or (ROOT / span).exists()
    for placeholder, folder in EXAMPLE_PACKAGE.items():
        span = span.replace(placeholder, folder)
    tried = [span.replace("<name>", name) for name in BUILT_IN] if "<name>" in span else [span]
    patterns = [re.sub(r"<[^>]+>", "*", path).rstrip("/") for path in tried]
    return any(Path(path).match(pattern) for pattern in patterns for path in tree)


def _tree_and_examples() -> list[str]:
    """The tree the docs name (ROOTS) and the example variant package."""
    examples = []
    for folder, dirs, files in os.walk(ROOT / "examples"):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        rel = Path(folder).relative_to(ROOT).as_posix()
        examples += [rel, *(f"{rel}/{f}" for f in files)]
    return _tree() + examples


def test_every_file_the_docs_name_by_its_name_or_for_a_variant_exists():
    """Issue 46: the walk-through named `german.py`, `danish_card.py`, `variants/<name>.css` and
    `tests/variants/<name>.py`, none of which was there any more."""
    tree = _tree_and_examples()
    missing = sorted(
        f"{page}: {span}" for page, text in DOCS.items() for span in _files_named(text) if not _found(span, tree)
    )
    assert not missing, missing


def test_the_file_check_sees_a_file_that_is_gone():
    text = "`german.py`, `danish_card.py`, `variants/<name>.css`, `tests/variants/<name>.py`, `<package>/rules.py`"
    tree = _tree_and_examples()
    assert sorted(s for s in _files_named(text) if not _found(s, tree)) == [
        "danish_card.py",
        "german.py",
        "tests/variants/<name>.py",
        "variants/<name>.css",
    ]
