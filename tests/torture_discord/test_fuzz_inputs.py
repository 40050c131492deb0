"""Discord input fuzz, small: every interaction answered, no traceback, no wrong state change.

The full run is ``benchmarks/torture_fuzz.py`` (20,000 inputs); here a few hundred seeded inputs,
then the known troublemakers one by one: number forms with Unicode digits and other junk, oversized
command options, table numbers that are not this server's, ids with the wrong prefix for their
component, ids with non-ASCII digits.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from simcord.results import InteractionResult, ResponseMessage

from benchmarks.torture_discord_common import (
    DISCORD_CONTENT_LIMIT,
    DbPeek,
    LogTap,
    RowState,
    clickable,
    close_bots,
    custom_ids,
    intended_number,
    live_board,
    make_bot,
    oversized_requests,
    quick_settle,
    replies,
    reply_text,
    state_of,
    tapped,
    unanswered,
)
from benchmarks.torture_fuzz import run
from bot.client import GameBot
from bot.games import REGISTRY
from harness.messages import words_of
from rules.core import Action


async def test_a_few_hundred_fuzzed_inputs() -> None:
    figures = await run(400, seed=11, restart_every=200)
    problems = json.dumps(figures["examples"], ensure_ascii=False, indent=1)
    assert figures["inputs"] >= 400
    assert figures["unanswered"] == 0, problems
    assert figures["tracebacks"] == 0, problems
    assert figures["wrong_state_changes"] == 0, problems
    assert figures["accepted"] > 50, "legit moves kept the games going"


# -- a small world for the explicit cases ----------------------------------------------------------------


@dataclass
class World:
    env: simcord.Env
    bot: GameBot
    db: DbPeek
    tap: LogTap
    guild: Any
    channel: Any
    players: list[Any]
    stranger: Any
    game_id: int = 0

    @property
    def thread_id(self) -> int:
        facts = self.db.game(self.game_id)
        assert facts is not None and facts.table_channel is not None
        return facts.table_channel

    def board(self) -> ResponseMessage:
        message = live_board(self.env, self.thread_id, self.game_id)
        assert message is not None, "the table has a live message"
        return clickable(self.env, message)

    def version(self) -> int:
        facts = self.db.game(self.game_id)
        assert facts is not None
        return facts.public_version

    def on_turn(self) -> Any:
        facts = self.db.game(self.game_id)
        assert facts is not None
        entry = REGISTRY.get(facts.game)
        assert entry is not None
        (seat,) = entry.rules.waiting_for(state_of(facts))
        user = {s: u for u, s in self.db.seats(self.game_id).items()}[seat]
        return next(p for p in self.players if p.id == user)

    def seat_of(self, player: Any) -> int:
        return self.db.seats(self.game_id)[player.id]

    def legal(self, player: Any) -> list[Action]:
        facts = self.db.game(self.game_id)
        assert facts is not None
        entry = REGISTRY.get(facts.game)
        assert entry is not None
        return entry.rules.legal_actions(state_of(facts), self.seat_of(player))

    async def open(self, game: str, options: str | None = None) -> None:
        host, *guests = self.players
        kwargs = {"name": game, **({"options": options} if options else {})}
        created = await host.slash(self.channel, "game new", **kwargs)
        assert created.response is not None
        self.game_id = self.db.last_game_id()
        for guest in guests:
            await guest.click(created.response, custom_id=f"l:{self.game_id}:join")
        await host.click(created.response, custom_id=f"l:{self.game_id}:start")
        facts = self.db.game(self.game_id)
        assert facts is not None and facts.status == "active"

    async def junk(self, *items: discord.ui.Item[Any]) -> ResponseMessage:
        """The bot posts components it never draws itself (as an older version of it might have)."""
        view = discord.ui.View(timeout=None)
        for item in items:
            view.add_item(item)
        channel = self.bot.get_channel(self.channel.id)
        assert isinstance(channel, discord.TextChannel)
        sent = await channel.send("old buttons", view=view)
        view.stop()  # only the bot's real routing answers these
        await self.env.settle()
        return clickable(self.env, self.env.backend.messages[self.channel.id][sent.id])

    def assert_clean(self, result: InteractionResult, what: str) -> None:
        """Answered, within Discord's limits, privately, with no exception anywhere."""
        reason = unanswered(result)
        assert reason is None, f"{what}: {reason}"
        assert all(len(words_of(r)) <= DISCORD_CONTENT_LIMIT for r in replies(result))
        rejected = oversized_requests(self.env, 0)
        assert not rejected, f"{what}: Discord would reject {rejected}"
        errors = self.env.errors_since(0)
        assert not errors, f"{what}: {errors!r}"
        tracebacks = [seen.line() for seen in self.tap.records if seen.traceback]
        assert not tracebacks, f"{what}: {tracebacks}"


@contextlib.asynccontextmanager
async def world(tmp_path: Path, names: tuple[str, ...] = ("ana", "bob")) -> AsyncIterator[World]:
    with quick_settle(), tapped() as tap:
        bot = make_bot(tmp_path)
        async with simcord.run(bot, strict_sync=False, check_errors=False) as env:
            db = DbPeek(tmp_path / "host.sqlite3")
            try:
                guild = env.create_guild()
                channel = guild.create_text_channel("games")
                players = [guild.add_member(env.create_user(name)) for name in names]
                stranger = guild.add_member(env.create_user("eve"))
                yield World(env, bot, db, tap, guild, channel, players, stranger)
            finally:
                db.close()
        await close_bots()


def rows(db: DbPeek) -> dict[int, RowState]:
    return db.rows()


def only_this_action(before: dict[int, RowState], db: DbPeek, game_id: int, action: Action) -> bool:
    """True if the games table moved by exactly ``action`` in ``game_id`` and nothing else."""
    after = db.rows()
    if {g: r for g, r in after.items() if g != game_id} != {g: r for g, r in before.items() if g != game_id}:
        return False
    old, new = before[game_id], after[game_id]
    logged = db.action(game_id, new.version)
    return new.version == old.version + 1 and logged is not None and logged[1] == action


# -- number forms -------------------------------------------------------------------------------------------

JUNK = (
    "--5",
    "²",
    "1²",
    "①",
    "٣",
    " ",
    "1e3",
    "0x10",
    "999999999999",
    "-99999999999",
    "-5",
    "٢",
    "２",
    "1_0",
    "½",
)


@pytest.mark.parametrize("value", JUNK)
async def test_toy_number_form_with_junk(tmp_path: Path, value: str) -> None:
    async with world(tmp_path) as w:
        await w.open("toy", "target=30")
        mover = w.on_turn()
        shown = await mover.click(w.board(), custom_id=f"m:{w.game_id}:{w.version()}:add")
        assert shown.modal is not None
        before = rows(w.db)
        result = await mover.submit_modal(shown, {"value": value})
        w.assert_clean(result, f"typing {value!r}")
        number = intended_number(value)
        if w.db.rows() != before:
            # Only a whole number may be taken, and only as itself ("٣" may count as 3).
            assert number is not None and only_this_action(
                before, w.db, w.game_id, Action("add", (number,))
            ), f"{value!r} changed the game: {reply_text(result)!r}"
        else:
            assert result.ephemeral, f"a refusal of {value!r} is private"


@pytest.mark.parametrize("value", ("--5", "²", "①", "٣", "1e3", "0x10", "999999999999", "-3", "1_0"))
async def test_estates_bid_form_with_junk(tmp_path: Path, value: str) -> None:
    async with world(tmp_path, ("ana", "bob", "cy")) as w:
        await w.open("estates")
        auctioneer = w.on_turn()
        pick = next(a for a in w.legal(auctioneer) if a.kind == "pick")
        await auctioneer.click(w.board(), custom_id=f"g:{w.game_id}:{w.version()}:{pick.encode()}")
        bidder = w.on_turn()
        shown = await bidder.click(w.board(), custom_id=f"m:{w.game_id}:{w.version()}:bid")
        assert shown.modal is not None
        before = rows(w.db)
        result = await bidder.submit_modal(shown, {"value": value})
        w.assert_clean(result, f"bidding {value!r}")
        number = intended_number(value)
        if w.db.rows() != before:
            assert number is not None and only_this_action(
                before, w.db, w.game_id, Action("bid", (number,))
            ), f"{value!r} changed the game: {reply_text(result)!r}"


# -- oversized and odd commands ----------------------------------------------------------------------------

OVERSIZED = (
    pytest.param("game new", {"name": "x" * 3000}, id="new-name-3000"),
    pytest.param("game new", {"name": "🎲" * 6000}, id="new-name-6000-emoji"),
    pytest.param("game new", {"name": "toy", "options": "x" * 3000}, id="new-options-3000"),
    pytest.param("game new", {"name": "toy", "options": "a=b " * 1500}, id="new-options-1500-pairs"),
    pytest.param("game new", {"name": "toy", "options": "target=" + "9" * 5993}, id="new-target-5993-digits"),
    pytest.param(
        "game new", {"name": "estates", "options": "rounds=" + "9" * 4400}, id="new-rounds-4400-digits"
    ),
    pytest.param(
        "game new", {"name": "estates", "options": "rounds=" + "9" * 2993}, id="new-rounds-2993-digits"
    ),
    pytest.param("game rules", {"name": "x" * 3000}, id="rules-name-3000"),
    pytest.param("game rules", {"name": "é" * 6000}, id="rules-name-6000-accents"),
)


@pytest.mark.parametrize(("command", "options"), OVERSIZED)
async def test_oversized_options_get_a_short_private_answer(
    tmp_path: Path, command: str, options: dict[str, str]
) -> None:
    async with world(tmp_path) as w:
        result = await w.players[0].slash(w.channel, command, **options)
        w.assert_clean(result, f"/{command}")
        assert result.response is not None and len(words_of(result.response)) <= DISCORD_CONTENT_LIMIT
        assert result.ephemeral
        assert w.db.games() == [], "nothing was created"
        direct = await w.env.create_user("dmitri").slash(command, **options)
        w.assert_clean(direct, f"/{command} in a DM")


async def test_tables_that_are_not_here(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await w.open("toy")
        elsewhere = w.env.create_guild()
        far_channel = elsewhere.create_text_channel("games")
        far_host = elsewhere.add_member(w.env.create_user("gus"))
        created = await far_host.slash(far_channel, "game new", name="toy")
        assert created.response is not None
        far_id = w.db.last_game_id()
        before = rows(w.db)
        for command in ("game show", "game export", "game leave", "game abandon"):
            for table in (10**6, 0, -1, 2**53 - 1, -(2**53 - 1), far_id):
                for who in (w.players[0], w.stranger):
                    result = await who.slash(w.channel, command, table=table)
                    w.assert_clean(result, f"/{command} table={table}")
                    assert result.ephemeral
            result = await far_host.slash(far_channel, command, table=w.game_id)
            w.assert_clean(result, f"/{command} of another server's table")
        assert w.db.rows() == before, "no table changed"


# -- ids the bot never draws --------------------------------------------------------------------------------


async def test_ids_with_another_components_prefix_are_answered(tmp_path: Path) -> None:
    """A form's id (``n:``) or a select's id (``s:``) on a button; ids with a line break; a button's id on
    a select: each gets an answer and changes nothing."""
    async with world(tmp_path) as w:
        await w.open("toy")
        gid, pv = w.game_id, w.version()
        odd = (
            f"n:{gid}:{pv}:add",
            f"s:{gid}:{pv}:pick6",
            f"g:{gid}:{pv}:add.1\n",
            f"u:{gid}:{pv}:secret\n",
            f"m:{gid}:{pv}:add\n",
        )
        message = await w.junk(
            *(discord.ui.Button(label=f"b{i}", custom_id=cid) for i, cid in enumerate(odd)),
            discord.ui.Select(
                custom_id=f"n:{gid}:{pv}:bid", options=[discord.SelectOption(label="one", value="add.1")]
            ),
        )
        before = rows(w.db)
        mover = w.on_turn()
        for cid in odd:
            w.assert_clean(await mover.click(message, custom_id=cid), f"button {cid!r}")
        w.assert_clean(
            await mover.select(message, ["add.1"], custom_id=f"n:{gid}:{pv}:bid"), "a select with a form's id"
        )
        assert w.db.rows() == before


async def test_ids_with_non_ascii_digits_change_nothing(tmp_path: Path) -> None:
    """The bot writes ids with ASCII digits; "g:١:0:add.1" or a select value "add.１" is not one of them."""
    async with world(tmp_path) as w:
        await w.open("toy")
        gid, pv = w.game_id, w.version()
        arabic = "".join("٠١٢٣٤٥٦٧٨٩"[int(d)] for d in str(gid))
        wide = "".join("０１２３４５６７８９"[int(d)] for d in str(pv))
        odd = (f"g:{arabic}:{pv}:add.1", f"g:{gid}:{wide}:add.1", f"g:{gid}:{pv}:add.١")
        message = await w.junk(
            *(discord.ui.Button(label=f"b{i}", custom_id=cid) for i, cid in enumerate(odd))
        )
        before = rows(w.db)
        mover = w.on_turn()
        for cid in odd:
            result = await mover.click(message, custom_id=cid)
            w.assert_clean(result, f"button {cid!r}")
            assert w.db.rows() == before, f"{cid!r} moved the game"


@pytest.mark.parametrize("value", ("add.１", "add.٢", "add.01", "knock.x", "add.1.1"))
async def test_select_values_the_bot_never_draws_change_nothing(tmp_path: Path, value: str) -> None:
    """A select drawn for this very table and version, with a value the bot would never write.

    ``add.１`` and ``add.01`` read as ``add.1``; ``knock.x`` is a knock with an argument that
    ``legal_actions`` never offers (the rules contract wants it refused, not ignored)."""
    async with world(tmp_path) as w:
        await w.open("toy")
        board = live_board(w.env, w.thread_id, w.game_id)
        select = next(c for c in custom_ids(board) if c.startswith("s:"))
        message = await w.junk(
            discord.ui.Select(custom_id=select, options=[discord.SelectOption(label="odd", value=value)])
        )
        before = rows(w.db)
        result = await w.on_turn().select(message, [value], custom_id=select)
        w.assert_clean(result, f"select value {value!r}")
        assert w.db.rows() == before, f"select value {value!r} moved the game"
