"""German whist on the pages: two players, the tricks of the last 13 (or of all 26) shared out."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

from scorekeeper.core.variants import german as rules
from scorekeeper.web import words
from scorekeeper.web.games.forms import HandForm as BaseHandForm
from scorekeeper.web.games.forms import pair, radio
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.variants import shared

NAME = rules.NAME
HAND_TEMPLATE = "games/hand_german.html"
OPTION_LABELS = shared.labels("target", "rate", "currency", count=_l("Tricks that count"))
CHOICE_LABELS = {"phase2": _l("the last 13 tricks"), "all26": _l("all 26 tricks")}
BLANK_ROWS = 28
PLAYERS_BY_SEAT = False
TARIFF_PRESETS: dict = {}
PRESET_LABELS: dict = {}
CLUB_STATS = False
tariff_matrix = None


class HandForm(BaseHandForm):
    tricks = radio()
    total = 13

    def to_input(self) -> dict:
        return {"tricks": pair(self.tricks.data, self.total)}

    @staticmethod
    def data_from(inp: dict) -> dict:
        return {"tricks": inp["tricks"][0]}


def tricks_total(options) -> int:
    return 26 if options["count"] == "all26" else 13


def fixed_trump(number: int, options) -> str | None:
    return None


def buttons(form, ctx, players, side_names) -> dict:
    return {}


def hand_words(inp, players, sides, trump) -> str:
    return words.score(inp["tricks"])


def house_rules(options) -> list[tuple[str, str]]:
    return [
        (
            _("Counting"),
            _("tricks over six of the last 13")
            if options["count"] == "phase2"
            else _("all 26 tricks: the deal goes to the player with more"),
        )
    ]


def blank_columns(options) -> list[tuple[str, str]]:
    return [("tricks", _("Tricks"))]


def csv_columns(options, players, side_names) -> list:
    return shared.per_side("tricks", side_names)
