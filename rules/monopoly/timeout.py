"""The move Monopoly makes for a player who let the game wait too long (``Rules.timeout_action``).

One action per call, taken in this order (the first that applies), each the least harmful the
rules allow and each closing one thing the game waits for:

- auction, the seat's bid: ``pass``.  Reason: it never spends the absent player's money; the
  item goes to the others or stays with the bank.  In an open auction every seat still in but
  the high bidder is waited for and each one's default is ``pass``: when the auction clock
  (``MonopolyRules.game_clock``) runs out the host passes for them one seat at a time, which
  closes the auction (the high bidder takes the lot, or the bank keeps it).
- shortage window: ``noclaim``.  Reason: buildings are the player's own choice and cost cash.
- rent claim (``rent=ask``) the seat owns: ``rent.<pos>``, the first.  Reason: money owed to the
  absent player; the window closes at the next roll, so waiting would forfeit it.
- offer addressed to the seat: ``reject.<n>``, the oldest.  Reason: nobody trades away an absent
  player's holdings; the proposer may offer again.
- received mortgaged property: ``keep.<pos>`` (pay the 10% now).  Reason: always legal and the
  smaller payment (repaying in full costs eleven times as much), leaving cash for rent.
- debt: raise the money the least harmful way first, then go bankrupt only when nothing else
  remains: mortgage an unimproved property (net worth unchanged: cash in, the property counted
  at its mortgage value), the cheapest outside a complete colour set first, so rents of a set
  suffer last; else sell a building (half its cost is lost), the cheapest house first; else
  ``bankrupt``, which is then legal since nothing is left to raise.  The debt is paid
  automatically as soon as the cash covers it, so each step brings it closer.
- opening roll and the turn's roll: ``roll``; at the Pool Party too.  Reason: rolling is free
  (the $50 fine and a get-out card stay for the third try or for the player's choice).
- landed on an unowned property: ``decline``.  Reason: it spends nothing; the auction the rules
  call for lets the others decide what it is worth.
- move done: ``end``.

Nothing hidden is read (deck order, drafts), and the seat's own draft is left as it is.  With
every move a timeout nobody buys anything, so a game ends by its round limit (``turns``, or
``data.SAFETY_ROUNDS``).
"""

from __future__ import annotations

from rules.core import Action
from rules.monopoly import data, debt, holdings, turn
from rules.monopoly.engine import waiting_for
from rules.monopoly.state import OPENING, MonopolyState


def timeout_action(state: MonopolyState, seat: int) -> Action | None:
    if seat not in waiting_for(state):
        return None
    if state.auction is not None:
        return Action("pass")
    if state.shortage is not None:
        return Action("noclaim")
    claim = next((c for c in state.claims if c.owner == seat), None)
    if claim is not None:
        return Action("rent", (claim.pos,))
    offer = next((o for o in state.offers if o.recipient == seat), None)
    if offer is not None:
        return Action("reject", (offer.number,))
    fee = next((f for f in state.fees if f.seat == seat), None)
    if fee is not None:
        return Action("keep", (fee.pos,))
    if debt.owed(state, seat):
        return _raise_money(state, seat)
    if state.debts or state.fees:
        return None  # not reached: waiting_for holds only debtors and receivers then
    acts = turn.actions(state, seat)
    if state.phase == OPENING or Action("roll") in acts:
        return Action("roll")
    if Action("decline") in acts:
        return Action("decline")
    if Action("end") in acts:
        return Action("end")
    return None


def _raise_money(state: MonopolyState, seat: int) -> Action:
    """A debtor's next step: mortgage, else sell a building, else bankruptcy."""
    mine = holdings.properties_of(state, seat)
    mortgageable = [p for p in mine if holdings.mortgage_problem(state, seat, p) is None]
    if mortgageable:
        pos = min(
            mortgageable,
            key=lambda p: (_in_complete_set(state, seat, p), data.BOARD[p].price, p),
        )
        return Action("mort", (pos,))
    sellable = [p for p in mine if holdings.sell_problem(state, seat, p) is None]
    if sellable:
        pos = min(sellable, key=lambda p: (data.BOARD[p].house_cost, p))
        return Action("sell", (pos,))
    return Action("bankrupt")


def _in_complete_set(state: MonopolyState, seat: int, pos: int) -> bool:
    return data.BOARD[pos].kind == data.SITE and holdings.full_set(state, seat, pos)
