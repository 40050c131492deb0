"""Export a game as seed + options + action log, and replay such an export.

The export is the whole truth of a game: replaying it through the rules must
give the stored snapshot back, which is how ``python -m bot replay`` checks a
saved game (and how a rules change is checked against old games).

Every logged move is exported, as ``[seat, action]``, with a third element when
there is more to say: ``{"how": "timeout"}`` for a default move the turn timer
made, ``{"undone": true}`` for a move taken back with an undo (it stays in the
log; a replay skips it).

Since issue 28 an export also carries the game's ``story`` (each seat's public score over the
game, :func:`rules.play.story_series`) when the caller passes the registry: ``moves`` lists the
move counts after which the scores changed (0, the start, first; the last move last) and
``scores`` the seats' scores there, so a long game's flat stretches take no room.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.registry import Registry
from bot.storage import How, LogEntry, Store
from rules.core import Action, IllegalAction, Rules, StateError
from rules.play import Story, canonical, replay, story_series

FORMAT = "gamehost-export"
FORMAT_VERSION = 2
"""2: moves may carry a third element (``how``, ``undone``).  1, still read: ``[seat, action]`` only."""


async def export_game(store: Store, game_id: int, registry: Registry | None = None) -> dict[str, Any]:
    """The game as JSON-ready data; with ``registry``, its ``story`` too (``None`` for a game that
    never started, has no story, or whose log no longer replays)."""
    row = await store.games.fetch_game(game_id)
    if row is None:
        raise KeyError(game_id)
    seats = await store.games.fetch_seats(game_id)
    log = await store.log.load_log(game_id)
    story: dict[str, Any] | None = None
    entry = registry.get(row.game) if registry is not None else None
    if entry is not None and entry.story is not None and row.seed is not None:
        moves = [(e.seat, e.action) for e in log if not e.undone]
        # A long game replays in a fraction of a second: off the event loop all the same.
        story = await asyncio.to_thread(
            _story, entry.rules, entry.story, len(seats), row.options, row.seed, moves
        )
    data: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "id": row.id,
        "game": row.game,
        "status": row.status,
        "options": row.options,
        "seed": row.seed,
        "players": [s.name for s in seats],
        "version": row.version,
        "actions": [_exported(entry) for entry in log],
        "snapshot": json.loads(row.snapshot) if row.snapshot else None,
    }
    if registry is not None:
        data["story"] = story
    return data


def _story(
    rules: Rules[Any],
    story: Story,
    players: int,
    options: Mapping[str, object],
    seed: int,
    log: Sequence[tuple[int, Action]],
) -> dict[str, Any] | None:
    try:
        series = story_series(rules, story, players, options, seed, log)
    except (IllegalAction, StateError):
        return None
    return {"lower_leads": story.lower_leads, **story_changes(series)}


def story_changes(series: Sequence[Sequence[int]]) -> dict[str, list[Any]]:
    """``series`` kept where it changes: the start, every move that changed a score, the last move."""
    moves: list[int] = []
    scores: list[list[int]] = []
    for move, point in enumerate(series):
        if move == 0 or move == len(series) - 1 or list(point) != scores[-1]:
            moves.append(move)
            scores.append(list(point))
    return {"moves": moves, "scores": scores}


def story_series_of(changes: Mapping[str, Sequence[Any]]) -> list[list[int]]:
    """The whole series back from :func:`story_changes`: each score held until the next change."""
    moves, scores = changes["moves"], changes["scores"]
    series: list[list[int]] = []
    for i, move in enumerate(moves):
        until = moves[i + 1] if i + 1 < len(moves) else move + 1
        series.extend([list(scores[i]) for _ in range(move, until)])
    return series


def _exported(entry: LogEntry) -> list[Any]:
    item: list[Any] = [entry.seat, entry.action.to_json()]
    notes: dict[str, Any] = {}
    if entry.how != How.PLAYER:
        notes["how"] = entry.how
    if entry.undone:
        notes["undone"] = True
    if notes:
        item.append(notes)
    return item


def standing(actions: Sequence[Sequence[Any]]) -> list[tuple[int, Action]]:
    """The exported moves a replay applies: every one but those taken back."""
    return [
        (int(item[0]), Action.from_json(item[1]))
        for item in actions
        if not (len(item) > 2 and isinstance(item[2], Mapping) and item[2].get("undone"))
    ]


@dataclass(frozen=True, slots=True)
class ReplayReport:
    game: str
    actions: int
    matches: bool
    detail: str


def replay_export(data: Mapping[str, Any], registry: Registry) -> ReplayReport:
    if data.get("format") != FORMAT:
        raise ValueError("not a game export (missing format marker)")
    entry = registry.get(str(data.get("game")))
    if entry is None:
        raise ValueError(f"unknown game {data.get('game')!r}")
    if data.get("seed") is None:
        return ReplayReport(entry.name, 0, data.get("snapshot") is None, "the game never started")
    log = standing(data["actions"])
    try:
        state = replay(entry.rules, len(data["players"]), data["options"], int(data["seed"]), log)
    except (IllegalAction, StateError) as exc:
        return ReplayReport(entry.name, len(log), False, f"the log does not replay: {exc}")
    live = canonical(entry.rules.dump(state))
    stored = canonical(data.get("snapshot"))
    if live == stored:
        return ReplayReport(entry.name, len(log), True, "replayed state equals the stored snapshot")
    return ReplayReport(entry.name, len(log), False, "replayed state differs from the stored snapshot")
