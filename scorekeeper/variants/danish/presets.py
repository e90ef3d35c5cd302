"""The Danish house presets a table or club can pick, named by what they do: the shorthands each sets and how it changes
the house those build (variants/danish/house.py), as data. RULES.md lists the kinds."""

from __future__ import annotations

from typing import Any

from scorekeeper.variants.danish import house as model


def _suffix_factors(**factors) -> model.Builder:
    """Suffixes scaled by (base, trick) factors: vip=(5/4, 5/4) …"""

    def build(house):
        suffixes = dict(house["suffixes"])
        for name, (base, trick) in factors.items():
            suffixes[name] = {"base": base, "trick": trick}
        return house | {"suffixes": suffixes}

    return build


def _levels(**fields) -> model.Builder:
    """Each level's fields from its tariff T and bid n: made="n*T" …, as functions (n, T) → number."""

    def build(house):
        levels = {}
        for n, level in house["levels"].items():
            tariff = model.kept(level["made"])
            values = {name: f(int(n), tariff) for name, f in fields.items()}
            levels[n] = level | {name: model.shown(v) for name, v in values.items()}
        return house | {"levels": levels}

    return build


def _sol(**fields) -> model.Builder:
    """Each sol bid's fields as functions of (won, lost) of the standard house."""

    def build(house):
        sol = {}
        for bid, entry in house["sol"].items():
            won, lost = model.kept(entry["won"]), model.kept(entry["lost"])
            sol[bid] = entry | {name: model.shown(f(won, lost)) for name, f in fields.items()}
        return house | {"sol": sol}

    return build


def _keys(**values) -> model.Builder:
    return lambda house: house | values


# Presets a table or club can pick, named by what they do: the shorthands they set (tariff, lost, solo_values, each
# unless given) and how they change the house those build. The values are data; RULES.md lists the kinds.
PRESETS: dict[str, tuple[dict[str, Any], model.Builder | None]] = {
    "standard": ({}, None),
    "per_trick": ({"lost": "per_trick"}, None),
    "double_sol": ({"solo_values": {"sol": 50, "ren_sol": 100, "bordlaegger": 200, "ren_bordlaegger": 400}}, None),
    "quarter_steps": (
        {},
        _suffix_factors(vip=("5/4", "5/4"), gode=("3/2", "3/2"), sans=("3/2", "3/2"), halve=("7/4", "7/4")),
    ),
    "suffix_base_only": ({}, _suffix_factors(vip=(2, 1), gode=(2, 1), sans=(2, 1), halve=(2, 1))),
    "gode_not_doubled": ({}, _suffix_factors(gode=(1, 1))),
    "tricks_times_tariff": ({}, _levels(made=lambda n, t: n * t, over=lambda n, t: t, lost=lambda n, t: n * t)),
    "half_overtricks": ({}, _levels(over=lambda n, t: t / 2)),
    "lost_base_plus_short": ({}, _levels(lost=lambda n, t: t, short=lambda n, t: t)),
    "grand_slam_double": ({}, _keys(slam={"made_factor": {"13": 2}})),
    "selvmakker_two_shares": ({}, _keys(selvmakker={"factor": "2/3", "rounding": "half_away"})),
    "sol_lost_equals_won": ({}, _sol(lost=lambda won, lost: won)),
    "sol_join_independent": ({}, _keys(gaa_med="independent")),
    "sol_join_vs_others": ({}, _keys(gaa_med="vs_non_participants")),
    "winners_pool": (
        {},
        lambda house: (
            _sol(won=lambda won, lost: 3 * won, lost=lambda won, lost: 3 * lost)(house) | {"gaa_med": "winners_pool"}
        ),
    ),
    "more_suffixes": ({}, _suffix_factors(vip2=(2, 2), vip3=(2, 2), staerke=(2, 2))),
}
