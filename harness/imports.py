"""The import graph of our own packages, read from the source, and the circles in it.

Tests read it to keep imports pointing one way (``rules/`` has no circle; ``bot/`` runs
``cogs -> ui -> services -> storage -> core``).  Every import counts, top level or inside a
function: a circle held open by a function-level import works until someone moves the import to
the top, then fails as a half-initialised module.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The repository: the folder that holds ``rules/``, ``bot/`` and ``cogs/``."""


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(*packages: str) -> dict[str, Path]:
    """Every module of the named top-level packages, by dotted name."""
    return {
        module_name(path): path for package in packages for path in sorted((ROOT / package).rglob("*.py"))
    }


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules among ``known`` that ``name`` imports, wherever the import statement stands.

    ``from pkg import sub`` counts as importing ``pkg.sub`` when that is a module, else ``pkg``.
    A package's ``__init__`` is not counted as imported by its own submodules, as Python runs it
    first whatever the submodule imports.
    """
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return {target for target in found if target in known and target != name}


def graph(*packages: str) -> dict[str, set[str]]:
    """Who imports whom among the modules of ``packages`` (imports of anything else left out)."""
    found = modules(*packages)
    known = set(found)
    return {name: imported(name, path, known) for name, path in found.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One circle per strongly connected group of modules (Tarjan), each closed on its start."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return [_cycle_through(sorted(group), edges) for group in groups]


def _cycle_through(group: list[str], edges: dict[str, set[str]]) -> list[str]:
    """A shortest circle from the group's first module back to it, to print."""
    start, members = group[0], set(group)
    paths: dict[str, list[str]] = {start: [start]}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for target in sorted(edges[node] & members):
                if target == start:
                    return [*paths[node], start]
                if target not in paths:
                    paths[target] = [*paths[node], target]
                    following.append(target)
        frontier = following
    return group
