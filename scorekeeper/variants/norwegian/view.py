"""Norwegian whist on the pages: a grand by one player or all passed, then the tricks."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms.fields import SelectChoice

from scorekeeper.games.forms import HandForm as BaseHandForm
from scorekeeper.games.forms import pair, radio
from scorekeeper.variants import view_shared as shared
from scorekeeper.variants.norwegian import rules
from scorekeeper.web import words
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.inputs import number_or_raw

NAME = rules.NAME
OPTION_LABELS = shared.labels(
    "target",
    "rate",
    "currency",
    set_bonus=_l("Points per trick for a failed grand"),
    pass_scoring=_l("Pass game scoring"),
    grand_value=_l("Points per trick of a made grand"),
    pass_value=_l("Points per trick in a pass game"),
    preset=_l("Scale"),
    grand_lost=_l("A failed grand"),
    lead=_l("Who leads"),
)
CHOICE_LABELS = {
    "under_six": _l("6 − tricks for a side under six"),
    "under_seven": _l("7 − tricks for a side under seven"),
    "majority_loses": _l("the side with seven or more loses a point per trick over six"),
    "opponents": _l("scores for the other side"),
    "bidder_loses": _l("costs the grand side a point per trick short of seven"),
    "bidder_right": _l("the grand bidder's right; all passed: the dealer's left"),
    "bidder_left": _l("the grand bidder's left; all passed: the dealer's right; nullo may be bid"),
}
PLAYER_HINT = _l("Four players; partners sit opposite (1st and 3rd, 2nd and 4th).")
PRESET_LABELS = {
    "standard": _l("Standard: one point a trick, to 13"),
    "minnesota": _l("Minnesota rules"),
    "parlett": _l("Parlett's scale, to 50"),
    "south_dakota": _l("South Dakota whist, to 11"),
}


class HandForm(BaseHandForm):
    bid = radio()
    tricks = radio()
    ERROR_FIELDS = {"bidder": "bid"}

    def to_input(self, ctx) -> dict:
        bid = self.bid.data or ""
        out: dict = {"tricks": pair(self.tricks.data, 13)}
        if bid.startswith("grand-"):
            out.update(bid="grand", bidder=number_or_raw(bid[6:], negative=True))
        elif bid.startswith("nullo-"):
            out.update(bid="nullo", bidder=number_or_raw(bid[6:], negative=True))
        else:
            out["bid"] = bid or None
        return out

    @staticmethod
    def data_from(inp: dict, ctx) -> dict:
        bid = f"{inp['bid']}-{inp['bidder']}" if inp["bid"] in ("grand", "nullo") else "pass"
        return {"bid": bid, "tricks": inp["tricks"][0]}


def _nullo(table) -> bool:
    """Nullo is bid only with Parlett's leads (option `lead`)."""
    return table.options.get("lead") == "bidder_left"


def buttons(form, ctx, side_names) -> dict:
    form.bid.choices = [SelectChoice(f"grand-{i}", _("Grand: %(name)s", name=p)) for i, p in enumerate(ctx.players)]
    if _nullo(ctx):
        form.bid.choices += [
            SelectChoice(f"nullo-{i}", _("Nullo: %(name)s", name=p)) for i, p in enumerate(ctx.players)
        ]
    form.bid.choices += [SelectChoice("pass", _("Pass (all passed)"))]
    return {}


def leads_by(form, ctx):
    """Who leads follows the bid tapped, as the rules' `leader` says for the table's option `lead`."""
    bids = ("grand", "nullo") if _nullo(ctx) else ("grand",)
    seats = {f"{b}-{i}": rules.leader({"bid": b, "bidder": i}, ctx) for b in bids for i in range(len(ctx.players))}
    seats["pass"] = rules.leader({"bid": "pass"}, ctx)
    return "bid", seats


def hand_words(inp, ctx) -> str:
    score = words.score(inp["tricks"])
    if inp["bid"] == "grand":
        return _("Grand %(bidder)s, %(score)s", bidder=ctx.players[inp["bidder"]], score=score)
    if inp["bid"] == "nullo":
        return _("Nullo %(bidder)s, %(score)s", bidder=ctx.players[inp["bidder"]], score=score)
    return _("Pass, %(score)s", score=score)


def house_rules(table) -> list[tuple[str, str]]:
    options = table.options
    grand, pass_value = options.get("grand_value", 1), options.get("pass_value", 1)
    lines = []
    if grand != 1:
        lines.append((_("Grand made"), _("%(n)d per trick over six", n=grand)))
    if options.get("grand_lost") == "bidder_loses":
        lines.append((_("Grand lost"), _("the grand side loses %(n)d per trick short of seven", n=grand)))
    else:
        lines.append((_("Grand lost"), _("%(n)d per trick over six to the other side", n=options["set_bonus"] * grand)))
    scoring = options["pass_scoring"]
    if scoring == "majority_loses":
        text = _("the side with 7 or more loses %(n)d per trick over six", n=pass_value)
    elif scoring == "under_six":
        text = _("6 − tricks for a side with 5 or fewer")
    else:
        text = _("7 − tricks for a side with 6 or fewer")
    if pass_value != 1 and scoring != "majority_loses":
        text = _("%(text)s, times %(n)d", text=text, n=pass_value)
    lines.append((_("Pass"), text))
    if _nullo(table):
        lines.append(
            (
                _("Leads"),
                _(
                    "the grand bidder's left, the dealer's right when all pass; a nullo (played as a pass game): the bidder's right"
                ),
            )
        )
    return lines


def blank_columns(table) -> list[tuple[str, str]]:
    bid = _("Grand / nullo by / pass") if _nullo(table) else _("Grand by / pass")
    return shared.columns(("bid", bid), "tricks")


def csv_columns(table, side_names) -> list:
    bids = {"grand": _("Grand"), "nullo": _("Nullo"), "pass": _("Pass")}  # as the sheet's hands begin
    return [
        shared.field("bid", table.players, words=lambda bid: bids.get(bid, bid)),
        shared.field("bidder", table.players, seat=True),
    ] + shared.per_side("tricks", side_names)
