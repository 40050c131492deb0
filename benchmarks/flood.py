"""One member floods a server (issue 25): 200 ``/game new`` in a row, then Rematch then Cancel 200
times, through the real bot in SimCord.

Before the limits, the 200 commands made 200 lobbies, 200 threads and 400 channel messages, and
Rematch then Cancel made 199 lobbies.  Now the server's limits on opening tables (defaults of
:data:`bot.services.server_settings.DEFAULT_LIMITS`: 3 open lobbies and 10 open tables per
member, a 30 s wait once a member has opened 3 tables in a row, 200 open tables per server)
stop both.  Three runs:

- ``burst``: 200 ``/game new`` as fast as SimCord takes them (no simulated time passes);
- ``paced``: then 200 more, 31 simulated seconds apart (past the cooldown every time), so the
  lobby limit is what stops them (the member already holds the burst's lobbies: none is made);
- ``rematch``: Rematch then Cancel, 200 times, on a finished table, no time passing.

For each: tables (lobbies) made, threads made, channel messages posted, and refusals, with the
bound each must stay within.  Every command is answered (a lobby or a refusal): ``unanswered``
counts those that were not.

Usage::

    PYTHONPATH=. python benchmarks/flood.py [--count 200]

The last line is one JSON object; its ``ok`` is true only when every run stays within its bound
and every command was answered.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import sys
from dataclasses import asdict
from typing import Any

import simcord

from benchmarks.torture_discord_common import close_bots, make_bot, quick_settle, register_toy, scratch_dir
from bot.services.server_settings import BURST, DEFAULT_LIMITS
from bot.storage import OPEN_STATUSES, GameStatus
from harness.messages import Table, labels, response_of


def _threads(env: simcord.Env, since: int) -> int:
    return sum(
        1
        for entry in env.http_requests[since:]
        if entry.method == "POST" and re.fullmatch(r"/channels/\d+(/messages/\d+)?/threads", entry.path)
    )


def _figures(
    env: simcord.Env, since: int, channel: Any, before: int, tables: int, answers: list[Any]
) -> dict[str, Any]:
    return {
        "tables": tables,
        "threads": _threads(env, since),
        "channel_messages": len(channel.history()) - before,
        "refused": sum(1 for a in answers if a.response is not None and a.response.ephemeral),
        "unanswered": sum(1 for a in answers if not a.acknowledged),
    }


async def _lobbies(bot: Any, guild_id: int) -> int:
    return len(
        await bot.store.games.list_games(guild_id=guild_id, statuses=(*OPEN_STATUSES, GameStatus.ABANDONED))
    )


async def run(count: int) -> dict[str, Any]:
    register_toy()
    workdir = scratch_dir("flood-")
    try:
        bot = make_bot(workdir)
        with quick_settle():
            async with simcord.run(bot, strict_sync=False) as env:
                guild = env.create_guild("Flooded")
                channel = guild.create_text_channel("games")
                flo = guild.add_member(env.create_user("flo"))

                cursor, before = len(env.http_requests), len(channel.history())
                answers = [await flo.slash(channel, "game new", name="toy") for _ in range(count)]
                burst = _figures(env, cursor, channel, before, await _lobbies(bot, guild.id), answers)
                burst["bound"] = BURST

                cursor, before, made = len(env.http_requests), len(channel.history()), burst["tables"]
                answers = []
                for _ in range(count):
                    await env.advance_time(DEFAULT_LIMITS.cooldown_seconds + 1)
                    answers.append(await flo.slash(channel, "game new", name="toy"))
                paced = _figures(env, cursor, channel, before, await _lobbies(bot, guild.id) - made, answers)
                paced["bound"] = DEFAULT_LIMITS.lobbies_per_user - made

                # A finished table of another member's, for Rematch then Cancel.
                ann = guild.add_member(env.create_user("ann"))
                home = guild.create_text_channel("home")
                lobby = response_of(await ann.slash(home, "game new", name="toy", options="target=3")).message
                await flo.click(lobby, label="Join")
                await ann.click(lobby, label="Start")
                table = Table(env, home, [ann, flo])
                while "gg" not in labels(table.table_message()):
                    await table.on_turn().click(table.table_message(), label="Add 3")
                for player in table.players:
                    if "gg" in labels(table.table_message()):
                        await player.click(table.table_message(), label="gg")
                final = table.messages()[-1]
                # flo's own lobbies are closed first, so only the cooldown stands in the way.
                for row in await bot.store.games.list_games(guild_id=guild.id, statuses=(GameStatus.LOBBY,)):
                    await bot.lobby.close(
                        row.id, flo.id, moderator=True, status=GameStatus.ABANDONED, reason="cancelled"
                    )
                await env.advance_time(DEFAULT_LIMITS.cooldown_seconds + 1)
                cursor, before = len(env.http_requests), len(home.history())
                made = await _lobbies(bot, guild.id)
                answers = []
                for _ in range(count):
                    answer = await flo.click(final, label="Rematch")
                    answers.append(answer)
                    opened = [m for m in home.history() if "Cancel" in labels(m)]
                    if opened:
                        await flo.click(opened[-1], label="Cancel")
                rematch = _figures(env, cursor, home, before, await _lobbies(bot, guild.id) - made, answers)
                rematch["refused"] = sum(
                    1
                    for a in answers
                    if a.response is not None and "tables here within" in str(a.response.content)
                )
                rematch["bound"] = BURST
        await close_bots()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    runs = {"burst": burst, "paced": paced, "rematch": rematch}
    ok = all(
        r["tables"] <= r["bound"] and r["threads"] <= r["bound"] and r["unanswered"] == 0
        for r in runs.values()
    )
    return {
        "benchmark": "flood",
        "count": count,
        "limits": asdict(DEFAULT_LIMITS),
        "burst_allowed": BURST,
        **runs,
        "ok": ok,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--count", type=int, default=200, help="commands per run (default 200)")
    args = parser.parse_args(argv)
    result = asyncio.run(run(args.count))
    print(json.dumps(result))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
