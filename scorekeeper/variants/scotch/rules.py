"""Scotch whist (Catch the Ten): two to eight players, alone or in teams; the five trump honours and the cards taken
beyond a side's share score, to 41, and a deal that takes several over is counted out ten, cards, ace, king, queen,
jack.

All 36 cards (35 with five or seven players, 32 with eight) are dealt, so a deal has T tricks, T = the deck over the
players. With two or three players the 18 or 12 cards are played in packets of six; the scorer counts the deal as a
whole: `cards` is T, the cards each player is dealt in the whole deal, which is also the deal's tricks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.core.fields import is_int, require_fields, side_winner
from scorekeeper.core.game import HandContext, ScoredHand, Sides, TableContext, one_seat_a_side, partnerships
from scorekeeper.core.messages import InputError, Msg
from scorekeeper.core.numbers import Point
from scorekeeper.core.options import Option, choice_option, int_option
from scorekeeper.core.value_maps import check_value_map

NAME = "scotch"
ORDER = 70
TITLE = Msg("Scotch whist")
DESCRIPTION = Msg(
    "Catch the Ten: two to eight players, alone or in teams; the trump honours (the ten above all) and the cards "
    "taken score, to 41."
)
PLAYER_COUNTS = (2, 3, 4, 5, 6, 7, 8)
INPUT_FIELDS = ("tricks", "honours")
HONOURS = ("jack", "ten", "ace", "king", "queen")  # as they rank in trumps: the jack highest
# An honour as a message names it, translated on the pages (the API's keys are HONOURS).
HONOUR_WORDS = {"jack": Msg("jack"), "ten": Msg("ten"), "ace": Msg("ace"), "king": Msg("king"), "queen": Msg("queen")}
DEFAULT_VALUES = {"jack": 11, "ten": 10, "ace": 4, "king": 3, "queen": 2}
COUNT_OUT = ("ten", "cards", "ace", "king", "queen", "jack")  # the order a deal is counted in when several reach
CARD_STEP = "cards"  # the card points, counted out between the ten and the ace
TRICKS = {2: 18, 3: 12, 4: 9, 5: 7, 6: 6, 7: 5, 8: 4}  # all the cards dealt: 36, 35 with five or seven, 32 with eight
VALUE_MAX = 100
PACKET = 6  # two and three players play their 18 or 12 cards six at a time
HAND_SIZE = 10  # option hand_size: two or three players are dealt ten each, the rest put aside
HAND_SIZE_TABLES = (2, 3)


def _check_values(value: Any) -> dict[str, int]:
    """The honours' values, those left out at their defaults: the full mapping is what scores and what is shown."""
    return check_value_map(
        value,
        DEFAULT_VALUES,
        0,
        VALUE_MAX,
        lambda: Msg("must be an object with the values of %(honours)s", honours=", ".join(HONOURS)),
        lambda unknown: Msg("unknown honour %(honour)s (known: %(known)s)", honour=unknown, known=", ".join(HONOURS)),
        lambda name: Msg(
            "%(honour)s must be a whole number from 0 to %(high)d", honour=HONOUR_WORDS[name], high=VALUE_MAX
        ),
    )


def _check_hand_size(value: Any) -> int | None:
    if value is None or (is_int(value) and value == HAND_SIZE):
        return value
    raise ValueError(Msg("must be %(n)d (ten cards each, at two or three players) or null (all dealt)", n=HAND_SIZE))


OPTIONS = {
    "target": int_option(41, 1, 500, Msg("Points that win the game.")),
    "values": Option(
        dict(DEFAULT_VALUES),
        _check_values,
        Msg("What each trump honour is worth to the side that captures it: jack, ten, ace, king, queen."),
        "int_map",
        HONOURS,
    ),
    "card_points": choice_option(
        "excess",
        ("excess", "none"),
        Msg("excess: a point for every card a side takes beyond the cards dealt to it; none: only the honours count."),
    ),
    "teams": int_option(
        None,
        2,
        4,
        Msg("Play in this many teams (seat s on team s mod k, partners never side by side), or none: each alone."),
        allow_none=True,
    ),
    "hand_size": Option(
        None,
        _check_hand_size,
        Msg(
            "At two or three players: ten cards each, the rest put aside, so an honour may not be dealt "
            '(en.shram.kiev.ua "Scottish Whist"); or all the cards dealt.'
        ),
        "int_or_none",
        (),
        HAND_SIZE,
        HAND_SIZE,
    ),
}


def deck(n: int) -> int:
    """The cards dealt at a table of n: 36, 35 (five, seven) or 32 (eight)."""
    return n * TRICKS[n]


def fitting_teams(n: int) -> list[int]:
    """The numbers of teams a table of n can play in: equal teams of at least two."""
    return [k for k in range(2, n // 2 + 1) if n % k == 0]


def check_options(table: TableContext) -> dict[str, str]:
    k, n = table.options.get("teams"), table.n_players
    if table.options.get("hand_size") and n not in HAND_SIZE_TABLES:
        return {
            "options.hand_size": Msg(
                "ten cards each is for two or three players, not %(n)d: all the cards are dealt", n=n
            )
        }
    if k is None or k in fitting_teams(n):
        return {}
    fits = fitting_teams(n)
    if not fits:
        return {"options.teams": Msg("%(n)d players cannot play in teams of equal size (each plays alone)", n=n)}
    return {
        "options.teams": Msg(
            "%(k)d teams do not fit %(n)d players: teams are of equal size, two players or more (here: %(fits)s)",
            k=k,
            n=n,
            fits=", ".join(map(str, fits)),
        )
    }


def sides(table: TableContext) -> Sides:
    k = table.options.get("teams")
    return partnerships(table.n_players, k) if k else one_seat_a_side(table.n_players)


def cards(number: int, table: TableContext) -> int:
    return table.options.get("hand_size") or TRICKS[table.n_players]


def card_points(tricks: Sequence[int], sides: Sides, n: int, total: int) -> list[int]:
    """A point per card a side took beyond those dealt to it: max(0, n × tricks − m × T) for m players."""
    return [max(0, n * t - len(side) * total) for t, side in zip(tricks, sides)]


def _side_words(ctx: HandContext, side: Sequence[int]) -> str:
    names = [ctx.players[s] if s < len(ctx.players) and ctx.players[s] else str(s + 1) for s in side]
    return " & ".join(str(name) for name in names)


def check_hand(raw: Any, ctx: HandContext) -> dict[str, Any]:
    data = require_fields(raw, INPUT_FIELDS)
    errors: dict[str, str] = {}
    the_sides = sides(ctx)
    tricks = _tricks(data.get("tricks"), len(the_sides), ctx.cards, errors)
    taken = _honours(data.get("honours"), tricks, the_sides, ctx, errors)
    if errors or tricks is None or taken is None:
        raise InputError(errors)
    return {"tricks": tricks, "honours": taken}


def _tricks(value: Any, k: int, total: int, errors: dict[str, str]) -> list[int] | None:
    """A side's tricks each, adding up to the deal's."""
    if value is None:
        errors["tricks"] = Msg("is missing: the tricks each side took, adding up to %(total)d", total=total)
    elif not isinstance(value, list) or len(value) != k or not all(is_int(t) for t in value):
        errors["tricks"] = Msg("must be %(k)d whole numbers, one per side, adding up to %(total)d", k=k, total=total)
    elif not all(0 <= t <= total for t in value):
        errors["tricks"] = Msg(
            "each side takes from 0 to %(total)d tricks, not %(tricks)s",
            total=total,
            tricks=" – ".join(str(t) if t >= 0 else f"−{-t}" for t in value),
        )
    elif sum(value) != total:
        errors["tricks"] = Msg(
            "must add up to %(total)d, the tricks of the deal (got %(sum)d)", total=total, sum=sum(value)
        )
    else:
        return list(value)
    return None


def _honours(
    value: Any, tricks: list[int] | None, the_sides: Sides, ctx: HandContext, errors: dict[str, str]
) -> dict[str, int | None] | None:
    """The side that captured each honour, in the honours' order; a side without a trick captured none (said only
    when the tricks are right, since they are what is checked against)."""
    k, known = len(the_sides), ", ".join(HONOURS)
    if value is None:
        errors["honours"] = Msg("is missing: the side that captured each of %(honours)s", honours=known)
        return None
    if not isinstance(value, Mapping):
        errors["honours"] = Msg("must be an object naming the side that captured each of %(honours)s", honours=known)
        return None
    unknown = [str(h) for h in value if h not in HONOURS]
    if unknown:
        errors["honours"] = Msg("unknown honour %(honour)s (known: %(known)s)", honour=", ".join(unknown), known=known)
        return None
    missing = [h for h in HONOURS if h not in value]
    if missing and ctx.options.get("hand_size"):
        errors["honours"] = Msg(
            "%(honour)s is missing: the side that captured it, or not dealt", honour=HONOUR_WORDS[missing[0]]
        )
        return None
    if missing:
        errors["honours"] = Msg(
            "%(honours)s missing: all five trump honours are always in play", honours=", ".join(missing)
        )
        return None
    taken: dict[str, int | None] = {}
    for name in HONOURS:
        side = value[name]
        if side is None and ctx.options.get("hand_size"):
            taken[name] = None  # among the cards put aside: nobody captured it
            continue
        if side is None:
            errors["honours"] = Msg(
                "%(honour)s is missing: the side that captured it (all five are always in play)",
                honour=HONOUR_WORDS[name],
            )
            return None
        if not is_int(side) or not 0 <= side < k:
            errors["honours"] = Msg(
                "%(honour)s: must be the side that captured it, from 0 to %(last)d",
                honour=HONOUR_WORDS[name],
                last=k - 1,
            )
            return None
        if tricks is not None and tricks[side] == 0:
            errors["honours"] = Msg(
                "%(honour)s: %(side)s took no trick, so could not capture it",
                honour=HONOUR_WORDS[name],
                side=_side_words(ctx, the_sides[side]),
            )
            return None
        taken[name] = side
    return taken


def _steps(inp: Mapping[str, Any], ctx: HandContext) -> list[tuple[str, list[int]]]:
    """The hand's points step by step in the count-out order: each honour to its side, the card points to all."""
    the_sides = sides(ctx)
    width, values = len(the_sides), ctx.options["values"]
    steps = []
    for step in COUNT_OUT:
        if step == CARD_STEP:
            if ctx.options["card_points"] == "excess":
                steps.append((step, card_points(inp["tricks"], the_sides, ctx.n_players, ctx.cards)))
            continue
        points = [0] * width
        side = inp["honours"][step]
        if side is None:
            continue  # not dealt: the count-out passes over it
        points[side] = values[step]
        steps.append((step, points))
    return steps


def hand_points(inp: Mapping[str, Any], ctx: HandContext) -> tuple[int, ...]:
    width = len(sides(ctx))
    return tuple(sum(points[s] for _step, points in _steps(inp, ctx)) for s in range(width))


def count_out(inp: Mapping[str, Any], ctx: HandContext) -> tuple[bool, int | None]:
    """The deal counted from the totals before it, ten, cards, ace, king, queen, jack: the first side whose running
    total reaches the target wins; when the card points take several over together, the higher after them (equal:
    a draw). Answers whether a side reached it in the counting, and the winner (None: a draw)."""
    target = ctx.options["target"]
    running = list(ctx.totals) if ctx.totals else [0] * len(sides(ctx))
    for _step, points in _steps(inp, ctx):
        running = [r + p for r, p in zip(running, points)]
        over = [s for s, (r, p) in enumerate(zip(running, points)) if p and r >= target]
        if over:
            best = max(running[s] for s in over)
            leaders = [s for s in over if running[s] == best]
            return True, leaders[0] if len(leaders) == 1 else None
    return False, None


def reached(inp: Mapping[str, Any], ctx: HandContext) -> dict[int, tuple[str, Point]]:
    """Each side that reaches the target as the deal is counted out from the totals before it: the step at which it
    first stands at or over it (a step that brought it points) and its running total then, in the order reached."""
    target = ctx.options["target"]
    running = list(ctx.totals) if ctx.totals else [0] * len(sides(ctx))
    out: dict[int, tuple[str, Point]] = {}
    for step, points in _steps(inp, ctx):
        running = [r + p for r, p in zip(running, points)]
        for s, (r, p) in enumerate(zip(running, points)):
            if p and r >= target and s not in out:
                out[s] = (step, r)
    return out


def game_end(hand: ScoredHand, ctx: HandContext) -> tuple[bool, int | None]:
    """Over when a side reaches the target; the winner as the deal counts out."""
    if not any(t >= ctx.options["target"] for t in hand.totals):
        return False, None
    counted, winner = count_out(hand.input, ctx)
    return True, winner if counted else side_winner(hand.totals)
