"""A variant installed with pip from outside the repository plays everywhere the nine do, in its own words, with no
file of the app changed (issue 46): examples/variant-package (Israeli whist: a trump auction, every player's own call
where the last may not make 13, over and under, a deal thrown in when all pass doubling the next) is installed into a
virtual environment of its own in tmp_path (not the machine's site-packages: the app's environment read through a .pth,
so `pip install --no-deps` takes a few seconds and no network), and a script run by that environment's python makes the
app over a fresh SQLite file and plays it through the pages and the API: the new-game page, a hand, the bids first, a
deal thrown in, the protokoll, print, PDF, CSV, the API with an edit and a delete, in Danish, Norwegian and Swedish
from the package's own catalogues; then the conformance kit, and the package's own tests."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

from helpers import ROOT
from scorekeeper.core import VARIANTS

PACKAGE = ROOT / "examples" / "variant-package"

PLAY = textwrap.dedent(
    r'''
    """Israeli whist played through the app as installed in this environment."""

    import csv
    import io
    import json
    import re
    import sys
    from pathlib import Path

    import scorekeeper.core as core
    import scorekeeper_israeli
    from scorekeeper.testing import kit
    from scorekeeper_israeli import examples


    def text(r):
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r.get_data(as_text=True)))


    def main(folder):
        seen = {"package": scorekeeper_israeli.__file__, "variants": list(core.VARIANTS), "broken": dict(core.BROKEN)}
        app = kit.make_app(folder)
        client = app.test_client()
        seen["titles"] = {lang: "Israeli whist" in text(client.get(f"/new?lang={lang}")) for lang in ("en",)}
        seen["words"] = {
            lang: [w for w in words if w in text(client.get(f"/new/israeli?lang={lang}"))]
            for lang, words in {
                "da": ["Israelsk whist", "Laveste melding i trumfauktionen"],
                "nb": ["Israelsk whist", "Laveste melding i trumfauksjonen"],
                "sv": ["Israelisk whist", "Lägsta bud i trumfauktionen"],
            }.items()
        }
        # A game from the new-game page, as a browser sends it.
        new = client.get("/new/israeli").get_data(as_text=True)
        data = {**kit.form_data(new), "dealer": "0", "opt_deals": "2"}
        data.update({f"player{i}": name for i, name in enumerate(examples.PLAYERS)})
        started = client.post("/new/israeli", data=data)
        gid = started.headers["Location"].rsplit("/", 1)[-1]
        page = client.get(f"/g/{gid}/hands/new?lang=da")
        seen["button"] = "Smidt ind (alle pas): næste spil tæller dobbelt" in text(page)
        seen["stylesheet"] = client.get("/static/variants/israeli/israeli.css").status_code
        # A deal thrown in, in one tap; the next deal counts double, and counts for the game's deals.
        form = kit.form_data(page.get_data(as_text=True))
        seen["thrown"] = client.post(f"/g/{gid}/hands/new", data={**form, "passed": "1"}).status_code
        doubled = client.get(f"/g/{gid}/hands/new").get_data(as_text=True)
        seen["doubled"] = "This deal counts ×2" in doubled
        # The bids first (the auction and the calls), the last to call making 13: refused by his row, named.
        bids = client.get(f"/g/{gid}/bids").get_data(as_text=True)
        taps = {"declarer": "1", "bid": "6", "trump": "spades", "p0": "4", "p1": "6", "p2": "2", "p3": "1"}
        refused = client.post(f"/g/{gid}/bids", data={**kit.form_data(bids), **taps})
        seen["refused"] = [refused.status_code, "Avi calls last and may not make the calls add up to 13" in text(refused)]
        taps["p0"] = "2"
        seen["bids"] = client.post(f"/g/{gid}/bids", data={**kit.form_data(bids), **taps}).status_code
        game = client.get(f"/api/games/{gid}").json
        seen["open_deal"] = game["open_deal"]
        seen["live"] = client.get(f"/g/{gid}/live").status_code
        # The tricks complete the hand: the last player's filled in.
        hand = client.get(f"/g/{gid}/hands/new").get_data(as_text=True)
        done = client.post(f"/g/{gid}/hands/new", data={**kit.form_data(hand), "t0": "2", "t1": "5", "t2": "4"})
        seen["hand"] = done.status_code
        game = client.get(f"/api/games/{gid}").json
        seen["game"] = {k: game[k] for k in ("totals", "deals_left", "finished", "next_factor")}
        seen["hands"] = [{k: h[k] for k in ("points", "factor")} for h in game["hands"]]
        protokoll = text(client.get(f"/g/{gid}?lang=da"))
        seen["protokoll"] = ["Smidt ind (alle pas)" in protokoll, "1 spil tilbage" in protokoll or "1 giv tilbage" in protokoll]
        printed = text(client.get(f"/g/{gid}/print?lang=sv"))
        seen["print"] = ["Israelisk whist" in printed, "2/2" in printed]
        pdf = client.get(f"/g/{gid}/sheet.pdf?lang=nb")
        seen["pdf"] = [pdf.status_code, pdf.mimetype, pdf.data[:5].decode()]
        blank = client.get("/blank/israeli.pdf")
        seen["blank"] = [blank.status_code, blank.data[:5].decode()]
        rows = list(csv.DictReader(io.StringIO(client.get(f"/g/{gid}/hands.csv").data.decode("utf-8-sig"))))
        seen["csv"] = [examples.from_csv(row, game) for row in rows] == [h["input"] for h in game["hands"]]
        # The API: a game, a hand, an edit, a delete.
        made = client.post("/api/games", json={"variant": "israeli", "players": examples.PLAYERS, "options": {"deals": 3}}).json
        key = {"X-Edit-Key": made["edit_key"]}
        api = [client.post(f"/api/games/{made['id']}/hands", json=h, headers=key).status_code for h in examples.GAME["hands"]]
        api.append(client.put(f"/api/games/{made['id']}/hands/3", json=examples.GAME["hands"][0], headers=key).status_code)
        api.append(client.delete(f"/api/games/{made['id']}/hands/1", headers=key).status_code)
        seen["api"] = api
        seen["after"] = [h["points"] for h in client.get(f"/api/games/{made['id']}").json["hands"]]
        # Every page, paper, export and API answer at every stage, in each language: the app's own kit.
        kit.check(app, "israeli")
        seen["kit"] = "passed"
        print(json.dumps(seen))


    if __name__ == "__main__":  # the PDF renderer's processes import this file again
        main(Path(sys.argv[1]))
    '''
)


def run(args, **kw) -> subprocess.CompletedProcess:
    done = subprocess.run(args, capture_output=True, text=True, timeout=600, **kw)
    assert done.returncode == 0, f"{args}:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    """A virtual environment with the example package installed from a copy of its folder (pip builds in the
    folder it is given), beside this environment's packages (the app among them)."""
    root = tmp_path_factory.mktemp("plugin")
    source = root / "variant-package"
    shutil.copytree(PACKAGE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", "*.mo"))
    env = root / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(env)])  # not the machine's site-packages: only ours (.pth)
    python = env / "bin" / "python"
    site = Path(run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
    ours = sysconfig.get_paths()["purelib"]  # this environment's packages: flask, pip, setuptools, the app (editable)
    (site / "scorekeeper-env.pth").write_text(f"import site; site.addsitedir({ours!r})\n")
    run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--no-index", str(source)])
    return python, source, root


@pytest.mark.slow
@pytest.mark.needs_program
def test_an_installed_variant_package_plays_everywhere_in_its_own_words(venv):
    python, source, root = venv
    script = root / "play.py"
    script.write_text(PLAY, encoding="utf-8")
    folder = root / "app"
    folder.mkdir()
    seen = json.loads(run([str(python), str(script), str(folder)], cwd=root).stdout.strip().splitlines()[-1])
    assert Path(seen["package"]).is_relative_to(python.parent.parent)  # installed there, not read from the checkout
    assert "israeli" in seen["variants"] and set(VARIANTS) <= set(seen["variants"]) and seen["broken"] == {}
    assert seen["titles"] == {"en": True}
    assert seen["words"] == {
        "da": ["Israelsk whist", "Laveste melding i trumfauktionen"],
        "nb": ["Israelsk whist", "Laveste melding i trumfauksjonen"],
        "sv": ["Israelisk whist", "Lägsta bud i trumfauktionen"],
    }
    assert seen["button"] and seen["stylesheet"] == 200 and seen["thrown"] == 302 and seen["doubled"]
    assert seen["refused"] == [400, True] and seen["bids"] == 302 and seen["live"] == 200
    assert seen["open_deal"]["factor"] == 2 and seen["open_deal"]["over_under"] == "under"
    assert seen["hand"] == 302
    # Hand 2 doubled: Avi exact 2 (2² + 10), Noa one short (-10), Eli two over (-20), Tal one over (-10); ×2.
    assert seen["hands"] == [{"points": [0, 0, 0, 0], "factor": 1}, {"points": [28, -20, -40, -20], "factor": 2}]
    assert seen["game"] == {"totals": [28, -20, -40, -20], "deals_left": 1, "finished": False, "next_factor": 1}
    assert seen["protokoll"] == [True, True] and seen["print"] == [True, True]
    assert seen["pdf"] == [200, "application/pdf", "%PDF-"] and seen["blank"] == [200, "%PDF-"]
    assert seen["csv"] is True
    assert seen["api"] == [201, 201, 201, 200, 200]
    assert seen["kit"] == "passed"


@pytest.mark.slow
@pytest.mark.needs_program
def test_the_packages_own_tests_pass_where_it_is_installed(venv):
    python, source, root = venv
    # Run from outside its folder, as the installed package's (its folder holds the catalogues uncompiled).
    done = run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", str(source / "tests")], cwd=root)
    assert " passed" in done.stdout and "failed" not in done.stdout


def test_no_file_of_the_app_names_the_example_variant():
    """It plays with no file of the app changed: nothing in the package, its templates or its registration knows it."""
    named = [
        str(path.relative_to(ROOT))
        for top in ("scorekeeper", "templates")
        for path in (ROOT / top).rglob("*")
        if path.is_file()
        and path.suffix in (".py", ".html", ".css", ".js", ".po", ".pot")
        and "israeli" in path.read_text()
    ]
    assert named == [] and "israeli" not in (ROOT / "pyproject.toml").read_text()
    assert "israeli" not in VARIANTS  # installed only in the test's own environment


@pytest.mark.slow
@pytest.mark.needs_program
def test_the_apps_tests_over_every_variant_play_the_installed_one_too(venv):
    """The app's tests that go through every registered variant take the installed one's data from its package
    (tests/variants/__init__.py, the kit's example hook): its properties, its contract, its view, the kit."""
    python, source, root = venv
    files = [
        "tests/unit/test_scoring_properties.py",
        "tests/unit/test_variant_contract.py",
        "tests/integration/test_variant_views.py",
        "tests/integration/test_kit.py",
    ]
    done = run(
        [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", "-k", "israeli", *files], cwd=ROOT
    )
    passed = int(done.stdout.rsplit(" passed", 1)[0].split()[-1])
    assert passed >= 10 and "failed" not in done.stdout, done.stdout[-2000:]
