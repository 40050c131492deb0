"""Last Will's bot hints (``rules.lastwill.heuristics``): standings, pruning, playout moves.

Last Will is won by having the least money at the end, and a player still employed cannot win; the
hints must say so, keep the search away from moves that only give money back, and play playouts
that spend.
"""

from __future__ import annotations

from bot.games import REGISTRY
from rules.core import Action
from rules.lastwill import RULES
from rules.lastwill.heuristics import (
    HINTS,
    incomes_left,
    projected_money,
    rounds_to_play,
    spending_ahead,
    standing,
)
from rules.lastwill.state import DRAWING, LastWillState
from rules.rng import Rng
from rules.search import Budget, choose
from tests.rules.test_lastwill import act, build, hand, job, money, put
from tests.rules.test_lastwill_actions import table


def test_the_game_entry_carries_these_hints() -> None:
    entry = REGISTRY.get("lastwill")
    assert entry is not None and entry.hints is HINTS


def test_less_money_at_the_end_stands_higher_property_counting_at_its_value() -> None:
    state = table()
    money(state, 1, 10)
    money(state, 2, 10)
    put(state, 2, "F1")  # a farm valued at £16 plus its market token at the end
    values = HINTS.values(state)
    assert values[1] > values[0]  # £10 against £50, nobody employed
    assert values[1] > values[2]
    upkeep_to_come = spending_ahead(state, state.players[2])
    assert upkeep_to_come > 0  # its upkeep, each round left
    assert projected_money(state, 2) == 10 + 16 + state.market["farm"] - upkeep_to_come


def test_a_seat_out_of_a_job_stands_above_employed_seats_with_far_less_money() -> None:
    state = table()
    job(state, 0, "E1")
    money(state, 0, 0)
    money(state, 1, 60)
    values = HINTS.values(state)
    assert values[1] > values[0]


def test_income_to_come_counts_against_an_employed_seat() -> None:
    state = table()
    job(state, 0, "E2", covered=[0, 1, 2])  # Banker: only the dog line (£1) left
    job(state, 1, "E1")  # Doctor: £7 a round
    assert incomes_left(state) == 7 - state.round + 1
    assert standing(state, 0) > standing(state, 1)  # one line left against four, same money


def test_a_seat_with_more_lines_than_rounds_left_stands_like_any_stuck_seat() -> None:
    state = table()
    build(state).round(6)
    job(state, 0, "E1")
    job(state, 1, "E2", covered=[0])
    job(state, 2, "E3", covered=[0, 1])
    assert rounds_to_play(state, state.players[0]) == 2
    for seat in range(3):
        money(state, seat, 20)
    stuck = projected_money(state, 0), projected_money(state, 1)
    assert standing(state, 0) - standing(state, 1) == stuck[1] - stuck[0]  # money alone decides
    assert standing(state, 2) > standing(state, 0)  # two lines in two rounds: still possible


def test_candidates_leave_out_sales_drops_and_declined_demotions_but_never_everything() -> None:
    state = table(actions=2)
    put(state, 0, "F1")
    put(state, 0, "WAI1")
    hand(state, 0, "DIN1")
    actions = RULES.legal_actions(state, 0)
    kinds = {a.kind for a in HINTS.candidates(state, 0, actions)}
    assert {"sell", "drop"} <= {a.kind for a in actions}
    assert not kinds & {"sell", "drop"} and {"event", "keep", "done"} <= kinds
    only_sale = [Action("sell", ("F1",))]
    assert HINTS.candidates(state, 0, only_sale) == only_sale


def test_a_demotion_on_offer_is_taken_and_the_planner_spends_all_it_may() -> None:
    state = table(actions=1)
    job(state, 0, "E1")
    hand(state, 0, "DIN1")
    act(state, 0, "event.DIN1")
    actions = RULES.legal_actions(state, 0)
    assert Action("noline") in actions and len(actions) > 1
    assert Action("noline") not in HINTS.candidates(state, 0, actions)
    assert HINTS.rollout(state, 0, actions, Rng(1)) == actions[0]  # the highest income line
    offers = [Action("extra", (n,)) for n in range(3)]
    assert HINTS.candidates(state, 0, offers) == [Action("extra", (2,))]


def test_playouts_pick_legal_moves_that_spend() -> None:
    state = table(actions=1)
    hand(state, 0, "DIN1", "F1")
    actions = RULES.legal_actions(state, 0)
    picks = {HINTS.rollout(state, 0, actions, Rng(seed)) for seed in range(40)}
    assert picks <= set(actions)
    assert Action("event", ("DIN1",)) in picks  # mostly the best; now and then something else


def test_playouts_finish_a_drawing_as_soon_as_it_is_named() -> None:
    run_state = _drawing_position()
    seat = run_state.order[run_state.cursor]
    actions = RULES.legal_actions(run_state, seat)
    while Action("drawok") not in actions:
        RULES.apply(run_state, seat, HINTS.rollout(run_state, seat, actions, Rng(len(actions))))
        actions = RULES.legal_actions(run_state, seat)
    assert HINTS.rollout(run_state, seat, actions, Rng(2)) == Action("drawok")


def _drawing_position() -> LastWillState:
    state = RULES.setup(3, {}, 6)
    rng = Rng(6)
    while state.phase != DRAWING:
        seat = min(RULES.waiting_for(state))
        RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))
    return state


def test_the_search_spends_rather_than_ends_its_turn() -> None:
    state = table(actions=1)
    hand(state, 0, "DIN1", "CAR1")
    decision = choose(RULES, HINTS, RULES.view(state, 0), 0, seed=3, budget=Budget(playouts=60, depth=20))
    assert decision.action.kind == "event", decision.arms


def test_a_bot_host_employs_another_seat_then_confirms() -> None:
    state = RULES.setup(3, {"employment": "handicap"}, 2)
    assert RULES.waiting_for(state) == {0}
    for _ in range(2):
        decision = choose(RULES, HINTS, RULES.view(state, 0), 0, seed=1)
        assert decision.playouts == 0  # nothing to weigh
        RULES.apply(state, 0, decision.action)
    assert state.picked == [1] and state.players[1].job and not state.players[0].job
