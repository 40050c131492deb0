"""The Estates' story: each seat's points on the board, never its money.

Money and cash boxes are hidden until the match ends, so while it runs a seat's story is its
building points: the rounds already scored plus what the board would score if this round ended
now.  Once the match is over the view reveals the final scores (cash-box points included), and
the last point is those, so the chart ends where the standings do.
"""

from __future__ import annotations

from rules.core import JSON
from rules.play import Story


def scores(view: dict[str, JSON]) -> list[int]:
    result = view["result"]
    if result is not None:
        return [int(score) for score in result["scores"]]
    past = [0] * int(view["players"])
    for scored in view["past_rounds"]:
        past = [p + int(b) for p, b in zip(past, scored["buildings"], strict=True)]
    return [p + int(now) for p, now in zip(past, view["score_now"], strict=True)]


STORY = Story(scores)
