"""Storage faults under a playing bot: is every answer about a move the truth? (issue 25)

Each scenario runs a child process that plays toy tables through the session service, the way
a click does, and prints one line per move with the answer a player would read: ``ACK`` (the
move shows), ``NOTSAVED`` ("Nothing was saved", a ``StoreError``), ``UNCONFIRMED`` ("could not
confirm; the board will show it", :class:`bot.storage.base.Unconfirmed`), ``REFUSED`` (a host
refusal) or ``ERROR`` (anything else: a click left without its answer).  Then the parent reads
the database the way the next start does and judges every answer:

- an ``ACK`` whose version is not on disk is an acknowledged move lost;
- a ``NOTSAVED`` whose move is on disk, or any ``ACK`` after the file was deleted, is untruthful;
- an ``ERROR``, or a move with no answer, is an unanswered click.

The faults, and how each is made (honestly, in a sandbox without root or a kernel's fault
injection):

- ``eio_fsync``: a real ``EIO`` from ``fdatasync``/``fsync`` on one commit in seven, from a tiny
  ``LD_PRELOAD`` library compiled here with the system's C compiler (one-shot: the file that
  arms it is removed by the failing call).  SQLite sees exactly what a failing disk gives it.
- ``disk_full`` and ``read_only``: the same library makes every ``pwrite`` fail with ``ENOSPC``
  or ``EROFS`` for ten moves (the disk filling up, the file system remounted read-only), then
  lets writes through again.
- ``db_deleted``: the child deletes its database file after ten moves and plays on; afterwards
  ``python -m bot run`` must refuse to start (exit 2) and the rescued copy must hold every ACK.
- ``wal_deleted_kill`` / ``wal_deleted_clean``: the child deletes the ``-wal`` after ten moves,
  plays on, then is SIGKILLed or closes cleanly; the next open must see every ACK.

Without a C compiler the three shim scenarios are skipped and named in ``skipped`` (``ok`` is
then false: nothing was shown).  One JSON line; exit 0 only when ``ok``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#include <stdlib.h>

/* The fault named in the file $FAULT_FILE: "eio-fsync" (one fsync fails, then the file goes),
   "enospc" or "erofs" (every pwrite fails while the file is there). */
static int fault(char *out, size_t size) {
    const char *path = getenv("FAULT_FILE");
    if (!path) return 0;
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t n = fread(out, 1, size - 1, f);
    fclose(f);
    out[n] = 0;
    return n > 0;
}

static int sync_fault(void) {
    char what[32];
    if (fault(what, sizeof what) && strncmp(what, "eio-fsync", 9) == 0) {
        unlink(getenv("FAULT_FILE"));
        errno = EIO;
        return 1;
    }
    return 0;
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = dlsym(RTLD_NEXT, "fsync");
    if (sync_fault()) return -1;
    return real(fd);
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = dlsym(RTLD_NEXT, "fdatasync");
    if (sync_fault()) return -1;
    return real(fd);
}

static int write_fault(void) {
    char what[32];
    if (!fault(what, sizeof what)) return 0;
    if (strncmp(what, "enospc", 6) == 0) { errno = ENOSPC; return 1; }
    if (strncmp(what, "erofs", 5) == 0) { errno = EROFS; return 1; }
    return 0;
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off_t offset) {
    static ssize_t (*real)(int, const void *, size_t, off_t);
    if (!real) real = dlsym(RTLD_NEXT, "pwrite64");
    if (write_fault()) return -1;
    return real(fd, buf, count, offset);
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset) {
    static ssize_t (*real)(int, const void *, size_t, off_t);
    if (!real) real = dlsym(RTLD_NEXT, "pwrite");
    if (write_fault()) return -1;
    return real(fd, buf, count, offset);
}
"""

SHIM_SCENARIOS = ("eio_fsync", "disk_full", "read_only")
FILE_SCENARIOS = ("db_deleted", "wal_deleted_kill", "wal_deleted_clean")
SCENARIOS = SHIM_SCENARIOS + FILE_SCENARIOS
FAULT_AT = 10
"""The move at which the file scenarios delete a file, and the shim ones start failing writes."""
FAULT_MOVES = 10
"""How many moves a full or read-only disk lasts."""


def build_shim(folder: Path) -> Path | None:
    """The fault library, or ``None`` without a C compiler."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    source = folder / "faults.c"
    source.write_text(SHIM, encoding="utf-8")
    library = folder / "faults.so"
    subprocess.run(
        [compiler, "-shared", "-fPIC", "-O1", "-o", str(library), str(source), "-ldl"],
        check=True,
        capture_output=True,
    )
    return library


# -- the child --------------------------------------------------------------------------------------


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def child_main(db: str, scenario: str, seed: int, moves: int) -> None:
    import harness.toygame  # noqa: F401  (registers the toy game)
    from bot.games import REGISTRY
    from bot.services.lobby import LobbyService
    from bot.services.sessions import Refusal, SessionService
    from bot.storage import GameStatus, Store, StoreError
    from bot.storage.base import Unconfirmed
    from harness.toygame.tables import toy_table

    rng = random.Random(seed)
    fault_file = os.environ.get("FAULT_FILE", "")
    store = await Store.open(db)
    sessions = SessionService(store, REGISTRY)
    lobby = LobbyService(sessions)

    async def new_table(number: int) -> int:
        made = await toy_table(lobby, host=1000 + 10 * number, seed=rng.randrange(2**31), target=60)
        return made.id

    tables = [await new_table(n) for n in range(3)]
    _say("READY")
    for index in range(moves):
        if index == FAULT_AT and scenario == "db_deleted":
            os.unlink(db)
            _say("DELETED")
        if index == FAULT_AT and scenario.startswith("wal_deleted"):
            os.unlink(db + "-wal")
            _say("DELETED")
        if scenario == "eio_fsync" and index % 7 == 3:
            Path(fault_file).write_text("eio-fsync")
        if scenario in ("disk_full", "read_only"):
            if index == FAULT_AT:
                Path(fault_file).write_text("enospc" if scenario == "disk_full" else "erofs")
            if index == FAULT_AT + FAULT_MOVES:
                os.unlink(fault_file)
        game_id = tables[index % len(tables)]
        try:
            game = await sessions.load(game_id)
        except (Refusal, StoreError) as exc:
            _say(f"TRY {game_id} 0")
            _say(f"NOTSAVED {game_id} 0 load: {type(exc).__name__}")
            continue
        if game.status != GameStatus.ACTIVE:
            continue
        seat = rng.choice(sorted(game.waiting()))
        action = rng.choice(game.entry.rules.legal_actions(game.state, seat))
        version = game.version + 1
        _say(f"TRY {game_id} {version}")
        try:
            applied = await sessions.act(game_id, game.user_of(seat), action, version=game.public_version)
        except Unconfirmed:
            _say(f"UNCONFIRMED {game_id} {version}")
        except StoreError:
            _say(f"NOTSAVED {game_id} {version}")
        except Refusal as refusal:
            _say(f"REFUSED {game_id} {version} {refusal.key}")
        except Exception as exc:  # a click with no honest answer
            _say(f"ERROR {game_id} {version} {type(exc).__name__}")
        else:
            _say(f"ACK {game_id} {applied.version}")
        if fault_file and scenario == "eio_fsync" and os.path.exists(fault_file):
            os.unlink(fault_file)  # armed but not used by this move (a refused one)
    if scenario == "wal_deleted_kill" or scenario in SHIM_SCENARIOS:
        os.kill(os.getpid(), signal.SIGKILL)  # no clean close: the next start sees what is on disk
    await store.close()
    _say("CLOSED")


# -- the parent -------------------------------------------------------------------------------------


def _on_disk(path: Path) -> set[tuple[int, int]]:
    """Every ``(game, version)`` in the log, read as the next start reads it (none: no file, or a
    file without the tables, as a start that made an empty one would see)."""
    if not path.exists():
        return set()
    con = sqlite3.connect(f"file:{path}?mode=rw", uri=True)
    try:
        return {(int(g), int(v)) for g, v in con.execute("SELECT game_id, version FROM actions")}
    except sqlite3.OperationalError:
        return set()
    finally:
        con.close()


def run_scenario(scenario: str, folder: Path, shim: Path | None, seed: int, moves: int) -> dict[str, Any]:
    db = folder / f"{scenario}.sqlite3"
    fault_file = folder / f"{scenario}.fault"
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN" and not k.startswith("GAMEHOST_")}
    env["PYTHONPATH"] = str(REPO)
    env["FAULT_FILE"] = str(fault_file)
    if shim is not None and scenario in SHIM_SCENARIOS:
        env["LD_PRELOAD"] = str(shim)
    child = subprocess.run(
        [
            sys.executable,
            __file__,
            "--child",
            str(db),
            "--scenario",
            scenario,
            "--seed",
            str(seed),
            "--moves",
            str(moves),
        ],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    lines = [line.split() for line in child.stdout.splitlines() if line.strip()]
    answers: list[tuple[str, int, int]] = []
    deleted = False
    acked_after_deletion = 0
    tries = 0
    for words in lines:
        if words[0] == "DELETED":
            deleted = True
        elif words[0] == "TRY":
            tries += 1
        elif words[0] in ("ACK", "NOTSAVED", "UNCONFIRMED", "REFUSED", "ERROR"):
            answers.append((words[0], int(words[1]), int(words[2])))
            if words[0] == "ACK" and deleted and scenario == "db_deleted":
                acked_after_deletion += 1
    figures: dict[str, Any] = {
        "moves_tried": tries,
        "child_exit": child.returncode,
        **{
            kind.lower(): sum(a[0] == kind for a in answers)
            for kind in ("ACK", "NOTSAVED", "UNCONFIRMED", "REFUSED", "ERROR")
        },
    }
    figures["unanswered"] = figures["error"] + max(0, tries - len(answers))
    if "READY" not in child.stdout:
        figures["child_failed"] = child.stderr[-2000:]
        figures["unanswered"] += 1
    if scenario == "db_deleted":
        from bot.cli import Refused, refuse_vanished

        try:
            refuse_vanished(db, new_database=False)
            figures["restart_refused"] = False
        except Refused:
            figures["restart_refused"] = True
        rescued = Path(str(db) + ".rescued")
        disk = _on_disk(rescued) if rescued.exists() else set()
        figures["rescued_copy"] = rescued.exists()
    else:
        disk = _on_disk(db)
    last: dict[tuple[int, int], str] = {}
    for kind, game, version in answers:
        last[(game, version)] = kind
    lost = sorted(key for key, kind in last.items() if kind == "ACK" and key not in disk)
    untruthful = sorted(key for key, kind in last.items() if kind == "NOTSAVED" and key in disk)
    figures["acknowledged_lost"] = len(lost)
    figures["untruthful"] = len(untruthful) + acked_after_deletion
    if scenario == "db_deleted" and not figures["restart_refused"]:
        figures["untruthful"] += 1  # a restart that would put an empty database in its place
    if lost or untruthful:
        figures["examples"] = {"lost": lost[:5], "untruthful": untruthful[:5]}
    if Path(str(db) + ".lost").exists():
        figures["named_lost"] = json.loads(Path(str(db) + ".lost").read_text(encoding="utf-8"))
    return figures


def run(seed: int, moves: int, workdir: Path | None, keep: bool = False) -> dict[str, Any]:
    if workdir is not None:
        workdir.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="torture-storage-", dir=workdir))
    started = time.perf_counter()
    try:
        try:
            shim = build_shim(folder)
        except (subprocess.CalledProcessError, OSError):
            shim = None
        scenarios: dict[str, Any] = {}
        skipped = []
        for scenario in SCENARIOS:
            if scenario in SHIM_SCENARIOS and shim is None:
                skipped.append(scenario)
                continue
            scenarios[scenario] = run_scenario(scenario, folder, shim, seed, moves)
    finally:
        if not keep:
            shutil.rmtree(folder, ignore_errors=True)
    lost = sum(s["acknowledged_lost"] for s in scenarios.values())
    untruthful = sum(s["untruthful"] for s in scenarios.values())
    unanswered = sum(s["unanswered"] for s in scenarios.values())
    return {
        "benchmark": "torture_storage",
        "seed": seed,
        "moves_per_scenario": moves,
        "acknowledged_lost": lost,
        "untruthful_answers": untruthful,
        "unanswered_clicks": unanswered,
        "skipped": skipped,
        "seconds": round(time.perf_counter() - started, 1),
        "scenarios": scenarios,
        "ok": lost == 0 and untruthful == 0 and unanswered == 0 and not skipped,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Storage faults under a playing bot (see module docstring).")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--moves", type=int, default=60, help="moves each scenario's child tries")
    parser.add_argument("--workdir", type=Path, default=None, help="parent folder of the scratch databases")
    parser.add_argument("--keep", action="store_true", help="keep the databases afterwards")
    parser.add_argument("--child", metavar="DB", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--scenario", default="", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        asyncio.run(child_main(args.child, args.scenario, args.seed, args.moves))
        return 0
    if args.moves <= FAULT_AT + FAULT_MOVES:
        parser.error(
            f"--moves must be more than {FAULT_AT + FAULT_MOVES} (the faults start at move {FAULT_AT})"
        )
    figures = run(args.seed, args.moves, args.workdir, keep=args.keep)
    print(json.dumps(figures))
    return 0 if figures["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
