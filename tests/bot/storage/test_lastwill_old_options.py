"""Base Last Will tables stored before ``employment``/``plans`` were refused without the expansion
still open, start and replay after the upgrade (store migration 011), on both backends.

The lobby stored every option filled in with its default, so a base table carried
``employment=full`` and ``plans=tiles``.  Naming either without the expansion is refused now
(components §1), and the host hands the stored options back to ``setup`` when a lobby starts and
whenever a game is rebuilt from its log: without the migration those tables could neither start
nor be replayed.  Tables with the expansion keep both keys.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.games import REGISTRY
from bot.services.lobby import LobbyService
from bot.services.sessions import SessionService
from bot.storage import Store
from rules.core import InvalidOptions
from rules.lastwill import RULES
from rules.play import replay
from tests.bot.services.kit import ANA, BOB
from tests.bot.storage.test_monopoly_old_games import raw

OLD_KEYS = {"employment": "full", "plans": "tiles"}


async def open_table(lobby: LobbyService, options: str, channel: int) -> int:
    created = await lobby.create(
        game="lastwill",
        options_text=options,
        host_id=ANA,
        host_name="ana",
        guild_id=1,
        channel_id=channel,
        language="en",
    )
    await lobby.join(created.id, BOB, "bob")
    return created.id


async def test_old_base_tables_lose_the_two_keys_and_still_start_and_replay(store_target: str | Path) -> None:
    store = await Store.open(store_target)
    sessions = SessionService(store, REGISTRY)
    lobby = LobbyService(sessions)
    running = await open_table(lobby, "expansion=off", 2)
    waiting = await open_table(lobby, "expansion=off", 3)
    expanded = await open_table(lobby, "", 4)
    game = await lobby.start(running, ANA, seed=5)
    live = await sessions.load(game.id)
    seat = min(live.waiting())
    await sessions.act(
        game.id, live.user_of(seat), RULES.legal_actions(live.state, seat)[0], version=live.public_version
    )
    rows = {table: await store.games.fetch_game(table) for table in (running, waiting, expanded)}
    base = {table: dict(row.options) for table, row in rows.items() if row is not None}
    assert "employment" not in base[running] and "employment" in base[expanded]
    await store.close()

    # What the old bot stored: the two defaults filled in, schema 10.
    back_to_10 = (
        ("PRAGMA user_version = 10", ())
        if isinstance(store_target, Path)
        else ("DELETE FROM schema_version WHERE version >= 11", ())
    )
    await raw(
        store_target,
        *[
            ("UPDATE games SET options = ? WHERE id = ?", (json.dumps({**base[t], **OLD_KEYS}), t))
            for t in (running, waiting)
        ],
        back_to_10,
    )
    with pytest.raises(InvalidOptions):
        RULES.setup(2, {**base[running], **OLD_KEYS}, 5)  # why the migration exists

    store = await Store.open(store_target)  # the bot restarted: migration 011 runs
    try:
        assert await store.schema_version() >= 11
        for table in (running, waiting, expanded):
            row = await store.games.fetch_game(table)
            assert row is not None and dict(row.options) == base[table]
        sessions = SessionService(store, REGISTRY)
        moves = [(s, a) for _, s, a in await store.log.load_actions(game.id)]
        live = await sessions.load(game.id)
        assert RULES.dump(replay(RULES, 2, base[running], 5, moves)) == RULES.dump(live.state)
        started = await LobbyService(sessions).start(waiting, ANA, seed=6)
        assert (await sessions.load(started.id)).state.expansion is False
    finally:
        await store.close()
