"""Answering an overlay that suspends the turn: auction bids, bankruptcy, a mortgage's 10% fee.

The rules of each overlay live in its own module (``auction``, ``shortage``, ``debt``,
``deals``); these handlers check the arguments and carry out what only the combination knows:
a shortage auction that closes places its building, a fee kept is a debt like any other.
"""

from __future__ import annotations

from rules.core import Action, Event
from rules.monopoly import arguments, auction, data, deals, debt, holdings, shortage
from rules.monopoly.state import Auction, MonopolyState
from rules.monopoly.tokens import space_token


def bid(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    amount = arguments.int_arg(action)
    was = state.auction
    events = auction.bid(state, seat, amount)
    return events + _auction_over(state, was)


def pass_(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    arguments.no_args(action)
    was = state.auction
    events = auction.pass_(state, seat)
    return events + _auction_over(state, was)


def _auction_over(state: MonopolyState, was: Auction | None) -> list[Event]:
    """A closed shortage auction places its building; other auctions need nothing more."""
    if state.auction is not None or was is None or was.reason != "shortage":
        return []
    return shortage.auction_closed(state, was.high_bidder, was.high)


def bankrupt(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    arguments.no_args(action)
    problem = debt.bankrupt_problem(state, seat)
    if problem is not None:
        raise problem
    return debt.go_bankrupt(state, seat)


def fee(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    """``keep`` pays the 10% (or owes it), ``lift`` repays the mortgage in full."""
    problem = deals.fee_problem(state, seat, action)
    if problem is not None:
        raise problem
    pos = int(action.args[0])
    pending = next(f for f in state.fees if f.seat == seat and f.pos == pos)
    state.fees.remove(pending)
    if action.kind == "lift":
        return [holdings.do_repay(state, seat, pos)]
    amount = data.fee(pos)
    return [
        Event("interest", seat, {"space": pos, "token": space_token(pos), "amount": amount}),
        *debt.charge(state, seat, [], amount, "interest"),
    ]
