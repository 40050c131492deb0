"""Planning (§3.2) and card drawing (§3.3).

Planning is public and sequential from the start player.  Drawing goes in plan order; each player
first names how many cards come from each regular deck (``draw.<deck>`` one card at a time,
``redraw`` to start over), then ``drawok`` draws them all: decks are chosen before looking
(public), and the few small steps keep ``legal_actions`` short however many cards a plan gives.
A School Chum's deck-bound extra cards (SC3, SC4) need no choice and come with ``drawok``; a
player with nothing to choose draws without being asked.
"""

from __future__ import annotations

from rules.core import Action, Event, IllegalAction
from rules.lastwill import data
from rules.lastwill.cards import BLACKS, privileges
from rules.lastwill.data import DrawBonus
from rules.lastwill.moves import move
from rules.lastwill.piles import RESHUFFLED, available, draw
from rules.lastwill.state import DRAWING, PLANNING, Handoff, LastWillState, alone
from rules.lastwill.turn import current, plan_of

REGULAR = tuple(d.value for d in data.REGULAR_DECKS)


def planner(state: LastWillState) -> int:
    return (state.start + state.cursor) % state.count


def start_planning(state: LastWillState) -> list[Event]:
    state.phase = PLANNING
    state.cursor = 0
    return [Event("planning_started", planner(state), {"round": state.round})]


def free_plans(state: LastWillState) -> list[int]:
    taken = {p.plan for p in state.players}
    return [space.pos for space in state.plans if space.pos not in taken]


def plan_problem(state: LastWillState, seat: int, pos: int) -> IllegalAction | None:
    if state.phase != PLANNING:
        return IllegalAction("plan_phase")
    if planner(state) != seat:
        return IllegalAction("not_your_plan")
    if pos not in free_plans(state):
        return IllegalAction("plan_taken")
    return None


def choose_plan(state: LastWillState, seat: int, pos: int) -> list[Event]:
    state.players[seat].plan = pos
    plan = plan_of(state, seat)
    events = [
        Event(
            "plan_chosen", seat, {"pos": pos, "cards": plan.cards, "boys": plan.boys, "actions": plan.actions}
        )
    ]
    state.cursor += 1
    if state.cursor < state.count:
        return events
    state.order = sorted(range(state.count), key=lambda s: state.players[s].plan)
    return events + start_drawing(state)


# --- drawing -------------------------------------------------------------------------------------


def totals(state: LastWillState, seat: int) -> tuple[int, dict[str, int]]:
    """Cards the seat chooses freely (plan + SC5), and the deck-bound extras (SC3, SC4)."""
    free = plan_of(state, seat).cards
    fixed: dict[str, int] = {}
    for _item, bonus in privileges(state.players[seat], DrawBonus):
        if bonus.deck is None:
            free += bonus.count
        else:
            fixed[bonus.deck.value] = fixed.get(bonus.deck.value, 0) + bonus.count
    return free, fixed


FREE_DRAW: dict[str, int] = {
    card: extra
    for card, black in BLACKS.items()
    if (extra := sum(p.count for p in black.privileges if isinstance(p, DrawBonus) and p.deck is None))
}
"""Each black card's cards of any mix (SC5), summed once: :func:`needed` asks at every step."""


def needed(state: LastWillState, seat: int) -> int:
    """The free count, capped by what the regular decks and their piles still hold.  Asked at
    every naming step, so the decks are counted only until they hold enough (nearly always the
    first one does)."""
    want = plan_of(state, seat).cards  # the first half of totals(), without the deck-bound extras
    for item in state.players[seat].board:
        want += FREE_DRAW.get(item.card, 0)
    held = 0
    decks, piles = state.decks, state.piles
    for deck, refills, _action in _SOURCES:
        held += len(decks[deck]) + (len(piles[deck]) if refills else 0)  # available(), inlined
        if held >= want:
            return want
    return held


def draw_count(state: LastWillState, seat: int) -> tuple[int, dict[str, int]]:
    """Cards the seat names this drawing (:func:`needed`) and the deck-bound extras that come by
    themselves, from public facts: its plan, its helpers and how many cards each deck holds."""
    return needed(state, seat), totals(state, seat)[1]


def start_drawing(state: LastWillState) -> list[Event]:
    state.phase = DRAWING
    state.cursor = 0
    state.split = {}
    return _skip(state)


def _skip(state: LastWillState) -> list[Event]:
    """Players with nothing to choose draw at once; the phase waits for the next who has, and
    hands over to the errands after the last."""
    events: list[Event] = []
    while state.cursor < state.count:
        seat = current(state)
        if needed(state, seat) > 0:
            return events
        events += _draw_all(state, seat)
        state.cursor += 1
    state.handoff = Handoff.ERRANDS
    return events


def draw_problem(state: LastWillState, seat: int, deck: str) -> IllegalAction | None:
    problem = _drawing_problem(state, seat)
    if problem is not None:
        return problem
    if deck not in REGULAR:
        return IllegalAction("regular_decks")
    split = state.split
    if sum(split.values()) >= needed(state, seat):
        return IllegalAction("all_named")
    if split.get(deck, 0) >= available(state, deck):
        return IllegalAction("deck_empty")
    return None


def _drawing_problem(state: LastWillState, seat: int) -> IllegalAction | None:
    if state.phase != DRAWING:
        return IllegalAction("drawing_phase")
    if current(state) != seat:
        return IllegalAction("not_your_draw")
    return None


def add(state: LastWillState, seat: int, deck: str) -> list[Event]:
    state.split[deck] = state.split.get(deck, 0) + 1
    return [Event("split", seat, {"split": dict(state.split)}, visible_to=alone(seat))]


def draw_actions(state: LastWillState, seat: int) -> list[Action]:
    """The seat's drawing moves: ``draw.<deck>`` where :func:`draw_problem` allows, ``redraw``
    and ``drawok`` where theirs do.  The same tests, but the count the seat must name is worked
    out once rather than once per deck (drawing is half of all moves in random play)."""
    if state.phase != DRAWING or current(state) != seat:  # _drawing_problem, with no refusal built
        return []
    split = state.split
    want = needed(state, seat)
    named = sum(split.values())
    found: list[Action] = []
    if named < want:
        decks, piles = state.decks, state.piles
        for deck, refills, action in _SOURCES:
            if split.get(deck, 0) < len(decks[deck]) + (len(piles[deck]) if refills else 0):
                found.append(action)
    if split:
        found.append(REDRAW)
    if named == want:
        found.append(DRAWOK)
    return found


DRAW_MOVES: dict[str, Action] = {deck: move("draw", (deck,)) for deck in REGULAR}
REDRAW, DRAWOK = move("redraw"), move("drawok")
_SOURCES: tuple[tuple[str, bool, Action], ...] = tuple(
    (deck, deck in RESHUFFLED, DRAW_MOVES[deck]) for deck in REGULAR
)
"""Each regular deck in order, whether its pile refills it and its move: ``piles.available``
written out in the drawing's loops, which run on every naming step."""


def redraw_problem(state: LastWillState, seat: int) -> IllegalAction | None:
    problem = _drawing_problem(state, seat)
    if problem is None and not state.split:
        return IllegalAction("none_named")
    return problem


def redraw(state: LastWillState, seat: int) -> list[Event]:
    state.split = {}
    return [Event("split", seat, {"split": {}}, visible_to=alone(seat))]


def drawok_problem(state: LastWillState, seat: int) -> IllegalAction | None:
    problem = _drawing_problem(state, seat)
    if problem is not None:
        return problem
    want = needed(state, seat)
    if sum(state.split.values()) != want:
        return IllegalAction("name_first", want=want, named=sum(state.split.values()))
    return None


def drawok(state: LastWillState, seat: int) -> list[Event]:
    events = _draw_all(state, seat)
    state.split = {}
    state.cursor += 1
    return events + _skip(state)


def _draw_all(state: LastWillState, seat: int) -> list[Event]:
    hand = state.players[seat].hand
    events: list[Event] = []
    counts: dict[str, int] = {}
    drawn: list[str] = []
    wanted = dict(state.split)
    for deck, n in totals(state, seat)[1].items():
        wanted[deck] = wanted.get(deck, 0) + n
    for deck in REGULAR:
        for _ in range(wanted.get(deck, 0)):
            card = draw(state, deck, events)
            if card:
                drawn.append(card)
                counts[deck] = counts.get(deck, 0) + 1
    hand.extend(drawn)
    if not drawn:
        return events
    events.append(Event("drew", seat, {"counts": counts}))
    events.append(Event("drew", seat, {"counts": counts, "cards": drawn}, visible_to=alone(seat)))
    return events
