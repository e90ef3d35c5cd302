"""An option that gives some of a variant's own keys (its contracts, its honours) a whole number each, the keys left out
at their defaults: checked here once for every variant that has one, each variant saying it in its own words."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from scorekeeper.core.fields import is_int
from scorekeeper.core.messages import Msg


def check_value_map(
    value: Any,
    defaults: Mapping[str, int],
    low: int,
    high: int,
    not_a_mapping: Callable[[], Msg],
    unknown: Callable[[str], Msg],
    out_of_range: Callable[[str], Msg],
) -> dict[str, int]:
    """`defaults` with the numbers `value` gives (a mapping of some of its keys to whole numbers from `low` to `high`),
    in the defaults' order; raises ValueError with the variant's message: `unknown` gets the unknown keys, joined,
    `out_of_range` the key whose number is wrong."""
    if not isinstance(value, Mapping):
        raise ValueError(not_a_mapping())
    strangers = [str(k) for k in value if k not in defaults]
    if strangers:
        raise ValueError(unknown(", ".join(strangers)))
    merged = dict(defaults)
    for key, number in value.items():
        if not is_int(number) or not low <= number <= high:
            raise ValueError(out_of_range(key))
        merged[key] = number
    return merged
