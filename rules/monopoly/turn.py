"""The turn itself: the opening roll, rolling, moving and landing, the Pool Party, buying, ending.

The phases (``state.OPENING``, ``ROLL``, ``BUY``, ``END``) are the engine module's catalogue;
this module moves between them.  Every roll is :func:`roll_dice`, two draws of the state's own
generator, so a test queues its dice there (``MonopolyBuilder.next_dice``) and a replay rolls the
same.
"""

from __future__ import annotations

from rules.core import Action, Event, IllegalAction
from rules.monopoly import arguments, auction, cards, data, deals, debt, holdings, moves, rent
from rules.monopoly.state import BUY, END, OPENING, OVER, ROLL, MonopolyState
from rules.monopoly.tokens import space_token

B = data.BOARD


def roll_dice(state: MonopolyState) -> list[int]:
    return [state.rng.below(6) + 1, state.rng.below(6) + 1]


def actions(state: MonopolyState, seat: int) -> list[Action]:
    """The turn's own actions for ``seat``, once no debt or fee holds the turn up."""
    if state.phase == OPENING:
        return [moves.ROLL] if seat in state.rolling else []
    if seat != state.turn or state.pending_move is not None:
        return []
    if state.phase == ROLL:
        acts = [moves.ROLL]
        if state.pool[seat] is not None:
            if state.cash[seat] >= data.POOL_FINE:
                acts.append(moves.FINE)
            acts += [moves.with_deck("card", d) for d, holder in state.getout.items() if holder == seat]
        return acts
    if state.phase == BUY:
        pos = state.position[seat]
        return ([moves.BUY] if state.cash[seat] >= B[pos].price else []) + [moves.DECLINE]
    return [moves.END]


# --- rolling ---------------------------------------------------------------------------------


def roll(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    arguments.no_args(action)
    if state.phase == OPENING:
        if seat not in state.rolling:
            raise IllegalAction("already_rolled_start")
        return _opening_roll(state, seat)
    _own_turn(state, seat)
    if state.phase == BUY:
        raise IllegalAction("buy_or_decline", space=state.position[seat])
    if state.phase == END:
        raise IllegalAction("move_done")
    if state.pending_move is not None:
        raise IllegalAction("pool_move_pending")
    rolled = roll_dice(state)
    total, doubles = sum(rolled), rolled[0] == rolled[1]
    events = rent.forfeit(state, seat)
    if state.pool[seat] is not None:
        return events + _pool_try(state, seat, rolled)
    events.append(Event("rolled", seat, {"dice": rolled, "total": total, "doubles": doubles}))
    state.dice = rolled
    if doubles:
        state.doubles += 1
        if state.doubles >= data.DOUBLES_LIMIT:
            return events + _send_to_pool(state, seat, "doubles")
    state.again = doubles
    return events + move_by(state, seat, total)


def _own_turn(state: MonopolyState, seat: int) -> None:
    if seat != state.turn:
        raise IllegalAction("not_your_turn")


def _opening_roll(state: MonopolyState, seat: int) -> list[Event]:
    rolled = roll_dice(state)
    state.rolling.remove(seat)
    state.opening_rolls.append([seat, sum(rolled)])
    events = [Event("opening_roll", seat, {"dice": rolled, "total": sum(rolled)})]
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


# --- the Pool Party --------------------------------------------------------------------------


def _pool_try(state: MonopolyState, seat: int, rolled: list[int]) -> list[Event]:
    tries = (state.pool[seat] or 0) + 1
    doubles = rolled[0] == rolled[1]
    state.dice = rolled
    events = [Event("pool_try", seat, {"dice": rolled, "doubles": doubles, "tries": tries})]
    state.again = doubles and data.POOL_DOUBLES_ROLL_AGAIN
    if doubles:
        state.pool[seat] = None
        events.append(Event("left_pool", seat, {"how": "doubles"}))
        return events + move_by(state, seat, sum(rolled))
    if tries < data.POOL_TRIES:
        state.pool[seat] = tries
        state.phase = END
        return events
    state.pool[seat] = None
    events.append(Event("left_pool", seat, {"how": "third_try"}))
    events += debt.charge(state, seat, [], data.POOL_FINE, "pool")
    if any(d.debtor == seat for d in state.debts):
        state.pending_move = sum(rolled)  # the engine moves once the fine is paid
        return events
    return events + move_by(state, seat, sum(rolled))


def fine(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    arguments.no_args(action)
    _pool_turn_start(state, seat)
    if state.cash[seat] < data.POOL_FINE:
        raise IllegalAction("fine_short", amount=data.POOL_FINE, cash=state.cash[seat])
    holdings.to_bank(state, seat, data.POOL_FINE)
    state.pool[seat] = None
    return [
        Event("paid", seat, {"amount": data.POOL_FINE, "to_seats": [-1], "reason": "pool"}),
        Event("left_pool", seat, {"how": "fine"}),
    ]


def _pool_turn_start(state: MonopolyState, seat: int) -> None:
    _own_turn(state, seat)
    if state.pool[seat] is None:
        raise IllegalAction("not_in_pool")
    if state.phase != ROLL:
        raise IllegalAction("pool_before_roll")


def use_card(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    if len(action.args) != 1 or action.args[0] not in data.DECKS:
        raise IllegalAction("malformed")
    deck = str(action.args[0])
    _pool_turn_start(state, seat)
    if state.getout[deck] != seat:
        raise IllegalAction("card_not_held")
    state.getout[deck] = None
    state.decks[deck].append(data.GETOUT_CARD[deck])
    state.pool[seat] = None
    return [Event("left_pool", seat, {"how": "card", "deck": deck})]


def _send_to_pool(state: MonopolyState, seat: int, why: str) -> list[Event]:
    """Straight to the Pool Party: no GO salary, no further roll, the turn ends (rulebook)."""
    state.position[seat] = data.POOL
    state.pool[seat] = 0
    state.again = False
    state.doubles = 0
    state.phase = END
    return [Event("sent_to_pool", seat, {"why": why})]


# --- buying and ending -----------------------------------------------------------------------


def buy(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    arguments.no_args(action)
    pos = _buying(state, seat)
    price = B[pos].price
    if state.cash[seat] < price:
        raise IllegalAction("buy_short", space=pos, price=price, cash=state.cash[seat])
    holdings.to_bank(state, seat, price)
    state.owner[pos] = seat
    state.phase = ROLL if state.again else END
    return [Event("bought", seat, {"space": pos, "token": space_token(pos), "price": price})]


def _buying(state: MonopolyState, seat: int) -> int:
    _own_turn(state, seat)
    if state.phase != BUY:
        raise IllegalAction("nothing_to_buy")
    return state.position[seat]


def decline(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    arguments.no_args(action)
    pos = _buying(state, seat)
    state.phase = ROLL if state.again else END
    bidders = auction.bidders_from(state, (seat + 1) % state.players)
    return auction.open_auction(state, "property", pos, bidders, "declined")


def end(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    arguments.no_args(action)
    _own_turn(state, seat)
    if state.phase == ROLL:
        raise IllegalAction("roll_again_first") if state.again else IllegalAction("roll_first")
    if state.phase == BUY:
        raise IllegalAction("buy_or_decline", space=state.position[seat])
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


def move_by(state: MonopolyState, seat: int, steps: int) -> list[Event]:
    start = state.position[seat]
    target = (start + steps) % data.SPACES
    return _move_to(state, seat, target, passes=start + steps >= data.SPACES, how="dice") + land(
        state, seat, steps
    )


def _move_to(state: MonopolyState, seat: int, target: int, *, passes: bool, how: str) -> list[Event]:
    start = state.position[seat]
    state.position[seat] = target
    events = [
        Event(
            "moved",
            seat,
            {"from": start, "to": target, "token": space_token(target), "passed_go": passes, "how": how},
        )
    ]
    if passes:
        holdings.from_bank(state, seat, data.GO_SALARY)
        events.append(Event("salary", seat, {"amount": data.GO_SALARY}))
    return events


def land(state: MonopolyState, seat: int, total: int, *, card: str = "") -> list[Event]:
    """Resolve the space ``seat`` stands on; sets the phase to what comes next.

    ``total`` is the dice that brought it there (a utility's rent); ``card`` is the rate a
    "nearest" card imposes, whose utility rent rolls fresh dice."""
    pos = state.position[seat]
    space = B[pos]
    state.phase = ROLL if state.again else END
    if space.kind == data.TAX:
        return [
            Event("tax", seat, {"space": pos, "token": space_token(pos), "amount": space.tax}),
            *debt.charge(state, seat, [], space.tax, "tax"),
        ]
    if space.kind == data.GOTO:
        return _send_to_pool(state, seat, "space")
    if space.kind in data.DECKS:
        events, trip = cards.draw(state, seat, space.kind)
        return events if trip is None else events + _take_trip(state, seat, trip)
    if not space.price:
        return []
    owner = state.owner[pos]
    if owner is None:
        state.phase = BUY
        return []
    if owner == seat or state.mortgaged[pos]:
        return []
    events = []
    if card == data.UTILITY:
        rolled = roll_dice(state)
        total = sum(rolled)
        events.append(Event("utility_roll", seat, {"dice": rolled, "total": total}))
    return events + rent.due(state, seat, owner, pos, total, by_card=bool(card))


def _take_trip(state: MonopolyState, seat: int, trip: cards.Trip) -> list[Event]:
    if trip.way == cards.POOL:
        return _send_to_pool(state, seat, "card")
    if trip.way == cards.BACK:
        moved = _move_to(state, seat, trip.to, passes=False, how="card")
    else:
        start = state.position[seat]
        steps = (trip.to - start) % data.SPACES
        moved = _move_to(state, seat, trip.to, passes=start + steps >= data.SPACES, how="card")
    return moved + land(state, seat, 0, card=trip.rent)
