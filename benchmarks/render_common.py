"""What the renderer benchmarks share (``render_lastwill``, ``render_monopoly``, ``render_estates``,
``render_california``): timing renders, their goals, and the figures' common lines and keys.

Each figure is one whole call to a game's ``render(view, names)``, drawing and PNG encoding; where
a renderer has ``draw_board`` the two halves are also timed apart (``kit.png`` on the drawn image).
The first render of the process (building the cached layers) is timed on its own (``cold_ms``)
and left out of the figures.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from PIL import Image

from benchmarks.stats import percentile
from bot.core.i18n import available_languages
from renderers import kit


class Renderer(Protocol):
    """A renderer module (``renderers.lastwill`` and the like)."""

    def render(self, view: Any, names: Sequence[str], words: kit.Words) -> bytes: ...

    def draw_board(self, view: Any, names: Sequence[str], words: kit.Words) -> Image.Image: ...

    def clear_caches(self) -> None: ...


def arguments(doc: str | None, seeds: int = 8, repeats: int = 25) -> argparse.ArgumentParser:
    """``--seeds`` (games, seeds 1..N) and ``--repeats`` (renders of each game's view)."""
    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    parser.add_argument("--seeds", type=int, default=seeds, help="number of games (seeds 1..N)")
    parser.add_argument("--repeats", type=int, default=repeats, help="renders of each game's view")
    language_option(parser)
    return parser


def language_option(parser: argparse.ArgumentParser) -> None:
    """``--language``: the table's language the boards are drawn in (French words run longer)."""
    choices = [code for code, _ in available_languages()]
    parser.add_argument("--language", choices=choices, default="en", help="the table's language (default en)")


def timed_ms(call: Callable[[], object]) -> float:
    """Milliseconds one call takes."""
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


@dataclass(frozen=True)
class Goals:
    median_ms: float
    png_bytes: int

    def met(self, median_ms: float, png_bytes: int) -> bool:
        return median_ms <= self.median_ms and png_bytes <= self.png_bytes

    def figures(self) -> dict[str, Any]:
        return {"goal_median_ms": self.median_ms, "goal_png_bytes": self.png_bytes}


@dataclass
class Timings:
    """Every timed render of a run: whole calls, and (apart) drawing and encoding."""

    cold_ms: float = 0.0
    """The first render, with the renderer's caches cleared."""
    times_ms: list[float] = field(default_factory=list)
    draw_ms: list[float] = field(default_factory=list)
    encode_ms: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    heights: list[int] = field(default_factory=list)

    @property
    def median_ms(self) -> float:
        return statistics.median(self.times_ms)

    @property
    def p95_ms(self) -> float:
        return percentile(self.times_ms, 95)

    @property
    def size_median(self) -> int:
        return int(statistics.median(self.sizes))

    @property
    def size_max(self) -> int:
        return max(self.sizes)

    def ok(self, goals: Goals) -> bool:
        return goals.met(self.median_ms, self.size_max)

    def print_lines(self, goals: Goals) -> None:
        """The time and PNG lines, and whether the goals are met."""
        print(
            f"  time   median {self.median_ms:6.1f} ms   p95 {self.p95_ms:6.1f} ms   goal: median <= "
            f"{goals.median_ms:.0f} ms   (drawing {statistics.median(self.draw_ms):.1f} ms + encoding "
            f"{statistics.median(self.encode_ms):.1f} ms)"
        )
        print(
            f"  PNG    median {self.size_median / 1000:6.1f} kB   max {self.size_max / 1000:6.1f} kB"
            f"   goal: <= {goals.png_bytes / 1000:.0f} kB"
        )
        print("  " + ("all goals met" if self.ok(goals) else "GOAL MISSED"))

    def figures(self, goals: Goals) -> dict[str, Any]:
        """The figures' common keys, after the game's own."""
        return {
            "cold_ms": round(self.cold_ms, 2),
            "median_ms": round(self.median_ms, 2),
            "p95_ms": round(self.p95_ms, 2),
            "draw_median_ms": round(statistics.median(self.draw_ms), 2),
            "encode_median_ms": round(statistics.median(self.encode_ms), 2),
            "png_median_bytes": self.size_median,
            "png_bytes_max": self.size_max,
            **goals.figures(),
            "ok": self.ok(goals),
        }


def time_renders(
    renderer: Renderer,
    views: Sequence[Any],
    names: Sequence[str],
    repeats: int,
    words: kit.Words,
    colours: Callable[[], Image.Image] | None = None,
) -> Timings:
    """The first render with cold caches, then every view rendered ``repeats`` times, whole, then
    drawn and encoded apart (``kit.png`` with the renderer's ``colours``, if it has a palette)."""
    renderer.clear_caches()
    timings = Timings(cold_ms=timed_ms(lambda: renderer.render(views[0], names, words)))
    gc.collect()
    for _ in range(repeats):
        for view in views:
            start = time.perf_counter()
            data = renderer.render(view, names, words)
            timings.times_ms.append((time.perf_counter() - start) * 1000)
            timings.sizes.append(len(data))
            start = time.perf_counter()
            image = renderer.draw_board(view, names, words)
            middle = time.perf_counter()
            kit.png(image, colours() if colours is not None else None)
            timings.draw_ms.append((middle - start) * 1000)
            timings.encode_ms.append((time.perf_counter() - middle) * 1000)
            timings.heights.append(image.height)
    return timings


def finish(figures: dict[str, Any]) -> int:
    """The figures as the last line of the output (one JSON object); the exit status."""
    print(json.dumps(figures))
    return 0 if figures["ok"] else 1
