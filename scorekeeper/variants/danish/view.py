"""Danish whist on the pages: bidder, a bid from the ladder, trump, the called partner, tricks; its tariff table."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, HiddenField
from wtforms.fields import SelectChoice

from scorekeeper.core.game import SUITS, TRUMPS
from scorekeeper.games.forms import radio
from scorekeeper.variants import view_parts as parts
from scorekeeper.variants import view_shared as shared
from scorekeeper.variants.danish import grid as danish_grid
from scorekeeper.variants.danish import rules
from scorekeeper.variants.danish.card import ROUNDING_WORDS, CardEditor, column_heading
from scorekeeper.variants.danish.card_fields import club_bid_label
from scorekeeper.variants.danish.words import GAA_MED_LABELS, PRESET_LABELS, bid_name, solo_name, suffix_name
from scorekeeper.web import words
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.i18n import ngettext, point
from scorekeeper.web.inputs import number_or_raw

NAME = rules.NAME
OPTION_LABELS = shared.labels(
    "deals",
    "currency",
    rate=_l("Money per point (the stake: what one point of the card is worth)"),
    tariff=_l("Tariff for 7, 8 … 13"),
    lost=_l("Lost bid pays"),
    solo_values=_l("Sol values: sol, ren sol, bordlægger, ren bordlægger"),
    preset=_l("Tariff preset"),
    house=_l("The table's own tariff"),
    iron_hand=_l("Jernhånd (a new deal for a hand without pictures, aces or jokers)"),
    card_names=_l("The card's own names: its columns' headings and its sol bids"),
)
CHOICE_LABELS = {"flat": _l("twice the tariff"), "per_trick": _l("twice the tariff per missing trick")}
FIELD_LABELS = {"passed": parts.PASSED_OUT, "suffix": _l("Bid")}
PLAYER_HINT = _l("Four players, or five: the dealer then sits out.")
BLANK_ROWS = 17  # leaves room for the tariff table and a head of a club card's rules
STYLESHEET = "variants/danish/danish.css"
SCRIPT = "variants/danish/danish.js"
TARIFF_PRESETS = rules.TARIFF_PRESETS
STATS_WORDS = {"bids": _l("Bids 7–13 as bidder"), "alone": _l("Sol bids"), "self": _l("Selvmakker")}
# The tariff card: option `house` in fields as a club prints its card (variants/danish/card.py), drawing the
# tariff, lost rule, sol values and preset too; the same editor on the new-game page, the club's card and blank sheets.
OPTION_EDITORS = {"house": CardEditor()}


class HandForm(parts.PassedOutForm):
    bidder = radio()
    bid = radio()
    trump = radio()
    ace = radio()
    partner = radio()
    tricks = radio()
    # Gå med: a box per seat for the other sol players (one name each, so a phone offline keeps every box ticked);
    # `joined` only carries their errors.
    joined = HiddenField()
    joined_0, joined_1, joined_2, joined_3, joined_4 = (BooleanField() for _seat in range(max(rules.PLAYER_COUNTS)))
    ERROR_FIELDS = {"suffix": "bid", "passed": "bid", "with": "joined"}

    def field_for(self, key: str) -> str | None:
        """A gå med player's error ("with.0.tricks") by the gå med players' fields."""
        return "joined" if key.startswith("with.") else super().field_for(key)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A stored hand's (or the deal in progress's) gå med tricks by seat, for the page's selects.
        self.joined_tricks = {str(e["seat"]): e.get("tricks") for e in (kwargs.get("data") or {}).get("with", ())}

    def submitted(self, formdata, ctx) -> dict:
        """The "passed out" and "jernhånd" buttons are hands of their own; gå med players come as with_<seat> (their
        tricks) and as `joined` (ticked, before their tricks are chosen: then asked for)."""
        if formdata.get("passed"):
            return {"passed": True}
        if formdata.get("iron_hand"):
            return {"iron_hand": number_or_raw(self.bidder.data, negative=True)}
        inp = self.to_input(ctx)
        tricks = {key[5:]: value for key, value in formdata.items() if key.startswith("with_") and value != ""}
        seats = list(dict.fromkeys([*self.joined_seats(), *tricks]))
        joined = [
            {"seat": number_or_raw(s, negative=True), "tricks": number_or_raw(tricks.get(s), negative=True)}
            for s in seats
        ]
        if joined and rules.is_solo(inp.get("bid")):
            inp["with"] = joined
        return inp

    def bids_input(self, ctx, fields: tuple[str, ...]) -> dict:
        """The bids page: the contract without the tricks, and for a sol the seats ticked to go with it."""
        inp = super().bids_input(ctx, fields)
        seats = self.joined_seats()
        if seats and rules.is_solo(inp.get("bid")):
            inp["with"] = [{"seat": number_or_raw(s, negative=True)} for s in seats]
        return inp

    def joined_seats(self) -> list[str]:
        return [str(s) for s in range(max(rules.PLAYER_COUNTS)) if self[f"joined_{s}"].data]

    def to_input(self, ctx) -> dict:
        bid = self.bid.data or ""
        number, _sep, suffix = bid.partition("-")
        out: dict = {
            "bidder": number_or_raw(self.bidder.data, negative=True),
            "bid": number_or_raw(number, negative=True) if number else None,
            "tricks": number_or_raw(self.tricks.data, negative=True),
        }
        if rules.is_solo(number):
            return out
        out["suffix"] = suffix or "plain"
        if self.trump.data:
            out["trump"] = self.trump.data
        if self.ace.data:
            out["ace"] = self.ace.data
        partner = self.partner.data
        out["partner"] = out["bidder"] if partner == "self" else number_or_raw(partner, negative=True)
        return out

    @staticmethod
    def data_from(inp: dict, ctx) -> dict:
        """A stored hand, or the deal in progress (no tricks yet, perhaps no trump or partner), into the fields."""
        if inp.get("passed"):
            return {}
        if "iron_hand" in inp:
            return {"bidder": inp["iron_hand"]}
        bid = (
            str(inp["bid"])
            if rules.is_solo(inp["bid"]) or inp.get("suffix", "plain") == "plain"
            else f"{inp['bid']}-{inp['suffix']}"
        )
        data = {"bidder": inp["bidder"], "bid": bid, "tricks": inp.get("tricks")}
        if rules.is_solo(inp["bid"]):
            data.update({f"joined_{e['seat']}": True for e in inp.get("with", ())})
            data["with"] = inp.get("with", [])
        else:
            data["trump"] = inp.get("trump")
            data["ace"] = inp.get("ace")
            partner = inp.get("partner")
            data["partner"] = "self" if partner is not None and partner == inp["bidder"] else partner
        return data


def bid_rows(options=None) -> list[list]:
    """The core's ladder (of the game's house) as rows of buttons: a row per number of tricks, its sol bid (or a gap)
    after the plain bid; each bid in the club's words where its card names it ("7 3 vip"), a long sol name with a place
    to break ("Bord-lægger" on a phone's narrow button, never cut)."""
    rows: list[list] = []
    last = None
    names = (options or {}).get("card_names")
    for bid, suffix in rules.ladder(rules.house_of(options) if options is not None else None):
        number = rules.SOLO_AFTER[bid] if suffix is None else bid
        if number != last:
            rows.append([None, None])
            last = number
        if suffix is None:
            rows[-1][1] = SelectChoice(bid, re.sub(r"(?i)(bord)(lægger)", "\\1\u00ad\\2", solo_name(bid, options)))
        elif suffix == "plain":
            rows[-1][0] = SelectChoice(str(bid), str(bid))
        else:
            rows[-1].append(SelectChoice(f"{bid}-{suffix}", club_bid_label(bid, suffix, names)))
    return rows


def buttons(form, ctx, side_names) -> dict:
    players, out, playing = ctx.players, ctx.sitting_out, ctx.playing
    form.tricks.choices = parts.number_choices(0, 13)  # the bidder's side's tricks, or the sol player's
    form.bidder.choices = parts.name_choices(players, playing)
    form.partner.choices = parts.name_choices(players, playing) + [SelectChoice("self", _("alone (selvmakker)"))]
    form.trump.choices = parts.suit_choices(TRUMPS)
    form.ace.choices = parts.suit_choices(SUITS)
    rows = bid_rows(ctx.options)
    form.bid.choices = [c for row in rows for c in row if c]
    house = rules.house_of(ctx.options)
    return {
        "iron_hand": bool(ctx.options.get("iron_hand")),
        "gaa_med": [
            {
                "seat": i,
                "name": players[i],
                "tricks": [str(t) for t in range(14)],
                "joined": bool(form[f"joined_{i}"].data),
                "chosen": _chosen_tricks(form, i),
            }
            for i in playing
        ]
        if house.any_gaa_med
        else [],
        "name_cols": parts.name_cols(players[i] for i in playing),
        "bid_rows": rows,
        "sitting_out": players[out] if out is not None else None,
        "hidden": set() if house.any_gaa_med else {"joined"},  # no gå med boxes: their errors at the top
    }


def _chosen_tricks(form, seat: int) -> str | None:
    """A gå med player's tricks as the stored hand has them (the page shows what was posted instead)."""
    kept = form.joined_tricks.get(str(seat))
    return None if kept is None else str(kept)


def _trick_bid(inp, ctx) -> str:
    """A trick bid with its trump and called ace as far as they are known: "8 gode ♣, ace ♥"."""
    trump = "" if inp.get("suffix") == "sans" else words.suit(inp.get("trump"))
    bid = f"{bid_name(inp['bid'], inp.get('suffix'), ctx.options)} {trump}".strip()
    if inp.get("ace"):
        bid = _("%(bid)s, ace %(suit)s", bid=bid, suit=words.suit(inp["ace"]))
    return bid


def bids_words(bids, ctx) -> str:
    """The deal in progress: the contract, its trump and called ace, and who plays it, as far as they are known
    ("Bo 9 gode ♣, ace ♥, partner Dina"; "Carl sol, Anna goes with it"), the club's own names of its sol bids."""
    players = ctx.players
    bidder = players[bids["bidder"]]
    if rules.is_solo(bids["bid"]):
        text = _("%(bidder)s %(bid)s", bidder=bidder, bid=solo_name(bids["bid"], ctx.options))
        for joined in bids.get("with", ()):
            text += "; " + _("%(player)s goes with it (gå med)", player=players[joined["seat"]])
        return text
    bid = _trick_bid(bids, ctx)
    partner = bids.get("partner")
    if partner is None:
        return _("%(bidder)s %(bid)s", bidder=bidder, bid=bid)
    if partner == bids["bidder"]:
        return _("%(bidder)s %(bid)s, alone (selvmakker)", bidder=bidder, bid=bid)
    return _("%(bidder)s %(bid)s, partner %(partner)s", bidder=bidder, bid=bid, partner=players[partner])


def hand_words(inp, ctx) -> str:
    players = ctx.players
    if inp.get("passed"):
        return _("Passed out")
    if "iron_hand" in inp:
        return _("Jernhånd: %(player)s asked for a new deal", player=players[inp["iron_hand"]])
    bidder = players[inp["bidder"]]
    tricks = words.tricks_words(inp["tricks"])
    if rules.is_solo(inp["bid"]):
        if not inp.get("with"):
            return _(
                "%(bidder)s %(bid)s, %(tricks)s", bidder=bidder, bid=solo_name(inp["bid"], ctx.options), tricks=tricks
            )
        # Gå med: each sol player's own result, as one word for the hand would be wrong for some of them.
        sol = rules.house_of(ctx.options).sol[inp["bid"]]
        said = shared.outcome_words()
        result = {True: said["made"], False: said["lost"]}
        text = _(
            "%(bidder)s %(bid)s, %(tricks)s, %(result)s",
            bidder=bidder,
            bid=solo_name(inp["bid"], ctx.options),
            tricks=tricks,
            result=result[inp["tricks"] <= sol.max_tricks],
        )
        for joined in inp["with"]:
            text += "; " + _(
                "%(player)s too, %(tricks)s, %(result)s",
                player=players[joined["seat"]],
                tricks=words.tricks_words(joined["tricks"]),
                result=result[joined["tricks"] <= sol.max_tricks],
            )
        return text
    bid = _trick_bid(inp, ctx)
    if inp["partner"] == inp["bidder"]:
        return _("%(bidder)s %(bid)s, alone (selvmakker), %(tricks)s", bidder=bidder, bid=bid, tricks=tricks)
    return _(
        "%(bidder)s %(bid)s, partner %(partner)s, %(tricks)s",
        bidder=bidder,
        bid=bid,
        partner=players[inp["partner"]],
        tricks=tricks,
    )


def outcome(inp, points, ctx) -> str | None:
    """Made or lost for the bidder by the tricks, whatever the bid is worth (a made bid of a card that pays 0 for it is
    made, never "lost"); none for a gå med hand, whose words say each sol player's result."""
    if inp.get("with"):
        return None
    result = rules.bid_result(inp, ctx)
    return None if result is None else "made" if result.made else "lost"


def minus(value) -> str:
    """A point of the card as it prints it: 10, −3, ¾, 2½ (i18n.point)."""
    return point(value)


def _values(pairs, all_levels: bool) -> str:
    """Values per bid: "10, 20, 40 …" when every bid 7–13 is played, else "8: 20, 9: 40"."""
    return ", ".join(text if all_levels else f"{n}: {text}" for n, text in pairs)


def _own_values(pairs, all_levels: bool, own: set[int], own_words: str) -> str:
    """Values per bid where some bids' squares are their own: "own values (in the table)" when every bid's are, else
    each bid by its number ("7: 10, 8: own values (in the table), 9: 40")."""
    if own and own >= {n for n, _text in pairs}:
        return own_words
    return _values(pairs, all_levels and not own)


def house_rules(table) -> list[tuple[str, str]]:
    """The rules in words, every number drawn from the house that scores (never from the shorthands): what a plain
    bid made and lost by one trick gives (the points `bid_value` gives), the tricks over and short, the suffixes, the
    sol bids, selvmakker, rounding, slam and exceptions, gå med, jernhånd."""
    o = table.options
    house = rules.house_of(o)
    levels = sorted(house.levels)
    every = levels == list(range(7, 14))
    preset = rules.preset_of_house(rules.house_dict(o))
    lines = [(_("Tariff"), str(PRESET_LABELS[preset]) if preset else _("own card"))]
    # A bid whose squares of their own differ from the rule (a matrix card): no rule is said for its tricks over or
    # short, only that its squares have their own values (the table shows them).
    own_over: set[int] = set()
    own_short: set[int] = set()
    if "plain" in house.suffixes:
        made = [(n, minus(abs(house.trick_value(n, "plain", n)))) for n in levels]
        lost = [(n, minus(abs(house.trick_value(n, "plain", n - 1)))) for n in levels]
        label = _("Plain bid made (points)")
        level = {n: house.level(n, "plain") for n in levels}
        for n in levels:
            squares = house.own_squares(n, "plain")
            own_over |= {n} if any(t >= n for t in squares) else set()
            own_short |= {n} if any(t < n for t in squares) else set()
    else:
        made = [(n, minus(house.levels[n].made)) for n in levels]
        lost = [(n, minus(house.levels[n].lost)) for n in levels]
        label = _("Bid made (points, before the suffix)")
        level = dict(house.levels)
    own_words = _("own values (in the table)")
    over = [(n, own_words if n in own_over else minus(level[n].over)) for n in levels]
    if over == made and not own_over:
        lines.append((label, _("%(values)s; each trick over the same again", values=_values(made, every))))
    else:
        lines.append((label, _values(made, every)))
        lines.append((_("Each trick over"), _own_values(over, every, own_over, own_words)))
    lines.append((_("Lost by one trick"), _values(lost, every)))
    if any(level[n].short for n in levels) or own_short:
        short = [(n, own_words if n in own_short else minus(level[n].short)) for n in levels]
        lines.append((_("Each further trick short"), _own_values(short, every, own_short, own_words)))
    order = rules.SUFFIXES + rules.EXTRA_SUFFIXES
    factors = {name: house.suffixes[name] for name in order if name in house.suffixes and name != "plain"}
    # A suffix with values of its own (a card in columns) is not its factor there: the table shows them.
    own = {
        s: {n for n, t in house.overrides if t == s}
        | {int(k.split("/")[0]) for k in house.cells if k.split("/")[1] == s}
        for s in factors
    }
    if (
        factors
        and all(f == (Fraction(2), Fraction(2)) for f in factors.values())
        and set(factors) == set(rules.SUFFIXES[1:])
        and not any(own.values())
    ):
        lines.append((_("Suffixes"), _("vip, gode, sans and halve count double")))
    elif factors:
        parts = []
        for name, (base, trick) in factors.items():
            factor = f"{suffix_name(name)} ×{minus(base)}" + (f"/×{minus(trick)}" if trick != base else "")
            if own[name] >= set(levels):
                parts.append(_("%(suffix)s: own values (in the table)", suffix=suffix_name(name)))
            elif own[name]:
                bids = ", ".join(map(str, sorted(own[name])))
                parts.append(_("%(factor)s, own values for %(bids)s (in the table)", factor=factor, bids=bids))
            else:
                parts.append(factor)
        lines.append((_("Suffixes"), "; ".join(parts) if any(own.values()) else ", ".join(parts)))
    if house.selv_factor != 1:  # the usual rule (three times) the tariff table's caption says
        lines.append(
            (
                _("Selvmakker"),
                _(
                    "each other pays %(factor)s of the value, the bidder three times that",
                    factor=minus(house.selv_factor),
                ),
            )
        )
    if house.made_factor or house.lost_factor or house.made_extra:
        slam = [_("%(n)d tricks made: ×%(f)s", n=t, f=minus(f)) for t, f in sorted(house.made_factor.items())]
        slam += [_("%(n)d tricks lost: ×%(f)s", n=t, f=minus(f)) for t, f in sorted(house.lost_factor.items())]
        slam += [
            _("%(n)d tricks made: %(x)s more tricks over counted", n=t, x=minus(x))
            for t, x in sorted(house.made_extra.items())
        ]
        lines.append((_("Slam"), "; ".join(slam)))
    if house.cells:
        lines.append(
            (
                _("Exceptions"),
                ngettext(
                    "own values for %(num)d bid or cell (in the table)",
                    "own values for %(num)d bids or cells (in the table)",
                    len(house.cells),
                ),
            )
        )
    # Said also when the card has fractions and rounds them: "made 1" beside "each trick over ¾" is then explained.
    fractions = [v for lv in house.levels.values() for v in (lv.made, lv.over, lv.lost, lv.short)]
    fractions += [v for pair in house.suffixes.values() for v in pair]
    fractions += [v for sol in house.sol.values() for v in (sol.won, sol.lost, sol.won_per_under, sol.lost_per_over)]
    if house.rounding != "half_away" or house.selv_rounding != "half_away" or any(v.denominator > 1 for v in fractions):
        lines.append((_("Rounding"), str(ROUNDING_WORDS.get(house.rounding, house.rounding))))
    sol = []
    for bid in rules.SOLO_BIDS:
        if bid in house.sol:
            won = house.sol_value(bid, house.sol[bid].max_tricks)[0]
            lost_v = house.sol_value(bid, house.sol[bid].max_tricks + 1)[0]
            sol.append(f"{solo_name(bid, o)} {minus(won)}/{minus(lost_v)}")
    if sol:
        lines.append((_("Sol bids (made / lost)"), ", ".join(sol)))
    gaa_med = gaa_med_words(house, o)
    if gaa_med:
        lines.append((_("Gå med"), gaa_med))
    if o.get("iron_hand"):
        lines.append((_("Jernhånd"), _("allowed: 0 for all, the deal passes on")))
    return lines


def gaa_med_words(house, options) -> str:
    """The card's gå med rule in words: the one rule when every sol bid plays by it, else each sol bid's ("sol: each
    sol player settles with all three others; ren sol, bordlægger: … with those not playing sol; ren bordlægger:
    played alone"); empty when no sol bid may be played along."""
    rules_of = {bid: house.gaa_med_of(bid) for bid in rules.SOLO_BIDS if bid in house.sol}
    if not any(rules_of.values()):
        return ""
    if len(set(rules_of.values())) == 1:
        return GAA_MED_LABELS[next(iter(rules_of.values()))]()
    groups: dict = {}
    for bid, rule in rules_of.items():
        groups.setdefault(rule, []).append(solo_name(bid, options))
    parts = []
    for rule, names in groups.items():
        said = GAA_MED_LABELS[rule]() if rule else _("played alone, no gå med")
        parts.append(f"{', '.join(names)}: {said}")
    return "; ".join(parts)


def tariff_words(tariff) -> dict:
    """The printed tariff's note (how a column of the card counts, and selvmakker) and its sol table's headings (each
    of the others pays, or the sol player's total when the winners share a pool)."""
    if tariff["standard_suffixes"]:
        note = _(
            "plain bid; vip, gode, sans and halve count double; selvmakker: the bidder gets three times, the others pay once"
        )
    else:
        note = (
            _("times the plain row: %(suffixes)s", suffixes=tariff["multiples"]) + "; " if tariff["multiples"] else ""
        ) + _("selvmakker: the bidder gets three times what each other pays")
    if tariff["pool"] == "some":  # some sol bids pool, some not: the rules in words say which
        said = shared.outcome_words()
        sol_head = [said["made"], said["lost"]]
    elif tariff["pool"]:
        sol_head = [_("made: the sol player's total"), _("lost: the sol player's total")]
    else:
        sol_head = [_("made: each of the others pays"), _("lost: the bidder pays each")]
    return {"note": note, "sol_head": sol_head}


def tariff_matrix(options) -> dict:
    """The core's matrix as the club's card has it, square by square: "rows" of (bid and column heading, points per
    tricks 0..13), a row per bid and column of the card (a suffix whose squares differ from its column's gets a row of
    its own), so no row is hidden and no factor claimed; "sol" as (the club's name, made, lost) and "sol_rows" as
    (name, V per tricks 0..13); "bids" the plain rows by number, as the core has them."""
    matrix = rules.tariff_matrix(options)
    by_bid = {(bid, suffix): values for bid, suffix, values in matrix["rows"]}
    grid, _exact = danish_grid.grid_of(rules.house_dict(options), options.get("card_names"))
    rows: list[tuple[str, Any]] = []
    by_column: dict[int, dict[int, Any]] = {}
    for n in grid.levels:
        for i, column in enumerate(grid.columns):
            found = [(s, by_bid[(n, s)]) for s in column.suffixes if (n, s) in by_bid]
            if not found:
                continue
            if len({values for _s, values in found}) == 1:
                plain = not column.heading and column.suffixes == ("plain",)  # the plain bid: its number alone
                rows.append(
                    (str(n) if plain else f"{n} {column_heading(column.heading, column.suffixes)}", found[0][1])
                )
                by_column.setdefault(i, {})[n] = found[0][1]
            else:
                rows += [(bid_name(n, s) if s != "plain" else f"{n} {_('plain')}", values) for s, values in found]
                by_column.setdefault(i, {})[n] = None
    made_from = {label: int(label.partition(" ")[0]) for label, _values in rows}  # made from its bid's tricks on
    # The short form a score sheet prints: a column that is, square by square, one whole multiple of the plain column
    # is said once as its factor (only then: never a factor the card does not have).
    base = next((i for i, c in enumerate(grid.columns) if c.suffixes == ("plain",)), None)
    folded, multiples = set(), []
    if base is not None and all(by_column.get(base, {}).get(n) for n in grid.levels):
        for i, column in enumerate(grid.columns):
            squares = by_column.get(i, {})
            if i == base or any(squares.get(n) is None for n in grid.levels):
                continue
            factors = {
                v // b if b and v % b == 0 else None
                for n in grid.levels
                for v, b in zip(squares[n], by_column[base][n])
            }
            if len(factors) == 1 and None not in factors and 0 not in factors:
                folded.add(column_heading(column.heading, column.suffixes))
                multiples.append((column_heading(column.heading, column.suffixes), factors.pop(), column.suffixes))
    short = [(label, values) for label, values in rows if label.partition(" ")[2] not in folded]
    return {
        "bids": matrix["bids"],
        "rows": rows,
        "short_rows": short,
        "multiples": [(heading, factor) for heading, factor, _s in multiples],
        "standard_suffixes": [(set(s), f) for _h, f, s in multiples] == [(set(rules.SUFFIXES[1:]), 2)],
        "sol": [(solo_name(bid, options), made, lost) for bid, (made, lost) in matrix["sol"].items()],
        "sol_rows": [(solo_name(bid, options), values) for bid, values in matrix["sol_rows"]],
        "made_from": made_from,
        "gaa_med": matrix["gaa_med"],
        "sol_gaa_med": {solo_name(bid, options): rule for bid, rule in matrix["sol_gaa_med"].items()},
    }


def blank_columns(table) -> list[tuple[str, str]]:
    return shared.columns("bidder", "bid", "trump", "partner", "tricks")


def csv_columns(table, side_names) -> list:
    """The entered fields; `iron_hand` and `with` only where the table's rules allow them, so that a game without
    those club rules keeps the columns its spreadsheets were made for."""
    options = table.options
    allowed = {"iron_hand": bool(options.get("iron_hand")), "with": rules.house_of(options).any_gaa_med}
    players = table.players
    # Headed and written as the sheet says them (issue 44: "vip3", "hearts"): the club's names of its sol bids.
    labels = {"suffix": _l("suffix"), "iron_hand": _l("jernhånd"), "with": _l("gå med"), "ace": _l("ace")}
    cells = {
        "bid": lambda bid: solo_name(bid, options) if rules.is_solo(bid) else bid,
        "suffix": suffix_name,
        "ace": words.suit,
        "with": lambda joined: ", ".join(f"{players[e['seat']]} {e.get('tricks', '')}".strip() for e in joined),
    }
    return [
        shared.field(name, players, name in ("bidder", "partner", "iron_hand"), labels.get(name), cells.get(name))
        for name in rules.INPUT_FIELDS
        if allowed.get(name, True)
    ]
