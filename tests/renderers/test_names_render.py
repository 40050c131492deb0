"""Players' names are drawn as written in any script the font covers, and never as empty boxes.

The font's own character map is read here from the TTF file (``cmap`` format 4, the one every
TrueType font carries for the Basic Multilingual Plane), independently of how ``kit`` decides.
"""

from __future__ import annotations

import importlib
import struct
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import pytest

from bot.core.i18n import words
from bot.games import REGISTRY
from renderers import kit
from rules.play import random_playthrough

EN = words("en")
"""The boards as an English table sees them."""

NAMES = ["Hélène", "Øyvind", "Ævar", "Σοφία", "Дмитрий", "🎲🎉"]
WRITTEN = NAMES[:5]
EMOJI = NAMES[5]

GAMES: list[tuple[str, Any, Callable[[Any, Sequence[str], kit.Words], bytes], Callable[[], None], int]] = [
    (
        entry.name,
        entry.rules,
        entry.renderer,
        importlib.import_module(entry.renderer.__module__).clear_caches,
        min(entry.rules.max_players, len(NAMES)),
    )
    for entry in REGISTRY.public()
]
"""Every game players are offered, at its largest table (its renderer module's ``clear_caches``
forgets drawn names between the two lists)."""


@cache
def font_cmap() -> frozenset[str]:
    """Every BMP character the font maps to a real glyph (not glyph 0, the missing-glyph box)."""
    with open(kit.font_path(), "rb") as f:
        data = f.read()
    (tables,) = struct.unpack_from(">H", data, 4)
    offsets = {
        data[12 + 16 * i : 16 + 16 * i]: struct.unpack_from(">I", data, 20 + 16 * i)[0] for i in range(tables)
    }
    cmap = offsets[b"cmap"]
    (subtables,) = struct.unpack_from(">H", data, cmap + 2)
    for i in range(subtables):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        table = cmap + offset
        if (platform, encoding) == (3, 1) and struct.unpack_from(">H", data, table)[0] == 4:
            break
    else:
        raise AssertionError("the font has no Windows Unicode BMP cmap")
    (seg_x2,) = struct.unpack_from(">H", data, table + 6)
    ends_at = table + 14
    starts_at = ends_at + seg_x2 + 2
    deltas_at = starts_at + seg_x2
    ranges_at = deltas_at + seg_x2
    found: set[str] = set()
    for seg in range(seg_x2 // 2):
        end, start = (struct.unpack_from(">H", data, at + 2 * seg)[0] for at in (ends_at, starts_at))
        (delta,) = struct.unpack_from(">h", data, deltas_at + 2 * seg)
        (range_offset,) = struct.unpack_from(">H", data, ranges_at + 2 * seg)
        for code in range(start, min(end, 0xFFFE) + 1):
            if range_offset:
                at = ranges_at + 2 * seg + range_offset + 2 * (code - start)
                (glyph,) = struct.unpack_from(">H", data, at)
                glyph = (glyph + delta) % 65536 if glyph else 0
            else:
                glyph = (code + delta) % 65536
            if glyph:
                found.add(chr(code))
    return frozenset(found)


def test_the_cmap_reader_sees_latin_greek_cyrillic_and_the_pound_but_no_emoji() -> None:
    cmap = font_cmap()
    assert set("AZaz09£€éèêëçñåøæœßłŁđσΣωЖжщЁё") <= cmap
    assert "\u2603" not in cmap and "\U0001f3b2" not in cmap  # a snowman; a die (beyond the BMP)


@pytest.mark.parametrize("name", WRITTEN)
def test_every_letter_of_these_names_is_in_the_font(name: str) -> None:
    assert kit.player_names([name], 1, EN) == [name]
    assert set(name) <= font_cmap()
    assert all(kit.has_glyph(c) for c in name)


def test_the_kits_glyph_check_agrees_with_the_cmap() -> None:
    cmap = font_cmap()
    sample = [chr(c) for c in range(0x20, 0x2FFF) if chr(c).isprintable()]
    assert [c for c in sample if kit.has_glyph(c) != (c in cmap)] == []


def test_names_the_font_cannot_draw_fall_back_to_the_seat_label() -> None:
    assert kit.player_names([EMOJI, "李雷", "Bob 李", "Zoë 🎉", "❤️ Ana", "\u200d"], 6, EN) == [
        "Player 1",
        "Player 2",
        "Player 3",
        "Zoë",
        "Ana",
        "Player 6",
    ]


@pytest.mark.parametrize(("game", "rules", "render", "clear", "players"), GAMES, ids=[g[0] for g in GAMES])
def test_boards_draw_every_name_with_real_glyphs(
    drawn: list[str],
    game: str,
    rules: Any,
    render: Callable[[Any, Sequence[str], Any], bytes],
    clear: Callable[[], None],
    players: int,
) -> None:
    cmap = font_cmap()
    for names in (NAMES[:players], NAMES[-players:]):
        clear()
        kit._text_mask.cache_clear()
        drawn.clear()
        state = random_playthrough(rules, players, 5, stop_after=10, check=False).state
        render(rules.view(state, None), names, EN)
        text = "\n".join(drawn)
        missing = sorted({c for c in text if c not in cmap and not c.isspace()})
        assert missing == [], f"{game} drew characters the font lacks: {missing}"
        for name in names:
            if name == EMOJI:
                assert f"Player {names.index(name) + 1}" in text, game
            else:
                assert name in text, (game, name)
