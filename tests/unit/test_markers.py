"""tests/conftest.py's check of the needs_program marker can fail: a test that starts a program without the marker
fails at its teardown, naming it; with the marker, or starting nothing, it passes."""

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

CONFTEST = Path(__file__).resolve().parents[1] / "conftest.py"
INNER = """
import subprocess

import pytest


def test_unmarked():
    subprocess.run(["true"], check=True)


@pytest.mark.needs_program
def test_marked():
    subprocess.run(["true"], check=True)


def test_pure():
    pass
"""


@pytest.mark.needs_program  # the inner tests start `true`
def test_a_test_that_starts_a_program_unmarked_fails_and_one_marked_passes(pytester):
    pytester.makeconftest(CONFTEST.read_text(encoding="utf-8"))
    pytester.makeini("[pytest]\nmarkers =\n    needs_program: x\n    browser: x\n    slow: x\n")
    pytester.makepyfile(test_inner=INNER)
    # in this process (its own audit hook), without Playwright's plugin, whose assertion scope does not nest
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:playwright")
    result.assert_outcomes(passed=3, errors=1)
    result.stdout.fnmatch_lines(
        ["*ERROR at teardown of test_unmarked*", "started 'true' but is not marked needs_program*"]
    )
