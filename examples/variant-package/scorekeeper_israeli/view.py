"""Israeli whist on the pages: the auction (declarer, bid, trump), each player's call and tricks on one screen, the
deal thrown in when all pass in one tap (in its own words: the next deal counts double); each player's call and tricks
in their own protokoll cell; its words in its own catalogues (translations/: da, nb, sv), read beside the app's.

The presentation contract: scorekeeper/variants/view_contract.py; the pieces its hand page is made of, as the
built-in variants' are: scorekeeper/variants/view_parts.py and view_shared.py.
"""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

from scorekeeper.core.game import SUITS
from scorekeeper.games.forms import radio
from scorekeeper.variants import view_parts as parts
from scorekeeper.variants import view_shared as shared
from scorekeeper.web import words
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.inputs import number_or_raw
from scorekeeper_israeli import rules

NAME = rules.NAME
SEATS = max(rules.PLAYER_COUNTS)
OPTION_LABELS = shared.labels(
    "deals",
    min_bid=_l("Lowest bid of the trump auction"),
    thrown_doubles=_l("A deal thrown in doubles the next"),
    zero_under=_l("An exact call of nothing, under"),
    zero_over=_l("An exact call of nothing, over"),
)
FIELD_LABELS = {
    "passed": _l("Thrown in (all passed)"),
    "declarer": _l("Declarer"),
    "bid": _l("Bid"),
    "trump": _l("Trump"),
    "predictions": _l("Calls"),
    "tricks": _l("Tricks"),
}
STATS_WORDS = {"alone": _l("Auctions won")}
PLAYER_HINT = _l("Four players, each scoring alone: a trump auction, then everyone calls their tricks.")
STYLESHEET = "variants/israeli/israeli.css"


@parts.seat_rows("p", "t", seats=SEATS)
class HandForm(parts.PassedOutForm):
    """The auction (declarer, bid, trump), a call and a tricks field per seat (p0…p3, t0…t3); the "thrown in" button
    is the passed-out deal's (parts.PassedOutForm: a hand of its own, asked first over a played hand)."""

    declarer = radio()
    bid = radio()
    trump = radio()
    where: dict = {}  # error key → the field it is said beside (set by to_input: the last to call, a missing count)

    def to_input(self, ctx) -> dict:
        n = ctx.n_players
        calls = [number_or_raw(self[f"p{s}"].data) for s in range(n)]
        entered = [number_or_raw(self[f"t{s}"].data) for s in range(n)]
        tricks = parts.last_filled_in(entered, rules.CARDS)  # the last player's tricks: what is left of the deal
        declarer = number_or_raw(self.declarer.data)
        last = rules.last_to_say(declarer, n) if isinstance(declarer, int) and 0 <= declarer < n else None
        self.where = {
            "predictions": f"p{next((s for s, c in enumerate(calls) if c is None), last if last is not None else 0)}",
            "tricks": f"t{next((s for s, t in enumerate(tricks) if t is None), 0)}",
        }
        return {
            "declarer": declarer,
            "bid": number_or_raw(self.bid.data),
            "trump": self.trump.data or None,
            "predictions": None if all(c is None for c in calls) else calls,
            "tricks": None if all(t is None for t in tricks) else tricks,
        }

    def bids_input(self, ctx, fields: tuple[str, ...]) -> dict:
        return {k: v for k, v in super().bids_input(ctx, fields).items() if k != "tricks"}

    def field_for(self, key: str) -> str | None:
        """The calls' error beside the player who calls last (or the first call left out), the tricks' beside the
        first left out: the page shows each as a player's row of buttons."""
        return self.where.get(key) or super().field_for(key)

    @staticmethod
    def data_from(inp: dict, ctx) -> dict:
        if inp.get("passed"):
            return {}
        data = {k: inp[k] for k in ("declarer", "bid", "trump") if inp.get(k) is not None}
        return {**data, **parts.seat_data(inp, {"predictions": "p", "tricks": "t"})}


def _factor_words(factor: int) -> str:
    return _("This deal counts ×%(n)d: the deal before it was thrown in.", n=factor) if factor > 1 else ""


def buttons(form, ctx, side_names) -> dict:
    players = ctx.players
    form.declarer.choices = parts.name_choices(players)
    form.bid.choices = parts.number_choices(ctx.options["min_bid"], rules.CARDS)
    form.trump.choices = parts.suit_choices((*SUITS, "none"))
    counts = parts.number_choices(0, rules.CARDS)
    for s in range(ctx.n_players):
        form[f"p{s}"].choices = counts
        form[f"t{s}"].choices = counts
    factor = ctx.state.factor if isinstance(ctx.state, rules.State) else 1
    return {
        "seats": [{"name": side_names[s], "call": f"p{s}", "tricks": f"t{s}"} for s in range(ctx.n_players)],
        "factor_words": _factor_words(factor),
        "bid_cols": min(rules.CARDS + 1 - ctx.options["min_bid"], 9),
    }


def leads_by(form, ctx):
    """The declarer leads: the header follows the declarer tapped."""
    return "declarer", {str(s): s for s in range(ctx.n_players)}


def _auction_words(inp, ctx) -> str:
    return _(
        "%(declarer)s %(bid)d %(trump)s, calls %(calls)s (%(over_under)s)",
        declarer=ctx.players[inp["declarer"]],
        bid=inp["bid"],
        trump=words.suit(inp["trump"]),
        calls=words.score(inp["predictions"]),
        over_under=_("over") if rules.over_under(inp["predictions"]) == "over" else _("under"),
    )


def hand_words(inp, ctx) -> str:
    if inp.get("passed"):
        return _("Thrown in (all passed)")
    said = _("%(auction)s, tricks %(tricks)s", auction=_auction_words(inp, ctx), tricks=words.score(inp["tricks"]))
    factor = ctx.state.factor if isinstance(ctx.state, rules.State) else 1
    return f"{said} ×{factor}" if factor > 1 else said


def cell_words(inp, ctx) -> list[str] | None:
    if inp.get("passed"):
        return None
    return shared.bid_and_tricks(inp["predictions"], inp["tricks"])


def bids_words(bids, ctx) -> str:
    return _auction_words(bids, ctx)


def bids_cells(bids, ctx) -> list[str]:
    return [_("calls %(n)d", n=c) for c in bids["predictions"]]


def outcome(inp, points, ctx) -> str | None:
    """Made or lost: the declarer's own call."""
    if inp.get("passed"):
        return None
    declarer = inp["declarer"]
    return "made" if inp["predictions"][declarer] == inp["tricks"][declarer] else "lost"


def house_rules(table) -> list[tuple[str, str]]:
    o = table.options
    return [
        (_("Lowest bid"), str(o["min_bid"])),
        (_("A deal thrown in"), _("doubles the next") if o["thrown_doubles"] else _("counts for nothing")),
        (
            _("An exact call of nothing"),
            _("%(under)d under, %(over)d over", under=o["zero_under"], over=o["zero_over"]),
        ),
    ]


def passed_words(ctx) -> dict:
    doubles = ctx.options["thrown_doubles"]
    return {
        "button": _("Thrown in (all passed): the next deal counts double") if doubles else _("Thrown in (all passed)"),
        "ask": _("Replace this hand with a deal thrown in?"),
        "replace": _("Replace hand %(n)d (%(hand)s) with a deal thrown in?"),
        "yes": _("Yes, all passed"),
    }


def blank_columns(table) -> list[tuple[str, str]]:
    return shared.columns(("declarer", _("Declarer")), "bid", "trump")


def blank_side_columns(table) -> list[tuple[str, str]]:
    return [("call", _("call"))]


def csv_columns(table, side_names) -> list:
    return (
        [shared.field("passed", table.players), shared.field("declarer", table.players, seat=True)]
        + [shared.field("bid", table.players), shared.field("trump", table.players)]
        + shared.per_side("predictions", side_names, _("call"))
        + shared.per_side("tricks", side_names)
    )


def hand_fields(hand, ctx) -> dict:
    """The deal's factor (a deal thrown in doubles the next), a scored hand's and the deal in progress's alike, and
    whether its calls made it over or under."""
    out: dict = {"factor": ctx.state.factor if isinstance(ctx.state, rules.State) else 1}
    if hand.input.get("predictions"):
        out["over_under"] = rules.over_under(hand.input["predictions"])
    return out


def answer_fields(protokoll) -> dict:
    state = protokoll.state
    return {"next_factor": state.factor if isinstance(state, rules.State) else 1}
