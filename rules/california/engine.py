"""California (Michael Schacht, Abacusspiele 2006): actions, turns, days and scoring.

Actions (``rules.core.Action``)
-------------------------------
``coin``
    Take a gold coin from the bank (player on turn).
``buy <store> <slot> <target>``
    Buy the tile in ``store`` (0-1) ``slot`` (0-3) and place it at once
    (player on turn): ``target`` is a ground-floor space ``0..15`` (a room
    tile, or furniture into an empty room of its colour), ``attic`` (furniture
    with no empty room of its colour) or ``expansion`` (the attic expansion).
    The rulebook makes buying and placing one act, so it is one action: a user
    interface shows :func:`placements` for the chosen tile (every target with
    its total price), offers Back, and sends the buy once the player picks.
``loan_buy <store> <slot> <target>``
    Take a loan and make that purchase, as one step (player on turn).  Legal
    only when the loan is what makes the purchase affordable (the player has
    no loan, a loan marker is left, the price is more than the player's money
    and at most 3 silver more), so a user interface can offer "Borrow 3 and
    buy" on exactly the spaces where it helps.  One action rather than a loan
    then a buy, because two clicks could be split by another player's move
    and leave the player with a loan and a purchase refused.
``loan`` / ``repay``
    Take out or pay off a loan: any seat, at any moment until the game ends.

Events (``Event.kind``: ``params``; ``seat`` is the actor unless noted)
-----------------------------------------------------------------------
- ``coin_taken``: ``bank`` (coins left), ``money`` (actor's silver after).
- ``tile_bought``: ``store``, ``slot``, ``tile``, ``kind`` (room/furniture/
  expansion), ``colour`` (key or None), ``target``, ``price``,
  ``fee``, ``cost`` (price + fee), ``money`` (after).
- ``furniture_stored``: ``tile``, ``colour`` (went to the attic).
- ``furniture_moved``: ``tile``, ``colour``, ``space`` (attic to
  the newly placed room).
- ``guest_arrives``: ``colour``, ``from`` (seat it left, or None: the table).
- ``guest_stays``: ``colour`` (already visiting: no gift).
- ``gift``: ``colour`` (the guest who brought it), ``gifts`` (actor's total).
- ``no_gift_left``: ``colour`` (a gift was due but all 30 are given out).
- ``bonus_card``: ``card`` (index; :func:`rules.california.bonus_card_token` names it), ``points``,
  ``total`` (actor's bonus points).
- ``game_ends_tonight``: ``reason`` ("bonus": 9 bonus points; "mansion":
  16 spaces renovated), ``day``.
- ``loan_taken``: ``amount``, ``money``.
- ``loan_repaid``: ``amount``, ``money``, ``automatic`` (True at game end).
- ``day_ended``: ``day``, ``reason`` ("bank" or "store"), ``store`` (if a store).
- ``bag_shuffled`` (seat None): ``tiles`` (in the bag before the refill draws).
- ``day_started`` (seat: who plays first): ``day``, ``days``, ``price``.
- ``game_over`` (seat None): ``scores``, ``ranks``.

A ``loan_buy`` gives ``loan_taken`` then the events of the purchase.

Events, views and refusals carry tokens only (colour keys, tile ids, card indices, spaces
``0..15``), never words: the host names them from its catalog in the table's language.

The last move (``State.last``, public in the view as ``last``)
-----------------------------------------------------------------
Every accepted action but the automatic end-of-game repayments records what
it changed, so the board image can outline it: ``seat`` and ``action``, plus

- ``coin``: ``coin`` (the bank space emptied, 0-3), ``day_ended``;
- ``buy`` (also for ``loan_buy``): ``store``, ``slot``, ``target``,
  ``tile``, ``cost``, ``loan`` (True when a loan paid for it), ``day_ended``;
- ``loan`` and ``repay``: nothing more.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import Action, Event, IllegalAction, Outcome, StateError, rank_by
from rules.rng import Rng

from . import data
from .data import COLOURS
from .invariants import invariants
from .placement import (
    ATTIC,
    TARGETS,
    TILE_QUESTION,
    Target,
    furniture_counts,
    grid,
    layout,
    options,
    refuse_placement,
    remember,
    situation,
    targets,
    with_furniture,
    with_room,
)
from .state import FURNITURE, ROOM, TILE_COLOUR, TILE_KIND, Player, State

COIN = Action("coin")
LOAN = Action("loan")
REPAY = Action("repay")
BUY, LOAN_BUY = "buy", "loan_buy"
_TARGET_INDEX = {t: i for i, t in enumerate(TARGETS)}


def _table(kind: str) -> list[list[list[Action]]]:
    return [
        [[Action(kind, (store, slot, target)) for target in TARGETS] for slot in range(data.STORE_SLOTS)]
        for store in range(data.STORES)
    ]


# Every purchase action exists once; legal_actions hands out these shared objects.
_BUY = _table(BUY)
_LOAN_BUY = _table(LOAN_BUY)
ALL_ACTIONS: tuple[Action, ...] = (
    COIN,
    LOAN,
    REPAY,
    *(a for st in _BUY for sl in st for a in sl),
    *(a for st in _LOAN_BUY for sl in st for a in sl),
)
"""Every action the game knows, legal or not (for fuzzers and user interfaces)."""

_BONUS_POINTS = tuple(points for _, _, points in data.BONUS_CARDS)
_MOST_POINTS = max(_BONUS_POINTS)
_GIFT_THRESHOLD = {n: data.gift_threshold(n) for n in range(data.MIN_PLAYERS, data.MAX_PLAYERS + 1)}
_BONUS_NEEDS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((c, k) for c, k in enumerate(needs) if k) for _, needs, _ in data.BONUS_CARDS
)
"""Per bonus card, only the colours it asks for, as (colour, count): checked after every furnishing."""
_WAITING = tuple(frozenset((seat,)) for seat in range(data.MAX_PLAYERS))
"""``waiting_for`` answers from these rather than building a set on every call."""
_NOBODY: frozenset[int] = frozenset()


# --- small pure helpers (also for the Discord layer and the renderer) -------------


def price(state: State) -> int:
    """The purchase price of any store tile now: the gold coins left in the bank."""
    return state.bank


def placements(state: State, seat: int, store: int, slot: int) -> list[tuple[Target, int]]:
    """Where ``seat`` may place the tile in ``store``/``slot``, with the total price of each.

    The total is the tile's price plus the space's fee.  Only the placement
    rules are applied; whether the player can pay is left to the caller
    (``legal_actions`` lists only what the player can afford now, a loan
    included; :func:`offers` pairs each place with the action that buys it).  Empty when the slot is empty or the tile
    cannot be placed, in which case it cannot be bought.
    """
    if not (0 <= store < data.STORES and 0 <= slot < data.STORE_SLOTS and 0 <= seat < state.n):
        return []
    tile = state.stores[store][slot]
    if tile is None:
        return []
    p = state.players[seat]
    return [(target, state.bank + fee) for target, fee in targets(state.n, p, tile)]


def purchase(store: int, slot: int, target: int, borrow: bool = False) -> Action:
    """The ``buy`` (or with ``borrow`` the ``loan_buy``) of ``store``/``slot`` to ``TARGETS[target]``,
    as the shared object ``legal_actions`` lists (for bots' quick moves; not a legality check)."""
    return (_LOAN_BUY if borrow else _BUY)[store][slot][target]


def can_borrow(state: State, seat: int) -> bool:
    """Whether ``seat`` could take a loan now (no open loan, a marker left, the game running)."""
    return not state.over and 0 <= seat < state.n and not state.players[seat].loan and state.loan_supply > 0


def offers(state: State, seat: int, store: int, slot: int) -> list[tuple[Target, int, Action | None]]:
    """Every legal place for the tile in ``store``/``slot``, its total price, and how to buy it now.

    The action is a plain ``buy`` when the player can pay, a ``loan_buy`` when
    only a loan makes it affordable, and ``None`` when even a loan would not
    (or it is not the player's turn).  This is :func:`placements` with the
    money rules applied, so a user interface offers exactly what
    ``legal_actions`` lists and never has to work out prices itself.
    """
    where = placements(state, seat, store, slot)
    if not where:
        return []
    money = state.players[seat].money
    on_turn = not state.over and seat == state.turn
    reach = money + data.LOAN_AMOUNT if can_borrow(state, seat) else money
    out: list[tuple[Target, int, Action | None]] = []
    for target, cost in where:
        action: Action | None = None
        if on_turn and cost <= money:
            action = _BUY[store][slot][_TARGET_INDEX[target]]
        elif on_turn and cost <= reach:
            action = _LOAN_BUY[store][slot][_TARGET_INDEX[target]]
        out.append((target, cost, action))
    return out


def bonus_points(state: State, seat: int) -> int:
    return sum(points for points, owner in zip(_BONUS_POINTS, state.bonus, strict=True) if owner == seat)


def score_breakdown(state: State, seat: int) -> dict[str, int]:
    """Points as they stand (final once the game is over).

    During play an open loan costs points only if the player could not repay
    it now, which is what would happen if the game ended now.
    """
    p = state.players[seat]
    spaces = sum(t is not None for t in p.rooms) + 1 + (1 if p.attic else 0) + (p.expansion is not None)
    bonus = bonus_points(state, seat)
    loan = -data.UNPAID_LOAN_PENALTY if p.loan and (state.over or p.money < data.LOAN_REPAYMENT) else 0
    return {
        "gifts": p.gifts,
        "bonus": bonus,
        "spaces": spaces,
        "loan": loan,
        "total": p.gifts + bonus + spaces + loan,
        "money": p.money,
    }


# --- the contract ---------------------------------------------------------------------


def new_state(players: int, seed: int) -> State:
    rng = Rng(seed)
    stack = list(range(data.TILE_COUNT))
    rng.shuffle(stack)
    stores: list[list[int | None]] = [
        [stack.pop() if stack else None for _ in range(data.STORE_SLOTS)] for _ in range(data.STORES)
    ]
    seats = [
        Player(
            board=i,
            money=data.START_MONEY,
            rooms=[None] * data.SPACES,
            furniture=[None] * data.SPACES,
            attic=[],
        )
        for i in range(players)
    ]
    return State(
        players=seats,
        rng=rng,
        day=1,
        turn=rng.below(players),
        bank=data.BANK_SPACES,
        stores=stores,
        stack=stack,
        bag=[],
        bonus=[None] * len(data.BONUS_CARDS),
        guests=[None] * len(COLOURS),
        gift_supply=data.GIFTS,
        loan_supply=data.LOAN_MARKERS,
        minted=players * data.START_MONEY + data.BANK_SPACES * data.GOLD,
        returned=0,
    )


def waiting_for(state: State) -> frozenset[int]:
    return _NOBODY if state.over else _WAITING[state.turn]


def legal_actions(state: State, seat: int) -> list[Action]:
    """The seat's moves, in a fixed order: ``coin``, then every affordable purchase (store,
    slot, then target order; a ``loan_buy`` where only a loan makes it affordable), then
    ``loan`` or ``repay``.  Playouts call this on every move, hence the shared action objects
    and the placement answers remembered per floor (``Layout.answers``)."""
    players = state.players
    if state.over or not 0 <= seat < len(players):
        return []
    p = players[seat]
    out: list[Action] = []
    if seat == state.turn:
        out.append(COIN)
        base = state.bank
        money = p.money
        reach = money + data.LOAN_AMOUNT if not p.loan and state.loan_supply else money
        if reach >= base:
            n = len(players)
            plan = layout(p)
            answers = plan.answers
            now = situation(n, p)
            spare, spare_with_loan = money - base, reach - base  # what is left for a space's fee
            for store, tiles in enumerate(state.stores):
                for slot, tile in enumerate(tiles):
                    if tile is None:
                        continue
                    asked = TILE_QUESTION[tile] | now  # placement.question, inlined: once per tile
                    where = answers.get(asked)
                    if where is None:
                        where = answers[asked] = options(n, p, plan, tile)
                    actions, borrowing = _BUY[store][slot], _LOAN_BUY[store][slot]
                    for index, fee in where:
                        if fee <= spare:
                            out.append(actions[index])
                        elif fee <= spare_with_loan:
                            out.append(borrowing[index])
    if p.loan:
        if p.money >= data.LOAN_REPAYMENT:
            out.append(REPAY)
    elif state.loan_supply:
        out.append(LOAN)
    return out


def apply(state: State, seat: int, action: Action) -> list[Event]:
    """Validate, then apply; raises :class:`IllegalAction` (state unchanged) with one of the keys
    of ``california.illegal`` and the params its sentence needs (a ``tile`` id, a ``room`` colour
    key, a ``space``, a 0-based ``store`` and ``slot``, amounts in silver)."""
    if not isinstance(action, Action):
        raise IllegalAction("not_an_action")
    if state.over:
        raise IllegalAction("game_over")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state.players):
        raise IllegalAction("no_such_seat")
    kind = action.kind
    if kind in (BUY, LOAN_BUY):
        return _buy(state, seat, action.args, kind == LOAN_BUY)
    if kind in ("coin", "loan", "repay"):
        if action.args:
            raise IllegalAction("takes_no_options")
        if kind == "coin":
            return _coin(state, seat)
        events = _loan(state, seat) if kind == "loan" else _repay(state, seat)
        state.last = {"seat": seat, "action": kind}
        return events
    raise IllegalAction("unknown_action")


def outcome(state: State) -> Outcome | None:
    if not state.over:
        return None
    rows = [score_breakdown(state, s) for s in range(state.n)]
    return Outcome(
        scores=tuple(r["total"] for r in rows),
        ranks=rank_by([(r["total"], r["money"]) for r in rows]),  # ties: most money, then shared
        breakdown=tuple(rows),
    )


def load(payload: Mapping[str, Any]) -> State:
    state = State.from_json(payload)
    if not data.MIN_PLAYERS <= state.n <= data.MAX_PLAYERS:
        raise StateError(
            f"a California state needs {data.MIN_PLAYERS} to {data.MAX_PLAYERS} players, not {state.n}"
        )
    broken = invariants(state)
    if broken:
        raise StateError("corrupt California state: " + "; ".join(broken[:3]))
    return state


# --- the actions ------------------------------------------------------------------------


def _coin(state: State, seat: int) -> list[Event]:
    if seat != state.turn:
        raise IllegalAction("coin_not_your_turn")
    p = state.players[seat]
    state.bank -= 1
    p.money += data.GOLD
    events = [Event("coin_taken", seat, {"bank": state.bank, "money": p.money})]
    state.last = {"seat": seat, "action": "coin", "coin": state.bank, "day_ended": state.bank == 0}
    if state.bank == 0:
        _end_day(state, seat, "bank", events)
    else:
        state.turn = (seat + 1) % len(state.players)
    return events


def _loan(state: State, seat: int) -> list[Event]:
    p = state.players[seat]
    if p.loan:
        raise IllegalAction("loan_open")
    if not state.loan_supply:
        raise IllegalAction("no_loan_markers", markers=data.LOAN_MARKERS)
    state.loan_supply -= 1
    p.loan = True
    p.money += data.LOAN_AMOUNT
    state.minted += data.LOAN_AMOUNT
    return [Event("loan_taken", seat, {"amount": data.LOAN_AMOUNT, "money": p.money})]


def _repay(state: State, seat: int) -> list[Event]:
    p = state.players[seat]
    if not p.loan:
        raise IllegalAction("no_loan")
    if p.money < data.LOAN_REPAYMENT:
        raise IllegalAction("repay_too_dear", cost=data.LOAN_REPAYMENT, money=p.money)
    _pay_back(state, seat)
    return [Event("loan_repaid", seat, {"amount": data.LOAN_REPAYMENT, "money": p.money, "automatic": False})]


def _pay_back(state: State, seat: int) -> None:
    p = state.players[seat]
    p.money -= data.LOAN_REPAYMENT
    state.returned += data.LOAN_REPAYMENT
    p.loan = False
    state.loan_supply += 1


def _buy(state: State, seat: int, args: tuple[int | str, ...], borrow: bool = False) -> list[Event]:
    """A purchase, or with ``borrow`` a loan and a purchase: every check first, then both or neither."""
    if seat != state.turn:
        raise IllegalAction("buy_not_your_turn")
    if len(args) != 3 or args[2] not in _TARGET_INDEX:
        store = slot = -1
    else:
        store = args[0] if isinstance(args[0], int) else -1
        slot = args[1] if isinstance(args[1], int) else -1
    if not (0 <= store < data.STORES and 0 <= slot < data.STORE_SLOTS):
        raise IllegalAction("bad_purchase", stores=data.STORES, slots=data.STORE_SLOTS)
    target = args[2]
    tile = state.stores[store][slot]
    if tile is None:
        raise IllegalAction("empty_slot", store=store, slot=slot)
    p = state.players[seat]
    plan = layout(p)
    where = options(len(state.players), p, plan, tile)
    fee = _fee_at(where, _TARGET_INDEX[target])
    if fee is None:
        refuse_placement(p, grid(p), tile, target, bool(where))
    base = state.bank
    cost = base + fee
    reach = p.money + data.LOAN_AMOUNT
    if borrow:
        if p.loan:
            raise IllegalAction("borrow_loan_open")
        if not state.loan_supply:
            raise IllegalAction("borrow_no_markers", markers=data.LOAN_MARKERS)
        if p.money >= cost:
            raise IllegalAction("loan_not_needed", cost=cost, tile=tile)
        if reach < cost:
            raise IllegalAction("too_dear_even_with_loan", cost=cost, tile=tile, reach=reach)
    elif p.money < cost:
        if not p.loan and state.loan_supply and reach >= cost:
            raise IllegalAction(
                "too_dear_loan_helps", cost=cost, tile=tile, money=p.money, loan=data.LOAN_AMOUNT
            )
        raise IllegalAction("too_dear", cost=cost, tile=tile, money=p.money)

    # Everything is checked: from here on the state changes.
    events = _loan(state, seat) if borrow else []
    p.money -= cost
    state.returned += cost
    state.stores[store][slot] = None
    kind, c = TILE_KIND[tile], TILE_COLOUR[tile]
    colour = COLOURS[c] if c >= 0 else None
    events.append(
        Event(
            "tile_bought",
            seat,
            {
                "store": store,
                "slot": slot,
                "tile": tile,
                "kind": kind,
                "colour": colour,
                "target": target,
                "price": base,
                "fee": fee,
                "cost": cost,
                "money": p.money,
            },
        )
    )
    # The new floor's layout follows from the old one, so the next question about it is
    # answered without reading the floor again (placement.remember).
    if kind == ROOM:
        assert isinstance(target, int)
        p.rooms[target] = tile
        plan = with_room(plan, target, c)
        for stored in p.attic:
            if TILE_COLOUR[stored] == c:
                p.attic.remove(stored)
                moved = {"tile": stored, "colour": colour, "space": target}
                events.append(Event("furniture_moved", seat, moved))
                _furnish(state, seat, target, stored, events)
                plan = with_furniture(plan, target)
                break
        remember(p, plan)
    elif kind == FURNITURE:
        if target == ATTIC:
            p.attic.append(tile)
            events.append(Event("furniture_stored", seat, {"tile": tile, "colour": colour}))
        else:
            assert isinstance(target, int)
            _furnish(state, seat, target, tile, events)
            remember(p, with_furniture(plan, target))
    else:
        p.expansion = tile
    _check_ending(state, seat, events)
    tiles = state.stores[store]
    day_ends = tiles.count(None) == len(tiles)
    state.last = {
        "seat": seat,
        "action": "buy",
        "store": store,
        "slot": slot,
        "target": target,
        "tile": tile,
        "cost": cost,
        "loan": borrow,
        "day_ended": day_ends,
    }
    if day_ends:
        _end_day(state, seat, "store", events, store=store)
    else:
        state.turn = (seat + 1) % len(state.players)
    return events


def _fee_at(where: tuple[tuple[int, int], ...], index: int) -> int | None:
    """The fee of target ``index`` among a tile's legal places, or None if it is not one."""
    for option, fee in where:
        if option == index:
            return fee
    return None


def _furnish(state: State, seat: int, space: int, tile: int, events: list[Event]) -> None:
    """Furniture lands in a ground-floor room: the guest visits, bonus cards are checked."""
    p = state.players[seat]
    p.furniture[space] = tile
    c = TILE_COLOUR[tile]
    colour = COLOURS[c]
    host = state.guests[c]
    if host == seat:
        events.append(Event("guest_stays", seat, {"colour": colour}))
    else:
        others = state.guests.count(seat)
        state.guests[c] = seat
        events.append(Event("guest_arrives", seat, {"colour": colour, "from": host}))
        if others >= _GIFT_THRESHOLD[len(state.players)]:
            if state.gift_supply:
                state.gift_supply -= 1
                p.gifts += 1
                events.append(Event("gift", seat, {"colour": colour, "gifts": p.gifts}))
            else:
                events.append(Event("no_gift_left", seat, {"colour": colour}))
    counts = furniture_counts(p)
    for card, owner in enumerate(state.bonus):
        if owner is not None:
            continue
        for wanted, need in _BONUS_NEEDS[card]:  # a loop, not all(): no generator per card
            if counts[wanted] < need:
                break
        else:
            state.bonus[card] = seat
            params = {
                "card": card,
                "points": _BONUS_POINTS[card],
                "total": bonus_points(state, seat),
            }
            events.append(Event("bonus_card", seat, params))


def _check_ending(state: State, seat: int, events: list[Event]) -> None:
    """After a purchase: 9 bonus points or a fully renovated ground floor end the game tonight."""
    if state.ending is not None:
        return
    # Too few cards cannot make the points: counting them is cheaper than adding points up.
    cards = state.bonus.count(seat)
    if cards * _MOST_POINTS >= data.END_BONUS_POINTS and bonus_points(state, seat) >= data.END_BONUS_POINTS:
        state.ending = "bonus"
    elif state.players[seat].rooms.count(None) == 1:  # only the printed room's space, never a tile
        state.ending = "mansion"
    else:
        return
    events.append(Event("game_ends_tonight", seat, {"reason": state.ending, "day": state.day}))


def _end_day(state: State, seat: int, reason: str, events: list[Event], store: int | None = None) -> None:
    params: dict[str, Any] = {"day": state.day, "reason": reason}
    if store is not None:
        params["store"] = store
    events.append(Event("day_ended", seat, params))
    if state.ending is not None or state.day >= data.DAYS:
        _game_over(state, events)
        return
    for tiles in state.stores:
        for i, tile in enumerate(tiles):
            if tile is not None:
                state.bag.append(tile)
                tiles[i] = None
    # Refill from the draw stack; once it is empty (after day 11 with the
    # standard mix) from the shuffled bag; short supply leaves spaces empty.
    shuffled = False
    for tiles in state.stores:
        for i in range(len(tiles)):
            if state.stack:
                tiles[i] = state.stack.pop()
            elif state.bag:
                if not shuffled:
                    state.rng.shuffle(state.bag)
                    shuffled = True
                    events.append(Event("bag_shuffled", None, {"tiles": len(state.bag)}))
                tiles[i] = state.bag.pop()
    state.minted += (data.BANK_SPACES - state.bank) * data.GOLD
    state.bank = data.BANK_SPACES
    state.day += 1
    state.turn = (seat + 1) % state.n
    events.append(
        Event("day_started", state.turn, {"day": state.day, "days": data.DAYS, "price": state.bank})
    )


def _game_over(state: State, events: list[Event]) -> None:
    for s, p in enumerate(state.players):
        if p.loan and p.money >= data.LOAN_REPAYMENT:
            _pay_back(state, s)
            events.append(
                Event("loan_repaid", s, {"amount": data.LOAN_REPAYMENT, "money": p.money, "automatic": True})
            )
    state.over = True
    result = outcome(state)
    assert result is not None
    events.append(Event("game_over", None, {"scores": list(result.scores), "ranks": list(result.ranks)}))
