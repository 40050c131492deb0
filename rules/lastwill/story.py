"""Last Will's story: each seat's money, public on the table, where the least money wins."""

from __future__ import annotations

from rules.core import JSON
from rules.play import Story


def scores(view: dict[str, JSON]) -> list[int]:
    return [int(player["money"]) for player in view["players"]]


STORY = Story(scores, lower_leads=True)
"""Spending the inheritance is the goal, so the seat with the least money leads."""
