"""Auctions: a declined property, a bankrupt's property for the bank, shortage buildings.

Two modes, the table's ``auction`` option (chosen, components §3):

- ``open`` (the default): every bidder still in but the high bidder may bid or pass, in any
  order and at any time while the auction is open; a pass is final.  It closes when every bidder
  still in but the high bidder has passed.  The game waits for all of them at once, so an outbid
  player is waited for anew.  The auction clock (``auction_hours``) is the host's: the engine
  only counts auctions and bids (``MonopolyRules.game_clock``), and a clock that runs out passes
  for everyone still in, one seat at a time (``timeout``).
- ``round``: starting with the seat left of whoever caused the auction and going round, each
  bidder in turn raises or passes; a pass is final.

Either way bids are whole dollars from $1 and never above the bidder's cash (no auction debt);
the last bidder standing pays and takes it; if everyone passes without a bid the item stays with
the bank.  Everyone still in the game bids, the seat that declined included; a shortage auction
is among the claimants only.
"""

from __future__ import annotations

from rules.core import Event, IllegalAction
from rules.monopoly import data, holdings
from rules.monopoly.state import Auction, MonopolyState
from rules.monopoly.tokens import space_token

NO_TURN = -1
"""``Auction.turn`` in an open auction, where nobody bids "next"."""


def bidders_from(state: MonopolyState, first: int, seats: list[int] | None = None) -> list[int]:
    """Seats in the game (or ``seats``) in turn order starting at ``first``."""
    order = [(first + step) % state.players for step in range(state.players)]
    return [s for s in order if state.alive[s] and (seats is None or s in seats)]


def open_auction(state: MonopolyState, item: str, pos: int, bidders: list[int], reason: str) -> list[Event]:
    mode = state.auction_mode
    first = bidders[0] if mode == data.ROUND else NO_TURN
    state.auction = Auction(item, pos, list(bidders), first, reason=reason, mode=mode)
    if mode == data.OPEN:
        # Only open auctions run a clock; a round-robin game never counts, so a game saved before
        # auctions had modes (no count in its snapshot) still replays to exactly its snapshot.
        state.auctions_opened += 1
    params: dict[str, object] = {"item": item, "reason": reason, "bidders": list(bidders), "mode": mode}
    if mode == data.OPEN:
        params["hours"] = state.auction_hours
    if item == "property":
        params |= {"space": pos, "token": space_token(pos)}
    return [Event("auction_started", None, params)]


def min_bid(auction: Auction) -> int:
    return auction.high + 1 if auction.high else data.AUCTION_MIN_BID


def may_bid(auction: Auction, seat: int) -> bool:
    """``seat`` may bid or pass now: its turn (round), or still in and not the high bidder (open)."""
    if auction.mode == data.ROUND:
        return auction.turn == seat
    return seat != auction.high_bidder and seat in auction.active


def bidding(auction: Auction) -> frozenset[int]:
    """The seats that may bid or pass now (whom the game waits for)."""
    if auction.mode == data.ROUND:
        return frozenset((auction.turn,))
    return frozenset(s for s in auction.active if s != auction.high_bidder)


def _turn_problem(auction: Auction, seat: int) -> IllegalAction | None:
    """Why ``seat`` may not bid or pass now.  "Not your turn" fits round mode only: in either
    mode a seat that passed is out for good, and one that was never in (not a claimant of a
    shortage auction) has no turn to wait for."""
    if may_bid(auction, seat):
        return None
    if seat in auction.passed:
        return IllegalAction("auction_out")
    if seat not in auction.active:
        return IllegalAction("not_bidding")
    if auction.mode == data.OPEN and seat == auction.high_bidder:
        return IllegalAction("already_high", amount=auction.high)
    return IllegalAction("not_your_bid")


def bid_problem(state: MonopolyState, seat: int, amount: int) -> IllegalAction | None:
    """Why ``seat`` may not bid ``amount`` now, or ``None``."""
    auction = state.auction
    if auction is None:
        return IllegalAction("no_auction")
    problem = _turn_problem(auction, seat)
    if problem is not None:
        return problem
    low = min_bid(auction)
    if amount < low:
        return IllegalAction("bid_too_low", amount=low)
    if amount > state.cash[seat]:
        return IllegalAction("bid_over_cash", cash=state.cash[seat], amount=amount)
    return None


def listed_bids(state: MonopolyState, seat: int) -> list[int]:
    """The raises ``legal_actions`` offers: ``data.BID_STEPS`` over the high bid, and all in.

    In an open auction "all in" is every bidder's whole cash, for each bidder that can pay it
    (bidding a rival's whole cash is a bid they cannot top), so every bidder is offered the
    same amounts up to their own cash: an amount listed to one bidder and legal for another is
    listed to both."""
    auction = state.auction
    if auction is None or not may_bid(auction, seat):
        return []
    low = min_bid(auction)
    base = auction.high
    cash = state.cash
    amounts = {max(low, base + step) for step in data.BID_STEPS}
    if auction.mode == data.ROUND:
        amounts.add(cash[seat])
    else:
        amounts.update(cash[s] for s in auction.active if s != auction.high_bidder)
    mine = cash[seat]
    return sorted(a for a in amounts if low <= a <= mine)


def bid(state: MonopolyState, seat: int, amount: int) -> list[Event]:
    problem = bid_problem(state, seat, amount)
    if problem is not None:
        raise problem
    auction = state.auction
    assert auction is not None
    params: dict[str, object] = {"amount": amount}
    if auction.high_bidder is not None:
        params["outbid"] = auction.high_bidder
    auction.high = amount
    auction.high_bidder = seat
    auction.bids += 1
    events = [Event("bid", seat, params)]
    return events + _next(state, seat)


def pass_(state: MonopolyState, seat: int) -> list[Event]:
    auction = state.auction
    if auction is None:
        raise IllegalAction("no_auction")
    problem = _turn_problem(auction, seat)
    if problem is not None:
        raise problem
    events = [Event("passed", seat, {})]
    following = _after(auction, seat) if auction.mode == data.ROUND else None
    auction.active.remove(seat)
    auction.passed.append(seat)
    if following is not None and following != seat:
        auction.turn = following
    return events + _next(state, None)


def _after(auction: Auction, seat: int) -> int | None:
    index = auction.active.index(seat)
    if len(auction.active) == 1:
        return None
    return auction.active[(index + 1) % len(auction.active)]


def _next(state: MonopolyState, bidder: int | None) -> list[Event]:
    """Move the turn on after a bid (``bidder``) or a pass (round mode), or close the auction
    once nobody but the high bidder is left in it."""
    auction = state.auction
    assert auction is not None
    if bidder is not None and auction.mode == data.ROUND:
        following = _after(auction, bidder)
        if following is not None:
            auction.turn = following
    if not auction.active or (auction.high_bidder is not None and auction.active == [auction.high_bidder]):
        return close(state)
    return []


def close(state: MonopolyState) -> list[Event]:
    """The last bidder standing pays and takes the item; no bids leaves it with the bank."""
    auction = state.auction
    assert auction is not None
    state.auction = None
    winner, price = auction.high_bidder, auction.high
    params: dict[str, object] = {"item": auction.item, "price": price}
    if auction.item == "property":
        params |= {"space": auction.pos, "token": space_token(auction.pos)}
    if winner is None:
        return [Event("auction_unsold", None, params)]
    if auction.item == "property":
        holdings.to_bank(state, winner, price)
        state.owner[auction.pos] = winner
        state.mortgaged[auction.pos] = False
        return [Event("auction_won", winner, params)]
    return [Event("auction_won", winner, params)]


def must_finish(auction: Auction) -> IllegalAction:
    """The refusal of anything but a bid or a pass while ``auction`` runs: it names the lot."""
    if auction.item == "property":
        return IllegalAction("auction_first", space=auction.pos)
    return IllegalAction("building_auction_first", lot=auction.item)
