"""Render time and PNG size of The Estates board: a 5-player table (the largest) mid-game.

What runs: seeded random 5-player games (``rules.play.random_playthrough``,
uniformly random legal moves) stopped after about half a game's actions; the
public view of each (``RULES.view(state, None)``, exactly what the host hands
the renderer) is rendered many times by ``renderers.estates.render``.  Each
timed figure is one whole call, drawing and PNG encoding (``kit.png``); the
two halves are also timed apart (``draw_board``, then ``kit.png`` on its
image), since the drawing is this module's and the encoding the kit's.  The
first render of the process (building the cached sprites and layers) is
reported on its own and left out of the figures.

Goals (from the issue "The table, redesigned for phones and for slow games"):
median render + encode at most 20 ms, PNG at most 300 kB.  Printed beside
them: the image size, its tall-to-wide ratio (at most 1.6) and the smallest
font when the image is shown 400 px wide (at least 9 px).

Usage::

    PYTHONPATH=. python benchmarks/render_estates.py [--seeds 8] [--repeats 25] [--stop-after 130]

The last line of the output is one JSON object with every figure.
"""

from __future__ import annotations

import sys

from benchmarks.render_common import Goals, arguments, finish, time_renders
from bot.core.i18n import words
from renderers import estates
from rules.estates import RULES
from rules.play import random_playthrough

PLAYERS = 5
GOALS = Goals(median_ms=20.0, png_bytes=300_000)
NAMES = ("Annabelle", "Bartholomew the Great", "Chen", "Dolores-Maria", "Evangeline")


def main(argv: list[str] | None = None) -> int:
    parser = arguments(__doc__)
    parser.add_argument(
        "--stop-after",
        type=int,
        default=130,
        help="actions played before rendering (a 5-player game takes about 190-290)",
    )
    args = parser.parse_args(argv)

    views = []
    for seed in range(1, args.seeds + 1):
        # A few actions more or less per game, so auctions are caught in every phase.
        stop = args.stop_after + (seed - 1) % 4
        run = random_playthrough(RULES, PLAYERS, seed, stop_after=stop, check=False)
        views.append(RULES.view(run.state, None))
    phases = sorted({str(v["phase"]) for v in views})

    timings = time_renders(estates, views, NAMES, args.repeats, words(args.language))
    heights = timings.heights
    aspect_max = max(heights) / estates.WIDTH
    font_min_shown = estates.FONT_MIN * estates.PHONE_WIDTH / estates.WIDTH

    print(
        f"The Estates renderer: {PLAYERS} players, {len(views)} games stopped after "
        f"{args.stop_after}-{args.stop_after + 3} actions"
    )
    print(
        f"  phases rendered: {', '.join(phases)}; {len(timings.times_ms)} renders, first (cold) {timings.cold_ms:.1f} ms"
    )
    print(
        f"  image  {estates.WIDTH} x {min(heights)}-{max(heights)} px, tall:wide at most {aspect_max:.2f}"
        f" (limit {estates.MAX_ASPECT}); smallest font {estates.FONT_MIN} px = {font_min_shown:.1f} px"
        f" shown {estates.PHONE_WIDTH} px wide (limit 9)"
    )
    timings.print_lines(GOALS)
    return finish(
        {
            "benchmark": "render_estates",
            "players": PLAYERS,
            "games": len(views),
            "stop_after": args.stop_after,
            "renders": len(timings.times_ms),
            "width": estates.WIDTH,
            "height_max": max(heights),
            "aspect_max": round(aspect_max, 3),
            "font_min_px_at_400": round(font_min_shown, 2),
            **timings.figures(GOALS),
        }
    )


if __name__ == "__main__":
    sys.exit(main())
