"""The replay: a game's hands scored one by one in their place, with the variant's hooks; the totals are their sum.

Also the two contexts the hooks are asked in, built here so that the pages (a hand form, a blank sheet) ask the same
hooks in the same context as the scorer.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from scorekeeper.core.contract import VariantRules
from scorekeeper.core.game import HandContext, Match, Protokoll, ScoredHand, Setup, TableContext, add
from scorekeeper.core.messages import GameOver, InputError, Msg
from scorekeeper.core.numbers import Point


def table_context(setup: Setup) -> TableContext:
    """A started game's table."""
    return TableContext(
        variant=setup.variant,
        n_players=setup.n,
        options=setup.options,
        players=tuple(setup.players),
        first_dealer=setup.dealer,
    )


def hand_context(
    rules: VariantRules,
    table: TableContext,
    number: int,
    totals: tuple[Point, ...] = (),
    state: Any = None,
    dealt: bool = True,
) -> HandContext:
    """Hand `number` at this table, after `totals` and the variant's `state` folded over the hands before it: its
    dealer, the cards and the seat out the variant says (no cards when it will not be `dealt`: the game is over). The
    dealer must be known (the table's first, the state)."""
    dealer = rules.dealer(number, state, table)
    if dealer is None:
        raise ValueError(
            f"{rules.NAME}: the dealer of hand {number} must be known (the first dealer, the hands before)"
        )
    cards = rules.cards(number, table) if dealt else 0
    return _at_table(table, number, dealer, totals, cards, rules.sits_out(number, table), state)


def scored_context(table: TableContext, hand: ScoredHand, totals: tuple[Point, ...]) -> HandContext:
    """The context a scored hand was scored in (`totals` before it), from what the hand keeps: no hook asked again."""
    return _at_table(table, hand.number, hand.dealer, totals, hand.cards, hand.sitting_out, hand.state)


def _at_table(
    table: TableContext,
    number: int,
    dealer: int,
    totals: tuple[Point, ...],
    cards: int,
    sitting_out: int | None,
    state: Any,
) -> HandContext:
    """A hand in its place at this table: the table's own members and the hand's."""
    return HandContext(
        variant=table.variant,
        n_players=table.n_players,
        options=table.options,
        players=table.players,
        first_dealer=table.first_dealer,
        number=number,
        dealer=dealer,
        totals=totals,
        cards=cards,
        sitting_out=sitting_out,
        state=state,
    )


def replay(rules: VariantRules, setup: Setup, inputs: Iterable[Any], start: Protokoll | None = None) -> Protokoll:
    """Score the hands one by one, checking each in its place; the totals are their sum.

    When a side must win more than one game (`games_to_win`) the game is a match (a rubber): a game won is counted,
    the next starts at 0–0, and the match ends when a side has won that many. `start`, the protokoll of the game's
    first hands, goes on from its last hand: the same as replaying them all.
    """
    table = table_context(setup)
    sides = rules.sides(table)
    zeros = (0,) * len(sides)
    match: Match | None
    totals: tuple[Point, ...]
    if start is None:
        totals = zeros
        hands: list[ScoredHand] = []
        finished, winner = False, None
        games_to_win = rules.games_to_win(table)
        match = Match(games_to_win, zeros) if games_to_win > 1 else None
        state = rules.initial_state(table)
    else:
        totals, hands, finished, winner = start.totals, list(start.hands), start.finished, start.winner
        match, state = start.match, start.state
    for i, raw in enumerate(inputs, len(hands)):
        number = i + 1
        if finished:
            raise GameOver({"hand": Msg("the game ended with hand %(n)d; it takes no more hands", n=i)}, number)
        ctx = hand_context(rules, table, number, totals, state)
        try:
            inp = rules.check_hand(raw, ctx)
        except InputError as exc:
            exc.number = number
            raise
        points = rules.hand_points(inp, ctx)
        totals = add(totals, points)
        hand = ScoredHand(
            number,
            ctx.dealer,
            inp,
            points,
            totals,
            rules.leader(inp, ctx),
            ctx.sitting_out,
            match.game if match else None,
            rules.trump(inp, ctx),
            ctx.cards,
            state,
        )
        hands.append(hand)
        state = rules.fold(state, hand, ctx)
        finished, winner = rules.game_end(hand, ctx)
        if match is not None and finished and winner is not None:
            match = match.won(winner, totals)
            if not match.over:
                finished, winner, totals = False, None, zeros
    next_number = len(hands) + 1
    # the next hand's, as far as it is known before it is entered (a finished game has no cards to deal)
    next_ctx = hand_context(rules, table, next_number, totals, state, dealt=not finished)
    deals = rules.deals(table)
    return Protokoll(
        setup=setup,
        sides=sides,
        hands=tuple(hands),
        totals=totals,
        next_dealer=next_ctx.dealer,
        next_leader=rules.next_leader(next_ctx),
        finished=finished,
        winner=winner,
        games_won=match.games_won if match else None,
        rubber_points=rules.match_points(match, table),
        deals_left=max(0, deals - rules.deals_counted(state, len(hands), table)) if deals else None,
        game=match.game if match else None,
        next_trump=None if finished else rules.fixed_trump(next_number, table),
        match=match,
        next_cards=None if finished else next_ctx.cards,
        state=state,
    )


def game_context(rules: VariantRules, protokoll: Protokoll, number: int) -> HandContext:
    """The context hand `number` of a scored game is (or will be) played in: a scored hand's own, else the next
    hand's, after every hand and the state they folded; so a page asks the hooks as the scorer did."""
    table = table_context(protokoll.setup)
    hands = protokoll.hands
    if number <= len(hands):
        hand = hands[number - 1]
        before = hands[number - 2] if number > 1 else None
        zeros = (0,) * len(protokoll.sides)
        totals = before.totals if before is not None and before.game == hand.game else zeros
        return scored_context(table, hand, totals)
    return hand_context(rules, table, len(hands) + 1, protokoll.totals, protokoll.state)
