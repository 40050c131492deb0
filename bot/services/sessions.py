"""The one place that applies actions to games.

load (cached) -> the seat belongs to the user -> the button's version is the
game's public version -> apply -> commit log entry + snapshot + versions in
one transaction -> only then return.  A per-game lock serialises everything
that touches one game, and the version check turns a double click or a race
into a polite "this board has moved on" instead of a second move.

Two counters: ``version`` is the length of the action log (internal);
``public_version`` counts only actions that others can see, and it is the
one drawn into buttons, so a private action (a hidden stow) changes nothing
anyone else can observe, not even a custom_id.

An undo (:mod:`bot.services.undo`) is a change too: both counters go up by one
and never come back down, so every button drawn before it goes stale, and the
log keeps the move it took back, marked undone (``version`` then counts log
rows plus undos; see the undo notes in :mod:`bot.storage`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from bot.core.i18n import Phrase, clip
from bot.core.registry import GameEntry, Registry
from bot.services.deadlines import DEFAULT_REMIND_HOURS, DEFAULT_TIMER_HOURS, Hours, waits_planner
from bot.services.ratings import plan_for
from bot.storage import (
    STARTED_STATUSES,
    GameRow,
    GameStatus,
    How,
    SeatRow,
    Store,
    StoreError,
    VersionConflict,
    WaitPlanner,
    standing_log,
)
from rules.core import Action, Event, GameClock, IllegalAction, Outcome, StateError
from rules.play import canonical, replay

log = logging.getLogger(__name__)


class Refusal(Exception):
    """An input the host turns down; ``key`` names the catalog sentence for the player."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


CLOSED_BY = ("cancelled", "not_posted", "left", "abandoned_by", "replay_failed")
"""Why a table closed, as stored in its row (``code`` or ``code:name``) and worded from the
catalog's ``host.closed_reason.<code>`` in the reader's language (:func:`closed_reason`)."""


def closed_reason(stored: str | None) -> Phrase | str:
    """A row's stored reason as words to come; text stored before reasons were codes shows as it is."""
    code, _, who = (stored or "").partition(":")
    if code in CLOSED_BY:
        return Phrase(f"host.closed_reason.{code}", {"player": who})
    return clip(stored or "", 100)


@dataclass(slots=True)
class LiveGame:
    """A game in memory: the row it came from, its rules and its current state."""

    row: GameRow
    entry: GameEntry
    seats: list[SeatRow]
    state: Any
    version: int
    status: GameStatus
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    public_version: int = 0

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None

    def user_of(self, seat: int) -> int:
        return self.seats[seat].user_id

    def is_bot(self, seat: int) -> bool:
        return 0 <= seat < len(self.seats) and self.seats[seat].bot is not None

    def mention(self, seat: int) -> str:
        """How a message calls this seat's player: a ping for a person, the name for a bot
        (a bot has no Discord account to ping)."""
        if self.is_bot(seat):
            return self.seats[seat].name
        return f"<@{self.user_of(seat)}>"

    def people(self) -> list[int]:
        """The user ids of the seats people play (the ones a message may ping)."""
        return [s.user_id for s in self.seats if s.bot is None]

    def waiting(self) -> frozenset[int]:
        if self.status != GameStatus.ACTIVE:
            return frozenset()
        return self.entry.rules.waiting_for(self.state)

    def outcome(self) -> Outcome | None:
        return self.entry.rules.outcome(self.state)


@dataclass(frozen=True, slots=True)
class Applied:
    game: LiveGame
    seat: int
    action: Action
    events: list[Event]
    version: int
    public: bool
    """Whether anybody but the actor can tell this action happened."""
    waiting_before: frozenset[int]
    waiting_after: frozenset[int]
    finished: bool
    millis: float
    how: How = How.PLAYER
    """``timeout``: the default move the turn timer made for ``seat``."""


@dataclass(frozen=True, slots=True)
class Step:
    """One logged action as players saw it, rebuilt by replaying the log (events are never stored)."""

    seat: int
    action: Action
    events: list[Event]
    public_version: int
    """The game's public version once this action was applied."""
    how: How = How.PLAYER
    """``timeout``: a default move the turn timer made (its line says whose time ran out)."""


def stamp(rules: Any, state: Any, action: Action) -> int | None:
    """The short number a lasting button carries instead of the version: a hash of the engine's
    ``fingerprint`` of its action (``None`` when the action has none and belongs to its moment)."""
    meaning = rules.fingerprint(state, action)
    if meaning is None:
        return None
    return int(hashlib.sha256(f"{action.encode()}|{meaning}".encode()).hexdigest()[:7], 16)


def places(outcome: Outcome) -> list[int]:
    """Each seat's final place as stored in ``seats.rank``: the outcome's ranks, except that in a
    game nobody wins the places count from 2, so "won" is rank 1 in every game."""
    return [rank + 1 if outcome.no_winner else rank for rank in outcome.ranks]


def is_public(finished: bool, before: frozenset[int], after: frozenset[int], events: list[Event]) -> bool:
    """Whether others can tell an action happened: it ended the game, changed whom we wait
    for, or told everyone something.  The one test behind ``public_version``."""
    return finished or after != before or any(e.visible_to is None for e in events)


def replay_move(rules: Any, state: Any, seat: int, action: Action) -> tuple[list[Event], bool]:
    """Apply one logged move to ``state`` as a replay does, with whether it was public: every
    replay that counts public versions (the steps, a fingerprint, an undo) counts them alike."""
    before = rules.waiting_for(state)
    events: list[Event] = rules.apply(state, seat, action)
    finished = rules.outcome(state) is not None
    after = frozenset() if finished else rules.waiting_for(state)
    return events, is_public(finished, before, after, events)


def replay_steps(
    rules: Any,
    players: int,
    options: dict[str, Any],
    seed: int,
    log: list[tuple[int, Action]],
    bumps: Sequence[int] = (),
) -> list[Step]:
    """Every action of a game with its events and public version, from setup and the log.

    ``log`` holds the moves that stand; ``bumps`` (from :func:`bot.storage.standing_log`) the
    public versions undos used up before each of them, so the numbers match the stored ones.
    """
    state = rules.setup(players, options, seed)
    steps: list[Step] = []
    public_version = 0
    for index, (seat, action) in enumerate(log):
        public_version += bumps[index] if index < len(bumps) else 0
        events, public = replay_move(rules, state, seat, action)
        if public:
            public_version += 1
        steps.append(Step(seat, action, events, public_version))
    return steps


def fingerprint_at(
    rules: Any,
    players: int,
    options: dict[str, Any],
    seed: int,
    log: list[tuple[int, Action]],
    version: int,
    action: Action,
    bumps: Sequence[int] = (),
) -> str | None:
    """``action``'s fingerprint in the game as it stood at public ``version`` (replayed).

    The last state with that public version is taken: hidden moves after it do not matter,
    since a fingerprint is built from public information only.  ``bumps`` as for
    :func:`replay_steps`; a version that only a move since taken back had has no state, and
    no fingerprint.
    """
    state = rules.setup(players, options, seed)
    public_version = 0
    then = None
    for index in range(len(log) + 1):
        public_version += bumps[index] if index < len(bumps) else 0
        if public_version > version:
            break
        if public_version == version:
            then = rules.fingerprint(state, action)
        if index == len(log):
            break
        seat, logged = log[index]
        if replay_move(rules, state, seat, logged)[1]:
            public_version += 1
    return then


class GameLock(asyncio.Lock):
    """A game's lock that counts who holds it or waits for it, so an idle one can be dropped.

    ``asyncio.Lock.locked()`` is ``False`` for a moment after a release even though a waiter
    is about to take the lock; dropping the lock then would let a newcomer make a second lock
    for the same game.  Counting every ``acquire`` until its ``release`` closes that gap.
    """

    def __init__(self, idle: Callable[[], None]) -> None:
        super().__init__()
        self.users = 0
        self._idle = idle

    async def acquire(self) -> Literal[True]:
        self.users += 1
        try:
            return await super().acquire()
        except BaseException:
            self.users -= 1
            if not self.users:
                self._idle()
            raise

    def release(self) -> None:
        super().release()
        self.users -= 1
        if not self.users:
            self._idle()


class SessionService:
    """Loads, caches and changes games; the cache never runs behind the database.

    Two rules keep it so.  A change is applied to a copy of the state and swapped in
    only after its commit, so nobody ever reads a move that is not on disk.  And
    every change to a game (a commit, a forced reload) bumps that game's
    *generation*: a load that read the database before the bump throws its copy
    away and looks again, so a slow read can never put an older state in the cache
    than one a writer has just committed (the stuck-table bug of issue 7).

    Memory per game stays bounded (issue 25): a game's lock and generation are dropped as soon
    as the game is neither cached, nor locked or waited for, nor being read (:meth:`_tidy`).
    A generation matters only to a load in flight, which keeps it; the next load starts from
    whatever value it finds, and every later bump still changes that value.
    """

    def __init__(
        self,
        store: Store,
        registry: Registry,
        clock: Callable[[], float] = time.time,
        *,
        cache_size: int = 512,
    ) -> None:
        self.store = store
        self.registry = registry
        self.clock = clock
        """The host's one clock: every stored moment and deadline is read from it (the bot's reads
        Discord's, which SimCord moves in tests)."""
        self.hours = Hours(DEFAULT_REMIND_HOURS, DEFAULT_TIMER_HOURS)
        """The bot's default reminder and timer, for tables and servers that set none."""
        self.cache_size = cache_size
        self.listeners: list[Callable[[int], None]] = []
        """Told the id of every game that has just moved (a commit, an undo, a start), with no
        await in between: bot players (``bot.services.bot_players``) move on it."""
        self._games: dict[int, LiveGame] = {}  # insertion order doubles as least-recently-used order
        self._locks: dict[int, asyncio.Lock] = {}
        self._generations: dict[int, int] = {}
        self._reading: dict[int, int] = {}  # loads of a game in flight, so its generation is kept

    def lock(self, game_id: int) -> asyncio.Lock:
        """The unit of concurrency is one game: every change to it holds this lock."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = GameLock(lambda: self._tidy(game_id))
        return lock

    def _bump(self, game_id: int) -> None:
        self._generations[game_id] = self._generations.get(game_id, 0) + 1
        self._tidy(game_id)

    def _tidy(self, game_id: int) -> None:
        """Drop the lock and generation of a game nobody caches, holds, awaits or is reading.

        Safe because a load in flight keeps both (``_reading``), and a lock is dropped only
        when no ``acquire`` is pending; a later click or load simply starts a fresh pair.
        """
        if game_id in self._games or self._reading.get(game_id):
            return
        lock = self._locks.get(game_id)
        if isinstance(lock, GameLock) and lock.users:
            return
        self._locks.pop(game_id, None)
        self._generations.pop(game_id, None)

    def forget(self, game_id: int) -> None:
        """Drop the cached copy after a change made outside :meth:`act`; the next use reloads it."""
        self._games.pop(game_id, None)
        self._bump(game_id)

    def _remember(self, game: LiveGame) -> None:
        """Cache a game; the least recently used idle games make room, so memory stays bounded."""
        self._games[game.id] = game
        if len(self._games) <= self.cache_size:
            return
        for old_id in list(self._games):
            if len(self._games) <= self.cache_size:
                break
            lock = self._locks.get(old_id)
            if old_id != game.id and not (isinstance(lock, GameLock) and lock.users):
                self.forget(old_id)

    def cached(self) -> int:
        return len(self._games)

    async def load(self, game_id: int) -> LiveGame:
        """The live game, from cache or from its snapshot (rebuilt from the log if need be).

        Safe without the game's lock: a copy read while a change was being
        committed is discarded (its generation is old) and the read repeated.
        """
        while True:
            cached = self._games.pop(game_id, None)
            if cached is not None:
                self._games[game_id] = cached  # most recently used goes last
                return cached
            generation = self._generations.get(game_id, 0)
            self._reading[game_id] = self._reading.get(game_id, 0) + 1
            try:
                live = await self._read(game_id)
                if self._generations.get(game_id, 0) != generation:
                    continue  # changed while we read: our copy may be older than what was committed
                present = self._games.get(game_id)
                if present is not None:
                    return present  # an equally fresh copy got there first; keep one object per game
                self._remember(live)
                return live
            finally:
                # Still counted as reading while the generation is compared, so it cannot be
                # dropped (and read back as 0) between the read and the comparison.
                if self._reading[game_id] == 1:
                    del self._reading[game_id]
                else:
                    self._reading[game_id] -= 1
                self._tidy(game_id)

    async def _read(self, game_id: int) -> LiveGame:
        row = await self.store.games.fetch_game(game_id)
        if row is None:
            raise Refusal("host.refuse.no_game", game_id=game_id)
        if row.pruned_at is not None:
            # Its log and snapshot went to an export file (``python -m bot prune``): nothing to show.
            raise Refusal("host.refuse.pruned", game_id=game_id)
        entry = self.registry.get(row.game)
        if entry is None:
            raise Refusal("host.refuse.game_unavailable", game=row.game)
        seats = await self.store.games.fetch_seats(game_id)
        state: Any = None
        if row.status in STARTED_STATUSES and row.seed is not None:
            state = await self._restore(row, entry, seats)
        status = row.status
        if state is None and status in STARTED_STATUSES:
            status = GameStatus.BROKEN
            row = await self.store.games.fetch_game(game_id) or row
        return LiveGame(row, entry, seats, state, row.version, status, self.lock(game_id), row.public_version)

    async def _restore(self, row: GameRow, entry: GameEntry, seats: list[SeatRow]) -> Any:
        rules = entry.rules
        if row.snapshot:
            try:
                return rules.load(json.loads(row.snapshot))
            except (StateError, ValueError, KeyError, TypeError, IndexError) as exc:
                log.warning("game %s: snapshot did not load (%s); rebuilding from the log", row.id, exc)
        try:
            log_rows = await self.store.log.load_actions(row.id)
            assert row.seed is not None
            return replay(rules, len(seats), row.options, row.seed, [(s, a) for _, s, a in log_rows])
        except (
            IllegalAction,
            StateError,
            ValueError,
            KeyError,
            TypeError,
            IndexError,
            AssertionError,
        ) as exc:
            log.error("game %s marked broken: could not rebuild from the action log: %s", row.id, exc)
            await self.store.games.set_status(
                row.id, GameStatus.BROKEN, reason="replay_failed", now=self.clock()
            )
            return None

    def moved(self, game_id: int) -> None:
        """Tell :attr:`listeners` that ``game_id`` has moved."""
        for listener in self.listeners:
            listener(game_id)

    async def refresh_seats(self, game_id: int) -> None:
        """After a lobby change to the seats: the cached copy follows, and reads under way retry."""
        self._bump(game_id)
        live = self._games.get(game_id)
        if live is not None:
            live.seats = await self.store.games.fetch_seats(game_id)

    async def _fresh(self, game_id: int, game: LiveGame) -> LiveGame:
        """Before calling a click stale, ask the database: another process may have moved the game."""
        row = await self.store.games.fetch_game(game_id)
        if row is None or (row.version, row.status) == (game.version, game.status):
            return game
        log.info("game %s: cached copy was behind the database; reloaded", game_id)
        self.forget(game_id)
        return await self.load(game_id)

    async def act(
        self, game_id: int, user_id: int, action: Action, *, version: int | None, lasting: int | None = None
    ) -> Applied:
        """Apply one action for ``user_id`` and commit it before returning.

        ``version`` is the public version the button was drawn for: any public change since
        makes it stale.  ``lasting`` instead is the button's :func:`stamp`: it stays good, other
        moves or not, while the action means the same (else ``Refusal("host.refuse.changed")``).

        Raises ``Refusal`` or ``IllegalAction`` (nothing changed), or ``StoreError``
        when the database cannot take the write (nothing changed either: the
        transaction was rolled back and the cached state was never touched).
        """
        started = time.perf_counter()
        async with self.lock(game_id):
            for last_try in (False, True):
                try:
                    return await self._act_once(game_id, user_id, action, version, lasting, started)
                except VersionConflict:
                    # Another process committed first.  If it was a private move (a stow),
                    # our copy had the right public version but an older log: the click is
                    # not stale, so look at the database again (forgotten) and try once more.
                    if last_try:
                        raise Refusal("host.refuse.stale") from None
            raise AssertionError("unreachable: the last try returns or raises")

    async def _act_once(
        self,
        game_id: int,
        user_id: int,
        action: Action,
        version: int | None,
        lasting: int | None,
        started: float,
    ) -> Applied:
        """One try at :meth:`act`, under the game's lock; ``VersionConflict`` when another process won."""
        game = await self.load(game_id)
        if not self._drawn_for(game, action, version, lasting):
            game = await self._fresh(game_id, game)
        self._check_playable(game)
        seat = game.seat_of(user_id)
        if seat is None:
            raise Refusal("host.refuse.not_seated")
        if not self._drawn_for(game, action, version, lasting) and not await self._means_the_same(
            game, action, version
        ):
            raise Refusal("host.refuse.changed" if lasting is not None else "host.refuse.stale")
        return await self._commit(game, seat, user_id, action, How.PLAYER, started)

    async def _commit(
        self, game: LiveGame, seat: int, user_id: int | None, action: Action, how: How, started: float
    ) -> Applied:
        """Apply ``action`` for ``seat`` and commit it with its waits; the caller holds the game's lock."""
        game_id = game.id
        if self.store.held(game_id) is not None:
            # Moves it acknowledged were lost with a deleted WAL: play on and the players' story
            # and the log part ways for good, so an operator looks first (``run --accept-lost``).
            raise Refusal("host.refuse.held")
        rules = game.entry.rules
        before = game.waiting()
        clock_before = rules.game_clock(game.state)
        # The move is made on a copy: until it is committed, everyone (a panel
        # opening, a board being drawn) keeps seeing the state that is on disk.
        work = rules.load(rules.dump(game.state))
        try:
            events = rules.apply(work, seat, action)
        except IllegalAction:
            raise
        except Exception:
            log.exception("game %s: engine error on %s", game_id, action)
            raise Refusal("host.refuse.internal") from None
        ended = rules.outcome(work)
        finished = ended is not None
        status = GameStatus.FINISHED if finished else GameStatus.ACTIVE
        after = rules.waiting_for(work) if not finished else frozenset()
        clock = rules.game_clock(work) if not finished else None
        public = is_public(finished, before, after, events)
        public_version = game.public_version + 1 if public else game.public_version
        now = self.clock()
        try:
            new_version = await self.store.log.record_action(
                game_id,
                expected_version=game.version,
                seat=seat,
                user_id=user_id,
                action=action,
                snapshot=canonical(rules.dump(work)),
                status=status,
                public_version=public_version,
                now=now,
                how=how,
                # A private move leaves every wait as it was: a deadline that moved would tell
                # everyone, by the timing of a reminder, that something happened.
                waits=self._waits(seat, before, after, how, now, (clock_before, clock)) if public else None,
                # The end and its ratings commit together: a failed write rates nothing.
                rating=None if ended is None else plan_for(game.row, game.seats, places(ended)),
            )
        except BaseException:
            self.forget(game_id)
            raise
        # Committed: swap the new state in, in one step with no await, and make
        # any load that read the database before this commit read it again.
        game.state = work
        game.version = new_version
        game.public_version = public_version
        game.status = status
        self._bump(game_id)
        if finished:
            await self._rank(game)
        self.moved(game_id)
        millis = (time.perf_counter() - started) * 1000
        if public:
            log.info("game %s seat %s %s accepted in %.1f ms", game_id, seat, action.kind, millis)
        else:
            # Even the moment of a hidden move (a stow) is hidden information: debug level only.
            log.debug("game %s: private action accepted in %.1f ms", game_id, millis)
        return Applied(
            game, seat, action, events, new_version, public, before, game.waiting(), finished, millis, how
        )

    async def _rank(self, game: LiveGame) -> None:
        """Write each seat's final place just after the move that ended the game (for stats).

        Never raises: the move is saved whatever happens here, and a place left unwritten is
        filled from the snapshot the next time stats are read (``GameStore.list_unranked_games``).
        """
        outcome = game.outcome()
        if outcome is None:
            return
        try:
            await self.store.games.set_ranks(game.id, places(outcome))
        except StoreError as exc:
            log.warning("game %s: final places not written (%s); stats will fill them in", game.id, exc)

    def _waits(
        self,
        seat: int,
        before: frozenset[int],
        after: frozenset[int],
        how: How,
        now: float,
        clocks: tuple[GameClock | None, GameClock | None],
    ) -> WaitPlanner:
        """The waits to write with a move; ``clocks`` is the game's own clock before and after it
        (an open auction's, which the timeouts follow instead of the table's timer)."""
        return waits_planner(
            now=now,
            actor=seat,
            before=before,
            after=after,
            defaults=self.hours,
            timed_out=how == How.TIMEOUT,
            clocks=clocks,
        )

    async def timeout(self, game_id: int, seat: int, now: float) -> Applied | None:
        """The default move for ``seat`` once its timeout is due; ``None`` when nothing is due.

        Under the game's lock, the wait row is read again: a move, another tick or another
        process may have got there first (the row was restarted or deleted), and then nothing
        happens.  The move goes through the same commit as a click, logged ``how='timeout'``,
        so the version guard and the one transaction make it happen once, restarts or not.

        Raises ``IllegalAction`` or ``Refusal`` when the engine has no default or refuses it
        (the caller drops that deadline rather than trying forever).
        """
        started = time.perf_counter()
        async with self.lock(game_id):
            for last_try in (False, True):
                wait = await self.store.waits.fetch_wait(game_id, seat)
                if wait is None or wait.timeout_due is None or wait.timeout_due > now:
                    return None
                game = await self.load(game_id)
                if last_try or seat not in game.waiting():
                    game = await self._fresh(game_id, game)
                self._check_playable(game)
                if seat not in game.waiting():
                    raise Refusal("host.refuse.internal", reason="the game does not wait on this seat")
                action = game.entry.rules.timeout_action(game.state, seat)
                if action is None:
                    raise Refusal("host.refuse.internal", reason="the game has no default move here")
                try:
                    return await self._commit(game, seat, None, action, How.TIMEOUT, started)
                except VersionConflict:
                    self.forget(game_id)  # another process moved the game: read it again
                    if last_try:
                        return None  # still moving elsewhere; the next tick looks again
            raise AssertionError("unreachable: the last try returns or raises")

    async def timer_ends(self, game: LiveGame) -> float | None:
        """When the turn timer next makes a default move for a seat ``game`` waits on: the
        earliest of their stored timeouts (``None``: none is stored).  A board showing a running
        clock (an auction's) says when it ends; a seat no longer waited on keeps no say in it."""
        waits = await self.store.waits.fetch_waits(game.id)
        waited = game.waiting()
        dues = [w.timeout_due for w in waits if w.seat in waited and w.timeout_due is not None]
        return min(dues) if dues else None

    async def history(self, game_id: int) -> list[Step]:
        """The game's actions with their events, rebuilt by replay (off the event loop).

        For "Catch me up" and for a table's event lines after a restart.  Raises
        ``Refusal`` when the game has no log to replay (a lobby, a broken game).
        """
        game = await self.load(game_id)
        if game.row.seed is None or game.status not in STARTED_STATUSES:
            raise Refusal(
                "host.refuse.not_started" if game.status == GameStatus.LOBBY else "host.refuse.over"
            )
        entries = await self.store.log.load_log(game_id)
        moves, bumps = standing_log(entries)
        try:
            steps = await asyncio.to_thread(
                replay_steps,
                game.entry.rules,
                len(game.seats),
                game.row.options,
                game.row.seed,
                moves,
                bumps,
            )
        except (IllegalAction, StateError, ValueError, KeyError, TypeError, IndexError) as exc:
            log.error("game %s: its log does not replay: %s", game_id, exc)
            raise Refusal("host.refuse.internal") from None
        hows = [entry.how for entry in entries if not entry.undone]  # the standing moves, in order
        return [
            replace(step, how=how) if how != step.how else step
            for step, how in zip(steps, hows, strict=False)
        ]

    async def _means_the_same(self, game: LiveGame, action: Action, version: int | None) -> bool:
        """Whether an action drawn at an older public version still means what it meant then.

        For what carries a version rather than a stamp (a select, a form, a button drawn before
        its game had fingerprints): the game as it was at ``version`` is rebuilt from the log and
        the engine's two fingerprints compared.  Only for actions that have one; a turn's own
        move (no fingerprint) stays stale at any public change.
        """
        rules = game.entry.rules
        if version is None or game.state is None or game.row.seed is None:
            return False
        now = rules.fingerprint(game.state, action)
        if now is None:
            return False
        moves, bumps = standing_log(await self.store.log.load_log(game.id))
        then = await asyncio.to_thread(
            fingerprint_at,
            rules,
            len(game.seats),
            game.row.options,
            game.row.seed,
            moves,
            version,
            action,
            bumps,
        )
        return then == now

    @staticmethod
    def _drawn_for(game: LiveGame, action: Action, version: int | None, lasting: int | None) -> bool:
        """Whether a button still stands for what it was drawn for."""
        if lasting is not None:
            return game.state is not None and stamp(game.entry.rules, game.state, action) == lasting
        return version is None or version == game.public_version

    @staticmethod
    def _check_playable(game: LiveGame) -> None:
        if game.status == GameStatus.LOBBY:
            raise Refusal("host.refuse.not_started")
        if game.status == GameStatus.BROKEN:
            raise Refusal("host.refuse.broken", reason=closed_reason(game.row.reason))
        if game.status != GameStatus.ACTIVE:
            raise Refusal("host.refuse.over")
