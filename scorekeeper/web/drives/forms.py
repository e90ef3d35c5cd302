"""The drive's forms (WTForms; Flask-WTF's CSRF on the organiser's). They turn what was typed into the input of
services/drives.py, which decides what is valid."""

from __future__ import annotations

import re

from flask_babel import lazy_gettext as _l
from wtforms import HiddenField, RadioField, SelectField, StringField, TextAreaField
from wtforms.fields import SelectChoice

from scorekeeper.core.drives import DEFAULT_HANDS, DEFAULT_TRUMPS
from scorekeeper.core.game import NO_TRUMP
from scorekeeper.services.drives import CURRENCIES, PRIZES
from scorekeeper.web import words
from scorekeeper.web.games.forms import Form
from scorekeeper.web.inputs import number_or_raw

TRUMP_SLOTS = 5
UNUSED = ""
DEFAULT_INTERVAL = 12
PAIR_SPLIT = re.compile(r"\s*[&+/]\s*")


def trump_choices() -> list[SelectChoice]:
    return [SelectChoice(UNUSED, "—")] + [
        SelectChoice(t, f"{words.suit(t)} {words.suit_words(t) if t == NO_TRUMP else ''}".strip())
        for t in ("hearts", "clubs", "diamonds", "spades", NO_TRUMP)
    ]


class NewDriveForm(Form):
    title = StringField()
    format = RadioField(
        choices=[SelectChoice("progressive", _l("Progressive")), SelectChoice("couples", _l("Couples"))],
        default="progressive",
    )
    ladies = TextAreaField()
    gents = TextAreaField()
    pairs = TextAreaField()
    hands = StringField(default=str(DEFAULT_HANDS))
    interval_after = StringField(default=str(DEFAULT_INTERVAL))
    tie_break = RadioField(
        choices=[SelectChoice("share", _l("Share the place")), SelectChoice("countback", _l("Count back"))],
        default="share",
    )
    currency = SelectField(choices=[SelectChoice(c, c) for c in CURRENCIES], default="DKK")
    fee = StringField()


for _slot in range(TRUMP_SLOTS):
    setattr(
        NewDriveForm,
        f"trump{_slot}",
        SelectField(
            choices=[], validate_choice=False, default=DEFAULT_TRUMPS[_slot] if _slot < len(DEFAULT_TRUMPS) else ""
        ),
    )
for _kind in PRIZES:
    setattr(NewDriveForm, f"prize_{_kind}", StringField())
    setattr(NewDriveForm, f"prize_{_kind}_amount", StringField())


def new_drive_form(formdata=None) -> NewDriveForm:
    form = NewDriveForm(formdata=formdata) if formdata is not None else NewDriveForm()
    for slot in range(TRUMP_SLOTS):
        form[f"trump{slot}"].choices = trump_choices()
    return form


def lines(text: str | None) -> list[str]:
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


def drive_input(form: NewDriveForm) -> tuple[dict, dict]:
    """The service's (setup, money) from the form: names one per line, pairs as "lady & gent" per line."""
    data: dict = {
        "title": (form.title.data or "").strip() or None,
        "format": form.format.data,
        "hands": number_or_raw(form.hands.data),
        "interval_after": number_or_raw(form.interval_after.data),
        "tie_break": form.tie_break.data,
        "trumps": [form[f"trump{s}"].data for s in range(TRUMP_SLOTS) if form[f"trump{s}"].data] or None,
    }
    if data["hands"] is None:
        data.pop("hands")
    if data["trumps"] is None:
        data.pop("trumps")
    if form.format.data == "couples":
        data["pairs"] = [PAIR_SPLIT.split(line, maxsplit=1) for line in lines(form.pairs.data)]
    else:
        data["ladies"], data["gents"] = lines(form.ladies.data), lines(form.gents.data)
    money = {
        "currency": form.currency.data,
        "fee": form.fee.data,
        "prizes": [
            {"kind": k, "name": form[f"prize_{k}"].data, "amount": form[f"prize_{k}_amount"].data} for k in PRIZES
        ],
    }
    return data, money


class TableForm(Form):
    """A table's result: the hand it was made for and one tap on "8–5". No CSRF: the page's address carries the
    table's token, which is the right to send it (as the JSON API's edit key is); no cookie grants anything."""

    class Meta:
        csrf = False

    hand = HiddenField()
    tricks = RadioField(choices=[SelectChoice(str(x), words.score((x, 13 - x))) for x in range(14)])


class CorrectionForm(Form):
    """The organiser's correction of one table's result (CSRF-checked; the phone holds the drive's key)."""

    class Meta:
        csrf = False  # CSRFProtect checks every form post before the view

    tricks = RadioField(choices=[SelectChoice(str(x), words.score((x, 13 - x))) for x in range(14)])
