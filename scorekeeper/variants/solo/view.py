"""Solo whist on the pages: the contract from the ladder, the bidder, the partner of a prop, the declaring side's
tricks; or passed out in one tap."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms.fields import SelectChoice

from scorekeeper.games.forms import radio
from scorekeeper.variants import view_parts as parts
from scorekeeper.variants import view_shared as shared
from scorekeeper.variants.solo import rules
from scorekeeper.web import words
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.inputs import number_or_raw

NAME = rules.NAME
# The club statistics page: a prop and cop is a bid with a partner, every other contract is played alone.
STATS_WORDS = {"bids": _l("Prop and cop as proposer"), "alone": _l("Solos, misères and abundances")}
OPTION_LABELS = shared.labels(
    "deals",
    "rate",
    "currency",
    values=_l("Units: prop, solo, misère, abundance, royal abundance, misère ouverte, abundance declared"),
    overtricks=_l("Units per over- or undertrick"),
    undertricks=_l("Units per undertrick, if not as an overtrick"),
    prop_slam=_l("Prop and cop taking all thirteen"),
    prop_undertricks=_l("Prop and cop lost"),
)
FIELD_LABELS = {"passed": parts.PASSED_OUT}
CHOICE_LABELS = {  # the contracts, as the hand page's buttons and its messages name them
    "prop": _l("prop and cop"),
    "solo": _l("solo"),
    "misere": _l("misère"),
    "abundance": _l("abundance"),
    "royal_abundance": _l("royal abundance"),
    "misere_ouverte": _l("misère ouverte"),
    "abundance_declared": _l("abundance declared"),
    # the house rules' choices (prop_slam, prop_undertricks)
    "single": _l("overtricks paid once"),
    "double": _l("overtricks paid double"),
    "all": _l("every undertrick paid"),
    "first_free": _l("the first undertrick free"),
}
PLAYER_HINT = _l("Four players, each scoring alone; alliances change every hand.")
STYLESHEET = "variants/solo/solo.css"


class HandForm(parts.PassedOutForm):
    bid = radio()
    bidder = radio()
    partner = radio()
    tricks = radio()
    ERROR_FIELDS = {"passed": "bid"}

    def to_input(self, ctx) -> dict:
        bid = self.bid.data or None
        out: dict = {"bid": bid, "bidder": number_or_raw(self.bidder.data, negative=True)}
        if bid == "prop":  # a partner tapped before the contract changed from prop is no part of a solo
            out["partner"] = number_or_raw(self.partner.data, negative=True)
        out["tricks"] = number_or_raw(self.tricks.data, negative=True)
        return out

    @staticmethod
    def data_from(inp: dict, ctx) -> dict:
        if inp.get("passed"):
            return {}
        return {k: inp[k] for k in (*rules.BID_FIELDS, "tricks") if k in inp}  # a deal in progress: no tricks yet


def bid_name(bid: str) -> str:
    """The one contract asked for, translated."""
    return str(CHOICE_LABELS[bid])


def buttons(form, ctx, side_names) -> dict:
    players = ctx.players
    form.bid.choices = [SelectChoice(b, bid_name(b)) for b in rules.BIDS]
    form.bidder.choices = parts.name_choices(players)
    form.partner.choices = parts.name_choices(players)
    form.tricks.choices = parts.number_choices(0, 13)  # the declaring side's tricks
    return {"name_cols": parts.name_cols(players)}


def leads_by(form, ctx):
    """The dealer's left leads, but the bidder leads an abundance declared: the header follows the contract and the
    bidder tapped together (the rules' `leader` for each pair; a contract without a bidder yet, the dealer's left)."""
    seats = {
        f"{bid}|{bidder}": rules.leader({"bid": bid, "bidder": bidder}, ctx)
        for bid in rules.BIDS
        for bidder in range(ctx.n_players)
    }
    seats.update({f"{bid}|": rules.leader({"bid": None}, ctx) for bid in ("", *rules.BIDS)})
    seats.update({f"|{bidder}": rules.leader({"bid": None}, ctx) for bidder in range(ctx.n_players)})
    return ("bid", "bidder"), seats


def hand_words(inp, ctx) -> str:
    players = ctx.players
    if inp.get("passed"):
        return _("Passed out")
    tricks = words.tricks_words(inp["tricks"])
    if inp["bid"] == "prop":
        return _(
            "%(bidder)s prop, %(partner)s cop, %(tricks)s",
            bidder=players[inp["bidder"]],
            partner=players[inp["partner"]],
            tricks=tricks,
        )
    return _("%(bidder)s %(bid)s, %(tricks)s", bidder=players[inp["bidder"]], bid=bid_name(inp["bid"]), tricks=tricks)


def bids_words(bids, ctx) -> str:
    """The deal in progress: the contract and who plays it, before the tricks are known ("Anna prop, Carl cop")."""
    players = ctx.players
    if bids["bid"] == "prop":
        return _("%(bidder)s prop, %(partner)s cop", bidder=players[bids["bidder"]], partner=players[bids["partner"]])
    return _("%(bidder)s %(bid)s", bidder=players[bids["bidder"]], bid=bid_name(bids["bid"]))


def house_rules(table) -> list[tuple[str, str]]:
    options = table.options
    values = options.get("values") or rules.DEFAULT_VALUES
    lines = [(_("Units"), ", ".join(f"{bid_name(b)} {values[b]}" for b in rules.BIDS))]
    over, under = options.get("overtricks"), options.get("undertricks")
    if under is None and over:
        lines.append((_("Over- and undertricks"), _trick_words(over)))
    elif under is not None:
        lines.append((_("Overtricks"), _trick_words(over) if over else _("none")))
        lines.append((_("Undertricks"), _trick_words(under) if under else _("none")))
    if options.get("prop_slam") == "double":
        lines.append((_("Prop and cop taking all thirteen"), str(CHOICE_LABELS["double"])))
    if options.get("prop_undertricks") == "first_free":
        lines.append((_("Prop and cop lost"), str(CHOICE_LABELS["first_free"])))
    return lines


def _trick_words(rate) -> str:
    """Units per over- or undertrick in words: "1 a trick (prop, solo, abundance)", or each contract's own."""
    if isinstance(rate, dict):
        return ", ".join(f"{bid_name(b)} {rate.get(b, 0)}" for b in rules.WITH_OVERTRICKS)
    return _("%(n)d a trick (prop, solo, abundance)", n=rate)


def blank_columns(table) -> list[tuple[str, str]]:
    return shared.columns(("bid", _("Contract")), "bidder", "partner", "tricks")


def csv_columns(table, side_names) -> list:
    names = {"bid": bid_name}  # the contract as the sheet names it
    return [
        shared.field(name, table.players, seat=name in ("bidder", "partner"), words=names.get(name))
        for name in rules.INPUT_FIELDS
    ]
