"""Property facts and any-time holdings rules: sets, rent, building, selling, mortgaging, net worth.

Each ``*_problem`` function returns the refusal of an action (an ``IllegalAction`` naming its
reason, not yet raised), or ``None`` when it is legal; ``legal_actions`` and ``apply`` both ask the same function, so a listed action always
applies and a refused one is explained the same way everywhere.  Nothing here changes the
state except the ``do_*`` functions, which run only after their problem check said ``None``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.core import Action, Event, IllegalAction
from rules.monopoly import data, moves
from rules.monopoly.state import MonopolyState
from rules.monopoly.tokens import space_token

B = data.BOARD


def group_of(pos: int) -> tuple[int, ...]:
    return data.GROUPS[B[pos].group]


def full_set(state: MonopolyState, seat: int, pos: int) -> bool:
    """``seat`` owns every site of ``pos``'s colour group."""
    return all(state.owner[p] == seat for p in group_of(pos))


def group_levels(state: MonopolyState, pos: int) -> list[int]:
    return [state.level[p] for p in group_of(pos)]


def improved(state: MonopolyState, pos: int) -> bool:
    """Any building on ``pos``'s colour group (airports and utilities never have any)."""
    return B[pos].kind == data.SITE and any(group_levels(state, pos))


def rent(state: MonopolyState, pos: int, dice_total: int, card: bool = False) -> int:
    """Rent due for landing on an owned, unmortgaged ``pos``; ``card``: the "nearest" cards' rent.

    Sites: by deed, doubled unimproved for a full unmortgaged set; airports by how many the owner
    holds (mortgaged ones count: chosen); utilities 4x / 10x the dice, 10x for the card.
    """
    owner = state.owner[pos]
    space = B[pos]
    if owner is None or state.mortgaged[pos]:
        return 0
    if space.kind == data.SITE:
        level = state.level[pos]
        if level:
            return space.rents[level]
        whole = full_set(state, owner, pos) and not any(state.mortgaged[p] for p in group_of(pos))
        return space.rents[0] * (data.FULL_SET_MULTIPLIER if whole else 1)
    held = [p for p in group_of(pos) if state.owner[p] == owner]
    if not data.AIRPORTS_COUNT_MORTGAGED:
        held = [p for p in held if not state.mortgaged[p]]
    if space.kind == data.AIRPORT:
        base = data.AIRPORT_RENT[len(held)]
        return base * (data.NEAREST_AIRPORT_RENT_MULTIPLIER if card else 1)
    multiplier = data.NEAREST_UTILITY_MULTIPLIER if card else data.UTILITY_MULTIPLIER[len(held)]
    return multiplier * dice_total


# --- money ----------------------------------------------------------------------------------


def to_bank(state: MonopolyState, seat: int, amount: int) -> None:
    state.cash[seat] -= amount
    state.bank += amount


def from_bank(state: MonopolyState, seat: int, amount: int) -> None:
    state.cash[seat] += amount
    state.bank -= amount


def transfer(state: MonopolyState, payer: int, payee: int, amount: int) -> None:
    state.cash[payer] -= amount
    state.cash[payee] += amount


# --- building -------------------------------------------------------------------------------


def build_item(state: MonopolyState, pos: int) -> str:
    """What building ``pos`` would get next: a "hotel" on four houses, else a "house"."""
    return "hotel" if state.level[pos] == data.MAX_HOUSES else "house"


def build_rule_problem(
    state: MonopolyState, seat: int, pos: int, *, cash: bool = True
) -> IllegalAction | None:
    """Why ``seat`` may not put the next building on ``pos`` (supply aside), or ``None``."""
    if not 0 <= pos < data.SPACES or B[pos].kind != data.SITE:
        return IllegalAction("build_not_site")
    if state.owner[pos] != seat:
        return IllegalAction("not_yours", space=pos)
    if not full_set(state, seat, pos):
        return IllegalAction("need_group", space=pos, group=B[pos].group)
    if any(state.mortgaged[p] for p in group_of(pos)):
        return IllegalAction("group_mortgaged", space=pos)
    level = state.level[pos]
    if level >= data.HOTEL:
        return IllegalAction("has_hotel", space=pos)
    if level > min(group_levels(state, pos)):
        return IllegalAction("build_evenly", space=pos, group=B[pos].group)
    cost = B[pos].house_cost
    if cash and state.cash[seat] < cost:
        return IllegalAction("build_short", space=pos, cost=cost, cash=state.cash[seat])
    return None


def supply(state: MonopolyState, item: str) -> int:
    return state.hotels if item == "hotel" else state.houses


def could_build(state: MonopolyState, seat: int, item: str) -> list[int]:
    """Sites where ``seat`` could legally put a building of kind ``item`` now (cash included)."""
    return [
        pos
        for pos in data.PROPERTIES
        if state.owner[pos] == seat
        and B[pos].kind == data.SITE
        and build_item(state, pos) == item
        and build_rule_problem(state, seat, pos) is None
    ]


def do_build(state: MonopolyState, seat: int, pos: int, price: int) -> Event:
    """Put the next building on ``pos`` for ``price`` (list price, or a shortage auction's bid)."""
    item = build_item(state, pos)
    to_bank(state, seat, price)
    if item == "hotel":
        state.hotels -= 1
        state.houses += data.MAX_HOUSES
    else:
        state.houses -= 1
    state.level[pos] += 1
    return Event(
        "built",
        seat,
        {"space": pos, "token": space_token(pos), "item": item, "price": price, "level": state.level[pos]},
    )


def sell_problem(state: MonopolyState, seat: int, pos: int) -> IllegalAction | None:
    if not 0 <= pos < data.SPACES or B[pos].kind != data.SITE:
        return IllegalAction("sell_not_site")
    if state.owner[pos] != seat:
        return IllegalAction("not_yours", space=pos)
    if state.level[pos] == 0:
        return IllegalAction("no_buildings", space=pos)
    if state.level[pos] < max(group_levels(state, pos)):
        return IllegalAction("sell_evenly", space=pos, group=B[pos].group)
    return None


def do_sell(state: MonopolyState, seat: int, pos: int) -> Event:
    """Sell one building at half price; a hotel comes back as four houses from the bank.

    With fewer than four houses in the bank the group is sold down evenly instead
    (:func:`sold_down`), and every building removed is refunded at half price: the hotel's
    site could not stand alone below its neighbours without breaking the evenness rule."""
    half = B[pos].house_cost // data.SELL_BACK_DIVISOR
    group_after: dict[str, object] = {}
    if state.level[pos] == data.HOTEL:
        group = data.GROUP_AT[pos]
        before = [state.level[p] for p in group]
        after = sold_down(state, pos)
        state.hotels += sum(lv == data.HOTEL for lv in before) - sum(lv == data.HOTEL for lv in after)
        state.houses += _houses(before) - _houses(after)
        for p, lv in zip(group, after, strict=True):
            state.level[p] = lv
        sold = sum(before) - sum(after)
        item = "hotel"
        if sold > 1:
            group_after = {"spaces": list(group), "levels": after}
    else:
        sold = 1
        state.houses += 1
        state.level[pos] -= 1
        item = "house"
    refund = half * sold
    from_bank(state, seat, refund)
    params: dict[str, object] = {
        "space": pos,
        "token": space_token(pos),
        "item": item,
        "refund": refund,
        "level": state.level[pos],
        "sold": sold,
    }
    return Event("sold_building", seat, params | group_after)


def _houses(levels: Sequence[int]) -> int:
    """Houses standing on sites at ``levels`` (a hotel holds none)."""
    return sum(lv for lv in levels if lv < data.HOTEL)


def sold_down(state: MonopolyState, pos: int) -> list[int]:
    """The levels of ``pos``'s group (in board order) once the hotel on ``pos`` is sold.

    Chosen (components §3, ``data.HOTEL_SALE_KEEPS_GROUP_EVEN``): the highest even levels
    (a hotel counts as five houses) that the houses on the group plus the bank's allow, no site
    rising and no hotel added, the hotel's site kept at four houses at most; of those, the one
    leaving ``pos`` the most, then the dearer sites (the later on the board among equals).
    With four houses in the bank that is the plain rule: ``pos`` goes down to four houses and
    nothing else moves.  A group has at most three sites, so every choice is tried."""
    group = data.GROUP_AT[pos]
    now = [state.level[p] for p in group]
    houses = _houses(now) + state.houses
    others = sorted(
        (i for i, p in enumerate(group) if p != pos),
        key=lambda i: (B[group[i]].price, group[i]),
        reverse=True,
    )
    here = group.index(pos)
    best: tuple[tuple[int, ...], list[int]] | None = None
    for levels in _level_choices(now, here):
        if max(levels) - min(levels) > 1 or _houses(levels) > houses:
            continue
        key = (sum(levels), levels[here], *(levels[i] for i in others))
        if best is None or key > best[0]:
            best = (key, levels)
    assert best is not None  # every site at zero always fits
    return best[1]


def _level_choices(now: list[int], here: int) -> list[list[int]]:
    """Every levels list no higher than ``now``, with no new hotel and none left on ``here``."""
    choices: list[list[int]] = [[]]
    for i, level in enumerate(now):
        top = min(level, data.MAX_HOUSES) if i == here else level
        choices = [[*c, lv] for c in choices for lv in range(top + 1)]
    return choices


def mortgage_problem(state: MonopolyState, seat: int, pos: int) -> IllegalAction | None:
    if not 0 <= pos < data.SPACES or not B[pos].price:
        return IllegalAction("mortgage_not_property")
    if state.owner[pos] != seat:
        return IllegalAction("not_yours", space=pos)
    if state.mortgaged[pos]:
        return IllegalAction("already_mortgaged", space=pos)
    if improved(state, pos):
        return IllegalAction("sell_before_mortgage", space=pos, group=B[pos].group)
    return None


def do_mortgage(state: MonopolyState, seat: int, pos: int) -> Event:
    value = data.mortgage_value(pos)
    state.mortgaged[pos] = True
    from_bank(state, seat, value)
    return Event("mortgaged", seat, {"space": pos, "token": space_token(pos), "value": value})


def repay_problem(state: MonopolyState, seat: int, pos: int) -> IllegalAction | None:
    if not 0 <= pos < data.SPACES or not B[pos].price:
        return IllegalAction("repay_not_property")
    if state.owner[pos] != seat:
        return IllegalAction("not_yours", space=pos)
    if not state.mortgaged[pos]:
        return IllegalAction("not_mortgaged", space=pos)
    cost = data.repay_cost(pos)
    if state.cash[seat] < cost:
        return IllegalAction("repay_short", space=pos, cost=cost, cash=state.cash[seat])
    return None


def do_repay(state: MonopolyState, seat: int, pos: int) -> Event:
    cost = data.repay_cost(pos)
    state.mortgaged[pos] = False
    to_bank(state, seat, cost)
    return Event("repaid", seat, {"space": pos, "token": space_token(pos), "cost": cost})


@dataclass(slots=True)
class Index:
    """What listing actions reads from the holdings, per seat, kept on the state as ``state.memo``.

    Random play and a bot's playouts list every seat's actions at nearly every step, while the
    holdings (owners, buildings, mortgages, the bank's buildings, who is still in) change only
    on a purchase, a trade, a building, a mortgage or a bankruptcy.  The index is checked against
    the state at every use (a few list and int comparisons, cheap next to what it saves) and
    rebuilt when anything differs, so a state changed by hand (tests arrange positions that way)
    never gets stale facts; it is never saved.  Per seat, filled when first asked: ``holding``
    (see :func:`holding_actions`), ``trading`` (``give``/``want`` actions for its unimproved
    property), ``free`` (that property as a set), ``deals`` (``deal.<seat>`` for every other
    seat still in) and ``owned`` (its property, which a mortgage does not change).
    """

    owner: list[int | None]
    level: list[int]
    mortgaged: list[bool]
    alive: list[bool]
    houses: int
    hotels: int
    holding: dict[int, list[tuple[Action, int, bool]]] = field(default_factory=dict)
    trading: dict[tuple[str, int], list[Action]] = field(default_factory=dict)
    free: dict[int, frozenset[int]] = field(default_factory=dict)
    deals: dict[int, list[Action]] = field(default_factory=dict)
    owned: dict[int, list[int]] = field(default_factory=dict)


def index(state: MonopolyState) -> Index:
    """The state's :class:`Index`, brought up to date with its holdings.

    A mortgage taken or repaid (random play's most frequent change of holdings) forgets only its
    owner's ``holding`` entries: building, selling and mortgaging a property depend on mortgages
    within its group, whose sites are then all that owner's, and trading ignores mortgages.  Any
    other change starts an empty index."""
    memo: Index | None = state.memo
    if (
        memo is not None
        and memo.owner == state.owner
        and memo.level == state.level
        and memo.alive == state.alive
        and memo.houses == state.houses
        and memo.hotels == state.hotels
    ):
        if memo.mortgaged != state.mortgaged:
            was, now = memo.mortgaged, state.mortgaged
            for pos in data.PROPERTIES:
                holder = state.owner[pos]
                if was[pos] != now[pos] and holder is not None:
                    memo.holding.pop(holder, None)
            memo.mortgaged = list(now)
        return memo
    memo = Index(
        list(state.owner),
        list(state.level),
        list(state.mortgaged),
        list(state.alive),
        state.houses,
        state.hotels,
    )
    state.memo = memo
    return memo


NO_CASH = -(1 << 62)
"""The cash an action needs when it needs none (selling, mortgaging)."""


def holding_actions(state: MonopolyState, memo: Index, seat: int, calm: bool) -> list[Action]:
    """``build``, ``sell``, ``mort`` and ``unmort`` open to ``seat``, property by property in board
    order (building and repaying only when ``calm``: nobody is in debt).

    Exactly what asking :func:`shortage.build_problem <rules.monopoly.shortage.build_problem>`,
    :func:`sell_problem`, :func:`mortgage_problem` and :func:`repay_problem` of each property
    says (``tests/rules/test_monopoly_speed.py`` compares the two).  What depends on the
    holdings alone comes from the :class:`Index`; only cash and calm are read per call, since
    this runs for every seat at nearly every step of play, where it was most of the engine's time.
    ``memo`` is the state's :func:`index`.
    """
    entries = memo.holding.get(seat)
    if entries is None:
        owned = memo.owned.get(seat)
        if owned is None:
            owner = state.owner
            owned = memo.owned[seat] = [pos for pos in data.PROPERTIES if owner[pos] == seat]
        entries = memo.holding[seat] = _holding_entries(state, seat, owned)
    cash = state.cash[seat]
    if calm:
        return [action for action, need, _quiet in entries if cash >= need]
    return [action for action, need, quiet in entries if not quiet and cash >= need]


def _holding_entries(state: MonopolyState, seat: int, owned: list[int]) -> list[tuple[Action, int, bool]]:
    """``seat``'s holding actions as the holdings allow them: (action, cash it needs, whether it
    waits for calm), in the order :func:`holding_actions` lists them; ``owned`` is the seat's
    property in board order."""
    owner, level, mortgaged = state.owner, state.level, state.mortgaged
    entries: list[tuple[Action, int, bool]] = []
    for pos in owned:
        held_mortgaged = mortgaged[pos]
        if data.IS_SITE[pos]:
            group = data.GROUP_AT[pos]
            here = level[pos]
            levels = [level[p] for p in group]
            low, high = min(levels), max(levels)
            if (
                here == low
                and here < data.HOTEL
                and (state.hotels if here == data.MAX_HOUSES else state.houses) > 0
                and all(owner[p] == seat for p in group)
                and not any(mortgaged[p] for p in group)
            ):
                entries.append((moves.at("build", pos), B[pos].house_cost, True))
            if here and here >= high:
                entries.append((moves.at("sell", pos), NO_CASH, False))
            if not held_mortgaged and not high:
                entries.append((moves.at("mort", pos), NO_CASH, False))
        elif not held_mortgaged:
            entries.append((moves.at("mort", pos), NO_CASH, False))
        if held_mortgaged:
            entries.append((moves.at("unmort", pos), data.REPAY_COST[pos], True))
    return entries


def unimproved(state: MonopolyState) -> Sequence[int]:
    """Every property that may change hands as far as buildings go (what ``deals.tradeable``
    asks of each one, for the whole board at once): all of them until a group is built on."""
    level = state.level
    built = {B[p].group for p in data.SITES if level[p]}
    if not built:
        return data.PROPERTIES
    return [p for p in data.PROPERTIES if not data.IS_SITE[p] or B[p].group not in built]


def trade_actions(state: MonopolyState, memo: Index, kind: str, holder: int) -> list[Action]:
    """``give.<pos>`` (or ``want.<pos>``) for every unimproved property ``holder`` owns, from
    ``memo`` (the state's :func:`index`: a draft's toggles are listed at every step a draft is open)."""
    key = (kind, holder)
    found = memo.trading.get(key)
    if found is None:
        owner = state.owner
        found = memo.trading[key] = [moves.at(kind, p) for p in unimproved(state) if owner[p] == holder]
    return found


def free_of(state: MonopolyState, memo: Index, holder: int) -> frozenset[int]:
    """The properties ``holder`` may trade (owned, no building on their group), from ``memo``:
    every ``p`` with ``deals.tradeable(state, holder, p)``."""
    found = memo.free.get(holder)
    if found is None:
        owner = state.owner
        found = memo.free[holder] = frozenset(p for p in unimproved(state) if owner[p] == holder)
    return found


# --- worth ----------------------------------------------------------------------------------


def building_worth(state: MonopolyState, pos: int) -> int:
    """Houses at their price, a hotel at five house prices (components §3)."""
    return state.level[pos] * B[pos].house_cost


def net_worth(state: MonopolyState, seat: int) -> int:
    """Cash + unmortgaged property at price + mortgaged at half + buildings at cost."""
    worth = state.cash[seat]
    for pos in data.PROPERTIES:
        if state.owner[pos] == seat:
            worth += data.mortgage_value(pos) if state.mortgaged[pos] else B[pos].price
            worth += building_worth(state, pos)
    return worth


def raisable(state: MonopolyState, seat: int) -> int:
    """Cash the seat could have by selling every building and mortgaging every property."""
    total = state.cash[seat]
    for pos in data.PROPERTIES:
        if state.owner[pos] == seat:
            total += building_worth(state, pos) // data.SELL_BACK_DIVISOR
            if not state.mortgaged[pos]:
                total += data.mortgage_value(pos)
    return total


def properties_of(state: MonopolyState, seat: int) -> list[int]:
    return [pos for pos in data.PROPERTIES if state.owner[pos] == seat]
