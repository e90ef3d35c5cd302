"""The deal in progress: the deal after a game's last hand, whose bids a table entered before the play (plump, solo,
bid whist, Danish), as a scored hand's fields name it, and whether a change to the hands still fits it. The service
(games/service.py) stores and clears the bids."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from scorekeeper.core import VARIANTS, HandContext, InputError, Protokoll, game_context
from scorekeeper.core.messages import Msg, field_messages
from scorekeeper.storage import store


class ScoredGame(Protocol):
    """What is read of a scored game here (games/service.ScoredGame)."""

    @property
    def game(self) -> store.GameRecord: ...

    @property
    def hands(self) -> tuple[store.HandRecord, ...]: ...

    @property
    def protokoll(self) -> Protokoll: ...


@dataclass(frozen=True, slots=True)
class OpenDeal:
    """The deal in progress, the one after the last hand: its bids as entered (checked in its place), its number,
    dealer, leader (the bids may say who leads) and cards, the variant's state it is played in, and the version of its
    bids. Named as a scored hand's fields are, so a view's hand_fields reads it too (with its `context`)."""

    number: int
    dealer: int
    input: dict[str, Any]
    leader: int
    cards: int
    sitting_out: int | None
    version: int
    context: HandContext
    state: Any = None


def next_context(scored_game: ScoredGame) -> HandContext:
    """The context of the next deal, after the game's last hand."""
    p = scored_game.protokoll
    return game_context(VARIANTS[scored_game.game.variant], p, len(p.hands) + 1)


def open_deal(scored_game: ScoredGame) -> OpenDeal | None:
    """The deal in progress, if the table entered its bids."""
    deal = scored_game.game.deal
    if deal is None:
        return None
    ctx = next_context(scored_game)
    rules = VARIANTS[scored_game.game.variant]
    return OpenDeal(
        ctx.number,
        ctx.dealer,
        dict(deal),
        rules.leader(deal, ctx),
        ctx.cards,
        ctx.sitting_out,
        scored_game.game.deal_version,
        ctx,
        ctx.state,
    )


def still_fits(scored_game: ScoredGame, protokoll: Protokoll, changed: int) -> None:
    """A change to the hands keeps the deal in progress as the deal after the last hand: its bids must still fit it
    (a deal of another size, another dealer), and the game must go on."""
    deal = scored_game.game.deal
    if deal is None:
        return
    n = len(scored_game.hands) + 1
    if protokoll.finished:
        raise InputError(
            {"hand": Msg("this change ends the game, but hand %(n)d is being played: clear its bids first", n=n)},
            changed,
        )
    rules = VARIANTS[scored_game.game.variant]
    ctx = game_context(rules, protokoll, len(protokoll.hands) + 1)
    try:
        rules.check_bids(deal, ctx)
    except InputError as exc:
        raise InputError(
            {
                "hand": Msg(
                    "this change does not fit the bids of hand %(n)d, which is being played: %(details)s",
                    n=n,
                    details=field_messages(exc.errors),
                )
            },
            changed,
        ) from None
