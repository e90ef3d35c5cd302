"""German whist on the pages: two players, the tricks of the last 13 (or of all 26) shared out."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

from scorekeeper.games.forms import HandForm as BaseHandForm
from scorekeeper.games.forms import pair, radio
from scorekeeper.variants import view_shared as shared
from scorekeeper.variants.german import rules
from scorekeeper.web import words
from scorekeeper.web.i18n import gettext as _

NAME = rules.NAME
OPTION_LABELS = shared.labels("target", "rate", "currency", count=_l("Tricks that count"))
CHOICE_LABELS = {
    "phase2": _l("the last 13 tricks"),
    "all26": _l("all 26 tricks"),
    "phase2_each": _l("every trick of the last 13, a point each"),
}
PLAYER_HINT = _l("Two players.")
BLANK_ROWS = 28


class HandForm(BaseHandForm):
    tricks = radio()

    def to_input(self, ctx) -> dict:
        return {"tricks": pair(self.tricks.data, self.total)}

    @staticmethod
    def data_from(inp: dict, ctx) -> dict:
        return {"tricks": inp["tricks"][0]}


def tricks_total(ctx) -> int:
    return 26 if ctx.options["count"] == "all26" else 13


def hand_words(inp, ctx) -> str:
    score = words.score(inp["tricks"])
    if ctx.state is None:
        return score
    after = tuple(t + p for t, p in zip(ctx.totals or (0, 0), inp["tricks"]))
    risen = rules.risen(ctx.state, after)
    if risen == ctx.state:
        return score
    return _("%(score)s; both passed %(target)d: now to %(risen)d", score=score, target=ctx.state, risen=risen)


def outcome_lines(protokoll, side_names) -> list[str]:
    """A target that rose says so, and from where."""
    first = protokoll.setup.options["target"]
    if protokoll.state is None or protokoll.state == first:
        return []
    return [
        _(
            "Played to %(target)d: the target rose by 10 each time both passed it (from %(first)d).",
            target=protokoll.state,
            first=first,
        )
    ]


def players_by_seat(table) -> bool:
    return False  # "Anna against Bo"


def target_label(table) -> str:
    return _("Target (deals won)") if table.options.get("count") == "all26" else _("Target")


def house_rules(table) -> list[tuple[str, str]]:
    return [
        (
            _("Counting"),
            _("tricks over six of the last 13")
            if table.options["count"] == "phase2"
            else _("every trick of the last 13 scores a point; when both pass the target in one deal, it rises by 10")
            if table.options["count"] == "phase2_each"
            else _("all 26 tricks: the deal goes to the player with more"),
        )
    ]


def blank_columns(table) -> list[tuple[str, str]]:
    return shared.columns("tricks")


def csv_columns(table, side_names) -> list:
    return shared.per_side("tricks", side_names)
