"""Every registered variant has its presentation plug-in: a view module with what the VariantView contract requires,
its own members taking the contract's parameters, the defaults (variants/view_defaults.py) for every other member, a
hand template that exists, and docs/adding-a-variant.md names every contract member (so the walk-through stays
true)."""

from __future__ import annotations

import inspect

import pytest

from helpers import ROOT
from scorekeeper.core import VARIANTS, make_setup, play
from scorekeeper.core.messages import Choices, InputError
from scorekeeper.variants import view_contract as contract
from scorekeeper.variants import view_defaults as defaults
from scorekeeper.variants import view_shared as shared
from scorekeeper.variants.views import VIEWS, option_labels, package_folder
from variants import EXAMPLES

DOC = (ROOT / "docs" / "adding-a-variant.md").read_text()
HOOKS = {**contract.functions(contract.ViewModule), **contract.functions(contract.ViewDefaults)}


def test_every_core_variant_has_a_view():
    assert list(VIEWS) == list(VARIANTS)


def test_the_contract_requires_little_and_defaults_the_rest():
    assert set(contract.REQUIRED) == {"NAME", "HandForm", "hand_words", "blank_columns"}
    for name in contract.OPTIONAL:
        assert hasattr(defaults, name), f"variants/view_defaults.py has no default for {name}"
    for name, signature in contract.functions(contract.ViewDefaults).items():
        wanted = [p for p in signature.parameters if p != "self"]
        assert list(inspect.signature(getattr(defaults, name)).parameters) == wanted, name


def listed_choices(name: str) -> set:
    """The values a hand's refusals list (core Choices: "is missing: one of prop, solo …"), read off an empty hand."""
    try:
        play(make_setup(name, list(EXAMPLES[name].PLAYERS), 0, {}), [{}])
    except InputError as exc:
        return {
            code
            for message in exc.errors.values()
            for value in getattr(message, "values", {}).values()
            if isinstance(value, Choices)
            for code in value.codes
        }
    return set()


def test_the_listed_choices_are_read_off_an_empty_hand():
    assert listed_choices("solo") >= {"prop", "royal_abundance"} and listed_choices("bid") == {
        "uptown",
        "downtown",
        "no_trump",
    }


@pytest.mark.parametrize("name", list(VARIANTS))
def test_the_view_provides_the_contract(name):
    view = VIEWS[name]
    assert contract.missing(view.module) == []
    assert name == view.NAME
    for member in contract.members():
        assert getattr(view, member) is getattr(view.module, member, getattr(defaults, member, None)), member
    for hook, signature in HOOKS.items():
        if hasattr(view.module, hook):
            wanted = [p for p in signature.parameters if p != "self"]
            assert list(inspect.signature(getattr(view.module, hook)).parameters) == wanted, f"{name}.{hook}"
    own = set(view.OPTION_LABELS) | set(shared.OPTION_LABELS)
    assert set(VARIANTS[name].OPTIONS) <= own, "a label for each option (its own, or a shared one)"
    assert set(view.OPTION_LABELS) <= set(VARIANTS[name].OPTIONS), "labels only for its options"
    assert set(option_labels(name)) == set(VARIANTS[name].OPTIONS)
    choices = {
        c for opt in VARIANTS[name].OPTIONS.values() if opt.kind in ("choice", "choice_or_list") for c in opt.choices
    }
    listed = listed_choices(name)
    one_number = {  # an option of one number or none is a select: its values labelled "name=" and "name=<n>"
        f"{n}={v}"
        for n, opt in VARIANTS[name].OPTIONS.items()
        if opt.kind == "int_or_none" and opt.low is not None and opt.low == opt.high
        for v in ("", opt.low)
    }
    assert set(view.CHOICE_LABELS) <= choices | listed | one_number, (
        "labels only for values of its choice options or its hand's"
    )
    assert listed <= set(view.CHOICE_LABELS), "the choices its hand's messages list are named in words (issue 33)"
    presets = {c for opt in VARIANTS[name].OPTIONS.values() if opt.kind == "preset" for c in opt.choices}
    assert set(view.PRESET_LABELS) == set(view.TARIFF_PRESETS) | presets, "a label for each preset, and no other"
    assert set(view.FIELD_LABELS) <= set(VARIANTS[name].INPUT_FIELDS) | {
        f"{f}.{part}" for f in VARIANTS[name].INPUT_FIELDS for part in ("side", "penalty", "seat", "tricks")
    }
    for static in (view.STYLESHEET, view.SCRIPT):
        assert static is None or (
            static.startswith(f"variants/{name}/")
            and (package_folder(name) / "static" / static.split("/", 2)[2]).is_file()  # its package's static/
        )


@pytest.mark.parametrize("name", list(VARIANTS))
def test_the_hand_template_exists(name):
    """In its package's own templates/, a built-in variant's as an installed plug-in's."""
    assert f"variants/{name}/hand.html" == VIEWS[name].HAND_TEMPLATE
    assert (package_folder(name) / "templates/hand.html").is_file()


@pytest.mark.parametrize("member", contract.members())
def test_the_walk_through_names_every_contract_member(member):
    assert f"`{member}" in DOC, f"docs/adding-a-variant.md does not describe VariantView.{member}"
