"""Driving any game through the contract: replays and random playthroughs.

Shared by the CLI (``simulate``, ``render``, ``replay``), the contract tests
and the benchmarks, so all of them exercise games exactly the same way.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.core import Action, IllegalAction, Rules
from rules.rng import Rng


def replay(
    rules: Rules[Any],
    players: int,
    options: Mapping[str, object],
    seed: int,
    log: Iterable[tuple[int, Action]],
) -> Any:
    """``setup`` then every logged action; raises ``IllegalAction`` if the log no longer fits."""
    state = rules.setup(players, options, seed)
    for seat, action in log:
        rules.apply(state, seat, action)
    return state


def canonical(data: Any) -> str:
    """One text per state, so "replay equals live" is a string comparison."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


@dataclass(slots=True)
class Playthrough:
    """What a random game did, for reports and for replaying it."""

    state: Any
    log: list[tuple[int, Action]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    finished: bool = False


def random_playthrough(
    rules: Rules[Any],
    players: int,
    seed: int,
    *,
    options: Mapping[str, object] | None = None,
    max_actions: int = 20_000,
    check: bool = True,
    stop_after: int | None = None,
) -> Playthrough:
    """Uniformly random legal play: a waiting seat, then one of its legal actions.

    Picking among waiting seats (not all seats) keeps out-of-turn actions in
    the mix without letting an idle seat stall the game forever.  With
    ``check`` every step also verifies the game's invariants and that its
    legal actions really apply.
    """
    chooser = Rng(seed ^ 0x5EED)
    state = rules.setup(players, options or {}, seed)
    run = Playthrough(state)
    while len(run.log) < (stop_after if stop_after is not None else max_actions):
        if rules.outcome(state) is not None:
            run.finished = True
            break
        waiting = sorted(rules.waiting_for(state))
        if not waiting:
            run.failures.append("the game is not over but waits for nobody")
            break
        seat = chooser.choice(waiting)
        actions = rules.legal_actions(state, seat)
        if not actions:
            run.failures.append(f"seat {seat} is waited for but has no legal action")
            break
        action = chooser.choice(actions)
        try:
            rules.apply(state, seat, action)
        except IllegalAction as exc:
            run.failures.append(f"legal action {action} was refused: {exc}")
            break
        run.log.append((seat, action))
        if check:
            run.failures.extend(f"after {action}: {msg}" for msg in rules.invariants(state))
            if run.failures:
                break
    else:
        run.finished = rules.outcome(state) is not None
        if stop_after is None and not run.finished:
            run.failures.append(f"the game did not end within {max_actions} actions")
    return run
