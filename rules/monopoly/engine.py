"""Monopoly California Dreaming: the catalogue of actions and events, and where every action enters.

Positions are board spaces 0..39 (``tokens.space_token`` names them); decks are "chance" and
"tipjar".  A turn is a chain of small actions with the pending choice kept in the state:

    opening  every seat rolls (``roll``); tied highest reroll among themselves (chosen)
    roll     the player on turn: ``roll``; at the Pool Party also ``fine`` or ``card.<deck>``
    buy      the player on turn landed on an unowned property: ``buy`` | ``decline`` (auction)
    end      the move is resolved: ``end`` (or ``roll`` again after doubles, phase ``roll``)

Overlays suspend the turn, most urgent first (``waiting_for`` in each):

    auction    open (the default): every bidder still in but the high bidder; round: the
               bidder whose turn it is (``auction.py``)
    shortage   every seat still asked "claim one too?" (``shortage.py``)
    debts      every debtor (``debt.py``); the turn resumes when all are paid
    fees       every receiver of a mortgaged property still choosing keep/lift (``deals.py``)
    otherwise  the opening rollers, or the player on turn

and, at any moment outside an auction or a shortage window, also the recipient of every open
offer and (``rent=ask``) the owner of every rent claim.

Action kinds (``Action.encode()`` form; every one well under 30 characters):

    roll                  roll the dice (opening roll, turn roll, or a Pool Party try)
    buy | decline         buy the property landed on at list price | send it to auction
    end                   end the turn (only when nothing is owed and the move is done)
    fine                  Pool Party: pay $50 before rolling
    card.<deck>           Pool Party: use a held get-out card ("chance" | "tipjar")
    bid.<n> | pass        auction: bid $n (whole dollars, up to one's cash) | pass for good
                          (open: any seat still in but the high bidder, in any order)
    claim.<pos> | noclaim shortage window: claim a building for site pos | decline
    bankrupt              a debtor who cannot raise what they owe leaves the game
    keep.<pos> | lift.<pos>  received mortgaged pos: pay the 10% now | repay the mortgage in full
    rent.<pos>            rent=ask: the owner collects the rent claimed for a landing on pos
  any time (any seated player, on anybody's turn, at the Pool Party too):
    build.<pos>           buy the next house (or hotel on four houses) for site pos
    sell.<pos>            sell a building of pos back at half price (a hotel -> four houses)
    mort.<pos> | unmort.<pos>  mortgage pos | repay its mortgage (+10%, rounded up)
    deal.<seat>           start a private draft of a deal with seat (replaces one's draft)
    give.<pos> | want.<pos>   toggle one's / the recipient's property in the draft
    givec.<deck> | wantc.<deck>  toggle a get-out card
    cash.<n> | ask.<n>    cash one gives | asks for in the draft
    send | drop           send the draft as a public offer | throw it away
    accept.<n> | reject.<n> | counter.<n>  the recipient answers offer n (counter: draft back)
    withdraw.<n>          the proposer takes offer n back

Which any-time actions stay open (chosen, components §3): none during an auction or a shortage
window (only ``bid``/``pass`` and ``claim``/``noclaim``); during a debt selling, mortgaging,
drafting, sending and answering deals stay open to everyone (the debtor raises money, others
may buy from them), building and repaying wait; before the opening rolls are done, none.

``legal_actions`` lists every action exactly, except amounts: bids are listed as raises of
``data.BID_STEPS`` over the high bid plus all in (open auctions: every bidder's whole cash, so
bidders are offered the same amounts up to their own cash), deal cash as ``data.CASH_STEPS``
plus the payer's whole cash (chosen (engine): lists of thousands of amounts would drown every other
choice); any whole amount in range applies.

Event kinds and params (public unless marked; ``space`` is a position, ``token`` its name):

    opening_roll     seat; dice [a, b], total
    opening_tie      seats (reroll among them)
    turn_started     seat; turn (that seat's turn number)
    rolled           seat; dice [a, b], total, doubles (bool)
    moved            seat; from, to, token, passed_go (bool), how ("dice" | "card")
    salary           seat; amount
    bought           seat; space, token, price
    auction_started  item ("property"|"house"|"hotel"), reason ("declined"|"bankrupt"|"shortage"),
                     bidders, mode ("open"|"round"), [hours (open: the auction clock, 0 = none)],
                     [space, token]
    bid              seat; amount, [outbid (the seat that held the high bid, if any)]
    passed           seat
    auction_won      seat; item, price, [space, token]
    auction_unsold   item, price (0), [space, token]
    rent_due         seat=payer; owner_seat, space, token, amount
    rent_claimable   seat=payer; owner_seat, space, token, amount     (rent=ask)
    rent_forfeited   seat=payer; owner_seat, space, token, amount     (rent=ask, window closed)
    rent_collected   seat=payer; owner_seat, space, token, amount     (rent=ask: the owner asked)
    paid             seat; amount, to_seats ([-1] = the bank), reason
    in_debt          seat; owed, cash, to_seats, reason
    tax              seat; space, token, amount
    card_drawn       seat; deck, card (token), kind
    utility_roll     seat; dice, total
    sent_to_pool     seat; why ("space" | "card" | "doubles")
    pool_try         seat; dice, doubles (bool), tries
    left_pool        seat; how ("fine" | "card" | "doubles" | "third_try")
    collected        seat; amount, reason ("card")
    built            seat; space, token, item, price, level
    sold_building    seat; space, token, item, refund, level, sold (buildings removed: 1, more
                     when a hotel was sold with fewer than four houses in the bank), and when
                     sold > 1: spaces, levels (the group's sites and their levels after)
    mortgaged        seat; space, token, value
    repaid           seat; space, token, cost
    interest         seat; space, token, amount     (kept mortgaged: 10% paid or owed)
    shortage         seat=requester; item, supply, space, asked
    claimed          seat; item, space
    declined_claim   seat; item
    shortage_closed  item
    bankrupt         seat; to_seats, cash, spaces, tokens, cards
    draft_started    PRIVATE; to_seat
    draft_changed    PRIVATE; offer (0), from_seat, to_seat, give, want
    draft_dropped    PRIVATE
    offered          seat; offer, from_seat, to_seat, give {spaces, tokens, cards, cash}, want {...}
    accepted         seat; offer, from_seat, to_seat, give, want
    rejected | countered | withdrawn   seat; offer, from_seat, to_seat
    lapsed           offer, from_seat, to_seat, reason ("changed"|"cash_short"|"bankrupt"|"game_over")
    game_over        reason ("bankruptcy"|"turns"|"rounds"), winners

Deck order never appears in an event or the public view; a drawn card is public once drawn.

This module sets the game up, says who acts and what is legal, gates and dispatches every
action and runs what waited on a debt.  The rest of the flow: ``turn.py`` (the phases above:
rolling, moving, landing, the Pool Party, buying, ending), ``cards.py`` (Chance and Tip Jar),
``rent.py`` (rent and ``rent=ask`` claims), ``overlays.py`` (bids, bankruptcy, keep/lift),
``holdings.py``, ``deals.py`` and ``shortage.py`` (the any-time actions), ``arguments.py``
(malformed actions) and ``fingerprint.py`` (what an any-time action means, for its button).
``moves.py`` holds the listed actions, built once (``legal_actions`` runs for every seat at
nearly every step of random play and bot playouts, so it reads holdings through
``holdings.index`` and builds no refusal to decide what to list).  Bot players: ``sample.py``
(a state a seat could be in, from its view) and ``heuristics.py`` (their hints).
"""

from __future__ import annotations

from collections.abc import Callable

from rules.core import Action, Event, IllegalAction
from rules.monopoly import (
    arguments,
    auction,
    data,
    deals,
    debt,
    holdings,
    moves,
    overlays,
    rent,
    shortage,
    turn,
)
from rules.monopoly.state import OPENING, OVER, MonopolyState
from rules.rng import Rng

TURN_KINDS = frozenset({"roll", "buy", "decline", "end", "fine", "card"})
DRAFT_KINDS = frozenset({"deal", "give", "want", "givec", "wantc", "cash", "ask", "send", "drop"})
ANYTIME_KINDS = frozenset({"build", "sell", "mort", "unmort"}) | DRAFT_KINDS
ANSWER_KINDS = frozenset({"accept", "reject", "counter", "withdraw"})


def new_state(
    players: int,
    turns: int,
    rent_mode: str,
    seed: int,
    auction_mode: str = data.DEFAULT_AUCTION_MODE,
    auction_hours: int = data.DEFAULT_AUCTION_HOURS,
) -> MonopolyState:
    rng = Rng(seed)
    decks: dict[str, list[int]] = {}
    for deck in data.DECKS:
        order = list(range(data.DECK_SIZE))
        rng.shuffle(order)
        decks[deck] = order
    return MonopolyState(
        players=players,
        turns_limit=turns,
        rent_mode=rent_mode,
        rng=rng,
        cash=[data.START_CASH] * players,
        bank=data.MONEY_IN_BOX - data.START_CASH * players,
        decks=decks,
        position=[0] * players,
        alive=[True] * players,
        pool=[None] * players,
        getout={deck: None for deck in data.DECKS},
        rolling=list(range(players)),
        drafts=[None] * players,
        turns_taken=[0] * players,
        auction_mode=auction_mode,
        auction_hours=auction_hours,
    )


# --- who acts --------------------------------------------------------------------------------


_ALONE: tuple[frozenset[int], ...] = tuple(frozenset({seat}) for seat in range(data.MAX_PLAYERS))
"""One seat waited for, the common case (the seat on turn, a bidder): built once, not per call."""


def waiting_for(state: MonopolyState) -> frozenset[int]:
    if state.phase == OVER:
        return frozenset()
    if state.auction is not None:
        if state.auction.mode == data.ROUND:
            return _ALONE[state.auction.turn]
        return auction.bidding(state.auction)
    if state.shortage is not None:
        return frozenset(state.shortage.asked)
    if not (state.debts or state.fees or state.offers or state.claims):
        return frozenset(state.rolling) if state.phase == OPENING else _ALONE[state.turn]
    waiting = {d.debtor for d in state.debts} | {f.seat for f in state.fees}
    if not waiting:
        waiting = set(state.rolling) if state.phase == OPENING else {state.turn}
    waiting |= {o.recipient for o in state.offers}
    waiting |= {c.owner for c in state.claims}
    return frozenset(waiting)


def legal_actions(state: MonopolyState, seat: int) -> list[Action]:
    """Overlay actions, then turn actions, answers and claims, then any-time actions.

    Each part is skipped outright when the state has nothing of its kind (no debt, fee, offer
    or claim): this runs for every seat at nearly every step of random play and of a bot's
    playouts."""
    if state.phase == OVER or not 0 <= seat < state.players or not state.alive[seat]:
        return []
    if state.auction is not None:
        if not auction.may_bid(state.auction, seat):
            return []
        return [moves.numbered("bid", n) for n in auction.listed_bids(state, seat)] + [moves.PASS]
    if state.shortage is not None:
        return shortage.claim_actions(state, seat)
    acts: list[Action] = []
    if state.debts and debt.bankrupt_problem(state, seat) is None:
        acts.append(moves.BANKRUPT)
    if state.fees:
        acts += deals.fee_actions(state, seat)
    elif not state.debts:
        acts += turn.actions(state, seat)
    for offer in state.offers:
        if offer.recipient == seat:
            number = offer.number
            acts += [moves.numbered(kind, number) for kind in ("accept", "reject", "counter")]
        if offer.proposer == seat:
            acts.append(moves.numbered("withdraw", offer.number))
    if state.claims:
        acts += [moves.at("rent", c.pos) for c in state.claims if c.owner == seat]
    if state.phase == OPENING:
        return acts
    memo = holdings.index(state)
    acts += holdings.holding_actions(state, memo, seat, calm=not state.debts)
    acts += deals.draft_actions(state, memo, seat)
    return acts


# --- applying --------------------------------------------------------------------------------


def apply(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    """Validate completely, then change the state; ``IllegalAction`` leaves it untouched."""
    if not 0 <= seat < state.players:
        raise IllegalAction("no_such_seat")
    handler = _HANDLERS.get(action.kind)
    if handler is None:
        raise IllegalAction("malformed")
    if state.phase == OVER:
        raise IllegalAction("game_over")
    if not state.alive[seat]:
        raise IllegalAction("out_of_game")
    _gate(state, seat, action.kind)
    events = handler(state, seat, action) + _after_action(state)
    _remember_last(state, events)
    return events


def _remember_last(state: MonopolyState, events: list[Event]) -> None:
    """The board marks the last public event that concerns a space (a move, a purchase, a rent,
    a house); bookkeeping (a turn starting) and private drafts leave the mark where it was."""
    for event in reversed(events):
        if event.visible_to is not None:
            continue
        where = event.params.get("space", event.params.get("to"))
        if isinstance(where, int) and not isinstance(where, bool):
            state.last = {"kind": event.kind, "seat": event.seat, "space": where}
            return


def _gate(state: MonopolyState, seat: int, kind: str) -> None:
    """Refuse whatever the open overlays close (see the module docstring)."""
    if state.auction is not None and kind not in ("bid", "pass"):
        raise auction.must_finish(state.auction)
    if state.auction is None and state.shortage is not None and kind not in ("claim", "noclaim"):
        raise IllegalAction("shortage_open")
    if state.phase == OPENING and (kind in ANYTIME_KINDS or kind in ANSWER_KINDS):
        raise IllegalAction("not_started")
    if kind in TURN_KINDS and state.phase != OPENING:
        if state.debts:
            mine = debt.owed(state, seat)
            if mine:
                raise IllegalAction("owe_first", owed=mine)
            raise IllegalAction("debt_first")
        if state.fees:
            raise IllegalAction("fee_first")
    if kind in ("build", "unmort") and state.debts:
        raise IllegalAction("debt_blocks_building")


def _after_action(state: MonopolyState) -> list[Event]:
    """Pay debts that can now be paid, run what waited for them, open queued auctions, lapse offers."""
    if not (state.debts or state.pending_move is not None or state.auction_queue or state.offers):
        return []  # nothing waits (the common case): the loop below would find no step
    events: list[Event] = []
    while True:
        step = debt.settle(state)
        if (
            state.pending_move is not None
            and not state.debts
            and state.auction is None
            and state.alive[state.turn]
        ):
            steps, state.pending_move = state.pending_move, None
            step += turn.move_by(state, state.turn, steps)
        if state.auction is None and state.shortage is None and state.auction_queue and state.phase != OVER:
            pos = state.auction_queue.pop(0)
            bidders = auction.bidders_from(state, (state.out[-1] + 1) % state.players)
            step += auction.open_auction(state, "property", pos, bidders, "bankrupt")
        step += deals.lapse_changed(state)
        if not step:
            return events
        events += step


# --- dispatch --------------------------------------------------------------------------------


def _build(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    return shortage.request(state, seat, arguments.int_arg(action))


def _checked(
    problem: Callable[[MonopolyState, int, int], IllegalAction | None],
    do: Callable[[MonopolyState, int, int], Event],
) -> Callable[[MonopolyState, int, Action], list[Event]]:
    def handler(state: MonopolyState, seat: int, action: Action) -> list[Event]:
        pos = arguments.int_arg(action)
        why = problem(state, seat, pos)
        if why is not None:
            raise why
        return [do(state, seat, pos)]

    return handler


def _draft(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    if action.kind == "send":
        arguments.no_args(action)
        return deals.send(state, seat)
    return deals.draft_step(state, seat, action)


Handler = Callable[[MonopolyState, int, Action], list[Event]]
_HANDLERS: dict[str, Handler] = {
    "roll": turn.roll,
    "buy": turn.buy,
    "decline": turn.decline,
    "end": turn.end,
    "fine": turn.fine,
    "card": turn.use_card,
    "bid": overlays.bid,
    "pass": overlays.pass_,
    "claim": shortage.answer,
    "noclaim": shortage.answer,
    "bankrupt": overlays.bankrupt,
    "keep": overlays.fee,
    "lift": overlays.fee,
    "rent": rent.collect,
    "build": _build,
    "sell": _checked(holdings.sell_problem, holdings.do_sell),
    "mort": _checked(holdings.mortgage_problem, holdings.do_mortgage),
    "unmort": _checked(holdings.repay_problem, holdings.do_repay),
    **{kind: _draft for kind in DRAFT_KINDS},
    **{kind: deals.answer for kind in ANSWER_KINDS},
}
