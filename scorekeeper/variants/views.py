"""The variants' presentation plug-ins: `VIEWS[name]` is the view of the variant's package (`<package>.view`, the
package its entry point names: core/registry.py) for each core variant, with the contract's defaults
(variants/view_defaults.py) for what it leaves out.

Built from the core registry: a variant whose view does not load, or falls short of the contract, is reported and left
out of the core's registry too (core.withdraw), so that no page offers a variant it cannot show. A variant's package
may also hold `templates/` (its hand page: templates/hand.html is `variants/<name>/hand.html`), `static/` (served
under /static/variants/<name>/) and `translations/` (its own catalogues): the app finds them here.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from flask import Blueprint
from jinja2 import BaseLoader, ChoiceLoader, FileSystemLoader, PrefixLoader

from scorekeeper.core import PACKAGES, VARIANTS, withdraw
from scorekeeper.variants import view_shared as shared
from scorekeeper.variants.view_contract import View, missing


def load(name: str) -> View:
    """The view of variant `name` (its package's view.py), checked against the contract."""
    package = PACKAGES[name]
    try:
        module = importlib.import_module(f"{package}.view")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.view":
            raise
        raise ImportError(f"variant {name!r} has rules in {package}.rules but no view.py beside them") from None
    lacking = missing(module)
    if lacking:
        raise ImportError(f"{package}.view lacks {', '.join(lacking)} of the VariantView contract")
    return View(module)


def _load_all() -> dict[str, View]:
    views = {}
    for name in list(VARIANTS):
        try:
            views[name] = load(name)
        except Exception as exc:  # a plug-in's own error, whatever it is: reported, not raised
            withdraw(name, f"{type(exc).__name__}: {exc}")
    return views


VIEWS: dict[str, View] = _load_all()


def package_folder(name: str) -> Path:
    """The folder of variant `name`'s package (where its view.py is)."""
    return Path(VIEWS[name].module.__file__ or "").parent


def own_folders(kind: str) -> dict[str, Path]:
    """Each variant's own folder of a kind (`templates`, `static`, `translations`) in its package, where it has one."""
    return {name: package_folder(name) / kind for name in VIEWS if (package_folder(name) / kind).is_dir()}


def template_loader(app_loader: BaseLoader | None) -> BaseLoader | None:
    """The app's templates, then each variant package's own `templates/` under `variants/<name>/` (its hand.html is
    `variants/<name>/hand.html`, as VIEWS[name].HAND_TEMPLATE names it), a built-in variant's as a plug-in's."""
    folders = own_folders("templates")
    if not folders:
        return app_loader
    own = PrefixLoader({"variants": PrefixLoader({name: FileSystemLoader(str(f)) for name, f in folders.items()})})
    return ChoiceLoader([app_loader, own] if app_loader is not None else [own])


def translation_folders() -> list[str]:
    """Each variant package's own catalogues (`translations/<lang>/LC_MESSAGES/messages.mo`), a built-in's as a
    plug-in's, read beside the app's shared ones (Flask-Babel merges the folders' catalogues; the shared ones are read
    last, so a package adds words and changes none; a built-in's word the shared ones hold too is translated the
    same in both: tests/integration/test_translations.py)."""
    return [str(folder) for folder in own_folders("translations").values()]


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


def static_blueprints() -> list[Blueprint]:
    """A blueprint per variant with a `static/` folder in its package, served under /static/variants/<name>/, so
    that its view names its files as `variants/<name>/<file>` and a page asks for them with
    `url_for("static", filename=…)` as for every other static file."""
    return [
        Blueprint(
            f"variant_static_{name}", __name__, static_folder=str(folder), static_url_path=f"/static/variants/{name}"
        )
        for name, folder in own_folders("static").items()
    ]


def static_folders() -> list[Path]:
    """Every folder static files are served from besides the app's own (the service worker's version hashes them)."""
    return list(own_folders("static").values())
