"""Render time and PNG size of The Estates board: a 5-player table mid-game.

What runs: seeded random 5-player games (``rules.play.random_playthrough``,
uniformly random legal moves) stopped after about half a game's actions; the
public view of each (``RULES.view(state, None)``, exactly what the host hands
the renderer) is rendered many times by ``renderers.estates.render``.  Each
figure is one whole call: composing the image and encoding the PNG.  The
first render of the process (building the cached sprites and layers) is
reported on its own and left out of the figures.

Goals (from the issue): median under 60 ms, PNG under 1 MB.

Usage::

    PYTHONPATH=. python benchmarks/render_estates.py [--seeds 8] [--repeats 25] [--stop-after 130]

The last line of the output is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time

from benchmarks.stats import percentile
from renderers.estates import render
from rules.estates import RULES
from rules.play import random_playthrough

PLAYERS = 5
GOAL_MEDIAN_MS = 60.0
GOAL_PNG_BYTES = 1_000_000
NAMES = ("Annabelle", "Bartholomew the Great", "Chen", "Dolores-Maria", "Evangeline")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=8, help="number of games (seeds 1..N)")
    parser.add_argument("--repeats", type=int, default=25, help="renders of each game's view")
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

    start = time.perf_counter()
    render(views[0], NAMES)
    cold_ms = (time.perf_counter() - start) * 1000

    times_ms: list[float] = []
    sizes: list[int] = []
    gc.collect()
    for _ in range(args.repeats):
        for view in views:
            start = time.perf_counter()
            data = render(view, NAMES)
            times_ms.append((time.perf_counter() - start) * 1000)
            sizes.append(len(data))

    median_ms = statistics.median(times_ms)
    p95_ms = percentile(times_ms, 95)
    size_median = int(statistics.median(sizes))
    size_max = max(sizes)
    ok = median_ms < GOAL_MEDIAN_MS and size_max < GOAL_PNG_BYTES

    print(
        f"The Estates renderer: {PLAYERS} players, {len(views)} games stopped after {args.stop_after}-{args.stop_after + 3} actions"
    )
    print(f"  phases rendered: {', '.join(phases)}; {len(times_ms)} renders, first (cold) {cold_ms:.1f} ms")
    print(
        f"  time   median {median_ms:6.1f} ms   p95 {p95_ms:6.1f} ms   goal: median < {GOAL_MEDIAN_MS:.0f} ms"
    )
    print(
        f"  PNG    median {size_median / 1000:6.1f} kB   max {size_max / 1000:6.1f} kB"
        f"   goal: < {GOAL_PNG_BYTES / 1_000_000:.0f} MB"
    )
    print("  " + ("all goals met" if ok else "GOAL MISSED"))
    print(
        json.dumps(
            {
                "benchmark": "render_estates",
                "players": PLAYERS,
                "games": len(views),
                "stop_after": args.stop_after,
                "renders": len(times_ms),
                "cold_ms": round(cold_ms, 2),
                "median_ms": round(median_ms, 2),
                "p95_ms": round(p95_ms, 2),
                "png_median_bytes": size_median,
                "png_max_bytes": size_max,
                "goal_median_ms": GOAL_MEDIAN_MS,
                "goal_png_bytes": GOAL_PNG_BYTES,
                "ok": ok,
            }
        )
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
