"""Round-robin auctions: a declined property, a bankrupt's property for the bank, shortage buildings.

Chosen (components §3) for asynchronous play: starting with the seat left of whoever caused the
auction and going round, each bidder in turn raises or passes; a pass is final; bids are whole
dollars from $1 and never above the bidder's cash (no auction debt).  The last bidder standing
pays and takes it; if everyone passes without a bid the item stays with the bank.  Everyone still
in the game bids, the seat that declined included.
"""

from __future__ import annotations

from rules.core import Event, IllegalAction
from rules.monopoly import data, holdings
from rules.monopoly.state import Auction, MonopolyState
from rules.monopoly.tokens import space_token


def bidders_from(state: MonopolyState, first: int, seats: list[int] | None = None) -> list[int]:
    """Seats in the game (or ``seats``) in turn order starting at ``first``."""
    order = [(first + step) % state.players for step in range(state.players)]
    return [s for s in order if state.alive[s] and (seats is None or s in seats)]


def open_auction(state: MonopolyState, item: str, pos: int, bidders: list[int], reason: str) -> list[Event]:
    state.auction = Auction(item, pos, list(bidders), bidders[0], reason=reason)
    params: dict[str, object] = {"item": item, "reason": reason, "bidders": list(bidders)}
    if item == "property":
        params |= {"space": pos, "token": space_token(pos)}
    return [Event("auction_started", None, params)]


def min_bid(auction: Auction) -> int:
    return auction.high + 1 if auction.high else data.AUCTION_MIN_BID


def bid_problem(state: MonopolyState, seat: int, amount: int) -> IllegalAction | None:
    """Why ``seat`` may not bid ``amount`` now, or ``None``."""
    auction = state.auction
    if auction is None:
        return IllegalAction("no_auction")
    if auction.turn != seat:
        return IllegalAction("not_your_bid")
    low = min_bid(auction)
    if amount < low:
        return IllegalAction("bid_too_low", amount=low)
    if amount > state.cash[seat]:
        return IllegalAction("bid_over_cash", cash=state.cash[seat], amount=amount)
    return None


def listed_bids(state: MonopolyState, seat: int) -> list[int]:
    """The raises ``legal_actions`` offers (``data.BID_STEPS`` over the high bid, and all in)."""
    auction = state.auction
    if auction is None or auction.turn != seat:
        return []
    low = min_bid(auction)
    base = auction.high
    amounts = {max(low, base + step) for step in data.BID_STEPS} | {state.cash[seat]}
    return sorted(a for a in amounts if low <= a <= state.cash[seat])


def bid(state: MonopolyState, seat: int, amount: int) -> list[Event]:
    problem = bid_problem(state, seat, amount)
    if problem is not None:
        raise problem
    auction = state.auction
    assert auction is not None
    auction.high = amount
    auction.high_bidder = seat
    events = [Event("bid", seat, {"amount": amount})]
    return events + _next(state, seat)


def pass_(state: MonopolyState, seat: int) -> list[Event]:
    auction = state.auction
    if auction is None:
        raise IllegalAction("no_auction")
    if auction.turn != seat:
        raise IllegalAction("not_your_bid")
    events = [Event("passed", seat, {})]
    following = _after(auction, seat)
    auction.active.remove(seat)
    if following is not None and following != seat:
        auction.turn = following
    return events + _next(state, None)


def _after(auction: Auction, seat: int) -> int | None:
    index = auction.active.index(seat)
    if len(auction.active) == 1:
        return None
    return auction.active[(index + 1) % len(auction.active)]


def _next(state: MonopolyState, bidder: int | None) -> list[Event]:
    """Move the turn on after a bid (``bidder``) or a pass, or close the auction."""
    auction = state.auction
    assert auction is not None
    if bidder is not None:
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
