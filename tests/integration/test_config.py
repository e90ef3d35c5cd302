"""Configuration from one place: scorekeeper/config.py holds every key the code reads, create_app starts from its
defaults, `scorekeeper config` shows them (secrets hidden), and docs/operations.md carries its table unchanged."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper import config, create_app

ROOT = Path(__file__).resolve().parents[2]
OPERATIONS = (ROOT / "docs" / "operations.md").read_text()
BEGIN, END = "<!-- the table is `scorekeeper config --markdown` -->\n", "<!-- end of the table -->"


def test_the_table_in_the_operations_doc_is_the_one_config_py_makes():
    assert BEGIN in OPERATIONS and END in OPERATIONS, "docs/operations.md lost the markers around its table"
    table = OPERATIONS.split(BEGIN, 1)[1].split(END, 1)[0]
    assert table == config.markdown(), "run `python -m scorekeeper config --markdown` and paste it into the doc"


def _keys_read_in_the_code() -> set[str]:
    found = set()
    for path in (ROOT / "scorekeeper").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        found |= set(re.findall(r"config(?:\.get|\.setdefault)?[\[(]\s*[\"']([A-Z][A-Z0-9_]+)[\"']", text))
        found |= set(re.findall(r"[\"'](LIMIT_[A-Z0-9_]+)[\"']", text))  # guard.KINDS names each limit's key
    return found


def test_every_key_the_code_reads_is_in_config_py():
    read = _keys_read_in_the_code()
    assert {"DATABASE", "MAX_HANDS", "PDF_FOLDER", "CLUB_CLOCK", "LIMIT_NEW_GAMES", "LITESTREAM"} <= read
    assert read - config.BY_NAME.keys() == set()


@pytest.mark.parametrize("testing", [False, True])
def test_create_app_starts_from_config_py(tmp_path, testing):
    app = create_app(
        {"TESTING": testing, "DATABASE": str(tmp_path / "db.sqlite"), "SECRET_KEY": "s", "GC_FREEZE": False}
    )
    for key in config.KEYS:
        if key.name in ("DATABASE", "SECRET_KEY", "GC_FREEZE") or not key.applied:
            continue
        expected = key.testing if testing and key.testing is not None else key.default
        assert app.config[key.name] == expected, key.name
    assert "CLUB_CLOCK" not in app.config  # the clubs' views hold its default


def test_the_config_command_lists_every_key_and_hides_the_secret(tmp_path):
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": os.environ["PYTHONPATH"],
        "SCOREKEEPER_SECRET_KEY": "hush-hush",
        "SCOREKEEPER_MAX_HANDS": "42",
        "SCOREKEEPER_DATABASE": str(tmp_path / "x.sqlite"),
    }
    out = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "config"], env=env, capture_output=True, text=True, cwd=tmp_path
    )
    assert out.returncode == 0, out.stderr
    assert "hush-hush" not in out.stdout and "(set, hidden)" in out.stdout
    lines = {line.split()[0]: line for line in out.stdout.splitlines()[2:] if line.strip()}
    assert set(config.BY_NAME) <= set(lines)
    assert "SCOREKEEPER_MAX_HANDS" in lines["MAX_HANDS"] and lines["MAX_HANDS"].rstrip().endswith("42")
    assert not (tmp_path / "x.sqlite").exists(), "config made the database"
