"""Monopoly games started before auctions became open keep their round-robin auctions (store
migration 010), on both backends.

The host rebuilds a game from ``setup(players, options, seed)`` and its log (undo, history, catch
me up), so a game's stored options must say how it was played.  A game stored before the change
has no ``auction`` option: set up today it would get open auctions and part ways with its own
snapshot.  Here such a row is written as the old bot left it (options and snapshot without the
new keys, schema 9), the store is opened again as a restarted bot opens it, and the game still
auctions round-robin, and its replay, history, undo and ``python -m bot migrate``'s check
still match what was played.  A lobby
(not set up yet) is left alone: it starts with today's default.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import asyncpg

from bot.games import REGISTRY
from bot.services.lobby import LobbyService
from bot.services.sessions import SessionService
from bot.services.undo import plan_undo
from bot.storage import Store
from bot.storage.base import POSTGRES, SQLITE, migrations
from bot.storage.transfer import replay_problem
from rules.core import Action
from rules.monopoly import RULES
from rules.play import replay
from tests.bot.services.kit import ANA, BOB

EVE_ID = 103
NEW_KEYS = ("auction", "auction_hours")
NEW_STATE_KEYS = ("auction_mode", "auction_hours", "auctions_opened")
NEW_AUCTION_KEYS = ("mode", "passed", "bids")


async def raw(target: str | Path, *statements: tuple[str, tuple[Any, ...]]) -> None:
    """SQL straight to the database, as an older bot (or an operator) would have left it."""
    if isinstance(target, Path):
        with sqlite3.connect(target) as db:
            for sql, params in statements:
                db.execute(sql, params)
        return
    connection = await asyncpg.connect(target)
    try:
        for sql, params in statements:
            numbered = sql
            for index in range(1, sql.count("?") + 1):
                numbered = numbered.replace("?", f"${index}", 1)
            await connection.execute(numbered, *params)
    finally:
        await connection.close()


def to_auction(sessions: SessionService, game_id: int) -> Any:
    """Moves that bring the game to its first auction: roll, decline whatever is for sale, end."""

    async def play() -> None:
        for _ in range(300):
            game = await sessions.load(game_id)
            if game.state.auction is not None:
                return
            seat = min(game.waiting())
            legal = RULES.legal_actions(game.state, seat)
            kinds = {a.kind: a for a in legal}
            action = next(
                (kinds[k] for k in ("decline", "roll", "fine", "end", "pass") if k in kinds), legal[0]
            )
            await sessions.act(game_id, game.user_of(seat), action, version=game.public_version)
        raise AssertionError("no auction in 300 moves")

    return play()


def old_snapshot(snapshot: str) -> str:
    """The snapshot as the bot wrote it before auctions had a mode."""
    state = json.loads(snapshot)
    for key in NEW_STATE_KEYS:
        state.pop(key)
    if state["auction"] is not None:
        for key in NEW_AUCTION_KEYS:
            state["auction"].pop(key)
    return json.dumps(state, sort_keys=True, separators=(",", ":"))


async def test_an_old_monopoly_game_keeps_round_robin_auctions_after_the_upgrade(
    store_target: str | Path,
) -> None:
    store = await Store.open(store_target)
    sessions = SessionService(store, REGISTRY)
    lobby = LobbyService(sessions)
    created = await lobby.create(
        game="monopoly",
        options_text="auction=round auction_hours=0",
        host_id=ANA,
        host_name="ana",
        guild_id=1,
        channel_id=2,
        language="en",
    )
    for user, name in ((BOB, "bob"), (EVE_ID, "eve")):
        await lobby.join(created.id, user, name)
    game = await lobby.start(created.id, ANA, seed=11)
    waiting_lobby = await lobby.create(
        game="monopoly",
        options_text="",
        host_id=BOB,
        host_name="bob",
        guild_id=1,
        channel_id=3,
        language="en",
    )
    await to_auction(sessions, game.id)
    row = await store.games.fetch_game(game.id)
    assert row is not None and row.snapshot is not None
    played = dict(row.options)
    old_options = {k: v for k, v in played.items() if k not in NEW_KEYS}
    lobby_row = await store.games.fetch_game(waiting_lobby.id)
    assert lobby_row is not None
    lobby_options = {k: v for k, v in lobby_row.options.items() if k not in NEW_KEYS}
    await store.close()

    # What the old bot left: no auction keys anywhere, schema 9.
    back_to_9 = (
        ("PRAGMA user_version = 9", ())
        if isinstance(store_target, Path)
        else ("DELETE FROM schema_version WHERE version >= 10", ())
    )
    await raw(
        store_target,
        (
            "UPDATE games SET options = ?, snapshot = ? WHERE id = ?",
            (json.dumps(old_options), old_snapshot(row.snapshot), game.id),
        ),
        ("UPDATE games SET options = ? WHERE id = ?", (json.dumps(lobby_options), waiting_lobby.id)),
        back_to_9,
    )

    # Without the migration a replay would set up open auctions and leave the snapshot behind.
    loaded_old = RULES.load(json.loads(old_snapshot(row.snapshot)))
    assert loaded_old.auction is not None and loaded_old.auction.mode == "round", (
        "an old save loads round-robin"
    )

    store = await Store.open(store_target)  # the bot restarted: migration 010 (and any later) runs
    try:
        dialect = SQLITE if isinstance(store_target, Path) else POSTGRES
        assert await store.schema_version() == migrations(dialect)[-1][0] >= 10
        migrated = await store.games.fetch_game(game.id)
        assert migrated is not None and dict(migrated.options) == {
            **old_options,
            "auction": "round",
            "auction_hours": 0,
        }
        still_lobby = await store.games.fetch_game(waiting_lobby.id)
        assert still_lobby is not None and dict(still_lobby.options) == lobby_options, (
            "a lobby is not set up yet"
        )
        moves = [(seat, action) for _, seat, action in await store.log.load_actions(game.id)]
        diverging = replay(RULES, 3, old_options, 11, moves)
        assert diverging.auction is not None and diverging.auction.mode == "open", "why the migration exists"

        sessions = SessionService(store, REGISTRY)
        live = await sessions.load(game.id)
        state = live.state
        assert state.auction is not None and state.auction.mode == "round" and state.auction_hours == 0
        assert len(live.waiting()) == 1, "one bidder at a time"
        rebuilt = RULES.dump(replay(RULES, 3, dict(migrated.options), 11, moves))
        saved = RULES.dump(state)
        assert rebuilt == saved, "the replay matches the snapshot (and the engine's own load of it)"
        assert len(await sessions.history(game.id)) == len(moves)
        # ``python -m bot migrate`` checks every game the same way: the old snapshot text lacks
        # today's fields, and is compared as the engine loads it.
        entries = await store.log.load_log(game.id)
        assert replay_problem(migrated, 3, entries, RULES) is None
        unmigrated = replace(migrated, options=old_options)
        assert (
            replay_problem(unmigrated, 3, entries, RULES)
            == "the replay of seed + log differs from the stored snapshot"
        )

        # Play on: a bid, and the next bidder in turn order is waited on; the bid can be taken back.
        (bidder,) = live.waiting()
        await sessions.act(game.id, live.user_of(bidder), Action("bid", (5,)), version=live.public_version)
        live = await sessions.load(game.id)
        assert live.waiting() == {live.state.auction.turn} and live.state.auction.high_bidder == bidder
        assert bidder not in live.waiting()
        plan = plan_undo(RULES, 3, dict(migrated.options), 11, await store.log.load_log(game.id), bidder)
        assert RULES.dump(plan.state) == saved, "undo rebuilds the game as it was"
    finally:
        await store.close()
