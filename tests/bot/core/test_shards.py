"""Several processes on one database: each does its own shards' work, and nothing happens twice.

Discord's rule for which shard a server is on, the settings and ``run`` options that name a
process's shards, the store's work queries limited to them (on both backends), two hosts with
their own connections racing the same clicks and deadlines on one database, and a sharded bot
in SimCord that resumes only its own servers' tables after a start.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import simcord

from bot.cli import main
from bot.client import ShardedGameBot, make_bot
from bot.core.config import ConfigError, load_settings
from bot.core.shards import Shards, parse_ids, shard_of, spans
from bot.games import REGISTRY
from bot.services.deadlines import HOUR
from bot.services.sessions import SessionService
from bot.storage import Store, VersionConflict
from bot.storage.codes import GameStatus, MessageKind
from harness.messages import response_of
from rules.core import Action
from tests import simcord as kit
from tests.bot.services.kit import ANA, BOB, on_turn
from tests.bot.services.test_scheduler import FakeClock, build, table


def guild_on(shard: int, count: int, n: int = 1) -> int:
    """A server id that Discord puts on ``shard`` of ``count`` (``n`` picks another one)."""
    return ((n * count + shard) << 22) | 12345


# -- the rule and the settings -----------------------------------------------------------------


def test_a_server_s_shard_is_discord_s_rule() -> None:
    # Discord's documented formula: shard_id = (guild_id >> 22) % num_shards; DMs are on shard 0.
    assert shard_of(175928847299117063, 16) == 4  # (175928847299117063 >> 22) is 41944705796
    assert shard_of(None, 8) == 0
    assert [shard_of(guild_on(s, 4), 4) for s in range(4)] == [0, 1, 2, 3]
    mine = Shards((1, 3), 4)
    assert [mine.owns(guild_on(s, 4)) for s in range(4)] == [False, True, False, True]
    assert not mine.owns(None) and Shards((0,), 4).owns(None)


def test_shard_lists_read_and_write_like_people_type_them() -> None:
    assert parse_ids("0-3") == (0, 1, 2, 3)
    assert parse_ids("0-1, 6,8-9") == (0, 1, 6, 8, 9)
    assert spans((0, 1, 2, 5, 7, 8)) == "0-2,5,7-8"
    assert str(Shards((4, 5, 6, 7), 8)) == "4-7 of 8"
    for bad in ("", "a", "3-1", "1-", "-2", "1;2"):
        with pytest.raises(ValueError):
            parse_ids(bad)
    for ids, count in (((0, 0), 2), ((2,), 2), ((), 2), ((0,), 0)):
        with pytest.raises(ValueError):
            Shards(ids, count)


def test_settings_name_a_process_s_shards(tmp_path: Path) -> None:
    none = tmp_path / "no.env"
    assert load_settings({}, env_file=none).shards is None
    both = load_settings({"GAMEHOST_SHARDS": "4-7", "GAMEHOST_SHARD_COUNT": "8"}, env_file=none)
    assert both.shards == Shards((4, 5, 6, 7), 8)
    assert load_settings({"GAMEHOST_SHARD_COUNT": "2"}, env_file=none).shards == Shards((0, 1), 2)
    with pytest.raises(ConfigError, match="GAMEHOST_SHARD_COUNT"):
        load_settings({"GAMEHOST_SHARDS": "0-3"}, env_file=none)
    with pytest.raises(ConfigError, match="from 0 to 3"):
        load_settings({"GAMEHOST_SHARDS": "2-5", "GAMEHOST_SHARD_COUNT": "4"}, env_file=none)
    settings = load_settings({"GAMEHOST_DB": "postgresql://bot:secret@db.example/games"}, env_file=none)
    assert settings.database == "postgresql://bot:secret@db.example/games"
    assert "secret" not in repr(settings)


def test_run_refuses_shards_without_a_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--shards", "0-3"]) == 2
    assert "--shard-count" in capsys.readouterr().err


def test_a_sharded_process_is_discord_py_s_auto_sharded_bot(tmp_path: Path) -> None:
    plain = make_bot(kit.settings(tmp_path))
    assert type(plain).__name__ == "GameBot" and plain.shard_count is None
    settings = load_settings({"GAMEHOST_SHARDS": "2-3", "GAMEHOST_SHARD_COUNT": "4"}, env_file=tmp_path / "x")
    sharded = make_bot(settings)
    assert isinstance(sharded, ShardedGameBot)
    assert (sharded.shard_ids, sharded.shard_count) == ([2, 3], 4)


# -- the store: each process finds its own work ---------------------------------------------------


async def test_work_queries_find_only_this_process_s_servers(store_target: str | Path) -> None:
    shared = await Store.open(store_target)
    clock = FakeClock()
    try:
        everyone = build(shared, clock)
        games = [await table(everyone, remind=1, guild_id=guild_on(s, 4)) for s in range(4)]
        for game in games:  # a table message drawn for an older version: a start-up sweep redraws it
            await shared.messages.add_message(game.id, 2, 1000 + game.id, MessageKind.TABLE, version=-1)
        await shared.games.set_status(games[2].id, GameStatus.ABANDONED, reason=None, now=clock.now)
        await shared.messages.add_message(games[2].id, 2, 2000 + games[2].id, MessageKind.TABLE, version=0)
    finally:
        await shared.close()
    mine = await Store.open(store_target, shards=Shards((1, 2), 4))
    try:
        due = clock.now + 2 * HOUR
        assert [w.game_id for w in await mine.waits.list_due_waits(due, 10)] == [games[1].id]
        assert await mine.waits.fetch_next_due() == games[1].row.updated_at + HOUR
        assert await mine.messages.list_games_behind_their_table() == [games[1].id]
        assert await mine.messages.list_games_missing_final(ended_since=0) == [games[2].id]
        # A game asked for by id is found whichever process asks.
        assert (await mine.games.fetch_game(games[0].id)) is not None
    finally:
        await mine.close()


# -- two processes, one database ------------------------------------------------------------------


async def test_two_hosts_race_clicks_and_deadlines_and_each_happens_once(store_target: str | Path) -> None:
    """Two hosts, each with its own connections (as two processes have), on one database: the same
    clicks raced from both apply once, and ticks raced over the same due deadlines fire each once."""
    clock = FakeClock()
    first_store, second_store = await Store.open(store_target), await Store.open(store_target)
    try:
        first, second = build(first_store, clock), build(second_store, clock)
        games = [await table(first, remind=1, timer=2, target=30, seed=s) for s in range(8)]
        # Racing clicks: both hosts press the move on turn in every game at once.
        for game in games:
            user = on_turn(game)
            other = await second.sessions.load(game.id)
            results = await asyncio.gather(
                first.sessions.act(game.id, user, Action("add", (1,)), version=0),
                second.sessions.act(other.id, user, Action("add", (1,)), version=0),
                return_exceptions=True,
            )
            applied = [r for r in results if not isinstance(r, BaseException)]
            assert len(applied) == 1, results
            assert all(isinstance(r, Exception) for r in results if r not in applied)
        # Racing ticks: every wait's reminder, then its timeout, is due for both at once.
        reminded = sum(await asyncio.gather(first.scheduler.tick(clock.hours(1.5)), second.scheduler.tick()))
        assert reminded == len(games)
        assert len(first.pings.sent) + len(second.pings.sent) == len(games)
        timed_out = await asyncio.gather(first.scheduler.tick(clock.hours(1)), second.scheduler.tick())
        assert sum(timed_out) == len(games)
        assert len(first.board.moves) + len(second.board.moves) == len(games)
        for game in games:
            log = await first_store.log.load_log(game.id)
            assert [e.version for e in log] == [1, 2]  # one click, one timeout: no duplicate
            assert [e.how for e in log] == ["player", "timeout"]
    finally:
        await first_store.close()
        await second_store.close()


async def test_processes_with_their_own_shards_split_the_deadlines(store_target: str | Path) -> None:
    clock = FakeClock()
    stores = [await Store.open(store_target, shards=Shards((s,), 2)) for s in (0, 1)]
    try:
        hosts = [build(store, clock) for store in stores]
        games = [await table(hosts[0], remind=1, guild_id=guild_on(n % 2, 2, n)) for n in range(6)]
        assert sum(await asyncio.gather(*(h.scheduler.tick(clock.hours(1)) for h in hosts))) == 6
        for shard, host in enumerate(hosts):
            assert sorted(g for g, *_ in host.pings.sent) == [
                g.id for g in games if shard_of(g.row.guild_id, 2) == shard
            ]
    finally:
        for store in stores:
            await store.close()


async def test_a_stale_second_process_is_refused_by_the_database(store_target: str | Path) -> None:
    clock = FakeClock()
    first_store, second_store = await Store.open(store_target), await Store.open(store_target)
    try:
        first = build(first_store, clock)
        game = await table(first)
        seat = game.seat_of(on_turn(game))
        assert seat is not None
        await first.sessions.act(game.id, on_turn(game), Action("add", (2,)), version=0)
        with pytest.raises(VersionConflict):
            await second_store.log.record_action(
                game.id,
                expected_version=0,
                seat=seat,
                user_id=on_turn(game),
                action=Action("add", (1,)),
                snapshot="{}",
                status=GameStatus.ACTIVE,
                public_version=1,
                now=clock.now,
            )
        row = await second_store.games.fetch_game(game.id)
        assert row is not None and row.version == 1
    finally:
        await first_store.close()
        await second_store.close()


# -- a sharded bot in SimCord -----------------------------------------------------------------


async def test_a_sharded_bot_plays_its_servers_and_resumes_only_their_tables(tmp_path: Path) -> None:
    """Shard 1 of 2: a table on its server plays; a table of shard 0's server (another
    process's), whose bot seat is waited on, is left alone at start-up, while its own is taken
    up: its table is posted, and as its channel does not exist in this simulated Discord, it is
    parked (nothing runs on a table Discord will not let the bot reach)."""
    import dataclasses

    settings = dataclasses.replace(kit.settings(tmp_path), shards=Shards((1,), 2))
    store = await Store.open(settings.database)
    try:
        sessions = SessionService(store, REGISTRY)
        from bot.services.lobby import LobbyService

        lobby = LobbyService(sessions)
        waiting: dict[int, int] = {}
        versions: dict[int, int] = {}
        for shard in (0, 1):
            game = await lobby.create(
                game="toy",
                options_text="target=20",
                host_id=ANA,
                host_name="ana",
                guild_id=guild_on(shard, 2),
                channel_id=77,
                language="en",
            )
            await lobby.add_bot(game.id, ANA, "easy", "Ada (easy bot)")
            await lobby.join(game.id, BOB, "bob")
            started = await lobby.start(game.id, ANA, seed=3)
            while not any(started.is_bot(s) for s in started.waiting()):
                started = (
                    await sessions.act(game.id, on_turn(started), Action("add", (1,)), version=None)
                ).game
            waiting[shard], versions[shard] = started.id, started.version
    finally:
        await store.close()
    bot = make_bot(settings)
    kit.OPEN_BOTS.append(bot)
    async with simcord.run(bot, strict_sync=False) as env:
        await bot.bots.idle()
        guild = env.create_guild(shard_id=1)
        channel = guild.create_text_channel("games")
        ana = guild.add_member(env.create_user("ana"))
        created = await ana.slash(channel, "game new", name="toy")
        assert not created.ephemeral and response_of(created).message is not None
    assert isinstance(bot, ShardedGameBot) and bot.shard_ids == [1]
    # Shard 0's table still waits on its bot: that is another process's work.
    check = await Store.open(settings.database)
    try:
        rows = {shard: await check.games.fetch_game(game_id) for shard, game_id in waiting.items()}
        reach = {shard: await check.reach.fetch_reach(game_id) for shard, game_id in waiting.items()}
    finally:
        await check.close()
    assert rows[0] is not None and rows[1] is not None
    assert rows[0].version == versions[0], "a table of another process's server was moved"
    assert reach[0].parked is None, "a table of another process's server was touched"
    assert reach[1].parked == "channel_gone", "this process's own table was not taken up"
