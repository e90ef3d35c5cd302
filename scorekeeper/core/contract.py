"""What a variant's rules module provides: the one contract the core, the services and the web layer rely on.

A variant is a package whose rules.py is found by the registry (core/registry.py: its entry point). It must provide the
members of `VariantModule`: what it is called, its table sizes, inputs and options, and how a hand is checked and
scored. Every other member of the contract (`VariantDefaults`) has a default in core/defaults.py, in the spirit of
Datasette's optional hooks: a module defines one only where its rule differs. `Variant` puts the two together, so
`VARIANTS[name].member` always answers.

Every hook is asked with a context, last: a `TableContext` (the players, how many, the first dealer, the options)
for what holds for the whole game, a `HandContext` (also the hand's number, dealer, cards, who sits out, the totals
before it, the variant's own state folded over the hands) for what holds for one hand, and the deal's `number` beside
the table for what a table knows of a deal before it is played. A hook reads the fields it needs, so a field added
to a context later breaks no variant.

mypy checks every registered module against `VariantModule` and core/defaults.py against `VariantDefaults`;
tests/unit/test_variant_contract.py checks the same at run time, and each member's parameters.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any, Protocol, cast, runtime_checkable

from scorekeeper.core import defaults
from scorekeeper.core.game import BidResult, HandContext, Match, ScoredHand, Sides, TableContext
from scorekeeper.core.numbers import Point
from scorekeeper.core.options import Option


@runtime_checkable
class VariantModule(Protocol):
    """What every variant's module must say itself: data that describes it and how a hand is checked and scored."""

    @property
    def NAME(self) -> str:
        """The key stored with every game and used in URLs, so it never changes once games exist."""

    @property
    def TITLE(self) -> str:
        """The name players know the game by, translatable (a Msg), for headings and menus."""

    @property
    def DESCRIPTION(self) -> str:
        """One line that tells a table choosing a variant how this one differs from the others."""

    @property
    def PLAYER_COUNTS(self) -> tuple[int, ...]:
        """The table sizes the rules are written for, so that a game cannot start with a seat too many or too few."""

    @property
    def INPUT_FIELDS(self) -> tuple[str, ...]:
        """The fields a hand's input may have, so that a misspelt field is refused rather than ignored."""

    @property
    def OPTIONS(self) -> Mapping[str, Option]:
        """The house rules a table may switch, each with its default, its range or choices and a line of help, so
        that forms, the API and the printed sheet describe them from one place."""

    def check_hand(self, raw: Any, ctx: HandContext) -> dict[str, Any]:
        """The hand as entered, checked in its place and normalised into what is stored; raises InputError, so that
        nothing the rules cannot score reaches the sheet."""

    def hand_points(self, inp: Mapping[str, Any], ctx: HandContext) -> tuple[Point, ...]:
        """A checked hand's points per side; the score before it is `ctx.totals`, since some rules depend on it."""


class VariantDefaults(Protocol):
    """The members a variant may specialise; core/defaults.py holds the default of each (said here after "Default")."""

    @property
    def ZERO_SUM(self) -> bool:
        """Every hand's points add up to zero, so the totals are already what each player wins or pays and the
        sheet shows their sum (Σ) as a check. Default False."""

    @property
    def POINTS(self) -> bool:
        """The game is kept in points: the sheets show each hand's points, the running totals, their sum and the
        chart. A variant that keeps none (knock-out: who is still in) says False, and its `standing` says how each
        side stands. Default True."""

    def standing(self, state: Any, totals: tuple[Point, ...], table: TableContext) -> tuple[Any, ...] | None:
        """Each side's standing in words (a Msg or text: "7 tricks", "still in", "out after hand 4") from the state
        and the totals after the last hand, shown wherever the totals would be (the protokoll, the sheets, the API),
        because not every game is won on points. Default None: the totals are the standing."""

    @property
    def ORDER(self) -> int:
        """Where the variant stands in the menus: lower first, then by NAME. Default 100."""

    @property
    def FOR_MONEY(self) -> bool:
        """A club may play it for money: its tables are settled at the club's rate. (Any game with a `rate` option
        set is settled, whatever this says.) Default False."""

    def check_options(self, table: TableContext) -> dict[str, str]:
        """Errors (keyed `options.<name>`) for house rules that are each valid but do not go together, or do not fit
        the table (10 cards each for 7 players). Default: none."""

    def resolve_options(self, given: Mapping[str, Any], table: TableContext) -> tuple[dict[str, Any], dict[str, str]]:
        """The checked options (`table.options`) with what a preset and the shorthands stand for filled in, and errors
        keyed `options.<name>`; `given` is what the table chose. What scores is then stored with the game and shown
        in its answer. Default: the options as checked."""

    def sides(self, table: TableContext) -> Sides:
        """The seats that score together, because points and totals are kept per side. Default: each player alone."""

    def deals(self, table: TableContext) -> int | None:
        """How many deals the game has, if that is known when it starts, so the sheet can say how many are left.
        Default: the `deals` option, if the variant has it and it is set."""

    def deals_counted(self, state: Any, played: int, table: TableContext) -> int:
        """How many of the game's `deals` the `played` hands so far count for, given the state after them, so that
        "deals left" counts what the variant counts: a deal thrown in when all passed and dealt again counts for
        none. Default: every hand counts (`played`)."""

    def initial_state(self, table: TableContext) -> Any:
        """The variant's own state before the first hand (who is in, lives left), which `fold` carries over the hands
        and every HandContext holds as `state`, so a rule that depends on the game so far need not hide it in the
        points. Keep it immutable (a tuple, a frozen dataclass): it is shared by the contexts. Default None: no state."""

    def fold(self, state: Any, hand: ScoredHand, ctx: HandContext) -> Any:
        """The state after `hand` (scored in `ctx`, whose `state` is the one before it): knock-out whist marks who
        is out and who took most tricks. Default: the state unchanged."""

    def dealer(self, number: int, state: Any, table: TableContext) -> int | None:
        """The seat that deals hand `number`, given the state after the hands before it (None: a sheet printed
        ahead, which does not know it), so that a dealer can skip players who are out; None when it cannot be known
        yet. Default: the deal passes one seat clockwise from the first dealer (`table.dealer_of`)."""

    def next_leader(self, ctx: HandContext) -> int:
        """The seat that leads hand `ctx.number` as known before it is entered (the protokoll's "next to lead", the
        hand page's header), so a variant may decide it from its state (whoever took most tricks last deal). Once
        entered, the hand's own leader is `leader`. Default: the player to the dealer's left."""

    def cards(self, number: int, table: TableContext) -> int:
        """How many cards each player holds in deal `number` (and so how many tricks it has). Default 13."""

    def sits_out(self, number: int, table: TableContext) -> int | None:
        """The seat that holds no cards in deal `number` (five-handed Danish: the dealer), so that it neither bids nor
        scores. Default: nobody."""

    def fixed_trump(self, number: int, table: TableContext) -> str | None:
        """The trump of deal `number` when the house rules fix it before the deal, so the sheet can say it ahead.
        Default: none fixed."""

    def leader(self, inp: Mapping[str, Any], ctx: HandContext) -> int:
        """The seat that leads to the first trick, so the sheet can tell the table who plays first. Default: the first
        player holding cards to the dealer's left."""

    def trump(self, inp: Mapping[str, Any], ctx: HandContext) -> str | None:
        """The hand's trump when the variant keeps it beside the input (the rotation fixed it and the input left it
        out). Default: None, the input says all there is to say."""

    def game_end(self, hand: ScoredHand, ctx: HandContext) -> tuple[bool, int | None]:
        """Whether the game (or a game of a match) ended with `hand` (its input, points and totals; `ctx.totals` are
        those before it), and the winning side (None: a draw), because a finished game takes no more hands.
        Default: after the `deals` option's number of deals, else when a side reaches the `target` option."""

    def games_to_win(self, table: TableContext) -> int:
        """Games a side must win to win the match (a rubber: 2); each game starts at 0–0. Default 1."""

    def match_points(self, match: Match | None, table: TableContext) -> tuple[int, ...] | None:
        """A finished match in points per side (the rubber's), which then settle the money. Default: None."""

    def bid_result(self, inp: Mapping[str, Any], table: TableContext) -> BidResult | None:
        """A hand's bid and how it went (bidder, made, alone, partner), so a club can keep statistics of its members'
        bids. Default None: the variant has no bids to count."""

    @property
    def BID_FIELDS(self) -> tuple[str, ...]:
        """The input fields of its bidding, which a table may enter before the deal is played (a deal in progress:
        every phone's protokoll shows them while it is played, and the tricks complete the hand later). Default ():
        a hand is entered once it is played."""

    def check_bids(self, raw: Any, ctx: HandContext) -> dict[str, Any]:
        """A deal's bids (only BID_FIELDS) checked in its place before it is played and normalised into what is kept;
        raises InputError naming the field. `leader` is asked with them too, so the table knows who leads. Default:
        refused (a variant with BID_FIELDS says how its bids are checked)."""


class VariantRules(VariantModule, VariantDefaults, Protocol):
    """The whole contract, as `VARIANTS[name]` answers it: a module's own members and the defaults of the others."""

    own: frozenset[str]  # the optional members the module has of its own (Variant.own): the others are the defaults'


REQUIRED = tuple(name for name in vars(VariantModule) if not name.startswith("_"))
OPTIONAL = tuple(name for name in vars(VariantDefaults) if not name.startswith("_"))
MEMBERS = REQUIRED + OPTIONAL
CONTRACT = frozenset(MEMBERS)
_DEFAULTS: VariantDefaults = defaults  # mypy: the defaults are a whole implementation of the optional members


class Variant:
    """A variant module with the contract's defaults for what it leaves out; its own other names (Danish:
    `house_of`, `ladder` …) are there too. A member of the contract is read from the module once and kept (a test
    that replaces one replaces it here, on the registry's entry, not on the module)."""

    def __init__(self, module: ModuleType | VariantModule):
        self.module = module
        self.own = frozenset(name for name in OPTIONAL if hasattr(module, name))

    def __getattr__(self, name: str) -> Any:
        """A member as the module has it, else the contract's default; a member of the contract is looked up once (a
        hand asks some fifteen of them: kept here, they are found as plain attributes from then on)."""
        module = self.__dict__["module"]
        found = getattr(module, name) if hasattr(module, name) or name not in OPTIONAL else getattr(defaults, name)
        if name in CONTRACT:
            self.__dict__[name] = found
        return found

    def __repr__(self) -> str:
        return f"<variant {self.module.NAME}>"


def variant(module: VariantModule) -> VariantRules:
    """The registry's entry for a module: the whole contract."""
    return cast(VariantRules, Variant(module))
