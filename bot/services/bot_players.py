"""Seats played by bots: their view in, a move out.

A bot seat sees what its player would see, ``view(state, seat)``, and nothing else; it thinks in
``rules.search`` (pure, seeded) on states sampled from that view, so it cannot cheat even by
accident.  An *easy* bot moves at random among its legal moves; a *normal* bot searches with its
game's hints (``GameEntry.hints``) within :data:`BUDGET` and :data:`THINK_SECONDS`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from typing import Any, cast

from bot.core.registry import GameEntry
from bot.services.background import background
from bot.services.sessions import LiveGame, Refusal, SessionService
from bot.services.timers import Announcer
from bot.storage import GameStatus
from rules.core import JSON, Action, IllegalAction
from rules.search import Budget, SearchRules, choose, random_move

log = logging.getLogger(__name__)

MAX_MOVES_IN_A_ROW = 500
"""Bot moves one driver makes before resting: a table of bots only (in a test) still yields."""

BUDGET = Budget(playouts=200, depth=40)
"""A normal bot's playouts per decision and moves per playout: measured by
``benchmarks/bots.py`` to keep decisions well under a second while beating random play."""
THINK_SECONDS = 0.8
"""A decision stops searching after this long whatever the budget, so a bot never holds a
table up (the goal is p95 <= 1 s)."""


class Level(StrEnum):
    EASY = "easy"
    NORMAL = "normal"


NAMES = ("Ada", "Blaise", "Grace", "Alan", "Hedy", "Claude", "Edsger", "Barbara")
"""Bots' first names (pioneers of computing), the first one not already at the table is taken;
the catalog's ``host.bot.<level>`` dresses it ("Ada (bot)")."""


def bot_name(taken: Sequence[str], level: Level, words: Callable[[str], str]) -> str:
    """A name for a new bot at a table whose seats are called ``taken``: the first first name no
    seat uses yet (so "Ada (bot)" and "Ada (easy bot)" never sit together)."""
    template = words(f"host.bot.{level.value}")
    for first in NAMES:
        if not any(name == first or name.startswith(first + " ") for name in taken):
            return template.format(name=first)
    return template.format(name=f"{NAMES[0]} {len(taken) + 1}")


def decide(
    entry: GameEntry,
    view: Mapping[str, JSON],
    seat: int,
    level: Level,
    seed: int,
    clock: Any = time.monotonic,
) -> Action:
    """The move a bot at ``seat`` makes, from its view alone."""
    rules = cast(SearchRules[Any], entry.rules)
    if level is Level.EASY:
        return random_move(rules, view, seat, seed)
    deadline = clock() + THINK_SECONDS
    return choose(rules, entry.hints, view, seat, seed, BUDGET, lambda: clock() >= deadline).action


def _seed(game_id: int, version: int, seat: int) -> int:
    """The same decision after a restart: the bot's randomness is fixed by where it stands."""
    return (game_id * 1_000_003 + version * 101 + seat) & 0xFFFF_FFFF_FFFF


class BotPlayers:
    """Moves every bot seat a table waits on, one game at a time, through the same path a
    click takes (``SessionService.act``: the version check, one commit, the log), then has the
    table published like any move (``Announcer``, as the turn timers do).

    Poked after every commit and at start-up (``resume``), so a restart while a bot was
    "thinking" just thinks again: the decision is seeded by the position, so it is the same.
    A bot that cannot move (an engine refusing its choice) makes the game's default move
    instead, and a game where even that fails is left to its turn timer, never looped on.
    """

    def __init__(self, sessions: SessionService, announcer: Announcer | None, delay: float) -> None:
        self.sessions = sessions
        self.announcer = announcer
        self.delay = delay
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        sessions.listeners.append(self.poke)

    def poke(self, game_id: int) -> None:
        """Something moved in ``game_id``: if a bot is waited on there, it will move."""
        running = self._tasks.get(game_id)
        if running is not None and not running.done():
            self._again.add(game_id)
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop (a script driving the services): nothing to drive bots with
        task = self._tasks[game_id] = loop.create_task(self._drive(game_id))
        task.add_done_callback(lambda done: self._finished(game_id, done))

    def _finished(self, game_id: int, task: asyncio.Task[None]) -> None:
        """Forget a driver once it ends, so the map holds running games only (issue 25: it kept
        one finished task per game ever touched); a later poke starts a new one."""
        if self._tasks.get(game_id) is task:
            del self._tasks[game_id]
            self._again.discard(game_id)

    async def resume(self) -> int:
        """Start the driver of every running game that has bots; how many were found."""
        found = await self.sessions.store.games.list_games_with_bots()
        for game_id in found:
            self.poke(game_id)
        return len(found)

    async def idle(self) -> None:
        """Wait until no bot is moving (tests, and a clean shutdown)."""
        while running := [t for t in self._tasks.values() if not t.done()]:
            await asyncio.gather(*running, return_exceptions=True)

    async def _drive(self, game_id: int) -> None:
        with background():  # nobody waits on a bot's move: its table posts are paced
            await self._drive_now(game_id)

    async def _drive_now(self, game_id: int) -> None:
        try:
            for _ in range(MAX_MOVES_IN_A_ROW):
                self._again.discard(game_id)
                if not await self._move(game_id) and game_id not in self._again:
                    return
            log.warning(
                "game %s: bots made %d moves in a row; resting until poked", game_id, MAX_MOVES_IN_A_ROW
            )
        except Exception:
            log.exception("game %s: a bot could not move; the table's timer will", game_id)

    def _waited_bot(self, game: LiveGame) -> int | None:
        if game.status != GameStatus.ACTIVE:
            return None
        return next((s for s in sorted(game.waiting()) if game.is_bot(s)), None)

    async def _move(self, game_id: int) -> bool:
        """One bot move in ``game_id``; ``False`` when no bot is waited on there."""
        game = await self.sessions.load(game_id)
        if self._waited_bot(game) is None or (await self.sessions.store.reach.fetch_reach(game_id)).parked:
            return False  # no bot to move, or its table is parked: nothing runs on it
        if self.delay:
            await asyncio.sleep(self.delay)
            game = await self.sessions.load(game_id)
        seat = self._waited_bot(game)
        if seat is None:
            return False
        level = Level(game.seats[seat].bot or Level.EASY)
        view = game.entry.rules.view(game.state, seat)
        version = game.public_version
        action = await asyncio.to_thread(
            decide, game.entry, view, seat, level, _seed(game.id, game.version, seat)
        )
        try:
            applied = await self.sessions.act(game_id, game.user_of(seat), action, version=version)
        except Refusal as refusal:
            if refusal.key in ("host.refuse.stale", "host.refuse.changed"):
                return True  # the table moved while the bot thought: think again
            log.error("game %s: bot seat %s was refused (%s)", game_id, seat, refusal.key)
            return False
        except IllegalAction as exc:
            log.error("game %s: bot seat %s chose an illegal move %s (%s)", game_id, seat, action, exc)
            fallback = game.entry.rules.timeout_action(game.state, seat)
            if fallback is None:
                return False
            applied = await self.sessions.act(game_id, game.user_of(seat), fallback, version=version)
        if self.announcer is not None:
            self.announcer.committed(applied)
            await self.announcer.show(applied.game)
        return True
