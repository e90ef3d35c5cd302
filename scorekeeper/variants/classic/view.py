"""Classic whist on the pages: trump, tricks, honours and a revoke per hand; the rotation's trump filled in."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms.fields import SelectChoice

from scorekeeper.core import table_context
from scorekeeper.core.game import SUITS
from scorekeeper.games.forms import HandForm as BaseHandForm
from scorekeeper.games.forms import pair, radio
from scorekeeper.variants import view_parts as parts
from scorekeeper.variants import view_shared as shared
from scorekeeper.variants.classic import rules
from scorekeeper.web import words
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.i18n import ngettext
from scorekeeper.web.inputs import number_or_raw

NAME = rules.NAME
OPTION_LABELS = shared.labels(
    "target",
    "deals",
    "rate",
    "currency",
    honours=_l("Honours"),
    rubber=_l("Rubber (best of three games)"),
    revoke_penalty=_l("Revoke penalty"),
    trump_rotation=_l("Trump rotation (tournament)"),
    no_trump_every=_l("No trump every n-th deal"),
)
FIELD_LABELS = {
    "honours": _l("Honours"),
    "revoke": _l("Revoke"),
    "revoke.side": _l("Revoke"),
    "revoke.penalty": _l("Revoke penalty"),
}
PLAYER_HINT = _l("Four players; partners sit opposite (1st and 3rd, 2nd and 4th).")


class HandForm(BaseHandForm):
    trump = radio()
    tricks = radio()
    honours = radio()
    revoke_side = radio()
    revoke_penalty = radio(default="tricks")
    ERROR_FIELDS = {"revoke.side": "revoke_side", "revoke.penalty": "revoke_penalty", "revoke": "revoke_side"}

    def to_input(self, ctx) -> dict:
        out: dict = {"tricks": pair(self.tricks.data, 13)}
        if self.trump.data:
            out["trump"] = self.trump.data
        if self.honours.data not in (None, "", "None"):
            out["honours"] = pair(self.honours.data, 4)
        if self.revoke_side.data not in (None, "", "None"):
            out["revoke"] = {
                "side": number_or_raw(self.revoke_side.data, negative=True),
                "penalty": self.revoke_penalty.data or "tricks",
            }
        return out

    @staticmethod
    def data_from(inp: dict, ctx) -> dict:
        data = {"trump": inp.get("trump"), "tricks": inp["tricks"][0]}
        if inp.get("honours"):
            data["honours"] = inp["honours"][0]
        if inp.get("revoke"):
            data["revoke_side"] = inp["revoke"]["side"]
            data["revoke_penalty"] = inp["revoke"]["penalty"]
        return data


def buttons(form, ctx, side_names) -> dict:
    fixed = rules.fixed_trump(ctx.number, ctx)
    honours = ctx.options["honours"] and fixed != words.NO_TRUMP
    form.trump.choices = parts.suit_choices(SUITS)
    form.honours.choices = parts.pair_choices(4)
    form.revoke_side.choices = [SelectChoice("", _("no revoke"))] + parts.name_choices(side_names)
    n = ctx.options["revoke_penalty"]
    # Both sides share the phone: the penalty says whose points move, by name once the revoking side is tapped.
    named = {
        str(guilty): {
            "tricks": _("move %(n)d tricks", n=n),
            "add": _("+%(n)d points to %(side)s", n=n, side=side_names[1 - guilty]),
            "deduct": _("−%(n)d points to %(side)s", n=n, side=side_names[guilty]),
        }
        for guilty in (0, 1)
    }
    labels = named.get(str(form.revoke_side.data)) or {
        "tricks": _("move %(n)d tricks", n=n),
        "add": _("+%(n)d points to the side that did not revoke", n=n),
        "deduct": _("−%(n)d points to the side that revoked", n=n),
    }
    form.revoke_penalty.choices = [SelectChoice(key, labels[key]) for key in ("tricks", "add", "deduct")]
    hidden = ({"honours"} if not honours else set()) | ({"trump"} if fixed else set())
    return {
        "fixed_trump": fixed,
        "fixed_trump_label": words.suit_words(fixed) if fixed else None,
        "honours": honours,
        "hidden": hidden,
        "revoke_follows": {"field": "revoke_side", "texts": named},
    }


def hand_words(inp, ctx) -> str:
    trump = rules.fixed_trump(ctx.number, ctx) or inp.get("trump")
    text = f"{words.suit(trump)} {words.score(inp['tricks'])}"
    if inp.get("honours"):
        text += ", " + _("honours %(a)d–%(b)d", a=inp["honours"][0], b=inp["honours"][1])
    if inp.get("revoke"):
        penalty = {"tricks": _("tricks"), "add": _("points added"), "deduct": _("points deducted")}[
            inp["revoke"]["penalty"]
        ]
        text += ", " + _(
            "revoke by %(side)s (%(penalty)s)",
            side=words.side_names(ctx.players, rules.sides(ctx))[inp["revoke"]["side"]],
            penalty=penalty,
        )
    return text


def house_rules(table) -> list[tuple[str, str]]:
    o = table.options
    rules_ = [
        (_("Honours"), words.yes_no(o["honours"] and not o.get("deals"))),
        (_("Rubber"), _("best of three games") if o["rubber"] else _("no")),
        (_("Revoke penalty"), str(o["revoke_penalty"])),
    ]
    if o.get("trump_rotation"):
        rules_.append((_("Trump"), _("hearts, diamonds, spades, clubs in turn")))
        if o.get("no_trump_every"):
            rules_.append((_("No trump"), _("one deal in %(n)d", n=o["no_trump_every"])))
    return rules_


def _honours_counted(options) -> bool:
    return bool(options["honours"] and not options["deals"])


def blank_columns(table) -> list[tuple[str, str]]:
    honours = ("honours",) if _honours_counted(table.options) else ()
    return shared.columns("trump", "tricks", *honours, ("revoke", _("Revoke")))


def answer_fields(protokoll) -> dict:
    """A rubber to 5 (short whist) is also scored in rubber points: null until the rubber is over."""
    if protokoll.games_won is None or protokoll.setup.options.get("target") != 5:
        return {}
    return {"rubber_points": list(protokoll.rubber_points) if protokoll.rubber_points else None}


def outcome_lines(protokoll, side_names) -> list[str]:
    """How a rubber's points are made up: each game won by its worth, the rubber's bonus, and what the rubber is worth
    (the difference, what is settled)."""
    parts = rules.match_parts(protokoll.match, table_context(protokoll.setup))
    if parts is None:
        return []
    lines = []
    for name, side in zip(side_names, parts):
        pieces = [
            _("%(n)d (game %(game)d)", n=worth, game=game) if game is not None else _("%(n)d (the rubber)", n=worth)
            for game, worth in side
        ]
        total = sum(worth for _game, worth in side)
        lines.append(_("%(side)s: %(parts)s = %(total)d", side=name, parts=" + ".join(pieces) or "0", total=total))
    a, b = (sum(worth for _game, worth in side) for side in parts)
    lines.append(ngettext("The rubber is worth %(num)d point.", "The rubber is worth %(num)d points.", abs(a - b)))
    return lines


def csv_columns(table, side_names) -> list:
    columns = [shared.field("trump", table.players)] + shared.per_side("tricks", side_names)
    if _honours_counted(table.options):
        columns += shared.per_side("honours", side_names)
    columns += [
        (_("revoke"), lambda inp: side_names[inp["revoke"]["side"]] if inp.get("revoke") else ""),
        (_("revoke penalty"), lambda inp: inp["revoke"]["penalty"] if inp.get("revoke") else ""),
    ]
    return columns
