"""Render time and PNG size of the Monopoly board: a 6-player table (the largest) mid-game.

What runs: seeded random 6-player games (``rules.play.random_playthrough`` with a 10-round
limit) stopped after a few hundred actions; the public view of each (``RULES.view(state,
None)``, exactly what the host hands the renderer) is rendered many times by
``renderers.monopoly.render``.  Each timed figure is one whole call, drawing and PNG encoding
(``kit.png``); the two halves are also timed apart.  The first render of the process (drawing
the cached board layer) is reported on its own and left out of the figures.

Goals (from the Monopoly issue): median render + encode at most 25 ms, PNG at most 300 kB.

Usage::

    PYTHONPATH=. python benchmarks/render_monopoly.py [--seeds 8] [--repeats 25] [--stop-after 300]

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
from renderers import kit, monopoly
from rules.monopoly import RULES
from rules.play import random_playthrough

PLAYERS = 6
GOAL_MEDIAN_MS = 25.0
GOAL_PNG_BYTES = 300_000
NAMES = ("Annabelle", "Bartholomew the Great", "Chen", "Dolores-Maria", "Evangeline", "Zoë")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=8, help="number of games (seeds 1..N)")
    parser.add_argument("--repeats", type=int, default=25, help="renders of each game's view")
    parser.add_argument("--stop-after", type=int, default=300, help="actions played before rendering")
    args = parser.parse_args(argv)

    views = []
    for seed in range(1, args.seeds + 1):
        stop = args.stop_after + (seed - 1) % 4
        run = random_playthrough(RULES, PLAYERS, seed, options={"turns": 10}, stop_after=stop, check=False)
        views.append(RULES.view(run.state, None))
    phases = sorted({str(v["phase"]) for v in views})

    monopoly.clear_caches()
    start = time.perf_counter()
    monopoly.render(views[0], NAMES)
    cold_ms = (time.perf_counter() - start) * 1000

    times_ms: list[float] = []
    draw_ms: list[float] = []
    encode_ms: list[float] = []
    sizes: list[int] = []
    gc.collect()
    for _ in range(args.repeats):
        for view in views:
            start = time.perf_counter()
            data = monopoly.render(view, NAMES)
            times_ms.append((time.perf_counter() - start) * 1000)
            sizes.append(len(data))
            start = time.perf_counter()
            image = monopoly.draw_board(view, NAMES)
            middle = time.perf_counter()
            kit.png(image, monopoly.colours())
            draw_ms.append((middle - start) * 1000)
            encode_ms.append((time.perf_counter() - middle) * 1000)

    median_ms = statistics.median(times_ms)
    p95_ms = percentile(times_ms, 95)
    size_median = int(statistics.median(sizes))
    size_max = max(sizes)
    aspect = monopoly.H / monopoly.W
    font_min_shown = monopoly.FONT_MIN * monopoly.PHONE / monopoly.W
    ok = median_ms <= GOAL_MEDIAN_MS and size_max <= GOAL_PNG_BYTES

    print(
        f"Monopoly renderer: {PLAYERS} players, {len(views)} games stopped after ~{args.stop_after} actions"
    )
    print(f"  phases rendered: {', '.join(phases)}; {len(times_ms)} renders, first (cold) {cold_ms:.1f} ms")
    print(
        f"  image  {monopoly.W} x {monopoly.H} px, tall:wide {aspect:.2f} (limit {monopoly.MAX_ASPECT});"
        f" smallest font {monopoly.FONT_MIN} px = {font_min_shown:.2f} px shown {monopoly.PHONE} px wide (limit 9)"
    )
    print(
        f"  time   median {median_ms:6.1f} ms   p95 {p95_ms:6.1f} ms   goal: median <= {GOAL_MEDIAN_MS:.0f} ms"
        f"   (drawing {statistics.median(draw_ms):.1f} ms + encoding {statistics.median(encode_ms):.1f} ms)"
    )
    print(
        f"  PNG    median {size_median / 1000:6.1f} kB   max {size_max / 1000:6.1f} kB"
        f"   goal: <= {GOAL_PNG_BYTES / 1000:.0f} kB"
    )
    print("  " + ("all goals met" if ok else "GOAL MISSED"))
    print(
        json.dumps(
            {
                "benchmark": "render_monopoly",
                "players": PLAYERS,
                "games": len(views),
                "stop_after": args.stop_after,
                "renders": len(times_ms),
                "width": monopoly.W,
                "height": monopoly.H,
                "aspect": round(aspect, 3),
                "font_min_px_at_400": round(font_min_shown, 2),
                "cold_ms": round(cold_ms, 2),
                "median_ms": round(median_ms, 2),
                "p95_ms": round(p95_ms, 2),
                "draw_median_ms": round(statistics.median(draw_ms), 2),
                "encode_median_ms": round(statistics.median(encode_ms), 2),
                "png_median_bytes": size_median,
                "png_bytes_max": size_max,
                "goal_median_ms": GOAL_MEDIAN_MS,
                "goal_png_bytes": GOAL_PNG_BYTES,
                "ok": ok,
            }
        )
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
