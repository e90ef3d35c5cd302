"""Words and symbols every variant's pages share: suits, no trump, sides, trick counts. Spelled once, here."""

from __future__ import annotations

from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.i18n import ngettext

SUIT_SYMBOLS = {"hearts": "♥", "diamonds": "♦", "clubs": "♣", "spades": "♠"}
# No trump has three spellings, each kept as the pages have always shown it: "NT" in a hand's words and on paper,
# "–" on a trump button (a symbol among symbols), "no trump" in a sentence.
NO_TRUMP = "none"
NO_TRUMP_SHORT = "NT"
NO_TRUMP_BUTTON = "–"


def suit(trump: str | None) -> str:
    """A trump in a hand's words or a sheet's cell: ♥ ♦ ♣ ♠, NT, or nothing."""
    if trump == NO_TRUMP:
        return NO_TRUMP_SHORT
    return SUIT_SYMBOLS.get(trump or "", "")


def suit_button(trump: str) -> str:
    """A trump on a button: ♥ ♦ ♣ ♠ or –."""
    return NO_TRUMP_BUTTON if trump == NO_TRUMP else SUIT_SYMBOLS[trump]


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
