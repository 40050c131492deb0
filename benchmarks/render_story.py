"""Render time and PNG size of the story chart (each seat's public score over a finished game).

What runs: seeded random games of every game with a story (``rules.play.random_playthrough``) at
its largest table, their series replayed from the log (``rules.play.story_series``), each drawn
``--repeats`` times by ``renderers.story.render_story``.  Monopoly's games run to thousands of
moves, the most points a chart draws.  The first render of the process (loading the font) is
timed on its own and left out.

Goals (issue 28): at most 20 ms per render (p95) and 300 kB per PNG; the smallest text at
least 9 px when the image is shown 400 px wide.

Usage::

    PYTHONPATH=. python benchmarks/render_story.py [--seeds 3] [--repeats 20] [--language fr]

The last line of the output is one JSON object with every figure and ``ok``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from benchmarks.stats import percentile
from bot.core.i18n import words
from bot.games import REGISTRY
from renderers import kit
from renderers.story import PHONE_WIDTH, render_story
from rules.play import random_playthrough, story_series

GOAL_MS = 20.0
GOAL_BYTES = 300_000
NAMES = ("Annabelle", "Bartholomew the Great", "Chen", "Dolores-Maria", "Evangeline", "Fitzgerald")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="games per game (seeds 1..N)")
    parser.add_argument("--repeats", type=int, default=20, help="renders of each series")
    parser.add_argument("--language", default="en", help="the table's language (default en)")
    args = parser.parse_args(argv)
    table = words(args.language)
    times: list[float] = []
    largest = 0
    smallest_px = float("inf")
    cold_ms: float | None = None
    per_game: dict[str, dict[str, float]] = {}
    for entry in REGISTRY.public():
        if entry.story is None:
            continue
        players = min(entry.rules.max_players, len(NAMES))
        game_times: list[float] = []
        moves = 0
        for seed in range(1, args.seeds + 1):
            run = random_playthrough(entry.rules, players, seed)
            series = story_series(entry.rules, entry.story, players, run.options, seed, run.log)
            moves = max(moves, len(series) - 1)
            measure = f"story.image.measure.{entry.name}"
            if cold_ms is None:
                start = time.perf_counter()
                render_story(series, NAMES, table, measure=measure)
                cold_ms = (time.perf_counter() - start) * 1000
            with kit.recording_font_sizes() as sizes, kit.recording_texts() as seen:
                png = render_story(series, NAMES, table, measure=measure)
            width = seen.pictures[0].size[0]
            smallest_px = min(smallest_px, *(kit.smallest_on_phone(s, width, PHONE_WIDTH) for s in sizes))
            largest = max(largest, len(png))
            for _ in range(args.repeats):
                start = time.perf_counter()
                render_story(series, NAMES, table, measure=measure)
                game_times.append((time.perf_counter() - start) * 1000)
        times += game_times
        per_game[entry.name] = {
            "players": players,
            "most_moves": moves,
            "median_ms": round(percentile(game_times, 50), 2),
            "p95_ms": round(percentile(game_times, 95), 2),
        }
    p95 = percentile(times, 95)
    ok = p95 <= GOAL_MS and largest <= GOAL_BYTES and smallest_px >= 9
    figures = {
        "ok": ok,
        "language": args.language,
        "renders": len(times),
        "cold_ms": round(cold_ms or 0.0, 2),
        "median_ms": round(percentile(times, 50), 2),
        "p95_ms": round(p95, 2),
        "max_png_bytes": largest,
        "smallest_text_px_at_400": round(smallest_px, 2),
        "goal_p95_ms": GOAL_MS,
        "goal_png_bytes": GOAL_BYTES,
        "games": per_game,
    }
    print(json.dumps(figures))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
