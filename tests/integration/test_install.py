"""What `pip install` gives someone who never ran `make`: a wheel built from a clean clone (committed files only, so
no *.mo catalogue that `make` compiled here) installed into a new virtual environment outside the checkout, with the
`scorekeeper` command, speaking Danish. It sees committed work only: that is the point."""

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

# builds a wheel from a clean clone and installs it into a new venv
pytestmark = [pytest.mark.slow, pytest.mark.needs_program]
ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import sys
import scorekeeper
from scorekeeper import create_app
assert scorekeeper.__file__.startswith(sys.prefix), scorekeeper.__file__
app = create_app({"TESTING": True, "DATABASE": sys.argv[1], "SECRET_KEY": "x"})
page = app.test_client().get("/", headers={"Accept-Language": "da"}).get_data(as_text=True)
assert "Nyt parti" in page and "New game" not in page, page[:2000]
print("dansk")
"""


WITHOUT_CHECKOUT = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def test_a_wheel_from_a_clean_clone_installs_with_its_command_and_speaks_danish(tmp_path):
    clone, wheels, venv = tmp_path / "clone", tmp_path / "wheels", tmp_path / "venv"
    subprocess.run(["git", "clone", "-q", "--no-local", str(ROOT), str(clone)], check=True)
    assert not list(clone.glob("scorekeeper/translations/*/LC_MESSAGES/*.mo")), "a compiled catalogue is in git"
    # No network: the build requirements (setuptools, wheel, babel) are this environment's own.
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(wheels),
            str(clone),
        ],
        check=True,
        cwd=tmp_path,
    )
    wheel = next(wheels.glob("scorekeeper-*.whl"))

    # A new environment whose only copy of scorekeeper is the wheel's; the dependencies are this environment's,
    # put on its path by a .pth file (no download), which does not run this environment's editable-install hook.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (Path(site) / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", str(wheel)],
        check=True,
        cwd=tmp_path,
        env=WITHOUT_CHECKOUT,  # the checkout on PYTHONPATH (conftest) would be "already installed"
    )

    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    out = subprocess.run(
        [python, "-c", CHECK, str(tmp_path / "db.sqlite")], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0 and "dansk" in out.stdout, out.stderr

    command = venv / "bin" / "scorekeeper"
    for args in (
        ["--help"],
        ["serve", "--help"],
        ["init-db", "--help"],
        ["backup", "--help"],
        ["restore", "--help"],
        ["config", "--help"],
    ):
        out = subprocess.run([command, *args], cwd=tmp_path, env=env, capture_output=True, text=True)
        assert out.returncode == 0 and "Usage: scorekeeper" in out.stdout, (args, out.stderr)
    out = subprocess.run(
        [command, "init-db"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**env, "SCOREKEEPER_DATABASE": str(tmp_path / "made.sqlite")},
    )
    assert out.returncode == 0 and (tmp_path / "made.sqlite").exists(), out.stderr
