"""Monopoly's story: each seat's net worth as the public view counts it.

Cash is public at the table, and the view's ``net_worth`` already counts deeds (half when
mortgaged) and buildings at cost (``holdings.net_worth``), the figure the turn limit ranks by.
"""

from __future__ import annotations

from rules.core import JSON
from rules.play import Story


def scores(view: dict[str, JSON]) -> list[int]:
    return [int(seat["net_worth"]) for seat in view["seats"]]


STORY = Story(scores)
