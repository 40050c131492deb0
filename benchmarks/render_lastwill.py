"""Render time and PNG size of the Last Will table: a 5-player table (the largest) late in the game.

What runs: seeded random 5-player games (``rules.play.random_playthrough``), each played once to
the end to learn its length and then replayed and stopped between 80 % of the way and the end
(rounds 5 to 7 and the final table, boards at their fullest); the public view of each (``RULES.view(state, None)``, exactly
what the host hands the renderer) is rendered many times by ``renderers.lastwill.render``.  Each
timed figure is one whole call, drawing and PNG encoding (``kit.png``); the two halves are also
timed apart.  The first render of the process (drawing the cached layers) is reported on its own
and left out of the figures.

Goals (from the Last Will renderer issue): median render + encode at most 30 ms, PNG at most
300 kB for a 5-player late game.

Usage::

    PYTHONPATH=. python benchmarks/render_lastwill.py [--seeds 8] [--repeats 25]

The last line of the output is one JSON object with every figure.
"""

from __future__ import annotations

import sys

from benchmarks.render_common import Goals, arguments, finish, time_renders
from bot.core.i18n import words
from renderers import kit, lastwill
from rules.lastwill import RULES
from rules.play import random_playthrough

PLAYERS = 5
GOALS = Goals(median_ms=30.0, png_bytes=300_000)
NAMES = ("Annabelle", "Bartholomew the Great", "Chen", "Dolores-Maria", "Zoë")
STOPS = (0.80, 0.85, 0.90, 0.95, 1.0)
"""How far through each game (by its number of actions) the rendered position lies."""


def main(argv: list[str] | None = None) -> int:
    args = arguments(__doc__).parse_args(argv)

    views = []
    for seed in range(1, args.seeds + 1):
        length = len(random_playthrough(RULES, PLAYERS, seed, check=False).log)
        stop = int(length * STOPS[(seed - 1) % len(STOPS)])
        run = random_playthrough(RULES, PLAYERS, seed, stop_after=stop, check=False)
        views.append(RULES.view(run.state, None))
    phases = sorted({str(v["phase"]) for v in views})
    rounds = sorted({int(v["round"]) for v in views})

    timings = time_renders(lastwill, views, NAMES, args.repeats, words(args.language), lastwill.colours)
    heights = timings.heights
    tallest = max(heights)
    font_min_shown = kit.smallest_on_phone(lastwill.FONT_MIN, lastwill.W, lastwill.PHONE)

    print(f"Last Will renderer: {PLAYERS} players, {len(views)} games stopped at 80-100 % of their actions")
    print(
        f"  phases rendered: {', '.join(phases)}; rounds {', '.join(map(str, rounds))};"
        f" {len(timings.times_ms)} renders, first (cold) {timings.cold_ms:.1f} ms"
    )
    print(
        f"  image  {lastwill.W} px wide, {min(heights)}-{tallest} px tall (tall:wide up to"
        f" {tallest / lastwill.W:.2f}); smallest font {lastwill.FONT_MIN} px = {font_min_shown:.2f} px"
        f" shown {lastwill.PHONE} px wide (limit 9)"
    )
    timings.print_lines(GOALS)
    return finish(
        {
            "benchmark": "render_lastwill",
            "players": PLAYERS,
            "games": len(views),
            "stops": list(STOPS),
            "renders": len(timings.times_ms),
            "width": lastwill.W,
            "height_max": tallest,
            "aspect_max": round(tallest / lastwill.W, 3),
            "font_min_px_at_400": round(font_min_shown, 2),
            **timings.figures(GOALS),
        }
    )


if __name__ == "__main__":
    sys.exit(main())
