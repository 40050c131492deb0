"""Render time and PNG size of the Monopoly board: a 6-player table (the largest) mid-game.

What runs: seeded random 6-player games (``rules.play.random_playthrough`` with a 10-round
limit) stopped after a few hundred actions; the public view of each (``RULES.view(state,
None)``, exactly what the host hands the renderer) is rendered many times by
``renderers.monopoly.render``.  Each timed figure is one whole call, drawing and PNG encoding
(``kit.png``); the two halves are also timed apart.  The first render of the process (drawing
the cached board layer) is reported on its own and left out of the figures.

Goals (from the Monopoly issue): median render + encode at most 25 ms, PNG at most 300 kB.

Usage::

    PYTHONPATH=. python benchmarks/render_monopoly.py [--seeds 8] [--repeats 25] [--stop-after 300] [--language fr]

The last line of the output is one JSON object with every figure.
"""

from __future__ import annotations

import sys

from benchmarks.render_common import Goals, arguments, finish, time_renders
from bot.core.i18n import words
from renderers import monopoly
from rules.monopoly import RULES
from rules.play import random_playthrough

PLAYERS = 6
GOALS = Goals(median_ms=25.0, png_bytes=300_000)
NAMES = ("Annabelle", "Bartholomew the Great", "Chen", "Dolores-Maria", "Evangeline", "Zoë")


def main(argv: list[str] | None = None) -> int:
    parser = arguments(__doc__)
    parser.add_argument("--stop-after", type=int, default=300, help="actions played before rendering")
    args = parser.parse_args(argv)

    views = []
    for seed in range(1, args.seeds + 1):
        stop = args.stop_after + (seed - 1) % 4
        run = random_playthrough(RULES, PLAYERS, seed, options={"turns": 10}, stop_after=stop, check=False)
        views.append(RULES.view(run.state, None))
    phases = sorted({str(v["phase"]) for v in views})

    timings = time_renders(monopoly, views, NAMES, args.repeats, words(args.language), monopoly.colours)
    aspect = monopoly.H / monopoly.W
    font_min_shown = monopoly.FONT_MIN * monopoly.PHONE / monopoly.W

    print(
        f"Monopoly renderer: {PLAYERS} players, {len(views)} games stopped after ~{args.stop_after} actions"
    )
    print(
        f"  phases rendered: {', '.join(phases)}; {len(timings.times_ms)} renders, first (cold) {timings.cold_ms:.1f} ms"
    )
    print(
        f"  image  {monopoly.W} x {monopoly.H} px, tall:wide {aspect:.2f} (limit {monopoly.MAX_ASPECT});"
        f" smallest font {monopoly.FONT_MIN} px = {font_min_shown:.2f} px shown {monopoly.PHONE} px wide (limit 9)"
    )
    timings.print_lines(GOALS)
    return finish(
        {
            "benchmark": "render_monopoly",
            "players": PLAYERS,
            "games": len(views),
            "stop_after": args.stop_after,
            "renders": len(timings.times_ms),
            "width": monopoly.W,
            "height": monopoly.H,
            "aspect": round(aspect, 3),
            "font_min_px_at_400": round(font_min_shown, 2),
            **timings.figures(GOALS),
        }
    )


if __name__ == "__main__":
    sys.exit(main())
