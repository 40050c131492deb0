"""A plugin game whose conservation law breaks: ``simulate`` must notice and fail.

Importing this module registers ``toy_leaky`` (hidden).  It plays exactly like the toy
game, but its invariant check reports money "leaking" as soon as the total passes 6,
which every game reaches (the target is at least 10).  Load it only in a child process
(``GAMEHOST_PLUGINS=tests.plugins.leaky_toy``): registered in the test process it would
join every registry-wide test as a game that is broken on purpose.
"""

from __future__ import annotations

from bot.core.registry import GameEntry
from bot.games import REGISTRY
from harness.toygame.cog import ToyPresenter
from harness.toygame.renderer import render
from harness.toygame.rules import ToyRules, ToyState

LEAK_ABOVE = 6


class LeakyToyRules(ToyRules):
    name = "toy_leaky"
    title = "Leaky Toy Race"

    def invariants(self, state: ToyState) -> list[str]:
        problems = super().invariants(state)
        if state.total > LEAK_ABOVE:
            problems.append(f"the total {state.total} leaked past {LEAK_ABOVE}")
        return problems


class LeakyToyPresenter(ToyPresenter):
    """The toy's presenter filed under this game's name, as the registry requires."""

    game = "toy_leaky"


ENTRY = GameEntry(rules=LeakyToyRules(), renderer=render, presenter=LeakyToyPresenter, hidden=True)
REGISTRY.register(ENTRY)
