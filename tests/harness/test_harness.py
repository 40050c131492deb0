"""The shared harness (``harness/``): what the benchmarks import instead of ``tests``."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.storage import Store, StoreError
from harness.postgres import untimed_statements

ROOT = Path(__file__).parents[2]


class Refused(ValueError):
    """What the stand-in pool raises once it has seen its arguments (the store words it)."""


def test_the_store_opens_its_pool_untimed_only_inside_the_harness(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []

    def create_pool(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("command_timeout", "unset"))
        raise Refused("no server here")

    monkeypatch.setattr(asyncpg, "create_pool", create_pool)

    async def open_store() -> None:
        with pytest.raises(StoreError):
            await Store.open("postgresql://nobody@127.0.0.1:1/none")

    asyncio.run(open_store())
    with untimed_statements():
        asyncio.run(open_store())
    asyncio.run(open_store())
    assert seen[0] is not None and seen[2] == seen[0], "the bot keeps its own per-statement timeout"
    assert seen[1] is None, "under SimCord the harness arms no timer per statement"
    assert asyncpg.create_pool is create_pool, "leaving the harness restores asyncpg"


def test_benchmarks_and_the_harness_never_import_tests() -> None:
    """The wheel ships ``benchmarks`` and ``harness`` but not ``tests``."""
    found = []
    for folder in ("benchmarks", "harness"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom):
                    names = [node.module or ""]
                else:
                    continue
                found += [
                    f"{path.relative_to(ROOT)}:{node.lineno} {n}" for n in names if n.split(".")[0] == "tests"
                ]
    assert found == []


def test_the_package_ships_the_harness() -> None:
    import tomllib

    include = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"][
        "include"
    ]
    assert {"benchmarks*", "harness*"} <= set(include) and "tests*" not in include
