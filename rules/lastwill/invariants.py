"""Conservation laws the fuzzer checks after every action; each broken one is a sentence.

Money: the players' money is exactly what the bank paid out less what it took in, and nobody who
holds property or a job is below £0.  Cards: every card of the game is in exactly one place
(a deck, a pile, the box, a hand, a board, the offering, a play in progress, a held discard).
Time: the game never passes round 7.
"""

from __future__ import annotations

from rules.lastwill import data
from rules.lastwill.cards import PROPERTIES, limited, slots_of, spaces
from rules.lastwill.state import DISCARD, OVER, PHASES, LastWillState

_UNIVERSE = {
    expansion: frozenset(c for deck in data.Deck for c in data.deck_cards(deck, expansion))
    for expansion in (False, True)
}


def _cards(state: LastWillState) -> list[str]:
    found: list[str] = []
    for cards in state.decks.values():
        found += cards
    for cards in state.piles.values():
        found += cards
    found += state.gone
    for player in state.players:
        found += player.hand
        found += [item.card for item in player.board]
    for held in state.held:
        found += held
    found += [slot.card for slot in state.offering if slot.card]
    if state.pending is not None:
        found += state.pending.cards
        found += state.pending.used
    return found


def invariants(state: LastWillState) -> list[str]:
    problems: list[str] = []
    total = sum(p.money for p in state.players)
    if total != state.paid_out - state.paid_in:
        problems.append(f"money total {total} != paid out {state.paid_out} - paid in {state.paid_in}")
    cards = _cards(state)
    universe = _UNIVERSE[state.expansion]
    if len(cards) != len(universe) or set(cards) != universe:
        problems.append(
            f"cards are not each in exactly one place ({len(cards)} placed, {len(universe)} in play)"
        )
    if state.phase not in PHASES:
        problems.append(f"unknown phase {state.phase!r}")
    if not 1 <= state.round <= data.ROUNDS:
        problems.append(f"round {state.round} is outside 1..{data.ROUNDS}")
    extensions = sum(p.extensions for p in state.players)
    if extensions + state.extensions_left != data.EXTENSIONS or state.extensions_left < 0:
        problems.append("board extensions do not add up")
    jobs = [p.job for p in state.players if p.job]
    if len(set(jobs)) != len(jobs):
        problems.append("two players hold the same employment card")
    for seat, player in enumerate(state.players):
        if limited(player) and player.money < data.SPEND_DOWN_TO:
            problems.append(f"seat {seat} holds property or a job but has £{player.money}")
        if player.job and (player.sacked or len(player.covered) != len(data.EMPLOYMENT[player.job].lines)):
            problems.append(f"seat {seat}'s employment card and demotions disagree")
        if player.job and all(player.covered):
            problems.append(f"seat {seat} has every line covered but was not sacked")
        if len(player.board) > spaces(player):
            problems.append(f"seat {seat} has more cards on the board than spaces")
        for item in player.board:
            if len(item.tokens) > len(slots_of(item.card)):
                problems.append(f"{item.card} has more tokens than slots")
            prop = PROPERTIES.get(item.card)
            if prop is not None and not (0 <= item.step < len(prop.track) and item.kind in prop.types):
                problems.append(f"{item.card} has a bad value step or type")
    if state.phase == DISCARD and not any(state.need):
        problems.append("the discard phase waits for nobody")
    if state.phase != DISCARD and any(state.held):
        problems.append("discards are held outside the discard phase")
    if state.phase == OVER and state.pending is not None:
        problems.append("a choice is open after the game ended")
    if state.handoff is not None:
        problems.append(f"the hand-off to {state.handoff} was never run")
    return problems
