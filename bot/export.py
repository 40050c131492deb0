"""Export a game as seed + options + action log, and replay such an export.

The export is the whole truth of a game: replaying it through the rules must
give the stored snapshot back, which is how ``python -m bot replay`` checks a
saved game (and how a rules change is checked against old games).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.registry import Registry
from bot.store import Store
from rules.core import Action, IllegalAction, StateError
from rules.play import canonical, replay

FORMAT = "gamehost-export"
FORMAT_VERSION = 1


async def export_game(store: Store, game_id: int) -> dict[str, Any]:
    row = await store.game(game_id)
    if row is None:
        raise KeyError(game_id)
    seats = await store.seats(game_id)
    log = await store.actions(game_id)
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
        "actions": [[seat, action.to_json()] for _, seat, action in log],
        "snapshot": json.loads(row.snapshot) if row.snapshot else None,
    }


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
    log = [(int(seat), Action.from_json(action)) for seat, action in data["actions"]]
    try:
        state = replay(entry.rules, len(data["players"]), data["options"], int(data["seed"]), log)
    except (IllegalAction, StateError) as exc:
        return ReplayReport(entry.name, len(log), False, f"the log does not replay: {exc}")
    live = canonical(entry.rules.dump(state))
    stored = canonical(data.get("snapshot"))
    if live == stored:
        return ReplayReport(entry.name, len(log), True, "replayed state equals the stored snapshot")
    return ReplayReport(entry.name, len(log), False, "replayed state differs from the stored snapshot")
