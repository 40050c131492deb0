"""The shared checks of :mod:`bot.ui.access` and the stored codes of :mod:`bot.storage.codes`.

Every ``/game`` command that needs a server answers a direct message with the same sentence;
Manage Server is what lets a member close or abandon another host's table; and the status codes
the bot names are exactly the ones the database accepts.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.storage import CLOSED_STATUSES, ENDED_STATUSES, OPEN_STATUSES, STARTED_STATUSES, GameStatus
from bot.storage.codes import sql_list
from harness.messages import words_of
from tests.helpers import en
from tests.simcord import make_bot

MIGRATIONS = Path(__file__).resolve().parents[3] / "bot" / "storage" / "migrations"


def text(result: Any) -> str:
    texts = [words_of(result.response)] if result.response is not None and words_of(result.response) else []
    texts += [words_of(f) for f in result.followups]
    return "\n".join(texts)


@pytest.mark.parametrize("schema", ["sqlite/001_initial.sql", "postgres/006_schema.sql"])
def test_the_statuses_are_the_ones_the_database_accepts(schema: str) -> None:
    check = re.search(r"CHECK \(status IN \(([^)]*)\)\)", (MIGRATIONS / schema).read_text(encoding="utf-8"))
    assert check is not None, f"{schema} no longer checks games.status"
    assert [s.strip().strip("'") for s in check.group(1).split(",")] == [s.value for s in GameStatus]


def test_the_groups_mean_what_their_names_say() -> None:
    assert set(OPEN_STATUSES) | set(CLOSED_STATUSES) == set(GameStatus)
    assert not set(OPEN_STATUSES) & set(CLOSED_STATUSES)
    assert set(ENDED_STATUSES) < set(CLOSED_STATUSES) and GameStatus.BROKEN not in ENDED_STATUSES
    assert GameStatus.ACTIVE in STARTED_STATUSES and GameStatus.LOBBY not in STARTED_STATUSES
    assert sql_list(OPEN_STATUSES) == "('lobby', 'active')"
    assert GameStatus("finished") == "finished" and f"{GameStatus.ACTIVE}" == "active"


SERVER_ONLY: list[tuple[str, dict[str, object]]] = [
    ("game new", {"name": "toy"}),
    ("game list", {}),
    ("game show", {}),
    ("game abandon", {}),
    ("game export", {}),
    ("game settings", {}),
    ("game settings", {"lobbies": 2}),
    ("game leaderboard", {"game": "toy"}),
]


async def test_every_server_command_answers_a_direct_message_with_one_sentence(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        ana = env.create_user("ana")
        for command, options in SERVER_ONLY:
            answer = await ana.slash(command, **options)
            assert en("host.refuse.dm") in text(answer), f"/{command} {options}: {text(answer)}"
        assert await bot.store.games.list_games() == []


async def test_manage_server_closes_another_hosts_table_and_a_member_may_not(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        guild = env.create_guild("Club")
        channel = guild.create_text_channel("general")
        mods = guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
        host = guild.add_member(env.create_user("host"))
        pat = guild.add_member(env.create_user("pat"))
        mod = guild.add_member(env.create_user("mod"), roles=[mods])
        await host.slash(channel, "game new", name="toy")
        (row,) = await bot.store.games.list_games()
        refused = await pat.slash(channel, "game abandon", table=row.id)
        assert en("host.refuse.host_or_moderator") in text(refused)
        assert await bot.store.games.list_games(statuses=(GameStatus.LOBBY,)) == [row]
        await mod.slash(channel, "game abandon", table=row.id)
        (closed,) = await bot.store.games.list_games(statuses=(GameStatus.ABANDONED,))
        assert closed.id == row.id and closed.reason == "abandoned_by:mod"
