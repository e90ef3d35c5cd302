"""Each variant's own test data, in tests/variants/<name>.py: a new variant adds its file here instead of editing
shared dicts, and every test that goes through all variants (pages, API, print, CSV, backup, properties, the
benchmark) takes what it needs from EXAMPLES. A registered variant without a file, or a file short of a member,
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

from scorekeeper.core import VARIANTS

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


def load(name: str) -> ModuleType:
    try:
        module = importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{name}":
            raise
        raise ImportError(f"variant {name!r} has no tests/variants/{name}.py: its examples and strategies") from None
    lacking = [m for m in MEMBERS if not hasattr(module, m)]
    if lacking:
        raise ImportError(f"tests/variants/{name}.py lacks {', '.join(lacking)}")
    return module


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
