"""Messages and errors: what the core says when input is wrong, kept translatable for the shell."""

from __future__ import annotations

from collections.abc import Mapping


class Msg(str):
    """An English message that keeps its template and values, so that the shell can say it in the player's language.

    Babel extracts the templates (keyword `Msg`); `str(msg)` is the English text.
    """

    template: str
    values: dict

    def __new__(cls, template: str, **values):
        shown = {k: "; ".join(map(str, v)) if isinstance(v, (list, tuple)) else v for k, v in values.items()}
        self = super().__new__(cls, template % shown if values else template)
        self.template = template
        self.values = values
        return self


class Choices(str):
    """The values a field takes, as the API spells them ("uptown, downtown, no_trump"), its codes kept so that the
    shell can list them in the reader's words (a variant's CHOICE_LABELS): `variant` says whose words they are."""

    codes: tuple
    variant: str | None

    def __new__(cls, codes, variant: str | None = None):
        self = super().__new__(cls, ", ".join(map(str, codes)))
        self.codes = tuple(codes)
        self.variant = variant
        return self


FIELD_MESSAGE = "%(field)s: %(message)s"


def field_messages(errors: Mapping[str, str]) -> tuple:
    """Several field errors as one list of "field: message" parts, each still translatable (the shell names the field
    in words)."""
    return tuple(Msg(FIELD_MESSAGE, field=k, message=v) for k, v in errors.items())


def message_of(exc: Exception):
    """The Msg a ValueError was raised with (str(exc) would lose the template)."""
    return exc.args[0] if exc.args else ""


class InputError(Exception):
    """Bad input: `errors` maps each wrong field to what is wrong with it.

    `number` is the hand the error belongs to when a replay finds it.
    """

    def __init__(self, errors: Mapping[str, str], number: int | None = None):
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = dict(errors)
        self.number = number


class GameOver(InputError):
    """A hand was entered after the game had ended."""


class OptionError(ValueError):
    """A wrong value deep inside an option (a house tariff): `path` names where, below `options.<name>`."""

    def __init__(self, message: str, path: str = ""):
        super().__init__(message)
        self.path = path
