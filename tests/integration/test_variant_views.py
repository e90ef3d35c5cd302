"""Every registered variant has its presentation plug-in: a view with the whole VariantView contract, a hand template
that exists, and docs/adding-a-variant.md names every contract member (so the walk-through stays true)."""

from __future__ import annotations

import pytest

from helpers import ROOT
from scorekeeper.core import VARIANTS
from scorekeeper.web.variants import VIEWS, contract

DOC = (ROOT / "docs" / "adding-a-variant.md").read_text()
TEMPLATES = ROOT / "templates"


def test_every_core_variant_has_a_view():
    assert list(VIEWS) == list(VARIANTS)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_the_view_provides_the_whole_contract(name):
    view = VIEWS[name]
    assert contract.missing(view) == []
    assert isinstance(view, contract.VariantView)
    assert name == view.NAME
    assert set(view.OPTION_LABELS) == set(VARIANTS[name].OPTIONS), "a label for each option, and no other"
    choices = {c for opt in VARIANTS[name].OPTIONS.values() if opt.kind == "choice" for c in opt.choices}
    assert set(view.CHOICE_LABELS) <= choices, "labels only for values of its choice options"
    presets = {c for opt in VARIANTS[name].OPTIONS.values() if opt.kind == "preset" for c in opt.choices}
    assert set(view.PRESET_LABELS) == set(view.TARIFF_PRESETS) | presets, "a label for each preset, and no other"


@pytest.mark.parametrize("name", list(VARIANTS))
def test_the_hand_template_exists(name):
    assert f"games/hand_{name}.html" == VIEWS[name].HAND_TEMPLATE
    assert (TEMPLATES / VIEWS[name].HAND_TEMPLATE).is_file()


@pytest.mark.parametrize("member", contract.members())
def test_the_walk_through_names_every_contract_member(member):
    assert f"`{member}" in DOC, f"docs/adding-a-variant.md does not describe VariantView.{member}"
