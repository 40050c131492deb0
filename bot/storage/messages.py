"""The messages the bot posted for each game (lobbies, tables, results), so they can be found,
edited, folded and swept again after a restart."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from bot.storage.codes import GameStatus, MessageKind
from bot.storage.rows import MessageRow
from bot.storage.sql import ENDED, NOT_PARKED, Part

_MESSAGE_COLUMNS = "message_id, channel_id, kind, version, since, pinged"


def _message(row: Sequence[Any]) -> MessageRow:
    pinged = None if row[5] is None else frozenset(int(s) for s in json.loads(row[5]))
    return MessageRow(
        int(row[0]),
        int(row[1]),
        MessageKind(row[2]),
        int(row[3]),
        None if row[4] is None else int(row[4]),
        pinged,
    )


class MessageStore(Part):
    """``messages``: one row per message, live (still shown as it is) or retired."""

    async def add_message(
        self,
        game_id: int,
        channel_id: int,
        message_id: int,
        kind: MessageKind,
        version: int,
        *,
        since: int | None = None,
        pinged: Iterable[int] | None = None,
    ) -> None:
        await self._write(
            "INSERT INTO messages (message_id, game_id, channel_id, kind, version, live, since, pinged)"
            " VALUES (?, ?, ?, ?, ?, 1, ?, ?) ON CONFLICT (message_id) DO UPDATE SET game_id = excluded.game_id,"
            " channel_id = excluded.channel_id, kind = excluded.kind, version = excluded.version, live = 1,"
            " since = excluded.since, pinged = excluded.pinged",
            (
                message_id,
                game_id,
                channel_id,
                kind,
                version,
                since,
                None if pinged is None else json.dumps(sorted(pinged)),
            ),
        )

    async def fetch_live_messages(self, game_id: int, kind: MessageKind | None = None) -> list[MessageRow]:
        sql = f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE game_id = ? AND live = 1"
        params: list[Any] = [game_id]
        if kind is not None:
            sql += " AND kind = ?"
            params.append(kind)
        rows = await self._fetch(sql + " ORDER BY message_id", params)
        return [_message(r) for r in rows]

    async def fetch_last_message(self, game_id: int, kind: MessageKind) -> MessageRow | None:
        """The newest message of this kind, live or retired (whom did the last table ping?)."""
        rows = await self._fetch(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE game_id = ? AND kind = ? ORDER BY message_id DESC LIMIT 1",
            (game_id, kind),
        )
        return _message(rows[0]) if rows else None

    async def has_message(self, game_id: int, kind: MessageKind) -> bool:
        """Whether this game ever had a message of this kind (live or retired)."""
        rows = await self._fetch(
            "SELECT 1 FROM messages WHERE game_id = ? AND kind = ? LIMIT 1", (game_id, kind)
        )
        return bool(rows)

    async def list_games_behind_their_table(self) -> list[int]:
        """Active games whose newest live table message was drawn for an older public version,
        or that still show an older table beside it (one whose folding failed)."""
        rows = await self._fetch(
            f"SELECT g.id FROM games g WHERE g.status = '{GameStatus.ACTIVE}' AND {self._mine('g.guild_id')}"
            f" AND {NOT_PARKED} AND (g.public_version != COALESCE("
            f" (SELECT m.version FROM messages m WHERE m.game_id = g.id AND m.kind = '{MessageKind.TABLE}' AND m.live = 1"
            "  ORDER BY m.message_id DESC LIMIT 1), -1)"
            f" OR (SELECT COUNT(*) FROM messages m WHERE m.game_id = g.id AND m.kind = '{MessageKind.TABLE}' AND m.live = 1) > 1)"
            " ORDER BY g.id"
        )
        return [int(r[0]) for r in rows]

    async def list_games_missing_final(self, *, ended_since: float) -> list[int]:
        """Games ended since ``ended_since`` that had a table but whose closing message was never posted.

        Bounded by time so the minutely sweep does not rescan every game that ever ended.
        """
        rows = await self._fetch(
            f"SELECT g.id FROM games g WHERE g.status IN {ENDED} AND g.ended_at >= ? AND g.pruned_at IS NULL"
            f" AND {self._mine('g.guild_id')} AND {NOT_PARKED}"
            f" AND EXISTS (SELECT 1 FROM messages m WHERE m.game_id = g.id AND m.kind = '{MessageKind.TABLE}')"
            f" AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.game_id = g.id AND m.kind = '{MessageKind.FINAL}')"
            " ORDER BY g.id",
            (ended_since,),
        )
        return [int(r[0]) for r in rows]

    async def retire_message(self, message_id: int) -> None:
        await self._write("UPDATE messages SET live = 0 WHERE message_id = ?", (message_id,))

    async def update_message_version(
        self, message_id: int, version: int, *, pinged: Iterable[int] | None = None
    ) -> None:
        """A table message edited in place: the version it shows (and who has been told to play)."""
        if pinged is None:
            await self._write("UPDATE messages SET version = ? WHERE message_id = ?", (version, message_id))
            return
        await self._write(
            "UPDATE messages SET version = ?, pinged = ? WHERE message_id = ?",
            (version, json.dumps(sorted(pinged)), message_id),
        )
