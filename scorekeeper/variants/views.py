"""The variants' presentation plug-ins: `VIEWS[name]` is the view of `variants/<name>/view.py` for each core variant,
with the contract's defaults (variants/view_defaults.py) for what it leaves out.

Built from the core registry, so a core variant without a view (or a view short of the contract) stops the import.
"""

from __future__ import annotations

import importlib

from scorekeeper.core import VARIANTS
from scorekeeper.variants import view_shared as shared
from scorekeeper.variants.view_contract import View, missing

PACKAGE = __name__.rpartition(".")[0]  # scorekeeper.variants: a variant's view is <PACKAGE>.<name>.view


def load(name: str) -> View:
    """The view of variant `name`, checked against the contract."""
    try:
        module = importlib.import_module(f"{PACKAGE}.{name}.view")
    except ModuleNotFoundError as exc:
        if exc.name != f"{PACKAGE}.{name}.view":
            raise
        raise ImportError(
            f"variant {name!r} has rules in scorekeeper/variants/{name}/rules.py but no view.py beside them"
        ) from None
    lacking = missing(module)
    if lacking:
        raise ImportError(f"scorekeeper/variants/{name}/view.py lacks {', '.join(lacking)} of the VariantView contract")
    return View(module)


VIEWS: dict[str, View] = {name: load(name) for name in VARIANTS}


def club_variant() -> str:
    """A new club plays the first variant a club may play for money, unless it asks for another."""
    return next(name for name, rules in VARIANTS.items() if rules.FOR_MONEY)


def tariff_presets() -> dict:
    """Every named tariff preset, for the blank-sheet form that offers them: name → (variant, the options)."""
    return {name: (variant, preset) for variant, view in VIEWS.items() for name, preset in view.TARIFF_PRESETS.items()}


def option_labels(variant: str) -> dict:
    """A label for each of the variant's options: its own, else the shared one, else the option's name."""
    own = VIEWS[variant].OPTION_LABELS
    return {name: own.get(name) or shared.OPTION_LABELS.get(name) or name for name in VARIANTS[variant].OPTIONS}


CLUB_VARIANT = club_variant()
