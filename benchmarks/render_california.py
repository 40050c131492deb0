"""Render time and PNG size of the California board: the largest table (5 players), late in the game.

Goal (from the issue "The table, redesigned for phones and for slow games"):
a median render of at most 20 ms, drawing and PNG encoding together, and a
PNG of at most 300 kB.

What runs: for each seed, ``rules.play.random_playthrough(RULES, 5, seed,
stop_after=90, check=False)`` plays a seeded random 5-player game for 90
moves (day 11 or so of 12: random 5-player games last about 100-125 moves,
and late boards hold the most tiles); the public view (``RULES.view(state,
None)``) is taken once, and ``renderers.california.render(view, names, words)``
is timed ``--repeat`` times on it (``time.perf_counter``, the whole call:
drawing and PNG encoding), in the table's language ``--language`` (``en`` or
``fr``: French sentences are longer, and the layers are cached per language).  The very first render of the process also builds the
cached static layers; it is reported on its own as "cold" and left out of the
median and p95.  The private "My mansion" picture
(``render_mansion(view, names, seat, words)``) is timed too, for information.

Usage::

    PYTHONPATH=. python benchmarks/render_california.py [--seeds 1,2,3,4,5] [--repeat 40] [--players 5] [--moves 90] [--language fr]

The last line of the output is one JSON object with every figure
(``median_ms``, ``png_bytes_max`` and ``ok`` among them).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from benchmarks.render_common import Goals, finish, language_option, timed_ms
from benchmarks.stats import percentile
from bot.core.i18n import words
from renderers.california import render, render_mansion
from rules.california import RULES
from rules.play import random_playthrough

GOALS = Goals(median_ms=20.0, png_bytes=300_000)
MOVES = 90
NAMES = ("Alexandra the Great", "Bob", "Chidinma", "Dmitri", "Eve")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1,2,3,4,5", help="comma-separated game seeds")
    parser.add_argument("--repeat", type=int, default=40, help="renders per seed")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--moves", type=int, default=MOVES, help="random moves played before the render")
    language_option(parser)
    args = parser.parse_args(argv)
    table = words(args.language)
    seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    names = NAMES[: args.players]

    views = []
    for seed in seeds:
        run = random_playthrough(RULES, args.players, seed, stop_after=args.moves, check=False)
        views.append((seed, len(run.log), RULES.view(run.state, None)))

    cold_ms = timed_ms(lambda: render(views[0][2], names, table))

    times: list[float] = []
    sizes: dict[int, int] = {}
    dims: tuple[int, int] = (0, 0)
    print(
        f"California board, {args.players} players after {args.moves} moves, {args.repeat} renders per seed"
    )
    for seed, moves, view in views:
        own: list[float] = []
        png = b""
        for _ in range(args.repeat):
            start = time.perf_counter()
            png = render(view, names, table)
            own.append((time.perf_counter() - start) * 1000)
        times.extend(own)
        sizes[seed] = len(png)
        dims = (int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big"))
        print(
            f"  seed {seed:>3} ({moves} moves): median {statistics.median(own):6.1f} ms, "
            f"p95 {percentile(own, 95):6.1f} ms, PNG {len(png) / 1024:6.1f} KiB"
        )

    zoom: list[float] = []
    zoom_bytes = 0
    for _seed, _moves, view in views:
        for seat in range(args.players):
            start = time.perf_counter()
            zoom_bytes = max(zoom_bytes, len(render_mansion(view, names, seat, table)))
            zoom.append((time.perf_counter() - start) * 1000)

    median = statistics.median(times)
    p95 = percentile(times, 95)
    largest = max(sizes.values())
    print(f"image: {dims[0]} x {dims[1]} px")
    print(f"cold first render (builds the static layers): {cold_ms:.1f} ms")
    print(
        f"median: {median:6.1f} ms   (goal <= {GOALS.median_ms:.0f} ms)  "
        f"{'ok' if median <= GOALS.median_ms else 'MISSED'}"
    )
    print(f"p95:    {p95:6.1f} ms")
    print(
        f"PNG:    {largest / 1000:6.1f} kB largest, {statistics.mean(sizes.values()) / 1000:.1f} kB mean"
        f"   (goal <= {GOALS.png_bytes / 1000:.0f} kB)  {'ok' if largest <= GOALS.png_bytes else 'MISSED'}"
    )
    print(f"My mansion: median {statistics.median(zoom):6.1f} ms, PNG {zoom_bytes / 1000:.1f} kB largest")
    return finish(
        {
            "benchmark": "render_california",
            "players": args.players,
            "moves": args.moves,
            "seeds": seeds,
            "renders": len(times),
            "width": dims[0],
            "height": dims[1],
            "cold_ms": round(cold_ms, 2),
            "median_ms": round(median, 2),
            "p95_ms": round(p95, 2),
            "max_ms": round(max(times), 2),
            "png_bytes_max": largest,
            "png_bytes": {str(k): v for k, v in sizes.items()},
            "zoom_median_ms": round(statistics.median(zoom), 2),
            "zoom_png_bytes_max": zoom_bytes,
            **GOALS.figures(),
            "ok": GOALS.met(median, largest),
        }
    )


if __name__ == "__main__":
    sys.exit(main())
