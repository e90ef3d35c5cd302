"""`make messages`: every catalogue's words extracted afresh and merged into its da, nb and sv catalogues.

There is a catalogue per package of words (docs/languages.md):

- the shared one, scorekeeper/translations/, holds what the shared files say: the files babel.cfg maps (the package's
  modules but the variants' own folders, and the top-level templates/);
- each built-in variant's, scorekeeper/variants/<name>/translations/, holds what its own package says: its modules
  (rules.py, view.py and the others) and its templates/ (VARIANT_MAP: as an installed plug-in's babel.cfg maps its
  package).

A string both use is in both. For each catalogue the template (messages.pot) is extracted as `pybabel extract -k _l
-k Msg --no-location --sort-output -w 100` does, and each <lang>/LC_MESSAGES/messages.po is updated from it as
`pybabel update --no-fuzzy-matching --ignore-pot-creation-date -w 100` does. Then a translation is carried: a message
the update leaves untranslated gets the translation another catalogue held for it before the run (the shared one
first, then the variants' in name order), else the one an obsolete entry (`#~`) keeps, its own catalogue's first; so a
string that moves from a variant's view into a shared helper, or back, keeps its words. An obsolete entry whose message
a catalogue holds now is dropped: it moved there. A variant without catalogues gets them on its first run, headed as
the shared ones are.

A run that finds no new string changes no file: a template keeps its POT-Creation-Date unless its messages changed,
and a file is written only when its bytes change. `--check` writes nothing and lists what a run would change (exit
status 1 if anything). Public Babel API only: babel.messages.extract, .pofile and .catalog.
"""

from __future__ import annotations

import argparse
import configparser
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from io import BytesIO
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("da", "nb", "sv")
KEYWORDS = {**DEFAULT_KEYWORDS, "_l": None, "Msg": None}  # lazy_gettext as _l; core/messages.py's Msg
WIDTH = 100
# A variant package's files with words, relative to its folder: its modules and its templates/.
VARIANT_MAP = [("**.py", "python"), ("templates/**.html", "jinja2")]
PROJECT = "scorekeeper"


@dataclass(frozen=True)
class Package:
    """A package of words: where its files are (`source`, the method map's patterns relative to it) and its
    catalogues (`folder`: messages.pot and <lang>/LC_MESSAGES/messages.po)."""

    name: str  # "shared", or the variant's name
    source: Path
    method_map: list[tuple[str, str]]
    options_map: dict[str, dict[str, str]]
    folder: Path

    def po(self, lang: str) -> Path:
        return self.folder / lang / "LC_MESSAGES" / "messages.po"

    @property
    def pot(self) -> Path:
        return self.folder / "messages.pot"


def babel_cfg(path: Path) -> tuple[list[tuple[str, str]], dict[str, dict[str, str]]]:
    """The method map and options of a babel.cfg (`[method: pattern]` sections, as `pybabel extract -F` reads it)."""
    parser = configparser.RawConfigParser()
    parser.read_string(path.read_text(encoding="utf-8"))
    method_map, options_map = [], {}
    for section in parser.sections():
        if section == "extractors":
            continue
        method, pattern = (part.strip() for part in section.split(":", 1))
        method_map.append((pattern, method))
        options_map[pattern] = dict(parser.items(section))
    return method_map, options_map


def packages(root: Path = ROOT) -> list[Package]:
    """The shared package first, then each built-in variant (a folder of scorekeeper/variants/ with a rules.py)."""
    method_map, options_map = babel_cfg(root / "babel.cfg")
    shared = Package("shared", root, method_map, options_map, root / "scorekeeper" / "translations")
    variants = sorted(p for p in (root / "scorekeeper" / "variants").iterdir() if (p / "rules.py").is_file())
    return [shared, *(Package(p.name, p, VARIANT_MAP, {}, p / "translations") for p in variants)]


def variant_package(folder: Path) -> Package:
    """An installed plug-in's package, read as a built-in's is (the tests check its catalogues with it)."""
    return Package(folder.name, folder, VARIANT_MAP, {}, folder / "translations")


def messages_of(package: Package) -> Catalog:
    """What the package's files say, as `pybabel extract` collects it (locations kept here, left out when written)."""
    catalog = Catalog(project=PROJECT, header_comment=_header(package, None), charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
        str(package.source), package.method_map, package.options_map, keywords=KEYWORDS
    ):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def _header(package: Package, lang: str | None) -> str:
    what = "Translations template" if lang is None else f"{Locale.parse(lang).english_name} translations"
    whose = "shared code and templates" if package.name == "shared" else f"{package.name} variant (its package)"
    return f"# {what} for scorekeeper's {whose}.\n# `make messages` keeps it (scripts/messages.py)."


def _bytes(catalog: Catalog, **options) -> bytes:
    out = BytesIO()
    write_po(out, catalog, width=WIDTH, **options)
    return out.getvalue()


def _read(path: Path, lang: str | None = None) -> Catalog | None:
    if not path.is_file():
        return None
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def key(message: Message) -> str | tuple[str, str]:
    """A message's key in a catalogue (its singular id, with its context if it has one), as Babel keys it."""
    msgid = message.id if isinstance(message.id, str) else message.id[0]
    return msgid if message.context is None else (msgid, message.context)


def translated(message: Message) -> bool:
    strings = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
    return bool(message.id) and not message.fuzzy and all(strings)


def _same_shape(source: Message, target: Message, plurals: int) -> bool:
    if isinstance(target.id, str):
        return isinstance(source.string, str)
    return isinstance(source.string, (list, tuple)) and len(source.string) == plurals


def carry(catalog: Catalog, *sources: dict) -> None:
    """Each message of the catalogue without a translation gets the first one the sources (key → message) have for it,
    of its shape (one string, or one per plural form)."""
    for message in catalog:
        strings = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
        if not message.id or any(strings):
            continue
        for source in (found for source in sources if (found := source.get(key(message))) is not None):
            if _same_shape(source, message, catalog.num_plurals):
                message.string = source.string
                message.user_comments = message.user_comments or list(source.user_comments)
                break


def template(package: Package, now: datetime) -> bytes:
    """The package's messages.pot: its extracted messages under the old file's date unless they changed."""
    catalog = messages_of(package)
    old = package.pot.read_bytes() if package.pot.is_file() else None
    if old is not None:
        before = _read(package.pot)
        assert before is not None
        catalog.creation_date = before.creation_date
        same = _bytes(catalog, no_location=True, sort_output=True)
        if same == old:
            return old
    catalog.creation_date = now
    return _bytes(catalog, no_location=True, sort_output=True)


def _new_po(package: Package, lang: str, shared: Catalog | None, pot: Catalog) -> Catalog:
    """A variant's first catalogue in `lang` (`pybabel init`), headed as the shared one is."""
    return Catalog(
        locale=lang,
        header_comment=_header(package, lang),
        project=PROJECT,
        version=shared.version if shared else None,
        creation_date=pot.creation_date,
        revision_date=shared.revision_date if shared else pot.creation_date,
        last_translator=shared.last_translator if shared else None,
        language_team=shared.language_team if shared else None,
        charset="utf-8",
        fuzzy=False,
    )


def plan(root: Path = ROOT, now: datetime | None = None) -> dict[Path, bytes]:
    """Every catalogue file `make messages` writes (each package's messages.pot and its da, nb, sv messages.po), with
    its new content; a file whose content is the same as on disk is in it too."""
    now = now or datetime.now(UTC).replace(second=0, microsecond=0)
    every = packages(root)
    out: dict[Path, bytes] = {}
    for package in every:
        out[package.pot] = template(package, now)
    for lang in LANGS:
        before = {package.name: _read(package.po(lang), lang) for package in every}
        # What the catalogues held before the run: their translations, then what their obsolete entries keep.
        memory: dict = {}
        kept: dict = {}
        for catalog in filter(None, before.values()):
            for message in catalog:
                if translated(message):
                    memory.setdefault(key(message), message)
            for message in catalog.obsolete.values():
                if translated(message):
                    kept.setdefault(key(message), message)
        after: dict[str, Catalog] = {}
        for package in every:
            pot = read_po(BytesIO(out[package.pot]))  # read afresh for each language: the update keeps its messages
            catalog = before[package.name] or _new_po(package, lang, before["shared"], pot)
            own = {key(m): m for m in catalog.obsolete.values() if translated(m)}
            catalog.update(pot, no_fuzzy_matching=True, update_creation_date=False)
            carry(catalog, memory, own, kept)
            after[package.name] = catalog
        held = {name: {key(m) for m in catalog if m.id} for name, catalog in after.items()}
        for package in every:
            catalog = after[package.name]
            elsewhere = set().union(*(keys for name, keys in held.items() if name != package.name))
            for k in [k for k in catalog.obsolete if k in held[package.name] or k in elsewhere]:
                del catalog.obsolete[k]
            out[package.po(lang)] = _bytes(catalog)
    return out


def changes(planned: dict[Path, bytes]) -> list[Path]:
    """The files whose content the plan changes."""
    return [path for path, data in planned.items() if not path.is_file() or path.read_bytes() != data]


def write(planned: dict[Path, bytes]) -> list[Path]:
    changed = changes(planned)
    for path in changed:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(planned[path])
    return changed


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; list what a run would change")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout (default: this script's)")
    args = parser.parse_args(list(argv) if argv is not None else None)
    planned = plan(args.root.resolve())
    changed = changes(planned) if args.check else write(planned)
    for path in changed:
        print(f"{'would change' if args.check else 'wrote'} {path.relative_to(args.root.resolve())}")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
