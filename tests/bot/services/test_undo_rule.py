"""The undo rule below Discord, for every game: random play, stopped at many points, asks
:func:`bot.services.undo.plan_undo` about the last public move.

- A move it lets be taken back gives exactly the game that never had it (the log replayed
  without it, hidden moves since replayed on top), and making it again gives the game back byte
  for byte: nothing was drawn, nothing learned.
- A move it refuses as revealing really drew (the engine's ``sealed`` moved) or told somebody
  something privately; moves that always draw (a roll of the dice, a rooftop turned up, cards
  drawn) are never allowed.
- Immediate exactly when the game afterwards waited on nobody but the mover.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.core.registry import GameEntry
from bot.games import REGISTRY
from bot.services.sessions import Refusal, is_public
from bot.services.undo import plan_undo
from bot.storage import LogEntry
from bot.storage.codes import How
from rules.core import Action
from rules.play import canonical, random_playthrough, replay

GAMES = list(REGISTRY)
"""Every registered game, the test-only ones included (``tests/conftest.py`` imports them)."""

ALWAYS_DRAWS: dict[str, set[str]] = {
    "monopoly": {"roll"},
    "toymarket": {"roll"},
    "lastwill": {"drawok"},
}
"""Action kinds that consult chance every time they are made."""

SEEDS = 4
CUTS = 12
LONGEST = 400


def logged(log: list[tuple[int, Action]]) -> list[LogEntry]:
    return [
        LogEntry(number + 1, seat, 100 + seat, action, 0.0, How.PLAYER, 0, None)
        for number, (seat, action) in enumerate(log)
    ]


def last_public(
    rules: Any, players: int, options: dict[str, Any], seed: int, log: list[tuple[int, Action]]
) -> int | None:
    state = rules.setup(players, options, seed)
    found = None
    for index, (seat, action) in enumerate(log):
        before = rules.waiting_for(state)
        events = rules.apply(state, seat, action)
        finished = rules.outcome(state) is not None
        after = frozenset() if finished else rules.waiting_for(state)
        if is_public(finished, before, after, events):
            found = index
    return found


def dumped(rules: Any, state: Any) -> str:
    return canonical(rules.dump(state))


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_an_allowed_undo_is_the_game_without_the_move_and_a_refused_one_revealed(entry: GameEntry) -> None:
    rules = entry.rules
    allowed = refused = 0
    for seed in range(SEEDS):
        players = max(2, rules.min_players) + seed % (rules.max_players - max(2, rules.min_players) + 1)
        run = random_playthrough(rules, players, seed, stop_after=LONGEST)
        options = dict(run.options)
        chooser = random.Random(seed)
        cuts = sorted({chooser.randint(1, len(run.log)) for _ in range(CUTS)} | {len(run.log)})
        for cut in cuts:
            log = run.log[:cut]
            index = last_public(rules, players, options, seed, log)
            if index is None:
                continue
            seat, action = log[index]
            try:
                plan = plan_undo(rules, players, options, seed, logged(log), seat)
            except Refusal as refusal:
                assert refusal.key == "host.undo.refuse_revealed", refusal.key
                state = replay(rules, players, options, seed, log[:index])
                sealed = rules.sealed(state)
                events = rules.apply(state, seat, action)
                assert rules.sealed(state) != sealed or any(e.visible_to is not None for e in events)
                refused += 1
                continue
            allowed += 1
            assert action.kind not in ALWAYS_DRAWS.get(entry.name, set()), action
            kept = [
                move
                for number, move in enumerate(log, 1)
                if number != index + 1 and number not in plan.dropped
            ]
            assert dumped(rules, plan.state) == dumped(rules, replay(rules, players, options, seed, kept))
            # Immediate exactly when, after the move, the game waited on nobody but its player.
            after = rules.waiting_for(replay(rules, players, options, seed, log[: index + 1]))
            assert (plan.others == frozenset()) == (after <= {seat})
            assert plan.others in (frozenset(), frozenset(range(players)) - {seat})
            if index == len(log) - 1:
                # The newest move: the game before it, and making it again changes nothing else.
                assert not plan.dropped
                assert dumped(rules, plan.state) == dumped(
                    rules, replay(rules, players, options, seed, log[:-1])
                )
                again = rules.load(rules.dump(plan.state))
                rules.apply(again, seat, action)
                assert dumped(rules, again) == dumped(rules, replay(rules, players, options, seed, log))
    assert allowed > 0, f"{entry.name}: no move could ever be taken back"
    if entry.name != "toy":  # the toy's only public moves are additions and knocks (private peek)
        assert refused > 0, f"{entry.name}: no move was ever refused"
