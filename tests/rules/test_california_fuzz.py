"""California: randomised whole games through the engine contract.

Every game must end within a generous action bound, keep every conservation
law after every action, replay from its seed and action log to the same state,
refuse every action that ``legal_actions`` does not list (leaving the state
untouched) and apply every one it does.

For the throughput figure run ``PYTHONPATH=. python tests/rules/test_california_fuzz.py``.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable

import pytest

from rules.california import ALL_ACTIONS, RULES, State
from rules.core import Action, IllegalAction
from rules.play import canonical, random_playthrough, replay

# A random game takes about 100-300 actions.  Loans cannot loop for ever:
# each loan-and-repay costs the player 1 silver, and only turns bring money.
ACTION_BOUND = 5_000


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_end_and_keep_every_invariant(players: int) -> None:
    loans = 0
    for seed in range(25):
        run = random_playthrough(RULES, players, seed, max_actions=ACTION_BOUND, check=True)
        assert run.failures == [] and run.finished, (seed, run.failures)
        state = run.state
        assert state.over and RULES.waiting_for(state) == frozenset()
        loans += sum(a.kind == "loan" for _, a in run.log)
        result = RULES.outcome(state)
        assert result is not None
        assert len(result.scores) == players and min(result.ranks) == 1
        assert all(RULES.legal_actions(state, s) == [] for s in range(players))
        # replaying setup(seed) + the log gives the same state, byte for byte
        again = replay(RULES, players, {}, seed, run.log)
        assert canonical(RULES.dump(again)) == canonical(RULES.dump(state))
        assert RULES.load(json.loads(json.dumps(RULES.dump(state)))) == state
    assert loans  # the player on turn takes loans too: out-of-turn actions are in the mix


def play_any_seat(
    players: int, seed: int, check: Callable[[State, int], None] | None = None
) -> tuple[State, list[tuple[int, Action]]]:
    """Harsher than the host's fuzzer: any seat with something to do acts, so idle
    seats keep taking and repaying loans between turns."""
    state = RULES.setup(players, {}, seed)
    rnd = random.Random(seed * 7919 + players)
    log: list[tuple[int, Action]] = []
    while RULES.outcome(state) is None:
        assert len(log) < ACTION_BOUND, f"game {players}/{seed} did not end"
        seat = rnd.choice([s for s in range(players) if RULES.legal_actions(state, s)])
        action = rnd.choice(RULES.legal_actions(state, seat))
        if check is not None:
            check(state, len(log))
        RULES.apply(state, seat, action)
        log.append((seat, action))
    return state, log


def _sound(state: State, step: int) -> None:
    assert RULES.invariants(state) == [], step


@pytest.mark.parametrize("players", [2, 5])
def test_out_of_turn_loans_from_every_seat_still_let_the_game_end(players: int) -> None:
    for seed in range(10):
        state, log = play_any_seat(players, seed, check=_sound)
        assert RULES.invariants(state) == []
        assert any(seat != 0 and a.kind == "loan" for seat, a in log)
        again = replay(RULES, players, {}, seed, [(s, Action.decode(a.encode())) for s, a in log])
        assert canonical(RULES.dump(again)) == canonical(RULES.dump(state))


@pytest.mark.parametrize("players", [3, 5])
def test_every_legal_action_applies_and_every_other_one_is_refused(players: int) -> None:
    def check(state: State, step: int) -> None:
        if step % 7:
            return
        snapshot = RULES.dump(state)
        text = json.dumps(snapshot)
        for seat in range(players):
            legal = set(RULES.legal_actions(state, seat))
            for action in ALL_ACTIONS:
                if action in legal:
                    copy = RULES.load(snapshot)
                    RULES.apply(copy, seat, action)
                    assert RULES.invariants(copy) == []
                else:
                    with pytest.raises(IllegalAction):
                        RULES.apply(state, seat, action)
            assert json.dumps(RULES.dump(state)) == text

    for seed in range(3):
        play_any_seat(players, seed, check=check)


def test_views_are_plain_data_at_every_step() -> None:
    def check(state: State, step: int) -> None:
        for seat in (None, 0, 1):
            json.dumps(RULES.view(state, seat))

    play_any_seat(4, 1, check=check)


def actions_per_second(games: int, players: int = 5) -> tuple[float, int]:
    """Random 5-player games through the contract, exactly as the host's fuzzer plays them."""
    total = 0
    start = time.perf_counter()
    for seed in range(games):
        run = random_playthrough(RULES, players, seed, max_actions=ACTION_BOUND, check=False)
        assert run.finished
        total += len(run.log)
    return total / (time.perf_counter() - start), total


def test_random_play_is_fast_enough() -> None:
    rate, _ = actions_per_second(games=30)
    assert rate >= 5_000, f"only {rate:,.0f} actions/second"


if __name__ == "__main__":
    rate, total = actions_per_second(games=300)
    print(f"California, 5 players, random play: {total} actions, {rate:,.0f} actions/second")
