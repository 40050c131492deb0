"""Refusals around open choices and phases: each reason once, the state checked unchanged.

(The refusals of single moves live beside their rules in the other ``test_lastwill_*`` files.)
"""

from __future__ import annotations

from rules.lastwill.builder import LastWillBuilder
from rules.lastwill.state import LastWillState
from tests.rules.test_lastwill import (
    act,
    actions_turn,
    errand_turn,
    hand,
    job,
    legal,
    money,
    new,
    pending_kind,
    put,
    refused,
)


def table(seat: int = 0) -> LastWillState:
    builder = LastWillBuilder(3, seed=1, last_will="lw-4a").past_setup().unemployed()
    for other in range(3):
        builder.hand(other).money(other, 50)
    actions_turn(builder.state, seat, 3)
    return builder.build()


def test_an_open_choice_must_be_answered_first_and_only_by_its_seat() -> None:
    state = table()
    job(state, 0, "E1")
    hand(state, 0, "DIN1", "DIN2")
    act(state, 0, "event.DIN1")
    assert pending_kind(state) == "line"
    refused(state, 0, "event.DIN2", "answer_first")
    refused(state, 1, "done", "other_answering")
    refused(state, 1, "noline", "other_answering")
    refused(state, 0, "line.3", "help_line")
    refused(state, 0, "go", "help_line")


def test_companion_step_refusals() -> None:
    state = table()
    hand(state, 0, "DIN10", "GST1", "HOR1")
    act(state, 0, "event.DIN10")
    refused(state, 0, "with.HOR1", "companion_misfit")
    refused(state, 0, "extra.1", "help_with")


def test_companions_are_bounded_by_cash() -> None:
    state = table()
    job(state, 0, "E2")
    money(state, 0, 3)
    hand(state, 0, "DIN10", "GST1")
    act(state, 0, "event.DIN10")  # £2 now, +£2 per guest would be £4
    assert pending_kind(state) == "line"  # no companion step: nothing affordable to add, paid at once
    assert state.players[0].money == 1


def test_planner_step_refusal() -> None:
    state = table()
    put(state, 0, "WPL1")
    hand(state, 0, "ER1")
    act(state, 0, "event.ER1")
    refused(state, 0, "extra.2", "help_extra")


def test_bachelor_party_step_refusal() -> None:
    state = table()
    hand(state, 0, "BP2", "DIN1")
    act(state, 0, "special.BP2")
    refused(state, 0, "noline", "help_bpx")


def test_target_step_refusals() -> None:
    state = table()
    put(state, 0, "T1")
    put(state, 0, "F1")
    hand(state, 0, "S2-WPT", "S1-LAC")
    act(state, 0, "special.S2-WPT")
    refused(state, 0, "target.F1", "help_target")
    refused(state, 0, "go", "help_target")
    act(state, 0, "target.T1")
    act(state, 0, "special.S1-LAC")
    refused(state, 0, "target.X1", "help_sale")
    act(state, 0, "go")
    assert [item.card for item in state.players[0].board] == ["T1", "F1"]


def test_fair_step_refusal() -> None:
    state = table()
    put(state, 0, "F3")
    hand(state, 0, "S1-BF")
    act(state, 0, "special.S1-BF")
    refused(state, 0, "fair.F3.horse", "help_fair")


def test_dx_and_pick_step_refusals() -> None:
    state = new(3, 1, last_will="lw-4a")
    errand_turn(state, 0)
    act(state, 0, "boy.demext")
    refused(state, 0, "dx.both", "help_dx")
    state = table()
    put(state, 0, "S1-PS")
    act(state, 0, "sec.helper")
    refused(state, 0, "pick.F99", "help_pick")
    assert len(legal(state, 0)) >= 1


def test_phase_refusals() -> None:
    state = new(3, 1)
    refused(state, 0, "done", "actions_phase")
    refused(state, 0, "draw.event", "drawing_phase")
    refused(state, 0, "redraw", "drawing_phase")
    refused(state, 0, "drawok", "drawing_phase")
    refused(state, 0, "plan.1", "plan_phase")
