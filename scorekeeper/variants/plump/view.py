"""Plump on the pages: each player's bid and tricks on one screen (a stepper per player, the dealer's forbidden bid
marked, the last player's tricks filled in), the deal's cards said and sent; each player's bid/tricks in their own
protokoll cell; a blank sheet with the cards per deal printed ahead and a bid column per player."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms.fields import HiddenField

from scorekeeper.core import deal_sizes
from scorekeeper.games.forms import HandForm as BaseHandForm
from scorekeeper.variants import view_parts as parts
from scorekeeper.variants import view_shared as shared
from scorekeeper.variants.plump import rules
from scorekeeper.web import words
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.i18n import ngettext
from scorekeeper.web.inputs import number_or_raw

NAME = rules.NAME
SEATS = max(rules.PLAYER_COUNTS)
OPTION_LABELS = {
    "schedule": _l("Cards per deal"),
    "max_cards": _l("Most cards in a deal"),
    "hook": _l("The hook: the dealer may not make the bids add up"),
    "bonus": _l("Points for an exact bid, besides the bid"),
    "zero_bid": _l("Points for an exact bid of nothing"),
    "bonus_round_zero": _l("Points for an exact bid of nothing in the bonus round"),
    "miss": _l("A missed bid scores"),
    "lead": _l("Who leads"),
}
CHOICE_LABELS = {
    "down_up": _l("from the most down to 1 and up again"),
    "up_down": _l("from 1 up to the most and down again"),
    "down": _l("from the most down to 1"),
    "up": _l("from 1 up to the most"),
    "up_down_twice": _l("from 1 up to the most and down again, the most twice"),
    "down_up_twice": _l("from the most down to 1 and up again, 1 twice"),
    "zero": _l("nothing"),
    "tricks": _l("a point per trick taken"),
    "minus_difference": _l("minus the difference"),
    "minus_made": _l("minus what the bid would have scored"),
    "left_of_dealer": _l("the player left of the dealer"),
    "highest_bid": _l("the highest bidder"),
}
FIELD_LABELS = {"bids": _l("Bids"), "tricks": _l("Tricks"), "cards": _l("Cards")}
STYLESHEET = "variants/plump/plump.css"
SCRIPT = "variants/plump/plump.js"
BLANK_ROWS = 28


@parts.seat_rows("b", "t", seats=SEATS)
class HandForm(BaseHandForm):
    """A bid and a tricks field per seat (b0…b7, t0…t7), and the deal's cards as the page said them."""

    cards = HiddenField()

    missing: dict = {}  # the seats whose bid or tricks were not tapped, in bidding order (set by to_input)

    def to_input(self, ctx) -> dict:
        n = ctx.n_players
        bids = [number_or_raw(self[f"b{s}"].data, negative=True) for s in range(n)]
        entered = [number_or_raw(self[f"t{s}"].data, negative=True) for s in range(n)]
        tricks = parts.last_filled_in(entered, ctx.cards)  # the last player's tricks: what is left of the deal
        order = [(ctx.dealer + k) % n for k in range(1, n + 1)]
        self.missing = {
            "bids": [s for s in order if bids[s] is None],
            "tricks": [s for s in order if tricks[s] is None],
        }
        inp: dict = {
            "bids": None if all(b is None for b in bids) else bids,
            "tricks": None if all(t is None for t in tricks) else tricks,
        }
        cards = number_or_raw(self.cards.data, negative=True)
        if cards is not None:
            inp["cards"] = cards
        return inp

    def bids_input(self, ctx, fields: tuple[str, ...]) -> dict:
        inp = super().bids_input(ctx, fields)
        self.missing = {**self.missing, "tricks": []}  # the bids page asks no tricks
        return inp

    def field_for(self, key: str) -> str | None:
        """A bid or tricks left out is said beside the first such player's row (the message names them all)."""
        seats = self.missing.get(key)
        if seats:
            return f"{key[0]}{seats[0]}"
        return super().field_for(key)

    @staticmethod
    def data_from(inp: dict, ctx) -> dict:
        return {"cards": str(ctx.cards), **parts.seat_data(inp, {"bids": "b", "tricks": "t"})}


def _forbidden(form, ctx) -> int | None:
    """The dealer's forbidden bid under the hook, once the others' bids are known: what would make them add up."""
    if not ctx.options["hook"]:
        return None
    others = [number_or_raw(form[f"b{s}"].data) for s in range(ctx.n_players) if s != ctx.dealer]
    if not all(isinstance(b, int) for b in others):
        return None
    bid = ctx.cards - sum(others)
    return bid if 0 <= bid <= ctx.cards else None


def buttons(form, ctx, side_names) -> dict:
    choices = parts.number_choices(0, ctx.cards)
    n = ctx.n_players
    for s in range(n):
        form[f"b{s}"].choices = choices
        form[f"t{s}"].choices = choices
    form.cards.data = str(ctx.cards)
    forbidden = _forbidden(form, ctx)
    order = [(ctx.dealer + k) % n for k in range(1, n + 1)]  # the bids go round from the dealer's left
    seats = [
        {
            "seat": s,
            "name": side_names[s],
            "bid": f"b{s}",
            "tricks": f"t{s}",
            "dealer": s == ctx.dealer,
            "forbidden": forbidden if s == ctx.dealer else None,
            "missing": s in form.missing.get("bids", ()) or s in form.missing.get("tricks", ()),
        }
        for s in order
    ]
    return {
        "seats": seats,
        "cards": ctx.cards,
        "cards_words": ngettext("%(num)d card each", "%(num)d cards each", ctx.cards),
        "hook": ctx.options["hook"],
        "cols": min(ctx.cards + 1, 7),
        "hidden": {f"{k}{s}" for k in "bt" for s in range(n, SEATS)} | {"cards"},
    }


def _bid_words(bids) -> str:
    return _("bids %(bids)s", bids=words.score(bids))


def hand_words(inp, ctx) -> str:
    return _("%(bids)s, tricks %(tricks)s", bids=_bid_words(inp["bids"]), tricks=words.score(inp["tricks"]))


def cell_words(inp, ctx) -> list[str]:
    return shared.bid_and_tricks(inp["bids"], inp["tricks"])


def bids_words(bids, ctx) -> str:
    total = sum(bids["bids"])
    return _(
        "%(bids)s: %(total)d bid for %(cards)d tricks", bids=_bid_words(bids["bids"]), total=total, cards=ctx.cards
    )


def bids_cells(bids, ctx) -> list[str]:
    return [_("bid %(n)d", n=b) for b in bids["bids"]]


def house_rules(table) -> list[tuple[str, str]]:
    o = table.options
    sizes = rules.schedule_sizes(o, table.n_players)
    schedule = " ".join(map(str, sizes)) if len(sizes) <= 20 else " ".join(map(str, sizes[:19])) + " …"
    exact = _("%(bonus)d + the bid; nothing bid and nothing taken: %(zero)d", bonus=o["bonus"], zero=o["zero_bid"])
    if o.get("bonus_round_zero") is not None:
        exact = _(
            "%(exact)s (in the bonus round of %(cards)d cards: %(bonus_zero)d)",
            exact=exact,
            cards=(rules.DECK - 1) // table.n_players,
            bonus_zero=o["bonus_round_zero"],
        )
    return [
        (_("Cards per deal"), schedule),
        (_("Exact bid"), exact),
        (_("Missed bid"), str(CHOICE_LABELS[o["miss"]])),
        (_("The hook"), _("the dealer may not make the bids add up") if o["hook"] else _("off")),
        (_("Leads"), str(CHOICE_LABELS[o["lead"]])),
    ]


def blank_columns(table) -> list[tuple[str, str]]:
    return [("cards", _("Cards"))]


def blank_side_columns(table) -> list[tuple[str, str]]:
    return [("bid", _("bid"))]


def blank_cells(number, table) -> dict:
    return {"cards": str(rules.cards(number, table))}


def csv_columns(table, side_names) -> list:
    cards = (_("cards"), lambda inp: inp["cards"])
    return [cards, *shared.per_side("bids", side_names, shared.heading("bid")), *shared.per_side("tricks", side_names)]


def hand_fields(hand, ctx) -> dict:
    return {"cards": hand.cards}


def answer_fields(protokoll) -> dict:
    return {"deal_sizes": list(deal_sizes(protokoll.setup) or ()), "next_cards": protokoll.next_cards}
