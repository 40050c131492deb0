"""Player-facing text: one catalog per language, keyed by message or event kind.

Code never builds a sentence inline; it names a key and passes parameters,
so a translation is one new file in ``bot/locales`` and nothing else.
"""

from __future__ import annotations

import logging
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

LOCALES = Path(__file__).parent.parent / "locales"
DEFAULT_LANGUAGE = "en"
_ZERO_IS_ONE = frozenset({"fr"})
"""Languages whose singular covers 0 as well as 1 (CLDR's ``one`` is ``i = 0,1``)."""


def plural(language: str, count: int) -> str:
    """``"one"`` or ``"other"``: which form of a ``<key>_one`` / ``<key>_other`` pair to use.

    Languages differ on what takes the singular: English says "1 point" but "0 points",
    French says "0 point" and "1 point" (CLDR: French ``one`` is 0 and 1, English ``one``
    is 1).  The sign does not matter ("−1 point").  A language without a rule here uses
    English's.
    """
    n = abs(count)
    if language in _ZERO_IS_ONE:
        return "one" if n <= 1 else "other"
    return "one" if n == 1 else "other"


def clip(text: str, limit: int = 2000) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when something was cut.

    Discord refuses a message over 2,000 characters, and a reply that quotes a
    player's input must not be made that long by the input: quote at most ~100.
    """
    return text if len(text) <= limit else text[: limit - 1] + "…"


def available_languages(directory: Path = LOCALES) -> list[tuple[str, str]]:
    """``(code, name)`` of every catalog, its name as its own speakers write it (``language.name``):
    the choices of ``/game new``'s ``language`` option, read when the command is defined."""
    found: list[tuple[str, str]] = []
    for path in sorted(directory.glob("*.toml")):
        table = tomllib.loads(path.read_text(encoding="utf-8"))
        name = table.get("language", {}).get("name", path.stem)
        found.append((path.stem, str(name)))
    return found


@dataclass(frozen=True, slots=True)
class Phrase:
    """Words not yet in any language: a key and its params, worded by :meth:`Catalog.text` when
    it is a param of the sentence being written, so it reads in that sentence's language (why a
    table was closed, told to whoever asks, in their own language)."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)


class _Params(dict[str, Any]):
    """Missing parameters show as ``{name}`` instead of crashing a reply."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _flatten(prefix: str, table: Mapping[str, Any], out: dict[str, str]) -> None:
    for key, value in table.items():
        full = f"{prefix}.{key}" if prefix else key
        if isinstance(value, Mapping):
            _flatten(full, value, out)
        else:
            out[full] = str(value)


class Catalog:
    def __init__(self, messages: Mapping[str, Mapping[str, str]]) -> None:
        self._messages = {lang: dict(table) for lang, table in messages.items()}
        self._words: dict[str, Words] = {}

    @classmethod
    def load(cls, directory: Path = LOCALES) -> Catalog:
        messages: dict[str, dict[str, str]] = {}
        for path in sorted(directory.glob("*.toml")):
            flat: dict[str, str] = {}
            _flatten("", tomllib.loads(path.read_text(encoding="utf-8")), flat)
            messages[path.stem] = flat
        return cls(messages)

    def extend(self, language: str, entries: Mapping[str, str]) -> None:
        """Add keys (used by test-only games that ship their own text)."""
        self._messages.setdefault(language, {}).update(entries)

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages we have a catalog for (``"en"``, ``"fr"``), in order."""
        return tuple(sorted(self._messages))

    def match(self, locale: object) -> str | None:
        """Our language for a Discord locale (``"fr"`` -> ``"fr"``, ``"en-GB"`` -> ``"en"``), or
        ``None`` when we have no catalog for it (or there is no locale)."""
        if locale is None:
            return None
        code = str(locale).strip().lower().replace("_", "-")
        for candidate in (code, code.partition("-")[0]):
            if candidate and candidate in self._messages:
                return candidate
        return None

    def own(self, key: str, language: str) -> str | None:
        """``key``'s template in ``language`` itself, with no English fallback (``None`` if absent)."""
        return self._messages.get(language, {}).get(key)

    def keys(self, language: str) -> frozenset[str]:
        """Every key ``language``'s own catalog has (no English fallback): for tests of the catalogs."""
        return frozenset(self._messages.get(language, {}))

    def has(self, key: str, language: str = DEFAULT_LANGUAGE) -> bool:
        return key in self._messages.get(language, {}) or key in self._messages.get(DEFAULT_LANGUAGE, {})

    def words(self, language: str) -> Words:
        """This catalog bound to one language: what a renderer is given to draw a table's image.

        Always the same object for a language, so a renderer's caches keyed on it hit across
        renders (``Words`` hashes by identity)."""
        found = self._words.get(language)
        if found is None:
            found = self._words[language] = Words(self, language)
        return found

    def text(self, key: str, language: str = DEFAULT_LANGUAGE, /, **params: Any) -> str:
        table = self._messages.get(language) or {}
        template = table.get(key)
        if template is None:
            template = self._messages.get(DEFAULT_LANGUAGE, {}).get(key)
        if template is None:
            log.warning("missing catalog key %s", key)
            return key
        worded = {
            name: self.text(value.key, language, **value.params) if isinstance(value, Phrase) else value
            for name, value in params.items()
        }
        return template.format_map(_Params(worded))


@dataclass(frozen=True, slots=True, eq=False)
class Words:
    """The catalog in one language, with that language's way with numbers and plurals.

    Renderers are handed one (``renderers.kit.Words`` is the shape they rely on) so an image is
    drawn in its table's language without the drawing code knowing about catalogs, and the
    presenter formats numbers and plurals through the same object, so text and image agree.
    Hashable by identity: renderers may key their caches of drawn text on it.
    """

    catalog: Catalog
    language: str

    def __call__(self, key: str, /, **params: Any) -> str:
        return self.catalog.text(key, self.language, **params)

    def number(self, value: int) -> str:
        """``1,500`` in English, ``1 500`` (a narrow no-break space) in French: thousands grouped
        with the catalog's ``host.thousands``, a comma when the language has none."""
        group = self("host.thousands") if self.catalog.has("host.thousands", self.language) else ","
        return f"{value:,}".replace(",", group)

    def count(self, key: str, count: int, /, **params: Any) -> str:
        """``{count} point`` or ``{count} points``: ``<key>_one`` or ``<key>_other`` by the
        language's plural rule (:func:`plural`), with ``count`` formatted as :meth:`number` does."""
        return self(f"{key}_{plural(self.language, count)}", count=self.number(count), **params)


@lru_cache(maxsize=1)
def shipped() -> Catalog:
    """The catalogs in ``bot/locales``, loaded once: for the command line, benchmarks and tests that
    draw a board without a bot (a running bot loads its own :class:`Catalog`)."""
    return Catalog.load()


def words(language: str = DEFAULT_LANGUAGE) -> Words:
    """:func:`shipped` in ``language``."""
    return shipped().words(language)
