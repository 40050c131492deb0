"""Chance and Tip Jar: drawing a card and doing what it says, short of moving the token.

A card that moves its drawer returns a ``Trip`` instead: the turn flow (``turn``) moves the token
and resolves the landing, which may be another deck's space and draw again, so this module never
calls back into it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.core import Event
from rules.monopoly import data, debt, holdings
from rules.monopoly.state import MonopolyState
from rules.monopoly.tokens import card_token

FORWARD = "forward"  # GO salary when it passes GO
BACK = "back"  # never pays the salary
POOL = "pool"  # straight to the Pool Party, the turn ends


@dataclass(frozen=True, slots=True)
class Trip:
    """Where a card sends its drawer, and how; ``rent`` is the rate a "nearest" card imposes
    (``data.AIRPORT`` or ``data.UTILITY``) if the space reached is another's."""

    to: int
    way: str
    rent: str = ""


def draw(state: MonopolyState, seat: int, deck: str) -> tuple[list[Event], Trip | None]:
    index = state.decks[deck].pop(0)
    card = data.CARDS[deck][index]
    if card.kind == "getout":
        state.getout[deck] = seat
    else:
        state.decks[deck].append(index)  # back to the bottom (rulebook)
    events = [Event("card_drawn", seat, {"deck": deck, "card": card_token(deck, index), "kind": card.kind})]
    kind, arg = card.kind, card.arg
    pos = state.position[seat]
    if kind == "advance":
        return events, Trip(arg, FORWARD)
    if kind in ("nearest_airport", "nearest_utility"):
        group = data.AIRPORTS if kind == "nearest_airport" else data.UTILITIES
        target = min(group, key=lambda p: (p - pos) % data.SPACES)
        mark = data.AIRPORT if kind == "nearest_airport" else data.UTILITY
        return events, Trip(target, FORWARD, mark)
    if kind == "back":
        return events, Trip((pos - arg) % data.SPACES, BACK)
    if kind == "pool":
        return events, Trip(data.POOL, POOL)
    return events + _effect(state, seat, kind, arg), None


def _effect(state: MonopolyState, seat: int, kind: str, arg: int) -> list[Event]:
    """Money a card moves; a get-out card does nothing until used."""
    if kind == "collect":
        holdings.from_bank(state, seat, arg)
        return [Event("collected", seat, {"amount": arg, "reason": "card"})]
    if kind == "pay":
        return debt.charge(state, seat, [], arg, "card")
    if kind == "repairs":
        per_house, per_hotel = divmod(arg, 1000)
        levels = [state.level[p] for p in holdings.properties_of(state, seat)]
        cost = sum(per_hotel if lv == data.HOTEL else per_house * lv for lv in levels)
        return debt.charge(state, seat, [], cost, "card")
    others = [s for s in range(state.players) if s != seat and state.alive[s]]
    if kind == "each_pay":
        return debt.charge(state, seat, others, arg, "card")
    if kind == "each_collect":
        events: list[Event] = []
        for other in others:
            events += debt.charge(state, other, [seat], arg, "card")
        return events
    return []  # getout: kept until used
