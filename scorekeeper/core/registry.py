"""Which variants there are: every package registered under the entry-point group `scorekeeper.variants`, as pytest
and Datasette find their plug-ins. The nine built-in variants register the same way (pyproject.toml's
[project.entry-points."scorekeeper.variants"]), so the app's list of variants is what is installed.

The registry is read when it is first looked at, not when `scorekeeper.core` is imported: a variant's rules module
imports the core, so a program that imports one before the core would otherwise find it half-imported (`Lazy`).

An entry point names a variant's package (`danish = "scorekeeper.variants.danish"`); the package holds `rules.py`
(pure, read here) and `view.py` (its pages, read by variants/views.py), and may hold `templates/`, `static/`,
`translations/` and `examples.py` (its data for the conformance kit, scorekeeper/testing/kit.py). A package that does
not load or falls short of the contract is reported (logged, and kept in BROKEN with its error) and left out, so one
broken plug-in does not take the app down. Pure: the standard library and the variants' rules modules, no Flask.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Iterable, Iterator, MutableMapping
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from types import ModuleType
from typing import TypeVar

from scorekeeper.core import defaults
from scorekeeper.core.contract import REQUIRED, VariantModule

GROUP = "scorekeeper.variants"
log = logging.getLogger("scorekeeper.variants")


@dataclass
class Registry:
    """What the entry points gave: each variant's rules module and package by name, in menu order (ORDER, then NAME),
    and each plug-in left out with why."""

    rules: dict[str, ModuleType] = field(default_factory=dict)
    packages: dict[str, str] = field(default_factory=dict)
    broken: dict[str, str] = field(default_factory=dict)


def registered(group: str = GROUP) -> list[EntryPoint]:
    """The installed entry points of the group, by name (a name registered twice: every one, to be refused)."""
    return sorted(entry_points(group=group), key=lambda e: (e.name, e.value))


def load_rules(entry: EntryPoint) -> tuple[ModuleType, str]:
    """The rules module of the package an entry point names, and the package's name; raises ImportError saying what
    is wrong (not a package, no rules.py, short of the contract, a NAME other than the entry point's)."""
    package = entry.load()
    if not isinstance(package, ModuleType) or not hasattr(package, "__path__"):
        raise ImportError(f"{entry.value} is not a package (a folder with rules.py and view.py)")
    try:
        module = importlib.import_module(f"{package.__name__}.rules")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package.__name__}.rules":
            raise
        raise ImportError(f"{package.__name__} has no rules.py") from None
    if not isinstance(module, VariantModule):
        lacking = [name for name in REQUIRED if not hasattr(module, name)]
        raise ImportError(f"{module.__name__} lacks {', '.join(lacking)} of the variant contract (core/contract.py)")
    if entry.name != module.NAME:
        raise ImportError(f"{module.__name__} says NAME = {module.NAME!r}, but its entry point is {entry.name!r}")
    return module, package.__name__


def discover(entries: Iterable[EntryPoint] | None = None) -> Registry:
    """Every variant the entry points register, in menu order; a plug-in that fails is reported and left out."""
    found: dict[str, tuple[ModuleType, str]] = {}
    broken: dict[str, str] = {}
    entries = registered() if entries is None else list(entries)
    twice = {e.name for e in entries if sum(other.name == e.name for other in entries) > 1}
    for entry in entries:
        if entry.name in twice:
            values = sorted(e.value for e in entries if e.name == entry.name)
            broken[entry.name] = f"the name {entry.name!r} is registered twice: {', '.join(values)}"
            continue
        try:
            found[entry.name] = load_rules(entry)
        except Exception as exc:  # a plug-in's own error, whatever it is: reported, not raised
            broken[entry.name] = f"{type(exc).__name__}: {exc}"
    for name, error in broken.items():
        log.error("variant %r is left out: %s", name, error)
    order = sorted(found.values(), key=lambda pair: (getattr(pair[0], "ORDER", defaults.ORDER), pair[0].NAME))
    return Registry(
        rules={module.NAME: module for module, _package in order},
        packages={module.NAME: package for module, package in order},
        broken=broken,
    )


_installed: list[Registry] = []  # the registry of the installed packages, once read


def installed() -> Registry:
    """The installed variants, read from the entry points the first time they are asked for."""
    if not _installed:
        _installed.append(discover())
    return _installed[0]


V = TypeVar("V")


class Lazy(MutableMapping[str, V]):
    """A mapping of the registry (core's VARIANTS, PACKAGES, BROKEN) made by `make` when it is first read; a plain dict
    after that, which a test may patch and `core.withdraw` may take a variant out of."""

    def __init__(self, make: Callable[[], dict[str, V]]) -> None:
        self._make = make
        self._data: dict[str, V] | None = None

    def _dict(self) -> dict[str, V]:
        if self._data is None:
            self._data = self._make()
        return self._data

    def __getitem__(self, key: str) -> V:
        return self._dict()[key]

    def __setitem__(self, key: str, value: V) -> None:
        self._dict()[key] = value

    def __delitem__(self, key: str) -> None:
        del self._dict()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._dict())

    def __len__(self) -> int:
        return len(self._dict())

    def __repr__(self) -> str:
        return repr(self._dict())
