"""The move log, and taking moves back.

Every accepted action is written together with the game's new snapshot and version, and the
waits it changes, in one transaction (:meth:`LogStore.record_action` owns it and writes the
``games`` and ``waits`` rows through the helpers of :mod:`bot.storage.waits` on its connection),
so what a player has been shown is always on disk, and the log alone (with the seed) can rebuild
any game.

Undo.  A move taken back stays in the log, marked ``undone`` (:data:`UNDONE`; a hidden move made
after it that no longer fits without it is taken back with it, :data:`UNDONE_WITH`), and the
snapshot is rebuilt from the log without them.  The undo is a change of its own: ``version`` and
``public_version`` each go up by one, never back, so every button drawn before it is stale (a
version that came back would wake buttons drawn for another state), and a process still holding
the old state gets ``VersionConflict``.  No action row carries the undo's version: the primary key
(game_id, version) only ever sees larger versions, and the log has one gap per undo (rows + undos
== version).  ``standing_log`` renumbers replays.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any

from bot.storage.base import CommitUnknown, StoreError, Unconfirmed, VersionConflict
from bot.storage.codes import ENDED_STATUSES, GameStatus, How
from bot.storage.ratings import RatingPlan, apply_rating
from bot.storage.rows import UNDONE, UNDONE_WITH, LogEntry, UndoRequest, WaitChanges, WaitPlanner
from bot.storage.sql import Part
from bot.storage.waits import apply_waits, replan_waits, wait_context
from rules.core import Action

log = logging.getLogger(__name__)

_LOG_COLUMNS = "version, seat, user_id, action, at, how, undone, waited"
_UNDO_COLUMNS = "game_id, version, seat, accepted, asked_at"


def _log_entry(row: Sequence[Any]) -> LogEntry:
    return LogEntry(
        int(row[0]),
        int(row[1]),
        None if row[2] is None else int(row[2]),
        Action.from_json(json.loads(row[3])),
        float(row[4]),
        How(row[5]),
        int(row[6]),
        None if row[7] is None else float(row[7]),
    )


def _undo_request(row: Sequence[Any]) -> UndoRequest:
    return UndoRequest(
        int(row[0]), int(row[1]), int(row[2]), frozenset(int(s) for s in json.loads(row[3])), float(row[4])
    )


class LogStore(Part):
    """``actions`` (the log) and ``undo_requests``."""

    async def record_action(
        self,
        game_id: int,
        *,
        expected_version: int,
        seat: int,
        user_id: int | None,
        action: Action,
        snapshot: str,
        status: GameStatus,
        public_version: int,
        now: float,
        how: How = How.PLAYER,
        waits: WaitPlanner | None = None,
        rating: RatingPlan | None = None,
    ) -> int:
        """Append to the log and move the snapshot forward, atomically.

        The ``version = ?`` guard makes a second writer with a stale view
        fail instead of overwriting: it gets :class:`VersionConflict`.
        ``how`` is ``timeout`` for a default move the turn timer made.  ``waits`` plans the
        game's waits after this action (``None``: they stay as they are, as after a private
        action, whose timing must not show anywhere); the log entry records how long its
        player had been waited on (``waited``), only when it is given.  ``rating``, given with
        the move that finishes a game, rates it in the same transaction
        (:func:`bot.storage.ratings.apply_rating`): the end and its ratings are saved together
        or not at all.
        """
        new_version = expected_version + 1
        logged = json.dumps(action.to_json())
        try:
            await self._record(
                game_id,
                expected_version,
                seat,
                user_id,
                logged,
                snapshot,
                status,
                public_version,
                now,
                how,
                waits,
                rating,
            )
        except CommitUnknown as exc:
            return await self._settle_move(game_id, new_version, seat, logged, now, exc)
        return new_version

    async def _settle_move(
        self, game_id: int, version: int, seat: int, logged: str, now: float, failure: CommitUnknown
    ) -> int:
        """After a COMMIT that failed without saying whether it landed: the database decides.

        A fresh read (a new connection) looks for this very log row (same seat, action and
        moment).  There: the move is saved, ``version`` is returned as after any commit.  Not
        there: a small write must then succeed, because WAL frames a failed fsync left behind
        could come back at the next start until a later commit writes over them; only then is it
        "nothing was saved" (``StoreError``).  Neither read nor write possible: ``Unconfirmed``.
        """
        try:
            rows = await self._db.fetch_fresh(
                "SELECT seat, action, at FROM actions WHERE game_id = ? AND version = ?", (game_id, version)
            )
        except StoreError as exc:
            raise Unconfirmed(f"{failure}; reading it back failed too: {exc}") from failure
        if rows and (int(rows[0][0]), str(rows[0][1]), float(rows[0][2])) == (seat, logged, now):
            log.warning(
                "game %s: version %s was saved although its commit reported: %s", game_id, version, failure
            )
            return version
        try:
            await self._write(
                "INSERT INTO meta (key, value) VALUES ('settled', ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (f"{game_id}:{version}",),
            )
        except StoreError as exc:
            raise Unconfirmed(
                f"{failure}; not in the database, but it cannot be written to settle it: {exc}"
            ) from failure
        raise StoreError(
            f"{failure} (read back: version {version} of game {game_id} is not there)"
        ) from failure

    async def _record(
        self,
        game_id: int,
        expected_version: int,
        seat: int,
        user_id: int | None,
        logged: str,
        snapshot: str,
        status: GameStatus,
        public_version: int,
        now: float,
        how: How,
        waits: WaitPlanner | None,
        rating: RatingPlan | None = None,
    ) -> None:
        """:meth:`record_action`'s transaction: the game row, the log row, the waits and the ratings."""
        new_version = expected_version + 1
        async with self._transaction() as db:
            # public_at moves only with the public version (the right-hand side reads the old row).
            changed = await db.execute(
                "UPDATE games SET version = ?, snapshot = ?, status = ?, public_version = ?, updated_at = ?,"
                " public_at = CASE WHEN public_version = ? THEN public_at ELSE ? END, ended_at = ?"
                f" WHERE id = ? AND version = ? AND status = '{GameStatus.ACTIVE}'",
                (
                    new_version,
                    snapshot,
                    status,
                    public_version,
                    now,
                    public_version,
                    now,
                    now if status in ENDED_STATUSES else None,
                    game_id,
                    expected_version,
                ),
            )
            if changed != 1:
                raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")
            changes: WaitChanges | None = None
            waited: float | None = None
            if waits is not None:
                context = await wait_context(db, game_id, now)
                mine = context.waits.get(seat)
                waited = None if mine is None else max(0.0, now - mine.since)
                changes = waits(context)
            await db.execute(
                "INSERT INTO actions (game_id, version, seat, user_id, action, at, how, waited)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, new_version, seat, user_id, logged, now, how, waited),
            )
            if changes is not None:
                await apply_waits(db, game_id, changes)
            if rating is not None and status == GameStatus.FINISHED:
                await apply_rating(db, rating, now)

    async def load_actions(self, game_id: int) -> list[tuple[int, int, Action]]:
        """``(version, seat, action)`` in order, of the moves that stand: what a replay applies
        (a move taken back stays in the log, see :meth:`load_log`, but is skipped here)."""
        rows = await self._fetch(
            "SELECT version, seat, action FROM actions WHERE game_id = ? AND undone = 0 ORDER BY version",
            (game_id,),
        )
        return [(int(r[0]), int(r[1]), Action.from_json(json.loads(r[2]))) for r in rows]

    async def load_log(self, game_id: int) -> list[LogEntry]:
        """Every logged action, taken back or not, in order (exports, undo, the torture checks)."""
        rows = await self._fetch(
            f"SELECT {_LOG_COLUMNS} FROM actions WHERE game_id = ? ORDER BY version", (game_id,)
        )
        return [_log_entry(r) for r in rows]

    # -- undo ------------------------------------------------------------------------------------

    async def fetch_undo_request(self, game_id: int) -> UndoRequest | None:
        rows = await self._fetch(f"SELECT {_UNDO_COLUMNS} FROM undo_requests WHERE game_id = ?", (game_id,))
        return _undo_request(rows[0]) if rows else None

    async def ask_undo(
        self, game_id: int, *, version: int, seat: int, now: float
    ) -> tuple[UndoRequest, bool]:
        """Open a request at public ``version``; ``(request, True)`` when this call opened it.

        One request per game: a request still open at this version is returned as it is (a
        second click asks nobody twice), one left from an older version is replaced.
        """
        async with self._transaction() as db:
            rows = await db.fetch(
                f"SELECT {_UNDO_COLUMNS} FROM undo_requests WHERE game_id = ?{self.dialect.lock}", (game_id,)
            )
            if rows and int(rows[0][1]) == version:
                return _undo_request(rows[0]), False
            await db.execute(
                "INSERT INTO undo_requests (game_id, version, seat, accepted, asked_at) VALUES (?, ?, ?, '[]', ?)"
                " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, seat = excluded.seat,"
                " accepted = excluded.accepted, asked_at = excluded.asked_at",
                (game_id, version, seat, now),
            )
        return UndoRequest(game_id, version, seat, frozenset(), now), True

    async def accept_undo(self, game_id: int, *, version: int, seat: int) -> UndoRequest | None:
        """Count ``seat``'s consent to the request open at ``version`` (``None``: no such request)."""
        async with self._transaction() as db:
            rows = await db.fetch(
                f"SELECT {_UNDO_COLUMNS} FROM undo_requests WHERE game_id = ? AND version = ?{self.dialect.lock}",
                (game_id, version),
            )
            if not rows:
                return None
            request = _undo_request(rows[0])
            accepted = request.accepted | {seat}
            await db.execute(
                "UPDATE undo_requests SET accepted = ? WHERE game_id = ?",
                (json.dumps(sorted(accepted)), game_id),
            )
        return UndoRequest(game_id, request.version, request.seat, accepted, request.asked_at)

    async def drop_undo(self, game_id: int, *, version: int | None = None) -> bool:
        """Close the game's request (only the one asked at ``version`` when given); ``True`` if one was open."""
        sql = "DELETE FROM undo_requests WHERE game_id = ?"
        params: list[Any] = [game_id]
        if version is not None:
            sql += " AND version = ?"
            params.append(version)
        async with self._transaction() as db:
            return await db.execute(sql, params) > 0

    async def record_undo(
        self,
        game_id: int,
        *,
        expected_version: int,
        public_version: int,
        target: int,
        dropped: Sequence[int],
        snapshot: str,
        now: float,
        waits: WaitPlanner | None = None,
    ) -> int:
        """Take back the action logged at version ``target`` (and ``dropped``), atomically.

        The snapshot (the log replayed without them) and both versions move forward, the rows
        are marked undone, the game's undo request is closed and its waits re-planned, in one
        transaction guarded like :meth:`record_action` (``VersionConflict`` when another
        writer got there first).  Returns the new version.
        """
        new_version = expected_version + 1
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE games SET version = ?, snapshot = ?, public_version = ?, updated_at = ?, public_at = ?"
                f" WHERE id = ? AND version = ? AND status = '{GameStatus.ACTIVE}'",
                (new_version, snapshot, public_version, now, now, game_id, expected_version),
            )
            if changed != 1:
                raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")
            await db.execute(
                "UPDATE actions SET undone = ? WHERE game_id = ? AND version = ? AND undone = 0",
                (UNDONE, game_id, target),
            )
            await db.executemany(
                "UPDATE actions SET undone = ? WHERE game_id = ? AND version = ? AND undone = 0",
                [(UNDONE_WITH, game_id, version) for version in dropped],
            )
            await db.execute("DELETE FROM undo_requests WHERE game_id = ?", (game_id,))
            await replan_waits(db, game_id, now, waits)
        return new_version
