"""Undo with consent through the real discord.py path (SimCord): immediate, asked and accepted,
asked and refused, refused after a die or a peek at a secret, stale buttons after an undo, a
request cancelled by a new move, and a request that outlives a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import simcord

from bot.client import GameBot
from bot.services.export import export_game, replay_export
from bot.storage.codes import GameStatus
from harness.messages import Table, controls, labels, response_of, words_of
from tests.simcord import make_bot, open_table

UNDO = "Undo my last move"


def request_message(table: Table) -> Any:
    """The newest undo request in the table's thread."""
    for message in reversed(table.messages()):
        if "take back their last move" in words_of(message) and "asks" in words_of(message):
            return message
    raise AssertionError("no undo request in the thread")


def board(table: Table) -> Any:
    """The live board (the newest message with a picture and buttons; a request has no picture)."""
    for message in reversed(table.messages()):
        if controls(message) and message.attachments:
            return message
    raise AssertionError("no live board")


def refreshed(table: Table, message: Any) -> Any:
    return next(m for m in table.messages() if m.id == message.id)


async def only_game(bot: GameBot) -> Any:
    (row,) = await bot.store.games.list_games(statuses=(GameStatus.ACTIVE,))
    return await bot.sessions.load(row.id)


def private(result: Any) -> str:
    """The ephemeral text a click got (a reply or a followup)."""
    texts = [words_of(f) for f in result.followups] if result.followups else []
    if result.response is not None and getattr(result.response, "content", None):
        texts.insert(0, words_of(result.response))
    return "\n".join(texts)


async def test_an_undo_is_asked_when_the_turn_moved_on_and_done_once_all_accept(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"])
        ana = table.on_turn()
        others = [p for p in table.players if p is not ana]
        await ana.click(table.table_message(), label="Add 2")
        before = await only_game(bot)
        assert before.state.total == 2 and table.on_turn() is not ana
        asked = await ana.click(table.table_message(), label=UNDO)
        assert asked.ephemeral and "You asked" in private(asked)
        request = request_message(table)
        assert all(f"<@{p.id}>" in words_of(request) for p in others) and f"<@{ana.id}>" not in words_of(
            request
        )
        assert labels(request) == ["Accept", "Refuse"]
        # The asker cannot answer for the others.
        mine = await ana.click(request, label="Accept")
        assert "the others decide" in private(mine)
        first = await others[0].click(request, label="Accept")
        assert "Still waiting for" in private(first)
        assert (await only_game(bot)).state.total == 2, "one acceptance is not enough"
        assert others[0].name in words_of(refreshed(table, request))
        await others[1].click(refreshed(table, request), label="Accept")
        after = await only_game(bot)
        assert after.state.total == 0 and after.waiting() == {after.seat_of(ana.id)}
        assert after.public_version == before.public_version + 1, "the undo is a public change of its own"
        assert f"{ana.name} takes back their last move." in table.recent(3)
        assert table.on_turn() is ana
        assert "Everyone agreed" in words_of(refreshed(table, request))
        assert not controls(refreshed(table, request)), "an answered request keeps no buttons"
        # The log keeps the move, marked undone; the export shows it and still replays.
        entries = await bot.store.log.load_log(after.id)
        assert [e.undone for e in entries] == [1]
        await bot.store.games.set_status(
            after.id, GameStatus.FINISHED, reason=None, now=0
        )  # exports are for ended games
        data = await export_game(bot.store, after.id)
        assert data["actions"][0][2] == {"undone": True}
        assert replay_export(data, bot.registry).matches


async def test_a_refusal_keeps_the_move_and_closes_the_request(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        ana = table.on_turn()
        bob = next(p for p in table.players if p is not ana)
        await ana.click(table.table_message(), label="Add 3")
        await ana.click(table.table_message(), label=UNDO)
        request = request_message(table)
        await bob.click(request, label="Refuse")
        assert f"{bob.name} refused, so it stands" in words_of(refreshed(table, request))
        assert not controls(refreshed(table, request))
        game = await only_game(bot)
        assert game.state.total == 3 and table.on_turn() is bob
        assert await bot.store.log.fetch_undo_request(game.id) is None
        # Asking again opens a fresh request (the old one is gone, not reopened).
        again = await ana.click(board(table), label=UNDO)
        assert "You asked" in private(again)
        assert request_message(table).id != request.id


async def test_a_move_within_ones_own_turn_is_undone_at_once(tmp_path: Path) -> None:
    """Toy Market: the roller improves a lot (the game still waits only for them): immediate."""
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], game="toymarket")
        roller = table.on_turn()
        game = await only_game(bot)
        seat = game.seat_of(roller.id)
        cash = game.state.cash[seat]
        holdings = await roller.click(table.table_message(), label="My holdings…")
        improve = next(
            label for label in labels(response_of(holdings).message) if label.startswith("Improve")
        )
        await roller.click(response_of(holdings).message, label=improve)
        improved = await only_game(bot)
        assert improved.state.cash[seat] < cash
        cursor = len(table.messages())
        result = await roller.click(table.table_message(), label=UNDO)
        assert result.acknowledged
        undone = await only_game(bot)
        assert undone.state.cash[seat] == cash and sum(undone.state.levels) == 0
        assert f"{roller.name} takes back their last move." in words_of(table.table_message())
        assert not any("asks to take back" in words_of(m) for m in table.messages()[cursor:]), "nobody asked"
        assert table.on_turn() is roller


async def test_a_die_or_a_peek_cannot_be_taken_back_and_only_the_mover_may_ask(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        market = await open_table(env, ["ana", "bob"], game="toymarket")
        roller = market.on_turn()
        other = next(p for p in market.players if p is not roller)
        await roller.click(market.table_message(), label="Roll")
        # A roll cannot be taken back, so the board offers no Undo (no button that can only be refused).
        assert UNDO not in labels(market.table_message())
        assert other is not roller
        # The toy's knock shows its player their secret (a private event): no undo either.
        toy = await open_table(env, ["cy", "dee"])
        knocker = toy.on_turn()
        waiter = next(p for p in toy.players if p is not knocker)
        await knocker.click(toy.table_message(), label="Add 1")
        assert UNDO in labels(toy.table_message()), "a plain move may be taken back"
        not_yours = await waiter.click(toy.table_message(), label=UNDO)
        assert f"Only {knocker.name}, who made the last move" in private(not_yours)
        mover = toy.on_turn()
        await mover.click(toy.table_message(), label="Knock")
        assert UNDO not in labels(toy.table_message())
        assert not any("asks to take back" in words_of(m) for m in toy.messages())


async def test_buttons_drawn_before_an_undo_are_stale(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        ana = table.on_turn()
        bob = next(p for p in table.players if p is not ana)
        await ana.click(table.table_message(), label="Add 1")
        panel = response_of(await bob.click(table.table_message(), label="My secret")).message
        await ana.click(table.table_message(), label=UNDO)
        await bob.click(request_message(table), label="Accept")
        game = await only_game(bot)
        assert game.state.total == 0
        # bob's panel was drawn while it was his turn: its turn move is stale now.
        result = await bob.click(panel, label="Reroll my secret")
        assert "has changed since" in words_of(response_of(result).message)
        assert not game.state.rerolled[game.seat_of(bob.id) or 0]
        # The turn is ana's again, and the new board works.
        await ana.click(table.table_message(), label="Add 3")
        assert (await only_game(bot)).state.total == 3


async def test_any_new_move_cancels_a_request(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        ana = table.on_turn()
        bob = next(p for p in table.players if p is not ana)
        await ana.click(table.table_message(), label="Add 1")
        await ana.click(table.table_message(), label=UNDO)
        request = request_message(table)
        await bob.click(board(table), label="Add 2")
        late = await bob.click(request, label="Accept")
        assert "request is closed" in private(late)
        assert "is closed" in words_of(refreshed(table, request)) and not controls(refreshed(table, request))
        game = await only_game(bot)
        assert game.state.total == 3 and await bot.store.log.fetch_undo_request(game.id) is None
        # ana's move is no longer the last one: only bob's is.
        refused = await ana.click(board(table), label=UNDO)
        assert f"Only {bob.name}" in private(refused)


async def test_a_request_survives_a_restart(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        ana = table.on_turn()
        bob = next(p for p in table.players if p is not ana)
        await ana.click(table.table_message(), label="Add 2")
        await ana.click(table.table_message(), label=UNDO)
        request = request_message(table)
        fresh = make_bot(tmp_path)
        await env.restart_bot(fresh)
        await bob.click(request, label="Accept")
        game = await only_game(fresh)
        assert game.state.total == 0 and table.on_turn() is ana
        assert f"{ana.name} takes back their last move." in table.recent(3)
        # After another restart the board (rebuilt from the log without the move) still plays.
        await env.restart_bot(make_bot(tmp_path))
        await ana.click(table.table_message(), label="Add 1")
        assert f"{ana.name} adds 1 (total 1)" in table.recent(2)
        caught = await bob.click(table.table_message(), label="Catch me up")
        assert "adds 2" not in private(caught), "Catch me up replays the log without the move taken back"
