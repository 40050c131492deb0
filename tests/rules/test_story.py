"""Each game's story: its seats' public scores over a replayed game, from public views only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.core.i18n import words
from bot.core.registry import GameEntry
from bot.games import REGISTRY
from renderers.story import alt_text, render_story
from rules.core import JSON, Action
from rules.estates import RULES as ESTATES
from rules.estates.story import STORY as ESTATES_STORY
from rules.play import Story, random_playthrough, replay, story_series
from tests.helpers import en

EN = words("en")
REAL_GAMES = ("california", "estates", "monopoly", "lastwill")
TOLD = [entry for entry in REGISTRY if entry.story is not None]
"""Every registered game with a story: the four real ones and the toy."""


def told(entry: GameEntry | str) -> Story:
    found = REGISTRY.get(entry) if isinstance(entry, str) else entry
    assert found is not None and found.story is not None
    return found.story


class PublicOnly:
    """A game's rules that note every seat a view was asked for, to see the story asks for none."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.seats: set[int | None] = set()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rules, name)

    def view(self, state: Any, seat: int | None) -> dict[str, JSON]:
        self.seats.add(seat)
        result: dict[str, JSON] = self.rules.view(state, seat)
        return result


def test_every_real_game_tells_a_story() -> None:
    assert {entry.name for entry in TOLD} >= set(REAL_GAMES)
    assert told("lastwill").lower_leads, "the least money wins Last Will"
    assert not told("monopoly").lower_leads


@pytest.mark.parametrize("entry", TOLD, ids=lambda e: e.name)
def test_series_over_a_replayed_game(entry: GameEntry) -> None:
    story = told(entry)
    for players in sorted({entry.rules.min_players, entry.rules.max_players}):
        run = random_playthrough(entry.rules, players, 7)
        assert run.finished, run.failures
        public = PublicOnly(entry.rules)
        series = story_series(public, story, players, run.options, 7, run.log)
        # Only the public view was read, once at the start and once per move.
        assert public.seats == {None}
        assert len(series) == len(run.log) + 1
        assert all(len(point) == players for point in series)
        assert len(set(series[0])) == 1, "everyone starts level"
        outcome = entry.rules.outcome(run.state)
        assert outcome is not None
        assert series[-1] == list(outcome.scores)


@pytest.mark.parametrize("entry", TOLD, ids=lambda e: e.name)
def test_series_equals_public_views_of_the_same_states(entry: GameEntry) -> None:
    story = told(entry)
    players = entry.rules.min_players + 1 if entry.rules.max_players > entry.rules.min_players else 1
    run = random_playthrough(entry.rules, players, 11)
    series = story_series(entry.rules, story, players, run.options, 11, run.log)
    state = entry.rules.setup(players, run.options, 11)
    seen = [story.scores(entry.rules.view(state, None))]
    for seat, action in run.log:
        entry.rules.apply(state, seat, action)
        seen.append(story.scores(entry.rules.view(state, None)))
    assert seen == series


START = {"monopoly": 1_500, "estates": 0}
"""Where every seat starts, by the rulebooks: Monopoly's $1,500 cash, no building in The Estates."""


@pytest.mark.parametrize("game", sorted(START))
def test_start_values(game: str) -> None:
    entry = REGISTRY.get(game)
    assert entry is not None
    state = entry.rules.setup(3, entry.rules.play_options, 1)
    assert told(entry).scores(entry.rules.view(state, None)) == [START[game]] * 3


def test_each_figure_is_the_one_the_public_view_shows() -> None:
    """California's score sheet totals, Monopoly's net worth, Last Will's money, as viewed."""
    picks: dict[str, Callable[[dict[str, Any]], list[int]]] = {
        "california": lambda v: [p["score"]["total"] for p in v["players"]],
        "monopoly": lambda v: [s["net_worth"] for s in v["seats"]],
        "lastwill": lambda v: [p["money"] for p in v["players"]],
    }
    for game, pick in picks.items():
        entry = REGISTRY.get(game)
        assert entry is not None
        run = random_playthrough(entry.rules, 3, 5, stop_after=60)
        view = entry.rules.view(run.state, None)
        assert told(entry).scores(view) == pick(view)


def test_estates_mid_game_counts_the_board_not_money() -> None:
    """While a match runs, a seat's story is its buildings' points (rounds scored plus the board
    now); its money and cash box are hidden and stay out."""
    run = random_playthrough(ESTATES, 3, 4, options={"rounds": 3}, stop_after=150)
    view = ESTATES.view(run.state, None)
    assert view["result"] is None
    past = [sum(r["buildings"][s] for r in view["past_rounds"]) for s in range(3)]
    assert ESTATES_STORY.scores(view) == [p + n for p, n in zip(past, view["score_now"], strict=True)]


def _without_first_stow(
    seed: int,
) -> tuple[list[tuple[int, Action]], list[tuple[int, Action]], int, dict[str, object]]:
    run = random_playthrough(ESTATES, 3, seed)
    stows = [i for i, (_, action) in enumerate(run.log) if action.kind == "stow"]
    assert stows, "random play stows at some point"
    cut = [move for i, move in enumerate(run.log) if i != stows[0]]
    return run.log, cut, stows[0], run.options


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_estates_stows_never_show_in_the_story(seed: int) -> None:
    """Two games alike but for a private stow tell the same story, image and alt text included,
    until the final standings reveal the cash boxes (the last point)."""
    full, cut, at, options = _without_first_stow(seed)
    with_stow = story_series(ESTATES, ESTATES_STORY, 3, options, seed, full)
    without = story_series(ESTATES, ESTATES_STORY, 3, options, seed, cut)
    assert with_stow[at + 1] == with_stow[at], "the stow moved nobody's story"
    alike = with_stow[: at + 1] + with_stow[at + 2 :]
    assert alike[:-1] == without[:-1]
    names = ["ana", "bo", "cy"]
    measure = "story.image.measure.estates"
    assert render_story(alike[:-1], names, EN, measure=measure) == render_story(
        without[:-1], names, EN, measure=measure
    )
    assert alt_text(alike[:-1], names, EN, measure=measure) == alt_text(
        without[:-1], names, EN, measure=measure
    )
    replay(ESTATES, 3, options, seed, cut)  # the stow-less game is a real game


def test_alt_text_names_the_measure() -> None:
    text = alt_text([[0, 0], [1, 0]], ["ana", "bo"], EN, measure="story.image.measure.estates")
    assert text.startswith(
        en("story.image.alt_intro_one", measure=en("story.image.measure.estates"), count="1")
    )
