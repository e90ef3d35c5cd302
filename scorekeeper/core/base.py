"""Types and checks shared by the five scorers: pure Python, no I/O."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

SUITS = ("hearts", "diamonds", "clubs", "spades")
NO_TRUMP = "none"  # the trump of a deal played without one, as inputs and the API spell it
TRUMPS = SUITS + (NO_TRUMP,)
CURRENCIES = ("DKK", "NOK", "SEK", "EUR", "GBP", "USD")


class Msg(str):
    """An English message that keeps its template and values, so that the shell can say it in the player's language.

    Babel extracts the templates (keyword `Msg`); `str(msg)` is the English text.
    """

    template: str
    values: dict

    def __new__(cls, template: str, **values):
        shown = {k: "; ".join(map(str, v)) if isinstance(v, (list, tuple)) else v for k, v in values.items()}
        self = super().__new__(cls, template % shown if values else template)
        self.template = template
        self.values = values
        return self


FIELD_MESSAGE = "%(field)s: %(message)s"


def field_messages(errors: Mapping[str, str]) -> tuple:
    """Several field errors as one list of "field: message" parts, each still translatable (the shell names the field
    in words)."""
    return tuple(Msg(FIELD_MESSAGE, field=k, message=v) for k, v in errors.items())


def message_of(exc: Exception):
    """The Msg a ValueError was raised with (str(exc) would lose the template)."""
    return exc.args[0] if exc.args else ""


class InputError(Exception):
    """Bad input: `errors` maps each wrong field to what is wrong with it.

    `number` is the hand the error belongs to when a replay finds it.
    """

    def __init__(self, errors: Mapping[str, str], number: int | None = None):
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = dict(errors)
        self.number = number


class GameOver(InputError):
    """A hand was entered after the game had ended."""


class OptionError(ValueError):
    """A wrong value deep inside an option (a house tariff): `path` names where, below `options.<name>`."""

    def __init__(self, message: str, path: str = ""):
        super().__init__(message)
        self.path = path


# ---------------------------------------------------------------- options


@dataclass(frozen=True)
class Option:
    """A house rule: its default, a checker that normalises or refuses a value, and a line of help."""

    default: Any
    check: Callable[[Any], Any]
    help: str
    kind: str = "int"
    choices: tuple = ()
    low: int | None = None
    high: int | None = None


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def int_option(default, low, high, help, allow_none=False):
    def check(value):
        if value is None and allow_none:
            return None
        if not _is_int(value):
            raise ValueError(
                Msg("must be a whole number from %(low)d to %(high)d or null", low=low, high=high)
                if allow_none
                else Msg("must be a whole number from %(low)d to %(high)d", low=low, high=high)
            )
        if not low <= value <= high:
            if abs(value) >= 10**12:  # not repeated back: a number of thousands of digits costs its text
                raise ValueError(Msg("must be a whole number from %(low)d to %(high)d", low=low, high=high))
            raise ValueError(Msg("must be from %(low)d to %(high)d, not %(value)d", low=low, high=high, value=value))
        return value

    return Option(default, check, help, "int_or_none" if allow_none else "int", (), low, high)


def bool_option(default, help):
    def check(value):
        if not isinstance(value, bool):
            raise ValueError(Msg("must be true or false"))
        return value

    return Option(default, check, help, "bool")


def choice_option(default, choices, help):
    def check(value):
        if value not in choices:
            raise ValueError(Msg("must be one of %(choices)s", choices=", ".join(choices)))
        return value

    return Option(default, check, help, "choice", tuple(choices))


def rate_option(default, help):
    from scorekeeper.core.numbers import read_number  # numbers.py builds on this module's Msg and OptionError

    said = {
        "shape": Msg("must be a number of money per point, for instance 0.05"),
        "range": Msg("must be from 0 to 1000 per point"),
        "places": Msg("may have at most 4 decimals"),
    }

    def check(value):
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise ValueError(said["shape"])
        amount = read_number(value, high=1000, places=4, messages=said)
        return float(amount) if isinstance(value, str) else value

    return Option(default, check, help, "rate")


def currency_option(default):
    return choice_option(default, CURRENCIES, Msg("Currency of the settlement."))


def options_as_checked(options: dict[str, Any], given: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The checked options as they are: a variant without shorthands or presets to resolve."""
    return options, {}


def check_options(spec: Mapping[str, Option], given: Any) -> tuple[dict, dict]:
    """Merge `given` over the defaults; answer (options, errors) with errors keyed `options.<name>`."""
    errors: dict[str, str] = {}
    options = {name: opt.default for name, opt in spec.items()}
    if given is None:
        return options, errors
    if not isinstance(given, Mapping):
        return options, {"options": Msg("must be an object of house rules")}
    for name, value in given.items():
        if name not in spec:
            errors[f"options.{name}"] = Msg("unknown option for this variant (known: %(known)s)", known=", ".join(spec))
            continue
        try:
            options[name] = spec[name].check(value)
        except OptionError as exc:
            errors[f"options.{name}.{exc.path}" if exc.path else f"options.{name}"] = message_of(exc)
        except ValueError as exc:
            errors[f"options.{name}"] = message_of(exc)
    return options, errors


# ---------------------------------------------------------------- hands


@dataclass(frozen=True, slots=True)
class Setup:
    """What a game is started with: variant, seats, first dealer and the full set of options."""

    variant: str
    players: tuple[str, ...]
    dealer: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def n(self) -> int:
        return len(self.players)


@dataclass(frozen=True, slots=True)
class HandContext:
    """Where a hand sits in its game when it is checked and scored."""

    number: int
    dealer: int
    n_players: int
    options: Mapping[str, Any]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ScoredHand:
    """One hand as scored in its place: `game` is its game of a match (a rubber), `trump` the trump it was played in
    when the variant keeps it beside the input (classic: the rotation can fix it without the input saying it)."""

    number: int
    dealer: int
    input: Mapping[str, Any]
    points: tuple[int, ...]
    totals: tuple[int, ...]
    leader: int
    sitting_out: int | None = None
    game: int | None = None
    trump: str | None = None


@dataclass(frozen=True, slots=True)
class Match:
    """How a match of several games (a rubber) stands, so that replay can start each game at 0–0 and go on from it.

    `results` holds each game won: the winning side and the game's final totals.
    """

    to_win: int
    games_won: tuple[int, ...]
    results: tuple[tuple[int, tuple[int, ...]], ...] = ()

    def won(self, side: int, totals: tuple[int, ...]) -> Match:
        games_won = tuple(w + (s == side) for s, w in enumerate(self.games_won))
        return Match(self.to_win, games_won, self.results + ((side, totals),))

    @property
    def over(self) -> bool:
        return max(self.games_won) >= self.to_win

    @property
    def game(self) -> int:
        """The game being played, or the last one when the match is over."""
        return len(self.results) + (0 if self.over else 1)


@dataclass(frozen=True, slots=True)
class Protokoll:
    """A scored game: every hand with its points and running totals, and how the game stands.

    `games_won`, `game` and `match` are set in a match of several games (a rubber); `next_trump` when the rules
    fix the next deal's trump, so that the sheet can say it before the hand is entered.
    """

    setup: Setup
    sides: tuple[tuple[int, ...], ...]
    hands: tuple[ScoredHand, ...]
    totals: tuple[int, ...]
    next_dealer: int
    next_leader: int
    finished: bool
    winner: int | None
    games_won: tuple[int, ...] | None = None
    rubber_points: tuple[int, ...] | None = None
    deals_left: int | None = None
    game: int | None = None
    next_trump: str | None = None
    match: Match | None = None


PARTNERSHIP_SIDES = ((0, 2), (1, 3))


def add(totals: tuple[int, ...], points: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(t + p for t, p in zip(totals, points))


# ---------------------------------------------------------------- field checks


def require_fields(raw: Any, allowed: tuple[str, ...]) -> dict:
    """The hand input must be an object with only known fields."""
    if not isinstance(raw, Mapping):
        raise InputError({"input": Msg("a hand must be an object of fields")})
    unknown = [k for k in raw if k not in allowed]
    if unknown:
        raise InputError({str(k): Msg("unknown field (known: %(known)s)", known=", ".join(allowed)) for k in unknown})
    return dict(raw)


def seat(value: Any, n: int, name: str, errors: dict) -> int | None:
    if value is None:
        errors[name] = Msg("is missing: choose a player")
        return None
    if not _is_int(value) or not 0 <= value < n:
        errors[name] = Msg("must be a seat from 0 to %(last)d", last=n - 1)
        return None
    return value


def trick_pair(value: Any, total: int, errors: dict, name: str = "tricks") -> tuple[int, int] | None:
    """Two trick counts that add up to the deal's `total`."""
    if value is None:
        errors[name] = Msg("is missing: the tricks each side took, adding up to %(total)d", total=total)
        return None
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(_is_int(v) for v in value):
        errors[name] = Msg("must be two whole numbers, one per side, adding up to %(total)d", total=total)
        return None
    a, b = value
    if not (0 <= a <= total and 0 <= b <= total):
        errors[name] = Msg("each side takes from 0 to %(total)d tricks", total=total)
        return None
    if a + b != total:
        errors[name] = Msg("must add up to %(total)d (got %(a)d + %(b)d = %(sum)d)", total=total, a=a, b=b, sum=a + b)
        return None
    return (a, b)


def side_winner(totals: tuple[int, ...]) -> int | None:
    """The side with the single highest total, or None for a draw."""
    best = max(totals)
    leaders = [i for i, t in enumerate(totals) if t == best]
    return leaders[0] if len(leaders) == 1 else None


def is_int(value: Any) -> TypeGuard[int]:
    return _is_int(value)


# ---------------------------------------------------------------- the replay


def target_or_deals(totals: tuple[int, ...], number: int, options: Mapping[str, Any]) -> tuple[bool, int | None]:
    """Game end for the variants played to a target, or for a fixed number of deals."""
    deals = options.get("deals")
    if deals:
        return (number >= deals, side_winner(totals) if number >= deals else None)
    target = options.get("target")
    if target is not None:
        reached = [i for i, t in enumerate(totals) if t >= target]
        if reached:
            return True, side_winner(totals)
    return False, None


def nobody_sits_out(ctx: HandContext) -> int | None:
    """Every player plays every hand."""
    return None


def no_trump_kept(inp: Mapping[str, Any], ctx: HandContext) -> str | None:
    """The hand's input says all there is to say about its trump."""
    return None


def replay(
    setup: Setup,
    inputs: Iterable[Any],
    *,
    sides: tuple[tuple[int, ...], ...],
    check_hand: Callable[[Any, HandContext], dict[str, Any]],
    hand_points: Callable[[dict[str, Any], HandContext], tuple[int, ...]],
    leader: Callable[[dict[str, Any], HandContext], int],
    game_end: Callable[[tuple[int, ...], int, Mapping[str, Any]], tuple[bool, int | None]] = target_or_deals,
    sits_out: Callable[[HandContext], int | None] = nobody_sits_out,
    trump: Callable[[dict[str, Any], HandContext], str | None] = no_trump_kept,
    games_to_win: int = 1,
    start: Protokoll | None = None,
) -> Protokoll:
    """Score the hands one by one, checking each in its place; the totals are their sum.

    With `games_to_win` > 1 the game is a match (a rubber): a game won is counted, the next starts at 0–0, and the
    match ends when a side has won that many. `start`, the protokoll of the game's first hands, goes on from its
    last hand: the same as replaying them all.
    """
    n = setup.n
    zeros = (0,) * len(sides)
    match: Match | None
    if start is None:
        totals = zeros
        hands: list[ScoredHand] = []
        finished, winner = False, None
        match = Match(games_to_win, zeros) if games_to_win > 1 else None
    else:
        totals, hands, finished, winner = start.totals, list(start.hands), start.finished, start.winner
        match = start.match
    for i, raw in enumerate(inputs, len(hands)):
        number, dealer = i + 1, (setup.dealer + i) % n
        if finished:
            raise GameOver({"hand": Msg("the game ended with hand %(n)d; it takes no more hands", n=i)}, number)
        ctx = HandContext(number, dealer, n, setup.options, totals)
        try:
            inp = check_hand(raw, ctx)
        except InputError as exc:
            exc.number = number
            raise
        points = hand_points(inp, ctx)
        totals = add(totals, points)
        hands.append(
            ScoredHand(
                number,
                dealer,
                inp,
                points,
                totals,
                leader(inp, ctx),
                sits_out(ctx),
                match.game if match else None,
                trump(inp, ctx),
            )
        )
        finished, winner = game_end(totals, number, setup.options)
        if match is not None and finished and winner is not None:
            match = match.won(winner, totals)
            if not match.over:
                finished, winner, totals = False, None, zeros
    next_dealer = (setup.dealer + len(hands)) % n
    deals = setup.options.get("deals")
    return Protokoll(
        setup=setup,
        sides=sides,
        hands=tuple(hands),
        totals=totals,
        next_dealer=next_dealer,
        next_leader=(next_dealer + 1) % n,
        finished=finished,
        winner=winner,
        games_won=match.games_won if match else None,
        deals_left=(deals - len(hands)) if deals else None,
        game=match.game if match else None,
        match=match,
    )


def replay_rules(rules: Any, setup: Setup, inputs: Iterable[Any], start: Protokoll | None = None) -> Protokoll:
    """replay() with a variant module's own members (core/contract.py): the whole play() of a variant that needs
    nothing else."""
    return replay(
        setup,
        inputs,
        sides=rules.sides(setup.n),
        check_hand=rules.check_hand,
        hand_points=rules.hand_points,
        leader=rules.leader,
        game_end=rules.game_end,
        sits_out=rules.sits_out,
        start=start,
    )
