"""The Estates' bot hints (``rules.estates.heuristics``): row chances, piece values, the search's
candidates and playout moves, and the auction check the bot benchmark asks."""

from __future__ import annotations

from collections.abc import Iterator

from rules.core import Action
from rules.estates import HINTS, RULES, data
from rules.estates.builder import EstatesBuilder
from rules.estates.heuristics import (
    MAX_PICKS,
    auction_check,
    bid_is_profitable,
    expected_points,
    piece_value,
    row_chances,
    standing,
)
from rules.estates.pieces import BIDS, PASS, STOW, min_bid
from rules.estates.state import BID, CHOOSE, PLACE, EstatesState, Row
from rules.play import random_playthrough
from rules.rng import Rng
from rules.search import Budget, choose

CUBE = data.TOKEN_CUBE


def table(players: int = 3, seed: int = 7) -> EstatesBuilder:
    """A fresh round with seat 0 to choose and nothing built, to build on (``rules.estates.builder``)."""
    return EstatesBuilder(players, seed=seed).first(0)


ROW_A = ((["red5"], 4), (["blue6", "blue3"], 2), (["green4"], 1), (["yellow6"], 3))
"""Row A built to its four lots and roofed: complete."""


def positions(players: int, seeds: range) -> Iterator[EstatesState]:
    for seed in seeds:
        run = random_playthrough(RULES, players, seed, check=False)
        state = RULES.setup(players, {}, seed)
        for seat, action in run.log:
            yield state
            RULES.apply(state, seat, action)


def test_a_complete_row_is_counted_on_and_a_row_short_of_rooftops_is_not() -> None:
    state = table().row("A", *ROW_A, owner=1).build()
    chances = row_chances(state)
    assert chances[0] > 0.9 and chances[1] == chances[2] < chances[0]
    state.roofs_left = []  # unreachable (the round would be over; the builder refuses it)
    state.rows[1] = Row([[CUBE["gray2"]]], [0])
    assert row_chances(state)[1] == 0.0 and row_chances(state)[2] == 0.0


def test_expected_points_go_to_the_top_colour_and_count_the_mayor() -> None:
    b = table().row("A", *ROW_A, owner=1).certificate("green", 2)
    state = b.build()
    before = expected_points(state)
    assert before[0] == 0 and before[1] > 20 and 0 < before[2] < 6
    b.mayor("A").build()
    assert expected_points(state)[1] > 1.9 * before[1]
    assert len(standing(state)) == 3


def test_a_cube_that_takes_a_sure_building_is_worth_bidding_on() -> None:
    """Seat 1 holds green; a green 1 on top of the red 5 in an almost complete row takes that
    building from seat 0 and completes nothing yet: well worth more than the minimum bid."""
    b = table().row("A", (["yellow6"], 3), (["red5"], 0), (["blue6", "blue3"], 2), (["green4"], 1))
    state = b.certificate("green", 1).to_front("green1").build()
    RULES.apply(state, 0, Action("pick", ("green1",)))
    assert state.phase == BID and state.bidder == 1
    assert piece_value(state, 1) > 4  # the building (6) in a row almost sure to complete, less the risk
    assert bid_is_profitable(state, 1)
    assert auction_check(state, 1, BIDS[1]) is True
    assert auction_check(state, 1, PASS) is False
    assert auction_check(state, 2, PASS) is None  # not seat 2's turn to bid
    candidates = HINTS.candidates(state, 1, RULES.legal_actions(state, 1))
    assert PASS not in candidates and BIDS[min_bid(state)] in candidates
    assert all(
        a.kind == "bid" and isinstance(a.args[0], int) and a.args[0] <= piece_value(state, 1)
        for a in candidates
    )
    decision = choose(RULES, HINTS, RULES.view(state, 1), 1, seed=3, budget=Budget(60, 30))
    assert decision.action.kind == "bid"


def test_a_broke_bidder_only_passes_and_no_check_applies() -> None:
    b = table()
    state = b.build()
    RULES.apply(state, 0, Action("pick", ("mayor",)))
    b.pay(1, 0, state.money[1]).build()  # seat 1 is broke
    assert not bid_is_profitable(state, 1) and auction_check(state, 1, PASS) is None
    assert HINTS.candidates(state, 1, RULES.legal_actions(state, 1)) == [PASS]


def test_the_auctioneer_stows_first_while_it_has_money_to_spare() -> None:
    """A sure point for a check that scores nothing in hand; down to its last check, the stow is
    weighed against the few most valuable pieces to auction."""
    b = table()
    state = b.build()
    assert HINTS.candidates(state, 0, RULES.legal_actions(state, 0)) == [STOW]
    b.pay(0, 1, 11).build()  # down to its last check
    kept = HINTS.candidates(state, 0, RULES.legal_actions(state, 0))
    assert STOW in kept and 0 < sum(a.kind == "pick" for a in kept) <= MAX_PICKS


def test_candidates_and_playout_moves_are_legal_and_never_empty() -> None:
    rng = Rng(1)
    phases = set()
    for players in (2, 4):
        for state in positions(players, range(2)):
            for seat in RULES.waiting_for(state):
                actions = RULES.legal_actions(state, seat)
                kept = HINTS.candidates(state, seat, actions)
                assert kept and all(a in actions for a in kept)
                assert HINTS.rollout(state, seat, actions, rng) in actions
                phases.add(state.phase)
            assert len(HINTS.values(state)) == players
    assert {CHOOSE, BID, PLACE} <= phases


def test_valuing_a_piece_leaves_the_state_as_it_was() -> None:
    for state in positions(3, range(2)):
        before = RULES.dump(state)
        for seat in range(3):
            piece_value(state, seat)
            HINTS.candidates(state, seat, RULES.legal_actions(state, seat))
        assert RULES.dump(state) == before


def test_a_bots_move_cannot_depend_on_what_its_seat_cannot_see() -> None:
    """Two tables that differ only in rivals' money and every future draw: seat 0 sees one view,
    so with the same seed its search makes the same move, here settling an auction."""
    state = table(players=4, seed=9).build()
    RULES.apply(state, 0, Action("stow"))
    RULES.apply(state, 0, Action("pick", ("mayor",)))
    other = RULES.load(RULES.dump(state))
    other.money[1], other.money[2] = other.money[1] - 3, other.money[2] + 3
    other.rng = Rng(5, 11)
    assert RULES.view(other, 0) == RULES.view(state, 0) and RULES.dump(other) != RULES.dump(state)
    RULES.apply(state, 1, PASS)
    RULES.apply(other, 1, PASS)
    RULES.apply(state, 2, BIDS[2])
    RULES.apply(other, 2, BIDS[2])
    RULES.apply(state, 3, PASS)
    RULES.apply(other, 3, PASS)
    assert RULES.view(other, 0) == RULES.view(state, 0)
    for seed in range(3):
        mine = choose(RULES, HINTS, RULES.view(state, 0), 0, seed, Budget(40, 20))
        theirs = choose(RULES, HINTS, RULES.view(other, 0), 0, seed, Budget(40, 20))
        assert mine == theirs
