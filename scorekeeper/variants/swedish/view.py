"""Swedish whist on the pages: who showed the first red card (or all black), then the tricks."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms.fields import SelectChoice

from scorekeeper.games.forms import HandForm as BaseHandForm
from scorekeeper.games.forms import pair, radio
from scorekeeper.variants import view_shared as shared
from scorekeeper.variants.swedish import rules
from scorekeeper.web import words
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.inputs import number_or_raw

NAME = rules.NAME
OPTION_LABELS = shared.labels("target", "deals", "rate", "currency")
FIELD_LABELS = {"red": _l("First red / black")}
PLAYER_HINT = _l("Four players; partners sit opposite (1st and 3rd, 2nd and 4th).")


class HandForm(BaseHandForm):
    red = radio()
    tricks = radio()

    def to_input(self, ctx) -> dict:
        red = self.red.data
        out: dict = {"tricks": pair(self.tricks.data, 13)}
        if red == "black":
            out["red"] = None
        elif red not in (None, ""):
            out["red"] = number_or_raw(red, negative=True)
        return out

    @staticmethod
    def data_from(inp: dict, ctx) -> dict:
        return {"red": "black" if inp["red"] is None else inp["red"], "tricks": inp["tricks"][0]}


def buttons(form, ctx, side_names) -> dict:
    form.red.choices = [SelectChoice(str(i), _("Red: %(name)s", name=p)) for i, p in enumerate(ctx.players)] + [
        SelectChoice("black", _("All black"))
    ]
    return {}


def leads_by(form, ctx):
    """The player on the right of the first red card's player leads; all black, the dealer's left (the rules')."""
    seats = {str(i): rules.leader({"red": i}, ctx) for i in range(len(ctx.players))}
    seats["black"] = rules.leader({"red": None}, ctx)
    return "red", seats


def hand_words(inp, ctx) -> str:
    score = words.score(inp["tricks"])
    if inp["red"] is None:
        return _("All black, %(score)s", score=score)
    return _("Red %(player)s, %(score)s", player=ctx.players[inp["red"]], score=score)


def blank_columns(table) -> list[tuple[str, str]]:
    return shared.columns(("red", _("First red / black")), "tricks")


def csv_columns(table, side_names) -> list:
    red = shared.field("red", table.players, seat=True, label=_l("first red"))
    return [red, *shared.per_side("tricks", side_names)]
