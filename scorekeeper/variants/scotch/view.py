"""Scotch whist (Catch the Ten) on the pages: each side's tricks but the last one's (filled in), then one tap per
trump honour for the side that captured it."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms.fields import SelectChoice

from scorekeeper.core import VARIANTS, game_context
from scorekeeper.games.forms import HandForm as BaseHandForm
from scorekeeper.games.forms import radio
from scorekeeper.variants import view_parts as parts
from scorekeeper.variants import view_shared as shared
from scorekeeper.variants.scotch import rules
from scorekeeper.web import words
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.i18n import ngettext
from scorekeeper.web.inputs import number_or_raw

NAME = rules.NAME
HONOURS = rules.HONOURS
MAX_SIDES = max(rules.PLAYER_COUNTS)
HONOUR_ROW = 6  # up to six sides on one row of buttons per honour; seven and eight on two
TRICK_FIELDS = tuple(f"t{s}" for s in range(MAX_SIDES - 1))  # the last side's tricks are filled in
OPTION_LABELS = shared.labels(
    "target",
    values=_l("Honours' values (jack, ten, ace, king, queen)"),
    card_points=_l("Card points"),
    teams=_l("Teams (none: each plays alone)"),
    hand_size=_l("Cards dealt"),
)
NOT_DEALT = "out"  # the honour button of a card put aside (option hand_size): the input's null
CHOICE_LABELS = {
    "excess": _l("a point per card taken beyond one's share"),
    "none": _l("none: only the honours count"),
    # option hand_size, a select of its one number or none (templates: name=value)
    "hand_size=": _l("all the cards"),
    "hand_size=10": _l("ten each, the rest put aside (two or three players)"),
}
FIELD_LABELS = {"honours": _l("Trump honours")}
PLAYER_HINT = _l(
    "2 to 8 players, each for himself; or in teams (Teams: 2 at four, 2 or 3 at six, 2 or 4 at eight), partners "
    "never side by side."
)
BLANK_ROWS = 24  # the head says the honours, card points, deal and count-out: three rows less than most
STYLESHEET = "variants/scotch/scotch.css"
SCRIPT = "variants/scotch/scotch.js"


def _width(ctx) -> int:
    return len(VARIANTS[ctx.variant].sides(ctx))


def _letters() -> dict[str, str]:
    """The honours' short names, in one string for the translators: jack, ten, ace, king, queen."""
    return dict(zip(HONOURS, _("J 10 A K Q").split()))


def _honour_names() -> dict[str, str]:
    return {
        "jack": _("Jack"),
        "ten": _("Ten"),
        "ace": _("Ace"),
        "king": _("King"),
        "queen": _("Queen"),
    }


def _whole(value):
    return None if value in (None, "") else number_or_raw(value, negative=True)


def _aside(ctx) -> bool:
    """Ten each at two or three (option hand_size): the rest is put aside, so an honour may not be dealt."""
    return bool(ctx.options.get("hand_size"))


class HandForm(BaseHandForm):
    t0 = radio()
    t1 = radio()
    t2 = radio()
    t3 = radio()
    t4 = radio()
    t5 = radio()
    t6 = radio()
    jack = radio()
    ten = radio()
    ace = radio()
    king = radio()
    queen = radio()
    ERROR_FIELDS = {"tricks": "t0"}

    def to_input(self, ctx) -> dict:
        width, total = _width(ctx), self.total
        entered = [_whole(self[name].data) for name in TRICK_FIELDS[: width - 1]]
        if all(isinstance(t, int) for t in entered):
            tricks = entered + [total - sum(entered)]
        else:
            tricks = entered + [None]
        if not _aside(ctx):
            return {"tricks": tricks, "honours": {h: _whole(self[h].data) for h in HONOURS}}
        # cards put aside: an honour tapped "not dealt" is null, one not tapped is left out for the scorer to name
        taps = {h: self[h].data for h in HONOURS if self[h].data not in (None, "")}
        return {"tricks": tricks, "honours": {h: None if v == NOT_DEALT else _whole(v) for h, v in taps.items()}}

    @staticmethod
    def data_from(inp: dict, ctx) -> dict:
        data = {f"t{s}": t for s, t in enumerate(inp["tricks"][:-1])}
        data.update({h: NOT_DEALT if side is None else side for h, side in inp["honours"].items()})
        return data


def tricks_total(ctx) -> int:
    """The deal's tricks: the cards each player is dealt in the whole deal (two or three: in packets of six)."""
    return ctx.cards


def buttons(form, ctx, side_names) -> dict:
    width, total = _width(ctx), form.total
    rows = list(TRICK_FIELDS[: width - 1])
    pair = width == 2
    new = not form.is_submitted() and all(form[name].data is None for name in rows)
    for name in rows:
        if pair:
            form[name].choices = parts.pair_choices(total)
        else:
            form[name].choices = parts.number_choices(0, total)
            if new:
                form[name].data = "0"  # a new deal: no trick until one is tapped, and the last side has the rest
    entered = [_whole(form[name].data) for name in rows]
    rest = total - sum(entered) if all(isinstance(t, int) for t in entered) else None
    letters, names, values = _letters(), _honour_names(), ctx.options["values"]
    aside = _aside(ctx)
    for h in HONOURS:
        form[h].choices = parts.name_choices(side_names)
        if aside:
            form[h].choices.append(SelectChoice(NOT_DEALT, _("not dealt")))
    buttons_a_row = width + 1 if aside else width
    return {
        "pair": pair,
        "total": total,
        "trick_rows": [(name, side_names[s]) for s, name in enumerate(rows)],
        "trick_cols": (5 if total < 10 else 7) if pair else (total + 1 if total < 10 else 7),
        "rest_name": side_names[-1],
        "rest": rest,
        "rest_over": rest is not None and rest < 0,
        "last_side": width - 1,
        "honour_rows": [(h, letters[h], names[h], values[h]) for h in HONOURS],
        "honour_cols": buttons_a_row if buttons_a_row <= HONOUR_ROW else (buttons_a_row + 1) // 2,
        "hidden": set(TRICK_FIELDS[width - 1 :]),
    }


def _held(inp) -> dict[int, str]:
    """Each side's honours in short ("J Q"), in one pass over the five."""
    letters = _letters()
    held: dict[int, str] = {}
    for h in HONOURS:
        side = inp["honours"][h]
        if side is None:
            continue  # not dealt
        held[side] = f"{held[side]} {letters[h]}" if side in held else letters[h]
    return held


def hand_words(inp, ctx) -> str:
    names = words.side_names(ctx.players, VARIANTS[ctx.variant].sides(ctx))
    held = _held(inp)
    text = _(
        "Tricks %(tricks)s; honours: %(honours)s",
        tricks="–".join(map(str, inp["tricks"])),
        honours=", ".join(f"{names[s]} {held[s]}" for s in sorted(held)),
    )
    out = [_letters()[h] for h in HONOURS if inp["honours"][h] is None]
    return _("%(text)s; not dealt: %(honours)s", text=text, honours=" ".join(out)) if out else text


GLUE = "\u00a0"  # inside one entry of a cell: its tricks ("3 tr."), its honours ("10 Q"), broken only between them


def cell_words(inp, ctx) -> list[str]:
    """Each side's tricks and honours, two entries a line may break between but never inside (issue 33: the team PDF
    printed "3 st. 10" / "D")."""
    held, template = _held(inp), _("%(n)d tr.")
    out = []
    for s, t in enumerate(inp["tricks"]):
        text = (template % {"n": t}).replace(" ", GLUE)
        out.append(f"{text} {held[s].replace(' ', GLUE)}" if s in held else text)
    return out


def _step_words() -> dict[str, str]:
    return {
        "ten": _("the ten"),
        "cards": _("the card points"),
        "ace": _("the ace"),
        "king": _("the king"),
        "queen": _("the queen"),
        "jack": _("the jack"),
    }


def outcome_lines(protokoll, side_names) -> list[str]:
    """A game decided by the count-out says so (issue 33: the side with more points thought the app was wrong): who
    reached the target first in the last deal, at which step, and who came later."""
    if not protokoll.finished or not protokoll.hands:
        return []
    last = protokoll.hands[-1]
    ctx = game_context(VARIANTS[NAME], protokoll, last.number)
    over = rules.reached(last.input, ctx)
    if len(over) < 2:
        return []
    target, steps, finals = ctx.options["target"], _step_words(), protokoll.totals
    order = list(over)
    first_step = over[order[0]][0]
    together = [s for s in order if over[s][0] == first_step]
    if protokoll.winner is None:
        return [
            _(
                "%(sides)s reached %(target)d together with %(step)s when the last deal was counted out, level: a draw.",
                sides=", ".join(side_names[s] for s in together),
                target=target,
                step=steps[first_step],
            )
        ]
    winner = protokoll.winner
    step, total = over[winner]
    lines = [
        _(
            "%(side)s reached %(target)d first when the last deal was counted out (ten, cards, ace, king, queen, "
            "jack): at %(step)s, with %(total)d.",
            side=side_names[winner],
            target=target,
            step=steps[step],
            total=total,
        )
    ]
    for s in order:
        if s == winner:
            continue
        later, _total = over[s]
        if later == step:  # the card points took both over: the higher after them
            lines.append(_("%(side)s reached it with the same step, lower.", side=side_names[s]))
        elif finals[s] > finals[winner]:
            lines.append(
                _(
                    "%(side)s reached it later, at %(step)s: more points in the end, but the count-out decides.",
                    side=side_names[s],
                    step=steps[later],
                )
            )
        else:
            lines.append(_("%(side)s reached it later, at %(step)s.", side=side_names[s], step=steps[later]))
    return lines


def house_rules(table) -> list[tuple[str, str]]:
    options, letters = table.options, _letters()
    n = table.n_players
    tricks = VARIANTS[table.variant].cards(1, table)
    values = " · ".join(f"{letters[h]} {options['values'][h]}" for h in HONOURS)
    lines = [
        (_("Trump honours"), values),
        (
            _("Card points"),
            _("a point per card taken beyond the cards dealt to the side")
            if options["card_points"] == "excess"
            else _("none: only the honours count"),
        ),
        (
            _("The deal"),
            ngettext(
                "%(deck)d cards, %(num)d trick",
                "%(deck)d cards, %(num)d tricks",
                tricks,
                deck=rules.deck(n),
            )
            + (_(" (played in packets of six)") if tricks > rules.PACKET else "")
            if not options.get("hand_size")
            else _(
                "%(deck)d cards, ten each dealt, the rest put aside: an honour may not be dealt", deck=rules.deck(n)
            ),
        ),
        (_("Several over in one deal"), _("counted out: ten, cards, ace, king, queen, jack")),
    ]
    if options.get("teams"):
        lines.append((_("Teams"), _("%(k)d teams, partners never side by side", k=options["teams"])))
    return lines


def blank_columns(table) -> list[tuple[str, str]]:
    return shared.columns("tricks", "honours")


def csv_columns(table, side_names) -> list:
    names = _honour_names()

    def honour(h):
        return names[h].lower(), lambda inp: "" if inp["honours"][h] is None else side_names[inp["honours"][h]]

    return shared.per_side("tricks", side_names) + [honour(h) for h in HONOURS]
