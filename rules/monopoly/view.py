"""What a seat (or a spectator) may see, as fresh JSON for the renderer and the cogs.

In Monopoly all money and holdings are public (rulebook: deeds lie face up, cash is counted in
the open), so the public view is the whole table: cash, positions, deeds, buildings, mortgages,
the bank's supply, get-out card holders, the auction, debts, claims and open offers.  Hidden:
the order of both decks (only their sizes are shown) and the generator.  A seat's own view adds
its private deal draft and the public facts of the table's history a state needs (``you``).

Shape (renderer contract)::

    game, players, phase, turn, waiting_for, dice, doubles, rent_mode, turns_limit, reason,
    auction_mode ("open" | "round"), auction_hours (the open auction's clock; 0 = none)
    seats[n]: seat, cash, position, token (space token), alive, pool (tries or None),
              getout [decks], net_worth, turns_taken
    spaces[40]: pos, token, name, kind, group, price, owner, level (0-4 houses, 5 hotel),
                mortgaged, rent_now (what landing would cost now; utilities: per dice pip)
    bank: houses, hotels, cash;  decks: {deck: cards left (count only)}
    auction: None | {item, space, token, reason, active, turn, high, high_bidder, min_bid, mode,
                     passed, bids, hours}   (open mode: turn is -1; everyone in ``active``
                     but the high bidder may bid; hours is the clock, 0 = none or round mode)
    shortage: None | {item, requester, claims [[seat, pos]], asked, supply}
    debts[{debtor, to_seats, each, total, reason}], fees[{seat, space}], claims[{owner, payer, space, amount}]
    offers[{offer, from_seat, to_seat, give, want}]
    opening: {rolling, rolls [[seat, total]]}
    result: None | {ranks, scores, winners}
    you (seat views only): {seat, draft: None | {to_seat, give, want},
                            table: {out, again, pending_move, auction_queue, shortage_queue, next_offer,
                                    auctions_opened}}
"""

from __future__ import annotations

from rules.core import JSON
from rules.monopoly import auction, data, deals, holdings
from rules.monopoly.engine import waiting_for
from rules.monopoly.state import MonopolyState
from rules.monopoly.tokens import space_token


def _rent_now(state: MonopolyState, pos: int) -> int:
    if state.owner[pos] is None or state.mortgaged[pos]:
        return 0
    return holdings.rent(state, pos, 1)


def view(state: MonopolyState, seat: int | None, result: dict[str, JSON] | None = None) -> dict[str, JSON]:
    seats: list[JSON] = [
        {
            "seat": s,
            "cash": state.cash[s],
            "position": state.position[s],
            "token": space_token(state.position[s]),
            "alive": state.alive[s],
            "pool": state.pool[s],
            "getout": [d for d, holder in state.getout.items() if holder == s],
            "net_worth": holdings.net_worth(state, s),
            "turns_taken": state.turns_taken[s],
        }
        for s in range(state.players)
    ]
    spaces: list[JSON] = [
        {
            "pos": pos,
            "token": space_token(pos),
            "name": space.name,
            "kind": space.kind,
            "group": space.group,
            "price": space.price,
            "owner": state.owner[pos],
            "level": state.level[pos],
            "mortgaged": state.mortgaged[pos],
            "rent_now": _rent_now(state, pos) if space.price else 0,
        }
        for pos, space in enumerate(data.BOARD)
    ]
    a = state.auction
    auction_view: JSON = None
    if a is not None:
        auction_view = {
            "item": a.item,
            "space": a.pos,
            "token": space_token(a.pos) if a.item == "property" else None,
            "reason": a.reason,
            "active": list(a.active),
            "turn": a.turn,
            "high": a.high,
            "high_bidder": a.high_bidder,
            "min_bid": auction.min_bid(a),
            "mode": a.mode,
            "passed": list(a.passed),
            "bids": a.bids,
            "hours": state.auction_hours if a.mode == data.OPEN else 0,
        }
    sh = state.shortage
    shortage_view: JSON = None
    if sh is not None:
        shortage_view = {
            "item": sh.item,
            "requester": sh.requester,
            "claims": [list(c) for c in sh.claims],
            "asked": list(sh.asked),
            "supply": sh.supply,
        }
    out: dict[str, JSON] = {
        "game": "monopoly",
        "players": state.players,
        "phase": state.phase,
        "last": None if state.last is None else dict(state.last),
        "turn": state.turn,
        "waiting_for": sorted(waiting_for(state)),
        "dice": list(state.dice),
        "doubles": state.doubles,
        "rent_mode": state.rent_mode,
        "turns_limit": state.turns_limit,
        "auction_mode": state.auction_mode,
        "auction_hours": state.auction_hours,
        "reason": state.reason,
        "seats": seats,
        "spaces": spaces,
        "bank": {"houses": state.houses, "hotels": state.hotels, "cash": state.bank},
        "decks": {deck: len(cards) for deck, cards in state.decks.items()},
        "auction": auction_view,
        "shortage": shortage_view,
        "debts": [
            {
                "debtor": d.debtor,
                "to_seats": list(d.creditors),
                "each": d.each,
                "total": d.total,
                "reason": d.reason,
            }
            for d in state.debts
        ],
        "fees": [{"seat": f.seat, "space": f.pos} for f in state.fees],
        "claims": [
            {"owner": c.owner, "payer": c.payer, "space": c.pos, "amount": c.amount} for c in state.claims
        ],
        "offers": [deals.offer_params(o) for o in state.offers],
        "opening": {"rolling": list(state.rolling), "rolls": [list(r) for r in state.opening_rolls]},
        "result": result,
    }
    if seat is not None and 0 <= seat < state.players:
        draft = state.drafts[seat]
        out["you"] = {
            "seat": seat,
            "draft": None if draft is None else deals.offer_params(draft),
            "table": _table(state),
        }
    return out


def _table(state: MonopolyState) -> dict[str, JSON]:
    """What a seated player remembers from watching the table and the board does not draw: the
    order players went bankrupt in, whether the last roll was a double still to be played
    again, the Pool Party move waiting for its fine, the bankrupt's property the bank will
    auction next, the claimed buildings still to be sold, the next offer's number and how many
    auctions were opened (the auction clock's mark).  All of it
    was announced publicly as it happened; a bot player's sampled states need it
    (``sample.sample_state``), and the renderer does not, so it stays out of the public view."""
    return {
        "out": list(state.out),
        "again": state.again,
        "pending_move": state.pending_move,
        "auction_queue": list(state.auction_queue),
        "shortage_queue": [list(entry) for entry in state.shortage_queue],
        "next_offer": state.next_offer,
        "auctions_opened": state.auctions_opened,
    }
