"""Imports in the host point one way: ``top -> cogs -> ui -> services -> storage -> core``.

A newcomer finds a room by its name only if the rooms keep to their floors: ``core/`` (registry,
settings, the language catalog, shards) knows no database, ``storage/`` knows no service,
``services/`` know no Discord, and the client and the CLI sit on top of everything. The first
test prints every arrow that runs back up and every import circle, so a failure says which
import to move.
"""

from __future__ import annotations

import ast

import pytest

from harness.imports import ROOT, circles, graph

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


# -- the UI and the cogs reach the database only through services ---------------------------------
#
# The floors above let ``bot.ui`` import ``bot.storage`` (its rows and codes are plain values the UI
# shows), so the import graph cannot see a click handler that queries the store itself.  This
# reads the code instead: an attribute named ``store`` anywhere in ``bot/ui`` or ``cogs``, or an
# import of the store or a backend, is a reach past the services.

BEHIND_SERVICES = ("bot/ui", "cogs")
STORAGE_ITSELF = frozenset({"bot.storage.store", "bot.storage.sqlite", "bot.storage.postgres"})
"""Modules that hold the database; ``bot.storage.rows``, ``bot.storage.codes`` and the package's
re-exports of them stay open to the UI."""


def _storage_itself(module: str) -> bool:
    return any(module == name or module.startswith(name + ".") for name in STORAGE_ITSELF)


def store_reaches(source: str, name: str) -> list[str]:
    """``file:line what`` for every reach to the store in ``source``, in line order."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "store":
            found.append((node.lineno, ".store"))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr", "hasattr")
            and len(node.args) > 1
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value == "store"
        ):
            found.append((node.lineno, f'{node.func.id}(..., "store")'))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, f"import {a.name}") for a in node.names if _storage_itself(a.name)]
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            if _storage_itself(node.module):
                found.append((node.lineno, f"from {node.module} import ..."))
            elif node.module == "bot.storage":
                found += [
                    (node.lineno, f"from bot.storage import {a.name}")
                    for a in node.names
                    if a.name == "Store" or _storage_itself(f"bot.storage.{a.name}")
                ]
    return [f"{name}:{line} {what}" for line, what in sorted(found)]


def test_the_ui_and_the_cogs_reach_the_database_only_through_services() -> None:
    found: list[str] = []
    for folder in BEHIND_SERVICES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            found += store_reaches(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix())
    files = sorted({line.partition(":")[0] for line in found})
    print(f"bot/ui/ and cogs/: {len(found)} reaches to the store, in {len(files)} files")
    assert not found, "the UI or a cog reaches the store past the services:\n" + "\n".join(found)


def test_a_reach_to_the_store_is_reported() -> None:
    """The test above passes only if the check can see a reach; plain rows and codes pass."""
    planted = (
        "from bot.storage import GameStatus, MessageKind, Store, StoreError\n"
        "from bot.storage.rows import GameRow\n"
        "from bot.storage.codes import OPEN_STATUSES\n"
        "from bot.storage.sqlite import SQLite\n"
        "import bot.storage.postgres\n"
        "from bot.storage import store\n"
        "async def on_click(self, game):\n"
        "    rows = await self.sessions.store.messages.fetch_live_messages(game.id)\n"
        "    self.store = getattr(self.bot, 'store')\n"
        "    stored = self.stored_rows\n"
    )
    assert store_reaches(planted, "planted.py") == [
        "planted.py:1 from bot.storage import Store",
        "planted.py:4 from bot.storage.sqlite import ...",
        "planted.py:5 import bot.storage.postgres",
        "planted.py:6 from bot.storage import store",
        "planted.py:8 .store",
        "planted.py:9 .store",
        'planted.py:9 getattr(..., "store")',
    ]
