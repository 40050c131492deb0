"""Moving house (``python -m bot migrate``): a SQLite database with games in every state, made
through the real services, copied to PostgreSQL (and to another SQLite file), then compared table
by table, replayed, played on, copied again, interrupted and refused.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot.cli import main
from bot.core.urls import public_url
from bot.games import REGISTRY
from bot.services.lobby import LobbyService
from bot.services.sessions import SessionService
from bot.services.undo import Asked, UndoService
from bot.storage import GuildSettings, Store
from bot.storage.base import Row
from bot.storage.codes import MessageKind
from bot.storage.transfer import TABLES, Diverged, Table, transfer
from rules.core import Action, Rules
from tests.backends import fresh_postgres
from tests.bot.services.kit import ANA, BOB, EVE, on_turn, started
from tests.bot.services.test_undo_service import find_undoable, play_in, take_back

START = 1_700_000_000.0


class Clock:
    """The services' clock, moved by hand: every stored moment is known."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        self.now += 1.5
        return self.now


@dataclass(frozen=True)
class Source:
    path: Path
    lobby: int
    active: int
    finished: int
    abandoned: int
    real: int

    @property
    def replayed(self) -> int:
        """Games that are running or over, which verification replays."""
        return 3


def rules_for(name: str) -> Rules[Any] | None:
    entry = REGISTRY.get(name)
    return None if entry is None else entry.rules


async def play_to_the_end(sessions: SessionService, game_id: int) -> None:
    """The toy race played out: the seat on turn adds 3 until the target, then everyone says gg."""
    game = await sessions.load(game_id)
    while game.status == "active":
        seat = min(game.waiting())
        legal = game.entry.rules.legal_actions(game.state, seat)
        action = Action("add", (3,)) if Action("add", (3,)) in legal else legal[0]
        await sessions.act(game_id, game.user_of(seat), action, version=game.public_version)
        game = await sessions.load(game_id)


async def move(sessions: SessionService, game_id: int, user_id: int, action: Action) -> None:
    game = await sessions.load(game_id)
    await sessions.act(game_id, user_id, action, version=game.public_version)


async def build_source(path: Path) -> Source:
    """Every state a game can be in, and every table filled, through the services."""
    store = await Store.open(path)
    sessions = SessionService(store, REGISTRY, Clock())
    lobby = LobbyService(sessions)
    undo = UndoService(sessions)
    try:
        await store.servers.set_settings(GuildSettings(1, 2, 6, 77, 88))
        await store.players.set_notify(ANA, "dm")
        await store.players.set_away(BOB, START + 86_400, sessions.clock())
        async with store.database.transaction() as con:
            await con.execute("INSERT INTO meta (key, value) VALUES ('note', 'moved from sqlite')")

        waiting = await lobby.create(
            game="toy",
            options_text="target=9",
            host_id=ANA,
            host_name="ana",
            guild_id=1,
            channel_id=2,
            language="en",
        )
        await lobby.join(waiting.id, EVE, "eve")
        await store.messages.add_message(waiting.id, 2, 9_001, MessageKind.LOBBY, 0)

        active = await started(lobby, seed=3)
        mover = on_turn(active)
        other = ANA if mover == BOB else BOB
        await move(sessions, active.id, mover, Action("add", (2,)))
        asked = await undo.ask(active.id, mover, (await sessions.load(active.id)).public_version)
        assert isinstance(asked, Asked)
        answered = await undo.answer(active.id, other, asked.request.version, accept=True)
        assert answered.undone is not None, "the move was not taken back"
        await move(sessions, active.id, mover, Action("add", (1,)))
        await move(sessions, active.id, mover, Action("knock"))
        await move(sessions, active.id, other, Action("add", (3,)))
        last = await sessions.load(active.id)
        assert isinstance(await undo.ask(active.id, other, last.public_version), Asked)
        await store.messages.add_message(active.id, 2, 9_002, MessageKind.TABLE, 1, since=0, pinged=[BOB])
        await store.messages.retire_message(9_002)
        await store.messages.add_message(
            active.id, 2, 9_003, MessageKind.TABLE, last.public_version, since=1, pinged=[ANA, BOB]
        )

        finished = await started(lobby, seed=5, target=7)
        await play_to_the_end(sessions, finished.id)
        await store.messages.add_message(finished.id, 2, 9_004, MessageKind.FINAL, 0)
        await store.reach.mark_archived(finished.id, START + 10.0)
        await store.reach.park(active.id, "locked", START + 20.0)

        abandoned = await started(lobby, seed=8)
        await lobby.close(abandoned.id, ANA, moderator=False, status="abandoned", reason="abandoned_by:ana")

        seed, players, options, log = find_undoable("estates", want_dropped=False)
        real = await play_in(sessions, lobby, "estates", seed, players, options, log)
        await take_back(undo, sessions, real)
        return Source(path, waiting.id, active.id, finished.id, abandoned.id, real)
    finally:
        await store.close()


@pytest.fixture
def source(tmp_path: Path) -> Source:
    return asyncio.run(build_source(tmp_path / "host.sqlite3"))


@pytest.fixture
async def stores(source: Source, store_target: str | Path) -> AsyncIterator[tuple[Store, Store]]:
    """The source and an empty target (a fresh PostgreSQL database, or a new SQLite file)."""
    old = await Store.open(source.path)
    new = await Store.open(store_target)
    yield old, new
    await new.close()
    await old.close()


async def rows(store: Store, table: Table) -> list[Row]:
    return [tuple(r) for r in await store.database.fetch(table.rows_sql(False, False, False))]


async def every_table(store: Store) -> dict[str, list[Row]]:
    return {table.name: await rows(store, table) for table in TABLES}


# -- the copy ------------------------------------------------------------------------------------


async def test_every_row_arrives_and_every_game_replays_there(
    source: Source, stores: tuple[Store, Store]
) -> None:
    old, new = stores
    lines: list[str] = []
    report = await transfer(old, new, rules_for, progress=lines.append)
    before = await every_table(old)
    assert await every_table(new) == before
    assert report.ok and report.failed == []
    assert report.verified == source.replayed
    assert report.games == 5 and report.source == old.name and report.target == new.name
    assert report.rows == {name: len(found) for name, found in before.items()}
    assert all(before[table.name] for table in TABLES), "the source leaves a table empty"
    assert lines[-1] == "verified 3 games, 0 failed"
    # The same through the store's own reads, which the host uses.
    for game in await old.games.list_games():
        gid = game.id
        assert await new.games.fetch_game(gid) == game
        assert await new.games.fetch_seats(gid) == await old.games.fetch_seats(gid)
        assert await new.log.load_log(gid) == await old.log.load_log(gid)
        assert await new.waits.fetch_waits(gid) == await old.waits.fetch_waits(gid)
        assert await new.log.fetch_undo_request(gid) == await old.log.fetch_undo_request(gid)
        assert await new.messages.fetch_live_messages(gid) == await old.messages.fetch_live_messages(gid)
    assert (await new.log.fetch_undo_request(source.active)) is not None
    assert await new.servers.fetch_settings(1) == await old.servers.fetch_settings(1)
    assert await new.players.fetch_player(ANA) == await old.players.fetch_player(
        ANA
    ) and await new.players.fetch_player(BOB) == await old.players.fetch_player(BOB)
    assert await new.players.fetch_record(ANA) == await old.players.fetch_record(ANA)


async def test_a_game_goes_on_on_the_target_and_a_new_table_gets_a_new_id(
    source: Source, stores: tuple[Store, Store]
) -> None:
    old, new = stores
    await transfer(old, new, rules_for)
    sessions = SessionService(new, REGISTRY, Clock())
    game = await sessions.load(source.active)
    before = game.version
    applied = await sessions.act(game.id, on_turn(game), Action("add", (1,)), version=game.public_version)
    assert applied.version == before + 1
    assert [v for v, _, _ in await new.log.load_actions(game.id)][-1] == before + 1
    opened = await LobbyService(sessions).create(
        game="toy", options_text=None, host_id=EVE, host_name="eve", guild_id=1, channel_id=2, language="en"
    )
    assert opened.id == max(g.id for g in await old.games.list_games()) + 1


async def test_a_rerun_copies_nothing_and_ends_in_the_same_state(
    source: Source, stores: tuple[Store, Store]
) -> None:
    old, new = stores
    first = await transfer(old, new, rules_for)
    after = await every_table(new)
    again = await transfer(old, new, rules_for)
    assert again.ok and again.verified == first.verified
    assert again.rows == {table.name: 0 for table in TABLES}
    assert await every_table(new) == after


class Crash(Exception):
    pass


async def test_an_interrupted_copy_leaves_whole_batches_and_a_rerun_finishes_it(
    source: Source, stores: tuple[Store, Store]
) -> None:
    old, new = stores
    seen: list[str] = []

    def crash_after_a_few_batches(line: str) -> None:
        seen.append(line)
        if len(seen) == 6:  # the plan's line, then five committed batches of 2 rows
            raise Crash(line)

    with pytest.raises(Crash):
        await transfer(old, new, rules_for, batch=2, progress=crash_after_a_few_batches)
    partial = await every_table(new)
    assert (
        0
        < sum(len(found) for found in partial.values())
        < sum(len(found) for found in (await every_table(old)).values())
    )
    whole = await every_table(old)
    for name, found in partial.items():  # a table is copied in full, or in whole batches of 2, or not yet
        assert len(found) in (0, len(whole[name])) or len(found) % 2 == 0, (
            f"half a batch of {name} was committed"
        )
        assert found == whole[name][: len(found)]
    report = await transfer(old, new, rules_for, batch=2)
    assert report.ok and report.verified == source.replayed
    assert await every_table(new) == await every_table(old)
    assert sum(report.rows.values()) == sum(len(found) for found in (await every_table(old)).values()) - sum(
        len(found) for found in partial.values()
    )


async def test_a_target_played_on_is_refused_and_left_as_it_is(
    source: Source, stores: tuple[Store, Store]
) -> None:
    old, new = stores
    await transfer(old, new, rules_for)
    sessions = SessionService(new, REGISTRY, Clock())
    game = await sessions.load(source.active)
    await sessions.act(game.id, on_turn(game), Action("add", (1,)), version=game.public_version)
    await LobbyService(sessions).join(source.lobby, BOB, "bob")  # a row the source does not have
    played = await every_table(new)
    with pytest.raises(Diverged) as refused:
        await transfer(old, new, rules_for)
    assert sorted(refused.value.owners) == sorted([f"game {source.lobby}", f"game {source.active}"])
    message = str(refused.value)
    assert "\n" not in message and new.name in message
    assert f"game {source.lobby}" in message and f"game {source.active}" in message
    assert await every_table(new) == played


async def test_the_copy_knows_every_column_of_every_table(store_target: str | Path) -> None:
    """A migration that adds a column or a table must add it to ``transfer.TABLES`` too, or a
    move would leave it behind."""
    store = await Store.open(store_target)
    try:
        if store.dialect.name == "sqlite":
            listed = await store.database.fetch(
                "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table'"
            )
        else:
            listed = await store.database.fetch(
                "SELECT table_name, column_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND table_name <> 'schema_version'"
            )
    finally:
        await store.close()
    found: dict[str, set[str]] = {}
    for table, column in listed:
        found.setdefault(str(table), set()).add(str(column))
    assert found == {table.name: set(table.columns) for table in TABLES}


# -- the command ---------------------------------------------------------------------------------


@pytest.fixture
def configured(source: Source, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Source]:
    """``GAMEHOST_DB`` names the source; no ``.env`` and no other setting leaks in."""
    for key in ("GAMEHOST_PLUGINS", "GAMEHOST_LOG_LEVEL", "DISCORD_TOKEN"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("GAMEHOST_DB", str(source.path))
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    yield source


def with_password(url: str, password: str) -> str:
    """The same database, logged into with a password (the test server trusts every login)."""
    parts = urlsplit(url)
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:{password}@{host}"))


def last_json(out: str) -> dict[str, object]:
    lines = out.strip().splitlines()
    assert len(lines) == 1, out
    found = json.loads(lines[0])
    assert isinstance(found, dict)
    return found


def test_the_command_moves_the_database_and_prints_one_json_line(
    configured: Source, postgres_server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    url = with_password(fresh_postgres(postgres_server), "s3cret-pw")
    assert main(["migrate", "--to", url]) == 0
    done = capsys.readouterr()
    report = last_json(done.out)
    assert set(report) == {"source", "target", "games", "rows", "verified", "failed", "ok"}
    assert report["source"] == str(configured.path)
    assert report["target"] == public_url(url) and "***" in str(report["target"])
    assert (report["games"], report["verified"], report["failed"], report["ok"]) == (5, 3, [], True)
    assert isinstance(report["rows"], dict) and report["rows"]["games"] == 5
    assert "verified 3 games" in done.err
    assert "s3cret-pw" not in done.out + done.err

    assert main(["migrate", "--to", url]) == 0
    again = last_json(capsys.readouterr().out)
    copied = again["rows"]
    assert again["ok"] is True and isinstance(copied, dict) and set(copied.values()) == {0}


def test_a_game_that_does_not_replay_fails_with_exit_1(
    configured: Source, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async def spoil() -> None:
        store = await Store.open(configured.path)
        try:
            async with store.database.transaction() as con:
                await con.execute("UPDATE games SET snapshot = '{}' WHERE id = ?", (configured.finished,))
        finally:
            await store.close()

    asyncio.run(spoil())
    target = tmp_path / "moved.sqlite3"
    assert main(["migrate", "--from", f"sqlite:///{configured.path}", "--to", str(target)]) == 1
    done = capsys.readouterr()
    report = last_json(done.out)
    assert (report["ok"], report["failed"], report["verified"]) == (False, [configured.finished], 2)
    assert f"game {configured.finished} (toy): the replay of seed + log differs" in done.err


def refusal(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 2
    done = capsys.readouterr()
    assert done.out == "" and done.err.count("\n") == 1 and "Traceback" not in done.err
    return done.err


def test_targets_that_cannot_be_used_are_refused_in_one_line(
    configured: Source, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = refusal(capsys, "migrate", "--to", "mysql://root:hunter2@db.example/games")
    assert "neither a postgresql:// URL nor a SQLite file" in err and "hunter2" not in err
    err = refusal(capsys, "migrate", "--to", "postgresql://gamehost:hunter2@127.0.0.1:1/games")
    assert "Cannot open the database at postgresql://gamehost:***@127.0.0.1:1/games" in err
    assert "hunter2" not in err
    err = refusal(capsys, "migrate", "--to", str(configured.path))
    assert "names the database being copied" in err
    missing = tmp_path / "nowhere" / "none.sqlite3"
    err = refusal(capsys, "migrate", "--from", str(missing), "--to", str(tmp_path / "new.sqlite3"))
    assert f"no database at {missing}" in err and not missing.parent.exists()


def test_a_target_that_differs_is_refused_in_one_line(
    configured: Source, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "moved.sqlite3"
    assert main(["migrate", "--to", str(target)]) == 0
    capsys.readouterr()

    async def play_there() -> None:
        store = await Store.open(target)
        try:
            sessions = SessionService(store, REGISTRY, Clock())
            game = await sessions.load(configured.active)
            await sessions.act(game.id, on_turn(game), Action("add", (1,)), version=game.public_version)
        finally:
            await store.close()

    asyncio.run(play_there())
    err = refusal(capsys, "migrate", "--to", str(target))
    assert (
        f"already holds different data for game {configured.active}" in err
        and "nothing was overwritten" in err
    )
