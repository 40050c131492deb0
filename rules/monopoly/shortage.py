"""Building requests and the building shortage (components §3, chosen procedure).

When a player asks to buy a building and the bank holds fewer of that kind than there are
players who could legally build one right now (a full unmortgaged set where evenness allows
one more, and cash for the listed price), every other such player is asked once "claim one
too?" (``claim.<site>`` naming where they would build, or ``noclaim``).  If the claimants
outnumber the buildings, the buildings are auctioned one at a time among the claimants still
unserved (round-robin, the requester first; the winner's building goes at once on the site they
claimed, for the bid); an auction nobody bids in closes the window.  Otherwise each claimant
buys at the listed price.  While the window (and its auctions) is open no other any-time
action is open to anyone (chosen), so every claimed site stays legal.
"""

from __future__ import annotations

from rules.core import Action, Event, IllegalAction
from rules.monopoly import auction, holdings, moves
from rules.monopoly.state import MonopolyState, Shortage


def build_problem(state: MonopolyState, seat: int, pos: int) -> IllegalAction | None:
    problem = holdings.build_rule_problem(state, seat, pos)
    if problem is not None:
        return problem
    item = holdings.build_item(state, pos)
    if holdings.supply(state, item) == 0:
        return IllegalAction("no_hotels_left") if item == "hotel" else IllegalAction("no_houses_left")
    return None


def eligible(state: MonopolyState, item: str, first: int) -> list[int]:
    """Seats (in turn order from ``first``) that could legally build a ``item`` right now."""
    return [s for s in auction.bidders_from(state, first) if holdings.could_build(state, s, item)]


def request(state: MonopolyState, seat: int, pos: int) -> list[Event]:
    """``build.<pos>``: build at once, or open a claim window when buildings are short."""
    problem = build_problem(state, seat, pos)
    if problem is not None:
        raise problem
    item = holdings.build_item(state, pos)
    stock = holdings.supply(state, item)
    wanting = eligible(state, item, seat)
    if stock >= len(wanting):
        return [holdings.do_build(state, seat, pos, state_price(pos))]
    others = [s for s in wanting if s != seat]
    state.shortage = Shortage(item, seat, [[seat, pos]], others, stock)
    return [
        Event(
            "shortage",
            seat,
            {"item": item, "supply": stock, "space": pos, "asked": list(others)},
        )
    ]


def state_price(pos: int) -> int:
    return holdings.B[pos].house_cost


def claim_actions(state: MonopolyState, seat: int) -> list[Action]:
    shortage = state.shortage
    if shortage is None or seat not in shortage.asked:
        return []
    sites = holdings.could_build(state, seat, shortage.item)
    return [moves.at("claim", p) for p in sites] + [moves.NOCLAIM]


def answer(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    shortage = state.shortage
    if shortage is None:
        raise IllegalAction("no_shortage")
    if seat not in shortage.asked:
        raise IllegalAction("not_asked")
    if action.kind == "claim":
        if len(action.args) != 1 or not isinstance(action.args[0], int):
            raise IllegalAction("malformed")
        pos = action.args[0]
        if pos not in holdings.could_build(state, seat, shortage.item):
            problem = holdings.build_rule_problem(state, seat, pos)
            if problem is not None:
                raise problem
            if shortage.item == "hotel":
                raise IllegalAction("claim_not_hotel", space=pos)
            raise IllegalAction("claim_not_house", space=pos)
        shortage.claims.append([seat, pos])
        events = [Event("claimed", seat, {"item": shortage.item, "space": pos})]
    else:
        if action.args:
            raise IllegalAction("malformed")
        events = [Event("declined_claim", seat, {"item": shortage.item})]
    shortage.asked.remove(seat)
    if not shortage.asked:
        state.shortage_queue = [list(c) for c in shortage.claims]
        events += _serve(state)
    return events


def _serve(state: MonopolyState) -> list[Event]:
    """Sell the short buildings to the claimants still in the queue: at list price when there
    are enough for all, else by auction; closes the window when done."""
    shortage = state.shortage
    assert shortage is not None
    queue = state.shortage_queue
    stock = holdings.supply(state, shortage.item)
    events: list[Event] = []
    if queue and stock and len(queue) > stock:
        bidders = [seat for seat, _pos in queue]
        return auction.open_auction(state, shortage.item, -1, bidders, "shortage")
    for seat, pos in queue:
        if holdings.supply(state, shortage.item) and holdings.build_rule_problem(state, seat, pos) is None:
            events.append(holdings.do_build(state, seat, pos, state_price(pos)))
    return events + _close(state)


def _close(state: MonopolyState) -> list[Event]:
    shortage = state.shortage
    assert shortage is not None
    state.shortage = None
    state.shortage_queue = []
    return [Event("shortage_closed", None, {"item": shortage.item})]


def auction_closed(state: MonopolyState, winner: int | None, price: int) -> list[Event]:
    """A shortage auction ended: the winner builds on their claimed site for the bid."""
    if winner is None:
        return _close(state)
    entry = next(c for c in state.shortage_queue if c[0] == winner)
    state.shortage_queue.remove(entry)
    events = [holdings.do_build(state, winner, entry[1], price)]
    return events + _serve(state)
