"""Turn flow of The Estates: stow, choose, once-around auction, settle, place.

A turn is a chain of small actions, each legal on its own, with the
intermediate choice kept in the state (``phase``, ``piece``, ``bids``...):

    choose  (auctioneer)  stow?, then pick.<piece>
    bid     (each other seat in turn, clockwise from the auctioneer's left)  bid.<n> | pass
    decide  (auctioneer, only if somebody bid)  sell | buy
    place   (whoever got the piece)  place / permit / mayor / cancel / discard

Action kinds (``Action.encode()`` form):

    stow                     put $1 million from hand into the cash box (own turn, before picking, once)
    pick.<piece>             auction a piece: a cube token ("blue5"), "roof", "permit1".."permit3",
                             "mayor" or "cancel"
    bid.<n>                  bid $n million; pass
    sell | buy               the auctioneer settles the auction
    place.<row>.<lot>        put the won floor cube or rooftop on row A/B/C, lot 1-10
    permit.<row>.<dir>       put the won permit in a row, dir "longer" or "shorter"
    mayor.<row>              put the Mayor in front of a row
    cancel.<permitN>         remove a placed permit with the Cancel cube
    discard                  remove a won permit, Mayor or Cancel cube from the game

Event kinds and params.  ``piece`` params are the piece description: ``piece``
(token), ``kind`` ("cube", "roof", "permit", "mayor", "cancel"), and for a cube
``colour`` + ``number``, for a rooftop or permit ``value``.  Rows are letters.
All events are public unless marked private.

    round_started     seat=first player; round, rounds
    turn_started      seat=auctioneer; round, turn
    stowed            PRIVATE to seat; amount, money, cash_box
    picked            seat=auctioneer; piece...
    bid               seat=bidder; piece..., amount
    passed            seat=bidder; piece...
    sold              seat=auctioneer; piece..., buyer, price      (buyer paid the auctioneer)
    bought            seat=auctioneer; piece..., bidder, price     (auctioneer paid the bidder)
    taken_free        seat=auctioneer; piece...                    (everybody passed)
    built             seat; piece..., row, lot, height
    certificate       seat; colour, company                        (first cube of a colour)
    roofed            seat; piece..., row, lot, building_value
    permit_placed     seat; piece..., row, direction, requirement, lot   (lot = where permits now sit)
    mayor_placed      seat; piece..., row
    permit_cancelled  seat; piece... (the Cancel cube), value, row, requirement
    discarded         seat; piece...
    row_completed     row
    row_reopened      row                                          (a permit lengthened a complete row)
    round_ended       round, reason ("rows" | "stalled"), buildings (points per seat), winners
    round_score       PRIVATE to seat; round, buildings, cash_box, score   (one per seat, each
                      visible_to={that seat}, with every round_ended: the private round summary)
    game_over         winners, ranks

A round ends right after the placement that completes a second row or leaves no building that
could still be completed (``board.stalled``); no ``turn_started`` follows it then.

Every public action records the move it made in ``state.last`` (``last_move``) for the board
image to highlight; a stow, being private, leaves it alone.

The auction lives here; placements are in ``placement``, the end of a turn,
a round and the match in ``rounds``, prebuilt actions in ``pieces``.

No public event carries a balance or a cash box: stows are private, and round
scores (which include the cash box) are told only to their owner until
``outcome`` settles the match.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core import Action, Event, IllegalAction
from rules.estates import board, data, placement
from rules.estates.pieces import (
    BIDS,
    BUY,
    CANCEL_PERMIT,
    DISCARD,
    MAYOR_AT,
    PASS,
    PERMIT_AT,
    PICK_CANCEL,
    PICK_CUBE,
    PICK_MAYOR,
    PICK_PERMIT,
    PICK_ROOF,
    PLACE_AT,
    SELL,
    STOW,
    Args,
    arity,
    high_bid,
    min_bid,
    number,
    piece_params,
    word,
)
from rules.estates.rounds import new_state, outcome, round_wins
from rules.estates.state import BID, CHOOSE, DECIDE, OVER, PLACE, EstatesState

__all__ = ["apply", "last_move", "legal_actions", "new_state", "outcome", "round_wins", "waiting_for"]

LAST_MOVE_KINDS = frozenset(
    {
        "picked",
        "bid",
        "passed",
        "sold",
        "bought",
        "taken_free",
        "built",
        "roofed",
        "permit_placed",
        "mayor_placed",
        "permit_cancelled",
        "discarded",
    }
)
"""Public events that are a player's move on the table, the ones the board image highlights."""


def waiting_for(state: EstatesState) -> frozenset[int]:
    phase = state.phase
    if phase in (CHOOSE, DECIDE):
        return frozenset((state.auctioneer,))
    if phase == BID and state.bidder is not None:
        return frozenset((state.bidder,))
    if phase == PLACE and state.winner is not None:
        return frozenset((state.winner,))
    return frozenset()


def legal_actions(state: EstatesState, seat: int) -> list[Action]:
    phase = state.phase
    if phase == CHOOSE:
        if seat != state.auctioneer:
            return []
        acts: list[Action] = []
        if not state.stowed and state.money[seat] >= data.STOW_AMOUNT:
            acts.append(STOW)
        acts.extend(PICK_CUBE[c] for c in board.selectable_cubes(state))
        if state.roofs_left and board.has_unroofed(state):
            acts.append(PICK_ROOF)
        acts.extend(PICK_PERMIT[v] for v in state.permits_unused)
        if state.mayor_available:
            acts.append(PICK_MAYOR)
        if state.cancel_available:
            acts.append(PICK_CANCEL)
        return acts
    if phase == BID:
        if seat != state.bidder:
            return []
        return [PASS, *BIDS[min_bid(state) : state.money[seat] + 1]]
    if phase == DECIDE:
        if seat != state.auctioneer:
            return []
        high = high_bid(state)
        assert high is not None
        return [SELL, BUY] if state.money[seat] >= high[1] else [SELL]
    if phase == PLACE:
        if seat != state.winner:
            return []
        return _placements(state)
    return []


def _placements(state: EstatesState) -> list[Action]:
    piece = state.piece
    assert piece is not None
    if piece in data.TOKEN_CUBE:
        return [PLACE_AT[r][lot] for r, lot in board.cube_spots(state, data.TOKEN_CUBE[piece])]
    if piece == data.ROOF:
        return [PLACE_AT[r][lot] for r, lot in board.unroofed(state)]
    acts: list[Action] = []
    if piece in data.TOKEN_PERMIT:
        value = data.TOKEN_PERMIT[piece]
        for r in range(len(state.rows)):
            for longer in (True, False):
                if board.permit_problem(state, r, value, longer) is None:
                    acts.append(PERMIT_AT[r][longer])
    elif piece == data.MAYOR:
        acts.extend(MAYOR_AT)
    elif piece == data.CANCEL:
        for row in state.rows:
            for signed in row.permits:
                if board.cancel_problem(state, abs(signed)) is None:
                    acts.append(CANCEL_PERMIT[abs(signed)])
    acts.append(DISCARD)
    return acts


def apply(state: EstatesState, seat: int, action: Action) -> list[Event]:
    if state.phase == OVER:
        raise IllegalAction("game_over")
    if not 0 <= seat < state.players:
        raise IllegalAction("not_seated")
    handler = _HANDLERS.get(action.kind)
    if handler is None:
        raise IllegalAction("malformed")
    events = handler(state, seat, action.args)
    # Only a public action moves the highlight: a stow must leave every public trace as it was.
    if any(event.public for event in events):
        state.last = last_move(events)
    return events


def last_move(events: list[Event]) -> dict[str, Any] | None:
    """What the board image highlights after one accepted action: its last move event.

    ``{kind, seat, piece, row, lot}`` (``None`` where it does not apply), built from public
    event params only.  "Nobody bid" outranks the last pass (the piece is now the auctioneer's);
    a placement outranks the certificate, row and turn notices that follow it.  A new round
    starts on a fresh board, so nothing is highlighted then.
    """
    if any(event.kind == "round_started" for event in events):
        return None
    for event in reversed(events):
        if event.public and event.kind in LAST_MOVE_KINDS:
            params = event.params
            return {
                "kind": event.kind,
                "seat": event.seat,
                "piece": params.get("piece"),
                "row": params.get("row"),
                "lot": params.get("lot"),
            }
    return None


def _stow(state: EstatesState, seat: int, args: Args) -> list[Event]:
    arity(args, 0)
    if state.phase != CHOOSE:
        raise IllegalAction("stow_not_now")
    if seat != state.auctioneer:
        raise IllegalAction("not_your_turn")
    if state.stowed:
        raise IllegalAction("already_stowed", amount=data.STOW_AMOUNT)
    if state.money[seat] < data.STOW_AMOUNT:
        raise IllegalAction("nothing_to_stow")
    state.money[seat] -= data.STOW_AMOUNT
    state.cash_box[seat] += data.STOW_AMOUNT
    state.stowed = True
    return [
        Event(
            "stowed",
            seat,
            {"amount": data.STOW_AMOUNT, "money": state.money[seat], "cash_box": state.cash_box[seat]},
            frozenset((seat,)),
        )
    ]


def _pick(state: EstatesState, seat: int, args: Args) -> list[Event]:
    arity(args, 1)
    token = word(args, 0)
    if state.phase != CHOOSE:
        raise IllegalAction("pick_not_now")
    if seat != state.auctioneer:
        raise IllegalAction("not_your_turn")
    if token in data.TOKEN_CUBE:
        cube = data.TOKEN_CUBE[token]
        if not any(cube in line for line in state.display):
            raise IllegalAction("cube_not_in_display", piece=token)
        if not any(line[0] == cube or line[-1] == cube for line in state.display if line):
            raise IllegalAction("cube_not_at_end", piece=token)
        if not board.cube_has_spot(state, cube):
            raise IllegalAction("cube_has_no_place", piece=token)
    elif token == data.ROOF:
        if not state.roofs_left:
            raise IllegalAction("no_rooftops")
        if not board.has_unroofed(state):
            raise IllegalAction("nothing_to_roof")
    elif token in data.TOKEN_PERMIT:
        if data.TOKEN_PERMIT[token] not in state.permits_unused:
            raise IllegalAction("permit_gone", value=data.TOKEN_PERMIT[token])
    elif token == data.MAYOR:
        if not state.mayor_available:
            raise IllegalAction("mayor_gone")
    elif token == data.CANCEL:
        if not state.cancel_available:
            raise IllegalAction("cancel_gone")
    else:
        raise IllegalAction("no_such_piece")
    # Validated: now change the state.
    if token == data.ROOF:
        state.roof_value = state.roofs_left.pop(state.rng.below(len(state.roofs_left)))
    elif token in data.TOKEN_PERMIT:
        state.permits_unused.remove(data.TOKEN_PERMIT[token])
    elif token == data.MAYOR:
        state.mayor_available = False
    elif token == data.CANCEL:
        state.cancel_available = False
    state.piece = token
    state.bids = []
    state.bidder = (seat + 1) % state.players
    state.phase = BID
    return [Event("picked", seat, piece_params(state, token))]


def _bidding_seat(state: EstatesState, seat: int) -> str:
    if state.phase != BID:
        raise IllegalAction("no_auction")
    if seat != state.bidder:
        raise IllegalAction("not_your_bid")
    assert state.piece is not None
    return state.piece


def _bid(state: EstatesState, seat: int, args: Args) -> list[Event]:
    arity(args, 1)
    amount = number(args, 0)
    piece = _bidding_seat(state, seat)
    high = high_bid(state)
    if high is None and amount < data.MIN_FIRST_BID:
        raise IllegalAction("first_bid_too_low", minimum=data.MIN_FIRST_BID)
    if high is not None and amount <= high[1]:
        raise IllegalAction("bid_too_low", high=high[1])
    if amount > state.money[seat]:
        raise IllegalAction("bid_too_high", money=state.money[seat])
    state.bids.append((seat, amount))
    events = [Event("bid", seat, {**piece_params(state, piece), "amount": amount})]
    _next_bidder(state, events)
    return events


def _pass(state: EstatesState, seat: int, args: Args) -> list[Event]:
    arity(args, 0)
    piece = _bidding_seat(state, seat)
    state.bids.append((seat, None))
    events = [Event("passed", seat, piece_params(state, piece))]
    _next_bidder(state, events)
    return events


def _next_bidder(state: EstatesState, events: list[Event]) -> None:
    assert state.bidder is not None and state.piece is not None
    nxt = (state.bidder + 1) % state.players
    if nxt != state.auctioneer:
        state.bidder = nxt
        return
    state.bidder = None
    if high_bid(state) is None:
        state.winner = state.auctioneer
        state.phase = PLACE
        events.append(Event("taken_free", state.auctioneer, piece_params(state, state.piece)))
    else:
        state.phase = DECIDE


def _settle(state: EstatesState, seat: int, args: Args, buy: bool) -> list[Event]:
    arity(args, 0)
    if state.phase != DECIDE:
        raise IllegalAction("nothing_to_settle")
    if seat != state.auctioneer:
        raise IllegalAction("not_auctioneer")
    high = high_bid(state)
    assert high is not None and state.piece is not None
    bidder, price = high
    if buy and state.money[seat] < price:
        raise IllegalAction("cannot_pay", money=state.money[seat], price=price)
    params = piece_params(state, state.piece)
    if buy:
        state.money[seat] -= price
        state.money[bidder] += price
        state.winner = seat
        event = Event("bought", seat, {**params, "bidder": bidder, "price": price})
    else:
        state.money[bidder] -= price
        state.money[seat] += price
        state.winner = bidder
        event = Event("sold", seat, {**params, "buyer": bidder, "price": price})
    state.phase = PLACE
    return [event]


def _sell(state: EstatesState, seat: int, args: Args) -> list[Event]:
    return _settle(state, seat, args, buy=False)


def _buy(state: EstatesState, seat: int, args: Args) -> list[Event]:
    return _settle(state, seat, args, buy=True)


_Handler = Callable[[EstatesState, int, Args], list[Event]]
_HANDLERS: dict[str, _Handler] = {
    "stow": _stow,
    "pick": _pick,
    "bid": _bid,
    "pass": _pass,
    "sell": _sell,
    "buy": _buy,
    "place": placement.place,
    "permit": placement.permit,
    "mayor": placement.mayor,
    "cancel": placement.cancel,
    "discard": placement.discard,
}
