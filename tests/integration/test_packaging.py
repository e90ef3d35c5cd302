"""A non-editable install finds its templates: the wheel carries the top-level templates/ as scorekeeper/templates."""

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.needs_program]  # builds and installs the wheel
ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import scorekeeper, sys
from scorekeeper import create_app
assert "site" in scorekeeper.__file__ or "target" in scorekeeper.__file__, scorekeeper.__file__
app = create_app({"TESTING": True, "DATABASE": sys.argv[1], "SECRET_KEY": "x"})
c = app.test_client()
r = c.post("/api/games", json={"variant": "german", "players": ["Anna", "Bo"]})
page = c.get(r.json["links"]["page"])
assert page.status_code == 200, page.status_code
assert c.get("/").status_code == 200
import os
print("ok", os.path.join(app.root_path, app.template_folder))
"""


def test_wheel_ships_templates_and_works_outside_the_checkout(tmp_path):
    wheels, target = tmp_path / "wheels", tmp_path / "target"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(ROOT)],
        check=True,
        cwd=tmp_path,
    )
    wheel = next(wheels.glob("scorekeeper-*.whl"))
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)],
        check=True,
        cwd=tmp_path,
    )
    env = {"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"}
    out = subprocess.run(
        [sys.executable, "-c", CHECK, str(tmp_path / "db.sqlite")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert "ok" in out.stdout and str(target) in out.stdout
