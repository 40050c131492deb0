"""Imports in the host point one way: ``top -> cogs -> ui -> services -> storage -> core``.

A newcomer finds a room by its name only if the rooms keep to their floors: ``core/`` (registry,
settings, the language catalog, shards) knows no database, ``storage/`` knows no service,
``services/`` know no Discord, and the client and the CLI sit on top of everything. The first
test prints every arrow that runs back up and every import circle, so a failure says which
import to move.
"""

from __future__ import annotations

import pytest

from harness.imports import circles, graph

FLOORS = ("bot.core", "bot.storage", "bot.services", "bot.ui", "cogs")
"""From the bottom up; a module may import its own floor and those below."""

TOP = len(FLOORS)
"""The client, the CLI, the sandbox and the package itself: they may import anything."""


def floor(module: str) -> int:
    for level, prefix in enumerate(FLOORS):
        if module == prefix or module.startswith(prefix + "."):
            return level
    return TOP


def upward(edges: dict[str, set[str]]) -> list[tuple[str, str]]:
    return sorted(
        (source, target)
        for source, targets in edges.items()
        for target in targets
        if floor(target) > floor(source)
    )


@pytest.mark.xfail(strict=True, reason="the cogs still type their bot as bot.client.GameBot")
def test_no_arrow_runs_back_up_and_no_module_sits_in_a_circle() -> None:
    edges = graph("bot", "cogs")
    arrows = upward(edges)
    loops = circles(edges)
    report = [f"{source} -> {target} (runs back up)" for source, target in arrows]
    report += [" -> ".join(loop) + " (circle)" for loop in loops]
    print(f"bot/ and cogs/: {len(edges)} modules, {len(arrows)} arrows back up, {len(loops)} circles")
    assert not report, "imports in the host that break its floors:\n" + "\n".join(report)


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        ("bot.core.registry", 0),
        ("bot.storage", 1),
        ("bot.services.sessions", 2),
        ("bot.ui.safe", 3),
        ("cogs.lastwill.hand", 4),
        ("bot.client", TOP),
        ("bot", TOP),
    ],
)
def test_each_module_has_the_floor_its_folder_names(module: str, expected: int) -> None:
    assert floor(module) == expected


def test_an_arrow_up_is_reported() -> None:
    """The first test passes only if the check can see a violation."""
    edges = {
        "bot.storage.store": {"bot.services.deadlines", "bot.core.shards"},
        "bot.services.deadlines": set(),
    }
    assert upward(edges) == [("bot.storage.store", "bot.services.deadlines")]
