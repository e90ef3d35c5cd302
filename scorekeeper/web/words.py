"""Words and symbols every variant's pages share: suits, no trump, sides, trick counts. Spelled once, here."""

from __future__ import annotations

from scorekeeper.core.game import NO_TRUMP, SUITS
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.i18n import ngettext

SUIT_SYMBOLS = dict(zip(SUITS, "♥♦♣♠"))  # in the core's order: hearts, diamonds, clubs, spades


def no_trump_short() -> str:
    """No trump in one short word, the same on a button, in a hand's words and on paper: sans, grand, sang, NT."""
    return _("NT")


def suit(trump: str | None) -> str:
    """A trump in a hand's words or a sheet's cell: ♥ ♦ ♣ ♠, the short word for no trump, or nothing."""
    if trump == NO_TRUMP:
        return no_trump_short()
    return SUIT_SYMBOLS.get(trump or "", "")


def suit_button(trump: str) -> str:
    """A trump on a button: ♥ ♦ ♣ ♠ or the short word for no trump."""
    return no_trump_short() if trump == NO_TRUMP else SUIT_SYMBOLS[trump]


def suit_words(trump: str) -> str:
    """A trump in a sentence: ♥ ♦ ♣ ♠ or "no trump", translated."""
    return _("no trump") if trump == NO_TRUMP else SUIT_SYMBOLS[trump]


def side_names(players, sides) -> list[str]:
    return [" & ".join(players[s] for s in seats) for seats in sides]


def score(pair) -> str:
    """Tricks or honours of the two sides: 8–5."""
    return "–".join(map(str, pair))


def tricks_words(n: int) -> str:
    return ngettext("%(num)d trick", "%(num)d tricks", n)


def yes_no(value) -> str:
    return _("yes") if value else _("no")
