"""Helpers the tests share below Discord: reading events and refusals, arranging rules, words and pictures.

The shipped catalog's French and English (``fr``, ``en``), every renderer's caches forgotten at
once, the texts of a picture that overprint one another or leave their panel (``text_faults``),
a refusal with the state checked unchanged, rules that place a test's position at setup, and a
bare game for a presenter. Driving the real bot through SimCord is ``tests/simcord.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any

import pytest

import renderers.california
import renderers.estates
import renderers.lastwill
import renderers.monopoly
from bot.core.i18n import shipped
from bot.core.registry import GameEntry
from bot.storage.codes import GameStatus
from renderers import kit
from rules.core import Action, Event, IllegalAction
from rules.play import canonical
from rules.rng import Rng

TINY_PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4"
    b"\x89\x00\x00\x00\rIDATx\x9cc\xf8\xff\xff?\x03\x00\x08\xfc\x02\xfe\xa7\x9a\xa0\xa0\x00\x00\x00\x00IEND"
    b"\xaeB`\x82"
)
"""A one-pixel PNG, for a stand-in board when the picture is not under test."""


# --- words and pictures ------------------------------------------------------------------------


def fr(key: str, **params: object) -> str:
    """``key`` in the shipped French catalog."""
    return shipped().text(key, "fr", **params)


def en(key: str, **params: object) -> str:
    """``key`` in the shipped English catalog."""
    return shipped().text(key, "en", **params)


def clear_render_caches() -> None:
    """Forget every renderer's cached layers and sprites and the kit's glyph masks, so the next
    picture is drawn from scratch (nothing is pasted from an earlier render)."""
    for game in (renderers.california, renderers.estates, renderers.monopoly, renderers.lastwill):
        game.clear_caches()
    kit._text_mask.cache_clear()


TEXT_TOLERANCE = 1.0
"""Pixels two texts' boxes may share, or a box may stick out of its panel: anti-aliasing, not a clash."""


def text_faults(picture: kit.Picture, tolerance: float = TEXT_TOLERANCE) -> list[str]:
    """What is wrong with where a picture's texts landed (``kit.recording_texts``): a text over
    another, or outside its panel or the image (beyond ``tolerance`` pixels); ``[]`` when nothing."""
    width, height = picture.size
    found: list[str] = []
    for t in picture.texts:
        x0, y0, x1, y1 = t.box
        if x0 < -tolerance or y0 < -tolerance or x1 > width + tolerance or y1 > height + tolerance:
            found.append(f"{t.text!r} leaves the image at {t.box}")
        p0, q0, p1, q1 = t.panel
        if x0 < p0 - tolerance or y0 < q0 - tolerance or x1 > p1 + tolerance or y1 > q1 + tolerance:
            found.append(f"{t.text!r} {t.box} leaves {t.panel_name} {t.panel}")
    texts = sorted(picture.texts, key=lambda t: t.box[0])
    for i, a in enumerate(texts):
        for b in texts[i + 1 :]:
            if b.box[0] >= a.box[2] - tolerance:
                break
            wide = min(a.box[2], b.box[2]) - max(a.box[0], b.box[0])
            tall = min(a.box[3], b.box[3]) - max(a.box[1], b.box[1])
            if wide > tolerance and tall > tolerance:
                found.append(f"{a.text!r} {a.box} overlaps {b.text!r} {b.box} in {a.panel_name}")
    return found


# --- rules -------------------------------------------------------------------------------------


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def refusal(rules: Any, state: Any, seat: int, action: Action) -> str:
    """The sentence ``action`` is refused with (``IllegalAction``); the state is exactly as it was."""
    before = canonical(rules.dump(state))
    with pytest.raises(IllegalAction) as info:
        rules.apply(state, seat, action)
    assert canonical(rules.dump(state)) == before
    return str(info.value)


class ArrangedSetup:
    """Mixed into a game's rules: ``setup`` also places a test's position (``arrange``), so a
    restart rebuilds the same game.  ``check_invariants``: the arranged state must keep the
    game's conservation laws."""

    check_invariants = False

    def __init__(self, arrange: Callable[[Any], None]) -> None:
        self.arrange = arrange

    def setup(self, players: int, options: Any, seed: int) -> Any:
        state = super().setup(players, options, seed)  # type: ignore[misc]
        self.arrange(state)
        if self.check_invariants:
            broken = self.invariants(state)  # type: ignore[attr-defined]
            assert broken == [], broken
        return state


def bare_game(
    entry: GameEntry | None,
    state: Any,
    names: Sequence[str],
    *,
    first_user: int = 0,
    status: GameStatus = GameStatus.ACTIVE,
) -> Any:
    """Just enough of a ``LiveGame`` for a presenter, below Discord: table 1 around a bare state."""
    seats = [SimpleNamespace(name=name, seat=i, user_id=i + first_user) for i, name in enumerate(names)]
    return SimpleNamespace(
        row=SimpleNamespace(language="en"),
        entry=entry,
        seats=seats,
        names=[s.name for s in seats],
        state=state,
        status=status,
        id=1,
        waiting=lambda: entry.rules.waiting_for(state) if entry is not None else set(),
    )


def play_out(rules: Any, state: Any, seed: int, limit: int = 5_000) -> None:
    """Random moves by the seats the game waits for until the end, invariants checked after each:
    a sampled state (``sample_state``) must play on like a real one."""
    rng = Rng(seed)
    for _ in range(limit):
        if rules.outcome(state) is not None:
            return
        seat = rng.choice(sorted(rules.waiting_for(state)))
        rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
        assert rules.invariants(state) == []
    raise AssertionError("a game played from a sample did not end")
