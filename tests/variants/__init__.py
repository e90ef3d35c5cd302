"""Each variant's own test data, in tests/variants/<name>/__init__.py (an installed plug-in's: its package's
examples.py): a new variant adds its file here instead of editing shared dicts, and every test that goes through all
variants (pages, API, print, CSV, backup, properties, the benchmark) takes what it needs from EXAMPLES. A registered variant without a file, or a file short of a member,
stops the import: such a variant would otherwise be silently left out.

What a file provides (tests/variants/german/__init__.py is the shortest):
- PLAYERS: names for its usual table; TABLES: the table sizes the property tests play (its PLAYER_COUNTS if left out).
- GAME: a short game through the API: {"options", "hands"} and maybe "players", with its special inputs.
- FORM_HANDS: a few hands as its hand page posts them (the taps), for the page tests.
- BLANK_COLUMNS: the headings of its blank sheet in English.
- LONG: (options, the most hands the rules allow with them, or None) and long_hands(n, seed): hands that keep a game
  going, for the cost tests and bench/run.py.
- hand(draw, setup, index): one valid hand for hand number index + 1 (a hypothesis draw); OPTION_SETS: options the
  property tests start games with; CONTEXT_FREE: its points depend on the hand alone, never on the score before.
- from_csv(row, game): a hand's input read back from its CSV row (names back to seats).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from hypothesis import strategies as st

from scorekeeper.core import PACKAGES, VARIANTS

MEMBERS = (
    "PLAYERS",
    "GAME",
    "FORM_HANDS",
    "BLANK_COLUMNS",
    "LONG",
    "long_hands",
    "hand",
    "OPTION_SETS",
    "CONTEXT_FREE",
    "from_csv",
)


# A CSV cell read back to what the API takes: the CSV writes a trump as the sheet prints it (issue 44).
TRUMP_CODES = {"♥": "hearts", "♦": "diamonds", "♣": "clubs", "♠": "spades", "NT": "none"}


def trump_code(cell: str) -> str:
    return TRUMP_CODES.get(cell, cell)


def load(name: str) -> ModuleType:
    """tests/variants/<name>/ of a built-in variant; an installed plug-in's own examples.py (its package's: the hook
    the conformance kit reads, scorekeeper/testing/kit.py), so an installed variant plays in these tests too."""
    where = f"tests/variants/{name}/__init__.py"
    try:
        module = importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{name}":
            raise
        package = PACKAGES.get(name)
        module = _own_examples(package) if package else None
        if module is None:
            raise ImportError(f"variant {name!r} has no {where} (nor {package or 'its package'}.examples)") from None
        where = f"{package}.examples"
    lacking = [m for m in MEMBERS if not hasattr(module, m)]
    if lacking:
        raise ImportError(f"{where} lacks {', '.join(lacking)}")
    return module


def _own_examples(package: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"{package}.examples")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.examples":
            raise
        return None


EXAMPLES: dict[str, ModuleType] = {name: load(name) for name in VARIANTS}


def tables(name: str) -> tuple[int, ...]:
    return getattr(EXAMPLES[name], "TABLES", None) or VARIANTS[name].PLAYER_COUNTS


def players(name: str, n: int | None = None) -> list[str]:
    """Its example players, or n names (more are made up when the example table is smaller)."""
    names = list(EXAMPLES[name].PLAYERS)
    if n is None:
        return names
    extra = ["Erik", "Frida", "Gunnar", "Hanne", "Ivar", "Jonna", "Kjell", "Lise"]
    return (names + [x for x in extra if x not in names])[:n]


def hands(setup, index: int):
    """A hypothesis strategy of one valid hand for hand number index + 1 of the game `setup`."""
    return st.composite(lambda draw: EXAMPLES[setup.variant].hand(draw, setup, index))()
