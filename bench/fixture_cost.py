"""What the tests' `app` fixture costs per test: create_app over a new file migrated through every migration (as every
test did) against create_app over a copy of a file migrated once (tests/conftest.py's db_path), and against one app
made once and lent over the copy (tests/helpers.SharedApp, what the fixture does now), in CPU milliseconds.

    .venv/bin/python bench/fixture_cost.py [N]
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

from scorekeeper import create_app
from scorekeeper.storage import migrate

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from helpers import SharedApp


def per_test(make, n: int) -> float:
    """CPU milliseconds per call of make(i), the median of three rounds of n."""
    rounds = []
    for r in range(3):
        started = time.process_time()
        for i in range(n):
            make(r * n + i)
        rounds.append((time.process_time() - started) / n * 1000)
    return sorted(rounds)[1]


def main(n: int = 30) -> None:
    folder = Path(tempfile.mkdtemp(prefix="fixture-cost-"))
    try:
        template = folder / "migrated.sqlite"
        migrate(str(template))
        config = {"TESTING": True, "SECRET_KEY": "bench"}

        def fresh(i):
            create_app({**config, "DATABASE": str(folder / f"fresh{i}.sqlite")})

        def copied(i):
            path = folder / f"copy{i}.sqlite"
            shutil.copyfile(template, path)
            create_app({**config, "DATABASE": str(path)})

        shared = SharedApp(create_app({**config, "DATABASE": str(template)}))

        def lent(i):
            path = folder / f"lent{i}.sqlite"
            shutil.copyfile(template, path)
            shared.lend(str(path))
            shared.give_back()

        rows = {
            "migrate a new file": per_test(lambda i: migrate(str(folder / f"m{i}.sqlite")), n),
            "copy the migrated file": per_test(lambda i: shutil.copyfile(template, folder / f"c{i}.sqlite"), n),
            "create_app, new file (before)": per_test(fresh, n),
            "create_app, copied file": per_test(copied, n),
            "the shared app lent, copied file (now)": per_test(lent, n),
        }
        for name, ms in rows.items():
            print(f"{name:40} {ms:6.1f} ms CPU")
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
