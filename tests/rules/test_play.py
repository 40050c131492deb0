"""``rules.play.random_playthrough``: the random player behind ``simulate``, the contract tests and
the benchmarks.

It must fuzz out-of-turn actions (seats the game is not waiting for) without letting them stall
a game, stay deterministic per seed, and report a broken engine as a failure rather than crash.
The tiny games here make each of those situations certain instead of likely.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from harness.toygame.rules import RULES as TOY
from rules.core import (
    JSON,
    Action,
    Event,
    GameClock,
    IllegalAction,
    OptionSpec,
    Outcome,
    Rules,
    validate_options,
)
from rules.play import OUT_OF_TURN_CHANCE, idle_actions, random_playthrough

STEP = Action("step")
WAVE = Action("wave")


@dataclass(slots=True)
class CountState:
    left: int
    waves: list[int]
    turn: int = 0
    log: list[str] = field(default_factory=list)


class Countdown:
    """The seat on turn counts down; every other seat may always *wave*, for ever.

    The worst case for a fuzzer that lets idle seats act: their actions are unlimited and
    never move the game on, so only the share of waiting-seat steps makes the game end.
    ``refuse_waves`` lists waves but refuses them (an engine bug); ``waves_break`` makes a
    wave break an invariant.
    """

    name = "countdown"
    title = "Countdown"
    min_players = 1
    max_players = 6
    options: tuple[OptionSpec, ...] = ()
    schema = 1
    play_options: Mapping[str, object] = {}

    def __init__(self, length: int = 50, *, refuse_waves: bool = False, waves_break: bool = False) -> None:
        self.length = length
        self.refuse_waves = refuse_waves
        self.waves_break = waves_break

    def table_options(self, options: Mapping[str, object]) -> dict[str, Any]:
        return validate_options(self.options, options)

    def setup(self, players: int, options: Mapping[str, object], seed: int) -> CountState:
        return CountState(left=self.length, waves=[0] * players)

    def legal_actions(self, state: CountState, seat: int) -> list[Action]:
        if state.left == 0:
            return []
        return [STEP] if seat == state.turn else [WAVE]

    def apply(self, state: CountState, seat: int, action: Action) -> list[Event]:
        if action not in self.legal_actions(state, seat) or (action == WAVE and self.refuse_waves):
            raise IllegalAction("not_now")
        if action == WAVE:
            state.waves[seat] += 1
            return [Event("waved", seat)]
        state.left -= 1
        state.turn = (state.turn + 1) % len(state.waves)
        return [Event("stepped", seat)]

    def waiting_for(self, state: CountState) -> frozenset[int]:
        return frozenset({state.turn}) if state.left else frozenset()

    def outcome(self, state: CountState) -> Outcome | None:
        if state.left:
            return None
        return Outcome(tuple(state.waves), tuple(1 for _ in state.waves))

    def view(self, state: CountState, seat: int | None) -> dict[str, JSON]:
        return self.dump(state)

    def dump(self, state: CountState) -> dict[str, JSON]:
        return {"schema": 1, "left": state.left, "waves": list(state.waves), "turn": state.turn}

    def load(self, data: Mapping[str, JSON]) -> CountState:
        return CountState(left=data["left"], waves=list(data["waves"]), turn=data["turn"])

    def invariants(self, state: CountState) -> list[str]:
        return ["somebody waved"] if self.waves_break and any(state.waves) else []

    def fingerprint(self, state: CountState, action: Action) -> str | None:
        return None

    def game_clock(self, state: CountState) -> GameClock | None:
        return None  # no clock of the rules' own: the table's timer is the only one

    def timeout_action(self, state: CountState, seat: int) -> Action | None:
        return STEP if seat in self.waiting_for(state) else None

    def sealed(self, state: CountState) -> JSON:
        return []


def waiting_seats_at_each_step(
    rules: Rules[Any], players: int, seed: int, log: list[tuple[int, Action]]
) -> list[bool]:
    """For each logged action, whether its seat was one the game was waiting for."""
    state = rules.setup(players, {}, seed)
    was_waiting = []
    for seat, action in log:
        was_waiting.append(seat in rules.waiting_for(state))
        rules.apply(state, seat, action)
    return was_waiting


def test_idle_seats_act_about_as_often_as_the_chance_says_and_the_game_still_ends() -> None:
    game = Countdown(length=400)
    run = random_playthrough(game, 4, 7)
    assert run.failures == [] and run.finished
    steps = len(run.log)
    assert run.out_of_turn == steps - 400 == sum(run.state.waves)
    # A wave is always possible for three of the four seats, so the share is the chance itself.
    assert 0.15 < run.out_of_turn / steps < 0.25, run.out_of_turn / steps
    assert run.out_of_turn == waiting_seats_at_each_step(game, 4, 7, run.log).count(False)


@pytest.mark.parametrize("players", range(1, 7))
def test_unlimited_idle_actions_never_keep_a_game_going(players: int) -> None:
    for seed in range(20):
        run = random_playthrough(Countdown(), players, seed, max_actions=200)
        assert run.failures == [] and run.finished, (players, seed, run.failures)


def test_a_high_chance_still_ends_games_only_slower() -> None:
    short = random_playthrough(Countdown(), 3, 1, out_of_turn_chance=0.1)
    long = random_playthrough(Countdown(), 3, 1, out_of_turn_chance=0.9)
    assert short.finished and long.finished
    assert len(short.log) < len(long.log)
    assert long.out_of_turn > 5 * 50


def test_chance_zero_plays_waiting_seats_only() -> None:
    for seed in range(10):
        run = random_playthrough(TOY, 3, seed, out_of_turn_chance=0)
        assert run.finished and run.out_of_turn == 0
        assert all(waiting_seats_at_each_step(TOY, 3, seed, run.log))


def test_the_chance_must_leave_room_for_the_waiting_seats() -> None:
    for chance in (-0.1, 1.0, 1.5):
        with pytest.raises(ValueError, match="out_of_turn_chance"):
            random_playthrough(TOY, 2, 1, out_of_turn_chance=chance)
    assert 0 < OUT_OF_TURN_CHANCE < 1


def test_same_seed_same_playthrough_other_seed_another() -> None:
    runs = [random_playthrough(TOY, 4, seed, check=False) for seed in (3, 3, 4)]
    assert runs[0].log == runs[1].log and runs[0].out_of_turn == runs[1].out_of_turn
    assert TOY.dump(runs[0].state) == TOY.dump(runs[1].state)
    assert runs[0].log != runs[2].log


def test_no_coin_is_tossed_while_every_seat_is_waited_for() -> None:
    """With one seat there is never an idle one, so the chance changes nothing at all."""
    for seed in range(10):
        with_idle = random_playthrough(TOY, 1, seed)
        without = random_playthrough(TOY, 1, seed, out_of_turn_chance=0)
        assert with_idle.log == without.log and with_idle.out_of_turn == 0


def test_stop_after_counts_idle_actions_too() -> None:
    run = random_playthrough(Countdown(), 3, 2, stop_after=30)
    assert len(run.log) == 30 and not run.finished and run.failures == []


def test_idle_actions_lists_only_seats_not_waited_for_that_can_act() -> None:
    game = Countdown()
    state = game.setup(3, {}, 0)
    assert idle_actions(game, state, 3) == {1: [WAVE], 2: [WAVE]}
    assert idle_actions(game, state, 3, frozenset({0, 1})) == {2: [WAVE]}
    toy = TOY.setup(2, {}, 5)
    waiting = TOY.waiting_for(toy)
    (other,) = {0, 1} - waiting
    assert idle_actions(TOY, toy, 2) == {other: [Action("knock"), Action("reroll")]}
    state.left = 0
    assert idle_actions(game, state, 3) == {}


def test_a_listed_idle_action_that_is_refused_is_a_failure() -> None:
    run = random_playthrough(Countdown(refuse_waves=True), 3, 1)
    assert not run.finished
    assert len(run.failures) == 1 and "legal action wave of seat" in run.failures[0]
    assert "was refused: not_now" in run.failures[0]
    assert run.out_of_turn == 0


def test_an_idle_action_that_breaks_an_invariant_is_caught_after_that_step() -> None:
    run = random_playthrough(Countdown(waves_break=True), 3, 1)
    assert run.failures == ["after wave: somebody waved"]
    assert run.log[-1][1] == WAVE and run.out_of_turn == 1
    unchecked = random_playthrough(Countdown(waves_break=True), 3, 1, check=False)
    assert unchecked.finished and unchecked.failures == []
