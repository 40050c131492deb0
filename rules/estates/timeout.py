"""The move The Estates makes for a player who let their turn run out (``Rules.timeout_action``).

Each default is the least harmful choice the rules allow, and each step moves the turn on:

- choose (auctioneer): the first piece offered, which is a floor cube whenever one can be
  placed (display rows in order, left end first), then a rooftop, then a permit, the Mayor or
  the Cancel cube.  Reason: auctioning a cube is the ordinary move; it spends none of the
  one-off pieces the table may want, and the others' bids pay the auctioneer.  No stow: the
  cash box is a choice, not a default.
- bid: ``pass``.  Reason: it never spends the absent player's money.
- decide (auctioneer): ``sell``.  Reason: always legal, and the auctioneer is paid instead of
  paying.
- place: ``discard`` where the piece may be discarded (a permit, the Mayor, the Cancel cube),
  else the first legal placement (row A first, lowest lot first).  Reason: a discard changes no
  building; a floor cube or a rooftop must be placed, and the first spot is a fixed rule
  everybody can foresee.

With every move a timeout, each turn places or discards one piece of a finite supply, so every
round and the match end.
"""

from __future__ import annotations

from rules.core import Action
from rules.estates.engine import legal_actions, waiting_for
from rules.estates.pieces import DISCARD, PASS, SELL
from rules.estates.state import BID, CHOOSE, DECIDE, PLACE, EstatesState


def timeout_action(state: EstatesState, seat: int) -> Action | None:
    if seat not in waiting_for(state):
        return None
    if state.phase == BID:
        return PASS
    if state.phase == DECIDE:
        return SELL
    actions = legal_actions(state, seat)
    if state.phase == CHOOSE:
        return next((a for a in actions if a.kind == "pick"), actions[0] if actions else None)
    if state.phase == PLACE:
        return DISCARD if DISCARD in actions else (actions[0] if actions else None)
    return None
