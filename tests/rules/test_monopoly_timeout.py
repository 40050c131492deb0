"""Monopoly's default moves: roll, decline, pass, end, reject, keep, collect; a debtor mortgages,
then sells, and goes bankrupt only when nothing else is left."""

from __future__ import annotations

from rules.core import Action
from rules.monopoly import RULES, data
from rules.monopoly.builder import MonopolyBuilder
from rules.monopoly.state import BUY, END, OVER, MonopolyState
from rules.play import canonical, random_playthrough
from tests.rules.test_contract import play_timeouts
from tests.rules.test_monopoly import ROUND, act, shortage_table, table

A = Action


def timeouts(state: MonopolyState, seat: int) -> list[str]:
    """Apply ``seat``'s timeout actions while it owes a debt or a fee; the actions, encoded."""
    taken: list[str] = []
    while state.debts or state.fees:
        assert seat in RULES.waiting_for(state)
        action = RULES.timeout_action(state, seat)
        assert action is not None
        taken.append(action.encode())
        act(state, seat, action.encode())
    return taken


def test_every_opening_roller_rolls() -> None:
    state = RULES.setup(3, {}, 2)
    assert RULES.waiting_for(state) == frozenset({0, 1, 2})
    assert [RULES.timeout_action(state, s) for s in range(3)] == [A("roll")] * 3


def test_a_turn_of_timeouts_rolls_declines_passes_and_ends() -> None:
    state = table(3, **ROUND).next_dice((1, 2)).build()  # to Mojave Desert, unowned
    assert RULES.timeout_action(state, 0) == A("roll")
    assert RULES.timeout_action(state, 1) is None
    act(state, 0, "roll")
    assert state.phase == BUY and A("buy") in RULES.legal_actions(state, 0)
    assert RULES.timeout_action(state, 0) == A("decline")
    act(state, 0, "decline")
    for seat in (1, 2, 0):  # the auction: everyone passes, the bank keeps it
        assert RULES.timeout_action(state, seat) == A("pass")
        act(state, seat, "pass")
    assert state.owner[3] is None and state.phase == END
    assert RULES.timeout_action(state, 0) == A("end")
    act(state, 0, "end")
    assert state.turn == 1 and state.cash == [1500, 1500, 1500]


def test_the_pool_party_rolls_rather_than_paying() -> None:
    state = table(3).in_pool(0).build()
    assert A("fine") in RULES.legal_actions(state, 0)
    assert RULES.timeout_action(state, 0) == A("roll")


def test_an_offer_to_an_absent_player_is_rejected() -> None:
    state = table(3).owns(1, "route-66").build()
    act(state, 1, "deal.2")
    act(state, 1, "cash.50")
    act(state, 1, "send")
    assert RULES.waiting_for(state) == frozenset({0, 2})
    assert RULES.timeout_action(state, 2) == A("reject", (1,))
    assert RULES.timeout_action(state, 1) is None  # the proposer is not waited for
    assert RULES.timeout_action(state, 0) == A("roll")


def test_received_mortgages_are_kept_not_lifted() -> None:
    state = table(2).owns(0, "beverly-hills-hotel", "rodeo-drive", mortgaged=True).build()
    for step in ("deal.1", "give.37", "give.39", "send"):
        act(state, 0, step)
    act(state, 1, "accept.1")
    assert A("lift", (37,)) in RULES.legal_actions(state, 1)
    assert timeouts(state, 1) == ["keep.37", "keep.39"]
    assert state.mortgaged[37] and state.mortgaged[39]


def test_an_owner_collects_asked_rent() -> None:
    state = table(3, rent="ask").owns(2, "mojave-desert").next_dice((1, 2)).build()
    act(state, 0, "roll")
    assert RULES.timeout_action(state, 2) == A("rent", (3,))
    assert RULES.timeout_action(state, 0) == A("end")


def test_a_shortage_claim_is_declined() -> None:
    state = shortage_table()
    act(state, 0, "build.1")
    assert RULES.waiting_for(state) == frozenset({1, 2})
    assert A("claim", (11,)) in RULES.legal_actions(state, 2)
    assert [RULES.timeout_action(state, s) for s in range(3)] == [None, A("noclaim"), A("noclaim")]


def debtor(cash: int) -> MonopolyBuilder:
    """Seat 0, holding ``cash``, about to land on seat 1's Rodeo Drive with a hotel ($2000)."""
    return (
        table(2)
        .owns(1, "rodeo-drive", "beverly-hills-hotel", houses=4)
        .owns(1, "rodeo-drive", houses=data.HOTEL)
        .cash(0, cash)
        .at(0, 36)
        .next_dice((1, 2))
    )


def in_debt(position: MonopolyBuilder) -> MonopolyState:
    """``position`` (a :func:`debtor`'s) once seat 0 has rolled onto Rodeo Drive and owes."""
    state = position.build()
    act(state, 0, "roll")
    assert state.debts
    return state


def test_a_debtor_mortgages_the_cheapest_property_outside_a_set_first() -> None:
    state = in_debt(debtor(1900).owns(0, "route-66", "mojave-desert", "lax-airport", "venice-beach"))
    assert timeouts(state, 0) == ["mort.11", "mort.5"]  # Venice Beach ($70), then LAX ($100)
    assert not state.debts and not state.mortgaged[1] and not state.mortgaged[3]
    assert state.cash[0] == 1900 + 70 + 100 - 2000 and state.phase == END


def test_a_debtor_sells_the_cheapest_houses_only_when_nothing_can_be_mortgaged() -> None:
    light_blue = ("lower-haight", "haight-ashbury", "castro-street")
    orange = ("big-sur", "monterey-bay", "carmel-by-the-sea")
    state = in_debt(debtor(1900).owns(0, *light_blue, *orange, houses=1))
    # $25 back for each light blue house, then the unimproved set can be mortgaged ($50).
    assert timeouts(state, 0) == ["sell.6", "sell.8", "sell.9", "mort.6"]
    assert [state.level[p] for p in (16, 18, 19)] == [1, 1, 1]  # the orange houses stand
    assert not state.debts


def test_bankruptcy_only_when_nothing_is_left_to_raise() -> None:
    state = in_debt(debtor(100).owns(0, "route-66"))
    assert RULES.timeout_action(state, 0) == A("mort", (1,))
    act(state, 0, "mort.1")
    assert RULES.timeout_action(state, 0) == A("bankrupt")
    act(state, 0, "bankrupt")
    assert state.phase == OVER
    assert RULES.timeout_action(state, 0) is None and RULES.timeout_action(state, 1) is None


def test_timeouts_never_read_the_deck_order() -> None:
    """The same public position with the decks in another order gets the same defaults."""
    for seed in range(3):
        run = random_playthrough(RULES, 4, seed, stop_after=150, check=False)
        state = run.state
        other = RULES.load(RULES.dump(state))
        for deck in other.decks.values():
            deck.reverse()
        assert canonical(RULES.view(other, None)) == canonical(RULES.view(state, None))
        for seat in range(4):
            assert RULES.timeout_action(other, seat) == RULES.timeout_action(state, seat)


def test_timeouts_end_games_with_asked_rent_from_anywhere() -> None:
    """``rent=ask`` (claims to collect) and the default no-limit game (which ends by
    ``data.SAFETY_ROUNDS``), from the middle of random games."""
    for options in ({"rent": "ask", "turns": "10"}, {}):
        for seed in range(2):
            run = random_playthrough(RULES, 4, seed, options=options, stop_after=300, check=False)
            play_timeouts(RULES, run.state, 4, seed, limit=40_000)
            assert run.state.phase == OVER
