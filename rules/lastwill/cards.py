"""Card records by kind, and every price, upkeep, bonus and spending limit read from them.

The engine asks these questions on every ``legal_actions`` call, so the records are split into
typed dicts once (a lookup, not an ``isinstance`` chain) and each answer reads ``data`` only:
a host who corrects a number there changes what the game charges, nowhere else.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

from rules.lastwill import data
from rules.lastwill.data import (
    CompanionCard,
    CompanionSlot,
    EventCard,
    HelperCard,
    Privilege,
    PropertyCard,
    PropertyType,
    Scope,
    Symbol,
    Trade,
)
from rules.lastwill.state import LastWillState, Owned, Player

PROPERTIES: dict[str, PropertyCard] = {i: c for i, c in data.CARDS.items() if isinstance(c, PropertyCard)}
WHITES: dict[str, EventCard] = {i: c for i, c in data.CARDS.items() if isinstance(c, EventCard)}
BLACKS: dict[str, HelperCard] = {i: c for i, c in data.CARDS.items() if isinstance(c, HelperCard)}
COMPANIONS: dict[str, CompanionCard] = {i: c for i, c in data.CARDS.items() if isinstance(c, CompanionCard)}
SPECIAL_DECKS = frozenset(data.DECKS_LEAVING_GAME)
DECK_OF: dict[str, str] = {i: c.deck.value for i, c in data.CARDS.items()}
WILD = data.Deck.WILD.value
NUPTIALS = frozenset(data.NUPTIAL_CARDS)

P = TypeVar("P", bound=Privilege)


def scope(kind: str) -> Scope:
    """Estate Agents and Stewards work on farms or on the other three types."""
    return Scope.FARM if kind == PropertyType.FARM else Scope.NON_FARM


def symbols_of(card_id: str) -> tuple[Symbol, ...]:
    return data.CARDS[card_id].symbols


# --- the board ---------------------------------------------------------------------------------


def spaces(player: Player) -> int:
    return data.BOARD_SPACES + player.extensions * data.EXTENSION_SPACES


def free_spaces(player: Player) -> int:
    return spaces(player) - len(player.board)


def owned(player: Player, card_id: str) -> Owned | None:
    for item in player.board:
        if item.card == card_id:
            return item
    return None


def properties(player: Player) -> list[Owned]:
    return [o for o in player.board if o.card in PROPERTIES]


def has_property(player: Player) -> bool:
    return any(o.card in PROPERTIES for o in player.board)


_PRIVILEGES: dict[str, dict[type, tuple[Any, ...]]] = {
    card: {
        cls: tuple(p for p in black.privileges if isinstance(p, cls))
        for privilege in black.privileges
        for cls in type(privilege).__mro__
    }
    for card, black in BLACKS.items()
    if black.privileges
}
"""Each black card's privileges by every class they are an instance of, in printed order: what
``privileges`` filters with ``isinstance``, sorted once (prices, drawing and the Secretary ask
on every listing)."""


def privileges(player: Player, kind: type[P]) -> Iterator[tuple[Owned, P]]:
    """Each privilege of that kind on the player's laid black cards (copies stack)."""
    for item in player.board:
        by_kind = _PRIVILEGES.get(item.card)
        if by_kind is not None:
            for privilege in by_kind.get(kind, ()):
                yield item, privilege


def slots_of(card_id: str) -> tuple[CompanionSlot, ...]:
    prop = PROPERTIES.get(card_id)
    if prop is not None:
        return prop.slots
    black = BLACKS.get(card_id)
    if black is not None and black.expense is not None:
        return black.expense.slots
    return ()


def next_slot(item: Owned) -> CompanionSlot | None:
    """Slots fill left to right, so only the first empty one can take a token."""
    slots = slots_of(item.card)
    return slots[len(item.tokens)] if len(item.tokens) < len(slots) else None


def upkeep(item: Owned) -> int:
    """The last filled slot's amount replaces the printed upkeep."""
    if item.tokens:
        return PROPERTIES[item.card].slots[len(item.tokens) - 1].amount
    return PROPERTIES[item.card].upkeep


def depreciation_steps(item: Owned) -> int:
    slots = PROPERTIES[item.card].slots
    doubled = any(slots[i].doubles_depreciation for i in range(len(item.tokens)))
    return data.DOUBLED_DEPRECIATION_STEPS if doubled else data.DEPRECIATION_STEPS


def expense_amount(player: Player, item: Owned) -> int:
    expense = BLACKS[item.card].expense
    assert expense is not None
    if expense.formula is not None:
        formula = expense.formula
        farms = [o for o in player.board if o.kind == PropertyType.FARM]
        horses = sum(o.tokens.count(data.HORSE) for o in farms)
        dogs = sum(o.tokens.count(data.DOG) for o in farms)
        return formula.per_farm * len(farms) + formula.per_horse * horses + formula.per_dog * dogs
    if item.tokens:
        return expense.slots[len(item.tokens) - 1].amount
    return expense.amount


# --- money ---------------------------------------------------------------------------------------


def limited(player: Player) -> bool:
    """Property or a job forbids spending below £0 (§10); buying counts as holding property."""
    return bool(player.job) or has_property(player)


def allowance(player: Player, *, buying: bool = False) -> int | None:
    """Pounds the player may still spend; ``None``: no limit (debt allowed)."""
    if buying or limited(player):
        return player.money - data.SPEND_DOWN_TO
    return None


def can_spend(player: Player, amount: int, *, buying: bool = False) -> bool:
    room = allowance(player, buying=buying)
    return room is None or amount <= room


def shrink(player: Player, base: int, bonus: int) -> int:
    """Helper bonuses shrink to what cash allows once ``base`` is paid (chosen, §10)."""
    room = allowance(player)
    return bonus if room is None else max(0, min(bonus, room - base))


def spend(state: LastWillState, seat: int, amount: int) -> None:
    state.players[seat].money -= amount
    state.paid_in += amount


def earn(state: LastWillState, seat: int, amount: int) -> None:
    state.players[seat].money += amount
    state.paid_out += amount


def symbol_bonus(player: Player, symbols: tuple[Symbol, ...]) -> tuple[int, int]:
    """(automatic, optional) bonus for one card used: each matching helper once (§7)."""
    auto = optional = 0
    for _item, bonus in privileges(player, data.SymbolBonus):
        if any(s in bonus.symbols for s in symbols):
            if bonus.optional:
                optional += bonus.amount
            else:
                auto += bonus.amount
    return auto, optional


def gardener_bonus(player: Player, kind: str) -> int:
    return sum(b.amount for _i, b in privileges(player, data.MaintainBonus) if kind in b.types)


def opera_bonus(player: Player) -> int:
    return sum(b.amount for _i, b in privileges(player, data.OperaBonus))


def _agent(player: Player, trade: Trade, kind: str) -> int:
    where = scope(kind)
    return sum(
        m.amount for _i, m in privileges(player, data.PriceModifier) if m.trade is trade and m.scope is where
    )


def sale_value(state: LastWillState, player: Player, item: Owned, *, ignore_market: bool = False) -> int:
    value = PROPERTIES[item.card].track[item.step] + _agent(player, Trade.SELL, item.kind)
    if not ignore_market:
        value += state.market[item.kind]
    return max(data.PRICE_FLOOR, value)


# --- what a move spends or brings, by seat and card id -------------------------------------------
#
# The engine spends exactly these, and the host's labels show them before the move: each reads
# public facts only (the market tokens, the seat's money, board, job and helpers) plus the card
# ids the caller names, never a hand or a deck, so the table may show what they return.


def _mine(state: LastWillState, seat: int, card_id: str) -> tuple[Player, Owned]:
    player = state.players[seat]
    item = owned(player, card_id)
    assert item is not None, f"seat {seat} has no {card_id} on its board"
    return player, item


def buy_price(state: LastWillState, seat: int, card_id: str, kind: str) -> int:
    """Buying a property as ``kind``: its first value, the market token and the Estate Agents,
    never below the floor."""
    track = PROPERTIES[card_id].track
    price = track[0] + state.market[kind] + _agent(state.players[seat], Trade.BUY, kind)
    return max(data.PRICE_FLOOR, price)


def sale_price(state: LastWillState, seat: int, card_id: str, *, ignore_market: bool = False) -> int:
    """Selling a property on the seat's board (:func:`sale_value`)."""
    player, item = _mine(state, seat, card_id)
    return sale_value(state, player, item, ignore_market=ignore_market)


def maintain_cost(state: LastWillState, seat: int, card_id: str) -> int:
    """Maintaining a property: its upkeep, then the Gardeners' bonus as far as cash allows."""
    player, item = _mine(state, seat, card_id)
    base = upkeep(item)
    return base + shrink(player, base, gardener_bonus(player, item.kind))


def expense_cost(state: LastWillState, seat: int, card_id: str) -> int:
    """Using an expense card: its amount, then the automatic symbol bonuses as far as cash allows."""
    player, item = _mine(state, seat, card_id)
    base = expense_amount(player, item)
    auto = symbol_bonus(player, BLACKS[card_id].symbols)[0] if base > 0 else 0
    return base + shrink(player, base, auto)


def play_cost(state: LastWillState, seat: int, cards: Sequence[str], money: int) -> int:
    """Paying a white play of ``cards`` that spends ``money`` (its cards', a Ball level's, the
    companions added): that, then the automatic bonuses of its paying cards as far as cash allows."""
    player = state.players[seat]
    auto = sum(symbol_bonus(player, symbols_of(c))[0] for c in cards if WHITES[c].money > 0)
    return money + shrink(player, money, auto)


def opera_cost(state: LastWillState, seat: int) -> int:
    """The Opera errand: its spend, then the Opera bonuses as far as cash allows."""
    player = state.players[seat]
    return data.OPERA_SPEND + shrink(player, data.OPERA_SPEND, opera_bonus(player))


def token_amount(state: LastWillState, seat: int, target: str) -> int:
    """What a card on the seat's board costs to keep or use once a companion token fills its next
    slot; 0 when no slot is free."""
    slot = next_slot(_mine(state, seat, target)[1])
    return slot.amount if slot is not None else 0


def final_value(state: LastWillState, item: Owned) -> int:
    """No sale, so no Estate Agent (chosen); a dual property counts as its lower type (public)."""
    prop = PROPERTIES[item.card]
    kinds = prop.types if data.FINAL_VALUE_DUAL_LOWER else (PropertyType(item.kind),)
    return min(max(data.PRICE_FLOOR, prop.track[item.step] + state.market[k]) for k in kinds)


def hand_limit(player: Player) -> int:
    return data.HAND_LIMIT + sum(b.amount for _i, b in privileges(player, data.HandLimitBonus))


def is_nuptial(card_id: str) -> bool:
    return card_id in NUPTIALS
