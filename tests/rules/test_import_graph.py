"""No import circle anywhere in ``rules/``.

A circle held open by an import inside a function works until someone moves that import to the
top (or a module runs code at import time), then fails as a half-initialised module. So every
import counts here, top level or not, and the test names each circle it finds.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"


def module_name(path: Path) -> str:
    parts = path.relative_to(RULES_DIR.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(RULES_DIR.rglob("*.py"))}


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ``rules`` that ``name`` imports, wherever the import statement stands.

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


def graph() -> dict[str, set[str]]:
    found = modules()
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


def test_the_rules_packages_import_no_module_in_a_circle() -> None:
    found = circles(graph())
    assert not found, "import circles in rules/:\n" + "\n".join(" -> ".join(c) for c in found)


def test_a_circle_is_found_and_printed_from_its_first_module() -> None:
    """The test above passes only if the search can see a circle; a module that merely imports
    into one (``d``) is not part of it."""
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(edges) == [["a", "b", "c", "a"]]
    assert circles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize(
    "source",
    [
        "def f():\n    from .turn import end\n",
        "from rules.lastwill import turn\n",
        "import rules.lastwill.turn\n",
    ],
    ids=["inside-a-function-relative", "from-package", "plain"],
)
def test_an_import_in_any_form_is_an_edge(source: str, tmp_path: Path) -> None:
    fake = tmp_path / "rounds.py"
    fake.write_text(source, encoding="utf-8")
    known = {"rules.lastwill.turn", "rules.lastwill"}
    assert imported("rules.lastwill.rounds", fake, known) == {"rules.lastwill.turn"}
