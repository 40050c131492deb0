"""California's default move for a player whose turn ran out: take a coin."""

from __future__ import annotations

from rules.california import COIN, RULES, data
from rules.california.builder import CaliforniaBuilder
from rules.core import Action
from rules.play import canonical


def test_the_player_on_turn_takes_a_coin_even_when_a_purchase_is_open() -> None:
    b = CaliforniaBuilder(3, seed=4)
    state = b.money(b.state.turn, 40).build()
    legal = RULES.legal_actions(state, state.turn)
    assert any(a.kind == "buy" for a in legal)
    before = canonical(RULES.dump(state))
    assert RULES.timeout_action(state, state.turn) == COIN
    assert canonical(RULES.dump(state)) == before
    for seat in range(3):
        if seat != state.turn:
            assert Action("loan") in RULES.legal_actions(state, seat)  # a loan is never defaulted
            assert RULES.timeout_action(state, seat) is None


def test_a_table_of_absent_players_takes_coins_for_twelve_days_and_ends() -> None:
    state = RULES.setup(4, {}, 9)
    taken = 0
    while RULES.outcome(state) is None:
        (seat,) = RULES.waiting_for(state)
        action = RULES.timeout_action(state, seat)
        assert action == COIN
        RULES.apply(state, seat, action)
        taken += 1
    assert taken == data.DAYS * data.BANK_SPACES
    assert state.day == data.DAYS
    assert all(RULES.timeout_action(state, seat) is None for seat in range(4))
