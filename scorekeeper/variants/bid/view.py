"""Bid whist on the pages: the bidder, the bid, uptown, downtown or no trump, and the books the bidder's side took
(the kitty one of them); or passed out in one tap."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms.fields import SelectChoice

from scorekeeper.games.forms import radio
from scorekeeper.variants import view_parts as parts
from scorekeeper.variants import view_shared as shared
from scorekeeper.variants.bid import rules
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.i18n import ngettext
from scorekeeper.web.inputs import number_or_raw

NAME = rules.NAME
STATS_WORDS = {"bids": _l("Bids as bidder")}  # the club statistics page: the contracts won, made or set
OPTION_LABELS = shared.labels(
    "target",
    "rate",
    "currency",
    min_bid=_l("Lowest bid"),
    made=_l("A made bid scores"),
    set_defenders=_l("Defenders with 7 books or more score when the bid is set"),
    no_trump_double=_l("No trump counts double"),
    boston=_l("Boston (all 13 books)"),
    kitty=_l("Kitty of six cards (the declarers' first book)"),
)
CHOICE_LABELS = {
    "bid": _l("the bid"),
    "books": _l("every book over six"),
    "quadruple": _l("four times the score"),
    "wins_game": _l("wins the game at once"),
    "none": _l("nothing more"),
    "uptown": _l("uptown"),  # the directions, as the hand page's buttons and its messages name them
    "downtown": _l("downtown"),
    "no_trump": _l("no trump"),
}
FIELD_LABELS = {"passed": parts.PASSED_OUT, "direction": _l("Uptown, downtown or no trump")}
PLAYER_HINT = _l("Four players; partners sit opposite (1st and 3rd, 2nd and 4th).")


class HandForm(parts.PassedOutForm):
    bidder = radio()
    bid = radio()
    direction = radio()
    tricks = radio()
    ERROR_FIELDS = {"passed": "bid"}

    def to_input(self, ctx) -> dict:
        """The bid part, then the books: the buttons count the bidder's side's books, the other side's follow."""
        bidder = number_or_raw(self.bidder.data, negative=True)
        out: dict = {
            "bidder": bidder,
            "bid": number_or_raw(self.bid.data, negative=True),
            "direction": self.direction.data or None,
        }
        books = number_or_raw(self.tricks.data, negative=True)
        if isinstance(books, int) and isinstance(bidder, int) and 0 <= bidder < ctx.n_players:
            other = rules.BOOKS - books
            out["tricks"] = [books, other] if bidder % 2 == 0 else [other, books]
        else:
            out["tricks"] = books
        return out

    @staticmethod
    def data_from(inp: dict, ctx) -> dict:
        if inp.get("passed"):
            return {}
        data = {k: inp[k] for k in rules.BID_FIELDS if k in inp}
        if "tricks" in inp:  # a deal in progress has its contract only
            data["tricks"] = inp["tricks"][rules.declarers(inp)]
        return data


def direction_name(direction: str) -> str:
    """The one direction asked for, translated."""
    return str(CHOICE_LABELS[direction])


def books_words(n: int) -> str:
    return ngettext("%(num)d book", "%(num)d books", n)


def buttons(form, ctx, side_names) -> dict:
    players, options = ctx.players, ctx.options
    form.bidder.choices = parts.name_choices(players)
    low = options.get("min_bid", 3)
    form.bid.choices = parts.number_choices(low, rules.TOP)
    form.direction.choices = [SelectChoice(d, direction_name(d)) for d in rules.DIRECTIONS]
    first = 1 if options.get("kitty", True) else 0  # the kitty is the declarers' first book
    form.tricks.choices = parts.number_choices(first, rules.BOOKS)
    return {
        "leader": _("the bidder"),  # whoever wins the auction leads; not known before the deal is bid
        "name_cols": parts.name_cols(players),
        "bid_cols": rules.TOP - low + 1,
        "kitty": bool(options.get("kitty", True)),
    }


def leads_by(form, ctx):
    """The bidder leads: the header names the bidder once tapped (or filled in from the deal in progress)."""
    return "bidder", {str(i): rules.leader({"bidder": i}, ctx) for i in range(ctx.n_players)}


def bids_words(bids, ctx) -> str:
    """The deal in progress: who bid what, before the books are known ("Bo 4 uptown")."""
    return _(
        "%(bidder)s %(bid)d %(direction)s",
        bidder=ctx.players[bids["bidder"]],
        bid=bids["bid"],
        direction=direction_name(bids["direction"]),
    )


def hand_words(inp, ctx) -> str:
    if inp.get("passed"):
        return _("Passed out")
    text = _(
        "%(bidder)s %(bid)d %(direction)s, %(books)s",
        bidder=ctx.players[inp["bidder"]],
        bid=inp["bid"],
        direction=direction_name(inp["direction"]),
        books=books_words(inp["tricks"][rules.declarers(inp)]),
    )
    if rules.boston(inp):
        text += " · " + _("Boston")
    return text


def target_label(table) -> str:
    return _("Game to (at minus it: in the hole)")


def house_rules(table) -> list[tuple[str, str]]:
    o = table.options
    lines = [
        (_("Bids"), _("%(low)d to %(high)d books over six", low=o.get("min_bid", 3), high=rules.TOP)),
        (_("Made"), _("the bid") if o.get("made", "bid") == "bid" else _("every book over six")),
        (
            _("Set"),
            _("minus the bid; defenders with 7 books or more score their books over six")
            if o.get("set_defenders", True)
            else _("minus the bid"),
        ),
    ]
    if o.get("no_trump_double", True):
        lines.append((_("No trump"), _("counts double")))
    boston = o.get("boston", "quadruple")
    lines.append((_("Boston"), str(CHOICE_LABELS[boston])))
    lines.append((_("Kitty"), _("six cards, the declarers' first book") if o.get("kitty", True) else _("none")))
    return lines


def blank_columns(table) -> list[tuple[str, str]]:
    return shared.columns("bidder", "bid", ("direction", _("Direction")), ("tricks", _("Books")))


def csv_columns(table, side_names) -> list:
    return [
        shared.field("passed", table.players),
        shared.field("bidder", table.players, seat=True),
        shared.field("bid", table.players),
        shared.field("direction", table.players, label=_l("direction"), words=direction_name),
    ] + shared.per_side("tricks", side_names)
