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


@pytest.mark.needs_program
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


def test_every_store_and_its_bound_in_the_operations_doc_is_the_codes():
    """docs/operations.md's "Every store and its bound" (issue 43): each configuration key that bounds a store is in
    its table, and each figure it gives for a bound held by a constant is that constant's."""
    from scorekeeper.drives.pages import paper
    from scorekeeper.games import cache, sheets
    from scorekeeper.server import door_guard, heavy, live_door, live_tags, printing, workers
    from scorekeeper.variants.danish import rules

    section = OPERATIONS.split("## Every store and its bound", 1)[1].split("\n## ", 1)[0]
    for key in (
        "LIVE_TAGS_MAX_BYTES",
        "LIVE_TAGS_MAX_AGE",
        "PDF_KEEP_BYTES",
        "KEPT_GAMES",
        "KEPT_HANDS",
        "KEPT_GAMES_BYTES",
    ):
        assert f"`{key}`" in section and key in config.BY_NAME, key
    for key in ("IDEMPOTENCY_MAX_AGE", "IDEMPOTENCY_KEEP", "MAX_DATABASE_BYTES", "RENDER_QUEUE", "LOG_LEVEL"):
        assert f"`{key}`" in section and key in config.BY_NAME, key
    mib = 1024 * 1024
    figures = [  # (what the code holds, the figure, the words the table gives it in)
        ((config.BY_NAME["LIVE_TAGS_MAX_BYTES"].default, live_tags.MAX_BYTES), (64 * mib,) * 2, "64 MiB across the"),
        ((config.BY_NAME["LIVE_TAGS_MAX_AGE"].default, live_tags.MAX_AGE), (3600, 3600), "every file after an hour"),
        ((config.BY_NAME["PDF_KEEP_BYTES"].default, sheets.PART_AGE), (256 * mib, 3600), "256 MiB, the oldest"),
        (
            (config.BY_NAME["KEPT_GAMES"].default, config.BY_NAME["KEPT_GAMES_BYTES"].default, cache.MAX_BYTES),
            (10_000, 96 * mib, 96 * mib),
            "10,000 games and 96 MiB",
        ),
        ((heavy.MAX_ITEMS, heavy.MAX_BYTES), (256, 64 * mib), "256 pages and 64 MB"),
        ((paper.PAGES.max_items, paper.PAGES.max_size), (64, 32 * mib), "64 pages and 32 MB"),
        (live_door.KEPT, 8192, "8,192 requests"),
        ((door_guard.BUCKETS, door_guard.FLOOD_ADDRESSES, door_guard.HEAVY_PATHS), (4096,) * 3, "4,096 heavy paths"),
        (workers.SLOTS, 65536, "65,536 counters"),
        (printing.Renderer.MAX_TASKS, 25, "after 25 PDFs"),
        (rules.HOUSES_KEPT, 512, "512 houses"),
        (live_tags.LARGEST, 16, "a sixteenth of it"),
    ]
    for held, figure, words in figures:
        assert words in section, words
        assert held == figure, f"the code no longer says {words!r}"
