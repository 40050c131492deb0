"""Monopoly's open auctions (``auction=open``, the default) through the real discord.py path (SimCord).

Ana, Bo and Cy sit at a table whose first turn stands on Castro Street, unowned (an arranged
start, kept across a restart), and Ana sends it to auction.  Then:

- clicks: bids out of turn order, a pass, only the player just outbid pinged (read from each
  message's allowed mentions), the high bidder's own click refused privately, a typed bid, the win;
- the clock: nobody clicks and after 24 hours one tick passes for everyone still in, the high
  bidder wins (or nobody bid and it stays with the bank), across a restart, under one line saying
  whose time ran out; ``/game clock`` moving the table's timer does not move the auction's;
- a bot at the table bids or passes on its own while people bid around it;
- a French table words it all in French.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import discord
import simcord

from benchmarks.torture_discord_common import quick_settle
from bot.client import GameBot
from harness.messages import Table, labels, response_of, words_of
from rules.monopoly import MonopolyRules, MonopolyState, parse_space
from rules.monopoly.builder import MonopolyBuilder
from rules.monopoly.state import BUY
from tests.helpers import ArrangedSetup, en, fr
from tests.simcord import make_bot, member_at, private_text, public_click, saved_state

HOUR = 3600.0
MINUTE = 60.0
CASTRO = parse_space("castro-street")
Register = Callable[[MonopolyRules], None]


class Arranged(ArrangedSetup, MonopolyRules):
    """Monopoly whose first turn is seat 0's, standing on unowned Castro Street ($60)."""


def on_castro(state: MonopolyState) -> None:
    MonopolyBuilder.of(state).started(first=0).at(0, CASTRO).on_turn(0, BUY)


@contextlib.asynccontextmanager
async def running(bot: GameBot) -> AsyncIterator[simcord.Env]:
    """SimCord with cheap virtual minutes, so the scheduler's loop can run a day in a test."""
    with quick_settle():
        async with simcord.run(bot, strict_sync=False, settle_timeout=60) as env:
            yield env


async def open_table(
    env: simcord.Env, names: list[str], *, language: str = "en", options: str | None = None, bots: int = 0
) -> Table:
    t = fr if language == "fr" else en
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    players = [guild.add_member(env.create_user(name)) for name in names]
    kwargs: dict[str, Any] = {"name": "monopoly", "language": language}
    if options:
        kwargs["options"] = options
    created = await players[0].slash(channel, "game new", **kwargs)
    lobby = response_of(created).message
    for player in players[1:]:
        await player.click(lobby, label=t("host.lobby.join"))
    for _ in range(bots):
        await players[0].click(lobby, label=t("host.lobby.bot_normal"))
    await players[0].click(lobby, label=t("host.lobby.start"))
    return Table(env, channel, players)


def pinged(env: simcord.Env, message: discord.Message) -> set[int]:
    """Whom a message notified (its allowed mentions), as SimCord stored it."""
    return set(env.backend.get_message(message.channel.id, message.id).ping_user_ids)


def clock_stamp(message: discord.Message) -> int:
    """The auction clock's end, read from the ``<t:…:R>`` timestamp on the table."""
    found = re.search(r"Closes <t:(\d+):R> unless someone bids\.", words_of(message))
    assert found is not None, words_of(message)
    return int(found.group(1))


async def cast(bot: GameBot, table: Table) -> tuple[Any, Any, Any]:
    first, second, third = [await member_at(bot, table, seat) for seat in range(3)]
    return first, second, third


async def test_an_open_auction_played_by_clicks(tmp_path: Path, registered: Register) -> None:
    registered(Arranged(on_castro))
    bot = make_bot(tmp_path)
    async with running(bot) as env:
        table = await open_table(env, ["ana", "bo", "cy"])
        a, b, c = await cast(bot, table)
        await public_click(table, a, "Auction it")
        board = table.table_message()
        said = words_of(board)
        assert (
            f"Up for auction (not bought): Castro Street. Open bidding for {b.name}, {c.name} and {a.name},"
            " in any order; each bid gives the others 24 h to raise." in table.recent()
        )
        assert (
            f"Open auction of Castro Street: no bid yet · still bidding: {b.name}, {c.name} and {a.name}."
            in said
        )
        started = (await bot.sessions.load(1)).row.updated_at
        assert abs(clock_stamp(board) - (started + 24 * HOUR)) < 2, "the clock ends 24 h after it opened"
        assert pinged(env, board) == {b.id, c.id}, "everyone still in is told once (Ana just clicked)"
        assert {"Bid $1", "Bid $2", "Bid $3", "Bid $6", "Other amount…", "Pass"} <= set(labels(board))

        # Cy bids first, out of turn order: nobody new is waited on, so the board is edited in place.
        count = len(table.messages())
        await public_click(table, c, "Bid $2")
        assert f"{c.name} bids $2." in table.recent() and len(table.messages()) == count
        # Bo outbids Cy ($3 is the least now, $8 a jump): a new board, which pings Cy alone, and
        # carries the auction's lines on; the old one goes, so the thread keeps one message.
        old = table.table_message().id
        await public_click(table, b, "Bid $8")
        board = table.table_message()
        assert board.id != old and old not in [m.id for m in table.messages()]
        assert f"{c.name} bids $2." in words_of(
            board
        ) and f"{b.name} bids $8 (outbids {c.name})." in words_of(board)
        assert len(table.messages()) == count and pinged(env, board) == {c.id}
        assert f"high bid $8 by {b.name} · still bidding: {c.name} and {a.name}." in words_of(board)
        # The high bidder may neither bid nor pass: told privately why, nothing changes.
        refused = await b.click(board, label="Bid $9")
        assert refused.ephemeral
        assert (
            private_text(refused)
            == "You hold the high bid ($8): wait until someone bids more, or the others pass."
        )
        assert table.table_message().id == board.id and len(table.messages()) == count
        # Ana passes: no new message, her name moves to "Passed".
        await public_click(table, a, "Pass")
        assert len(table.messages()) == count and f"{a.name} passes." in table.recent(1)
        assert f"Passed: {a.name}." in words_of(table.table_message())
        # Cy types a bid: Bo, outbid, is pinged on a new board.
        form = await c.click(table.table_message(), label="Other amount…")
        assert form.modal is not None
        await c.submit_modal(form, {"value": "20"})
        board = table.table_message()
        assert f"{c.name} bids $20 (outbids {b.name})." in table.recent()
        assert pinged(env, board) == {b.id}
        # Bo passes: everyone else has passed, so Cy wins.
        await public_click(table, b, "Pass")
        assert f"{c.name} wins Castro Street for $20." in table.recent(3)
        auction = [m for m in table.messages() if "Up for auction" in words_of(m)]
        assert len(auction) == 1, "the whole auction reads as one message of the thread"
        assert f"{c.name} bids $20 (outbids {b.name})." in words_of(auction[0])
        state = await saved_state(bot)
        assert state.owner[CASTRO] == 2 and state.auction is None


async def test_the_clock_closes_the_auction_after_a_restart_and_one_line_says_so(
    tmp_path: Path, registered: Register
) -> None:
    registered(Arranged(on_castro))
    bot = make_bot(tmp_path)
    async with running(bot) as env:
        table = await open_table(env, ["ana", "bo", "cy"])
        a, b, c = await cast(bot, table)
        await public_click(table, a, "Auction it")
        await env.advance_time(5 * HOUR)
        await public_click(table, b, "Bid $3")  # the clock starts again: 24 h from now
        ends = clock_stamp(table.table_message())
        bot = make_bot(tmp_path)
        await env.restart_bot(bot)
        await env.advance_time(24 * HOUR - 2 * MINUTE)
        assert (await saved_state(bot)).auction is not None, "19 h after it opened it is still open"
        assert clock_stamp(table.table_message()) == ends
        await env.advance_time(4 * MINUTE)
        state = await saved_state(bot)
        assert state.auction is None and state.owner[CASTRO] == 1 and state.cash[1] == 1500 - 3
        thread = "\n".join(words_of(m) for m in table.messages())
        ran_out = f"⏰ Time ran out for {a.name} and {c.name}: {a.name} and {c.name} pass."
        assert thread.count("Time ran out") == 1 and ran_out in thread, thread
        assert f"{b.name} wins Castro Street for $3." in thread


async def test_nobody_bids_before_the_clock_runs_out(tmp_path: Path, registered: Register) -> None:
    registered(Arranged(on_castro))
    bot = make_bot(tmp_path)
    async with running(bot) as env:
        table = await open_table(env, ["ana", "bo", "cy"])
        a, _b, _c = await cast(bot, table)
        await public_click(table, a, "Auction it")
        # The host shortens the table's timer to 2 h: the auction keeps its own 24 h clock.
        answer = await table.players[0].slash(table.thread, "game clock", timer="2h")
        assert "Table #1 now runs on:" in private_text(answer) + words_of(answer.response), words_of(
            answer.response
        )
        await env.advance_time(3 * HOUR)
        assert (await saved_state(bot)).auction is not None, "the table's timer does not close an auction"
        await env.advance_time(21 * HOUR + MINUTE)
        state = await saved_state(bot)
        assert state.auction is None and state.owner[CASTRO] is None
        assert "Nobody bids: Castro Street stays with the bank." in "\n".join(
            words_of(m) for m in table.messages()
        )


async def test_a_bot_bids_in_an_open_auction(tmp_path: Path, registered: Register) -> None:
    registered(Arranged(on_castro))
    bot = make_bot(tmp_path)
    async with running(bot) as env:
        table = await open_table(env, ["ana", "bo"], bots=1)
        game = await bot.sessions.load(1)
        robot = next(seat for seat in range(3) if game.is_bot(seat))
        a = await member_at(bot, table, 0)
        await public_click(table, a, "Auction it")
        await bot.bots.idle()
        game = await bot.sessions.load(1)
        auction = game.state.auction
        assert robot not in game.waiting(), "the bot answered the auction on its own"
        thread = "\n".join(words_of(m) for m in table.messages())
        assert re.search(r"Ada \(bot\) (bids \$\d+|passes)\.", thread), thread
        assert auction is not None and (auction.high_bidder == robot or robot in auction.passed)
        if auction.high_bidder == robot:  # outbid, the bot is waited on again and answers again
            person = next(p for p in table.players if game.seat_of(p.id) in game.waiting())
            await public_click(table, person, f"Bid ${auction.high + 1}")
            await bot.bots.idle()
            again = await bot.sessions.load(1)
            assert robot not in again.waiting()
            assert again.state.auction is None or again.state.auction.bids >= 2


async def test_a_french_table_words_the_open_auction(tmp_path: Path, registered: Register) -> None:
    registered(Arranged(on_castro))
    bot = make_bot(tmp_path)
    async with running(bot) as env:
        table = await open_table(env, ["ana", "bo", "cy"], language="fr")
        a, b, c = await cast(bot, table)
        await public_click(table, a, fr("monopoly.button.decline"))
        said = words_of(table.table_message())
        assert "Enchères ouvertes pour Castro Street : pas encore d'offre · encore en lice" in said, said
        assert "Clôture <t:" in said
        await public_click(table, c, "Miser 2 $")
        await public_click(table, b, "Miser 8 $")
        assert f"{b.name} surenchérit sur {c.name} : 8 $." in table.recent()
        refused = await b.click(table.table_message(), label="Miser 9 $")
        assert private_text(refused).startswith("Vous tenez la meilleure enchère (8 $)")
        await public_click(table, a, "Passer")
        assert f"Ont passé : {a.name}." in words_of(table.table_message())
