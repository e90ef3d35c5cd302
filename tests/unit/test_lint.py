"""The code is kept as ruff says (pyproject.toml [tool.ruff]): lint clean and formatted."""

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.needs_program  # ruff

ROOT = Path(__file__).resolve().parents[2]


def ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True)


def test_ruff_check_is_clean():
    out = ruff("check", "--output-format", "concise", ".")
    assert out.returncode == 0, out.stdout + out.stderr


def test_ruff_format_leaves_every_file_as_it_is():
    out = ruff("format", "--check", ".")
    assert out.returncode == 0, out.stdout + out.stderr
