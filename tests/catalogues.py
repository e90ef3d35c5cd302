"""The catalogues as the tests read them: the app's shared one and each built-in variant's, as `make messages` keeps
them (scripts/messages.py, loaded here as MESSAGES), and an installed plug-in's (its package's translations/)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]


def _script():
    spec = importlib.util.spec_from_file_location("scorekeeper_messages_script", ROOT / "scripts" / "messages.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


MESSAGES = _script()
LANGS = MESSAGES.LANGS
EXAMPLE_PLUG_IN = ROOT / "examples" / "variant-package" / "scorekeeper_israeli"


def app_packages() -> list:
    """The shared package and each built-in variant's: the catalogues the app ships."""
    return MESSAGES.packages(ROOT)


def plug_in_packages() -> list:
    """Each installed plug-in's package (a variant whose package is outside scorekeeper/), and the example's."""
    from scorekeeper.variants.views import VIEWS, package_folder

    folders = {package_folder(name) for name in VIEWS} | {EXAMPLE_PLUG_IN}
    outside = sorted(f for f in folders if not f.is_relative_to(ROOT / "scorekeeper"))
    return [MESSAGES.variant_package(folder) for folder in outside]


def read(path: Path, lang: str) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def merged(lang: str) -> dict:
    """msgid → msgstr over every catalogue the app ships, as Flask-Babel merges them (the shared one last)."""
    out: dict = {}
    for package in reversed(app_packages()):
        out.update({m.id: m.string for m in read(package.po(lang), lang) if m.id})
    return out
