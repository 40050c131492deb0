"""California's ``sample_state``: whole states a seat could be in, built from its view alone.

A bot player thinks on these samples, so each must show its seat exactly what the seat saw,
offer the same moves, keep every conservation law and play on to the end, and it must come from
the view only: the real draw stack's order (the one secret) must not leak into it.
"""

from __future__ import annotations

import json

import pytest

from rules.california import RULES, State
from rules.california.state import TILE_COLOUR, TILE_KIND
from rules.play import random_playthrough
from rules.rng import Rng
from tests.helpers import play_out


def positions(players: int, seeds: range, every: int = 9) -> list[State]:
    """States from random games (loans out of turn included): every ``every`` moves, and the end."""
    found = []
    for seed in seeds:
        run = random_playthrough(RULES, players, seed, check=False)
        assert run.finished
        state = RULES.setup(players, {}, seed)
        for step, (seat, action) in enumerate(run.log):
            if step % every == 0:
                found.append(RULES.load(RULES.dump(state)))
            RULES.apply(state, seat, action)
        found.append(state)
    return found


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_sample_shows_its_seat_what_it_saw_offers_the_same_moves_and_keeps_the_laws(players: int) -> None:
    states = positions(players, range(4))
    assert any(s.bag for s in states) and any(s.over for s in states) and any(s.day >= 10 for s in states)
    for k, state in enumerate(states):
        for seat in range(players):
            view = RULES.view(state, seat)
            sample = RULES.sample_state(view, seat, k * 7 + seat)
            assert RULES.view(sample, seat) == view
            for other in range(players):  # every seat's moves, loans out of turn included
                assert RULES.legal_actions(sample, other) == RULES.legal_actions(state, other)
            assert RULES.waiting_for(sample) == RULES.waiting_for(state)
            assert RULES.invariants(sample) == []
            assert RULES.view(sample, None) == RULES.view(state, None)
            again = RULES.load(json.loads(json.dumps(RULES.dump(sample))))
            assert again == sample
            assert RULES.dump(RULES.sample_state(view, seat, k * 7 + seat)) == RULES.dump(sample)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_play_goes_on_from_a_sample_to_the_end(players: int) -> None:
    for k, state in enumerate(positions(players, range(2), every=25)):
        seat = k % players
        sample = RULES.sample_state(RULES.view(state, seat), seat, k)
        play_out(RULES, sample, k)
        assert RULES.outcome(sample) is not None


def test_the_same_tiles_are_unseen_and_the_bag_is_the_bag() -> None:
    """The stack holds exactly the tiles seen nowhere (by kind and colour), the bag the bag's."""
    for state in positions(3, range(3), every=11):
        sample = RULES.sample_state(RULES.view(state, 1), 1, 5)
        assert sorted(sample.bag) == sorted(state.bag)
        kinds = sorted((TILE_KIND[t], TILE_COLOUR[t]) for t in state.stack)
        assert sorted((TILE_KIND[t], TILE_COLOUR[t]) for t in sample.stack) == kinds
        assert sample.stores == state.stores


def test_the_last_bought_tile_keeps_its_id_where_it_was_placed() -> None:
    checked = 0
    for state in positions(4, range(3), every=3):
        last = state.last
        if last is None or last["action"] != "buy" or state.over:
            continue
        sample = RULES.sample_state(RULES.view(state, 0), 0, 1)
        assert sample.last == last
        seat, target, tile = last["seat"], last["target"], last["tile"]
        assert isinstance(seat, int) and isinstance(tile, int)
        p = sample.players[seat]
        if target == "expansion":
            assert p.expansion == tile
        elif target == "attic":
            assert tile in p.attic
        else:
            assert isinstance(target, int)
            assert tile in (p.rooms[target], p.furniture[target])
        checked += 1
    assert checked > 20


def test_different_seeds_draw_different_stacks_and_generators() -> None:
    state = RULES.setup(4, {}, 12)
    view = RULES.view(state, 2)
    samples = [RULES.sample_state(view, 2, seed) for seed in range(6)]
    assert len({tuple(s.stack) for s in samples}) == 6
    assert len({s.rng.seed for s in samples}) == 6


def test_the_hidden_order_never_reaches_the_sample() -> None:
    """Two tables that differ only in what nobody sees (the stack's order, the bag's order,
    the generator): the seat's view is the same, and so is every sample drawn from it."""
    for state in positions(3, range(2), every=20):
        if len(state.stack) < 8:
            continue
        other = RULES.load(RULES.dump(state))
        other.stack.reverse()
        other.bag.reverse()
        other.rng = Rng(state.rng.seed ^ 0xABCDEF, state.rng.draws + 3)
        assert RULES.dump(other) != RULES.dump(state)
        for seat in range(3):
            view = RULES.view(state, seat)
            assert RULES.view(other, seat) == view
            for seed in range(3):
                mine = RULES.sample_state(view, seat, seed)
                theirs = RULES.sample_state(RULES.view(other, seat), seat, seed)
                assert RULES.dump(mine) == RULES.dump(theirs)
                assert mine.stack not in (state.stack, other.stack)


def test_only_a_seats_own_view_lists_the_bag_and_only_its_own_view_samples() -> None:
    state = positions(3, range(1), every=40)[2]
    assert state.bag
    assert "bag_tiles" not in RULES.view(state, None)
    assert RULES.view(state, 0)["bag_tiles"] == sorted(state.bag)
    with pytest.raises(ValueError):
        RULES.sample_state(RULES.view(state, None), 0, 1)
    with pytest.raises(ValueError):
        RULES.sample_state(RULES.view(state, 1), 0, 1)
