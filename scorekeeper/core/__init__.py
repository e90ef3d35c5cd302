"""The scoring core: pure functions from what the players entered to the protokoll. No Flask, SQL or forms."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Any, Literal, overload

from scorekeeper.core.base import (
    GameOver,
    InputError,
    Msg,
    Protokoll,
    ScoredHand,
    Setup,
    check_options,
    is_int,
    message_of,
)
from scorekeeper.core.contract import VariantRules
from scorekeeper.core.settlement import Settlement, format_cents, settle
from scorekeeper.core.variants import classic, danish, german, norwegian, swedish

# The registry, in menu order: the one place that names the variants (mypy checks each against VariantRules).
RULES: tuple[VariantRules, ...] = (classic, norwegian, danish, german, swedish)
VARIANTS: dict[str, VariantRules] = {rules.NAME: rules for rules in RULES}
NAME_MAX = 40
TITLE_MAX = 80

__all__ = [
    "VARIANTS",
    "GameOver",
    "InputError",
    "Protokoll",
    "ScoredHand",
    "Setup",
    "Settlement",
    "VariantRules",
    "check_name",
    "format_cents",
    "make_setup",
    "play",
    "play_on",
    "settle",
    "settlement_points",
    "stored_options",
    "variant_options",
]


@overload
def check_name(value: Any, what: str, *, required: Literal[True] = True, limit: int = NAME_MAX) -> str: ...
@overload
def check_name(value: Any, what: str, *, required: bool, limit: int = NAME_MAX) -> str | None: ...


def check_name(value: Any, what: str, *, required: bool = True, limit: int = NAME_MAX) -> str | None:
    """A player's name or a title: trimmed text without control characters or markup; raises ValueError."""
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise ValueError(Msg("%(what)s is empty", what=what))
        return None
    if not isinstance(value, str):
        raise ValueError(Msg("%(what)s must be text", what=what))
    value = unicodedata.normalize("NFC", " ".join(value.split()))
    if len(value) > limit:
        raise ValueError(
            Msg(
                "%(what)s is too long (%(length)d characters, at most %(limit)d)",
                what=what,
                length=len(value),
                limit=limit,
            )
        )
    if has_control(value):
        raise ValueError(Msg("%(what)s has control characters", what=what))
    if "<" in value or ">" in value:
        raise ValueError(Msg("%(what)s may not contain < or >", what=what))
    return value


JOINERS = ("\u200c", "\u200d")  # zero width non-joiner and joiner: 👩‍👩‍👧, and names in Persian or Indic scripts
BLACK_FLAG = "\U0001f3f4"  # a subdivision flag is the black flag and tag characters: 🏴󠁧󠁢󠁳󠁣󠁴󠁿


def _is_tag(c: str) -> bool:
    return 0xE0020 <= ord(c) <= 0xE007F


def has_control(value: str) -> bool:
    """Whether `value` has a character that is no part of a name as written: controls, bidi overrides and marks,
    invisible format characters, unassigned or private ones (Unicode category C). Allowed of those: a joiner
    between two visible non-ASCII characters (emoji sequences, scripts that need one) and the tags of a flag.
    Variation selectors (U+FE0F, the emoji form) are marks, not C: always allowed."""
    for i, c in enumerate(value):
        if unicodedata.category(c)[0] != "C":
            continue
        if c in JOINERS and 0 < i < len(value) - 1 and all(_visible_other(n) for n in (value[i - 1], value[i + 1])):
            continue
        if _is_tag(c) and i > 0 and (value[i - 1] == BLACK_FLAG or _is_tag(value[i - 1])):
            continue
        return True
    return False


def _visible_other(c: str) -> bool:
    """A neighbour a joiner may join: not ASCII, not a space, not itself invisible (a mark such as U+FE0F is)."""
    return ord(c) > 0x7F and not c.isspace() and unicodedata.category(c)[0] != "C"


def make_setup(variant: Any, players: Any, dealer: Any = 0, options: Any = None) -> Setup:
    """Check everything a game is started with and fill in the default options."""
    errors: dict[str, str] = {}
    module = VARIANTS.get(variant) if isinstance(variant, str) else None
    if module is None:
        raise InputError({"variant": Msg("must be one of %(choices)s", choices=", ".join(VARIANTS))})
    names: list[str] = []
    low, high = min(module.PLAYER_COUNTS), max(module.PLAYER_COUNTS)
    counts = str(low) if low == high else Msg("%(low)d or %(high)d", low=low, high=high)
    if not isinstance(players, list):
        errors["players"] = Msg("must be a list of %(counts)s names in seating order", counts=counts)
    elif len(players) not in module.PLAYER_COUNTS:
        errors["players"] = Msg(
            "%(variant)s takes %(counts)s players, not %(n)d", variant=module.TITLE, counts=counts, n=len(players)
        )
    else:
        for i, raw in enumerate(players):
            try:
                names.append(check_name(raw, Msg("player %(n)d's name", n=i + 1)))
            except ValueError as exc:
                errors.setdefault("players", message_of(exc))
        if "players" not in errors:
            folded = [n.casefold() for n in names]
            twice = sorted({n for n in names if folded.count(n.casefold()) > 1})
            if twice:
                errors["players"] = Msg("two players have the same name: %(names)s", names=", ".join(twice))
    n = len(names) or max(module.PLAYER_COUNTS)
    if dealer is None:
        dealer = 0
    if not is_int(dealer) or not 0 <= dealer < n:
        errors["dealer"] = Msg("must be the first dealer's seat, from 0 to %(last)d", last=n - 1)
    opts, option_errors = variant_options(module, options)
    errors.update(option_errors)
    if errors:
        raise InputError(errors)
    return Setup(variant, tuple(names), dealer, opts)


def variant_options(module: VariantRules, given: Any) -> tuple[dict[str, Any], dict[str, str]]:
    """A variant's full options from those given: each value checked, then the rules that combine them."""
    options, errors = check_options(module.OPTIONS, given)
    if not errors:
        options, errors = module.resolve_options(options, given if isinstance(given, dict) else {})
    if not errors:
        errors = module.check_options(options)
    return options, errors


def stored_options(variant: str, stored: Any) -> dict[str, Any]:
    """A stored game's options as they score today: options added since it started take their defaults and the
    shorthands are resolved again (a game stored before `house` gets the house its tariff builds). Not checked
    again: they were when the game started."""
    module = VARIANTS[variant]
    options = {name: opt.default for name, opt in module.OPTIONS.items()} | dict(stored)
    given = {name: value for name, value in stored.items() if name in module.OPTIONS}
    resolved, errors = module.resolve_options(options, given)
    return options if errors else resolved


def play(setup: Setup, inputs: Iterable[Any]) -> Protokoll:
    """Replay a game from its first hand; raises InputError naming the first hand that does not fit."""
    return VARIANTS[setup.variant].play(setup, list(inputs))


def play_on(protokoll: Protokoll, inputs: Iterable[Any]) -> Protokoll:
    """Go on scoring a game from the protokoll of its first hands: the same as `play` with all the hands, in the time of
    the new ones. Raises InputError naming the first new hand that does not fit."""
    setup = protokoll.setup
    return VARIANTS[setup.variant].play(setup, list(inputs), start=protokoll)


def settlement_points(protokoll: Protokoll) -> tuple[int, ...]:
    """Points per player for the money: zero-sum totals as they are; partners each win or lose the sides' difference."""
    setup = protokoll.setup
    if VARIANTS[setup.variant].ZERO_SUM:
        return protokoll.totals
    side_points = protokoll.rubber_points or tuple(
        sum(h.points[s] for h in protokoll.hands) for s in range(len(protokoll.sides))
    )
    per_player = [0] * setup.n
    for s, seats in enumerate(protokoll.sides):
        others = sum(side_points) - side_points[s]
        for seat in seats:
            per_player[seat] = side_points[s] - others
    return tuple(per_player)
