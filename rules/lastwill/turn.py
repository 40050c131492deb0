"""The Actions phase (§3.5): whose turn it is, what it may spend, and how it ends.

A turn's budget is three counters: ``actions_left`` (the plan, Old Friends, Hectic Days),
``valet_left`` (the Valet's, for white cards only) and ``free`` (Stewards' and Estate Agents'
printed free actions by kind and scope).  Spending always takes the narrowest budget first (a
white card uses the Valet before a plain action, a buy uses an Estate Agent's free action),
which never leaves the player worse off, so the engine decides it instead of asking.
"""

from __future__ import annotations

from rules.core import Event, IllegalAction
from rules.lastwill import data
from rules.lastwill.cards import BLACKS, has_property
from rules.lastwill.data import ExtraAction, FreeAction, FreeActions, Scope
from rules.lastwill.state import ACTIONS, Handoff, LastWillState, Owned, PlanSpace

_FREE_KEYS: dict[tuple[FreeAction, Scope], str] = {
    (kind, where): f"{kind.value}:{where.value}" for kind in FreeAction for where in Scope
}
"""Every budget key, built once: each buy, sale and upkeep asks for one while moves are listed."""


def free_key(kind: FreeAction, where: Scope) -> str:
    """The budget key of a kind of free action on a scope of properties (``maintain:farm``)."""
    return _FREE_KEYS[kind, where]


def current(state: LastWillState) -> int:
    """The seat on turn in a sequential phase (plan order for drawing, errands and actions)."""
    return state.order[state.cursor]


def plan_of(state: LastWillState, seat: int) -> PlanSpace:
    """The seat's plan this round.  Plans are stored in position order from 1 (both the original
    boards and the tiles fill every position), so the position indexes the list; the search is
    kept for a state that breaks that order."""
    pos = state.players[seat].plan
    plans = state.plans
    if 0 < pos <= len(plans) and plans[pos - 1].pos == pos:
        return plans[pos - 1]
    return next(p for p in plans if p.pos == pos)


def grant(state: LastWillState, item: Owned) -> None:
    """What a laid card adds to this turn's budget: at turn start, or at once when laid (chosen)."""
    grants = _GRANTS.get(item.card)
    if grants is None:
        return
    for privilege in grants:
        if isinstance(privilege, ExtraAction):
            if privilege.white_only:
                state.valet_left += privilege.count
            else:
                state.actions_left += privilege.count
        else:
            key = free_key(privilege.kind, privilege.scope)
            state.free[key] = state.free.get(key, 0) + privilege.count


_GRANTS: dict[str, tuple[ExtraAction | FreeActions, ...]] = {
    card: found
    for card, black in BLACKS.items()
    if (found := tuple(p for p in black.privileges if isinstance(p, (ExtraAction, FreeActions))))
}
"""Each black card's budget privileges in printed order, picked out once: every turn start runs
:func:`grant` over the whole board, and most cards grant nothing."""


def start_actions(state: LastWillState) -> list[Event]:
    state.phase = ACTIONS
    state.cursor = 0
    return start_turn(state)


def start_turn(state: LastWillState) -> list[Event]:
    seat = current(state)
    state.actions_left = plan_of(state, seat).actions
    state.valet_left = 0
    state.free = {}
    for item in state.players[seat].board:
        grant(state, item)
    return [
        Event(
            "turn_started",
            seat,
            {"actions": state.actions_left, "valet": state.valet_left, "free": dict(state.free)},
        )
    ]


def can_pay(state: LastWillState, cost: int, *, white: bool = False, free: str = "") -> bool:
    if free and state.free.get(free, 0) > 0:
        return True
    return state.actions_left + (state.valet_left if white else 0) >= cost


def pay(state: LastWillState, cost: int, *, white: bool = False, free: str = "") -> None:
    if free and state.free.get(free, 0) > 0:
        state.free[free] -= 1
        return
    if white:
        valet = min(state.valet_left, cost)
        state.valet_left -= valet
        cost -= valet
    state.actions_left -= cost


def short(cost: int) -> IllegalAction:
    """The move costs ``cost`` actions and the turn has fewer left."""
    return IllegalAction("no_actions", actions=cost)


def too_dear(player_money: int, amount: int) -> IllegalAction:
    """Spending ``amount`` would take the seat below the floor (§10: never below £0 while it owns
    property or holds a job)."""
    return IllegalAction("too_dear", amount=amount, money=player_money, floor=data.SPEND_DOWN_TO)


def turn_problem(state: LastWillState, seat: int) -> IllegalAction | None:
    """Every Actions-phase move but answers needs the seat on turn (the engine refuses it while a
    choice is open, before any handler runs)."""
    if state.phase != ACTIONS:
        return IllegalAction("actions_phase")
    if current(state) != seat:
        return IllegalAction("not_your_turn")
    return None


def checked(state: LastWillState, seat: int) -> None:
    problem = turn_problem(state, seat)
    if problem is not None:
        raise problem


def bankrupt_problem(state: LastWillState, seat: int) -> IllegalAction | None:
    player = state.players[seat]
    if player.bankrupt:
        return IllegalAction("bankrupt_already")
    if player.job:
        return IllegalAction("bankrupt_employed")
    if has_property(player):
        return IllegalAction("bankrupt_property")
    if player.money > data.BANKRUPTCY_MAX_MONEY:
        return IllegalAction("bankrupt_money", money=data.BANKRUPTCY_MAX_MONEY)
    return None


def declare_bankruptcy(state: LastWillState, seat: int) -> list[Event]:
    state.players[seat].bankrupt = True
    state.last_round = True
    return [Event("bankrupt_declared", seat, {"money": state.players[seat].money, "round": state.round})]


def end_turn(state: LastWillState, seat: int) -> list[Event]:
    """Unused actions are lost (chosen); the last turn of the round hands over to its end."""
    events = [Event("turn_ended", seat, {"unused": state.actions_left + state.valet_left})]
    state.actions_left = state.valet_left = 0
    state.free = {}
    state.cursor += 1
    if state.cursor < len(state.order):
        return events + start_turn(state)
    state.handoff = Handoff.ROUND_END
    return events
