"""What the variants' presentation modules share: labels of the options several variants have, CSV column makers."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

# Options of more than one variant; a variant's own OPTION_LABELS add to these.
OPTION_LABELS = {
    "target": _l("Play to (points)"),
    "deals": _l("Fixed number of deals"),
    "rate": _l("Money per point"),
    "currency": _l("Currency"),
}


def labels(*names: str, **own) -> dict:
    """The shared labels of `names` and the variant's `own` ones."""
    return {**{name: OPTION_LABELS[name] for name in names}, **own}


def field(name: str, players, seat: bool = False):
    """A CSV column for one entered field: a `seat` as the player's name, True as "yes", nothing as an empty cell."""

    def get(inp):
        value = inp.get(name)
        if seat and value is not None:
            return players[value]
        if value is True:
            return "yes"
        return "" if value is None or value is False else value

    return name, get


def per_side(name: str, side_names) -> list:
    """A CSV column per side for a field entered as a list with one number per side."""
    return [
        (f"{name} {side}", lambda inp, i=i: "" if inp.get(name) is None else inp[name][i])
        for i, side in enumerate(side_names)
    ]
