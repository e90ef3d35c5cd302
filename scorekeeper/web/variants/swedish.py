"""Swedish whist on the pages: who showed the first red card (or all black), then the tricks."""

from __future__ import annotations

from wtforms.fields import SelectChoice

from scorekeeper.core.variants import swedish as rules
from scorekeeper.web import words
from scorekeeper.web.games.forms import HandForm as BaseHandForm
from scorekeeper.web.games.forms import pair, radio
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.inputs import number_or_raw
from scorekeeper.web.variants import shared

NAME = rules.NAME
HAND_TEMPLATE = "games/hand_swedish.html"
OPTION_LABELS = shared.labels("target", "deals", "rate", "currency")
CHOICE_LABELS: dict = {}
BLANK_ROWS = 27
PLAYERS_BY_SEAT = False
TARIFF_PRESETS: dict = {}
PRESET_LABELS: dict = {}
CLUB_STATS = False
tariff_matrix = None


class HandForm(BaseHandForm):
    red = radio()
    tricks = radio()

    def to_input(self) -> dict:
        red = self.red.data
        out: dict = {"tricks": pair(self.tricks.data, 13)}
        if red == "black":
            out["red"] = None
        elif red not in (None, ""):
            out["red"] = number_or_raw(red, negative=True)
        return out

    @staticmethod
    def data_from(inp: dict) -> dict:
        return {"red": "black" if inp["red"] is None else inp["red"], "tricks": inp["tricks"][0]}


def tricks_total(options) -> int:
    return 13


def fixed_trump(number: int, options) -> str | None:
    return None


def buttons(form, ctx, players, side_names) -> dict:
    form.red.choices = [SelectChoice(str(i), _("Red: %(name)s", name=p)) for i, p in enumerate(players)] + [
        SelectChoice("black", _("All black"))
    ]
    return {}


def hand_words(inp, players, sides, trump) -> str:
    score = words.score(inp["tricks"])
    if inp["red"] is None:
        return _("All black, %(score)s", score=score)
    return _("Red %(player)s, %(score)s", player=players[inp["red"]], score=score)


def house_rules(options) -> list[tuple[str, str]]:
    return []


def blank_columns(options) -> list[tuple[str, str]]:
    return [("red", _("First red / black")), ("tricks", _("Tricks"))]


def csv_columns(options, players, side_names) -> list:
    return [shared.field("red", players)] + shared.per_side("tricks", side_names)
