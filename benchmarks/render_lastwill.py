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

import argparse
import gc
import json
import statistics
import sys
import time

from benchmarks.stats import percentile
from renderers import kit, lastwill
from rules.lastwill import RULES
from rules.play import random_playthrough

PLAYERS = 5
GOAL_MEDIAN_MS = 30.0
GOAL_PNG_BYTES = 300_000
NAMES = ("Annabelle", "Bartholomew the Great", "Chen", "Dolores-Maria", "Zoë")
STOPS = (0.80, 0.85, 0.90, 0.95, 1.0)
"""How far through each game (by its number of actions) the rendered position lies."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=8, help="number of games (seeds 1..N)")
    parser.add_argument("--repeats", type=int, default=25, help="renders of each game's view")
    args = parser.parse_args(argv)

    views = []
    for seed in range(1, args.seeds + 1):
        length = len(random_playthrough(RULES, PLAYERS, seed, check=False).log)
        stop = int(length * STOPS[(seed - 1) % len(STOPS)])
        run = random_playthrough(RULES, PLAYERS, seed, stop_after=stop, check=False)
        views.append(RULES.view(run.state, None))
    phases = sorted({str(v["phase"]) for v in views})
    rounds = sorted({int(v["round"]) for v in views})

    lastwill.clear_caches()
    start = time.perf_counter()
    lastwill.render(views[0], NAMES)
    cold_ms = (time.perf_counter() - start) * 1000

    times_ms: list[float] = []
    draw_ms: list[float] = []
    encode_ms: list[float] = []
    sizes: list[int] = []
    heights: list[int] = []
    gc.collect()
    for _ in range(args.repeats):
        for view in views:
            start = time.perf_counter()
            data = lastwill.render(view, NAMES)
            times_ms.append((time.perf_counter() - start) * 1000)
            sizes.append(len(data))
            start = time.perf_counter()
            image = lastwill.draw_board(view, NAMES)
            middle = time.perf_counter()
            kit.png(image, lastwill.colours())
            draw_ms.append((middle - start) * 1000)
            encode_ms.append((time.perf_counter() - middle) * 1000)
            heights.append(image.height)

    median_ms = statistics.median(times_ms)
    p95_ms = percentile(times_ms, 95)
    size_median = int(statistics.median(sizes))
    size_max = max(sizes)
    tallest = max(heights)
    font_min_shown = kit.smallest_on_phone(lastwill.FONT_MIN, lastwill.W, lastwill.PHONE)
    ok = median_ms <= GOAL_MEDIAN_MS and size_max <= GOAL_PNG_BYTES

    print(f"Last Will renderer: {PLAYERS} players, {len(views)} games stopped at 80-100 % of their actions")
    print(
        f"  phases rendered: {', '.join(phases)}; rounds {', '.join(map(str, rounds))};"
        f" {len(times_ms)} renders, first (cold) {cold_ms:.1f} ms"
    )
    print(
        f"  image  {lastwill.W} px wide, {min(heights)}-{tallest} px tall (tall:wide up to"
        f" {tallest / lastwill.W:.2f}); smallest font {lastwill.FONT_MIN} px = {font_min_shown:.2f} px"
        f" shown {lastwill.PHONE} px wide (limit 9)"
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
                "benchmark": "render_lastwill",
                "players": PLAYERS,
                "games": len(views),
                "stops": list(STOPS),
                "renders": len(times_ms),
                "width": lastwill.W,
                "height_max": tallest,
                "aspect_max": round(tallest / lastwill.W, 3),
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
