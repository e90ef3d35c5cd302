"""The variants' presentation plug-ins: `VIEWS[name]` is the module `web/variants/<name>.py` for each core variant.

Built from the core registry, so a core variant without a view (or a view short of the contract) stops the import.
"""

from __future__ import annotations

import importlib

from scorekeeper.core import VARIANTS
from scorekeeper.web.variants.contract import VariantView, missing


def _load(name: str):
    try:
        view = importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{name}":
            raise
        raise ImportError(
            f"variant {name!r} has rules in scorekeeper/core but no scorekeeper/web/variants/{name}.py"
        ) from None
    lacking = missing(view)
    if lacking:
        raise ImportError(f"scorekeeper/web/variants/{name}.py lacks {', '.join(lacking)} of the VariantView contract")
    return view


VIEWS: dict[str, VariantView] = {name: _load(name) for name in VARIANTS}
# A new club plays the first variant played for money (zero-sum), unless it asks for another.
CLUB_VARIANT = next(name for name, rules in VARIANTS.items() if rules.ZERO_SUM)
# Every named tariff preset, for the blank-sheet form that offers them.
TARIFF_PRESETS = {name: preset for view in VIEWS.values() for name, preset in view.TARIFF_PRESETS.items()}
