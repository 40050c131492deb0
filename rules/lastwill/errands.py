"""Errands (§3.4, §5): up to three passes in plan order, one errand boy per player a pass.

Space tokens in ``boy.<space>``: ``slot<k>`` (offering slot k, ``slotx`` the new special slot),
``one-<deck>`` (draw one card), ``opera``, ``ext``, ``demote``, ``demext``; the property market is
``market.<t1>.<t2>`` (the swap is the placement).  ``hold`` keeps the boy home; a player with no
legal space holds without being asked.  Occupancy lives in ``state.errands`` (space -> seats),
keyed ``one`` for every draw-one boy since that space has one limit: one boy per player a round.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from rules.core import Action, Event, IllegalAction
from rules.lastwill import data
from rules.lastwill.cards import can_spend, opera_cost, spend
from rules.lastwill.data import EmploymentMode, Errand
from rules.lastwill.employment import ANY, may_demote
from rules.lastwill.moves import move
from rules.lastwill.pending import DX, DX_DEMOTE, DX_EXT, LINE, extension, run
from rules.lastwill.piles import available, draw
from rules.lastwill.state import ERRANDS, Handoff, LastWillState, Pending, alone
from rules.lastwill.turn import current, plan_of

REGULAR = tuple(d.value for d in data.REGULAR_DECKS)
ONE = "one"
SHARED_LABELS = frozenset(data.SHARED_OFFERING_SLOTS)
SLOT_SPACES: dict[str, str] = {
    slot.label: f"slot{slot.label.lower()}"
    for players in range(data.MIN_PLAYERS, data.MAX_PLAYERS + 1)
    for expansion in (False, True)
    for slot in data.offering_slots(players, expansion)
}
"""Each offering slot's errand space token (``slot1`` .. ``slot9``, ``slotx``), by slot label."""
SHARED_SPACES = frozenset(SLOT_SPACES[label] for label in SHARED_LABELS)
TYPES = tuple(t.value for t in data.PROPERTY_TYPES)
SWAPS = tuple(combinations(TYPES, 2))
ONE_SPACES: dict[str, str] = {deck: f"one-{deck}" for deck in REGULAR}


def start_errands(state: LastWillState) -> list[Event]:
    state.phase = ERRANDS
    state.errand_pass = 1
    state.cursor = 0
    return advance(state)


def _passes(state: LastWillState) -> int:
    return max(plan_of(state, seat).boys for seat in state.order)


def advance(state: LastWillState) -> list[Event]:
    """Skip to the next boy that has somewhere to go; after the last pass, hand over to the
    Actions phase."""
    events: list[Event] = []
    while True:
        if state.cursor >= len(state.order):
            state.errand_pass += 1
            state.cursor = 0
            if state.errand_pass > _passes(state):
                state.errand_pass = 0
                state.handoff = Handoff.ACTIONS
                return events
        seat = current(state)
        if plan_of(state, seat).boys >= state.errand_pass:
            if has_placement(state, seat):
                return events
            events.append(Event("held", seat, {"forced": True, "pass": state.errand_pass}))
        state.cursor += 1


# --- what is open ----------------------------------------------------------------------------


_SPACE_ERRANDS: dict[str, Errand] = {
    "opera": Errand.OPERA,
    "market": Errand.MARKET,
    "ext": Errand.EXTENSION,
    "demote": Errand.DEMOTION,
    "demext": Errand.DEMOTION_OR_EXTENSION,
}


def _capacity(space: str, expansion: bool, players: int) -> int:
    if space == "ext" and not expansion and players == 5:
        return data.BASE_EXTENSION_SPACES_FIVE_PLAYERS
    capacity = data.ERRANDS[_SPACE_ERRANDS[space]].capacity
    assert capacity is not None
    return capacity


_CAPACITIES: dict[tuple[bool, int], dict[str, int]] = {
    (expansion, players): {space: _capacity(space, expansion, players) for space in _SPACE_ERRANDS}
    for expansion in (False, True)
    for players in range(data.MIN_PLAYERS, data.MAX_PLAYERS + 1)
}
"""Every limited space's capacity by table (expansion, players), worked out once: every errand
turn asks for each."""


def capacity(state: LastWillState, space: str) -> int:
    """Boys the space takes in all this round (the draw-one space has no such limit)."""
    return _CAPACITIES[state.expansion, len(state.players)][space]


def _full(state: LastWillState, space: str) -> bool:
    return len(state.errands.get(space, ())) >= capacity(state, space)


def _employed(state: LastWillState, seat: int) -> bool:
    return state.employment != EmploymentMode.NONE and bool(state.players[seat].job)


def dx_options(state: LastWillState, seat: int) -> list[str]:
    """What the demotion-or-extension space gives this seat now (the 5-player rule, rulebook)."""
    overflow = state.count in data.OVERFLOW_RULE_PLAYERS
    found = []
    if _employed(state, seat) and (not overflow or _full(state, "demote")):
        found.append(DX_DEMOTE)
    if state.extensions_left > 0 and (not overflow or _full(state, "ext")):
        found.append(DX_EXT)
    return found


def open_slots(state: LastWillState) -> list[str]:
    """The offering slots a boy may go to now: holding a card, not taken this round, and with 2-3
    players slots 1-3 only while fewer than two of them are taken (public).  The shared slots
    are counted only at a table that shares them, since every errand turn asks."""
    offering = state.offering
    found = [SLOT_SPACES[s.label] for s in offering if s.card and s.boy < 0]
    if (
        len(state.players) in data.SHARED_OFFERING_PLAYERS
        and sum(1 for s in offering if s.label in SHARED_LABELS and s.boy >= 0)
        >= data.SHARED_OFFERING_CAPACITY
    ):
        return [space for space in found if space not in SHARED_SPACES]
    return found


def placements(state: LastWillState, seat: int) -> list[Action]:
    """Every space the seat's boy may go to now (``hold`` aside)."""
    return list(_placements(state, seat))


def _placements(state: LastWillState, seat: int) -> Iterator[Action]:
    """:func:`placements` one at a time, so a question about one space, or whether there is any,
    stops at the first answer (an errand is checked and the next boy found on every errand).
    ``_full`` is written out, the table's capacities looked up once, for the same reason."""
    for space in open_slots(state):
        yield _BOY_MOVES[space]
    boys = state.errands
    room = _CAPACITIES[state.expansion, len(state.players)]
    if seat not in boys.get(ONE, ()):
        for deck, action in _ONE_MOVES:
            if available(state, deck):
                yield action
    if len(boys.get("opera", ())) < room["opera"] and can_spend(state.players[seat], data.OPERA_SPEND):
        yield _BOY_MOVES["opera"]
    if len(boys.get("market", ())) < room["market"]:
        yield from _MARKET_MOVES
    if len(boys.get("ext", ())) < room["ext"] and state.extensions_left > 0:
        yield _BOY_MOVES["ext"]
    if state.expansion and _employed(state, seat) and len(boys.get("demote", ())) < room["demote"]:
        yield _BOY_MOVES["demote"]
    if state.expansion and len(boys.get("demext", ())) < room["demext"] and dx_options(state, seat):
        yield _BOY_MOVES["demext"]


_BOY_MOVES: dict[str, Action] = {
    space: move("boy", (space,))
    for space in (*SLOT_SPACES.values(), *ONE_SPACES.values(), "opera", "ext", "demote", "demext")
}
_ONE_MOVES: tuple[tuple[str, Action], ...] = tuple((deck, _BOY_MOVES[ONE_SPACES[deck]]) for deck in REGULAR)
_MARKET_MOVES: tuple[Action, ...] = tuple(move("market", swap) for swap in SWAPS)
"""Every errand move built once, looked up while the open spaces are listed on each errand."""


def has_placement(state: LastWillState, seat: int) -> bool:
    """Whether the seat's boy has anywhere to go (else it holds without being asked)."""
    return next(_placements(state, seat), None) is not None


def errand_problem(state: LastWillState, seat: int, action: Action) -> IllegalAction | None:
    if state.phase != ERRANDS:
        return IllegalAction("errands_phase")
    if current(state) != seat:
        return IllegalAction("not_your_errand")
    if action.kind == "hold":
        return None
    # Listed moves are shared objects (``moves``), so one is found by identity without calling
    # ``Action.__eq__`` on every space before it; an equal copy (a decoded button) takes the
    # second, comparing look.
    if any(open_ is action for open_ in _placements(state, seat)) or action in _placements(state, seat):
        return None
    return IllegalAction("errand_closed")


# --- going there -----------------------------------------------------------------------------


def place(state: LastWillState, seat: int, action: Action) -> list[Event]:
    """Resolve the errand at once (§3.4), then move on to the next boy."""
    events: list[Event] = []
    if action.kind == "hold":
        events.append(Event("held", seat, {"forced": False, "pass": state.errand_pass}))
    elif action.kind == "market":
        first, second = str(action.args[0]), str(action.args[1])
        market = state.market
        market[first], market[second] = market[second], market[first]
        state.errands.setdefault("market", []).append(seat)
        events.append(Event("market_swapped", seat, {"types": [first, second], "market": dict(market)}))
    else:
        events += _go(state, seat, str(action.args[0]))
    state.cursor += 1
    if state.pending is None:
        events += advance(state)
    return events


def _go(state: LastWillState, seat: int, space: str) -> list[Event]:
    player = state.players[seat]
    if space.startswith("slot"):
        slot = next(s for s in state.offering if SLOT_SPACES[s.label] == space)
        card, slot.card, slot.boy = slot.card, "", seat
        player.hand.append(card)
        return [Event("errand", seat, {"space": space, "card": card})]
    if space.startswith("one-"):
        deck = space[len("one-") :]
        state.errands.setdefault(ONE, []).append(seat)
        events: list[Event] = []
        card = draw(state, deck, events)
        player.hand.append(card)
        events.append(Event("errand", seat, {"space": space, "deck": deck}))
        events.append(Event("errand", seat, {"space": space, "card": card}, visible_to=alone(seat)))
        return events
    state.errands.setdefault(space, []).append(seat)
    if space == "opera":
        money = opera_cost(state, seat)
        spend(state, seat, money)
        events = [Event("errand", seat, {"space": space, "money": money, "bonus": money - data.OPERA_SPEND})]
        return events + _offer(state, seat, space, [data.OPERA_SYMBOL.value])
    if space == "ext":
        return [Event("errand", seat, {"space": space}), *extension(state, seat)]
    if space == "demote":
        return [Event("errand", seat, {"space": space}), *_offer(state, seat, space, [ANY])]
    options = dx_options(state, seat)
    events = [Event("errand", seat, {"space": space, "options": options})]
    if len(options) == 2:
        state.pending = Pending(seat, [DX], source=space, symbols=[ANY])
        return events
    if options == [DX_EXT]:
        return events + extension(state, seat)
    return events + _offer(state, seat, space, [ANY])


def _offer(state: LastWillState, seat: int, source: str, symbols: list[str]) -> list[Event]:
    if not may_demote(state, seat):
        return []
    state.pending = Pending(seat, [LINE], source=source, symbols=symbols)
    return run(state)
