"""Two weeks of slow games on real Discord's terms: 300 tables in 5 servers through the rules layer.

Why: the unit tests of ``tests/bot/ui/test_reach.py`` show each of real Discord's rules once, on a toy
table.  This run shows them together, at the size of a busy bot, on the four real games, with the
clocks that matter for slow games (reminders, a week's thread archive, a restart after hours down):
the failures that only appear when many tables share Discord's budgets and a server's limits.

What runs: the real bot (``bot.client.GameBot``, its own SQLite file, every ``GAMEHOST`` setting at
its default) inside SimCord with the tests' Discord rules layer
(``harness/discord_rules.py``: threads archive, lock and vanish, a server's thread cap, 50 requests a
second, per-route buckets, 3 s to answer a click, invalid requests counted).

- ``--tables`` tables (all four games, round robin) in ``--servers`` servers, opened in the first
  hours by their hosts with ``/game new`` (most with ``remind:24h``, the others on the bot's
  default, which is also 24 h), joined by 1 to 4 people from the server with the lobby's Join and
  filled with bots by the lobby's "Add a bot" (a normal bot: the first bot seat, then about one in
  25) and "Add an easy bot".  A quarter of the people asked ``/game notify dm`` first, so
  reminders reach them by direct message.
- Every person comes back after a random gap of 0 to 4 days (seeded), again and again for
  ``--days`` days.  Back, they play every table of theirs that waits on them: the moves waiting on
  them, at most a visit's worth (3 to 12 moves a table: a table of bots would otherwise be played to
  its end in one sitting), watching for up to a minute while the table waits only on its bots.  A move is chosen the way the other benchmarks choose (a kind of move
  by weights, then one of its legal actions; the engine's state read from the bot's store) and made
  only by pressing what the table offers: a button or select of the board, a number form, or the
  private panel (or the public step) that the game's UI leads to (``routes``), turning pages of a
  long list.  Private moves that are not part of the turn (a stow, a Monopoly deal draft) are left
  out.  A person thinks 2 to 8 seconds (virtual time) before each click, so clicks arrive at a
  human pace: the bot, not the script, is what is measured against Discord's limits.  A board
  that is behind its game is asked for again with ``/game show``.
- Disturbances, each once: a server sits at its thread cap from the start (``occupy`` before its
  tables exist, so they play in the channel); a thread is deleted (its table is parked, then
  brought back a day later by a player's ``/game show`` in the channel); a thread is locked (its
  table stays parked); a server removes the bot (its tables are parked; its people stop coming);
  the bot is down for 6 hours and restarts into the reminders that fell due meanwhile.

How the bot is "down": SimCord has no off switch (``env.restart_bot`` drains the old bot and
attaches a new one at the same instant), and ``env.backend.advance_clock`` alone would have the
old bot fire every overdue timer during the restart's own settling.  So the old bot's two
``discord.ext.tasks`` loops (the minutely sweep and the deadline clock, the only work it starts by
itself; bot players move only when poked by a move) are stopped by unloading its tasks cog after
ten quiet minutes (the bot players' moves in flight end), then
``env.advance_time(6 h)`` moves the clock with nobody clicking (Discord's own doings, threads
archiving, still happen), then ``env.restart_bot`` attaches a fresh ``GameBot`` on the same
database, as a process restart would.  Its clock loop's first run fires the overdue reminders.

Plain sleeps in the bot (a bot player's ``GAMEHOST_BOT_DELAY`` of 2 s before each move; a wait on
an exhausted rate-limit bucket, which the rules layer makes the way discord.py does): SimCord runs
them on the wall clock while it settles a click, and a wall-clock wake-up in the middle of a settle
can stall it for good (seen here: a bot's publish waiting on a bucket under a real-time advance).
So an interaction's settling ends 1.5 wall seconds after it was dispatched
(``short_click_settles``): a sleep that ends later counts as settled, and runs in virtual time
during the person's next pause (every click is preceded by one).  The bot keeps its real default
delay, which also keeps a table of bots from bursting past a thread's 5 messages per 5 seconds.

Checks (``ok`` is true only when all hold):

- ``unanswered`` 0: every interaction dispatched got a first answer (``rules.unanswered()``);
- ``late`` 0: no first answer after 3 s on the layer's clock (wall plus virtual time; ``rules.late()``);
- ``boards_wrong`` 0: every running table (``games.status = 'active'``) is parked with a reason
  (``reach.parked``), or has exactly one live board (a public message with game controls for it)
  in its table channel (``games.thread_id``, else ``channel_id``), and a thread that is not archived;
- ``reminders_lost`` 0.  A reminder is *claimed* when ``WaitStore.claim_reminder`` changes its
  ``waits`` row (spied on, class-wide, for every bot of the run), and *given back* when
  ``WaitStore.unclaim_reminder`` does.  Claimed minus given back must equal what players received: the
  bot's messages that landed in SimCord (spied on at ``Backend.commit_message``) carrying the
  reminder line, on the table (``host.remind.thread``) or in a direct message (``host.remind.dm``).
  ``reminders_lost`` counts claims with no message, ``reminders_doubled`` the reverse (also 0).
  ``reminders_overdue`` (0): at the end, ``waits`` rows of running, unparked tables whose reminder
  fell due over 10 minutes ago with fewer than 3 sent and a person on the seat: never claimed;
- ``peak_rps`` at most 50 (``Limits.global_per_second``, Discord's global limit, every request
  counted, refused ones too), and ``background_peak_rps`` (the most requests in one second of the
  layer's clock among those made while no player was acting: reminders, sweeps, the restart) at most
  ``Settings.discord_rate`` (25) plus ``OVERDRAFT``, the few calls one piece of work may run into
  debt (``bot.ui.safe.Ledger``: a started piece makes all its calls);
- ``invalid_peak`` at most 100 invalid requests (401, 403, 429) in any 10 minutes;
- ``tracebacks`` 0: no log record with exception info or "Traceback", no exception SimCord caught;
- and every disturbance happened (``disturbances``; ``--quick`` included).

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/discord_week.py [--tables 300] [--servers 5] [--days 14]
        [--seed 1] [--quick]

``--quick``: 10 tables, 3 servers, 3 days (every disturbance still happens), well under a minute.
Progress goes to stderr; the last line of stdout is one JSON object.  Exit 1 unless ``ok``.
"""

from __future__ import annotations

import argparse
import asyncio
import heapq
import logging
import random
import re
import shutil
import sqlite3
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import simcord
from simcord.builders import ChannelHandle
from simcord.env import Env
from simcord.results import InteractionResult, ResponseMessage

from benchmarks import click_routes
from benchmarks.thread_volume import MONOPOLY_ON_TABLE, MONOPOLY_WEIGHTS
from benchmarks.torture_discord_common import (
    clickable,
    components,
    custom_ids,
    forget_attachments,
    forget_logs,
    quick_settle,
    scratch_dir,
    summary_line,
    undeliverable,
)
from bot.client import GameBot
from bot.core.config import Settings
from bot.games import REGISTRY
from bot.services.sessions import LiveGame
from bot.storage import GameStatus
from bot.storage.waits import WaitStore
from harness.discord_rules import DEFAULT_LIMITS, DiscordRules, Limits, enforce, route_of, rules_for
from harness.messages import words_of
from rules.core import Action

GAMES = tuple(entry.name for entry in REGISTRY.public())
"""Every offered game, in the registry's order (``bot.games``): tables open in turn over it."""
MINUTE, HOUR, DAY = 60.0, 3600.0, 86_400.0
GAP_DAYS = (0.0, 4.0)
"""A person comes back after a gap drawn uniformly from this many days."""
VISIT_MOVES = (3, 12)
"""Moves a person makes at one table in one visit, at most (drawn per visit)."""
THINK = (2.0, 8.0)
"""Virtual seconds a person takes before each click."""
DOWN_FOR = 6 * HOUR
SHOW_AFTER = DAY
"""How long after its thread was deleted a player brings the table back with ``/game show``."""
NORMAL_BOT_SHARE = 1 / 25
"""Bot seats given a normal bot (the lobby's "Add a bot"; the first bot seat always is): a normal
bot thinks up to 0.8 s of CPU a move, most of what a run costs when it is common."""
NOTIFY_DM_SHARE = 0.25
INVALID_GOAL = 100
OVERDRAFT = 4
"""Calls one started piece of background work may make past the budget (a repost: post, fold,
delete, unarchive); see ``bot.ui.safe.Ledger``."""
OVERDUE_SLACK = 10 * MINUTE
CHUNK = 2 * HOUR
"""The longest single ``advance_time``: each has one settling deadline for all it runs."""
SETTLE_TIMEOUT = 600.0
CLICK_SETTLE = 1.5
"""Wall seconds an interaction's settling may take (less than ``GAMEHOST_BOT_DELAY``'s 2 s)."""
BOT_PATIENCE = 60.0
"""Virtual seconds a person at a table waits for its bots to play before leaving."""
MAX_REMINDERS = 3
TRIES = 6
"""Legal actions a person tries to reach by clicks before giving up on a move (a script miss)."""

REMIND_THREAD = "the table has been waiting for you for"
REMIND_DM = "has been waiting for you for"
PARKED_TOLD = "is parked:"
CAP_DM = "Its thread cannot be reopened"
CAP_HOST = "the server is at Discord's limit of active threads"

ACTION_ID = re.compile(r"(?P<kind>[ga]):(?P<gid>[0-9]+):(?P<ver>[0-9]+):(?P<ref>.+)")
PAGE_ID = re.compile(r"u:(?P<gid>[0-9]+):[0-9]+:h\.pg\.(?P<page>[0-9]+)\.(?P<source>.+)")

LASTWILL_TABLE = frozenset(
    {"emp", "empok", "plan", "boy", "market", "hold", "keep", "use", "sell", "drop", "as", "sec", "done"}
)
LASTWILL_HAND = frozenset({"event", "special", "lay", "buy"})
LASTWILL_ANSWER = frozenset({"with", "go", "extra", "bpx", "target", "fair", "line", "noline", "dx", "pick"})
LASTWILL_SPLIT = frozenset({"draw", "redraw", "drawok"})
LASTWILL_LOW = frozenset({"hold", "drop", "noline", "done", "go", "as", "sell", "bankrupt"})
MONOPOLY_DRAFTING = frozenset(
    {"deal", "give", "want", "givec", "wantc", "cash", "ask", "send", "drop", "counter", "withdraw"}
)
"""Monopoly's deal-making: a person here answers offers (Accept, Reject) but makes none."""

WEIGHTS: dict[str, dict[str, float]] = {
    "california": {},
    "estates": {"stow": 0.0},
    "monopoly": {**MONOPOLY_WEIGHTS, **dict.fromkeys(MONOPOLY_DRAFTING, 0.0)},
    "lastwill": {**dict.fromkeys(LASTWILL_LOW, 0.15), "redraw": 0.05},
}
"""Per game, the weight of each kind of move (1 when not named; 0: never chosen while another
kind is legal).  Kind first, then one action of that kind: a long list of bid amounts does not
crowd out the rest."""


@dataclass(frozen=True)
class Plan:
    """The size of a run."""

    tables: int = 300
    servers: int = 5
    days: float = 14.0
    seed: int = 1
    quick: bool = False

    @property
    def end(self) -> float:
        return self.days * DAY

    @property
    def removed_server(self) -> int:
        return 1

    @property
    def cap_server(self) -> int:
        return self.servers - 1

    @property
    def lock_server(self) -> int:
        return 2 if self.servers >= 5 else 0

    def at(self, share: float) -> float:
        """A moment of the run, as a share of its length (disturbances are placed by share)."""
        return share * self.end


@dataclass
class Person:
    name: str
    server: int
    member: simcord.MemberActor
    user_id: int
    notify: str = "thread"
    tables: list[int] = field(default_factory=list)


@dataclass
class TableInfo:
    game_id: int
    game: str
    server: int
    people: dict[int, Person]
    """Seat -> the person in it (bot seats are not here)."""
    bots: int = 0


@dataclass
class Tally:
    """What the run counted (see the module docstring for the checks)."""

    clicks: int = 0
    selects: int = 0
    forms: int = 0
    slashes: int = 0
    undeliverable: int = 0
    visits: int = 0
    table_visits: int = 0
    moves: int = 0
    misses: int = 0
    stuck: int = 0
    shows: int = 0
    settle_overruns: int = 0
    waited_on_bots: int = 0
    no_board: int = 0
    tracebacks: int = 0
    error_logs: int = 0
    examples: list[str] = field(default_factory=list)
    parked_events: Counter[str] = field(default_factory=Counter)
    claims: int = 0
    unclaims: int = 0
    claims_after_restart: int = 0
    remind_thread: int = 0
    remind_dm: int = 0
    parked_dms: int = 0
    parked_channel_notes: int = 0
    cap_dms: int = 0
    cap_host_dms: int = 0
    moves_by_kind: Counter[str] = field(default_factory=Counter)
    misses_by_kind: Counter[str] = field(default_factory=Counter)

    def example(self, text: str) -> None:
        if len(self.examples) < 12:
            self.examples.append(text[:400])


class Meter:
    """Requests per second of the rules layer's clock among those made while no player acts."""

    def __init__(self) -> None:
        self.acting = False
        self.peak = 0
        self.route = ""
        """The route of the request being counted (set just before the rules layer counts it)."""
        self.peak_at = 0.0
        """SimCord's virtual seconds since the start when the peak was reached."""
        self.peak_routes: Counter[str] = Counter()
        self._window: deque[tuple[float, str]] = deque()

    def note(self, now: float, virtual: float) -> None:
        if self.acting:
            return
        self._window.append((now, self.route))
        while self._window and self._window[0][0] <= now - 1.0:
            self._window.popleft()
        if len(self._window) > self.peak:
            self.peak = len(self._window)
            self.peak_at = virtual
            self.peak_routes = Counter(route for _, route in self._window)


class LogCount(logging.Handler):
    """Counts what the run must judge in the log (tracebacks, errors, parkings) without keeping it."""

    PARKED = re.compile(r"game (\d+): parked \((\w+)\)")

    def __init__(self, tally: Tally) -> None:
        super().__init__(logging.INFO)
        self.tally = tally

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
        except Exception as exc:  # a broken format string is a finding, not a crash of the run
            message = f"<unformattable {record.msg!r}: {exc}>"
        if (record.exc_info and record.exc_info[0] is not None) or "Traceback" in message:
            self.tally.tracebacks += 1
            self.tally.example(
                f"traceback: {record.name}: {message} {record.exc_info and record.exc_info[1]!r}"
            )
        elif record.levelno >= logging.ERROR:
            self.tally.error_logs += 1
            self.tally.example(f"error: {record.name}: {message}")
        found = self.PARKED.search(message)
        if found:
            self.tally.parked_events[found[2]] += 1


def settings(workdir: Path) -> Settings:
    """GAMEHOST's defaults: reminders every 24 h, no turn timer, bots wait 2 s before moving,
    25 background requests a second."""
    return Settings(
        token=None, database=workdir / "host.sqlite3", dev_guild=None, log_level="INFO", language="en"
    )


@contextmanager
def short_click_settles(tally: Tally, seconds: float = CLICK_SETTLE) -> Iterator[None]:
    """Let an interaction's settling end ``seconds`` after it was dispatched (module docstring).

    A plain ``asyncio.sleep`` in the bot (a bot player's ``GAMEHOST_BOT_DELAY``, a wait on an
    exhausted rate-limit bucket) counts as settled when it ends past that deadline, so it runs in
    virtual time during the person's next pause instead of on the wall clock.  Work of the click
    itself still running at the deadline is left to that pause too (``settle_overruns``)."""
    original = Env._settle_internal

    async def settle(
        self: Env,
        *,
        timeout: float | None = None,
        idle: float = 0.05,
        dispatch: str | None = None,
        _deadline: float | None = None,
    ) -> None:
        if dispatch != "INTERACTION_CREATE" or timeout is not None or _deadline is not None:
            await original(self, timeout=timeout, idle=idle, dispatch=dispatch, _deadline=_deadline)
            return
        try:
            await original(self, timeout=seconds, idle=idle, dispatch=dispatch)
        except TimeoutError:
            tally.settle_overruns += 1

    setattr(Env, "_settle_internal", settle)  # noqa: B010  (SimCord's own method, for the run)
    try:
        yield
    finally:
        setattr(Env, "_settle_internal", original)  # noqa: B010


def enabled(message: Any) -> list[str]:
    """The custom_ids a person can press on a stored message (greyed-out ones are not)."""
    return [str(c.get("custom_id", "")) for c in components(message) if not c.get("disabled")]


def live_ids(message: Any, game_id: int) -> bool:
    """Whether a message carries controls of a running table ``game_id`` (more than Catch me up)."""
    prefix = re.compile(rf"[gumsa]:{game_id}:")
    return any(prefix.match(cid) and not cid.endswith(":h.catchup") for cid in custom_ids(message))


class Week:
    """One run: the world, the people, the schedule, and the figures."""

    def __init__(self, plan: Plan, env: simcord.Env, bot: GameBot, workdir: Path, tally: Tally) -> None:
        self.plan = plan
        self.env = env
        self.bot = bot
        self.bots: list[GameBot] = [bot]
        self.workdir = workdir
        self.tally = tally
        self.rng = random.Random(plan.seed)
        self.rules: DiscordRules = rules_for(env)
        self.db = sqlite3.connect(str(workdir / "host.sqlite3"), isolation_level=None)
        self.meter = Meter()
        self.guilds: list[Any] = []
        self.channels: list[Any] = []
        self.people: list[list[Person]] = []
        self.tables: dict[int, TableInfo] = {}
        self.removed: set[int] = set()
        self.normal_bots = 0
        self.restarted_at: float | None = None
        self.disturbed: dict[str, Any] = {}
        self.error_cursor = 0
        self._events: list[tuple[float, int, str, Any]] = []
        self._seq = 0
        self._spy()

    # -- spies ---------------------------------------------------------------------------------

    def _spy(self) -> None:
        """Count requests (and their routes) for the background meter, and every message that
        lands (what players received).  Each wraps an attribute of this run's rules object or
        backend instance, calling what was there: nothing the layer or SimCord does changes."""
        rules = self.rules
        count, handle = rules._count_request, rules._handle
        meter = self.meter
        clock = self.env.backend.clock

        def handling(send: Any, method: str, path: str, *rest: Any) -> Any:
            meter.route = route_of(method, path)[0]
            return handle(send, method, path, *rest)

        def counting(now: float) -> None:
            count(now)
            meter.note(now, clock.elapsed)

        setattr(rules, "_handle", handling)  # noqa: B010  (instance overrides)
        setattr(rules, "_count_request", counting)  # noqa: B010
        backend = self.env.backend
        commit = backend.commit_message

        def committed(message: Any, *, broadcast: bool = True) -> Any:
            self._received(message)
            return commit(message, broadcast=broadcast)

        setattr(backend, "commit_message", committed)  # noqa: B010

    def _received(self, message: Any) -> None:
        backend = self.env.backend
        if message.author_id != backend.bot_user.id or message.is_ephemeral:
            return
        channel = backend.channels.get(message.channel_id)
        direct = channel is not None and channel.guild_id is None
        content = words_of(message) or ""
        tally = self.tally
        if "⏰" in content and (REMIND_DM if direct else REMIND_THREAD) in content:
            if direct:
                tally.remind_dm += 1
            else:
                tally.remind_thread += 1
        if PARKED_TOLD in content:
            if direct:
                tally.parked_dms += 1
            else:
                tally.parked_channel_notes += 1
        if direct and CAP_DM in content:
            tally.cap_dms += 1
        if direct and CAP_HOST in content:
            tally.cap_host_dms += 1

    # -- time ----------------------------------------------------------------------------------

    def now(self) -> float:
        return self.env.backend.clock.elapsed

    async def advance_to(self, moment: float) -> None:
        """Move virtual time to ``moment`` in chunks (the bot's loops run every virtual minute)."""
        while self.now() < moment - 1e-6:
            await self.env.advance_time(min(CHUNK, moment - self.now()))
        self.check_errors()

    async def think(self) -> None:
        await self.env.advance_time(self.rng.uniform(*THINK))

    def schedule(self, moment: float, kind: str, payload: Any = None) -> None:
        self._seq += 1
        heapq.heappush(self._events, (moment, self._seq, kind, payload))

    def check_errors(self) -> None:
        errors = self.env.errors_since(self.error_cursor)
        self.error_cursor += len(errors)
        for error in errors:
            self.tally.tracebacks += 1
            self.tally.example(f"simcord caught: {type(error).__name__}: {error}")

    # -- acting as a person --------------------------------------------------------------------

    @contextmanager
    def acting(self) -> Iterator[None]:
        self.meter.acting = True
        try:
            yield
        finally:
            self.meter.acting = False

    async def click(self, person: Person, where: ResponseMessage, custom_id: str) -> InteractionResult | None:
        await self.think()
        self.tally.clicks += 1
        with self.acting():
            try:
                return await person.member.click(where, custom_id=custom_id)
            except Exception as exc:
                if not undeliverable(exc):
                    raise
                self.tally.undeliverable += 1
                return None

    async def select(
        self, person: Person, where: ResponseMessage, custom_id: str, values: list[str]
    ) -> InteractionResult | None:
        await self.think()
        self.tally.selects += 1
        with self.acting():
            try:
                return await person.member.select(where, values, custom_id=custom_id)
            except Exception as exc:
                if not undeliverable(exc):
                    raise
                self.tally.undeliverable += 1
                return None

    async def form(self, person: Person, shown: InteractionResult, value: str) -> InteractionResult | None:
        await self.think()
        self.tally.forms += 1
        with self.acting():
            try:
                return await person.member.submit_modal(shown, {"value": value})
            except Exception as exc:
                if not undeliverable(exc):
                    raise
                self.tally.undeliverable += 1
                return None

    async def slash(self, person: Person, channel: Any, command: str, **options: Any) -> InteractionResult:
        await self.think()
        self.tally.slashes += 1
        with self.acting():
            return await person.member.slash(channel, command, **options)

    # -- the world -----------------------------------------------------------------------------

    def people_per_server(self) -> int:
        """About three tables a person: each table seats 1 to 4 people."""
        seats = self.plan.tables * 2.2 / self.plan.servers
        return max(4, round(seats / 3))

    async def build(self) -> None:
        env, rng = self.env, self.rng
        for index in range(self.plan.servers):
            guild = env.create_guild(f"Server {index + 1}")
            self.guilds.append(guild)
            self.channels.append(guild.create_text_channel("games"))
            people = []
            for number in range(self.people_per_server()):
                user = env.create_user(f"s{index + 1}p{number + 1}")
                member = guild.add_member(user)
                people.append(Person(user.name, index, member, user.id))
            self.people.append(people)
        cap = self.guilds[self.plan.cap_server]
        self.rules.occupy(cap.id, DEFAULT_LIMITS.thread_cap)
        self.disturbed["cap_server"] = cap.id
        for people in self.people:
            for person in people:
                if rng.random() < NOTIFY_DM_SHARE:
                    await self.slash(person, self.channels[person.server], "game notify", how="dm")
                    person.notify = "dm"
        for number in range(self.plan.tables):
            await self.open_table(number)

    async def open_table(self, number: int) -> None:
        rng = self.rng
        server = number % self.plan.servers
        game = GAMES[(number // self.plan.servers) % len(GAMES)]
        seats = rng.randint(2, 4)
        humans = rng.randint(1, seats)
        chosen = rng.sample(self.people[server], humans)
        host = chosen[0]
        channel = self.channels[server]
        options: dict[str, str] = {"name": game}
        if number % 3:
            options["remind"] = "24h"  # the others run on GAMEHOST_REMIND_HOURS (24 by default)
        opened = await self.slash(host, channel, "game new", **options)
        if opened.response is None:
            self.tally.example(f"table {number}: /game new answered nothing")
            return
        lobby = opened.response
        game_id = int(self.db.execute("SELECT MAX(id) FROM games").fetchone()[0])
        for person in chosen[1:]:
            await self.click(person, lobby, f"l:{game_id}:join")
        bots = seats - humans
        for _ in range(bots):
            normal = rng.random() < NORMAL_BOT_SHARE or not self.normal_bots
            self.normal_bots += normal
            level = "bot_normal" if normal else "bot_easy"
            await self.click(host, lobby, f"l:{game_id}:{level}")
        await self.click(host, lobby, f"l:{game_id}:start")
        status = self.db.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()[0]
        if status != GameStatus.ACTIVE:
            self.tally.example(f"table {game_id} ({game}) did not start: {status}")
            return
        by_user = {p.user_id: p for p in chosen}
        placed = {
            int(seat): by_user[int(user)]
            for user, seat in self.db.execute("SELECT user_id, seat FROM seats WHERE game_id = ?", (game_id,))
            if int(user) in by_user
        }
        self.tables[game_id] = TableInfo(game_id, game, server, placed, bots)
        for person in chosen:
            person.tables.append(game_id)

    # -- the store, read from outside ---------------------------------------------------------

    def row(self, game_id: int) -> tuple[str, int | None, int | None, str | None]:
        """status, channel_id, thread_id, parked."""
        found = self.db.execute(
            "SELECT g.status, g.channel_id, g.thread_id, r.parked FROM games g"
            " LEFT JOIN reach r ON r.game_id = g.id WHERE g.id = ?",
            (game_id,),
        ).fetchone()
        return str(found[0]), found[1], found[2], found[3]

    def table_channel(self, game_id: int) -> int | None:
        _, channel, thread, _ = self.row(game_id)
        return thread or channel

    def boards(self, channel_id: int, game_id: int, *, newest: bool = False) -> list[Any]:
        """Public messages of ``channel_id`` with live controls of ``game_id``, newest first."""
        found = self.env.backend.messages.get(channel_id, {})
        out = []
        for key in sorted(found, reverse=True):
            message = found[key]
            if not message.is_ephemeral and live_ids(message, game_id):
                out.append(message)
                if newest:
                    break
        return out

    def handle_of(self, channel_id: int) -> ChannelHandle:
        channel = self.env.backend.channels[channel_id]
        guild = next((g for g in self.guilds if g.id == channel.guild_id), None)
        return ChannelHandle(self.env, guild, channel)

    # -- a visit -------------------------------------------------------------------------------

    async def visit(self, person: Person) -> None:
        self.tally.visits += 1
        tables = list(person.tables)
        self.rng.shuffle(tables)
        for game_id in tables:
            table = self.tables[game_id]
            seat = next((s for s, p in table.people.items() if p is person), None)
            if seat is None:
                continue
            budget = self.rng.randint(*VISIT_MOVES)
            played = False
            for _ in range(budget):
                status, _, _, parked = self.row(game_id)
                if status != GameStatus.ACTIVE or parked is not None:
                    break
                live = await self.bot.sessions.load(game_id)
                if seat not in live.waiting() and not await self.wait_for_bots(game_id, seat):
                    break
                live = await self.bot.sessions.load(game_id)
                played = True
                if not await self.move(person, table, live, seat):
                    self.tally.stuck += 1
                    self.tally.example(f"stuck: table {game_id} ({table.game}) seat {seat}")
                    break
            self.tally.table_visits += played
        self.check_errors()

    async def wait_for_bots(self, game_id: int, seat: int) -> bool:
        """While the table waits only on its bots, the person watches for up to ``BOT_PATIENCE``
        (bots think ``GAMEHOST_BOT_DELAY`` before each move); ``True`` when it comes back to them."""
        waited = 0.0
        while waited < BOT_PATIENCE:
            live = await self.bot.sessions.load(game_id)
            waiting = live.waiting()
            if live.status != GameStatus.ACTIVE or not waiting or not all(live.is_bot(s) for s in waiting):
                return live.status == GameStatus.ACTIVE and seat in waiting
            self.tally.waited_on_bots += 1
            pause = self.rng.uniform(*THINK)
            await self.env.advance_time(pause)
            waited += pause
        return False

    async def board(self, person: Person, table: TableInfo, live: LiveGame) -> ResponseMessage | None:
        """The table's live board drawn for the current public version; asked for again with
        ``/game show`` in the table's channel when it is behind (a post Discord refused)."""
        for attempt in range(2):
            channel = self.table_channel(table.game_id)
            if channel is None:
                return None
            found = self.boards(channel, table.game_id, newest=True)
            version = f":{table.game_id}:{live.public_version}:"
            if found and any(version in cid for cid in enabled(found[0])):
                return clickable(self.env, found[0])
            if attempt == 0:
                self.tally.shows += 1
                await self.slash(person, self.handle_of(channel), "game show", table=table.game_id)
        self.tally.no_board += 1
        return None

    async def move(self, person: Person, table: TableInfo, live: LiveGame, seat: int) -> bool:
        """One move of ``seat`` by clicks; ``False`` when no legal move could be reached."""
        for tried, action in enumerate(self.candidates(table.game, live, seat)):
            if tried >= TRIES:
                break
            for path in self.routes(table.game, live, seat, action):
                if await self.follow(person, table, live, path, action):
                    self.tally.moves += 1
                    self.tally.moves_by_kind[f"{table.game}.{action.kind}"] += 1
                    return True
                live = await self.bot.sessions.load(table.game_id)
                if seat not in live.waiting():
                    return True  # the table moved on meanwhile (a bot, a timer): nothing to do
            self.tally.misses += 1
            self.tally.misses_by_kind[f"{table.game}.{action.kind}"] += 1
        return False

    def candidates(self, game: str, live: LiveGame, seat: int) -> Iterator[Action]:
        """Legal actions in the order the policy tries them: kinds by weight, then shuffled."""
        weights = WEIGHTS.get(game, {})
        by_kind: dict[str, list[Action]] = {}
        for action in live.entry.rules.legal_actions(live.state, seat):
            by_kind.setdefault(action.kind, []).append(action)
        kinds = [k for k in sorted(by_kind) if weights.get(k, 1.0) > 0] or sorted(by_kind)
        while kinds:
            kind = self.rng.choices(kinds, [weights.get(k, 1.0) or 1.0 for k in kinds])[0]
            kinds.remove(kind)
            actions = by_kind[kind]
            self.rng.shuffle(actions)
            yield from actions[:3]

    def routes(self, game: str, live: LiveGame, seat: int, action: Action) -> list[list[str]]:
        """The ui codes a person presses, in order, from the table to where ``action`` is offered
        (the last step then offers it); alternatives in the order tried."""
        kind, args = action.kind, action.args
        if game == "california" and kind in ("buy", "loan_buy") and len(args) == 3:
            tile = f"t.{args[0]}.{args[1]}"
            return [[], [tile], ["buy", tile]]  # a tile with one place to go is bought from the table
        if game == "california" and kind in ("loan", "repay"):
            return [["mansion"]]  # a seat's own loan buttons, where it may use them
        if game == "estates" and kind == "bid":
            return [[], ["bid"]]
        if game == "estates" and kind == "buy":
            return [["decide"]]  # the auctioneer's private decision: their money is secret
        if game == "monopoly" and kind not in MONOPOLY_ON_TABLE:
            if kind in ("sell", "mort") and any(d.debtor == seat for d in live.state.debts):
                return [["debt"]]
            if kind in ("build", "sell", "mort", "unmort"):
                return [["props"]]
            if kind == "bankrupt":
                return [["debt", "bankrupt"]]
            return [["deal"]]
        if game == "lastwill" and kind not in LASTWILL_TABLE:
            if kind == "bankrupt":
                return [["bankrupt"], []]
            if kind == "discard":
                return [["discard"], ["hand", "discard"]]
            if kind in LASTWILL_SPLIT:
                return [["draw"], ["hand", "draw"]]
            if kind in LASTWILL_ANSWER:
                return [[], ["answer"], ["hand", "answer"]]  # on the table when it names nothing hidden
            if kind in LASTWILL_HAND:
                return [["hand"]]
            if kind == "ball":
                return [["hand", f"ball.{args[0]}"]]
            if kind == "token":
                return [["hand", f"comp.{args[1]}"]]
            if kind == "nupt":
                return [["hand", "nupt"]]
        return [[]]

    async def follow(
        self, person: Person, table: TableInfo, live: LiveGame, path: list[str], action: Action
    ) -> bool:
        """Press the way along ``path`` and then ``action``; ``True`` when the game took a move."""
        game_id, version = table.game_id, live.public_version
        where = await self.board(person, table, live)
        if where is None:
            return False
        for code in path:
            opener = f"u:{game_id}:{version}:{code}"

            def wanted(message: Any, opener: str = opener) -> str | None:
                return opener if opener in enabled(message) else None

            found = await self.find(person, where, game_id, wanted)
            if found is None:
                return False
            result = await self.click(person, found[0], found[1])
            if result is None:
                return False
            response = result.response
            if response is not None and response.ephemeral:
                where = response
            else:
                channel = self.table_channel(game_id)
                newest = self.boards(channel, game_id, newest=True) if channel else []
                if not newest:
                    return False
                where = clickable(self.env, newest[0])
        found = await self.find(person, where, game_id, lambda m: self.control(m, game_id, version, action))
        if found is None:
            return False
        handle, (how, custom_id, payload) = found
        before = live.version
        if how == "select":
            await self.select(person, handle, custom_id, payload)
        elif how == "form":
            shown = await self.click(person, handle, custom_id)
            if shown is None or shown.modal is None:
                return False
            await self.form(person, shown, payload)
        else:
            await self.click(person, handle, custom_id)
        after = await self.bot.sessions.load(game_id)
        return after.version > before

    @staticmethod
    def control(message: Any, game_id: int, version: int, action: Action) -> tuple[str, str, Any] | None:
        """How ``message`` offers ``action``: ``(button|select|form, custom_id, values or amount)``
        (:func:`benchmarks.click_routes.control`, in the shape :meth:`follow` presses)."""
        offer = click_routes.control(message, game_id, version, action)
        if offer is None:
            return None
        if offer.how == "button":
            return "button", offer.custom_id, None
        if offer.how == "select":
            return "select", offer.custom_id, list(offer.values)
        return "form", offer.custom_id, offer.values[0]

    async def find(
        self, person: Person, handle: ResponseMessage, game_id: int, target: Callable[[Any], Any]
    ) -> tuple[ResponseMessage, Any] | None:
        """``target(message)`` on the message behind ``handle``, across its pages."""
        return await click_routes.find_on_pages(
            self.env, game_id, handle, target, lambda where, step: self.click(person, where, step)
        )

    pages = staticmethod(click_routes.pages)

    # -- disturbances ----------------------------------------------------------------------------

    def pick_table(self, server: int, *, avoid: set[int]) -> int | None:
        """A running, reachable table of ``server`` with its own thread, waiting on a person if
        one is (the disturbance then matters to someone)."""
        found = []
        for game_id, table in self.tables.items():
            status, _, thread, parked = self.row(game_id)
            if (
                table.server == server
                and status == GameStatus.ACTIVE
                and thread
                and parked is None
                and game_id not in avoid
            ):
                found.append(game_id)
        return self.rng.choice(found) if found else None

    async def delete_thread(self) -> None:
        game_id = self.pick_table(0, avoid=set())
        if game_id is None:
            return
        thread = self.row(game_id)[2]
        assert thread is not None
        self.rules.delete_channel(thread)
        self.disturbed["deleted_thread_table"] = game_id
        await self.env.advance_time(1)
        self.schedule(self.now() + SHOW_AFTER, "show", game_id)

    async def show_again(self, game_id: int) -> None:
        """A player of the table whose thread was deleted brings it back in the server's channel."""
        table = self.tables[game_id]
        person = next(iter(table.people.values()))
        parked_before = self.row(game_id)[3]
        result = await self.slash(person, self.channels[table.server], "game show", table=game_id)
        text = "\n".join(words_of(r) for r in [result.response, *result.followups] if r is not None)
        self.disturbed["shown_back"] = parked_before == "thread_gone" and self.row(game_id)[3] is None
        self.disturbed["shown_back_answer"] = text[:120]

    async def lock_thread(self) -> None:
        avoid = {self.disturbed.get("deleted_thread_table", -1)}
        game_id = self.pick_table(self.plan.lock_server, avoid=avoid)
        if game_id is None:
            return
        thread = self.row(game_id)[2]
        assert thread is not None
        self.rules.lock(thread)
        self.disturbed["locked_thread_table"] = game_id
        await self.env.advance_time(1)
        table = self.tables[game_id]
        person = next(iter(table.people.values()))
        listed = await self.slash(person, self.channels[table.server], "game list")
        mine = await self.slash(person, self.channels[table.server], "game mine")
        listing = words_of(listed.response) if listed.response else ""
        mine_text = words_of(mine.response) if mine.response else ""
        self.disturbed["list_shows_parked"] = f"#{game_id}" in listing and "parked" in listing
        self.disturbed["list_tables_in_server"] = sum(
            1
            for t in self.tables.values()
            if t.server == table.server and self.row(t.game_id)[0] == GameStatus.ACTIVE
        )
        self.disturbed["mine_shows_parked"] = f"#{game_id}" in mine_text and "parked" in mine_text

    async def remove_bot(self) -> None:
        server = self.plan.removed_server
        guild = self.guilds[server]
        self.rules.remove_bot(guild.id)
        self.removed.add(server)
        self.disturbed["removed_server"] = guild.id
        await self.env.advance_time(1)

    async def go_down(self) -> None:
        """Stop the bot's own loops, let six hours pass, restart a fresh bot (module docstring)."""
        old = self.bot
        await self.env.advance_time(10 * MINUTE)  # nobody plays: bot players end their moves in flight
        await old.remove_cog("TasksCog")
        down_at = self.now()
        await self.advance_to(down_at + DOWN_FOR)
        fresh = GameBot(settings(self.workdir))
        self.bots.append(fresh)
        claims = self.tally.claims
        started = time.perf_counter()
        await self.env.restart_bot(fresh)
        self.bot = fresh
        self.restarted_at = self.now()
        await self.env.advance_time(10 * MINUTE)
        self.tally.claims_after_restart = self.tally.claims - claims
        self.disturbed["down_hours"] = DOWN_FOR / HOUR
        self.disturbed["restart_burst_reminders"] = self.tally.claims_after_restart
        self.disturbed["restart_seconds"] = round(time.perf_counter() - started, 2)
        store = getattr(old, "store", None)
        if store is not None:
            await store.close()

    # -- the run -----------------------------------------------------------------------------------

    async def run(self) -> None:
        plan, rng = self.plan, self.rng
        started = time.perf_counter()
        await self.build()
        progress(
            f"{len(self.tables)} tables open at {self.now() / HOUR:.1f} h ({time.perf_counter() - started:.0f} s)"
        )
        for people in self.people:
            for person in people:
                if person.tables:
                    self.schedule(self.now() + rng.uniform(*GAP_DAYS) * DAY, "visit", person)
        self.schedule(plan.at(0.25), "delete")
        self.schedule(plan.at(0.35), "remove")
        self.schedule(plan.at(0.45), "lock")
        self.schedule(plan.at(0.6), "down")
        day = 1
        while self._events:
            moment, _, kind, payload = heapq.heappop(self._events)
            if moment > plan.end:
                break
            await self.advance_to(moment)
            while self.now() >= day * DAY:
                progress(
                    f"day {day}: {self.tally.moves} moves, {self.tally.clicks} clicks, "
                    f"{self.rules.requests} requests ({time.perf_counter() - started:.0f} s)"
                )
                forget_attachments(self.env)
                forget_logs(self.env)
                day += 1
            if kind == "visit":
                person = payload
                if person.server not in self.removed:
                    await self.visit(person)
                    self.schedule(self.now() + rng.uniform(*GAP_DAYS) * DAY, "visit", person)
            elif kind == "delete":
                await self.delete_thread()
            elif kind == "show":
                await self.show_again(payload)
            elif kind == "remove":
                await self.remove_bot()
            elif kind == "lock":
                await self.lock_thread()
            elif kind == "down":
                await self.go_down()
        await self.advance_to(max(self.now(), plan.end) + 10 * MINUTE)

    # -- the checks ----------------------------------------------------------------------------------

    def judge_boards(self) -> dict[str, Any]:
        wrong: list[str] = []
        parked: Counter[str] = Counter()
        statuses: Counter[str] = Counter()
        in_channel = 0
        for game_id, status, channel, thread in self.db.execute(
            "SELECT id, status, channel_id, thread_id FROM games ORDER BY id"
        ).fetchall():
            statuses[status] += 1
            if status != GameStatus.ACTIVE:
                continue
            reason = self.row(game_id)[3]
            if reason is not None:
                parked[reason] += 1
                continue
            place = thread or channel
            boards = self.boards(place, game_id) if place else []
            if len(boards) != 1:
                wrong.append(f"table {game_id}: {len(boards)} live boards")
            elif thread and self.rules.archived(thread):
                wrong.append(f"table {game_id}: its thread is archived ({self.idle(game_id, thread)})")
            in_channel += thread is None
        return {
            "statuses": dict(statuses),
            "parked_by_reason": dict(parked),
            "playing_in_channel": in_channel,
            "boards_wrong": len(wrong),
            "boards_wrong_examples": wrong[:6],
        }

    def idle(self, game_id: int, thread: int) -> str:
        """Why a running table's thread may have archived: how long since its last message and
        its last move, and whom it waits on (a person's way of being reminded, or a bot)."""
        backend = self.env.backend
        now = backend.clock.now()
        messages = backend.messages.get(thread, {})
        last = max((m for m in messages.values() if not m.is_ephemeral), key=lambda m: m.id, default=None)
        posted = (now - datetime.fromisoformat(last.timestamp)).total_seconds() / HOUR if last else -1.0
        moved = self.db.execute("SELECT MAX(at) FROM actions WHERE game_id = ?", (game_id,)).fetchone()[0]
        waits = self.db.execute(
            "SELECT w.seat, s.bot, COALESCE(p.notify, 'thread'), w.reminders, w.since FROM waits w"
            " JOIN seats s ON s.game_id = w.game_id AND s.seat = w.seat"
            " LEFT JOIN players p ON p.user_id = s.user_id WHERE w.game_id = ?",
            (game_id,),
        ).fetchall()
        stamp = now.timestamp()
        waited = [
            f"seat {seat} {bot or notify} x{sent} since {(stamp - since) / HOUR:.0f} h"
            for seat, bot, notify, sent, since in waits
        ]
        last_move = f"{(stamp - moved) / HOUR:.0f} h" if moved else "never"
        return f"last message {posted:.0f} h ago, last move {last_move} ago, waiting: {', '.join(waited) or 'nobody'}"

    def overdue(self) -> int:
        now = self.env.backend.clock.now().timestamp()
        return int(
            self.db.execute(
                "SELECT COUNT(*) FROM waits w JOIN games g ON g.id = w.game_id"
                " JOIN seats s ON s.game_id = w.game_id AND s.seat = w.seat"
                " LEFT JOIN reach r ON r.game_id = w.game_id"
                " WHERE g.status = 'active' AND r.parked IS NULL AND s.user_id > 0"
                " AND w.remind_due IS NOT NULL AND w.remind_due < ? AND w.reminders < ?",
                (now - OVERDUE_SLACK, MAX_REMINDERS),
            ).fetchone()[0]
        )

    def figures(self, seconds: float) -> dict[str, Any]:
        tally, rules = self.tally, self.rules
        boards = self.judge_boards()
        delivered = tally.claims - tally.unclaims
        received = tally.remind_thread + tally.remind_dm
        actions = self.db.execute(
            "SELECT COUNT(*), SUM(s.bot IS NOT NULL), SUM(s.bot = 'normal') FROM actions a JOIN seats s"
            " ON s.game_id = a.game_id AND s.seat = a.seat"
        ).fetchone()
        answers = {
            (f"{status}/{code}" if code else str(status)): n
            for (status, code), n in sorted(rules.answers.items())
        }
        latencies = sorted(r.latency for r in rules.interactions if r.latency is not None)
        budget = settings(self.workdir).discord_rate
        cap_answers = rules.answers[(400, 160006)]
        disturbances = {
            "cap_server_tables_in_channel": sum(
                1
                for t in self.tables.values()
                if t.server == self.plan.cap_server and self.row(t.game_id)[2] is None
            ),
            "cap_refusals_160006": cap_answers,
            "cap_dms_to_players": tally.cap_dms,
            "cap_dms_to_hosts": tally.cap_host_dms,
            "parked_events": dict(tally.parked_events),
            "parked_told_by_dm": tally.parked_dms,
            "parked_told_in_channel": tally.parked_channel_notes,
            **self.disturbed,
        }
        happened = {
            "cap": disturbances["cap_server_tables_in_channel"] > 0 and cap_answers > 0,
            "thread_deleted": tally.parked_events["thread_gone"] > 0
            and bool(self.disturbed.get("shown_back")),
            "thread_locked": tally.parked_events["locked"] > 0,
            "server_removed": tally.parked_events["guild_gone"] > 0,
            "restart": self.restarted_at is not None and tally.claims_after_restart > 0,
        }
        checks = {
            "unanswered": len(rules.unanswered()),
            "late": len(rules.late()),
            "boards_wrong": boards["boards_wrong"],
            "reminders_lost": max(0, delivered - received),
            "reminders_doubled": max(0, received - delivered),
            "reminders_overdue": self.overdue(),
            "tracebacks": tally.tracebacks,
        }
        ok = (
            all(value == 0 for value in checks.values())
            and rules.peak_rps <= DEFAULT_LIMITS.global_per_second
            and self.meter.peak <= budget + OVERDRAFT
            and rules.invalid_peak <= INVALID_GOAL
            and all(happened.values())
        )
        return {
            "benchmark": "discord_week",
            "tables": self.plan.tables,
            "servers": self.plan.servers,
            "days": self.plan.days,
            "seed": self.plan.seed,
            "people": sum(len(p) for p in self.people),
            "tables_opened": len(self.tables),
            **checks,
            "peak_rps": rules.peak_rps,
            "peak_rps_budget": DEFAULT_LIMITS.global_per_second,
            "background_peak_rps": self.meter.peak,
            "background_budget": f"{budget:g} + {OVERDRAFT}",
            "background_peak_at_hour": round(self.meter.peak_at / HOUR, 3),
            "background_peak_routes": dict(self.meter.peak_routes.most_common(6)),
            "invalid_peak": rules.invalid_peak,
            "invalid_goal": INVALID_GOAL,
            "interactions": len(rules.interactions),
            "first_answer_p50_ms": round(latencies[len(latencies) // 2] * 1000, 1) if latencies else None,
            "first_answer_max_ms": round(latencies[-1] * 1000, 1) if latencies else None,
            "clicks": tally.clicks,
            "selects": tally.selects,
            "forms": tally.forms,
            "slash_commands": tally.slashes,
            "visits": tally.visits,
            "table_visits": tally.table_visits,
            "moves_by_people": tally.moves,
            "moves_total": int(actions[0] or 0),
            "moves_by_bots": int(actions[1] or 0),
            "moves_by_normal_bots": int(actions[2] or 0),
            "script_misses": tally.misses,
            "script_misses_by_kind": dict(tally.misses_by_kind.most_common(10)),
            "script_stuck": tally.stuck,
            "undeliverable": tally.undeliverable,
            "game_show_for_a_stale_board": tally.shows,
            "settle_overruns": tally.settle_overruns,
            "no_board": tally.no_board,
            "requests": rules.requests,
            "answers": answers,
            "reminders": {
                "claimed": tally.claims,
                "given_back": tally.unclaims,
                "received_on_table": tally.remind_thread,
                "received_by_dm": tally.remind_dm,
                "after_restart": tally.claims_after_restart,
            },
            **boards,
            "disturbances": disturbances,
            "happened": happened,
            "error_logs": tally.error_logs,
            "examples": tally.examples,
            "seconds": round(seconds, 1),
            "ok": ok,
        }


def progress(text: str) -> None:
    print(f"[discord_week] {text}", file=sys.stderr, flush=True)


@contextmanager
def claim_spy(tally: Tally) -> Iterator[None]:
    """Count reminders claimed and given back in ``waits``, for every store of the run (a restart
    opens a new one), by wrapping the two ``WaitStore`` methods for the run's length."""
    claim, unclaim = WaitStore.claim_reminder, WaitStore.unclaim_reminder

    async def claiming(self: WaitStore, game_id: int, seat: int, due: float, next_due: float | None) -> bool:
        done = await claim(self, game_id, seat, due, next_due)
        tally.claims += bool(done)
        return done

    async def unclaiming(self: WaitStore, game_id: int, seat: int, sent: int, due_again: float) -> bool:
        done = await unclaim(self, game_id, seat, sent, due_again)
        tally.unclaims += bool(done)
        return done

    setattr(WaitStore, "claim_reminder", claiming)  # noqa: B010
    setattr(WaitStore, "unclaim_reminder", unclaiming)  # noqa: B010
    try:
        yield
    finally:
        setattr(WaitStore, "claim_reminder", claim)  # noqa: B010
        setattr(WaitStore, "unclaim_reminder", unclaim)  # noqa: B010


async def run(plan: Plan) -> dict[str, Any]:
    workdir = scratch_dir("discord-week-")
    tally = Tally()
    handler = LogCount(tally)
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    started = time.perf_counter()
    week: Week | None = None
    try:
        with enforce(None, Limits()), quick_settle(), short_click_settles(tally), claim_spy(tally):
            bot = GameBot(settings(workdir))
            async with simcord.run(bot, strict_sync=False, settle_timeout=SETTLE_TIMEOUT) as env:
                week = Week(plan, env, bot, workdir, tally)
                await week.run()
                figures = week.figures(time.perf_counter() - started)
                for each in week.bots:
                    store = getattr(each, "store", None)
                    if store is not None:
                        await store.close()
                week.db.close()
        return figures
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
        shutil.rmtree(workdir, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--servers", type=int, default=5)
    parser.add_argument("--days", type=float, default=14.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="10 tables, 3 servers, 3 days")
    args = parser.parse_args(argv)
    if args.quick:
        plan = Plan(tables=10, servers=3, days=3.0, seed=args.seed, quick=True)
    else:
        plan = Plan(tables=args.tables, servers=args.servers, days=args.days, seed=args.seed)
    if plan.servers < 3:
        parser.error("--servers must be at least 3 (a removed server, a capped one and one more)")
    figures = asyncio.run(run(plan))
    print(summary_line(figures))
    return 0 if figures["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
