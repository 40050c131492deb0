"""Every catalog in ``bot/locales`` says everything the English one says, with the same blanks.

A translation is one file (``bot/core/i18n.py``): a key missing from it silently falls back to English
and a placeholder spelled differently shows as ``{name}`` on the table, so both are caught here
rather than by a player.  Plural pairs (``<key>_one`` / ``<key>_other``) are chosen per language
by :func:`bot.core.i18n.plural`.
"""

from __future__ import annotations

import string
import tomllib

import pytest

from bot.core.i18n import DEFAULT_LANGUAGE, LOCALES, Catalog, _flatten, plural
from bot.ui.presenter import Presenter
from rules.lastwill.data import CHOSEN_RULINGS

TRANSLATIONS = sorted(path.stem for path in LOCALES.glob("*.toml") if path.stem != DEFAULT_LANGUAGE)

OMITTED: dict[str, frozenset[str]] = {}
"""Parameters a translation may leave out, because the code computes them for English grammar only
(none today: California's purchases are whole phrases per case, article included)."""


def flat(language: str) -> dict[str, str]:
    out: dict[str, str] = {}
    _flatten("", tomllib.loads((LOCALES / f"{language}.toml").read_text(encoding="utf-8")), out)
    return out


def placeholders(template: str) -> set[str]:
    """``{player}``, ``{value!r}``...: each blank with its conversion, as ``str.format`` reads it."""
    return {
        name + (f"!{conversion}" if conversion else "")
        for _, name, _, conversion in string.Formatter().parse(template)
        if name is not None
    }


def plural_base(key: str) -> str | None:
    for suffix in ("_one", "_other"):
        if key.endswith(suffix):
            return key[: -len(suffix)]
    return None


def test_there_is_a_french_catalog() -> None:
    assert "fr" in TRANSLATIONS


@pytest.mark.parametrize("language", [DEFAULT_LANGUAGE, *TRANSLATIONS])
def test_catalog_is_valid_toml_of_strings(language: str) -> None:
    table = tomllib.loads((LOCALES / f"{language}.toml").read_text(encoding="utf-8"))
    out: dict[str, str] = {}
    _flatten("", table, out)
    assert out
    for key, value in out.items():
        assert isinstance(value, str), key
        placeholders(value)  # raises on a stray brace


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_same_keys_as_english(language: str) -> None:
    english, other = flat(DEFAULT_LANGUAGE), flat(language)
    assert sorted(set(english) - set(other)) == [], f"missing from {language}.toml"
    assert sorted(set(other) - set(english)) == [], f"in {language}.toml but not in English"


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_no_empty_strings(language: str) -> None:
    """A translation is empty only where English is (a score part that says nothing).

    Not `strip()`: a thousands separator is all space (a narrow no-break one in French).
    """
    english, other = flat(DEFAULT_LANGUAGE), flat(language)
    empty = [key for key, value in other.items() if not value and english.get(key)]
    assert empty == []


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_same_placeholders(language: str) -> None:
    """Same blanks per key; a plural form uses any blank of its pair.

    English leaves the count out of ``_one`` ("1 move", "an hour") because it is always 1; a
    language whose singular also covers 0 must write the number, and the code passes the same
    parameters to both forms, so a pair is checked as a whole.
    """
    english, other = flat(DEFAULT_LANGUAGE), flat(language)
    wrong = []
    for key, template in english.items():
        if key not in other:
            continue
        base = plural_base(key)
        if base is not None and f"{base}_one" in english and f"{base}_other" in english:
            allowed = placeholders(english[f"{base}_one"]) | placeholders(english[f"{base}_other"])
            pair = placeholders(other[f"{base}_one"]) | placeholders(other[f"{base}_other"])
            if not placeholders(other[key]) <= allowed or pair != allowed:
                wrong.append((key, placeholders(english[key]), placeholders(other[key])))
            continue
        want = placeholders(template)
        got = placeholders(other[key])
        if not (got <= want and want - got <= OMITTED.get(key, frozenset())):
            wrong.append((key, want, got))
    assert wrong == []


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_plural_pairs_complete(language: str) -> None:
    """Each English ``_one`` / ``_other`` pair is a pair here too, and no half-pair is added.

    ("lastwill.event.errand_one" is an errand to draw one card, not a plural form: it has no
    ``_other`` in English either.)
    """
    english, other = set(flat(DEFAULT_LANGUAGE)), set(flat(language))
    pairs = {
        base for key in english if (base := plural_base(key)) and {f"{base}_one", f"{base}_other"} <= english
    }
    assert pairs
    incomplete = [base for base in sorted(pairs) if not {f"{base}_one", f"{base}_other"} <= other]
    assert incomplete == []


@pytest.mark.parametrize("language", [DEFAULT_LANGUAGE, *TRANSLATIONS])
def test_last_will_chosen_rulings(language: str) -> None:
    """``[lastwill.chosen]`` words exactly the rulings the engine lists, in its order."""
    chosen = [
        key.removeprefix("lastwill.chosen.") for key in flat(language) if key.startswith("lastwill.chosen.")
    ]
    assert chosen == list(CHOSEN_RULINGS)
    assert all(flat(language)[f"lastwill.chosen.{key}"].strip() for key in CHOSEN_RULINGS)


def test_french_thousands_is_a_narrow_no_break_space() -> None:
    assert flat("fr")["host.thousands"] == "\u202f"


# -- plurals ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "count", "form"),
    [
        ("en", 0, "other"),
        ("en", 1, "one"),
        ("en", 2, "other"),
        ("en", -1, "one"),
        ("fr", 0, "one"),
        ("fr", 1, "one"),
        ("fr", 2, "other"),
        ("fr", -1, "one"),
        ("fr", 1500, "other"),
        ("de", 0, "other"),  # no rule of its own: English's
    ],
)
def test_plural_form_by_language(language: str, count: int, form: str) -> None:
    assert plural(language, count) == form


def test_presenter_count_picks_the_language_form() -> None:
    presenter = Presenter(Catalog.load())
    said = {n: presenter.count("estates.points", "fr", n) for n in (0, 1, 2)}
    assert said == {0: "0 point", 1: "1 point", 2: "2 points"}
    assert presenter.count("estates.points", "en", 0) == "0 points"
    assert presenter.count("estates.points", "en", 1) == "1 point"


def test_a_catalog_gives_one_words_object_per_language() -> None:
    """Renderers cache drawn text keyed on ``words``: a new object per render would miss every time."""
    catalog = Catalog.load()
    assert catalog.words("fr") is catalog.words("fr")
    assert catalog.words("fr") is not catalog.words("en")
    assert {catalog.words("fr"): 1}[catalog.words("fr")] == 1
