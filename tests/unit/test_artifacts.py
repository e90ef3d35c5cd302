"""A test that leaves a file for eyes in test-artifacts/ makes the folder itself (helpers.artifact): no Makefile target
makes it, and `pytest FILE` alone, on any worker, may be the first to write there."""

import re
from pathlib import Path

import helpers

TESTS = Path(__file__).resolve().parents[1]


def test_artifact_makes_the_folder_it_names(tmp_path, monkeypatch):
    monkeypatch.setattr(helpers, "ARTIFACTS", tmp_path / "test-artifacts")
    path = helpers.artifact("sheet.pdf")
    path.write_bytes(b"%PDF")
    assert path == tmp_path / "test-artifacts" / "sheet.pdf" and path.read_bytes() == b"%PDF"
    assert helpers.artifact("again.png").parent.is_dir()  # a second time finds the folder there


def test_no_test_writes_into_the_folder_but_through_artifact():
    """`ARTIFACTS / name` in a test writes where no one may have made the folder (two of test_club_night's tests did)."""
    used = [
        f"{path.relative_to(TESTS)}:{n}"
        for path in sorted(TESTS.rglob("*.py"))
        if path.name != "helpers.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bARTIFACTS\b", line) and path != Path(__file__).resolve()
    ]
    assert not used, used
