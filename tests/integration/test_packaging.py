"""A non-editable install finds its templates and prints: the wheel carries the top-level templates/ as
scorekeeper/templates, and the DejaVu fonts every PDF is drawn with (with their licence), so no system font is needed."""

import io
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from pypdf import PdfReader

pytestmark = pytest.mark.slow  # builds and installs the wheel
ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import scorekeeper, sys
from scorekeeper import create_app
assert "site" in scorekeeper.__file__ or "target" in scorekeeper.__file__, scorekeeper.__file__
app = create_app({"TESTING": True, "DATABASE": sys.argv[1], "SECRET_KEY": "x"})
c = app.test_client()
r = c.post("/api/games", json={"variant": "german", "players": ["Åse Bjørnæs", "Bo"]})
page = c.get(r.json["links"]["page"])
assert page.status_code == 200, page.status_code
assert c.get("/").status_code == 200
pdf = c.get(r.json["links"]["pdf"])
assert pdf.status_code == 200 and pdf.mimetype == "application/pdf", pdf.status_code
open(sys.argv[2], "wb").write(pdf.data)
import os
print("ok", os.path.join(app.root_path, app.template_folder))
"""
FONTS = {"scorekeeper/fonts/DejaVuSans.ttf", "scorekeeper/fonts/DejaVuSans-Bold.ttf", "scorekeeper/fonts/LICENSE"}


def test_wheel_ships_templates_and_works_outside_the_checkout(tmp_path):
    wheels, target = tmp_path / "wheels", tmp_path / "target"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(ROOT)],
        check=True,
        cwd=tmp_path,
    )
    wheel = next(wheels.glob("scorekeeper-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        assert not FONTS - set(archive.namelist()), FONTS - set(archive.namelist())
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)],
        check=True,
        cwd=tmp_path,
    )
    env = {"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"}
    out = subprocess.run(
        [sys.executable, "-c", CHECK, str(tmp_path / "db.sqlite"), str(tmp_path / "game.pdf")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert "ok" in out.stdout and str(target) in out.stdout
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO((tmp_path / "game.pdf").read_bytes())).pages)
    assert "Åse Bjørnæs" in text, text[:500]
