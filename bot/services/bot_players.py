"""Seats played by bots: their view in, a move out.

A bot seat sees what its player would see, ``view(state, seat)``, and nothing else; it thinks in
``rules.search`` (pure, seeded) on states sampled from that view, so it cannot cheat even by
accident.  An *easy* bot moves at random among its legal moves; a *normal* bot searches with its
game's hints (``GameEntry.hints``) within :data:`BUDGET` and :data:`THINK_SECONDS`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from enum import StrEnum
from typing import Any, cast

from bot.registry import GameEntry
from rules.core import JSON, Action
from rules.search import Budget, SearchRules, choose, random_move

BUDGET = Budget(playouts=200, depth=40)
"""A normal bot's playouts per decision and moves per playout: measured by
``benchmarks/bots.py`` to keep decisions well under a second while beating random play."""
THINK_SECONDS = 0.8
"""A decision stops searching after this long whatever the budget, so a bot never holds a
table up (the goal is p95 <= 1 s)."""


class Level(StrEnum):
    EASY = "easy"
    NORMAL = "normal"


def decide(
    entry: GameEntry,
    view: Mapping[str, JSON],
    seat: int,
    level: Level,
    seed: int,
    clock: Any = time.monotonic,
) -> Action:
    """The move a bot at ``seat`` makes, from its view alone."""
    rules = cast(SearchRules[Any], entry.rules)
    if level is Level.EASY:
        return random_move(rules, view, seat, seed)
    deadline = clock() + THINK_SECONDS
    return choose(rules, entry.hints, view, seat, seed, BUDGET, lambda: clock() >= deadline).action
