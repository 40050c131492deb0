"""Torture run 2: concurrent submissions to one game, thousands of times, inside one event loop.

What runs: the real ``Store`` (one SQLite file), ``SessionService`` and
``LobbyService`` with the real engines (California, The Estates, and the
test-only toy game, whose final phase waits on every seat at once and whose
"reroll" is a private action).  A pool of ``--tables`` games is kept going;
each race picks one of them and fires several coroutines at it with
``asyncio.gather``, each after its own random jitter (nothing, a few
``asyncio.sleep(0)``, or a sleep of up to 3 ms), so the schedules vary:

- ``same_button``: one player presses the same button two or three times at
  once (same action, same version);
- ``two_players``: the seat on turn and another seat act at once with the
  same version (the other seat's own legal action if it has one, such as an
  out-of-turn loan in California or a second "gg" in the toy game, else the
  first seat's action, which it may not take);
- ``move_and_reads``: one move while one to three other coroutines only read
  the game through ``SessionService.load`` -- what ``Publisher.language``, a
  panel opening, ``publish`` and ``/game list`` do, all without the game's lock;
- ``two_processes``: ``same_button`` or ``two_players`` with the presses
  spread over two ``SessionService`` instances, each with its own ``Store``
  connection to the same file (two bot processes);
- ``lobby_join``: in a fresh lobby the last player joins while one to three
  coroutines read the lobby (cold cache as below); then the host starts it.

Before a race the game's cache is left warm, or emptied the way a running bot
empties it: the game is evicted (``forget``) or the service is replaced by a
fresh one (a restart).  Cold caches are the interesting case, so they are
the majority (``--cold``, default 0.75).  Extra readers join the other kinds
too (``--readers``).

After every race the database is the truth (read through its own plain
``sqlite3`` connection) and these are counted:

- double_applied: the log grew by a different number of entries than the
  number of ``act`` calls that returned, an accepted call is not in the log
  at the version it returned (with its seat and action), or the same button
  press was accepted twice;
- stuck_games: the game is active in the database but cannot make progress
  through the service.  For the service that ran the race, ``load(game)`` must
  return the database's version and public version and a state whose dump
  equals the stored snapshot; then a legal action of a waiting seat, drawn for
  the database's public version, must be accepted (refused as
  ``host.refuse.stale`` is the known symptom).  A second process cannot know
  what the first committed, so through it only the progress part is asked.
  A stuck game is then evicted (``forget``) so later races start clean, and
  the same action is tried again: ``stuck_after_evict`` counts games that
  even that did not cure;
- snapshot_mismatch / public_version_mismatch: the stored snapshot and public
  version equal what the log implies (a replay kept in step, entry by entry);
- errors / no_winner: a call failed with anything but a refusal or an illegal
  action; or no call of a race that offered a legal, current action was accepted;
- stale_seats / dropped_players (lobby races): after the join the cached lobby
  seats someone else than the database does; the started game does not seat
  everybody the database had seated.

The probe move counts as progress: every race moves its game on, finished
games are replaced by new tables.

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/torture_races.py [--races 10000] [--seed 1]

The human summary goes to stderr; stdout gets one JSON line.  Exit 1 if any
of those figures is not zero.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sqlite3
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.torture_common import (
    REAL_GAMES,
    USER_BASE,
    choose_move,
    is_public_step,
    new_table,
    parse_games,
    player_count,
    report,
    scratch_folder,
    violations,
)
from bot.games import REGISTRY
from bot.services.lobby import LobbyService
from bot.services.sessions import Applied, LiveGame, Refusal, SessionService
from bot.storage import GameStatus, Store
from rules.core import Action, IllegalAction, Rules
from rules.play import canonical

GOAL_RACES = 10_000
DEFAULT_GAMES = (*REAL_GAMES, "toy")
KINDS = ("same_button", "two_players", "move_and_reads", "two_processes", "lobby_join")
WEIGHTS = (0.24, 0.19, 0.38, 0.14, 0.05)
ZERO_FIGURES = (
    "double_applied",
    "stuck_games",
    "stuck_after_evict",
    "snapshot_mismatch",
    "public_version_mismatch",
    "errors",
    "no_winner",
    "stale_seats",
    "dropped_players",
)


@dataclass(slots=True)
class Table:
    """One game of the pool and the checker's own replay of its log."""

    game_id: int
    name: str
    rules: Rules[Any]
    users: list[int]
    state: Any
    version: int = 0
    public_version: int = 0


@dataclass(slots=True)
class Truth:
    """The database's row for a game (read through the checker's own connection)."""

    version: int
    public_version: int
    status: str
    snapshot: str


@dataclass(slots=True)
class Press:
    """One coroutine of a race: an ``act`` (with its action) or a read."""

    service: str  # "a" or "b"
    user: int = 0
    seat: int = -1
    action: Action | None = None
    version: int | None = None
    press: int = 0
    """Which physical click this is; two presses of one button share the number."""
    jitter: tuple[str, float] = ("none", 0.0)


@dataclass(slots=True)
class Figures:
    races: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    by_cache: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)
    double_applied: int = 0
    stuck: int = 0
    stuck_games: set[int] = field(default_factory=set)
    stuck_by: Counter[str] = field(default_factory=Counter)
    stuck_symptoms: Counter[str] = field(default_factory=Counter)
    stuck_after_evict: int = 0
    snapshot_mismatch: int = 0
    public_mismatch: int = 0
    errors: int = 0
    no_winner: int = 0
    stale_seats: int = 0
    dropped_players: int = 0
    probes: int = 0
    reads: int = 0
    games_started: int = 0
    games_finished: int = 0
    examples: list[str] = field(default_factory=list)

    def note(self, sentence: str) -> None:
        if len(self.examples) < 12:
            self.examples.append(sentence)


class Checker:
    """Reads the truth from the file with plain ``sqlite3``; never writes."""

    def __init__(self, path: Path) -> None:
        self.con = sqlite3.connect(path, isolation_level=None)

    def close(self) -> None:
        self.con.close()

    def row(self, game_id: int) -> Truth:
        found = self.con.execute(
            "SELECT version, public_version, status, snapshot FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if found is None:
            raise LookupError(f"game {game_id} vanished")
        return Truth(int(found[0]), int(found[1]), str(found[2]), str(found[3] or ""))

    def seats(self, game_id: int) -> list[int]:
        rows = self.con.execute("SELECT user_id FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        return [int(r[0]) for r in rows.fetchall()]

    def log_after(self, game_id: int, version: int) -> list[tuple[int, int, Action]]:
        rows = self.con.execute(
            "SELECT version, seat, action FROM actions WHERE game_id = ? AND version > ? ORDER BY version",
            (game_id, version),
        ).fetchall()
        return [(int(v), int(s), Action.from_json(json.loads(a))) for v, s, a in rows]


class RaceRun:
    def __init__(
        self,
        path: Path,
        rng: random.Random,
        games: Sequence[str],
        *,
        tables: int,
        cold: float,
        readers: float,
        second: Store,
        primary: Store,
    ) -> None:
        self.path = path
        self.rng = rng
        self.games = tuple(games)
        self.pool_size = tables
        self.cold = cold
        self.readers = readers
        self.store_a = primary
        self.store_b = second
        self.a = SessionService(primary, REGISTRY)
        self.b = SessionService(second, REGISTRY)
        self.checker = Checker(path)
        self.pool: list[Table] = []
        self.f = Figures()

    def service(self, which: str) -> SessionService:
        return self.a if which == "a" else self.b

    # -- the pool --------------------------------------------------------------------------------

    async def fill_pool(self) -> None:
        while len(self.pool) < self.pool_size:
            name = self.rng.choice(self.games)
            live = await new_table(LobbyService(self.a), name, self.rng)
            rules = live.entry.rules
            self.pool.append(
                Table(
                    live.id,
                    name,
                    rules,
                    [seat.user_id for seat in live.seats],
                    rules.load(json.loads(self.checker.row(live.id).snapshot)),
                )
            )
            self.f.games_started += 1

    def retire_finished(self) -> None:
        keep: list[Table] = []
        for table in self.pool:
            if self.checker.row(table.game_id).status == GameStatus.ACTIVE:
                keep.append(table)
            else:
                self.f.games_finished += 1
                self.a.forget(table.game_id)
                self.b.forget(table.game_id)
        self.pool = keep

    # -- one race --------------------------------------------------------------------------------

    def jitter(self) -> tuple[str, float]:
        roll = self.rng.random()
        if roll < 0.3:
            return ("none", 0.0)
        if roll < 0.75:
            return ("yield", float(self.rng.randint(1, 8)))
        return ("sleep", self.rng.uniform(0.0, 0.003))

    def plan(self, table: Table, kind: str) -> list[Press]:
        rules, state, rng = table.rules, table.state, self.rng
        move = choose_move(rules, state, rng)
        if move is None:
            raise RuntimeError(f"game {table.game_id} is active but nobody can act")
        seat, action = move
        user = table.users[seat]
        version = table.public_version
        presses: list[Press] = []
        if kind == "same_button" or (kind == "two_processes" and rng.random() < 0.5):
            count = 3 if rng.random() < 0.25 else 2
            for _ in range(count):
                where = "b" if kind == "two_processes" and (not presses or rng.random() < 0.5) else "a"
                presses.append(Press(where, user, seat, action, version, press=0))
            if kind == "two_processes" and all(p.service == "b" for p in presses):
                presses[0].service = "a"
        elif kind in ("two_players", "two_processes"):
            others = [s for s in range(len(table.users)) if s != seat]
            other = rng.choice(others) if others else seat
            options = rules.legal_actions(state, other)
            theirs = rng.choice(options) if options else action
            second = "b" if kind == "two_processes" else "a"
            presses.append(Press("a", user, seat, action, version, press=0))
            presses.append(Press(second, table.users[other], other, theirs, version, press=1))
        else:  # move_and_reads
            presses.append(Press("a", user, seat, action, version, press=0))
            for _ in range(rng.randint(1, 3)):
                presses.append(Press("a"))
        if kind != "move_and_reads" and rng.random() < self.readers:
            presses.extend(Press("a") for _ in range(rng.randint(1, 2)))
        for press in presses:
            press.jitter = self.jitter()
        rng.shuffle(presses)
        return presses

    async def prepare_cache(self, table: Table, kind: str) -> str:
        """Leave the cache warm, or empty it as eviction or a restart would."""
        roll = self.rng.random()
        if kind == "two_processes":
            # The other process cannot know what this one committed: it has nothing cached.
            self.b.forget(table.game_id)
        if roll >= self.cold:
            await self.a.load(table.game_id)  # really cached (an earlier check may have evicted it)
            return "warm"
        if roll < self.cold / 2:
            self.a.forget(table.game_id)
            return "evicted"
        self.a = SessionService(self.store_a, REGISTRY)
        return "restarted"

    async def perform(self, table: Table, press: Press) -> Applied | LiveGame:
        await _jitter(press.jitter)
        service = self.service(press.service)
        if press.action is None:
            live = await service.load(table.game_id)
            # What a reader does with it: the language, who is waited on, the public view.
            _ = (live.row.language, live.waiting())
            if live.state is not None:
                table.rules.view(live.state, None)
            return live
        return await service.act(table.game_id, press.user, press.action, version=press.version)

    async def race(self, table: Table, kind: str) -> None:
        f = self.f
        cache = await self.prepare_cache(table, kind)
        presses = self.plan(table, kind)
        f.races += 1
        f.by_kind[kind] += 1
        f.by_cache[cache] += 1
        before = self.checker.row(table.game_id)
        results = await asyncio.gather(*(self.perform(table, p) for p in presses), return_exceptions=True)
        accepted: list[tuple[Press, Applied]] = []
        legal_offered = False
        for press, result in zip(presses, results, strict=True):
            if press.action is None:
                f.reads += 1
                if isinstance(result, BaseException):
                    f.errors += 1
                    f.note(f"race {f.races} ({kind}): a read failed: {type(result).__name__}: {result}")
                continue
            legal_offered = legal_offered or _legal(table, press)
            if isinstance(result, Applied):
                accepted.append((press, result))
                f.outcomes["accepted"] += 1
            elif isinstance(result, Refusal):
                f.outcomes[f"refused:{result.key}"] += 1
                # Stale: another press won; over: the winning press ended the game.
                if result.key not in ("host.refuse.stale", "host.refuse.over"):
                    f.errors += 1
                    f.note(f"race {f.races} ({kind}): unexpected refusal {result.key} {result.params}")
            elif isinstance(result, IllegalAction):
                f.outcomes["illegal"] += 1
            else:
                f.outcomes["error"] += 1
                f.errors += 1
                f.note(f"race {f.races} ({kind}): {type(result).__name__}: {result}")
        if legal_offered and not accepted:
            f.no_winner += 1
            f.note(f"race {f.races} ({kind}, {cache}): a legal, current action was refused every time")
        self.check_log(table, before, accepted, kind)
        if kind == "two_processes" and len({press.service for press, _ in accepted}) > 1:
            # Both processes committed (an any-time move outlasts the other's turn move): the one
            # that committed first is behind the other's commit, and no cross-process
            # invalidation is claimed, so neither copy is judged here; the probe still is.
            self.a.forget(table.game_id)
            self.b.forget(table.game_id)
        await self.check_progress(table, kind, cache)

    async def lobby_race(self) -> None:
        """A join while others read the lobby on a cold cache; then the host starts it.

        Afterwards the cached lobby must seat exactly who the database seats, and the
        started game must seat them all: a stale copy would start without the last joiner.
        """
        f, rng = self.f, self.rng
        name = rng.choice(self.games)
        lobby = LobbyService(self.a)
        live = await lobby.create(
            game=name,
            options_text=None,
            host_id=USER_BASE,
            host_name="p0",
            guild_id=1,
            channel_id=1,
            language="en",
        )
        count = player_count(live.entry.rules, rng)
        for user in range(USER_BASE + 1, USER_BASE + count - 1):
            await lobby.join(live.id, user, f"p{user - USER_BASE}")
        roll = rng.random()
        if roll >= self.cold:
            await self.a.load(live.id)
            cache = "warm"
        elif roll < self.cold / 2:
            self.a.forget(live.id)
            cache = "evicted"
        else:
            self.a = SessionService(self.store_a, REGISTRY)
            cache = "restarted"
        lobby = LobbyService(self.a)
        f.races += 1
        f.by_kind["lobby_join"] += 1
        f.by_cache[cache] += 1
        last = USER_BASE + count - 1

        async def join() -> None:
            await _jitter(self.jitter())
            await lobby.join(live.id, last, f"p{count - 1}")

        async def read(jitter: tuple[str, float]) -> None:
            await _jitter(jitter)
            await self.a.load(live.id)

        readers = [read(self.jitter()) for _ in range(rng.randint(1, 3))]
        results = await asyncio.gather(join(), *readers, return_exceptions=True)
        f.reads += len(readers)
        for result in results:
            if isinstance(result, BaseException):
                f.errors += 1
                f.note(f"race {f.races} (lobby_join): {type(result).__name__}: {result}")
        seated = self.checker.seats(live.id)
        cached = [seat.user_id for seat in (await self.a.load(live.id)).seats]
        if sorted(cached) != sorted(seated):
            f.stale_seats += 1
            f.note(
                f"race {f.races} (lobby_join, {cache}) lobby {live.id}: cached seats {cached}, stored {seated}"
            )
        started = await lobby.start(live.id, USER_BASE, seed=rng.randrange(2**62))
        if sorted(seat.user_id for seat in started.seats) != sorted(seated):
            f.dropped_players += 1
            f.note(f"lobby {live.id}: seated {seated} before start, the game started with {started.names}")
        self.a.forget(live.id)  # not part of the pool: it only had to start with everybody

    # -- the checks ------------------------------------------------------------------------------

    def check_log(
        self, table: Table, before: Truth, accepted: list[tuple[Press, Applied]], kind: str
    ) -> None:
        f = self.f
        new = self.checker.log_after(table.game_id, before.version)
        problems: list[str] = []
        if len(new) != len(accepted):
            problems.append(f"the log grew by {len(new)} for {len(accepted)} accepted calls")
        logged = {version: (seat, action) for version, seat, action in new}
        for press, applied in accepted:
            if logged.get(applied.version) != (press.seat, press.action):
                problems.append(
                    f"accepted as v{applied.version} but the log has {logged.get(applied.version)}"
                )
        presses = Counter(press.press for press, _ in accepted)
        if any(n > 1 for n in presses.values()):
            problems.append("one button press was accepted more than once")
        if problems:
            f.double_applied += 1
            f.note(f"race {f.races} ({kind}) game {table.game_id}: " + "; ".join(problems))
        self.follow(table, new)

    def follow(self, table: Table, new: list[tuple[int, int, Action]]) -> None:
        """Move the checker's replay along the new log entries and compare it with the stored row."""
        for version, seat, action in new:
            if version != table.version + 1:
                break
            table.public_version += is_public_step(table.rules, table.state, seat, action)
            table.version = version
        truth = self.checker.row(table.game_id)
        if canonical(table.rules.dump(table.state)) != truth.snapshot or truth.version != table.version:
            self.f.snapshot_mismatch += 1
            self.f.note(f"game {table.game_id} v{truth.version}: stored snapshot != replay of the log")
            self.resync(table, truth)
        elif truth.public_version != table.public_version:
            self.f.public_mismatch += 1
            self.f.note(
                f"game {table.game_id}: public version {truth.public_version}, the log implies {table.public_version}"
            )
            table.public_version = truth.public_version

    def resync(self, table: Table, truth: Truth) -> None:
        table.state = table.rules.load(json.loads(truth.snapshot))
        table.version, table.public_version = truth.version, truth.public_version

    async def check_progress(self, table: Table, kind: str, cache: str) -> None:
        """Is the game stuck?  Then evict it and see whether that cures it."""
        truth = self.checker.row(table.game_id)
        if truth.status != GameStatus.ACTIVE:
            return
        which = "b" if kind == "two_processes" and self.rng.random() < 0.5 else "a"
        reason = await self.stuck_reason(table, truth, which)
        if kind == "two_processes":
            # The other process's copy is behind now: no cross-process invalidation is claimed.
            self.service("b" if which == "a" else "a").forget(table.game_id)
        if reason is None:
            return
        f = self.f
        f.stuck += 1
        f.stuck_games.add(table.game_id)
        symptom = " + ".join(
            part if part.startswith("click refused") else part.split(":")[0] for part in reason.split(" + ")
        )
        f.stuck_by[f"{kind}/{cache}/{symptom}"] += 1
        f.stuck_symptoms[symptom] += 1
        if f.stuck <= 3:
            f.note(
                f"race {f.races} ({kind}, {cache} cache) game {table.game_id} v{truth.version}: stuck: {reason}"
            )
        self.service(which).forget(table.game_id)
        truth = self.checker.row(table.game_id)
        cured = await self.stuck_reason(table, truth, which)
        if cured is not None:
            f.stuck_after_evict += 1
            f.note(f"game {table.game_id}: still stuck after forget(): {cured}")

    async def stuck_reason(self, table: Table, truth: Truth, which: str) -> str | None:
        """Why the game cannot go on through service ``which`` (``None``: it can, and it just did)."""
        service = self.service(which)
        symptoms: list[str] = []
        if which == "a":
            live = await service.load(table.game_id)
            got = (live.version, live.public_version, live.status)
            want = (truth.version, truth.public_version, truth.status)
            if got != want:
                symptoms.append(f"cache behind: the cached copy is at {got}, the database at {want}")
            elif live.state is None or canonical(table.rules.dump(live.state)) != truth.snapshot:
                symptoms.append("cache differs: the cached state is not the stored snapshot")
        # Whatever the cache says, a fresh click drawn for the stored public version must go through.
        state = table.rules.load(json.loads(truth.snapshot))
        move = choose_move(table.rules, state, self.rng)
        if move is None:
            return "no move: the stored game waits on nobody who can act"
        seat, action = move
        self.f.probes += 1
        try:
            applied = await service.act(
                table.game_id, table.users[seat], action, version=truth.public_version
            )
        except Refusal as refusal:
            symptoms.append(f"click refused ({which}): {refusal.key}")
        except IllegalAction as exc:
            symptoms.append(f"click illegal ({which}): {exc}")
        else:
            new = self.checker.log_after(table.game_id, truth.version)
            if new != [(applied.version, seat, action)]:
                self.f.double_applied += 1
                self.f.note(f"game {table.game_id}: the probe move was logged as {new}")
            self.follow(table, new)
        return " + ".join(symptoms) or None

    # -- the whole run ---------------------------------------------------------------------------

    async def run(self, races: int, progress: TextIO, started: float) -> None:
        for number in range(races):
            await self.fill_pool()
            kind = self.rng.choices(KINDS, WEIGHTS)[0]
            if kind == "lobby_join":
                await self.lobby_race()
            else:
                await self.race(self.rng.choice(self.pool), kind)
            self.retire_finished()
            done = number + 1
            if done % 2000 == 0 or done == races:
                print(
                    f"  {done}/{races} races: double-applied {self.f.double_applied}, stuck {self.f.stuck} "
                    f"({len(self.f.stuck_games)} games), {self.f.games_finished} games finished "
                    f"({time.perf_counter() - started:.0f} s)",
                    file=progress,
                    flush=True,
                )


async def _jitter(jitter: tuple[str, float]) -> None:
    kind, amount = jitter
    if kind == "yield":
        for _ in range(int(amount)):
            await asyncio.sleep(0)
    elif kind == "sleep":
        await asyncio.sleep(amount)


def _legal(table: Table, press: Press) -> bool:
    """Whether the press was a legal action drawn for the current version (before the race)."""
    return (
        press.action is not None
        and press.version == table.public_version
        and press.action in table.rules.legal_actions(table.state, press.seat)
    )


async def _run_async(
    races: int,
    seed: int,
    folder: Path,
    games: Sequence[str],
    tables: int,
    cold: float,
    readers: float,
    err: TextIO,
) -> Figures:
    path = folder / "races.sqlite3"
    primary = await Store.open(path)
    second = await Store.open(path)
    run = RaceRun(
        path,
        random.Random(seed),
        games,
        tables=tables,
        cold=cold,
        readers=readers,
        second=second,
        primary=primary,
    )
    try:
        await run.run(races, err, time.perf_counter())
    finally:
        run.checker.close()
        await second.close()
        await primary.close()
    return run.f


def run(
    races: int = GOAL_RACES,
    seed: int = 1,
    workdir: Path | None = None,
    *,
    games: Sequence[str] = DEFAULT_GAMES,
    tables: int = 6,
    cold: float = 0.75,
    readers: float = 0.3,
    keep: bool = False,
    err: TextIO | None = None,
) -> dict[str, Any]:
    """Run ``races`` races; returns the figures (see the module docstring)."""
    progress = err if err is not None else sys.stderr
    names = parse_games(",".join(games))
    folder = scratch_folder("torture-races-", Path(workdir) if workdir is not None else None)
    started = time.perf_counter()
    try:
        f = asyncio.run(_run_async(races, seed, folder, names, tables, cold, readers, progress))
    finally:
        if not keep:
            shutil.rmtree(folder, ignore_errors=True)
    seconds = time.perf_counter() - started
    figures: dict[str, Any] = {
        "benchmark": "torture_races",
        "races": f.races,
        "double_applied": f.double_applied,
        "stuck_games": f.stuck,
        "seconds": round(seconds, 1),
        "stuck_distinct_games": len(f.stuck_games),
        "stuck_after_evict": f.stuck_after_evict,
        "stuck_symptoms": dict(sorted(f.stuck_symptoms.items())),
        "stuck_by": dict(sorted(f.stuck_by.items())),
        "snapshot_mismatch": f.snapshot_mismatch,
        "public_version_mismatch": f.public_mismatch,
        "errors": f.errors,
        "no_winner": f.no_winner,
        "stale_seats": f.stale_seats,
        "dropped_players": f.dropped_players,
        "races_by_kind": dict(sorted(f.by_kind.items())),
        "races_by_cache": dict(sorted(f.by_cache.items())),
        "calls": dict(sorted(f.outcomes.items())),
        "reads": f.reads,
        "probe_moves": f.probes,
        "games_started": f.games_started,
        "games_finished": f.games_finished,
        "game_names": list(names),
        "seed": seed,
        "goal_races": GOAL_RACES,
    }
    figures["failures"] = violations(figures, ZERO_FIGURES)
    figures["examples"] = f.examples
    figures["pass"] = not figures["failures"] and f.races >= GOAL_RACES
    return figures


def summary_lines(f: dict[str, Any]) -> list[str]:
    verdict = "PASS" if f["pass"] else ("FAIL" if f["failures"] else "ok (fewer races than the goal)")
    lines = [
        f"torture_races: {f['races']} races {f['races_by_kind']}, caches {f['races_by_cache']}, "
        f"{f['games_started']} games ({', '.join(f['game_names'])}), {f['seconds']} s",
        f"  double-applied {f['double_applied']}, stuck {f['stuck_games']} "
        f"(in {f['stuck_distinct_games']} games; still stuck after evicting {f['stuck_after_evict']}), "
        f"snapshot != replay {f['snapshot_mismatch']}, public version {f['public_version_mismatch']}, "
        f"errors {f['errors']}, no winner {f['no_winner']}, lobby: stale seats {f['stale_seats']}, "
        f"players dropped at start {f['dropped_players']}   (goal: >= {f['goal_races']} races, all zero)  "
        f"{verdict}",
        f"  calls: {f['calls']}; {f['reads']} reads; {f['probe_moves']} probe moves",
    ]
    if f["stuck_by"]:
        lines.append(f"  stuck, by symptom: {f['stuck_symptoms']}")
        lines.append(f"  stuck, by race kind/cache/symptom: {f['stuck_by']}")
    lines += [f"  !! {example[:400]}" for example in f["examples"]]
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Concurrent-submission torture run (see module docstring).")
    parser.add_argument("--races", type=int, default=GOAL_RACES)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default=",".join(DEFAULT_GAMES), help="comma-separated game names")
    parser.add_argument("--tables", type=int, default=6, help="games kept going at once")
    parser.add_argument(
        "--cold", type=float, default=0.75, help="share of races that start with a cold cache"
    )
    parser.add_argument("--readers", type=float, default=0.3, help="chance of extra readers in other races")
    parser.add_argument("--workdir", type=Path, default=None, help="parent folder of the temporary database")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    args = parser.parse_args(argv)
    try:
        games = parse_games(args.games)
    except ValueError as exc:
        parser.error(str(exc))
    if args.races < 1 or args.tables < 1 or not 0 <= args.cold <= 1 or not 0 <= args.readers <= 1:
        parser.error("--races and --tables must be >= 1; --cold and --readers within 0..1")
    figures = run(
        args.races,
        args.seed,
        args.workdir,
        games=games,
        tables=args.tables,
        cold=args.cold,
        readers=args.readers,
        keep=args.keep,
    )
    report(figures, summary_lines(figures))
    return 1 if figures["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
