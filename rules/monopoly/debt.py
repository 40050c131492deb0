"""Paying what is owed, debts that must be raised first, and bankruptcy.

A charge that the payer's cash covers is paid at once.  Otherwise it becomes a ``Debt``: the
game waits for the debtor, who may sell buildings, mortgage and make deals (and nothing that
moves the game on happens) until the cash covers it, when it is paid automatically
(``settle``, run after every action), or until they declare bankruptcy.

Bankruptcy (rulebook + components §3): buildings are first sold to the bank at half price.
Owed to one player: that player gets the cash, every property (mortgaged ones stay mortgaged,
and the receiver owes 10% on each or repays it in full: a ``Fee`` choice) and the get-out cards.
Owed to the bank, or to several players at once (Elected chairman): the cash is split evenly
among the creditors (the remainder to the bank), every property is auctioned by the bank
unmortgaged, and get-out cards go to the bottom of their decks.
"""

from __future__ import annotations

from rules.core import Event, IllegalAction
from rules.monopoly import data, deals, holdings
from rules.monopoly.state import BANK, END, OVER, ROLL, Debt, Fee, MonopolyState
from rules.monopoly.tokens import space_token


def charge(state: MonopolyState, debtor: int, creditors: list[int], each: int, reason: str) -> list[Event]:
    """``debtor`` owes ``each`` to every creditor (the bank when ``creditors`` is empty)."""
    creditors = [c for c in creditors if state.alive[c] and c != debtor]
    debt = Debt(debtor, creditors, each, reason)
    if each <= 0:
        return []
    if state.cash[debtor] >= debt.total and not any(d.debtor == debtor for d in state.debts):
        return _pay(state, debt)
    state.debts.append(debt)
    return [
        Event(
            "in_debt",
            debtor,
            {
                "owed": debt.total,
                "cash": state.cash[debtor],
                "to_seats": list(creditors) or [BANK],
                "reason": reason,
            },
        )
    ]


def _pay(state: MonopolyState, debt: Debt) -> list[Event]:
    if debt.creditors:
        for creditor in debt.creditors:
            holdings.transfer(state, debt.debtor, creditor, debt.each)
    else:
        holdings.to_bank(state, debt.debtor, debt.each)
    return [
        Event(
            "paid",
            debt.debtor,
            {"amount": debt.total, "to_seats": list(debt.creditors) or [BANK], "reason": debt.reason},
        )
    ]


def settle(state: MonopolyState) -> list[Event]:
    """Pay every queued debt whose debtor now has the cash, oldest first."""
    events: list[Event] = []
    for debt in list(state.debts):
        if debt in state.debts and state.cash[debt.debtor] >= debt.total:
            first = next(d for d in state.debts if d.debtor == debt.debtor)
            if first is debt:
                state.debts.remove(debt)
                events += _pay(state, debt)
    return events


def owed(state: MonopolyState, seat: int) -> int:
    return sum(d.total for d in state.debts if d.debtor == seat)


def bankrupt_problem(state: MonopolyState, seat: int) -> IllegalAction | None:
    """Bankruptcy is declared only by a debtor who cannot raise the money by selling and mortgaging."""
    debt = next((d for d in state.debts if d.debtor == seat), None)
    if debt is None:
        return IllegalAction("nothing_owed")
    if holdings.raisable(state, seat) >= owed(state, seat):
        return IllegalAction("can_raise", amount=holdings.raisable(state, seat), owed=owed(state, seat))
    return None


def go_bankrupt(state: MonopolyState, seat: int) -> list[Event]:
    """``seat`` leaves the game; their assets go to the creditor of their first debt."""
    debt = next(d for d in state.debts if d.debtor == seat)
    events: list[Event] = []
    mine = holdings.properties_of(state, seat)
    for pos in mine:  # buildings first go back to the bank at half price
        if state.level[pos]:
            refund = holdings.building_worth(state, pos) // data.SELL_BACK_DIVISOR
            if state.level[pos] == data.HOTEL:
                state.hotels += 1
            else:
                state.houses += state.level[pos]
            state.level[pos] = 0
            holdings.from_bank(state, seat, refund)
    cash = state.cash[seat]
    creditors = debt.creditors
    single = len(creditors) == 1
    if creditors:
        share = cash // len(creditors)
        for creditor in creditors:
            holdings.transfer(state, seat, creditor, share)
    holdings.to_bank(state, seat, state.cash[seat])
    cards = [deck for deck, holder in state.getout.items() if holder == seat]
    if single:
        heir = creditors[0]
        for pos in mine:
            state.owner[pos] = heir
            if state.mortgaged[pos]:
                state.fees.append(Fee(heir, pos))
        for deck in cards:
            state.getout[deck] = heir
    else:
        for pos in mine:
            state.owner[pos] = None
            state.mortgaged[pos] = False  # the bank auctions it unmortgaged (rulebook)
            state.auction_queue.append(pos)
        for deck in cards:
            state.getout[deck] = None
            state.decks[deck].append(data.GETOUT_CARD[deck])
    state.debts = [d for d in state.debts if d.debtor != seat]
    for d in state.debts:  # money owed to a player who is out goes to the bank
        if seat in d.creditors:
            d.creditors.remove(seat)
    state.alive[seat] = False
    state.out.append(seat)
    state.pool[seat] = None
    state.fees = [f for f in state.fees if f.seat != seat]
    state.claims = [c for c in state.claims if seat not in (c.owner, c.payer)]
    events.append(
        Event(
            "bankrupt",
            seat,
            {
                "to_seats": list(creditors) or [BANK],
                "cash": cash,
                "spaces": mine,
                "tokens": [space_token(p) for p in mine],
                "cards": cards,
            },
        )
    )
    events += deals.lapse_seat(state, seat)
    alive = [s for s in range(state.players) if state.alive[s]]
    if len(alive) == 1:
        state.phase = OVER
        state.reason = "bankruptcy"
        state.auction_queue.clear()
        state.fees.clear()
        state.debts.clear()
        state.auction = None
        events.append(Event("game_over", None, {"reason": "bankruptcy", "winners": alive}))
        return events
    if state.turn == seat and state.phase != OVER:
        events += pass_turn(state)
    return events


def pass_turn(state: MonopolyState) -> list[Event]:
    """The next seat still in the game takes the dice."""
    seat = state.turn
    for step in range(1, state.players + 1):
        nxt = (seat + step) % state.players
        if state.alive[nxt]:
            break
    state.turn = nxt
    state.phase = ROLL
    state.doubles = 0
    state.again = False
    state.pending_move = None
    return [Event("turn_started", nxt, {"turn": state.turns_taken[nxt] + 1})]


__all__ = ["END", "bankrupt_problem", "charge", "go_bankrupt", "owed", "pass_turn", "settle"]
