"""The drive's forms (WTForms; Flask-WTF's CSRF on the organiser's). They turn what was typed into the input of
drives/service.py, which decides what is valid; what only a form can get wrong (a pair line with one name) is said
here, in words."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, Field, HiddenField, RadioField, SelectField, StringField, TextAreaField
from wtforms.fields import SelectChoice

from scorekeeper.core.game import NO_TRUMP
from scorekeeper.core.messages import InputError
from scorekeeper.drives.present import ordinal
from scorekeeper.drives.rules import DEFAULT_HANDS, DEFAULT_SIT_OUT, DEFAULT_TRUMPS, MAX_PRIZES, SIT_OUT_AVERAGE
from scorekeeper.drives.service import CURRENCIES, default_currency
from scorekeeper.games.forms import Form
from scorekeeper.web import words
from scorekeeper.web.i18n import amount
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.inputs import number_or_raw

TRUMP_SLOTS = 5
UNUSED = ""
DEFAULT_INTERVAL = 12
PAIR_SPLIT = re.compile(r"\s*[&+/]\s*")
PRIZE_ROWS = 8  # on a new drive's form; the prizes page adds more on asking
NONE = ""
# The rows a new drive's form suggests (kind:place, role); a row without a name or an amount gives no prize.
SUGGESTED = [
    ("place:1", "lady"),
    ("place:1", "gent"),
    ("booby", "lady"),
    ("booby", "gent"),
    ("half_time:1", "any"),
    ("lucky", "any"),
    ("place:2", "lady"),
    ("place:2", "gent"),
]


def trump_choices() -> list[SelectChoice]:
    return [SelectChoice(UNUSED, "—")] + [
        SelectChoice(t, f"{words.suit(t)} {words.suit_words(t) if t == NO_TRUMP else ''}".strip())
        for t in ("hearts", "clubs", "diamonds", "spades", NO_TRUMP)
    ]


def prize_kind_choices() -> list[SelectChoice]:
    out = [SelectChoice(f"place:{n}", _("%(place)s place", place=ordinal(n))) for n in range(1, 11)]
    out.append(SelectChoice("booby", _("Booby prize (the last)")))
    out += [SelectChoice(f"half_time:{n}", _("Half-time, %(place)s", place=ordinal(n))) for n in range(1, 4)]
    out.append(SelectChoice("lucky", _("Lucky number (drawn)")))
    return out


def prize_role_choices() -> list[SelectChoice]:
    return [
        SelectChoice("lady", _("ladies")),
        SelectChoice("gent", _("gents")),
        SelectChoice("any", _("everyone")),
    ]


class MoneyFields(Form):
    """The fee and the prizes: shared by the new drive's form and the prizes page."""

    currency = SelectField(choices=[SelectChoice(c, c) for c in CURRENCIES], default="DKK")
    fee = StringField()
    one_prize_each = BooleanField(default=False)
    prize_ties = RadioField(
        choices=[
            SelectChoice("share", _l("share the prize")),
            SelectChoice("cut", _l("cut for it (the app draws)")),
        ],
        default="share",
    )


@cache
def _with_prizes(base: type, rows: int) -> type:
    fields: dict[str, Field] = {}
    for n in range(rows):
        kind, role = SUGGESTED[n] if n < len(SUGGESTED) and base is NewDriveForm else ("place:1", "any")
        fields[f"prize{n}_what"] = SelectField(choices=[], validate_choice=False, default=kind)
        fields[f"prize{n}_for"] = SelectField(choices=[], validate_choice=False, default=role)
        fields[f"prize{n}_name"] = StringField()
        fields[f"prize{n}_amount"] = StringField()
    return type(f"{base.__name__}{rows}", (base,), fields)


class NewDriveForm(MoneyFields):
    title = StringField()
    format = RadioField(
        choices=[SelectChoice("progressive", _l("Progressive")), SelectChoice("couples", _l("Couples"))],
        default="progressive",
    )
    ladies = TextAreaField()
    gents = TextAreaField()
    ladies_as_gents = TextAreaField()
    pairs = TextAreaField()
    hands = StringField(default=str(DEFAULT_HANDS))
    interval_after = StringField(default=str(DEFAULT_INTERVAL))
    tie_break = RadioField(
        choices=[SelectChoice("share", _l("Share the place")), SelectChoice("countback", _l("Count back"))],
        default="share",
    )
    movement = RadioField(
        choices=[
            SelectChoice("winners", _l("Winners move (the traditional drive)")),
            SelectChoice("fresh", _l("Fresh partners every hand (a fixed table, whatever the results)")),
        ],
        default="winners",
    )
    sit_out = SelectField(
        choices=[SelectChoice(str(n), str(n)) for n in range(14)] + [SelectChoice(SIT_OUT_AVERAGE, SIT_OUT_AVERAGE)],
        default=str(DEFAULT_SIT_OUT),
        validate_choice=False,
    )


for _slot in range(TRUMP_SLOTS):
    setattr(
        NewDriveForm,
        f"trump{_slot}",
        SelectField(
            choices=[], validate_choice=False, default=DEFAULT_TRUMPS[_slot] if _slot < len(DEFAULT_TRUMPS) else ""
        ),
    )


class PrizesForm(MoneyFields):
    """The prizes page: the fee and the prizes of a drive under way."""


def _fill_choices(form, rows: int) -> None:
    kinds, roles = prize_kind_choices(), prize_role_choices()
    for n in range(rows):
        form[f"prize{n}_what"].choices = kinds
        form[f"prize{n}_for"].choices = roles


def new_drive_form(formdata=None, language: str | None = None, rows: int = PRIZE_ROWS):
    """The new drive's form with `rows` prize rows (PRIZE_ROWS, more on asking: "More rows")."""
    rows = max(PRIZE_ROWS, min(rows, MAX_PRIZES))
    cls = _with_prizes(NewDriveForm, rows)
    form = cls(formdata=formdata) if formdata is not None else cls()
    for slot in range(TRUMP_SLOTS):
        form[f"trump{slot}"].choices = trump_choices()
    form.sit_out.choices = [SelectChoice(str(n), str(n)) for n in range(14)] + [
        SelectChoice(SIT_OUT_AVERAGE, _("their own average"))
    ]
    _fill_choices(form, rows)
    if formdata is None:
        form.currency.data = default_currency(language)
    return form


def prizes_form(rows: int, formdata=None, money: dict | None = None):
    """The prizes page's form with `rows` prize rows, filled from the drive's money when there is no post."""
    rows = max(1, min(rows, MAX_PRIZES))
    cls = _with_prizes(PrizesForm, rows)
    form = cls(formdata=formdata) if formdata is not None else cls()
    _fill_choices(form, rows)
    if formdata is None and money:
        form.currency.data = money["currency"]
        form.fee.data = _amount(money["fee"])
        form.one_prize_each.data = money.get("one_prize_each", False)
        form.prize_ties.data = money.get("prize_ties", "share")
        for n, prize in enumerate(money.get("prizes", [])[:rows]):
            what = prize["kind"] if prize["kind"] in ("booby", "lucky") else f"{prize['kind']}:{prize['place']}"
            form[f"prize{n}_what"].data = what
            form[f"prize{n}_for"].data = "any" if prize["role"] == "pair" else prize["role"]
            form[f"prize{n}_name"].data = prize["name"]
            form[f"prize{n}_amount"].data = _amount(prize["amount"]) if prize["amount"] else ""
    return form


def _amount(cents: int) -> str:
    """12, or 12,50 in Danish (12.50 in English): as the reader writes an amount."""
    return amount(cents, whole=True)


NEW_DRIVE_ORDER = (
    "title",
    "format",
    "ladies",
    "gents",
    "ladies_as_gents",
    "pairs",
    "sit_out",
    "hands",
    "interval_after",
    "trump0",
    "movement",
    "tie_break",
)
MONEY_ORDER = ("fee", "currency")


def first_error(form, order: tuple[str, ...]) -> str | None:
    """The first field with an error as the page shows them, top to bottom: the one the page scrolls to."""
    rows = prize_rows(form)
    names = list(order) + list(MONEY_ORDER)
    names += [f"prize{n}_{part}" for n in range(rows) for part in ("what", "for", "name", "amount")]
    names.append("prize_ties")
    return next((n for n in names if n in form and form[n].errors), None)


def prize_rows(form) -> int:
    return sum(1 for f in form if f.name.endswith("_what") and f.name.startswith("prize"))


def money_input(form) -> tuple[dict, dict[int, int]]:
    """The service's money from the form, and which row each prize came from (for naming a wrong one): a row with
    neither a name nor an amount gives no prize."""
    prizes: list[dict[str, Any]] = []
    rows: dict[int, int] = {}
    for n in range(prize_rows(form)):
        name = (form[f"prize{n}_name"].data or "").strip()
        amount = (form[f"prize{n}_amount"].data or "").strip()
        if not name and not amount:
            continue
        what = form[f"prize{n}_what"].data or "place:1"
        kind, _sep, place = what.partition(":")
        prize = {"kind": kind, "role": form[f"prize{n}_for"].data or "any", "name": name, "amount": amount}
        if place:
            prize["place"] = number_or_raw(place)
        rows[len(prizes) + 1] = n
        prizes.append(prize)
    money = {
        "currency": form.currency.data,
        "fee": form.fee.data,
        "prizes": prizes,
        "one_prize_each": bool(form.one_prize_each.data),
        "prize_ties": form.prize_ties.data,
    }
    return money, rows


def field_of(name: str, rows: dict[int, int]) -> str | None:
    """The form field a service error names: prizes.3.role → the third prize's row's "for" select."""
    if not name.startswith("prizes."):
        return name
    parts = name.split(".")
    if len(parts) < 2 or not parts[1].isdigit() or int(parts[1]) not in rows:
        return None
    row = rows[int(parts[1])]
    part = parts[2] if len(parts) > 2 else "name"
    return f"prize{row}_" + {"kind": "what", "place": "what", "role": "for", "amount": "amount"}.get(part, "name")


def lines(text: str | None) -> list[str]:
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


def _pairs(text: str | None) -> list[list[str]]:
    """The pairs, one a line as "Ann & Al" ("+" and "/" too); a line with one name is said in words, naming it."""
    pairs = []
    for n, line in enumerate(lines(text), start=1):
        pair = PAIR_SPLIT.split(line, maxsplit=1)
        if len(pair) != 2 or not pair[0] or not pair[1]:
            raise InputError(
                {
                    "pairs": _(
                        "line %(n)d, “%(line)s”, has one name: write each pair on a line of its own as “Ann & Al”",
                        n=n,
                        line=line,
                    )
                }
            )
        pairs.append(pair)
    return pairs


def drive_input(form) -> tuple[dict, dict, dict[int, int]]:
    """The service's (setup, money, prize rows) from the form: names one per line, pairs as "lady & gent" per line.
    InputError for what only the form can get wrong."""
    data: dict = {
        "title": (form.title.data or "").strip() or None,
        "format": form.format.data,
        "hands": number_or_raw(form.hands.data),
        "interval_after": number_or_raw(form.interval_after.data),
        "tie_break": form.tie_break.data,
        "movement": form.movement.data or "winners",
        "trumps": [form[f"trump{s}"].data for s in range(TRUMP_SLOTS) if form[f"trump{s}"].data] or None,
    }
    sit_out = form.sit_out.data or str(DEFAULT_SIT_OUT)
    data["sit_out"] = sit_out if sit_out == SIT_OUT_AVERAGE else number_or_raw(sit_out)
    if data["hands"] is None:
        data.pop("hands")
    if data["trumps"] is None:
        data.pop("trumps")
    if form.format.data == "couples":
        data["pairs"] = _pairs(form.pairs.data)
    else:
        as_gents = lines(form.ladies_as_gents.data)
        data["ladies"], data["gents"] = lines(form.ladies.data), lines(form.gents.data) + as_gents
        if as_gents:
            data["ladies_as_gents"] = as_gents
    money, rows = money_input(form)
    return data, money, rows


class TableForm(Form):
    """A table's result: the hand it was made for, one tap on "8–5", and the result the page showed as stored (so a
    second phone's different result is shown, not silently replaced). No CSRF: the page's address carries the
    table's token, which is the right to send it (as the JSON API's edit key is); no cookie grants anything."""

    class Meta:
        csrf = False

    hand = HiddenField()
    was = HiddenField()
    tricks = RadioField(choices=[SelectChoice(str(x), words.score((x, 13 - x))) for x in range(14)])


class CorrectionForm(Form):
    """The organiser's correction of one table's result (CSRF-checked; the phone holds the drive's key)."""

    class Meta:
        csrf = False  # CSRFProtect checks every form post before the view

    tricks = RadioField(choices=[SelectChoice(str(x), words.score((x, 13 - x))) for x in range(14)])


class RenameForm(Form):
    class Meta:
        csrf = False

    old = SelectField(choices=[], validate_choice=False)
    new = StringField()


class SubstituteForm(Form):
    class Meta:
        csrf = False

    out = SelectField(choices=[], validate_choice=False)
    newcomer = StringField()
    hand = StringField()
    lady_as_gent = BooleanField(default=False)
