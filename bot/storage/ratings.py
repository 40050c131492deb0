"""Ratings per game, server and season, and the games they were rated from.

A game's ratings are written in the transaction of the move that ends it
(:meth:`bot.storage.log.LogStore.record_action` calls :func:`apply_rating` on its connection), so
a finished game is rated exactly when its end is saved: a failed write saves neither.  The
arithmetic is not here: storage knows no rating model, so the caller hands in a
:class:`RatingPlan` whose ``rate`` is a pure function (the ratings before in, after out; built by
:mod:`bot.services.ratings`).

``rated_games`` is the ledger: one row per rated game (its id is the primary key, so a replayed
end never counts twice), numbered per server in the order ratings were applied (``seq``), with
each seat's key, place and rating before and after.  It keeps what a rebuild needs, so ``ratings``
can be recomputed from it alone, even after the games themselves were pruned.

A server's current season is its row of ``seasons`` (none: season 1, until an admin starts a
new one).  Reading it takes that row with an upsert, which in PostgreSQL locks that row for the
transaction: two games of one server ending at once rate one after the other, so neither loses
the other's update and ``seq`` stays in the order ratings were applied.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.base import Connection, Row
from bot.storage.codes import GameStatus
from bot.storage.sql import Part

NO_GUILD = 0
"""The server a game outside any server (``games.guild_id`` NULL) is rated under."""


@dataclass(frozen=True, slots=True)
class Rating:
    """One player key's standing in one game, server and season."""

    mu: float
    sigma: float
    games: int = 0
    wins: int = 0


@dataclass(frozen=True, slots=True)
class RatingPlan:
    """What the move that ends a game asks storage to rate with it.

    ``players[i]`` is seat ``i``'s key (``u:<user id>``, ``b:<level>``) and ``places[i]`` its
    final place (1 won; ties share a place).  ``rate`` maps the keys' current ratings (a key never
    rated is absent) to their new ones, every key of ``players`` included.
    """

    game_id: int
    guild_id: int
    game: str
    players: tuple[str, ...]
    places: tuple[int, ...]
    rate: Callable[[Mapping[str, Rating]], Mapping[str, Rating]]


@dataclass(frozen=True, slots=True)
class RatedSeat:
    player: str
    place: int
    before: Rating | None
    """``None``: the key's first rated game in this server, game and season."""
    after: Rating


@dataclass(frozen=True, slots=True)
class RatedGame:
    game_id: int
    seq: int
    guild_id: int
    game: str
    season: int
    seats: tuple[RatedSeat, ...]
    at: float


@dataclass(frozen=True, slots=True)
class StoredRating:
    guild_id: int
    game: str
    season: int
    player: str
    rating: Rating
    updated_at: float


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A game finished by play that ``rated_games`` does not hold (ended before ratings existed)."""

    game_id: int
    guild_id: int
    game: str
    ended_at: float
    players: tuple[str, ...]
    places: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BoardEntry:
    """One person on a server's rating leaderboard, named as in their newest game there."""

    user_id: int
    name: str
    rating: Rating


ORDINAL = "mu - 3 * sigma"
"""openskill's ordinal (a conservative rating), spelt exactly as migration 013's index is, so
both databases read a leaderboard in index order instead of sorting every rated player."""


def player_key(user_id: int, bot: str | None) -> str:
    """A seat's rating key: people by account, bots by level (every easy bot is one player)."""
    return f"u:{user_id}" if bot is None else f"b:{bot}"


def _rating_json(rating: Rating | None) -> list[float] | None:
    return None if rating is None else [rating.mu, rating.sigma, rating.games, rating.wins]


def _rating_of(value: Any) -> Rating | None:
    if value is None:
        return None
    return Rating(float(value[0]), float(value[1]), int(value[2]), int(value[3]))


def seats_json(seats: Sequence[RatedSeat]) -> str:
    return json.dumps(
        [[s.player, s.place, _rating_json(s.before), _rating_json(s.after)] for s in seats],
        separators=(",", ":"),
    )


def _rated_game(row: Row) -> RatedGame:
    seats = []
    for player, place, before, after in json.loads(row[5]):
        rated = _rating_of(after)
        assert rated is not None
        seats.append(RatedSeat(str(player), int(place), _rating_of(before), rated))
    return RatedGame(
        int(row[0]), int(row[1]), int(row[2]), str(row[3]), int(row[4]), tuple(seats), float(row[6])
    )


def _stored(row: Row) -> StoredRating:
    return StoredRating(
        int(row[0]),
        str(row[1]),
        int(row[2]),
        str(row[3]),
        Rating(float(row[4]), float(row[5]), int(row[6]), int(row[7])),
        float(row[8]),
    )


_RATING_COLUMNS = "guild_id, game, season, player, mu, sigma, games, wins, updated_at"
_RATED_COLUMNS = "game_id, seq, guild_id, game, season, seats, at"
_UPSERT_RATING = (
    f"INSERT INTO ratings ({_RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (guild_id, game, season, player) DO UPDATE SET mu = excluded.mu,"
    " sigma = excluded.sigma, games = excluded.games, wins = excluded.wins, updated_at = excluded.updated_at"
)


async def _season(db: Connection, guild_id: int) -> int:
    """The server's current season, its row locked until the transaction ends (see the module)."""
    rows = await db.fetch(
        "INSERT INTO seasons (guild_id) VALUES (?) ON CONFLICT (guild_id) DO UPDATE SET season = seasons.season"
        " RETURNING season",
        (guild_id,),
    )
    return int(rows[0][0])


async def apply_rating(db: Connection, plan: RatingPlan, now: float) -> RatedGame | None:
    """Rate ``plan``'s game on ``db`` (inside the caller's transaction); ``None`` if it was rated
    before (the ledger's primary key: a replayed end changes nothing)."""
    season = await _season(db, plan.guild_id)
    if await db.fetch("SELECT 1 FROM rated_games WHERE game_id = ?", (plan.game_id,)):
        return None
    keys = sorted(set(plan.players))
    marks = ", ".join("?" for _ in keys)
    rows = await db.fetch(
        f"SELECT player, mu, sigma, games, wins FROM ratings WHERE guild_id = ? AND game = ? AND season = ?"
        f" AND player IN ({marks})",
        (plan.guild_id, plan.game, season, *keys),
    )
    before = {str(r[0]): Rating(float(r[1]), float(r[2]), int(r[3]), int(r[4])) for r in rows}
    after = plan.rate(before)
    seq_rows = await db.fetch(
        "SELECT COALESCE(MAX(seq), 0) FROM rated_games WHERE guild_id = ?", (plan.guild_id,)
    )
    seq = int(seq_rows[0][0]) + 1
    seats = tuple(
        RatedSeat(key, place, before.get(key), after[key])
        for key, place in zip(plan.players, plan.places, strict=True)
    )
    rated = RatedGame(plan.game_id, seq, plan.guild_id, plan.game, season, seats, now)
    await _insert_rated(db, [rated])
    await db.executemany(
        _UPSERT_RATING,
        [
            (
                plan.guild_id,
                plan.game,
                season,
                key,
                after[key].mu,
                after[key].sigma,
                after[key].games,
                after[key].wins,
                now,
            )
            for key in keys
        ],
    )
    return rated


async def _insert_rated(db: Connection, games: Iterable[RatedGame]) -> None:
    await db.executemany(
        f"INSERT INTO rated_games ({_RATED_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(g.game_id, g.seq, g.guild_id, g.game, g.season, seats_json(g.seats), g.at) for g in games],
    )


class RatingStore(Part):
    """``ratings``, ``rated_games`` and ``seasons``."""

    async def rate_game(self, plan: RatingPlan, now: float) -> RatedGame | None:
        """Rate a game in a transaction of its own (a game's end rates it in the move's own, see
        :meth:`bot.storage.log.LogStore.record_action`); ``None`` when it was rated before."""
        async with self._transaction() as db:
            return await apply_rating(db, plan, now)

    async def fetch_season(self, guild_id: int) -> int:
        rows = await self._fetch("SELECT season FROM seasons WHERE guild_id = ?", (guild_id,))
        return int(rows[0][0]) if rows else 1

    async def start_season(self, guild_id: int) -> int:
        """Make the server's next season its current one and return it: ratings written from now
        on are the new season's (fresh); past seasons' rows stay as they were."""
        async with self._transaction() as db:
            rows = await db.fetch(
                "INSERT INTO seasons (guild_id, season) VALUES (?, 2)"
                " ON CONFLICT (guild_id) DO UPDATE SET season = seasons.season + 1 RETURNING season",
                (guild_id,),
            )
        return int(rows[0][0])

    async def list_leaderboard(
        self, guild_id: int, game: str, season: int, *, limit: int, min_games: int, established: bool = True
    ) -> list[BoardEntry]:
        """A season's people (never bots) at one game, best conservative rating first (ties by
        key, so the order is stable): with ``established``, those with at least ``min_games``
        rated games, else those with fewer.

        Both read migration 013's indexes in order and stop at ``limit``, so a board costs the
        same with 100 or 100,000 rated players: the ranked part walks ``ratings_board`` from the
        top (``+games`` keeps the planner off the other index); newcomers, whose wide sigma puts
        them at the bottom of that walk, are read one game count at a time from
        ``ratings_newcomers`` (each part in ordinal order, at most ``limit`` rows) and merged."""
        scope = "guild_id = ? AND game = ? AND season = ? AND player LIKE 'u:%'"
        columns = f"player, mu, sigma, games, wins, {ORDINAL} AS ordinal"
        params: list[object]
        if established:
            sql = (
                f"SELECT {columns} FROM ratings WHERE {scope} AND +games >= ?"
                f" ORDER BY {ORDINAL} DESC, player LIMIT ?"
            )
            params = [guild_id, game, season, min_games, limit]
        else:
            counts = range(1, max(min_games, 1))
            parts = [
                f"SELECT * FROM (SELECT {columns} FROM ratings WHERE {scope} AND games = ?"
                f" ORDER BY {ORDINAL} DESC, player LIMIT ?) AS n{count}"
                for count in counts
            ]
            if not parts:
                return []
            sql = f"SELECT * FROM ({' UNION ALL '.join(parts)}) AS n ORDER BY ordinal DESC, player LIMIT ?"
            params = [v for count in counts for v in (guild_id, game, season, count, limit)]
            params.append(limit)
        rows = await self._fetch(sql, params)
        ids = [int(str(r[0])[2:]) for r in rows]
        names = await self._names(guild_id, ids)
        return [
            BoardEntry(
                user_id,
                names.get(user_id, str(user_id)),
                Rating(float(r[1]), float(r[2]), int(r[3]), int(r[4])),
            )
            for user_id, r in zip(ids, rows, strict=True)
        ]

    async def _names(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        """Each person's name at their newest seat in this server (a board's few lines only)."""
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        rows = await self._fetch(
            "SELECT s.user_id, s.name FROM seats s JOIN games g ON g.id = s.game_id"
            f" WHERE g.guild_id = ? AND s.bot IS NULL AND s.user_id IN ({marks}) ORDER BY g.id",
            (guild_id, *user_ids),
        )
        return {int(r[0]): str(r[1]) for r in rows if r[1]}

    async def fetch_rating(self, guild_id: int, game: str, season: int, player: str) -> Rating | None:
        rows = await self._fetch(
            "SELECT mu, sigma, games, wins FROM ratings WHERE guild_id = ? AND game = ? AND season = ? AND player = ?",
            (guild_id, game, season, player),
        )
        if not rows:
            return None
        r = rows[0]
        return Rating(float(r[0]), float(r[1]), int(r[2]), int(r[3]))

    async def fetch_rated_game(self, game_id: int) -> RatedGame | None:
        rows = await self._fetch(f"SELECT {_RATED_COLUMNS} FROM rated_games WHERE game_id = ?", (game_id,))
        return _rated_game(rows[0]) if rows else None

    async def list_ratings(self) -> list[StoredRating]:
        rows = await self._fetch(
            f"SELECT {_RATING_COLUMNS} FROM ratings ORDER BY guild_id, game, season, player"
        )
        return [_stored(r) for r in rows]

    async def list_rated_games(self) -> list[RatedGame]:
        """Every rated game, per server in the order its ratings were applied (what a rebuild replays)."""
        rows = await self._fetch(f"SELECT {_RATED_COLUMNS} FROM rated_games ORDER BY guild_id, seq")
        return [_rated_game(r) for r in rows]

    async def list_unrated_finished(self) -> list[FinishedGame]:
        """Games finished by play, every seat's place written, that the ledger does not hold (they
        ended before ratings existed), in the order they ended."""
        games = await self._fetch(
            "SELECT g.id, g.guild_id, g.game, g.ended_at FROM games g"
            f" WHERE g.status = '{GameStatus.FINISHED}' AND g.ended_at IS NOT NULL"
            " AND NOT EXISTS (SELECT 1 FROM rated_games r WHERE r.game_id = g.id)"
            " AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.rank IS NULL)"
            " ORDER BY g.ended_at, g.id"
        )
        found = []
        for game_id, guild_id, game, ended_at in games:
            seats = await self._fetch(
                "SELECT user_id, bot, rank FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
            )
            found.append(
                FinishedGame(
                    int(game_id),
                    NO_GUILD if guild_id is None else int(guild_id),
                    str(game),
                    float(ended_at),
                    tuple(player_key(int(s[0]), None if s[1] is None else str(s[1])) for s in seats),
                    tuple(int(s[2]) for s in seats),
                )
            )
        return found

    async def replace_all(self, games: Sequence[RatedGame], ratings: Sequence[StoredRating]) -> None:
        """Replace the ledger and every rating with a rebuild's, in one transaction."""
        async with self._transaction() as db:
            await db.execute("DELETE FROM ratings")
            await db.execute("DELETE FROM rated_games")
            await _insert_rated(db, games)
            await db.executemany(
                f"INSERT INTO ratings ({_RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        r.guild_id,
                        r.game,
                        r.season,
                        r.player,
                        r.rating.mu,
                        r.rating.sigma,
                        r.rating.games,
                        r.rating.wins,
                        r.updated_at,
                    )
                    for r in ratings
                ],
            )
