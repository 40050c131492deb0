"""Moving house: every row of one database copied into another, then every game replayed there.

``python -m bot migrate --to postgresql://...`` (:mod:`bot.cli`) runs :func:`transfer` from the
bot's SQLite file to a PostgreSQL database; any two store targets work (a SQLite file may be
moved to another one).  The bot should be stopped while it runs.

What makes a rerun safe, by design rather than by a flag:

- Rows are matched by primary key.  One already on the target with the same content is
  skipped, a missing one is inserted: a second run writes nothing, and a run after a crash
  (or a Ctrl+C) finishes the job.  Each batch of one table is one transaction on the target,
  so a crash leaves whole batches, never part of one; a game's rows may then be only partly
  there, so the bot is started on the target only after a run that reported ``ok``.
- A row on the target that *differs* from the source's, or a row for a copied game that the
  source does not have, means the target has been played on (the bot was started there, or
  kept running on the source after a first copy).  The whole run is then refused
  (:class:`Diverged`, naming the games) before anything is written.  There is deliberately no
  ``--force``: overwriting would silently throw away one of two histories that players have
  both seen, and which one is right is the operator's call.  Moving the target aside (a fresh
  database) and running again copies everything, which is cheap for a bot's database.
- Rows the target has for games the source does not have are left alone: they are its own.
- The source is read inside one transaction: a consistent snapshot, and on SQLite (whose
  transactions take the file's write lock) a bot still running on it cannot commit a move the
  copy would miss; its players are told that nothing was saved instead.  (A PostgreSQL source
  gives each read its own snapshot: there, stopping the bot is what keeps the copy whole.)

Copying writes ``games.id`` values of its own, so afterwards PostgreSQL's identity sequence is
moved past the largest id (:attr:`bot.storage.base.Dialect.sync_ids`): the next table opened
on the target gets a new id instead of colliding with a copied game.

Verification then reads every running or finished game back *from the target* and replays it
the way the host rebuilds a game: ``setup(seed)`` and the moves that stand
(:func:`bot.storage.rows.standing_log`) must give exactly the stored snapshot (or the snapshot as
today's engine loads it, for one saved before its state gained a field), and the replayed
game must be over exactly when the row says ``finished``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.core.urls import is_postgres_url, public_url
from bot.storage.base import Connection, Database, Row, StoreError
from bot.storage.codes import STARTED_STATUSES, GameStatus
from bot.storage.rows import GameRow, LogEntry, standing_log
from bot.storage.sqlite import sqlite_path
from bot.storage.store import Store
from rules.core import Rules
from rules.play import canonical, replay

BATCH = 500
"""Rows per transaction: small enough for a short lock on the target, large enough that a
database of 100,000 moves takes a few hundred commits."""

Key = tuple[Any, ...]
RulesFor = Callable[[str], Rules[Any] | None]
"""A game's name to its rules (the registry's), ``None`` for a game this bot does not have."""


@dataclass(frozen=True, slots=True)
class Table:
    """One table as the copy sees it: its columns (schema 7), its primary key, and its owner.

    ``owner`` is the column naming what a row belongs to, ``kind`` what that is: a refusal names
    the games (players, servers, settings) whose rows differ.
    """

    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]
    owner: str
    kind: str
    where: str = ""
    """Rows left out on both sides: what each database keeps about itself."""

    def _index(self, column: str) -> int:
        return self.columns.index(column)

    def key_of(self, row: Row) -> Key:
        return tuple(row[self._index(c)] for c in self.key)

    def owner_of(self, row: Row) -> Any:
        return row[self._index(self.owner)]

    def rows_sql(self, lower: bool, upper: bool, limit: bool) -> str:
        """The rows with a key above ``lower`` and up to ``upper`` (when given), in key order."""
        keys = f"({', '.join(self.key)})"
        marks = f"({', '.join('?' for _ in self.key)})"
        where = [self.where] if self.where else []
        if lower:
            where.append(f"{keys} > {marks}")
        if upper:
            where.append(f"{keys} <= {marks}")
        sql = f"SELECT {', '.join(self.columns)} FROM {self.name}"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += f" ORDER BY {', '.join(self.key)}"
        return sql + (" LIMIT ?" if limit else "")

    def insert_sql(self) -> str:
        return (
            f"INSERT INTO {self.name} ({', '.join(self.columns)})"
            f" VALUES ({', '.join('?' for _ in self.columns)})"
        )


TABLES = (
    # games first (every other game table refers to it), in id order (a rematch refers to an older game).
    Table(
        "games",
        (
            "id",
            "guild_id",
            "channel_id",
            "thread_id",
            "game",
            "options",
            "seed",
            "status",
            "version",
            "snapshot",
            "host_id",
            "language",
            "reason",
            "created_at",
            "updated_at",
            "public_version",
            "public_at",
            "rematch_of",
            "remind_hours",
            "timer_hours",
            "ended_at",
            "pruned_at",
        ),
        ("id",),
        "id",
        "game",
    ),
    Table(
        "seats",
        ("game_id", "seat", "user_id", "name", "rank", "bot", "moves", "waited_total", "timeouts"),
        ("game_id", "seat"),
        "game_id",
        "game",
    ),
    Table(
        "actions",
        ("game_id", "version", "seat", "user_id", "action", "at", "how", "undone", "waited"),
        ("game_id", "version"),
        "game_id",
        "game",
    ),
    Table(
        "messages",
        ("message_id", "game_id", "channel_id", "kind", "version", "live", "since", "pinged"),
        ("message_id",),
        "game_id",
        "game",
    ),
    Table(
        "waits",
        ("game_id", "seat", "since", "remind_due", "reminders", "timeout_due"),
        ("game_id", "seat"),
        "game_id",
        "game",
    ),
    Table(
        "undo_requests",
        ("game_id", "version", "seat", "accepted", "asked_at"),
        ("game_id",),
        "game_id",
        "game",
    ),
    Table(
        "reach",
        ("game_id", "parked", "parked_at", "paused", "told", "failures", "retry_at", "archived_at"),
        ("game_id",),
        "game_id",
        "game",
    ),
    Table("players", ("user_id", "notify", "away_until"), ("user_id",), "user_id", "player"),
    Table(
        "guilds",
        (
            "guild_id",
            "remind_hours",
            "timer_hours",
            "channel_id",
            "opener_role_id",
            "lobbies_per_user",
            "tables_per_user",
            "cooldown_seconds",
            "tables_per_server",
        ),
        ("guild_id",),
        "guild_id",
        "server",
    ),
    # No foreign key to games: the ledger outlives a pruned game (ratings are rebuilt from it).
    Table(
        "rated_games",
        ("game_id", "seq", "guild_id", "game", "season", "seats", "at"),
        ("game_id",),
        "game_id",
        "game",
    ),
    Table("seasons", ("guild_id", "season"), ("guild_id",), "guild_id", "server"),
    Table(
        "ratings",
        ("guild_id", "game", "season", "player", "mu", "sigma", "games", "wins", "updated_at"),
        ("guild_id", "game", "season", "player"),
        "guild_id",
        "server",
    ),
    # ``opened`` is the pid that last opened *this* database (Store.open's write check), and the
    # ``discord:`` rows are what its processes last reported of their Discord calls: not data.
    Table(
        "meta",
        ("key", "value"),
        ("key",),
        "key",
        "setting",
        where="key <> 'opened' AND key NOT LIKE 'discord:%'",
    ),
)


class Diverged(Exception):
    """The target holds rows that differ from the source's: it has been played on.  Nothing
    was overwritten; the message is one line naming what differs and what to do."""

    def __init__(self, target: str, owners: Sequence[str]) -> None:
        shown = ", ".join(owners[:10]) + (f" and {len(owners) - 10} more" if len(owners) > 10 else "")
        super().__init__(
            f"{target} already holds different data for {shown} (the bot has run there since, or"
            " kept running on the source after a first copy); nothing was overwritten. Stop the bot"
            " and migrate into an empty database, or move those rows aside there, then run again."
        )
        self.owners = list(owners)


@dataclass(slots=True)
class Report:
    """What a run did: the JSON line ``migrate`` ends with (:meth:`as_json`)."""

    source: str
    target: str
    games: int
    """Games on the source: all of them are on the target once the copy has run."""
    rows: dict[str, int] = field(default_factory=dict)
    """Rows written by this run, per table (0 everywhere on a rerun)."""
    verified: int = 0
    """Running and finished games whose replay on the target gave the stored snapshot."""
    failed: list[int] = field(default_factory=list)
    """Games whose replay on the target did not (the progress lines say why)."""

    @property
    def ok(self) -> bool:
        return not self.failed

    def as_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "target": self.target,
            "games": self.games,
            "rows": dict(self.rows),
            "verified": self.verified,
            "failed": list(self.failed),
            "ok": self.ok,
        }


def describe(target: str) -> str:
    """The database a target names, as messages show it: a file's absolute path, or a URL
    without its password; two targets naming the same database describe alike."""
    if is_postgres_url(target):
        return public_url(target)
    return sqlite_path(target)


def _quiet(line: str) -> None:
    """Progress lines go nowhere: the default for a caller (a test) that reads only the report."""


@dataclass(slots=True)
class _Tally:
    total: int = 0
    missing: int = 0
    same: int = 0
    differ: list[str] = field(default_factory=list)


async def _pages(
    src: Connection, table: Table, size: int
) -> AsyncIterator[tuple[list[Row], Key | None, Key | None]]:
    """The source's rows in key order, ``size`` at a time, each page with the key range it covers.

    The ranges tile the whole key space (the first starts below every key, the last ends above
    every key), so each row of the target falls in exactly one page's range.
    """
    lower: Key | None = None
    while True:
        rows = await src.fetch(table.rows_sql(lower is not None, False, True), (*(lower or ()), size))
        upper = table.key_of(rows[-1]) if len(rows) == size else None
        yield rows, lower, upper
        if upper is None:
            return
        lower = upper


def _compare(
    table: Table, rows: Sequence[Row], there: Sequence[Row], games: frozenset[int], tally: _Tally
) -> list[Row]:
    """Count one page against the target's rows in its range; the rows the target lacks."""
    found = {table.key_of(row): tuple(row) for row in there}
    missing: list[Row] = []
    for row in rows:
        theirs = found.pop(table.key_of(row), None)
        if theirs is None:
            missing.append(row)
        elif theirs == tuple(row):
            tally.same += 1
        else:
            tally.differ.append(f"{table.kind} {table.owner_of(row)}")
    for row in found.values():  # on the target only: a copied game has moved on there
        if table.kind == "game" and table.owner_of(row) in games:
            tally.differ.append(f"game {table.owner_of(row)}")
    tally.total += len(rows)
    tally.missing += len(missing)
    return missing


async def _walk(
    src: Connection,
    target: Database,
    table: Table,
    games: frozenset[int],
    size: int,
    *,
    write: bool,
    progress: Callable[[str], None] = _quiet,
    total: int = 0,
) -> _Tally:
    """Compare one table page by page; with ``write``, insert each page's missing rows in one
    transaction per page (refusing, with that page rolled back, a row that differs)."""
    tally = _Tally()
    async for rows, lower, upper in _pages(src, table, size):
        bounds = (*(lower or ()), *(upper or ()))
        sql = table.rows_sql(lower is not None, upper is not None, False)
        if not write:
            _compare(table, rows, await target.fetch(sql, bounds), games, tally)
            continue
        async with target.transaction() as con:
            missing = _compare(table, rows, await con.fetch(sql, bounds), games, tally)
            if tally.differ:
                raise Diverged(target.name, _unique(tally.differ))
            if missing:
                await con.executemany(table.insert_sql(), missing)
                if table.name == "games" and target.dialect.sync_ids:
                    await con.fetch(target.dialect.sync_ids)
        if rows:
            progress(f"{table.name}: {tally.total}/{total} rows ({tally.missing} copied)")
    return tally


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


async def copy_rows(
    source: Store,
    target: Store,
    *,
    batch: int = BATCH,
    progress: Callable[[str], None] = _quiet,
) -> tuple[list[int], dict[str, int]]:
    """Copy every table (:data:`TABLES`) from ``source`` into ``target``; the source's game ids
    and the rows written per table.

    Raises :class:`Diverged` (nothing written) when the target differs, ``StoreError`` when a
    database fails (the batch in flight rolled back).
    """
    if batch < 1:
        raise ValueError(f"batch must be at least 1, not {batch}")
    ours, theirs = await source.schema_version(), await target.schema_version()
    if ours != theirs:
        raise StoreError(f"{source.name} is at schema {ours} but {target.name} at {theirs}; upgrade the bot")
    db = target.database
    async with source.database.transaction() as src:
        ids = [int(row[0]) for row in await src.fetch("SELECT id FROM games ORDER BY id")]
        games = frozenset(ids)
        # First compare everything and write nothing, so a refusal leaves the target untouched.
        plan = {table.name: await _walk(src, db, table, games, batch, write=False) for table in TABLES}
        differ = _unique(owner for tally in plan.values() for owner in tally.differ)
        if differ:
            raise Diverged(db.name, differ)
        progress(
            f"{source.name} -> {target.name}: {len(ids)} games, {sum(t.total for t in plan.values())} rows,"
            f" {sum(t.missing for t in plan.values())} to copy, {sum(t.same for t in plan.values())} already there"
        )
        copied: dict[str, int] = {}
        for table in TABLES:
            done = await _walk(
                src, db, table, games, batch, write=True, progress=progress, total=plan[table.name].total
            )
            copied[table.name] = done.missing
    if db.dialect.sync_ids:  # also after a rerun that copied nothing: the sequence is always right
        async with db.transaction() as con:
            await con.fetch(db.dialect.sync_ids)
    return ids, copied


def replay_problem(row: GameRow, seats: int, log: Sequence[LogEntry], rules: Rules[Any] | None) -> str | None:
    """Why a running or finished game's stored state is not seed + log, or ``None`` when it is.

    ``log`` is the game's :meth:`LogStore.load_log`; moves taken back are skipped as the host
    skips them.
    """
    if rules is None:
        return f"{row.game!r} is not a game this bot has (a plugin missing from GAMEHOST_PLUGINS?)"
    if row.seed is None:
        return "it has no seed"
    moves, _ = standing_log(log)
    try:
        state = replay(rules, seats, row.options, row.seed, moves)
    except Exception as exc:  # a rules bug is a finding here, not a crash of the migration
        return f"seed + log do not replay: {type(exc).__name__}: {exc}"
    replayed = canonical(rules.dump(state))
    if replayed != row.snapshot and replayed != _as_loaded(rules, row.snapshot):
        return "the replay of seed + log differs from the stored snapshot"
    over = rules.outcome(state) is not None
    if over != (row.status == GameStatus.FINISHED):
        return f"its status is {row.status} but the replayed game is {'over' if over else 'still running'}"
    return None


def _as_loaded(rules: Rules[Any], snapshot: str | None) -> str | None:
    """A snapshot as today's engine reads it: one saved before the engine's state gained a field
    (Monopoly's auction mode) lacks it in its text, yet loads to the state its replay gives."""
    if snapshot is None:
        return None
    try:
        return canonical(rules.dump(rules.load(json.loads(snapshot))))
    except Exception:  # a snapshot that does not load is a finding of its own, reported as differing
        return None


async def verify(
    store: Store, game_ids: Iterable[int], rules_for: RulesFor, progress: Callable[[str], None] = _quiet
) -> tuple[int, list[int]]:
    """Replay every running or finished game of ``game_ids`` as ``store`` holds it: how many
    replayed to their stored snapshot, and the ids of those that did not (or are missing)."""
    verified = 0
    failed: list[int] = []
    for game_id in game_ids:
        row = await store.games.fetch_game(game_id)
        if row is None:
            progress(f"game {game_id}: missing on {store.name}")
            failed.append(game_id)
            continue
        if row.status not in STARTED_STATUSES or row.pruned_at is not None:
            continue  # a lobby, an abandoned, broken or pruned game: nothing to replay
        problem = replay_problem(
            row,
            len(await store.games.fetch_seats(game_id)),
            await store.log.load_log(game_id),
            rules_for(row.game),
        )
        if problem is None:
            verified += 1
        else:
            progress(f"game {game_id} ({row.game}): {problem}")
            failed.append(game_id)
    return verified, failed


async def transfer(
    source: Store,
    target: Store,
    rules_for: RulesFor,
    *,
    batch: int = BATCH,
    progress: Callable[[str], None] = _quiet,
) -> Report:
    """Copy ``source`` into ``target`` (:func:`copy_rows`), then replay its games there (:func:`verify`)."""
    ids, copied = await copy_rows(source, target, batch=batch, progress=progress)
    report = Report(source.name, target.name, len(ids), copied)
    progress(f"verifying: replaying the running and finished games on {target.name}")
    report.verified, report.failed = await verify(target, ids, rules_for, progress)
    progress(f"verified {report.verified} games, {len(report.failed)} failed")
    return report
