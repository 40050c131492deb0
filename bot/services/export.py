"""Export a game as seed + options + action log, and replay such an export.

The export is the whole truth of a game: replaying it through the rules must
give the stored snapshot back, which is how ``python -m bot replay`` checks a
saved game (and how a rules change is checked against old games).

Every logged move is exported, as ``[seat, action]``, with a third element when
there is more to say: ``{"how": "timeout"}`` for a default move the turn timer
made, ``{"undone": true}`` for a move taken back with an undo (it stays in the
log; a replay skips it).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.registry import Registry
from bot.storage import How, LogEntry, Store
from rules.core import Action, IllegalAction, StateError
from rules.play import canonical, replay

FORMAT = "gamehost-export"
FORMAT_VERSION = 2
"""2: moves may carry a third element (``how``, ``undone``).  1, still read: ``[seat, action]`` only."""


async def export_game(store: Store, game_id: int) -> dict[str, Any]:
    row = await store.games.fetch_game(game_id)
    if row is None:
        raise KeyError(game_id)
    seats = await store.games.fetch_seats(game_id)
    log = await store.log.load_log(game_id)
    return {
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
