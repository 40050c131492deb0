"""Turn flow of Monopoly California Dreaming, and the catalogue of actions and events.

Positions are board spaces 0..39 (``tokens.space_token`` names them); decks are "chance" and
"tipjar".  A turn is a chain of small actions with the pending choice kept in the state:

    opening  every seat rolls (``roll``); tied highest reroll among themselves (chosen)
    roll     the player on turn: ``roll``; at the Pool Party also ``fine`` or ``card.<deck>``
    buy      the player on turn landed on an unowned property: ``buy`` | ``decline`` (auction)
    end      the move is resolved: ``end`` (or ``roll`` again after doubles, phase ``roll``)

Overlays suspend the turn, most urgent first (``waiting_for`` in each):

    auction    the bidder whose turn it is (round-robin; ``auction.py``)
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
``data.BID_STEPS`` over the high bid plus all in, deal cash as ``data.CASH_STEPS`` plus the
payer's whole cash (chosen (engine): lists of thousands of amounts would drown every other
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
                     bidders, [space, token]
    bid              seat; amount
    passed           seat
    auction_won      seat; item, price, [space, token]
    auction_unsold   item, price (0), [space, token]
    rent_due         seat=payer; owner_seat, space, token, amount
    rent_claimable   seat=payer; owner_seat, space, token, amount     (rent=ask)
    rent_forfeited   seat=payer; owner_seat, space, token, amount     (rent=ask, window closed)
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
    sold_building    seat; space, token, item, refund, level
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
"""

from __future__ import annotations

from collections.abc import Callable

from rules.core import Action, Event, IllegalAction
from rules.monopoly import auction, data, deals, debt, holdings, shortage
from rules.monopoly.state import BUY, END, OPENING, OVER, ROLL, Claim, MonopolyState
from rules.monopoly.tokens import card_token, space_name, space_token
from rules.rng import Rng

MALFORMED = "That is not a valid move in Monopoly."
TURN_KINDS = frozenset({"roll", "buy", "decline", "end", "fine", "card"})
ANYTIME_KINDS = frozenset(
    {
        "build",
        "sell",
        "mort",
        "unmort",
        "deal",
        "give",
        "want",
        "givec",
        "wantc",
        "cash",
        "ask",
        "send",
        "drop",
    }
)
ANSWER_KINDS = frozenset({"accept", "reject", "counter", "withdraw"})
B = data.BOARD


def new_state(players: int, turns: int, rent_mode: str, seed: int) -> MonopolyState:
    from rules.monopoly.state import MonopolyState as _State

    rng = Rng(seed)
    decks: dict[str, list[int]] = {}
    for deck in data.DECKS:
        order = list(range(data.DECK_SIZE))
        rng.shuffle(order)
        decks[deck] = order
    return _State(
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
    )


# --- who acts --------------------------------------------------------------------------------


def waiting_for(state: MonopolyState) -> frozenset[int]:
    if state.phase == OVER:
        return frozenset()
    if state.auction is not None:
        return frozenset({state.auction.turn})
    if state.shortage is not None:
        return frozenset(state.shortage.asked)
    waiting = {d.debtor for d in state.debts} | {f.seat for f in state.fees}
    if not waiting:
        waiting = set(state.rolling) if state.phase == OPENING else {state.turn}
    waiting |= {o.recipient for o in state.offers}
    waiting |= {c.owner for c in state.claims}
    return frozenset(waiting)


def legal_actions(state: MonopolyState, seat: int) -> list[Action]:
    """Overlay actions, then turn actions, answers and claims, then any-time actions."""
    if state.phase == OVER or not 0 <= seat < state.players or not state.alive[seat]:
        return []
    if state.auction is not None:
        if state.auction.turn != seat:
            return []
        return [Action("bid", (n,)) for n in auction.listed_bids(state, seat)] + [Action("pass")]
    if state.shortage is not None:
        return shortage.claim_actions(state, seat)
    acts: list[Action] = []
    if debt.bankrupt_problem(state, seat) is None:
        acts.append(Action("bankrupt"))
    acts += deals.fee_actions(state, seat)
    if not state.debts and not state.fees:
        acts += _turn_actions(state, seat)
    for offer in state.offers:
        if offer.recipient == seat:
            acts += [Action(kind, (offer.number,)) for kind in ("accept", "reject", "counter")]
        if offer.proposer == seat:
            acts.append(Action("withdraw", (offer.number,)))
    acts += [Action("rent", (c.pos,)) for c in state.claims if c.owner == seat]
    if state.phase == OPENING:
        return acts
    calm = not state.debts
    for pos in holdings.properties_of(state, seat):
        if calm and shortage.build_problem(state, seat, pos) is None:
            acts.append(Action("build", (pos,)))
        if holdings.sell_problem(state, seat, pos) is None:
            acts.append(Action("sell", (pos,)))
        if holdings.mortgage_problem(state, seat, pos) is None:
            acts.append(Action("mort", (pos,)))
        if calm and holdings.repay_problem(state, seat, pos) is None:
            acts.append(Action("unmort", (pos,)))
    acts += deals.draft_actions(state, seat)
    return acts


def _turn_actions(state: MonopolyState, seat: int) -> list[Action]:
    if state.phase == OPENING:
        return [Action("roll")] if seat in state.rolling else []
    if seat != state.turn or state.pending_move is not None:
        return []
    if state.phase == ROLL:
        acts = [Action("roll")]
        if state.pool[seat] is not None:
            if state.cash[seat] >= data.POOL_FINE:
                acts.append(Action("fine"))
            acts += [Action("card", (d,)) for d, holder in state.getout.items() if holder == seat]
        return acts
    if state.phase == BUY:
        pos = state.position[seat]
        return ([Action("buy")] if state.cash[seat] >= B[pos].price else []) + [Action("decline")]
    return [Action("end")]


# --- applying --------------------------------------------------------------------------------


def apply(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    """Validate completely, then change the state; ``IllegalAction`` leaves it untouched."""
    if not 0 <= seat < state.players:
        raise IllegalAction("There is no such seat at this table.")
    handler = _HANDLERS.get(action.kind)
    if handler is None:
        raise IllegalAction(MALFORMED)
    if state.phase == OVER:
        raise IllegalAction("The game is over.")
    if not state.alive[seat]:
        raise IllegalAction("You are out of the game.")
    _gate(state, seat, action.kind)
    events = handler(state, seat, action) + _after_action(state)
    _remember_last(state, events)
    return events


def _remember_last(state: MonopolyState, events: list[Event]) -> None:
    """The board marks the last public event that concerns a space (a move, a purchase, a rent,
    a house); bookkeeping (a turn starting) and private drafts leave the mark where it was."""
    for event in reversed(events):
        where = event.params.get("space", event.params.get("to"))
        if event.visible_to is None and isinstance(where, int) and not isinstance(where, bool):
            state.last = {"kind": event.kind, "seat": event.seat, "space": where}
            return


def _gate(state: MonopolyState, seat: int, kind: str) -> None:
    """Refuse whatever the open overlays close (see the module docstring)."""
    if state.auction is not None and kind not in ("bid", "pass"):
        raise IllegalAction(f"The auction for {auction.describe(state.auction)} must finish first.")
    if state.auction is None and state.shortage is not None and kind not in ("claim", "noclaim"):
        raise IllegalAction("A building shortage claim is open; wait until it closes.")
    if state.phase == OPENING and (kind in ANYTIME_KINDS or kind in ANSWER_KINDS):
        raise IllegalAction("The game starts once everyone has rolled for the first turn.")
    if kind in TURN_KINDS and state.phase != OPENING:
        if state.debts:
            mine = debt.owed(state, seat)
            if mine:
                raise IllegalAction(
                    f"You owe ${mine}: raise it by selling, mortgaging or a deal, or declare bankruptcy."
                )
            raise IllegalAction("A debt must be paid before the game goes on.")
        if state.fees:
            raise IllegalAction("The interest on a mortgaged property received must be settled first.")
    if kind in ("build", "unmort") and state.debts:
        raise IllegalAction("Nothing can be built or repaid while a debt is unpaid.")


def _after_action(state: MonopolyState) -> list[Event]:
    """Pay debts that can now be paid, run what waited for them, open queued auctions, lapse offers."""
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
            step += _move_by(state, state.turn, steps)
        if state.auction is None and state.shortage is None and state.auction_queue and state.phase != OVER:
            pos = state.auction_queue.pop(0)
            bidders = auction.bidders_from(state, (state.out[-1] + 1) % state.players)
            step += auction.open_auction(state, "property", pos, bidders, "bankrupt")
        step += deals.lapse_changed(state)
        if not step:
            return events
        events += step


# --- turn actions ----------------------------------------------------------------------------


def _dice(state: MonopolyState) -> list[int]:
    return [state.rng.below(6) + 1, state.rng.below(6) + 1]


def _roll(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    if action.args:
        raise IllegalAction(MALFORMED)
    if state.phase == OPENING:
        if seat not in state.rolling:
            raise IllegalAction("You have already rolled for the start.")
        return _opening_roll(state, seat)
    _own_turn(state, seat)
    if state.phase == BUY:
        raise IllegalAction(f"Buy {space_name(state.position[seat])} or decline it first.")
    if state.phase == END:
        raise IllegalAction("Your move is done; press End turn.")
    if state.pending_move is not None:
        raise IllegalAction("Your move out of the Pool Party is still to come.")
    dice = _dice(state)
    total, doubles = sum(dice), dice[0] == dice[1]
    events = _forfeit_claims(state, seat)
    if state.pool[seat] is not None:
        return events + _pool_try(state, seat, dice)
    events.append(Event("rolled", seat, {"dice": dice, "total": total, "doubles": doubles}))
    state.dice = dice
    if doubles:
        state.doubles += 1
        if state.doubles >= data.DOUBLES_LIMIT:
            return events + _send_to_pool(state, seat, "doubles")
    state.again = doubles
    return events + _move_by(state, seat, total)


def _own_turn(state: MonopolyState, seat: int) -> None:
    if seat != state.turn:
        raise IllegalAction("It is not your turn.")


def _opening_roll(state: MonopolyState, seat: int) -> list[Event]:
    dice = _dice(state)
    state.rolling.remove(seat)
    state.opening_rolls.append([seat, sum(dice)])
    events = [Event("opening_roll", seat, {"dice": dice, "total": sum(dice)})]
    if state.rolling:
        return events
    best = max(total for _s, total in state.opening_rolls)
    top = sorted(s for s, total in state.opening_rolls if total == best)
    state.opening_rolls = []
    if len(top) > 1:
        state.rolling = top
        return [*events, Event("opening_tie", None, {"seats": top})]
    state.turn = top[0]
    state.phase = ROLL
    return [*events, Event("turn_started", top[0], {"turn": 1})]


def _forfeit_claims(state: MonopolyState, seat: int) -> list[Event]:
    """rent=ask: a roll by anyone but the lander closes the lander's rent window (rulebook)."""
    events = []
    for claim in list(state.claims):
        if claim.payer != seat:
            state.claims.remove(claim)
            events.append(Event("rent_forfeited", claim.payer, _claim_params(claim)))
    return events


def _claim_params(claim: Claim) -> dict[str, object]:
    return {
        "owner_seat": claim.owner,
        "space": claim.pos,
        "token": space_token(claim.pos),
        "amount": claim.amount,
    }


def _pool_try(state: MonopolyState, seat: int, dice: list[int]) -> list[Event]:
    tries = (state.pool[seat] or 0) + 1
    doubles = dice[0] == dice[1]
    state.dice = dice
    events = [Event("pool_try", seat, {"dice": dice, "doubles": doubles, "tries": tries})]
    state.again = doubles and data.POOL_DOUBLES_ROLL_AGAIN
    if doubles:
        state.pool[seat] = None
        events.append(Event("left_pool", seat, {"how": "doubles"}))
        return events + _move_by(state, seat, sum(dice))
    if tries < data.POOL_TRIES:
        state.pool[seat] = tries
        state.phase = END
        return events
    state.pool[seat] = None
    events.append(Event("left_pool", seat, {"how": "third_try"}))
    events += debt.charge(state, seat, [], data.POOL_FINE, "pool")
    if any(d.debtor == seat for d in state.debts):
        state.pending_move = sum(dice)
        return events
    return events + _move_by(state, seat, sum(dice))


def _fine(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    if action.args:
        raise IllegalAction(MALFORMED)
    _pool_turn_start(state, seat)
    if state.cash[seat] < data.POOL_FINE:
        raise IllegalAction(f"Leaving the Pool Party costs ${data.POOL_FINE}; you have ${state.cash[seat]}.")
    holdings.to_bank(state, seat, data.POOL_FINE)
    state.pool[seat] = None
    return [
        Event("paid", seat, {"amount": data.POOL_FINE, "to_seats": [-1], "reason": "pool"}),
        Event("left_pool", seat, {"how": "fine"}),
    ]


def _pool_turn_start(state: MonopolyState, seat: int) -> None:
    _own_turn(state, seat)
    if state.pool[seat] is None:
        raise IllegalAction("You are not at the Pool Party.")
    if state.phase != ROLL:
        raise IllegalAction("You can only leave the Pool Party this way before rolling.")


def _card(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    if len(action.args) != 1 or action.args[0] not in data.DECKS:
        raise IllegalAction(MALFORMED)
    deck = str(action.args[0])
    _pool_turn_start(state, seat)
    if state.getout[deck] != seat:
        raise IllegalAction("You do not hold that get-out card.")
    state.getout[deck] = None
    state.decks[deck].append(data.GETOUT_CARD[deck])
    state.pool[seat] = None
    return [Event("left_pool", seat, {"how": "card", "deck": deck})]


def _buy(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    if action.args:
        raise IllegalAction(MALFORMED)
    pos = _buying(state, seat)
    price = B[pos].price
    if state.cash[seat] < price:
        raise IllegalAction(f"{space_name(pos)} costs ${price}; you have ${state.cash[seat]}.")
    holdings.to_bank(state, seat, price)
    state.owner[pos] = seat
    state.phase = ROLL if state.again else END
    return [Event("bought", seat, {"space": pos, "token": space_token(pos), "price": price})]


def _buying(state: MonopolyState, seat: int) -> int:
    _own_turn(state, seat)
    if state.phase != BUY:
        raise IllegalAction("There is no property to buy now.")
    return state.position[seat]


def _decline(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    if action.args:
        raise IllegalAction(MALFORMED)
    pos = _buying(state, seat)
    state.phase = ROLL if state.again else END
    bidders = auction.bidders_from(state, (seat + 1) % state.players)
    return auction.open_auction(state, "property", pos, bidders, "declined")


def _end(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    if action.args:
        raise IllegalAction(MALFORMED)
    _own_turn(state, seat)
    if state.phase == ROLL:
        raise IllegalAction("Roll first: you rolled doubles." if state.again else "Roll first.")
    if state.phase == BUY:
        raise IllegalAction(f"Buy {space_name(state.position[seat])} or decline it first.")
    state.turns_taken[seat] += 1
    alive = [s for s in range(state.players) if state.alive[s]]
    done = min(state.turns_taken[s] for s in alive)
    if state.turns_limit and done >= state.turns_limit:
        return _finish(state, "turns")
    if done >= data.SAFETY_ROUNDS:
        return _finish(state, "rounds")
    return debt.pass_turn(state)


def _finish(state: MonopolyState, reason: str) -> list[Event]:
    state.phase = OVER
    state.reason = reason
    state.claims.clear()
    events = deals.lapse_all(state)
    worth = {s: holdings.net_worth(state, s) for s in range(state.players) if state.alive[s]}
    best = max(worth.values())
    winners = sorted(s for s, w in worth.items() if w == best)
    return [*events, Event("game_over", None, {"reason": reason, "winners": winners})]


# --- moving and landing ----------------------------------------------------------------------


def _move_by(state: MonopolyState, seat: int, steps: int, how: str = "dice") -> list[Event]:
    start = state.position[seat]
    end = (start + steps) % data.SPACES
    return _move_to(state, seat, end, passes=start + steps >= data.SPACES, how=how) + _land(
        state, seat, steps
    )


def _move_to(state: MonopolyState, seat: int, end: int, *, passes: bool, how: str) -> list[Event]:
    start = state.position[seat]
    state.position[seat] = end
    events = [
        Event(
            "moved",
            seat,
            {"from": start, "to": end, "token": space_token(end), "passed_go": passes, "how": how},
        )
    ]
    if passes:
        holdings.from_bank(state, seat, data.GO_SALARY)
        events.append(Event("salary", seat, {"amount": data.GO_SALARY}))
    return events


def _advance(state: MonopolyState, seat: int, target: int) -> list[Event]:
    """Card movement forward to ``target``, with the GO salary when it passes GO."""
    start = state.position[seat]
    steps = (target - start) % data.SPACES
    return _move_to(state, seat, target, passes=start + steps >= data.SPACES, how="card")


def _after_move(state: MonopolyState) -> None:
    state.phase = ROLL if state.again else END


def _land(state: MonopolyState, seat: int, total: int, card: str = "") -> list[Event]:
    """Resolve the space ``seat`` stands on; sets the phase to what comes next."""
    pos = state.position[seat]
    space = B[pos]
    _after_move(state)
    if space.kind == data.TAX:
        return [
            Event("tax", seat, {"space": pos, "token": space_token(pos), "amount": space.tax}),
            *debt.charge(state, seat, [], space.tax, "tax"),
        ]
    if space.kind == data.GOTO:
        return _send_to_pool(state, seat, "space")
    if space.kind in data.DECKS:
        return _draw(state, seat, space.kind)
    if not space.price:
        return []
    owner = state.owner[pos]
    if owner is None:
        state.phase = BUY
        return []
    if owner == seat or state.mortgaged[pos]:
        return []
    events: list[Event] = []
    if card == data.UTILITY:
        dice = _dice(state)
        total = sum(dice)
        events.append(Event("utility_roll", seat, {"dice": dice, "total": total}))
    amount = holdings.rent(state, pos, total, card=bool(card))
    claim = Claim(owner, seat, pos, amount)
    if state.rent_mode == "ask":
        state.claims.append(claim)
        return [*events, Event("rent_claimable", seat, _claim_params(claim))]
    events.append(Event("rent_due", seat, _claim_params(claim)))
    return events + debt.charge(state, seat, [owner], amount, "rent")


def _send_to_pool(state: MonopolyState, seat: int, why: str) -> list[Event]:
    """Straight to the Pool Party: no GO salary, no further roll, the turn ends (rulebook)."""
    state.position[seat] = data.POOL
    state.pool[seat] = 0
    state.again = False
    state.doubles = 0
    state.phase = END
    return [Event("sent_to_pool", seat, {"why": why})]


def _draw(state: MonopolyState, seat: int, deck: str) -> list[Event]:
    index = state.decks[deck].pop(0)
    card = data.CARDS[deck][index]
    if card.kind == "getout":
        state.getout[deck] = seat
    else:
        state.decks[deck].append(index)  # back to the bottom (rulebook)
    events = [Event("card_drawn", seat, {"deck": deck, "card": card_token(deck, index), "kind": card.kind})]
    kind, arg = card.kind, card.arg
    pos = state.position[seat]
    if kind == "advance":
        return events + _advance(state, seat, arg) + _land(state, seat, 0)
    if kind in ("nearest_airport", "nearest_utility"):
        group = data.AIRPORTS if kind == "nearest_airport" else data.UTILITIES
        target = min(group, key=lambda p: (p - pos) % data.SPACES)
        mark = data.AIRPORT if kind == "nearest_airport" else data.UTILITY
        return events + _advance(state, seat, target) + _land(state, seat, 0, card=mark)
    if kind == "back":
        target = (pos - arg) % data.SPACES
        return events + _move_to(state, seat, target, passes=False, how="card") + _land(state, seat, 0)
    if kind == "pool":
        return events + _send_to_pool(state, seat, "card")
    if kind == "collect":
        holdings.from_bank(state, seat, arg)
        return [*events, Event("collected", seat, {"amount": arg, "reason": "card"})]
    if kind == "pay":
        return events + debt.charge(state, seat, [], arg, "card")
    if kind == "repairs":
        per_house, per_hotel = divmod(arg, 1000)
        levels = [state.level[p] for p in holdings.properties_of(state, seat)]
        cost = sum(per_hotel if lv == data.HOTEL else per_house * lv for lv in levels)
        return events + debt.charge(state, seat, [], cost, "card")
    others = [s for s in range(state.players) if s != seat and state.alive[s]]
    if kind == "each_pay":
        return events + debt.charge(state, seat, others, arg, "card")
    if kind == "each_collect":
        for other in others:
            events += debt.charge(state, other, [seat], arg, "card")
        return events
    return events  # getout: kept until used


# --- overlays --------------------------------------------------------------------------------


def _bid(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    if len(action.args) != 1 or not isinstance(action.args[0], int):
        raise IllegalAction(MALFORMED)
    was = state.auction
    events = auction.bid(state, seat, action.args[0])
    return events + _auction_over(state, was)


def _pass(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    if action.args:
        raise IllegalAction(MALFORMED)
    was = state.auction
    events = auction.pass_(state, seat)
    return events + _auction_over(state, was)


def _auction_over(state: MonopolyState, was: object) -> list[Event]:
    """A closed shortage auction places its building; other auctions need nothing more."""
    from rules.monopoly.state import Auction

    if state.auction is not None or not isinstance(was, Auction) or was.reason != "shortage":
        return []
    return shortage.auction_closed(state, was.high_bidder, was.high)


def _claim(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    return shortage.answer(state, seat, action)


def _bankrupt(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    if action.args:
        raise IllegalAction(MALFORMED)
    problem = debt.bankrupt_problem(state, seat)
    if problem is not None:
        raise IllegalAction(problem)
    return debt.go_bankrupt(state, seat)


def _fee(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    problem = deals.fee_problem(state, seat, action)
    if problem is not None:
        raise IllegalAction(problem)
    pos = int(action.args[0])
    fee = next(f for f in state.fees if f.seat == seat and f.pos == pos)
    state.fees.remove(fee)
    if action.kind == "lift":
        return [holdings.do_repay(state, seat, pos)]
    amount = data.fee(pos)
    return [
        Event("interest", seat, {"space": pos, "token": space_token(pos), "amount": amount}),
        *debt.charge(state, seat, [], amount, "interest"),
    ]


def _rent(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    if len(action.args) != 1 or not isinstance(action.args[0], int):
        raise IllegalAction(MALFORMED)
    pos = action.args[0]
    claim = next((c for c in state.claims if c.owner == seat and c.pos == pos), None)
    if claim is None:
        raise IllegalAction("There is no rent to collect for that property now.")
    state.claims.remove(claim)
    events = [Event("rent_due", claim.payer, _claim_params(claim))]
    return events + debt.charge(state, claim.payer, [seat], claim.amount, "rent")


# --- any time --------------------------------------------------------------------------------


def _pos_arg(action: Action) -> int:
    if len(action.args) != 1 or not isinstance(action.args[0], int):
        raise IllegalAction(MALFORMED)
    return action.args[0]


def _build(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    return shortage.request(state, seat, _pos_arg(action))


def _checked(
    problem: Callable[[MonopolyState, int, int], str | None],
    do: Callable[[MonopolyState, int, int], Event],
) -> Callable[[MonopolyState, int, Action], list[Event]]:
    def handler(state: MonopolyState, seat: int, action: Action) -> list[Event]:
        pos = _pos_arg(action)
        why = problem(state, seat, pos)
        if why is not None:
            raise IllegalAction(why)
        return [do(state, seat, pos)]

    return handler


def _draft(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    if action.kind == "send":
        if action.args:
            raise IllegalAction(MALFORMED)
        return deals.send(state, seat)
    return deals.draft_step(state, seat, action)


def _answer(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    return deals.answer(state, seat, action)


Handler = Callable[[MonopolyState, int, Action], list[Event]]
_HANDLERS: dict[str, Handler] = {
    "roll": _roll,
    "buy": _buy,
    "decline": _decline,
    "end": _end,
    "fine": _fine,
    "card": _card,
    "bid": _bid,
    "pass": _pass,
    "claim": _claim,
    "noclaim": _claim,
    "bankrupt": _bankrupt,
    "keep": _fee,
    "lift": _fee,
    "rent": _rent,
    "build": _build,
    "sell": _checked(holdings.sell_problem, holdings.do_sell),
    "mort": _checked(holdings.mortgage_problem, holdings.do_mortgage),
    "unmort": _checked(holdings.repay_problem, holdings.do_repay),
    **{kind: _draft for kind in ("deal", "give", "want", "givec", "wantc", "cash", "ask", "send", "drop")},
    **{kind: _answer for kind in ANSWER_KINDS},
}


# --- fingerprints ----------------------------------------------------------------------------


def fingerprint(state: MonopolyState, action: Action) -> str | None:
    """What an any-time action means now, from public facts only (money and holdings are public).

    - ``build``/``sell``/``mort``/``unmort``.<pos>: the property, its owner, its price (house
      cost, refund, mortgage value or repayment), the group's levels and mortgages and the bank's
      supply: the facts its legality rests on.  A button drawn for it stays good until one of
      them changes, whatever else happens at the table.
    - ``accept``/``reject``/``counter``/``withdraw``.<n>: an offer number always names the same,
      unchangeable offer (once closed, the refusal says why).
    - drafting (``deal``, ``give``...): ``give``/``want`` name a property and its owner; the
      rest mean the same all game (the draft itself is private and never enters a fingerprint).
    - ``rent``.<pos>: the claim (owner, payer, amount) while it is open.
    - Everything else (rolls, bids, claims, buying, ending) belongs to its moment: ``None``.
    """
    kind, args = action.kind, action.args
    if kind in ("build", "sell", "mort", "unmort") and len(args) == 1 and isinstance(args[0], int):
        pos = args[0]
        if not (0 <= pos < data.SPACES and B[pos].price):
            return None
        owner = state.owner[pos]
        group = data.GROUPS[B[pos].group]
        levels = ",".join(str(state.level[p]) for p in group)
        mortgages = "".join("m" if state.mortgaged[p] else "-" for p in group)
        owners = ",".join(str(state.owner[p]) for p in group)
        price = {
            "build": B[pos].house_cost,
            "sell": B[pos].house_cost // data.SELL_BACK_DIVISOR,
            "mort": data.mortgage_value(pos),
            "unmort": data.repay_cost(pos),
        }[kind]
        afford = owner is not None and state.cash[owner] >= price
        supply = f"{state.houses}/{state.hotels}" if kind in ("build", "sell") else ""
        return f"{kind}:{pos}:o{owners}:l{levels}:{mortgages}:${price}:{int(afford)}:{supply}"
    if kind in ANSWER_KINDS:
        return action.encode()
    if (
        kind in ("give", "want")
        and len(args) == 1
        and isinstance(args[0], int)
        and 0 <= args[0] < data.SPACES
    ):
        return f"{kind}:{args[0]}@{state.owner[args[0]]}"
    if kind in ("deal", "givec", "wantc", "cash", "ask", "send", "drop"):
        return action.encode()
    if kind == "rent":
        claim = next((c for c in state.claims if (c.pos,) == args), None)
        return None if claim is None else f"rent:{claim.pos}:{claim.owner}:{claim.payer}:{claim.amount}"
    return None
