"""Last Will's sacking (§9): a player is sacked when *every* line of their employment card is
covered, and not one demotion sooner.

``test_sacked_when_the_last_line_is_covered`` (in ``test_lastwill_errands.py``) covers the fourth
line last, so a rule that looked at the first three lines only (``all(covered[:-1])``) passed it.
Here the fourth line stays uncovered while the other three are covered, in both orders: the
player keeps the job and its income, and is sacked only by the last uncovered line, wherever it
is on the card.
"""

from __future__ import annotations

from rules.lastwill import RULES, data
from rules.lastwill.builder import LastWillBuilder
from rules.lastwill.employment import income
from rules.lastwill.state import LastWillState
from tests.helpers import kinds
from tests.rules.test_lastwill import act, errand_turn, job, only

DOCTOR = "E1"
"""Four lines: horse £3, dine £2, mask £1, guest £1 (the 4-line set totals £7)."""


def demotion_turn(players: int = 3) -> LastWillState:
    """Seat 0 places first in the Errands phase, one boy each; nobody employed; £30 each."""
    builder = LastWillBuilder(players, seed=1, last_will="lw-4a").past_setup().unemployed()
    for seat in range(players):
        builder.hand(seat).money(seat, 30)
    errand_turn(builder.state, 0, 1)
    return builder.build()


def test_three_lines_covered_with_the_last_one_open_keeps_the_job() -> None:
    state = demotion_turn()
    job(state, 0, DOCTOR, covered=[0, 1])
    act(state, 0, "boy.demote")
    events = act(state, 0, "line.2")
    assert "sacked" not in kinds(events), kinds(events)
    assert only(events, "demoted").params["line"] == 2
    player = state.players[0]
    assert not player.sacked and player.job == DOCTOR
    assert player.covered == [True, True, True, False]
    last = data.EMPLOYMENT[DOCTOR].lines[3]
    assert income(player) == last.money == 1, "the open guest line still pays"
    seen = RULES.view(state, None)["players"][0]
    assert not seen["sacked"] and seen["employment"]["id"] == DOCTOR
    assert [line["covered"] for line in seen["employment"]["lines"]] == [True, True, True, False]


def test_the_last_open_line_sacks_wherever_it_is_on_the_card() -> None:
    """Covered out of order (the guest line first): the horse line, the last open one, sacks."""
    state = demotion_turn()
    job(state, 0, DOCTOR, covered=[1, 2, 3])
    assert income(state.players[0]) == data.EMPLOYMENT[DOCTOR].lines[0].money == 3
    act(state, 0, "boy.demote")
    events = act(state, 0, "line.0")
    assert only(events, "sacked").params == {"job": DOCTOR}
    player = state.players[0]
    assert player.sacked and player.job == "" and income(player) == 0
