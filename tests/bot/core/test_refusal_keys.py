"""Every refusal an engine can raise has its sentence in every catalog, with the blanks it fills.

Engines name their reasons (``IllegalAction("too_dear", cost=4, money=2)``) and the host words
them from ``<game>.illegal.<key>`` (:meth:`bot.ui.presenter.Presenter.illegal`).  A key with no
sentence would reach a player as a bare "not allowed", and a blank the engine does not fill would
show as ``{name}``: both are found here by reading the engines' source, not by playing into every
refusal.
"""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from bot.core.i18n import Catalog
from bot.games import REGISTRY

ROOT = Path(__file__).parents[3]
CATALOG = Catalog.load()
GAMES = sorted(entry.name for entry in REGISTRY.public())


def raised(folder: Path) -> list[tuple[str, int, str, frozenset[str]]]:
    """``(file, line, key, params)`` of every ``IllegalAction(...)`` in the Python files under
    ``folder`` (``rules/<game>``, or a test game's package).

    A call whose key is not a string literal is reported with the key ``"<dynamic>"`` (a key built
    at run time cannot be checked, so engines spell each one out).
    """
    found = []
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction"):
                continue
            first = node.args[0] if node.args else None
            key = (
                first.value
                if isinstance(first, ast.Constant) and isinstance(first.value, str)
                else "<dynamic>"
            )
            params = frozenset(k.arg for k in node.keywords if k.arg is not None)
            found.append((str(path.relative_to(ROOT)), node.lineno, key, params))
    return found


def blanks(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("game", GAMES)
def test_every_refusal_has_a_sentence_in_every_language(game: str) -> None:
    calls = raised(ROOT / "rules" / game)
    assert calls, f"rules/{game} raises no IllegalAction?"
    problems = []
    for where, line, key, params in calls:
        if not key.isidentifier():
            problems.append(f"{where}:{line}: the key {key!r} is not a plain name")
            continue
        for language in CATALOG.languages:
            template = CATALOG.own(f"{game}.illegal.{key}", language)
            if template is None:
                problems.append(f"{where}:{line}: no {language} sentence for {game}.illegal.{key}")
            elif missing := blanks(template) - params:
                problems.append(
                    f"{where}:{line}: {language} {key} has blanks the engine leaves empty: {missing}"
                )
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("game", GAMES)
def test_every_refusal_sentence_is_raised_somewhere(game: str) -> None:
    """No dead sentences: a key in ``<game>.illegal`` that no engine raises is left over."""
    used = {key for _, _, key, _ in raised(ROOT / "rules" / game)}
    prefix = f"{game}.illegal."
    written = {key.removeprefix(prefix) for key in CATALOG.keys("en") if key.startswith(prefix)}
    assert written <= used, f"sentences no engine raises: {sorted(written - used)}"
