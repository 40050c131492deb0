"""The story chart: legible at phone width in both languages, every seat in its colour, in budget."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from benchmarks import render_story as story_benchmark
from bot.core.i18n import words
from bot.games import REGISTRY
from renderers import kit
from renderers.story import PHONE_WIDTH, alt_text, lead_takes, render_story, seat_colours
from rules.play import random_playthrough, story_series
from tests.helpers import clear_render_caches, en, fr, text_faults

NAMES = ["Hélène", "Bartholomew the Great of Avalon", "Ævar", "Σοφία", "Дмитрий", "🎲🎉"]
MAX_BYTES = 300_000


def monopoly_series(players: int, seed: int = 3) -> list[list[int]]:
    """A real long game (thousands of moves), the hardest story to draw."""
    entry = REGISTRY.get("monopoly")
    assert entry is not None and entry.story is not None
    run = random_playthrough(entry.rules, players, seed)
    return story_series(entry.rules, entry.story, players, run.options, seed, run.log)


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_renders_legibly(players: int, language: str) -> None:
    series = monopoly_series(players)
    clear_render_caches()
    with kit.recording_font_sizes() as sizes, kit.recording_texts() as seen:
        png = render_story(series, NAMES[:players], words(language), measure="story.image.measure.monopoly")
    assert len(png) <= MAX_BYTES
    (picture,) = seen.pictures
    assert text_faults(picture) == []
    width = picture.size[0]
    assert min(kit.smallest_on_phone(size, width, PHONE_WIDTH) for size in sizes) >= 9
    drawn = {t.text for t in picture.texts}
    say = en if language == "en" else fr
    assert say("story.image.title") in drawn
    assert say("story.image.measure.monopoly") in drawn
    assert say("story.image.moves") in drawn
    number = words(language).number
    for seat in range(players):
        assert number(series[-1][seat]) in drawn, f"seat {seat}'s final value is shown"
    # A name the font cannot draw shows its seat label; long names are cut, never dropped.
    if players == 6:
        assert say("host.image.seat", number=6) in drawn
    assert any(t.startswith("Bartholomew") for t in drawn)


@pytest.mark.parametrize("players", [2, 6])
def test_every_seat_is_drawn_in_its_colour(players: int) -> None:
    series = [[10 * (s + 1) + step * (s + 1) for s in range(players)] for step in range(30)]
    image = Image.open(io.BytesIO(render_story(series, NAMES[:players], words("en")))).convert("RGB")
    present = {colour for _, colour in image.getcolors(maxcolors=1 << 16) or []}
    for colour in seat_colours(players):
        assert colour in present


def test_flat_and_single_point_stories_render() -> None:
    for series in ([[0, 0, 0]], [[5, 5], [5, 5], [5, 5]]):
        with kit.recording_texts() as seen:
            render_story(series, NAMES, words("fr"))
        assert text_faults(seen.pictures[0]) == []


def test_lead_takes_counts_lone_leads_only() -> None:
    # Level at the start; seat 1 pulls ahead, a tie keeps it leading, seat 0 overtakes, then 1 again.
    series = [[0, 0], [0, 2], [2, 2], [3, 2], [3, 4]]
    assert lead_takes(series) == [1, 2]
    # Where the least wins, the same numbers lead the other way round.
    assert lead_takes(series, lower_leads=True) == [2, 1]


def test_alt_text_has_a_sentence_per_seat() -> None:
    series = [[0, 0], [0, 2], [3, 2]]
    text = alt_text(series, ["ana", "bo"], words("en"), measure="story.image.measure.california")
    assert text == " ".join(
        [
            en("story.image.alt_intro_other", measure=en("story.image.measure.california"), count="2"),
            en("story.image.alt_one", name="ana", score="3", count="1"),
            en("story.image.alt_one", name="bo", score="2", count="1"),
        ]
    )
    french = alt_text([[0, 0], [0, 1]], ["ana", "bo"], words("fr"), lower_leads=True)
    assert fr("story.image.alt_never", name="bo", score="1") in french
    assert fr("story.image.alt_one", name="ana", score="0", count="1") in french


def test_the_benchmark_reports_its_goals(capsys: pytest.CaptureFixture[str]) -> None:
    assert story_benchmark.main(["--seeds", "1", "--repeats", "1"]) == 0
    figures = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert figures["ok"] and figures["max_png_bytes"] <= MAX_BYTES and figures["smallest_text_px_at_400"] >= 9
