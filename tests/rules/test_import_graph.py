"""No import circle anywhere in ``rules/``.

A circle held open by an import inside a function works until someone moves that import to the
top (or a module runs code at import time), then fails as a half-initialised module. So every
import counts here, top level or not, and the test names each circle it finds.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.imports import circles, graph, imported


def test_the_rules_packages_import_no_module_in_a_circle() -> None:
    found = circles(graph("rules"))
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
