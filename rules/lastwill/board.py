"""The player board in the Actions phase (§7): lay, buy, maintain, use, token, sell, drop, switch.

Each move has a ``*_problem`` function (the refusal, an :class:`IllegalAction` naming its reason,
or None) shared by ``legal_actions`` and ``apply``, so whatever is listed applies and whatever is
refused says why.  Black cards and
properties may earn the round's demotion only when first put on the board (rulebook, §9): a lay,
a purchase (the type bought as) and a companion token open the ``line`` step, nothing else does.
"""

from __future__ import annotations

from rules.core import Action, Event, IllegalAction
from rules.lastwill import data, piles
from rules.lastwill.cards import (
    BLACKS,
    COMPANIONS,
    PROPERTIES,
    buy_price,
    can_spend,
    earn,
    expense_amount,
    expense_cost,
    free_spaces,
    maintain_cost,
    next_slot,
    owned,
    privileges,
    sale_price,
    scope,
    spend,
    upkeep,
)
from rules.lastwill.data import DrawAndKeep, FreeAction
from rules.lastwill.employment import companion_symbols
from rules.lastwill.moves import move
from rules.lastwill.pending import LINE, PICK, run
from rules.lastwill.piles import available
from rules.lastwill.state import LastWillState, Owned, Pending, alone
from rules.lastwill.turn import can_pay, free_key, grant, pay, short, too_dear

REGULAR = tuple(d.value for d in data.REGULAR_DECKS)


def _demotion(state: LastWillState, seat: int, source: str, symbols: list[str]) -> list[Event]:
    state.pending = Pending(seat, [LINE], source=source, symbols=symbols)
    return run(state)


def no_space() -> IllegalAction:
    return IllegalAction("no_space")


# --- lay -----------------------------------------------------------------------------------------


def lay_problem(state: LastWillState, seat: int, card: str) -> IllegalAction | None:
    player = state.players[seat]
    black = BLACKS.get(card)
    if card not in player.hand or black is None:
        return IllegalAction("no_helper_in_hand")
    if free_spaces(player) <= 0:
        return no_space()
    if not can_pay(state, black.lay_actions):
        return short(black.lay_actions)
    return None


def lay(state: LastWillState, seat: int, card: str) -> list[Event]:
    player = state.players[seat]
    pay(state, BLACKS[card].lay_actions)
    player.hand.remove(card)
    item = Owned(card)
    player.board.append(item)
    grant(state, item)
    events = [Event("laid", seat, {"card": card})]
    return events + _demotion(state, seat, card, [s.value for s in BLACKS[card].symbols])


# --- buy -----------------------------------------------------------------------------------------


def buy_problem(state: LastWillState, seat: int, card: str, kind: str) -> IllegalAction | None:
    player = state.players[seat]
    prop = PROPERTIES.get(card)
    if card not in player.hand or prop is None:
        return IllegalAction("no_property_in_hand")
    if kind not in prop.types:
        if len(prop.types) == 1:
            return IllegalAction("bought_as", type=prop.types[0].value)
        return IllegalAction("bought_as_either", type=prop.types[0].value, other_type=prop.types[1].value)
    if free_spaces(player) <= 0:
        return no_space()
    if not can_pay(state, data.BUY_ACTIONS, free=free_key(FreeAction.BUY_OR_SELL, scope(kind))):
        return short(data.BUY_ACTIONS)
    price = buy_price(state, seat, card, kind)
    if not can_spend(player, price, buying=True):
        return too_dear(player.money, price)
    return None


def buy(state: LastWillState, seat: int, card: str, kind: str) -> list[Event]:
    player = state.players[seat]
    price = buy_price(state, seat, card, kind)
    pay(state, data.BUY_ACTIONS, free=free_key(FreeAction.BUY_OR_SELL, scope(kind)))
    player.hand.remove(card)
    spend(state, seat, price)
    free_tokens = []
    for slot in PROPERTIES[card].slots:  # N6: its free horse, no card, no action, no demotion
        if not slot.free_on_purchase:
            break
        free_tokens.append(slot.accepts[0].value)
    player.board.append(Owned(card, kind, 0, free_tokens))
    events = [Event("bought", seat, {"card": card, "type": kind, "price": price, "free_tokens": free_tokens})]
    return events + _demotion(state, seat, card, [data.PROPERTY_SYMBOL[data.PropertyType(kind)].value])


# --- maintain / use --------------------------------------------------------------------------


def keep_problem(state: LastWillState, seat: int, card: str) -> IllegalAction | None:
    player = state.players[seat]
    item = owned(player, card)
    if item is None or card not in PROPERTIES:
        return IllegalAction("no_property_owned")
    if item.done:
        return IllegalAction("maintained_already")
    if not can_pay(state, data.MAINTAIN_ACTIONS, free=free_key(FreeAction.MAINTAIN, scope(item.kind))):
        return short(data.MAINTAIN_ACTIONS)
    if not can_spend(player, upkeep(item)):
        return too_dear(player.money, upkeep(item))
    return None


def keep(state: LastWillState, seat: int, card: str) -> list[Event]:
    player = state.players[seat]
    item = owned(player, card)
    assert item is not None
    pay(state, data.MAINTAIN_ACTIONS, free=free_key(FreeAction.MAINTAIN, scope(item.kind)))
    money = maintain_cost(state, seat, card)
    bonus = money - upkeep(item)
    spend(state, seat, money)
    item.done = True
    return [Event("maintained", seat, {"card": card, "money": money, "bonus": bonus})]


def use_problem(state: LastWillState, seat: int, card: str) -> IllegalAction | None:
    player = state.players[seat]
    item = owned(player, card)
    black = BLACKS.get(card)
    if item is None or black is None or black.expense is None:
        return IllegalAction("no_expense")
    if item.done:
        return IllegalAction("used_already")
    if not can_pay(state, black.expense.actions):
        return short(black.expense.actions)
    amount = expense_amount(player, item)
    if not can_spend(player, amount):
        return too_dear(player.money, amount)
    return None


def use(state: LastWillState, seat: int, card: str) -> list[Event]:
    player = state.players[seat]
    item = owned(player, card)
    expense = BLACKS[card].expense
    assert item is not None and expense is not None
    pay(state, expense.actions)
    money = expense_cost(state, seat, card)
    bonus = money - expense_amount(player, item)
    spend(state, seat, money)
    item.done = True
    return [Event("expense_used", seat, {"card": card, "money": money, "bonus": bonus})]


# --- companion tokens ------------------------------------------------------------------------


def token_problem(state: LastWillState, seat: int, target: str, card: str, kind: str) -> IllegalAction | None:
    player = state.players[seat]
    record = COMPANIONS.get(card)
    if card not in player.hand or record is None:
        return IllegalAction("no_companion_in_hand")
    if record.companion is not None and kind != record.companion:
        return IllegalAction("own_companion")
    item = owned(player, target)
    slot = None if item is None else next_slot(item)
    if slot is None:
        return IllegalAction("no_slot")
    if kind not in slot.accepts:
        if len(slot.accepts) == 1:
            return IllegalAction("slot_takes", companion=slot.accepts[0].value)
        return IllegalAction(
            "slot_takes_either", companion=slot.accepts[0].value, other_companion=slot.accepts[1].value
        )
    if not can_pay(state, data.COMPANION_TOKEN_ACTIONS):
        return short(data.COMPANION_TOKEN_ACTIONS)
    return None


def token(state: LastWillState, seat: int, target: str, card: str, kind: str) -> list[Event]:
    player = state.players[seat]
    item = owned(player, target)
    assert item is not None
    pay(state, data.COMPANION_TOKEN_ACTIONS)
    player.hand.remove(card)
    piles.discard(state, card)
    item.tokens.append(kind)
    events = [Event("token_placed", seat, {"target": target, "card": card, "companion": kind})]
    wild = COMPANIONS[card].companion is None
    return events + _demotion(state, seat, card, companion_symbols(kind, wild))


# --- sell / drop / switch --------------------------------------------------------------------


def sell_problem(state: LastWillState, seat: int, card: str) -> IllegalAction | None:
    item = owned(state.players[seat], card)
    if item is None or card not in PROPERTIES:
        return IllegalAction("no_property_owned")
    if not can_pay(state, data.SELL_ACTIONS, free=free_key(FreeAction.BUY_OR_SELL, scope(item.kind))):
        return short(data.SELL_ACTIONS)
    return None


def sell(state: LastWillState, seat: int, card: str) -> list[Event]:
    player = state.players[seat]
    item = owned(player, card)
    assert item is not None
    pay(state, data.SELL_ACTIONS, free=free_key(FreeAction.BUY_OR_SELL, scope(item.kind)))
    price = sale_price(state, seat, card)
    player.board.remove(item)
    piles.discard(state, card)
    earn(state, seat, price)
    return [Event("sold", seat, {"card": card, "price": price, "free": False})]


def drop_problem(state: LastWillState, seat: int, card: str) -> IllegalAction | None:
    if owned(state.players[seat], card) is None or card not in BLACKS:
        return IllegalAction("no_board_helper")
    return None


def drop(state: LastWillState, seat: int, card: str) -> list[Event]:
    player = state.players[seat]
    item = owned(player, card)
    assert item is not None
    player.board.remove(item)
    piles.discard(state, card)
    return [Event("dropped", seat, {"card": card})]


def switch_problem(state: LastWillState, seat: int, card: str, kind: str) -> IllegalAction | None:
    item = owned(state.players[seat], card)
    prop = PROPERTIES.get(card)
    if item is None or prop is None or len(prop.types) < 2:
        return IllegalAction("no_dual")
    if kind not in prop.types or kind == item.kind:
        return IllegalAction("switch_other")
    return None


def switch(state: LastWillState, seat: int, card: str, kind: str) -> list[Event]:
    item = owned(state.players[seat], card)
    assert item is not None
    item.kind = kind
    return [Event("switched", seat, {"card": card, "type": kind})]


# --- the Personal Secretary ------------------------------------------------------------------


def secretary(state: LastWillState, seat: int) -> tuple[Owned, DrawAndKeep] | None:
    for item, privilege in privileges(state.players[seat], DrawAndKeep):
        if not item.done:
            return item, privilege
    return None


def sec_problem(state: LastWillState, seat: int, deck: str) -> IllegalAction | None:
    if secretary(state, seat) is None:
        return IllegalAction("no_secretary")
    if deck not in REGULAR or available(state, deck) == 0:
        return IllegalAction("secretary_deck")
    return None


def sec(state: LastWillState, seat: int, deck: str) -> list[Event]:
    found = secretary(state, seat)
    assert found is not None
    item, privilege = found
    item.done = True
    events: list[Event] = []
    cards = [piles.draw(state, deck, events) for _ in range(privilege.draw)]
    cards = [c for c in cards if c]
    state.pending = Pending(seat, [PICK], source=item.card, cards=cards)
    events.append(Event("secretary_drew", seat, {"deck": deck, "count": len(cards)}))
    events.append(Event("secretary_drew", seat, {"cards": list(cards)}, visible_to=alone(seat)))
    return events + run(state)


# --- listing ---------------------------------------------------------------------------------


_LAYS: dict[str, Action] = {card: move("lay", (card,)) for card in BLACKS}
_USES: dict[str, Action] = {card: move("use", (card,)) for card in BLACKS}
_DROPS: dict[str, Action] = {card: move("drop", (card,)) for card in BLACKS}
_KEEPS: dict[str, Action] = {card: move("keep", (card,)) for card in PROPERTIES}
_SELLS: dict[str, Action] = {card: move("sell", (card,)) for card in PROPERTIES}
_BUYS: dict[str, tuple[tuple[str, Action], ...]] = {
    card: tuple(
        (kind.value, move("buy", (card, kind.value) if len(prop.types) > 1 else (card,)))
        for kind in prop.types
    )
    for card, prop in PROPERTIES.items()
}
_SWITCHES: dict[str, tuple[tuple[str, Action], ...]] = {
    card: tuple((kind.value, move("as", (card, kind.value))) for kind in prop.types)
    for card, prop in PROPERTIES.items()
}
_ANY_COMPANION = tuple(c.value for c in data.Companion)
"""Each card's moves and type names built once: the listing runs on every Actions-phase step, and
an enum's ``.value`` is a slow attribute in Python."""


def board_actions(state: LastWillState, seat: int) -> list[Action]:
    """Every board move the seat may make now.  Each move is listed where its ``*_problem``
    finds nothing; the cheap tests of the same function run first (a free space, the actions
    left, a card not yet maintained or used), since a refusal is an exception object built for
    nothing, and most listings come late in a turn when the actions are spent."""
    player = state.players[seat]
    found: list[Action] = []
    room = free_spaces(player) > 0
    for card in dict.fromkeys(player.hand):
        black = BLACKS.get(card)
        if black is not None:
            if room and can_pay(state, black.lay_actions) and lay_problem(state, seat, card) is None:
                found.append(_LAYS[card])
        elif card in PROPERTIES:
            if room:
                for kind, action in _BUYS[card]:
                    if (
                        _can_trade(state, data.BUY_ACTIONS, kind)
                        and buy_problem(state, seat, card, kind) is None
                    ):
                        found.append(action)
        elif card in COMPANIONS and can_pay(state, data.COMPANION_TOKEN_ACTIONS):
            record = COMPANIONS[card]
            kinds = _ANY_COMPANION if record.companion is None else (record.companion.value,)
            for item in player.board:
                slot = next_slot(item)
                if slot is None:  # no free slot: token_problem would refuse every kind
                    continue
                for name in kinds:
                    if name in slot.accepts and token_problem(state, seat, item.card, card, name) is None:
                        args = (item.card, card, name) if record.companion is None else (item.card, card)
                        found.append(move("token", args))
    for item in player.board:
        card = item.card
        if card in PROPERTIES:
            if (
                not item.done
                and can_pay(state, data.MAINTAIN_ACTIONS, free=_free_key(FreeAction.MAINTAIN, item.kind))
                and keep_problem(state, seat, card) is None
            ):
                found.append(_KEEPS[card])
            if _can_trade(state, data.SELL_ACTIONS, item.kind) and sell_problem(state, seat, card) is None:
                found.append(_SELLS[card])
            for kind, action in _SWITCHES[card]:
                if kind != item.kind:
                    found.append(action)
        else:
            expense = BLACKS[card].expense
            if (
                expense is not None
                and not item.done
                and can_pay(state, expense.actions)
                and use_problem(state, seat, card) is None
            ):
                found.append(_USES[card])
            found.append(_DROPS[card])
    if secretary(state, seat) is not None:
        found += [move("sec", (deck,)) for deck in REGULAR if available(state, deck)]
    return found


def _can_trade(state: LastWillState, cost: int, kind: str) -> bool:
    """Whether the turn can pay a buy or a sale of this type: its actions or an Estate Agent's
    free action (the test ``buy_problem`` and ``sell_problem`` make)."""
    return can_pay(state, cost, free=_free_key(FreeAction.BUY_OR_SELL, kind))


_FREE_KEYS: dict[tuple[FreeAction, str], str] = {
    (action, kind.value): free_key(action, scope(kind.value))
    for action in (FreeAction.BUY_OR_SELL, FreeAction.MAINTAIN)
    for kind in data.PropertyType
}
"""The budget key of a free buy, sale or upkeep by property type, for the listing's tests."""


def _free_key(action: FreeAction, kind: str) -> str:
    """``free_key(action, scope(kind))`` as one lookup (any other text falls back to it)."""
    return _FREE_KEYS.get((action, kind)) or free_key(action, scope(kind))
