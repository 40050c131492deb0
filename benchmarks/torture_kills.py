"""Torture run 1: SIGKILL the host while it plays, hundreds of times, and lose nothing.

What runs: a child process (this module with ``--child``) opens the real
``Store`` on one SQLite file and plays several tables at once through the real
``LobbyService`` and ``SessionService``, one asyncio task per table, with the
real engines from ``bot.games.REGISTRY`` (California and The Estates by
default; ``--games`` may add the test-only ``toy``).  On start it picks up
every lobby and active game a previous kill left behind and plays them on;
finished tables are replaced by new ones.  It prints a line only after the
host has returned, that is after the commit:

- ``CREATED <game>`` after ``LobbyService.create``;
- ``STARTED <game>`` after ``LobbyService.start``;
- ``ACK <game> <version> <seat> <action> <public version>`` after ``SessionService.act``.

The parent kills it with SIGKILL at a random moment and starts it again on the
same file, ``--kills`` times.  Most kills come a random 0..``--max-delay``
seconds after the child's first ACK (mid-play: inside commits, between them,
inside lobby changes); a share (``--early``) come at a random moment before
the first ACK would be due (while importing, opening the database, resuming
games, loading snapshots).

After every kill the parent opens the file with a fresh ``Store`` and checks:

- lost: every acknowledged action is in the log at its version, with the same
  seat and action (and every CREATED / STARTED table exists and has started);
- log_gaps: every game's log holds exactly versions ``1..version``;
- snapshot_mismatch: the stored snapshot equals ``canonical(rules.dump(replay(seed + log)))``;
- public_version_mismatch / status_mismatch: the stored public version and
  status are the ones the log implies;
- unloadable: a fresh ``SessionService`` loads the game (not ``broken``) with
  the stored version and state.

Also reported: ``kills_with_unacknowledged_commit``, kills after which a game
had a committed action past its last ACK (the kill came inside the commit's
fsync or just after it): allowed, and evidence that kills land inside commits.

Games whose row and log did not change since they were last checked (and that
got no acknowledgement in the last run) keep their verdict; a cheap aggregate
query over every game's log still runs after every kill, and everything is
checked in full once more at the end.

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/torture_kills.py [--kills 500] [--seed 1] [--tables 3]

The human summary goes to stderr; stdout gets one JSON line.  Exit 1 if
anything was lost, unloadable or mismatched (or a child died on its own).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.torture_common import (
    REAL_GAMES,
    REPO,
    USER_BASE,
    GameCheck,
    check_game,
    choose_move,
    fill_and_start,
    open_services,
    parse_games,
    player_count,
    report,
    scratch_folder,
    violations,
)
from bot.games import REGISTRY
from bot.services.sessions import LiveGame, SessionService
from bot.storage import OPEN_STATUSES, GameStatus, Store

GOAL_KILLS = 500
ZERO_FIGURES = (
    "lost",
    "lost_tables",
    "unloadable",
    "snapshot_mismatch",
    "public_version_mismatch",
    "status_mismatch",
    "log_gaps",
    "child_failures",
)
FIRST_ACK_TIMEOUT = 30.0


# -- the child: plays until it is killed --------------------------------------------------------


def _say(line: str) -> None:
    # One short write per line (well under PIPE_BUF), flushed: a kill never leaves half a line
    # that the parent could mistake for an acknowledgement.
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def child_main(db: str, seed: int, tables: int, games: tuple[str, ...]) -> None:
    rng = random.Random(seed)
    services = await open_services(db)
    sessions, lobby, store = services.sessions, services.lobby, services.store
    leftovers = await store.games.list_games(statuses=OPEN_STATUSES)
    pending = [row.id for row in leftovers]
    active = sum(row.status == GameStatus.ACTIVE for row in leftovers)
    _say(f"READY {active} {len(leftovers) - active}")

    async def next_game() -> LiveGame:
        if pending:
            live = await sessions.load(pending.pop(0))
            if live.status != GameStatus.LOBBY:
                return live
        else:
            name = rng.choice(games)
            live = await lobby.create(
                game=name,
                options_text=None,
                host_id=USER_BASE,
                host_name="p0",
                guild_id=1,
                channel_id=1,
                language="en",
            )
            _say(f"CREATED {live.id}")
        live = await fill_and_start(lobby, live, player_count(live.entry.rules, rng), rng)
        _say(f"STARTED {live.id}")
        return live

    async def table() -> None:
        while True:
            live = await next_game()
            rules = live.entry.rules
            while live.status == GameStatus.ACTIVE:
                move = choose_move(rules, live.state, rng, any_seat=0.05, players=len(live.seats))
                if move is None:
                    raise RuntimeError(f"game {live.id} is active but nobody can act")
                seat, action = move
                drawn_for = live.public_version
                applied = await sessions.act(live.id, live.user_of(seat), action, version=drawn_for)
                _say(
                    f"ACK {live.id} {applied.version} {seat} {action.encode()} {applied.game.public_version}"
                )
                live = applied.game

    await asyncio.gather(*(table() for _ in range(tables)))


# -- the parent: kills, restarts, checks --------------------------------------------------------


@dataclass(slots=True)
class Ledger:
    """Everything the children acknowledged, and what the checks found (sets: each problem once)."""

    acked: dict[int, dict[int, tuple[int, str]]] = field(default_factory=dict)
    created: set[int] = field(default_factory=set)
    started: set[int] = field(default_factory=set)
    acknowledged: int = 0
    lost: set[tuple[int, int]] = field(default_factory=set)
    lost_tables: set[int] = field(default_factory=set)
    gaps: set[int] = field(default_factory=set)
    mismatch: set[int] = field(default_factory=set)
    public: set[int] = field(default_factory=set)
    status: set[int] = field(default_factory=set)
    unloadable: set[int] = field(default_factory=set)
    examples: list[str] = field(default_factory=list)
    fingerprints: dict[int, tuple[Any, ...]] = field(default_factory=dict)

    def note(self, sentence: str) -> None:
        if len(self.examples) < 12:
            self.examples.append(sentence)


@dataclass(slots=True)
class RunOutput:
    lines: list[str]
    partial: str
    returncode: int | None
    first_ack_after: float | None
    ready_after: float | None
    stderr: str


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN" and not k.startswith("GAMEHOST_")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    return env


def _spawn_and_kill(
    db: Path,
    seed: int,
    tables: int,
    games: tuple[str, ...],
    *,
    early_after: float | None,
    delay: float,
    workdir: Path,
) -> RunOutput:
    """Start a child; SIGKILL it ``early_after`` s after spawning, or ``delay`` s after its first ACK."""
    err_path = workdir / "child.err"
    command = [
        sys.executable,
        "-m",
        "benchmarks.torture_kills",
        "--child",
        str(db),
        "--seed",
        str(seed),
        "--tables",
        str(tables),
        "--games",
        ",".join(games),
    ]
    with err_path.open("wb") as err:
        spawned = time.perf_counter()
        proc = subprocess.Popen(command, cwd=REPO, env=_env(), stdout=subprocess.PIPE, stderr=err)
    lines: list[str] = []
    partial: list[str] = []
    first_ack = threading.Event()
    first_ack_at: list[float] = []
    ready_at: list[float] = []

    def read() -> None:
        assert proc.stdout is not None
        for raw in proc.stdout:  # to EOF, so the pipe never fills up
            text = raw.decode("utf-8", "replace")
            if not text.endswith("\n"):
                partial.append(text)  # cut short by the kill: never acknowledged
                continue
            lines.append(text.rstrip("\n"))
            if text.startswith("READY"):
                ready_at.append(time.perf_counter() - spawned)
            if text.startswith("ACK") and not first_ack.is_set():
                first_ack_at.append(time.perf_counter() - spawned)
                first_ack.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        if early_after is not None:
            time.sleep(early_after)
        elif first_ack.wait(FIRST_ACK_TIMEOUT):
            time.sleep(delay)
        ended_alone = proc.poll()
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    reader.join(timeout=30)
    return RunOutput(
        lines=lines,
        partial="".join(partial),
        returncode=ended_alone,
        first_ack_after=first_ack_at[0] if first_ack_at else None,
        ready_after=ready_at[0] if ready_at else None,
        stderr=err_path.read_text(encoding="utf-8", errors="replace"),
    )


def _absorb(ledger: Ledger, lines: Sequence[str]) -> tuple[set[int], int, bool]:
    """Record a run's acknowledgements; returns (games it touched, ACK count, resumed a game)."""
    touched: set[int] = set()
    acks = 0
    resumed = False
    for line in lines:
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "READY":
            resumed = int(parts[1]) > 0
        elif parts[0] == "CREATED":
            ledger.created.add(int(parts[1]))
            touched.add(int(parts[1]))
        elif parts[0] == "STARTED":
            ledger.started.add(int(parts[1]))
            touched.add(int(parts[1]))
        elif parts[0] == "ACK":
            game, version, seat, code = int(parts[1]), int(parts[2]), int(parts[3]), parts[4]
            per_game = ledger.acked.setdefault(game, {})
            if version in per_game and per_game[version] != (seat, code):
                # The same version acknowledged twice with different actions: the first was lost.
                ledger.lost.add((game, version))
                ledger.note(f"game {game} v{version}: acknowledged twice ({per_game[version]} then {code})")
            per_game[version] = (seat, code)
            ledger.acknowledged += 1
            acks += 1
            touched.add(game)
    return touched, acks, resumed


def _log_summary(db: Path) -> dict[int, tuple[int, int, int]]:
    """``game -> (rows, min version, max version)`` of the action log, one query for all games."""
    con = sqlite3.connect(db)
    try:
        rows = con.execute(
            "SELECT game_id, COUNT(*), MIN(version), MAX(version) FROM actions GROUP BY game_id"
        ).fetchall()
    finally:
        con.close()
    return {int(g): (int(n), int(lo), int(hi)) for g, n, lo, hi in rows}


async def _check(db: Path, ledger: Ledger, touched: set[int], *, full: bool) -> tuple[int, int, int]:
    """Check the database after a kill; returns (games, games checked in full, games with a tail).

    A tail is a committed action past a game's last ACK: the kill came after the
    transaction reached the write-ahead log (mostly: while its fsync ran) but before
    the ACK.  That is allowed (nobody was shown it) and shows that kills do land
    inside commits.
    """
    summary = _log_summary(db)
    store = await Store.open(db)
    try:
        fresh = SessionService(store, REGISTRY)
        rows = await store.games.list_games()
        present = {row.id for row in rows}
        for gid in ledger.created - present:
            ledger.lost_tables.add(gid)
            ledger.note(f"game {gid}: CREATED was acknowledged but the row is gone")
        for gid in set(ledger.acked) - present:
            ledger.lost.update((gid, v) for v in ledger.acked[gid])
            ledger.note(f"game {gid}: actions were acknowledged but the game is gone")
        checked = tails = 0
        for row in rows:
            # (rows, first, last version) of its log: a deleted or added row shows here even if the
            # games row did not change.
            fingerprint = (
                row.status,
                row.version,
                row.public_version,
                row.seed,
                hash(row.snapshot),
                summary.get(row.id, (0, 0, 0)),
            )
            if not full and row.id not in touched and ledger.fingerprints.get(row.id) == fingerprint:
                continue
            checked += 1
            log = await store.log.load_actions(row.id)
            result: GameCheck = await check_game(store, fresh, row, log)
            fresh.forget(row.id)  # keep the fresh service's memory small; each game is loaded once
            for sentence in result.problems:
                ledger.note(sentence)
            for bucket, found in (
                (ledger.gaps, result.gaps),
                (ledger.mismatch, result.mismatch),
                (ledger.public, result.public),
                (ledger.status, result.status),
                (ledger.unloadable, result.unloadable),
            ):
                if found:
                    bucket.add(row.id)
            if row.id in ledger.started and (row.seed is None or row.status == GameStatus.LOBBY):
                ledger.lost_tables.add(row.id)
                ledger.note(f"game {row.id}: STARTED was acknowledged but it is a lobby again")
            logged = {version: (seat, action.encode()) for version, seat, action in log}
            for version, acked in ledger.acked.get(row.id, {}).items():
                if logged.get(version) != acked:
                    if (row.id, version) not in ledger.lost:
                        ledger.note(
                            f"game {row.id} v{version}: acknowledged {acked}, logged {logged.get(version)}"
                        )
                    ledger.lost.add((row.id, version))
            ledger.fingerprints[row.id] = fingerprint
            if row.id in touched and ledger.acked.get(row.id) and row.version > max(ledger.acked[row.id]):
                tails += 1
        return len(rows), checked, tails
    finally:
        await store.close()


def run(
    kills: int = GOAL_KILLS,
    seed: int = 1,
    workdir: Path | None = None,
    *,
    tables: int = 3,
    games: Sequence[str] = REAL_GAMES,
    max_delay: float = 0.25,
    early: float = 0.2,
    keep: bool = False,
    err: TextIO | None = None,
) -> dict[str, Any]:
    """Kill and restart ``kills`` times; returns the figures (see the module docstring)."""
    progress = err if err is not None else sys.stderr
    game_names = parse_games(",".join(games))
    folder = scratch_folder("torture-kills-", Path(workdir) if workdir is not None else None)
    db = folder / "kills.sqlite3"
    rng = random.Random(seed)
    ledger = Ledger()
    started = time.perf_counter()
    first_ack_times: list[float] = []
    ready_times: list[float] = []
    early_kills = resumed_runs = runs_without_ack = partial_lines = full_checks = kills_after_commit = 0
    child_failures: list[str] = []
    acks_per_run: list[int] = []
    check_seconds = 0.0
    games_seen = 0
    try:
        for number in range(kills):
            # Early kills land between just before the child opens the database and just after its
            # first ACK would come: opening and checking the file, resuming games, lobby changes.
            # (The first run always plays, so the file exists and has games before any early kill.)
            ready = _mean(ready_times[-20:], 0.2)
            first = max(_mean(first_ack_times[-20:], 0.3), ready)
            early_after = (
                rng.uniform(max(0.0, ready - 0.05), first + 0.02) if number and rng.random() < early else None
            )
            out = _spawn_and_kill(
                db,
                rng.randrange(2**31),
                tables,
                game_names,
                early_after=early_after,
                delay=rng.uniform(0.0, max_delay),
                workdir=folder,
            )
            if out.ready_after is not None:
                ready_times.append(out.ready_after)
            if early_after is not None:
                early_kills += 1
            elif out.first_ack_after is not None:
                first_ack_times.append(out.first_ack_after)
            if out.returncode is not None or (early_after is None and out.first_ack_after is None):
                why = f"exit code {out.returncode}" if out.returncode is not None else "no ACK in time"
                child_failures.append(f"run {number}: {why}: {out.stderr.strip()[-1500:]}")
            partial_lines += bool(out.partial)
            touched, acks, resumed = _absorb(ledger, out.lines)
            acks_per_run.append(acks)
            resumed_runs += resumed
            runs_without_ack += acks == 0
            checking = time.perf_counter()
            games_seen, checked, tails = asyncio.run(_check(db, ledger, touched, full=False))
            kills_after_commit += tails > 0
            check_seconds += time.perf_counter() - checking
            full_checks += checked
            if (number + 1) % 50 == 0 or number + 1 == kills:
                print(
                    f"  {number + 1}/{kills} kills, {ledger.acknowledged} acknowledged, {games_seen} games, "
                    f"{len(ledger.lost)} lost, {len(ledger.unloadable)} unloadable, "
                    f"{len(ledger.mismatch)} mismatched ({time.perf_counter() - started:.0f} s)",
                    file=progress,
                    flush=True,
                )
        checking = time.perf_counter()
        games_seen, _, _ = asyncio.run(_check(db, ledger, set(), full=True))
        check_seconds += time.perf_counter() - checking
        statuses = _statuses(db)
    finally:
        if not keep:
            shutil.rmtree(folder, ignore_errors=True)
    seconds = time.perf_counter() - started
    figures: dict[str, Any] = {
        "benchmark": "torture_kills",
        "kills": kills,
        "acknowledged": ledger.acknowledged,
        "lost": len(ledger.lost),
        "unloadable": len(ledger.unloadable),
        "snapshot_mismatch": len(ledger.mismatch),
        "seconds": round(seconds, 1),
        "lost_tables": len(ledger.lost_tables),
        "public_version_mismatch": len(ledger.public),
        "status_mismatch": len(ledger.status),
        "log_gaps": len(ledger.gaps),
        "child_failures": len(child_failures),
        "early_kills": early_kills,
        "runs_without_ack": runs_without_ack,
        "kills_with_unacknowledged_commit": kills_after_commit,
        "resumed_runs": resumed_runs,
        "partial_lines": partial_lines,
        "games": games_seen,
        "games_by_status": statuses,
        "tables_at_once": tables,
        "game_names": list(game_names),
        "acks_per_run_mean": round(sum(acks_per_run) / max(len(acks_per_run), 1), 1),
        "child_ready_s_mean": round(_mean(ready_times, 0.0), 3),
        "child_first_ack_s_mean": round(_mean(first_ack_times, 0.0), 3),
        "games_checked_in_full": full_checks,
        "check_seconds": round(check_seconds, 1),
        "seed": seed,
        "goal_kills": GOAL_KILLS,
    }
    figures["failures"] = violations(figures, ZERO_FIGURES)
    figures["examples"] = ledger.examples + child_failures[:3]
    figures["pass"] = not figures["failures"] and kills >= GOAL_KILLS
    return figures


def _mean(values: Sequence[float], default: float) -> float:
    return sum(values) / len(values) if values else default


def _statuses(db: Path) -> dict[str, int]:
    con = sqlite3.connect(db)
    try:
        rows = con.execute("SELECT status, COUNT(*) FROM games GROUP BY status").fetchall()
    finally:
        con.close()
    return {str(status): int(n) for status, n in rows}


def summary_lines(f: dict[str, Any]) -> list[str]:
    verdict = "PASS" if f["pass"] else ("FAIL" if f["failures"] else "ok (fewer kills than the goal)")
    lines = [
        f"torture_kills: {f['kills']} SIGKILLs ({f['early_kills']} before the first ACK was due), "
        f"{f['acknowledged']} acknowledged actions over {f['games']} games {f['games_by_status']}, "
        f"{f['tables_at_once']} tables at once ({', '.join(f['game_names'])}), {f['seconds']} s",
        f"  lost {f['lost']} (tables {f['lost_tables']}), unloadable {f['unloadable']}, "
        f"snapshot != replay {f['snapshot_mismatch']}, public version {f['public_version_mismatch']}, "
        f"status {f['status_mismatch']}, log gaps {f['log_gaps']}, children that died alone "
        f"{f['child_failures']}   (goal: >= {f['goal_kills']} kills, all zero)  {verdict}",
        f"  {f['resumed_runs']} runs resumed games a kill left active; {f['kills_with_unacknowledged_commit']} kills "
        "left a commit without its ACK (killed inside the commit's fsync or just after; allowed); "
        f"{f['acks_per_run_mean']} ACKs per run; "
        f"child start -> READY {f['child_ready_s_mean']} s, -> first ACK {f['child_first_ack_s_mean']} s; checking took {f['check_seconds']} s",
    ]
    lines += [f"  !! {example[:400]}" for example in f["examples"]]
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="SIGKILL torture run of the game host (see module docstring)."
    )
    parser.add_argument("--kills", type=int, default=GOAL_KILLS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tables", type=int, default=3, help="tables the child plays at once")
    parser.add_argument("--games", default=",".join(REAL_GAMES), help="comma-separated game names (toy too)")
    parser.add_argument("--max-delay", type=float, default=0.25, help="longest play after the first ACK (s)")
    parser.add_argument("--early", type=float, default=0.2, help="share of kills before the first ACK")
    parser.add_argument("--workdir", type=Path, default=None, help="parent folder of the temporary database")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument("--child", metavar="DB", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        games = parse_games(args.games)
    except ValueError as exc:
        parser.error(str(exc))
    if args.child is not None:
        asyncio.run(child_main(args.child, args.seed, args.tables, games))
        return 0
    if args.kills < 1 or args.tables < 1 or args.max_delay < 0 or not 0 <= args.early <= 1:
        parser.error("--kills and --tables must be >= 1, --max-delay >= 0, --early within 0..1")
    figures = run(
        args.kills,
        args.seed,
        args.workdir,
        tables=args.tables,
        games=games,
        max_delay=args.max_delay,
        early=args.early,
        keep=args.keep,
    )
    report(figures, summary_lines(figures))
    return 1 if figures["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
