"""California's story: each seat's points as the public score sheet shows them."""

from __future__ import annotations

from rules.core import JSON
from rules.play import Story


def scores(view: dict[str, JSON]) -> list[int]:
    """The score sheet's total per seat: public at every moment, as it is on the table."""
    return [int(player["score"]["total"]) for player in view["players"]]


STORY = Story(scores)
