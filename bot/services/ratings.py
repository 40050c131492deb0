"""Ratings: a finished game's seats rated with openskill's Plackett-Luce model, and the rebuild.

Why Plackett-Luce: it rates a game of any size from the full finishing order, so every seat's
place counts (third of five gains on the fourth and fifth), not only who won.  The model keeps its
published defaults (mu 25, sigma 25/3, tau 25/300): a rebuild must use the very same numbers, and
nothing here has been tuned to warrant others.

Rulings (chosen, issue 28):

- Only a game finished by play is rated, in the transaction of the move that ends it
  (:meth:`SessionService._commit <bot.services.sessions.SessionService>` passes
  :func:`plan_for`'s plan to ``record_action``).  An abandoned or cancelled game never reaches
  that move, so it never counts.
- Rated: at least two seats and at least one person.  One seat has no one to be ranked against;
  a table of bots only (the fuzzer's, a test's) would only move the bots' own ratings.
- Each seat is one player in the model (ties share a place, from the outcome's ranks).  Bots are
  rated under their level (``b:easy``), so a person alone with bots still progresses against a
  known strength, and bots never mix with people's keys.  Two seats with one key (two easy bots)
  are rated as two players from the same rating; the key then takes the mean of their new
  ratings and counts one game (a win when either won).
- A game ended before ratings existed is rated only by ``python -m bot ratings --rebuild --write``
  (never at start: a start that rewrote every rating of a large database would stall the bot),
  placed before the ledger's games in the order the games ended.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import Protocol

from openskill.models import PlackettLuce

from bot.storage.ratings import (
    NO_GUILD,
    FinishedGame,
    RatedGame,
    RatedSeat,
    Rating,
    RatingPlan,
    StoredRating,
    player_key,
)
from bot.storage.rows import GameRow, SeatRow
from bot.storage.store import Store

MODEL = PlackettLuce()
"""The model every rating is computed with, live and in a rebuild (its defaults, see the module)."""

TOLERANCE = 1e-9
"""How far a stored mu or sigma may be from the rebuilt one and still agree: the same arithmetic
on the same inputs gives the same floats, this only absorbs a backend's last-bit rounding."""


SHOWN_START = 1000
"""The rating a player is shown before their first rated game."""

SHOWN_STEP = 20
"""Shown points per point of openskill's ordinal."""


def shown(rating: Rating) -> int:
    """The one number players read: openskill's ordinal (mu − 3·sigma) × 20 + 1,000, rounded.

    Conservative, so it only climbs as the model grows sure of a player: a newcomer's lucky win
    does not top a board held by steady players.  The ordinal of a fresh rating is 0, so everyone
    starts at a round 1,000, and the ×20 spreads the model's 0–50 range over 1,000–2,000, a scale
    players know from chess, where a first win moves about seventy points.  Every screen (final
    standings, ``/game stats``, leaderboards) shows this and nothing else.
    """
    return round(SHOWN_START + SHOWN_STEP * (rating.mu - 3 * rating.sigma))


def fresh() -> Rating:
    """A key's rating before its first rated game."""
    return Rating(MODEL.mu, MODEL.sigma)


def rated(players: Sequence[str]) -> bool:
    """Whether a game with these seats' keys is rated (see the module's rulings)."""
    return len(players) >= 2 and any(key.startswith("u:") for key in players)


def rate(players: Sequence[str], places: Sequence[int], before: Mapping[str, Rating]) -> dict[str, Rating]:
    """The new rating of every key of ``players`` after a game they finished in ``places``."""
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in (before.get(key, fresh()) for key in players)]
    results = MODEL.rate(teams, ranks=[float(place) for place in places])
    after: dict[str, Rating] = {}
    for key in dict.fromkeys(players):
        seats = [i for i, other in enumerate(players) if other == key]
        old = before.get(key, fresh())
        won = any(places[i] == 1 for i in seats)
        after[key] = Rating(
            fmean(results[i][0].mu for i in seats),
            fmean(results[i][0].sigma for i in seats),
            old.games + 1,
            old.wins + (1 if won else 0),
        )
    return after


def plan_for(row: GameRow, seats: Sequence[SeatRow], places: Sequence[int]) -> RatingPlan | None:
    """The plan the finishing move hands to storage, ``None`` when the game is not rated.

    ``places`` are the seats' final places as stored in ``seats.rank``
    (:func:`bot.services.sessions.places`: 1 won, ties share).
    """
    players = tuple(player_key(seat.user_id, seat.bot) for seat in seats)
    if not rated(players):
        return None
    ordered = tuple(places)

    def rater(before: Mapping[str, Rating]) -> Mapping[str, Rating]:
        return rate(players, ordered, before)

    guild = NO_GUILD if row.guild_id is None else row.guild_id
    return RatingPlan(row.id, guild, row.game, players, ordered, rater)


@dataclass(frozen=True, slots=True)
class Change:
    """A person's shown rating after a game and how far that game moved it."""

    after: int
    change: int


@dataclass(frozen=True, slots=True)
class GameRating:
    """A player's shown rating at one game, with the rated games behind it."""

    game: str
    rating: int
    games: int


class HasStore(Protocol):
    """What :class:`RatingReads` is built from (the session service), named by what it holds so
    this module needs no import of the sessions module, which imports it."""

    @property
    def store(self) -> Store: ...


class RatingReads:
    """Ratings as players are shown them, read for the UI (which may not reach the store)."""

    def __init__(self, holder: HasStore) -> None:
        self.store = holder.store

    async def changes(self, game_id: int) -> dict[int, Change]:
        """Each person's seat's rating after the game and its change; empty when the game was not
        rated (abandoned, bots only).  Bots' seats are left out: players follow people's ratings."""
        rated_game = await self.store.ratings.fetch_rated_game(game_id)
        if rated_game is None:
            return {}
        return {
            seat: Change(shown(s.after), shown(s.after) - shown(s.before or fresh()))
            for seat, s in enumerate(rated_game.seats)
            if s.player.startswith("u:")
        }

    async def player(self, guild_id: int, user_id: int, games: Sequence[str]) -> tuple[int, list[GameRating]]:
        """The server's current season and the player's rating in it at each of ``games`` they
        played a rated game of, in the order given."""
        season = await self.store.ratings.fetch_season(guild_id)
        found = []
        for game in games:
            rating = await self.store.ratings.fetch_rating(guild_id, game, season, player_key(user_id, None))
            if rating is not None and rating.games:
                found.append(GameRating(game, shown(rating), rating.games))
        return season, found


@dataclass(frozen=True, slots=True)
class Rebuilt:
    games: list[RatedGame]
    """The ledger as a rebuild writes it: every rated game, renumbered per server."""
    ratings: list[StoredRating]


@dataclass(frozen=True, slots=True)
class Difference:
    guild_id: int
    game: str
    season: int
    player: str
    stored: Rating | None
    rebuilt: Rating | None


def recompute(
    ledger: Sequence[RatedGame], unrated: Sequence[FinishedGame], seasons: Mapping[int, int]
) -> Rebuilt:
    """Every rating replayed from the games' seats and places, nothing read from stored ratings.

    ``ledger`` in the order it was applied per server (``rated_games.seq``); ``unrated`` (games that
    ended before ratings existed, in end order) go first, in their server's current season
    (``seasons``, 1 when absent).  Pure, so a test compares it with what the live path stored.
    """
    current: dict[tuple[int, str, int, str], StoredRating] = {}
    games: list[RatedGame] = []
    seq: dict[int, int] = {}
    steps: list[tuple[int, int, str, int, tuple[str, ...], tuple[int, ...], float]] = [
        (g.game_id, g.guild_id, g.game, seasons.get(g.guild_id, 1), g.players, g.places, g.ended_at)
        for g in unrated
        if rated(g.players)
    ]
    steps += [
        (
            g.game_id,
            g.guild_id,
            g.game,
            g.season,
            tuple(s.player for s in g.seats),
            tuple(s.place for s in g.seats),
            g.at,
        )
        for g in ledger
    ]
    for game_id, guild_id, game, season, players, places, at in steps:
        before = {
            key: current[(guild_id, game, season, key)].rating
            for key in players
            if (guild_id, game, season, key) in current
        }
        after = rate(players, places, before)
        for key, rating in after.items():
            current[(guild_id, game, season, key)] = StoredRating(guild_id, game, season, key, rating, at)
        seq[guild_id] = seq.get(guild_id, 0) + 1
        seats = tuple(
            RatedSeat(key, place, before.get(key), after[key])
            for key, place in zip(players, places, strict=True)
        )
        games.append(RatedGame(game_id, seq[guild_id], guild_id, game, season, seats, at))
    return Rebuilt(games, [current[k] for k in sorted(current)])


def _agree(a: Rating, b: Rating) -> bool:
    return (
        a.games == b.games
        and a.wins == b.wins
        and abs(a.mu - b.mu) <= TOLERANCE
        and abs(a.sigma - b.sigma) <= TOLERANCE
    )


def compare(stored: Sequence[StoredRating], rebuilt: Sequence[StoredRating]) -> list[Difference]:
    """Every key whose stored rating is missing, extra or not the rebuilt one, in key order."""
    old = {(r.guild_id, r.game, r.season, r.player): r.rating for r in stored}
    new = {(r.guild_id, r.game, r.season, r.player): r.rating for r in rebuilt}
    found = []
    for key in sorted(old.keys() | new.keys()):
        a, b = old.get(key), new.get(key)
        if a is None or b is None or not _agree(a, b):
            found.append(Difference(*key, a, b))
    return found


@dataclass(frozen=True, slots=True)
class RebuildReport:
    differences: list[Difference]
    games: int
    """Rated games replayed."""
    unrated: int
    """Of those, games the ledger did not hold (ended before ratings existed)."""
    written: bool


async def rebuild(store: Store, *, write: bool) -> RebuildReport:
    """Recompute every rating (:func:`recompute`), compare it with the stored ones, and with
    ``write`` replace the ledger and the ratings with the rebuilt ones."""
    ledger = await store.ratings.list_rated_games()
    unrated = [g for g in await store.ratings.list_unrated_finished() if rated(g.players)]
    seasons = {g.guild_id: await store.ratings.fetch_season(g.guild_id) for g in unrated}
    result = recompute(ledger, unrated, seasons)
    differences = compare(await store.ratings.list_ratings(), result.ratings)
    if write and (differences or unrated or result.games != ledger):
        await store.ratings.replace_all(result.games, result.ratings)
    return RebuildReport(differences, len(result.games), len(unrated), write)
