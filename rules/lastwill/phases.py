"""The phase dispatcher: what runs when a step ends its phase.

A round is a cycle (planning, drawing, errands, actions, the round's end, planning again), so
phase modules that started the next phase themselves would import each other in a loop (turn,
rounds, planning, errands, turn). Instead a step that ends its phase names what comes next in
``state.handoff`` and returns; :func:`settle` runs it, and whatever that hands over to in turn,
until the game rests where a seat must act. Every start used to run as the tail of the step
before it, so the events come out in the same order. Only this module imports the phases it
moves between; they import none of each other's starts.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.core import Event
from rules.lastwill.errands import start_errands
from rules.lastwill.planning import start_planning
from rules.lastwill.rounds import deal_and_begin, end_round
from rules.lastwill.scoring import finish
from rules.lastwill.state import Handoff, LastWillState
from rules.lastwill.turn import start_actions

STARTS: dict[Handoff, Callable[[LastWillState], list[Event]]] = {
    Handoff.DEAL: deal_and_begin,
    Handoff.PLANNING: start_planning,
    Handoff.ERRANDS: start_errands,
    Handoff.ACTIONS: start_actions,
    Handoff.ROUND_END: end_round,
    Handoff.FINISH: finish,
}


def settle(state: LastWillState, events: list[Event]) -> list[Event]:
    """``events`` followed by those of every hand-over the step asked for, run in order."""
    while (handoff := state.handoff) is not None:
        state.handoff = None
        events += STARTS[handoff](state)
    return events
