"""The bots' search (``rules.search``), on the toy race: legal, repeatable, blind to what its seat
cannot see, and better than chance.

The toy's score is points added + knocks + a hidden secret, so a seat that adds 3 rather than 1
and knocks while it can is playing well; other seats' secrets are what a bot must not read.
"""

from __future__ import annotations

from collections.abc import Sequence

from harness.toygame.rules import ToyRules, ToyState
from rules.core import Action
from rules.play import random_playthrough
from rules.rng import Rng
from rules.search import Budget, PlainHints, choose, playout, random_move, reward

RULES = ToyRules()


class ToyHints(PlainHints):
    """Points added and knocks so far (the secret is a sample's guess for other seats)."""

    def values(self, state: ToyState) -> Sequence[float]:
        return [p + k for p, k in zip(state.points, state.knocked, strict=True)]


def states(players: int, seeds: range) -> list[ToyState]:
    """Positions from random games: after 0, 2, 4... moves, until each game ends."""
    found = []
    for seed in seeds:
        run = random_playthrough(RULES, players, seed, check=False)
        for stop in range(0, len(run.log), 2):
            found.append(random_playthrough(RULES, players, seed, stop_after=stop, check=False).state)
    return found


def test_a_sample_shows_its_seat_exactly_what_the_seat_saw() -> None:
    for state in states(3, range(1, 6)):
        for seat in range(3):
            view = RULES.view(state, seat)
            sample = RULES.sample_state(view, seat, 99)
            assert RULES.view(sample, seat) == view
            assert RULES.legal_actions(sample, seat) == RULES.legal_actions(state, seat)
            assert RULES.invariants(sample) == []


def test_the_chosen_move_is_legal_and_the_same_for_the_same_seed() -> None:
    state = RULES.setup(3, {}, 5)
    view = RULES.view(state, 0)
    first = choose(RULES, ToyHints(), view, 0, seed=11, budget=Budget(playouts=60))
    again = choose(RULES, ToyHints(), view, 0, seed=11, budget=Budget(playouts=60))
    assert first.action == again.action and first.action in RULES.legal_actions(state, 0)
    assert first.playouts == 60 and sum(arm.plays for arm in first.arms) == 60


def test_a_decision_cannot_depend_on_what_the_seat_cannot_see() -> None:
    """Two tables that differ only in the other seats' secrets: the bot sees the same view, so
    it makes the same move with the same seed (its input is the view and nothing else)."""
    state = RULES.setup(3, {}, 8)
    other = RULES.load(RULES.dump(state))
    other.secrets[1], other.secrets[2] = 7 - state.secrets[1], 7 - state.secrets[2]
    assert RULES.dump(other) != RULES.dump(state)
    assert RULES.view(other, 0) == RULES.view(state, 0)
    hints = ToyHints()
    for seed in range(5):
        mine = choose(RULES, hints, RULES.view(state, 0), 0, seed, Budget(playouts=40))
        theirs = choose(RULES, hints, RULES.view(other, 0), 0, seed, Budget(playouts=40))
        assert mine == theirs
        assert random_move(RULES, RULES.view(state, 0), 0, seed) == random_move(
            RULES, RULES.view(other, 0), 0, seed
        )


def test_search_adds_three_rather_than_one() -> None:
    state = RULES.setup(2, {"target": 30}, 3)
    state.knocked, state.rerolled = [True, True], [True, True]  # nothing else to do but add
    state.turn = 0
    decision = choose(RULES, ToyHints(), RULES.view(state, 0), 0, seed=1, budget=Budget(playouts=200))
    assert decision.action == Action("add", (3,)), decision.arms


def test_stop_ends_the_search_once_every_move_was_tried() -> None:
    state = RULES.setup(3, {}, 5)
    calls = []

    def stop() -> bool:
        calls.append(1)
        return True

    decision = choose(RULES, ToyHints(), RULES.view(state, 0), 0, 4, Budget(playouts=500), stop)
    assert decision.playouts == len(decision.arms) and all(arm.plays == 1 for arm in decision.arms)
    assert calls


def test_a_single_move_is_made_without_thinking() -> None:
    state = RULES.setup(2, {}, 5)
    state.phase = "cheer"
    decision = choose(RULES, ToyHints(), RULES.view(state, 1), 1, 0)
    assert decision.action == Action("gg") and decision.playouts == 0


def test_rewards_rank_the_seat_with_ties_shared() -> None:
    state = RULES.setup(3, {}, 2)
    state.points = [5, 5, 1]
    hints = ToyHints()
    assert [reward(RULES, hints, state, seat) for seat in range(3)] == [0.75, 0.75, 0.0]
    assert reward(RULES, PlainHints(), state, 0) == 0.5
    playout(RULES, hints, state, 10_000, Rng(3))
    result = RULES.outcome(state)
    assert result is not None
    ranks = result.ranks
    assert reward(RULES, hints, state, ranks.index(1)) >= 0.5


def test_search_beats_random_play_over_many_games() -> None:
    """Seat 0 searches, the others move at random: seat 0 wins far more than its share."""
    wins = 0
    games = 30
    for seed in range(games):
        state = RULES.setup(3, {"target": 25}, seed)
        rng = Rng(seed)
        while RULES.outcome(state) is None:
            seat = rng.choice(sorted(RULES.waiting_for(state)))
            if seat == 0:
                action = choose(RULES, ToyHints(), RULES.view(state, 0), 0, rng.next64(), Budget(30)).action
            else:
                action = rng.choice(RULES.legal_actions(state, seat))
            RULES.apply(state, seat, action)
        outcome = RULES.outcome(state)
        assert outcome is not None
        wins += outcome.ranks[0] == 1
    assert wins >= 2 * games / 3, wins
