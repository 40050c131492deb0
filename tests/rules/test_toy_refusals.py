"""The test-only games refuse by key, as a real game must, and every key has its sentence.

``tests/bot/core/test_refusal_keys.py`` holds the real games to this; the toys ship their English in
their cog's ``TEXT`` instead of ``bot/locales``, so the same reading of the source is done here
against that text.  The toys are what a new game's author copies (``rules/README.md`` points at
``harness/toygame``), so a sentence raised in one of them, or a sentence nothing raises, fails here.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import ModuleType

import pytest

import harness.toygame
import tests.plugins
import tests.toymarket
from bot.core.i18n import Catalog
from harness.toygame import cog as toy_cog
from rules.core import IllegalAction
from tests.bot.core.test_refusal_keys import blanks, raised
from tests.helpers import bare_game
from tests.toymarket import cog as market_cog

TOYS = [
    pytest.param(harness.toygame, toy_cog.TEXT, id="toygame"),
    pytest.param(tests.toymarket, market_cog.TEXT, id="toymarket"),
]
"""Each toy package (its ``ENTRY`` names the game) and the catalog text its cog ships."""


def package_raises(package: ModuleType) -> list[tuple[str, int, str, frozenset[str]]]:
    """:func:`raised` over a toy's package folder."""
    return raised(Path(str(package.__file__)).parent)


@pytest.mark.parametrize(("package", "text"), TOYS)
def test_every_toy_refusal_has_its_sentence(package: ModuleType, text: Mapping[str, str]) -> None:
    game = package.ENTRY.name
    calls = package_raises(package)
    assert calls, f"{package.__name__} raises no IllegalAction?"
    problems = []
    for where, line, key, params in calls:
        if not key.isidentifier():
            problems.append(f"{where}:{line}: the key {key!r} is not a plain name")
            continue
        template = text.get(f"{game}.illegal.{key}")
        if template is None:
            problems.append(f"{where}:{line}: no sentence for {game}.illegal.{key} in the cog's TEXT")
        elif missing := blanks(template) - params:
            problems.append(f"{where}:{line}: {key} has blanks the engine leaves empty: {missing}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("package", "text"), TOYS)
def test_every_toy_sentence_is_raised(package: ModuleType, text: Mapping[str, str]) -> None:
    prefix = f"{package.ENTRY.name}.illegal."
    used = {key for _, _, key, _ in package_raises(package)}
    written = {key.removeprefix(prefix) for key in text if key.startswith(prefix)}
    assert written <= used, f"sentences no engine raises: {sorted(written - used)}"


def test_plugins_raise_no_refusal_of_their_own() -> None:
    """``tests/plugins`` games inherit the toy's rules (and so its refusals and sentences); one that
    raised its own would need sentences under its own name, checked like the toys above."""
    assert package_raises(tests.plugins) == []


# --- worded by the host ---------------------------------------------------------------------------


def worded(package: ModuleType, presenter_class: type, text: Mapping[str, str], exc: IllegalAction) -> str:
    """``exc`` as the host shows it to an English reader at a table of Ana, Bob and Cy."""
    catalog = Catalog.load()
    catalog.extend("en", text)
    presenter = presenter_class(catalog)
    game = bare_game(package.ENTRY, None, ["Ana", "Bob", "Cy"])
    return str(presenter.illegal(game, exc, "en"))


def test_a_toy_refusal_is_worded_with_its_numbers_formatted() -> None:
    exc = IllegalAction("add_range", amount=1500)
    assert (
        worded(harness.toygame, toy_cog.ToyPresenter, toy_cog.TEXT, exc) == "You can add 1 to 3, not 1,500."
    )


@pytest.mark.parametrize(
    ("exc", "sentence"),
    [
        (IllegalAction("not_your_lot", lot="dune"), "You do not own Dune."),
        (
            IllegalAction("ask_too_much", to_seat=1, cash=3, amount=6),
            "Bob has only 3 cash, so you cannot ask for 6.",
        ),
        (
            IllegalAction("closed_lot_changed", offer=1, answer="accept", lot="acorn"),
            "Offer #1 lapsed when Acorn changed, so it can no longer be accepted.",
        ),
        (
            IllegalAction("closed_withdrawn", offer=2, answer="counter"),
            "Offer #2 was withdrawn, so it can no longer be countered.",
        ),
    ],
)
def test_market_refusals_word_their_tokens(exc: IllegalAction, sentence: str) -> None:
    """Seats, lots and the answer tried reach the reader as words, never as tokens."""
    text = worded(tests.toymarket, market_cog.MarketPresenter, market_cog.TEXT, exc)
    assert text == sentence
