"""What the web layer asks of a variant: the presentation half of "a variant is a plug-in".

Each `variants/<name>/view.py` module provides the members of `ViewModule` (its name, its hand form, its hand and its
blank sheet in words) and may specialise any member of `ViewDefaults`, whose defaults are variants/view_defaults.py.
`View` puts the two together, so `VIEWS[name].member` always answers. The pages, sheets, clubs and describe code ask
these members instead of testing a variant's name; what the rules already say (FOR_MONEY, sits_out, OPTIONS, sides)
they read from the core.

What several views write alike is written once beside the contract, for a package's view as for a built-in's:
variants/view_parts.py (rows of number, pair, suit and name buttons, the passed-out deal's hand form, a row of buttons
per player) and variants/view_shared.py (the words: shared option labels, the blank sheet's shared columns, a bid made
or lost, a player's bid and tricks in a cell, CSV columns). A view still fills each of its own fields in `buttons()`.

The hooks get the core's contexts (core/game.py): a `TableContext` (players, options, first dealer) or a
`HandContext` (also the hand's number, dealer, cards, who sits out, the totals before it), so a field added there
breaks no view. The hand form gets the hand's context too: `to_input(ctx)`, `data_from(inp, ctx)`,
`submitted(formdata, ctx)` (games/forms.py: HandForm).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from scorekeeper.variants import view_defaults as defaults

# A CSV column: its header and how it reads the cell from a hand's input.
CsvColumn = tuple[str, Callable[[Mapping[str, Any]], Any]]


class ViewModule(Protocol):
    """What every variant's view must say itself."""

    NAME: str  # the core variant's NAME; the hand page is then variants/<NAME>/hand.html (a package's templates/hand.html)
    HandForm: type  # a games.forms.HandForm: one field per question, to_input(ctx), data_from(inp, ctx)

    def hand_words(self, inp: Mapping, ctx) -> str:
        """A hand in a few words for the protokoll and the edit log: "Bo 9 gode ♣, partner Dina, 10 tricks"."""

    def blank_columns(self, table) -> list[tuple[str, str]]:
        """(key, label) of what a player writes down per hand on a blank sheet."""


class ViewDefaults(Protocol):
    """The members a view may specialise; variants/view_defaults.py holds the default of each ("Default …")."""

    OPTION_LABELS: Mapping[
        str, str
    ]  # a label for each of its own options (shared.py labels target, deals, rate, currency). Default {}
    FIELD_LABELS: Mapping[
        str, str
    ]  # its own input fields in words, for error messages ("red" → "First red / black"). Default {}
    # Labels for values of its "choice" options (others show as they are), and for its hand's choices a message lists
    # (core Choices: "is missing: one of prop, solo …" in the buttons' words, web/messages.py). Default {}
    CHOICE_LABELS: Mapping[str, str]
    PLAYER_HINT: str | None  # the new-game page's line on the players. Default None: the table sizes in words
    BLANK_ROWS: int  # rows of a blank sheet that fill one A4 page under the head. Default 27
    TARIFF_PRESETS: Mapping[str, Mapping]  # named sets of tariff options a table or club can pick. Default {}
    PRESET_LABELS: Mapping[
        str, str
    ]  # a label for each preset: TARIFF_PRESETS and the choices of a "preset" option. Default {}
    # The club statistics page's words for its bids (core bid_result): "bids" (with a partner), "alone" (played alone),
    # "self" (the bidder its own partner); a row without a word is not shown. Default {}: no bid rows (every club's page
    # still shows the points per evening and the partners)
    STATS_WORDS: Mapping[str, str]
    STYLESHEET: (
        str | None
    )  # its own stylesheet (variants/<name>/static/, named variants/<name>/<file>) on its pages. Default None
    SCRIPT: (
        str | None
    )  # its own script (variants/<name>/static/, named variants/<name>/<file>) on its hand page. Default None
    tariff_matrix: Callable[[Mapping], dict] | None  # bid × tricks table in words and numbers. Default None: no tariff
    # An editor of its own for an option, drawn in its place on every page that sets house rules (new game, a club's
    # card, blank sheets; web/editors.py): option name → an object with `template` (variants/<name>/<file>),
    # `covers` (the options it draws too, not drawn on their own), `mark` (the field that says a form carries its
    # fields), `posted(formdata)`, `acts(formdata)` (a button of its own was pressed: show, save nothing),
    # `blank(options)`, `read(formdata, files)` and `without_fields(formdata, options)` (its state: field texts,
    # errors by field, the options it sets, a notice), `view(state, …)` (its template's context), `updates(state)` and
    # `messages(state)` (what a live preview sets: field values, errors by field) and `field_of(error key, state)`.
    # Default {}: every option in its own field.
    OPTION_EDITORS: Mapping[str, Any]

    def tricks_total(self, ctx) -> int:
        """How many tricks the trick buttons share out in this hand. Default: the cards each holds (ctx.cards)."""

    def buttons(self, form, ctx, side_names: list[str]) -> dict:
        """Fill the hand form's choices for hand `ctx` (SelectChoice lists); answer what its template needs more,
        and under "hidden" the fields the page leaves out this hand (their errors then show at the top). The
        shared trick buttons ("8–5") are filled in before. Default: nothing more."""

    def leads_by(self, form, ctx) -> tuple[str | tuple[str, ...], Mapping[str, int]] | None:
        """The hand form's field whose tap decides who leads, and for each of its choices the leading seat (asked of
        the core's `leader`), so that the form's header follows the taps; or several fields (a tuple) when it takes
        their taps together, each seat then keyed by their values joined by "|" ("" for one not yet tapped; a key
        missing: the dealer's left). Default None: the dealer's left leads."""

    def cell_words(self, inp: Mapping, ctx) -> list[str] | None:
        """What each side entered in its own protokoll cell (a player's bid and tricks: "3/3"), one text per side,
        shown on the protokoll and the printed sheet beside the points. Default None: the hand's words say all."""

    def bids_words(self, bids: Mapping, ctx) -> str:
        """The deal in progress in a few words (its bids, entered before it is played), for every phone's protokoll.
        Default: each bid field and its value."""

    def bids_cells(self, bids: Mapping, ctx) -> list[str] | None:
        """What each side bid in the deal in progress, in its own protokoll cell ("bid 3"), one text per side.
        Default None: the words say all."""

    def outcome(self, inp: Mapping, points, ctx) -> str | None:
        """ "made" or "lost" for the bidder's side, so the protokoll can mark it. Default: by the side of the input's
        `bidder` seat, if it has one; None otherwise."""

    def outcome_lines(self, protokoll, side_names: list[str]) -> list[str]:
        """Lines of its own under the outcome on the protokoll and the sheet (what a rubber's points are made of).
        Default: none."""

    def players_by_seat(self, table) -> bool:
        """A sheet's head names the seats in order, not side against side. Default: when each player scores alone."""

    def target_label(self, table) -> str:
        """What the `target` option is called on a sheet's head. Default "Target"."""

    def house_rules(self, table) -> list[tuple[str, str]]:
        """The variant's own house rules as (label, value) for a sheet's head (target, deals, stake are shared).
        Default: none."""

    def tariff_words(self, tariff: Mapping) -> dict:
        """A printed tariff's own words (games/paper.tariff_view's dict: its `multiples`, `standard_suffixes`,
        `pool`): "note", the heading's small line, and "sol_head", the sol table's two headings (made, lost).
        Default: no note, "made" and "lost"."""

    def blank_side_columns(self, table) -> list[tuple[str, str]]:
        """(key, label) of what each side writes down per hand in its own columns on a blank sheet, before its points
        and total (a player's bid). Default: none."""

    def blank_cells(self, number: int, table) -> Mapping[str, str]:
        """What a blank sheet prints ahead in deal `number`'s entry columns, by column key (the deal's cards, a trump
        the rules fix). Default: a fixed trump (core fixed_trump) in a column keyed "trump"."""

    def csv_columns(self, table, side_names: list[str]) -> list[CsvColumn]:
        """The entered fields as CSV columns. Default: a column per input field, a list with one number per side
        as a column per side."""

    def answer_fields(self, protokoll) -> dict:
        """Fields of its own for the game's JSON answer (a rubber's points). Default: none."""

    def hand_fields(self, hand, ctx) -> dict:
        """Fields of its own for a hand's JSON answer (the deal's cards): a scored hand, or the deal in progress (its
        bids: games/deal.OpenDeal), with the context it is played in (`ctx.state`: the variant's state before it).
        Default: none."""

    def passed_words(self, ctx) -> Mapping[str, str]:
        """The words of its one-tap button for a deal nobody played (games/_passed_out.html), in the variant's own
        terms ("Thrown in: the next deal counts double"): "button", "ask" (the question before it replaces a hand
        typed in), "replace" (the question before it replaces a played hand: %(n)d its number, %(hand)s the hand
        in words) and "yes". Default: "Passed out (all passed)" and its questions."""


def functions(protocol) -> dict[str, inspect.Signature]:
    """The hooks of a protocol and their signatures."""
    return {
        name: inspect.signature(value)
        for name, value in vars(protocol).items()
        if callable(value) and not name.startswith("_")
    }


REQUIRED = tuple(dict.fromkeys([*ViewModule.__annotations__, *functions(ViewModule)]))
OPTIONAL = tuple(dict.fromkeys([*ViewDefaults.__annotations__, *functions(ViewDefaults)]))


def members() -> list[str]:
    """Every member of the contract, required first."""
    return list(REQUIRED) + list(OPTIONAL)


def missing(view) -> list[str]:
    """The required members a view module lacks."""
    return [name for name in REQUIRED if not hasattr(view, name)]


class View:
    """A variant's view module with the defaults for what it leaves out; its own other names are there too."""

    def __init__(self, module):
        self.module = module

    def __getattr__(self, name: str) -> Any:
        module = self.__dict__["module"]
        if hasattr(module, name) or name not in OPTIONAL:
            return getattr(module, name)
        return getattr(defaults, name)

    @property
    def HAND_TEMPLATE(self) -> str:
        return f"variants/{self.module.NAME}/hand.html"

    def __repr__(self) -> str:
        return f"<view {self.module.NAME}>"
