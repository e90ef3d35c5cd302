"""The package type-checks: mypy over the [tool.mypy] files of pyproject.toml (the whole scorekeeper package: the
core, the variants, the services, storage, the pages, the paper and the plumbing) is clean with the stubs of the test
extra, and every variant module the registry finds is checked against the contract's required part
(core/contract.py: VariantModule), so that a variant module that drifts from the contract fails here and not at a
table. A `# type: ignore` names its error code and says why."""

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import scorekeeper
from scorekeeper.core import VARIANTS

ROOT = Path(scorekeeper.__file__).resolve().parents[1]
FILES = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]["files"]
# mypy reads the globs of its config itself; on its command line they are spelled out.
CHECKED = [str(p.relative_to(ROOT)) for f in FILES for p in sorted(ROOT.glob(f))]


def registry_check() -> str:
    """A module mypy reads beside the core: each registered variant's module assigned to a VariantModule."""
    lines = ["from scorekeeper.core.contract import VariantModule"]
    for name, rules in VARIANTS.items():
        lines.append(f"import {rules.module.__name__} as {name}")
        lines.append(f"{name}_checked: VariantModule = {name}")
    return "\n".join(lines) + "\n"


def mypy(tmp_path, *files):
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy"), *CHECKED, *map(str, files)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )


def test_mypy_checks_the_whole_package():
    assert CHECKED == ["scorekeeper"]


def test_every_type_ignore_names_its_error_and_says_why():
    """mypy refuses a bare `# type: ignore` (enable_error_code ignore-without-code); a comment after it says why."""
    ignore = re.compile(r"#\s*type:\s*ignore(?P<code>\[[a-z0-9-, ]+\])?(?P<rest>.*)$")
    unexplained = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in sorted((ROOT / "scorekeeper").rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if (found := ignore.search(line)) and not (found["code"] and re.match(r"\s*#\s*\S", found["rest"]))
    ]
    assert not unexplained, "\n".join(unexplained)


@pytest.mark.slow
@pytest.mark.needs_program  # mypy in a subprocess
def test_mypy_finds_no_errors_in_the_package_nor_in_a_registered_variant(tmp_path):
    check = tmp_path / "registry_check.py"
    check.write_text(registry_check(), encoding="utf-8")
    done = mypy(tmp_path, check)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success" in done.stdout


@pytest.mark.slow
@pytest.mark.needs_program
def test_the_registry_check_fails_a_module_short_of_the_contract(tmp_path):
    """The check above can fail: a module without hand_points is no VariantModule to mypy."""
    (tmp_path / "short_variant.py").write_text(
        "from scorekeeper.core.messages import Msg\n"
        'NAME = "short"\nTITLE = Msg("Short")\nDESCRIPTION = Msg("Short.")\nPLAYER_COUNTS = (3,)\n'
        'INPUT_FIELDS = ("tricks",)\nOPTIONS: dict = {}\n'
        "def check_hand(raw, ctx):\n    return dict(raw)\n",
        encoding="utf-8",
    )
    check = tmp_path / "short_check.py"
    check.write_text(
        "import short_variant\nfrom scorekeeper.core.contract import VariantModule\n"
        "checked: VariantModule = short_variant\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy"), str(check)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"MYPYPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 1 and "hand_points" in done.stdout, done.stdout + done.stderr
