"""A turn timer never moves for a seat the game no longer waits on.

A wait row can outlive its wait (written by an older version, left by a crash between two
processes, a copy of the database): its timeout falls due like any other.  The host reads the
game again and makes no default move for a seat that is not waited on, whatever the engine
would offer for it; the leftover timeout is dropped, and the seat the game does wait on still
gets its own default move when its time runs out.

The engine here is the toy race with one change: its default for an idle seat is a knock (a move
any seat may make at any time), so an engine that does not itself decline is what the host
must guard against.  Both backends (``store_target``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.games import REGISTRY
from bot.services.deadlines import HOUR
from bot.services.lobby import LobbyService
from bot.services.reminders import Reminders
from bot.services.scheduler import Scheduler
from bot.services.sessions import Applied, LiveGame, SessionService
from bot.services.timers import Timers
from bot.storage import Store
from rules.core import Action
from tests.bot.services.kit import ANA, BOB

T0 = 1_800_000_000.0


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


@dataclass
class Board:
    """Records the default moves as the table would be told of them."""

    moves: list[Applied] = field(default_factory=list)

    def committed(self, applied: Applied) -> None:
        self.moves.append(applied)

    async def show(self, game: LiveGame) -> None:
        """Nothing to draw below Discord."""


@dataclass
class Silent:
    """A notifier for reminders (none are due in these tests)."""

    async def remind(self, game: LiveGame, seat: int, waited: float, how: str) -> str:
        raise AssertionError("no reminder is due here")


@dataclass
class Host:
    store: Store
    sessions: SessionService
    scheduler: Scheduler
    board: Board
    clock: Clock

    async def tick(self, now: float) -> int:
        """The scheduler's tick at ``now``, the host's clock (what moves are stamped with) there too."""
        self.clock.now = now
        return await self.scheduler.tick(now)


@pytest.fixture
async def host(store_target: str | Path) -> AsyncIterator[Host]:
    store = await Store.open(store_target)
    clock = Clock()
    sessions = SessionService(store, REGISTRY, clock=clock)
    board = Board()
    scheduler = Scheduler(sessions, Reminders(sessions, Silent()), Timers(sessions, board))
    yield Host(store, sessions, scheduler, board, clock)
    await store.close()


@pytest.fixture
def knock_when_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy's default move for a seat it does not wait on: a knock (legal at any time)."""
    entry = REGISTRY.get("toy")
    assert entry is not None
    rules = entry.rules
    real = rules.timeout_action

    def default(state: Any, seat: int) -> Action | None:
        if seat in rules.waiting_for(state):
            return real(state, seat)
        return None if state.knocked[seat] else Action("knock")

    monkeypatch.setattr(rules, "timeout_action", default)


async def two_hour_table(host: Host) -> LiveGame:
    lobby = LobbyService(host.sessions)
    made = await lobby.create(
        game="toy",
        options_text="target=12",
        host_id=ANA,
        host_name="ana",
        guild_id=1,
        channel_id=2,
        language="en",
        remind_hours=0,
        timer_hours=2,
    )
    await lobby.join(made.id, BOB, "bob")
    return await lobby.start(made.id, ANA, seed=7)


@pytest.mark.usefixtures("knock_when_idle")
async def test_a_leftover_wait_makes_no_move_and_is_dropped(host: Host) -> None:
    game = await two_hour_table(host)
    (waited,) = game.waiting()
    idle = 1 - waited
    assert Action("knock") in game.entry.rules.legal_actions(game.state, idle), "a knock would be taken"
    assert game.entry.rules.timeout_action(game.state, idle) == Action("knock")
    (real,) = await host.store.waits.fetch_waits(game.id)
    assert real.seat == waited and real.timeout_due == T0 + 2 * HOUR
    # The leftover: due an hour in, before the real one.
    await host.store._write(
        "INSERT INTO waits (game_id, seat, since, remind_due, reminders, timeout_due) VALUES (?, ?, ?, NULL, 0, ?)",
        (game.id, idle, T0, T0 + HOUR),
    )

    assert await host.tick(T0 + HOUR) == 0
    live = await host.sessions.load(game.id)
    assert host.board.moves == [] and live.version == 0, "no move for a seat nobody waits on"
    assert not live.state.knocked[idle]
    assert await host.store.log.load_log(game.id) == []
    leftover = await host.store.waits.fetch_wait(game.id, idle)
    assert leftover is None or leftover.timeout_due is None, "the leftover timeout is dropped"
    assert await host.store.waits.fetch_wait(game.id, waited) == real, "the real wait is untouched"

    # The seat the game waits on still gets its default move when its own time runs out.
    assert await host.tick(T0 + 2 * HOUR) == 1
    (applied,) = host.board.moves
    assert (applied.seat, applied.action, applied.how) == (waited, Action("add", (3,)), "timeout")
    live = await host.sessions.load(game.id)
    assert not live.state.knocked[idle] and live.version == 1
    fresh = await host.store.waits.fetch_wait(game.id, idle)
    assert fresh is not None and (fresh.since, fresh.timeout_due) == (T0 + 2 * HOUR, T0 + 4 * HOUR), (
        "the seat's own wait starts when the game starts waiting on it"
    )
