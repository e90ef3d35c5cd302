"""The scoring core type-checks: mypy over scorekeeper/core (the [tool.mypy] settings in pyproject.toml) is clean, so
that a variant module that drifts from the contract (core/contract.py) fails here and not at a table."""

import subprocess
import sys
from pathlib import Path

import scorekeeper

ROOT = Path(scorekeeper.__file__).resolve().parents[1]


def test_mypy_finds_no_errors_in_the_core(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy")], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success" in done.stdout
