"""Every acknowledged action survives a SIGKILL, and a damaged game is rebuilt or quarantined.

The crash test runs a real child process that plays toy games through the
session service and prints ``ACK <game> <version>`` only after ``act`` has
returned (that is: after the commit).  The parent kills it with SIGKILL at
random moments, several times on the same database, and after each kill
checks that the database still holds every acknowledged action, that the log
is gap-free, and that seed + log replay to the stored snapshot.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from bot.core.i18n import Phrase, shipped
from bot.games import REGISTRY
from bot.services.lobby import LobbyService
from bot.services.sessions import LiveGame, Refusal, SessionService
from bot.storage import Store, StoreError
from harness.toygame.tables import toy_table
from rules.core import Action
from rules.play import canonical, replay

REPO = Path(__file__).resolve().parents[3]

CHILD = textwrap.dedent(
    """
    import asyncio
    import random
    import sys

    import harness.toygame  # noqa: F401  (registers the toy game)
    from bot.services.lobby import LobbyService
    from bot.games import REGISTRY
    from bot.services.sessions import SessionService
    from bot.storage import Store


    async def new_game(lobby, rng):
        players = rng.randint(1, 4)
        game = await lobby.create(
            game="toy", options_text=f"target={rng.randint(5, 40)}", host_id=1000, host_name="p0",
            guild_id=1, channel_id=1, language="en",
        )
        for seat in range(1, players):
            await lobby.join(game.id, 1000 + seat, f"p{seat}")
        return await lobby.start(game.id, 1000, seed=rng.randrange(2**62))


    async def main(path, seed):
        rng = random.Random(seed)
        store = await Store.open(path)
        sessions = SessionService(store, REGISTRY)
        lobby = LobbyService(sessions)
        active = await store.games.list_games(statuses=("active",))
        game = await sessions.load(active[-1].id) if active else await new_game(lobby, rng)
        print(f"READY {game.id} {game.version}", flush=True)
        while True:
            if game.status != "active":
                game = await new_game(lobby, rng)
            seat = rng.choice(sorted(game.waiting()))
            action = rng.choice(game.entry.rules.legal_actions(game.state, seat))
            applied = await sessions.act(game.id, game.user_of(seat), action, version=game.public_version)
            sys.stdout.write(f"ACK {game.id} {applied.version}\\n")
            sys.stdout.flush()
            game = applied.game


    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
    """
)


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN" and not k.startswith("GAMEHOST_")}
    env["PYTHONPATH"] = str(REPO)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _run_and_kill(script: Path, db: str | Path, seed: int, delay: float, tmp: Path) -> list[str]:
    """Start the child, wait for its first ACK, let it play ``delay`` seconds, SIGKILL it."""
    stderr_path = tmp / f"child-{seed}.err"
    with stderr_path.open("w") as stderr:
        proc = subprocess.Popen(
            [sys.executable, str(script), str(db), str(seed)],
            cwd=tmp,
            env=_env(),
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        )
    lines: list[str] = []
    first_ack = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:  # keeps reading to EOF so the pipe never fills
            lines.append(line.strip())
            if line.startswith("ACK"):
                first_ack.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        if not first_ack.wait(timeout=15):
            pytest.fail(f"the child never acknowledged an action: {stderr_path.read_text()}")
        time.sleep(delay)
        still_running = proc.poll() is None
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    reader.join(timeout=10)
    assert still_running, f"the child stopped on its own: {stderr_path.read_text()}"
    assert proc.returncode == -signal.SIGKILL
    return lines


async def _check_database(db: str | Path, acked: set[tuple[int, int]]) -> dict[int, int]:
    """Everything the crash test promises, checked on a freshly opened database; returns versions."""
    store = await Store.open(db)
    try:
        sessions = SessionService(store, REGISTRY)
        versions: dict[int, int] = {}
        logged: set[tuple[int, int]] = set()
        for row in await store.games.list_games():
            log = await store.log.load_actions(row.id)
            assert [v for v, _, _ in log] == list(range(1, row.version + 1)), f"game {row.id}: log has gaps"
            logged.update((row.id, v) for v, _, _ in log)
            versions[row.id] = row.version
            if row.seed is None:  # killed between create and start: still a lobby, never played
                assert (row.status, row.version, row.snapshot, log) == ("lobby", 0, None, [])
                continue
            entry = REGISTRY.get(row.game)
            assert entry is not None, row.game
            rules = entry.rules
            seats = await store.games.fetch_seats(row.id)
            state = replay(rules, len(seats), row.options, row.seed, [(s, a) for _, s, a in log])
            assert row.snapshot == canonical(rules.dump(state)), f"game {row.id}: snapshot != seed + log"
            assert row.status == ("finished" if rules.outcome(state) is not None else "active")
            live = await sessions.load(row.id)
            assert (live.status, live.version) == (row.status, row.version)
            assert canonical(rules.dump(live.state)) == row.snapshot
        lost = acked - logged
        assert not lost, f"acknowledged actions missing after SIGKILL: {sorted(lost)}"
        return versions
    finally:
        await store.close()


def test_acknowledged_actions_survive_sigkill(tmp_path: Path, store_target: str | Path) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD, encoding="utf-8")
    db = store_target
    rng = random.Random(20240611)
    acked: set[tuple[int, int]] = set()
    resumed = 0
    started = time.monotonic()
    for run in range(5):
        delay = 0.0 if run == 0 else rng.uniform(0.01, 0.6)
        lines = _run_and_kill(script, db, rng.randrange(10**9), delay, tmp_path)
        ready = [line.split() for line in lines if line.startswith("READY")]
        assert len(ready) == 1, lines[:5]
        ready_game, ready_version = int(ready[0][1]), int(ready[0][2])
        this_run = [tuple(int(x) for x in line.split()[1:]) for line in lines if line.startswith("ACK")]
        assert this_run, "the child was killed before acknowledging anything"
        if ready_version > 0:  # resumed a game that an earlier kill interrupted
            resumed += 1
            assert this_run[0] == (ready_game, ready_version + 1)
        acked.update((g, v) for g, v in this_run)
        versions = asyncio.run(_check_database(db, acked))
        assert all(versions[g] >= v for g, v in this_run)
    assert len(acked) > 5
    assert resumed >= 1, "no run picked up a game left active by a kill"
    assert time.monotonic() - started < 30


# -- damaged games ------------------------------------------------------------------------------


async def _new_game(lobby: LobbyService, host: int, players: int, seed: int) -> LiveGame:
    return await toy_table(lobby, host=host, players=players, seed=seed, target=40)


async def _play(sessions: SessionService, game_id: int, rng: random.Random, moves: int) -> LiveGame:
    game = await sessions.load(game_id)
    for _ in range(moves):
        seat = rng.choice(sorted(game.waiting()))
        action = rng.choice(game.entry.rules.legal_actions(game.state, seat))
        game = (await sessions.act(game_id, game.user_of(seat), action, version=game.public_version)).game
    return game


async def _sql(db: str | Path, *statements: tuple[str, tuple[object, ...]]) -> None:
    """Statements run in one transaction by a connection of their own, as another process would."""
    other = await Store.open(db)
    try:
        async with other._transaction() as con:
            for sql, params in statements:
                await con.execute(sql, params)
    finally:
        await other.close()


@pytest.mark.parametrize(
    "snapshot", ["{broken", "{}", '{"schema": 1}', ""], ids=["not-json", "empty", "partial", "blank"]
)
async def test_corrupt_snapshot_is_rebuilt_from_the_log(store_target: str | Path, snapshot: str) -> None:
    db = store_target
    store = await Store.open(db)
    sessions = SessionService(store, REGISTRY)
    game = await _new_game(LobbyService(sessions), 100, 3, seed=77)
    await _play(sessions, game.id, random.Random(5), 8)
    good = await store.games.fetch_game(game.id)
    await store.close()
    assert good is not None and good.version == 8

    await _sql(db, ("UPDATE games SET snapshot = ? WHERE id = ?", (snapshot, game.id)))

    store = await Store.open(db)
    try:
        sessions = SessionService(store, REGISTRY)
        live = await sessions.load(game.id)
        assert (live.status, live.version) == ("active", 8)
        assert canonical(live.entry.rules.dump(live.state)) == good.snapshot
        row = await store.games.fetch_game(game.id)
        assert row is not None and row.status == "active" and row.reason is None
        # It plays on, and the next commit writes a sound snapshot again.
        after = await _play(sessions, game.id, random.Random(6), 1)
        row = await store.games.fetch_game(game.id)
        assert row is not None and row.version == 9 and row.snapshot is not None
        assert json.loads(row.snapshot) == after.entry.rules.dump(after.state)
    finally:
        await store.close()


@pytest.mark.parametrize(
    "bogus",
    ['["fly"]', '["add", 99]', "not json", '["bad kind!"]'],
    ids=["unknown-kind", "illegal-amount", "not-json", "malformed-action"],
)
async def test_a_log_that_no_longer_replays_marks_only_that_game_broken(
    store_target: str | Path, bogus: str
) -> None:
    db = store_target
    store = await Store.open(db)
    sessions = SessionService(store, REGISTRY)
    lobby = LobbyService(sessions)
    damaged = await _new_game(lobby, 100, 2, seed=1)
    healthy = await _new_game(lobby, 200, 2, seed=2)
    await _play(sessions, damaged.id, random.Random(1), 5)
    await _play(sessions, healthy.id, random.Random(2), 5)
    healthy_row = await store.games.fetch_game(healthy.id)
    await store.close()

    # The snapshot is gone, so the log must be replayed, and the log has a row the rules refuse.
    await _sql(
        db,
        ("UPDATE games SET snapshot = '{broken' WHERE id = ?", (damaged.id,)),
        (
            "INSERT INTO actions (game_id, version, seat, user_id, action, at) VALUES (?, 6, 0, 100, ?, 0)",
            (damaged.id, bogus),
        ),
    )

    store = await Store.open(db)
    try:
        sessions = SessionService(store, REGISTRY)
        live = await sessions.load(damaged.id)
        assert live.status == "broken"
        assert live.state is None
        row = await store.games.fetch_game(damaged.id)
        assert row is not None and row.status == "broken"
        assert row.reason == "replay_failed"  # a code, worded in each reader's language
        assert live.row.reason == row.reason
        with pytest.raises(Refusal) as refused:
            await sessions.act(damaged.id, 100, Action("knock"), version=None)
        assert refused.value.key == "host.refuse.broken"
        assert refused.value.params["reason"] == Phrase("host.closed_reason.replay_failed", {"player": ""})
        said = shipped().text(refused.value.key, "fr", **refused.value.params)
        assert "ses coups enregistrés ne se rejouent plus" in said

        other = await sessions.load(healthy.id)
        assert healthy_row is not None
        assert (other.status, other.version) == ("active", 5)
        assert canonical(other.entry.rules.dump(other.state)) == healthy_row.snapshot
        await _play(sessions, healthy.id, random.Random(3), 1)
        after = await store.games.fetch_game(healthy.id)
        assert after is not None and after.version == 6

        # After a restart the quarantine holds without replaying anything.
        again = await SessionService(store, REGISTRY).load(damaged.id)
        assert again.status == "broken" and again.row.reason == row.reason
    finally:
        await store.close()


# -- commit before acknowledging, one transaction: deterministic -------------------------------
#
# The SIGKILL test above catches these faults only when a kill lands in the gap; these
# tests open the gap on purpose.  Every check reads the file through a connection of its
# own, as a restarted process would.


def _committed(db: str | Path, game_id: int) -> tuple[tuple[object, ...], list[tuple[int, str]]]:
    """The game's row (version, public version, status, snapshot) and its log, as committed, read
    through a connection of its own.

    Read on a thread with its own event loop while the test's loop waits, blocked: nothing the
    test's loop has scheduled can run (and commit late) between ``act`` returning and this read.
    """
    found: list[tuple[tuple[object, ...], list[tuple[int, str]]]] = []
    reader = threading.Thread(target=lambda: found.append(asyncio.run(_read_committed(db, game_id))))
    reader.start()
    reader.join()
    assert found, "the read failed (see the thread's traceback above)"
    return found[0]


async def _read_committed(db: str | Path, game_id: int) -> tuple[tuple[object, ...], list[tuple[int, str]]]:
    other = await Store.open(db)
    try:
        (row,) = await other._fetch(
            "SELECT version, public_version, status, snapshot FROM games WHERE id = ?", (game_id,)
        )
        log = await other._fetch(
            "SELECT version, action FROM actions WHERE game_id = ? ORDER BY version", (game_id,)
        )
    finally:
        await other.close()
    return tuple(row), [(int(v), str(a)) for v, a in log]


async def test_an_action_is_on_disk_when_act_returns(store_target: str | Path) -> None:
    """When ``act`` hands back its result, another connection already sees it all."""
    db = store_target
    store = await Store.open(db)
    try:
        sessions = SessionService(store, REGISTRY)
        game = await _new_game(LobbyService(sessions), 100, 3, seed=12)
        rules = game.entry.rules
        rng = random.Random(4)
        for expected in range(1, 13):
            seat = rng.choice(sorted(game.waiting()))
            action = rng.choice(rules.legal_actions(game.state, seat))
            applied = await sessions.act(game.id, game.user_of(seat), action, version=game.public_version)
            # No await between the return and this read: nothing can be finished in the background.
            (version, public_version, status, snapshot), log = _committed(db, game.id)
            assert applied.version == version == expected
            assert public_version == applied.game.public_version
            assert status == applied.game.status
            assert snapshot == canonical(rules.dump(applied.game.state))
            assert log[-1] == (expected, json.dumps(action.to_json()))
            assert [v for v, _ in log] == list(range(1, expected + 1))
            game = applied.game
            if game.status != "active":
                break
    finally:
        await store.close()


def _is_sqlite(db: str | Path) -> bool:
    return not str(db).startswith("postgresql://")


def _trigger(db: str | Path, name: str, when: str, body: str) -> tuple[str, tuple[object, ...]]:
    """A trigger in either dialect: ``when`` like ``BEFORE INSERT ON actions``, ``body`` one statement."""
    if _is_sqlite(db):
        return (f"CREATE TRIGGER {name} {when} BEGIN {body}; END", ())
    function = (
        f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN {body}; RETURN NEW; END $$;"
    )
    return (f"{function} CREATE TRIGGER {name} {when} FOR EACH ROW EXECUTE FUNCTION {name}()", ())


def _drop_trigger(db: str | Path, name: str, table: str) -> tuple[str, tuple[object, ...]]:
    return (f"DROP TRIGGER {name}" + ("" if _is_sqlite(db) else f" ON {table}"), ())


async def _block_commit(db: str | Path) -> None:
    """Make every COMMIT that logged an action fail, the way a full disk fails it.

    A deferred foreign key is checked only at COMMIT: each logged action inserts a row
    pointing at no game, so the statements all succeed and the commit itself is refused.
    """
    await _sql(
        db,
        (
            "CREATE TABLE commit_blocker (game_id BIGINT REFERENCES games (id) DEFERRABLE INITIALLY DEFERRED)",
            (),
        ),
        _trigger(
            db, "block_commit", "AFTER INSERT ON actions", "INSERT INTO commit_blocker (game_id) VALUES (-1)"
        ),
    )


async def test_a_failed_commit_is_never_acknowledged(store_target: str | Path) -> None:
    """When the commit fails, ``act`` raises instead of answering, and nothing reached the disk."""
    db = store_target
    store = await Store.open(db)
    try:
        sessions = SessionService(store, REGISTRY)
        game = await _new_game(LobbyService(sessions), 100, 2, seed=3)
        game = await _play(sessions, game.id, random.Random(8), 3)
        on_disk = _committed(db, game.id)
        assert on_disk[0][0] == 3
        await _block_commit(db)
        seat = min(game.waiting())
        action = game.entry.rules.legal_actions(game.state, seat)[0]
        with pytest.raises((sqlite3.Error, StoreError)) as failed:
            await sessions.act(game.id, game.user_of(seat), action, version=game.public_version)
        assert "foreign key" in str(failed.value).lower()
        assert _committed(db, game.id) == on_disk, "a move whose commit failed left a trace"
        # Nor does the session show it, and once the disk takes writes again the move applies.
        rules = game.entry.rules
        live = await sessions.load(game.id)
        assert canonical(rules.dump(live.state)) == on_disk[0][3] and live.version == 3
        await _sql(db, _drop_trigger(db, "block_commit", "actions"))
        applied = await sessions.act(game.id, game.user_of(seat), action, version=live.public_version)
        (version, _, _, snapshot), log = _committed(db, game.id)
        assert applied.version == version == 4 and [v for v, _ in log] == [1, 2, 3, 4]
        assert snapshot == canonical(rules.dump(applied.game.state))
    finally:
        await store.close()


@pytest.mark.parametrize(
    ("when", "what"),
    [
        ("BEFORE INSERT ON actions", "log refused"),
        ("BEFORE UPDATE OF version ON games", "snapshot refused"),
    ],
    ids=["log-insert-fails", "snapshot-update-fails"],
)
async def test_log_and_snapshot_move_together_or_not_at_all(
    store_target: str | Path, when: str, what: str
) -> None:
    """The log entry and the snapshot + version are one transaction: when either write
    fails, the other is not on disk either, the service still shows the committed game,
    and once the fault is gone the same move applies normally."""
    db = store_target
    store = await Store.open(db)
    try:
        sessions = SessionService(store, REGISTRY)
        game = await _new_game(LobbyService(sessions), 100, 2, seed=9)
        game = await _play(sessions, game.id, random.Random(2), 4)
        rules = game.entry.rules
        on_disk = _committed(db, game.id)
        refuse = f"SELECT RAISE(ABORT, '{what}')" if _is_sqlite(db) else f"RAISE EXCEPTION '{what}'"
        await _sql(db, _trigger(db, "fail_write", when, refuse))
        seat = min(game.waiting())
        action = rules.legal_actions(game.state, seat)[0]
        user, version = game.user_of(seat), game.public_version
        with pytest.raises((sqlite3.Error, StoreError), match=what):
            await sessions.act(game.id, user, action, version=version)
        assert _committed(db, game.id) == on_disk, "half of the action was written"
        live = await sessions.load(game.id)
        assert (live.version, live.public_version) == on_disk[0][:2]
        assert canonical(rules.dump(live.state)) == on_disk[0][3]

        await _sql(db, _drop_trigger(db, "fail_write", when.rsplit(" ", 1)[1]))
        applied = await sessions.act(game.id, user, action, version=version)
        (new_version, _, _, snapshot), log = _committed(db, game.id)
        assert applied.version == new_version == 5 and [v for v, _ in log] == [1, 2, 3, 4, 5]
        assert snapshot == canonical(rules.dump(applied.game.state))
    finally:
        await store.close()
