"""The scoring core: pure functions from what the players entered to the protokoll. No Flask, SQL or forms."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, MutableMapping
from typing import Any, Literal, overload

from scorekeeper.core import registry
from scorekeeper.core.contract import VariantRules, variant
from scorekeeper.core.fields import is_int
from scorekeeper.core.game import HandContext, Protokoll, ScoredHand, Setup, TableContext
from scorekeeper.core.messages import GameOver, InputError, Msg, message_of
from scorekeeper.core.numbers import Point
from scorekeeper.core.options import check_options
from scorekeeper.core.replay import game_context, hand_context, replay, scored_context, table_context
from scorekeeper.core.settlement import Settlement, format_cents, settle, side_balances

# The registry, in menu order: every package registered under the entry-point group `scorekeeper.variants` (the nine
# built-in ones in pyproject.toml), its rules.py read there (core/registry.py); a plug-in that fails to load is left out
# and kept in BROKEN with its error. variant() adds the contract's defaults for the members a module leaves out.
# Read when first looked at (registry.Lazy), so a rules module imported before the core is not found half-imported.
VARIANTS: MutableMapping[str, VariantRules] = registry.Lazy(
    lambda: {name: variant(module) for name, module in registry.installed().rules.items()}
)
PACKAGES: MutableMapping[str, str] = registry.Lazy(lambda: dict(registry.installed().packages))  # view, templates …
BROKEN: MutableMapping[str, str] = registry.Lazy(lambda: dict(registry.installed().broken))  # left out, and why


def withdraw(name: str, error: str) -> None:
    """Leave out a variant whose other half failed to load (its view: variants/views.py), reported as the core
    reports a plug-in whose rules fail, so that no page offers a variant it cannot show."""
    VARIANTS.pop(name, None)
    PACKAGES.pop(name, None)
    BROKEN[name] = error
    registry.log.error("variant %r is left out: %s", name, error)


NAME_MAX = 64  # a player's or member's name: as long as real double names (issue 44 refused 41 characters)
TITLE_MAX = 80

__all__ = [
    "BROKEN",
    "PACKAGES",
    "VARIANTS",
    "GameOver",
    "HandContext",
    "InputError",
    "Protokoll",
    "ScoredHand",
    "Setup",
    "Settlement",
    "TableContext",
    "VariantRules",
    "check_name",
    "deal_sizes",
    "format_cents",
    "game_context",
    "hand_context",
    "make_setup",
    "play",
    "play_on",
    "player_counts",
    "rule_set_options",
    "scored_context",
    "scores_alone",
    "settle",
    "settlement_points",
    "stored_options",
    "table_context",
    "table_for",
    "trimmed_name",
    "variant_options",
    "withdraw",
]


def trimmed_name(value: Any, what: str, *, required: bool = True) -> str | None:
    """A name or title as text, its spaces trimmed and NFC-normalised, held to nothing else (check_name's first
    step; a drive's stored names are read back with it alone); raises ValueError if it is empty or not text."""
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise ValueError(Msg("%(what)s is empty", what=what))
        return None
    if not isinstance(value, str):
        raise ValueError(Msg("%(what)s must be text", what=what))
    return unicodedata.normalize("NFC", " ".join(value.split()))


@overload
def check_name(value: Any, what: str, *, required: Literal[True] = True, limit: int = NAME_MAX) -> str: ...
@overload
def check_name(value: Any, what: str, *, required: bool, limit: int = NAME_MAX) -> str | None: ...


def check_name(value: Any, what: str, *, required: bool = True, limit: int = NAME_MAX) -> str | None:
    """A player's name or a title: trimmed text without control characters or markup; raises ValueError."""
    value = trimmed_name(value, what, required=required)
    if value is None:
        return None
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


def player_counts(counts: tuple[int, ...]) -> str:
    """A variant's table sizes in words: "4", "4 or 5", "3 to 7", "2, 4 or 6"."""
    counts = tuple(sorted(counts))
    low, high = counts[0], counts[-1]
    if low == high:
        return str(low)
    if len(counts) > 2 and counts == tuple(range(low, high + 1)):
        return Msg("%(low)d to %(high)d", low=low, high=high)
    if len(counts) == 2:
        return Msg("%(low)d or %(high)d", low=low, high=high)
    return Msg("%(some)s or %(last)d", some=", ".join(map(str, counts[:-1])), last=high)


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
    counts = player_counts(module.PLAYER_COUNTS)
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
    seats = len(players) if isinstance(players, list) and len(players) in module.PLAYER_COUNTS else None
    n = len(names) or max(module.PLAYER_COUNTS)
    if dealer is None:
        dealer = 0
    if not is_int(dealer) or not 0 <= dealer < n:
        errors["dealer"] = Msg("must be the first dealer's seat, from 0 to %(last)d", last=n - 1)
    opts, option_errors = variant_options(module, options, seats)
    errors.update(option_errors)
    if errors:
        raise InputError(errors)
    return Setup(variant, tuple(names), dealer, opts)


def table_for(
    variant: str,
    options: Any,
    n_players: int | None = None,
    players: tuple[str | None, ...] = (),
    first_dealer: int | None = None,
) -> TableContext:
    """A table for options not (yet) at a game: a blank sheet's, a club's rule set (`n_players` None: the smallest
    table the variant has)."""
    n = n_players if n_players is not None else min(VARIANTS[variant].PLAYER_COUNTS)
    return TableContext(variant=variant, n_players=n, options=options, players=players, first_dealer=first_dealer)


def _table(module: VariantRules, options: dict[str, Any], n_players: int | None) -> TableContext:
    n = n_players if n_players is not None else min(module.PLAYER_COUNTS)
    return TableContext(variant=module.NAME, n_players=n, options=options, first_dealer=None)


def variant_options(
    module: VariantRules, given: Any, n_players: int | None = None
) -> tuple[dict[str, Any], dict[str, str]]:
    """A variant's full options from those given: each value checked, then the rules that combine them, for a table
    of `n_players` (None: the smallest the variant has — a club's rule set, a form's preview before the players)."""
    options, errors = check_options(module.OPTIONS, given)
    if not errors:
        options, errors = module.resolve_options(
            given if isinstance(given, dict) else {}, _table(module, options, n_players)
        )
    if not errors:
        errors = module.check_options(_table(module, options, n_players))
    return options, errors


def rule_set_options(module: VariantRules, given: Any) -> tuple[dict[str, Any], dict[str, str]]:
    """A rule set for every table the variant has (a club's), not for one: each house rule checked, and the rules
    that combine them for each table size; it is kept when it fits at least one (Scotch's two teams fit four, six or
    eight), else refused with the largest table's errors. What a table's size decides (Plump's most cards) stays as
    given, to be resolved when a table of that size starts; what every fitting size resolves alike is resolved."""
    tried = [variant_options(module, given, n) for n in sorted(module.PLAYER_COUNTS)]
    fitting = [options for options, errors in tried if not errors]
    if not fitting:
        return tried[-1]
    as_given, _errors = check_options(module.OPTIONS, given)
    first = fitting[0]
    return {
        name: value if all(options.get(name) == value for options in fitting) else as_given.get(name)
        for name, value in first.items()
    }, {}


def stored_options(variant: str, stored: Any, n_players: int | None = None) -> dict[str, Any]:
    """A stored game's options as they score today: options added since it started take their defaults and the
    shorthands are resolved again (a game stored before `house` gets the house its tariff builds). Not checked
    again: they were when the game started."""
    module = VARIANTS[variant]
    options = {name: opt.default for name, opt in module.OPTIONS.items()} | dict(stored)
    given = {name: value for name, value in stored.items() if name in module.OPTIONS}
    resolved, errors = module.resolve_options(given, _table(module, options, n_players))
    return options if errors else resolved


def play(setup: Setup, inputs: Iterable[Any]) -> Protokoll:
    """Replay a game from its first hand; raises InputError naming the first hand that does not fit."""
    return replay(VARIANTS[setup.variant], setup, list(inputs))


def play_on(protokoll: Protokoll, inputs: Iterable[Any]) -> Protokoll:
    """Go on scoring a game from the protokoll of its first hands: the same as `play` with all the hands, in the time of
    the new ones. Raises InputError naming the first new hand that does not fit."""
    setup = protokoll.setup
    return replay(VARIANTS[setup.variant], setup, list(inputs), start=protokoll)


def scores_alone(table: TableContext) -> bool:
    """Each player a side of their own (Danish, Plump), rather than partners: the sheet's head names the seats."""
    return all(len(side) == 1 for side in VARIANTS[table.variant].sides(table))


def deal_sizes(setup: Setup) -> tuple[int, ...] | None:
    """The cards of every deal of a game whose number of deals is known ("hand 5: 6 cards"), else None."""
    rules, table = VARIANTS[setup.variant], table_context(setup)
    deals = rules.deals(table)
    return None if not deals else tuple(rules.cards(k, table) for k in range(1, deals + 1))


def settlement_points(protokoll: Protokoll) -> tuple[Point, ...]:
    """Points per player for the money: zero-sum totals are that already; otherwise each side's points (a match's own
    points where it has them) against every other side's (settlement.side_balances)."""
    setup = protokoll.setup
    if VARIANTS[setup.variant].ZERO_SUM:
        return protokoll.totals
    side_points: tuple[Point, ...] = protokoll.rubber_points or tuple(
        sum((h.points[s] for h in protokoll.hands), 0) for s in range(len(protokoll.sides))
    )
    return side_balances(side_points, protokoll.sides, setup.n)
