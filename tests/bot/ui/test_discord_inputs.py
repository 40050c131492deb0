"""Bad and unusual input through the real discord.py path: every answer is clear and private."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import discord
import simcord

from harness.messages import controls, labels, response_of, words_of
from tests.simcord import ids, make_bot, open_table, playable

ADD = "Add 1"


def stranger(table: Any, name: str = "eve") -> Any:
    return table.env.guild.add_member(table.env.create_user(name))


def other(table: Any, player: Any) -> Any:
    return next(p for p in table.players if p.id != player.id)


async def test_stranger_wrong_turn_and_stale_clicks_are_refused_privately(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        board = table.table_message()
        count = len(table.messages())

        eve = stranger(table)
        result = await eve.click(board, label=ADD)
        assert result.ephemeral and "not seated" in words_of(result.response)
        idle = other(table, table.on_turn())
        result = await idle.click(board, label=ADD)
        assert result.ephemeral and "not your turn" in words_of(result.response)
        assert len(table.messages()) == count, "refusals post nothing in the thread"

        mover = table.on_turn()
        await mover.click(board, label=ADD)
        game_id = int(ids(board)[0].split(":")[1])
        stale_id = next(i for i in ids(board) if i.endswith("add.2"))
        assert stale_id == f"g:{game_id}:0:add.2", "drawn for version 0"
        assert not controls(table.thread.history()[count - 1]), "the old board lost its buttons"
        fresh = table.table_message()
        assert fresh.id != board.id
        next_player = table.on_turn()
        assert _versions(tmp_path, game_id) == (1, 1)

        # A client can still show the old board (a phone that missed the update): its Add 2 is
        # a legal move for the player now on turn, but it was drawn for version 0.
        old = await post_buttons(bot, table.channel.id, [(stale_id, "old Add 2")])
        before = (len(table.messages()), words_of(fresh), ids(fresh))
        result = await next_player.click(old, label="old Add 2")
        assert result.ephemeral and "moved on" in words_of(result.response)
        assert _versions(tmp_path, game_id) == (1, 1), "the stale click changed the game"
        now = next(m for m in table.messages() if m.id == fresh.id)
        assert (len(table.messages()), words_of(now), ids(now)) == before, "the stale click changed the table"

        result = await next_player.click(fresh, label="Add 2")
        assert result.acknowledged and not result.ephemeral
        assert _versions(tmp_path, game_id) == (2, 2)


def _versions(tmp_path: Path, game_id: int) -> tuple[int, int]:
    """``(version, public_version)`` as committed, read through a connection of our own."""
    with closing(sqlite3.connect(tmp_path / "host.sqlite3")) as db:
        row = db.execute("SELECT version, public_version FROM games WHERE id = ?", (game_id,)).fetchone()
    return int(row[0]), int(row[1])


async def post_buttons(bot: Any, channel_id: int, buttons: list[tuple[str, str]]) -> discord.Message:
    """A message from the bot carrying buttons with exactly these ``(custom_id, label)`` pairs.

    Posted in the parent channel, so the table thread (and ``Table.table_message``) is untouched.
    """
    channel = bot.get_channel(channel_id)
    assert isinstance(channel, discord.abc.Messageable)
    view = discord.ui.View(timeout=None)
    for custom_id, label in buttons:
        view.add_item(discord.ui.Button(label=label, custom_id=custom_id))
    sent = await channel.send("buttons", view=view)
    return sent


async def test_double_click_applies_once(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        # Four players seated? No: two; the idle player's knock keeps the waiting set, so the table is edited.
        board = table.table_message()
        idle = other(table, table.on_turn())
        first = await idle.click(board, label="Knock")
        assert first.acknowledged
        assert any("Your secret is" in words_of(f) and f.ephemeral for f in first.followups)
        edited = table.table_message()
        assert edited.id == board.id, "same waiting set: the table message is edited in place"
        assert "knocks" in words_of(edited)
        again = await idle.click(edited, label="Knock")
        assert again.ephemeral and "already knocked" in words_of(again.response)


async def test_form_with_bad_numbers_and_private_panel(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        mover = table.on_turn()
        shown = await mover.click(table.table_message(), label="Add…")
        assert shown.modal is not None
        result = await mover.submit_modal(shown, {"value": "lots"})
        assert result.ephemeral and "whole number" in words_of(result.response)
        shown = await mover.click(table.table_message(), label="Add…")
        result = await mover.submit_modal(shown, {"value": "7"})
        assert result.ephemeral and "1 to 3" in words_of(result.response)
        shown = await mover.click(table.table_message(), label="Add…")
        result = await mover.submit_modal(shown, {"value": "2"})
        assert result.acknowledged and not result.ephemeral
        assert "adds 2" in table.recent()

        panel = await mover.click(table.table_message(), label="My secret")
        assert panel.ephemeral and "Your secret is" in words_of(panel.response)
        eve = stranger(table)
        nosy = await eve.click(table.table_message(), label="My secret")
        assert nosy.ephemeral and "not seated" in words_of(nosy.response)
        for message in table.messages():
            assert "secret is" not in words_of(message)


async def test_malformed_and_foreign_custom_ids(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana"])
        channel = bot.get_channel(table.thread.id)
        assert isinstance(channel, discord.Thread)
        view = discord.ui.View(timeout=None)
        for custom_id, label in (
            ("g:12:zz:add.1", "bad ref"),
            ("g:1:0:add..", "bad action"),
            ("zz:1", "foreign"),
            ("l:1:explode", "bad lobby"),
            ("u:1", "bad panel"),
        ):
            view.add_item(discord.ui.Button(label=label, custom_id=custom_id))
        await channel.send("junk", view=view)
        await env.settle()
        junk = table.thread.history()[-1]
        ana = table.players[0]
        for label in ("bad ref", "bad action", "bad lobby", "bad panel"):
            result = await ana.click(junk, label=label)
            assert result.ephemeral and "not one this bot made" in words_of(result.response), label
        result = await ana.click(junk, label="foreign")
        assert result.ephemeral and "older version" in words_of(result.response)


async def test_an_action_id_with_trailing_junk_is_refused_not_played(tmp_path: Path) -> None:
    """``g:<game>:<version>:add.1`` followed by anything is not an id this bot draws.

    Pressed by the player on turn at the current version, a parser that accepted the
    valid prefix would play Add 1; the player must get the malformed refusal instead.
    """
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        board = table.table_message()
        live = next(i for i in ids(board) if i.endswith(":add.1"))
        game_id = int(live.split(":")[1])
        assert live == f"g:{game_id}:0:add.1"
        junk = [(live + tail, f"junk {n}") for n, tail in enumerate((" junk", "!", ":2", ".", "/x"))]
        message = await post_buttons(bot, table.channel.id, junk)
        mover = table.on_turn()
        before = (len(table.messages()), words_of(board))
        for _, label in junk:
            result = await mover.click(message, label=label)
            assert result.ephemeral and "not one this bot made" in words_of(result.response), label
        assert _versions(tmp_path, game_id) == (0, 0), "a junk id was played"
        assert (len(table.messages()), words_of(table.table_message())) == before
        result = await mover.click(board, label=ADD)  # the real button still plays
        assert result.acknowledged and not result.ephemeral
        assert _versions(tmp_path, game_id) == (1, 1)


async def test_restart_mid_game_keeps_old_buttons_working(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        await table.on_turn().click(table.table_message(), label="Add 3")
        board = table.table_message()
        await env.restart_bot(make_bot(tmp_path))
        mover = table.on_turn()
        result = await mover.click(board, label="Add 2")
        assert result.acknowledged and not result.ephemeral
        assert "adds 2 (total 5)" in table.recent()
        # The form still routes after a restart too.
        shown = await table.on_turn().click(table.table_message(), label="Add…")
        await env.restart_bot(make_bot(tmp_path))
        result = await table.on_turn().submit_modal(shown, {"value": "1"})
        assert result.acknowledged and "adds 1 (total 6)" in table.recent()


async def test_commands(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        ana, bob = table.players
        listed = await ana.slash(table.channel, "game list")
        assert (
            listed.ephemeral and "#1" in words_of(listed.response) and "Toy Race" in words_of(listed.response)
        )

        eve = stranger(table)
        spectator = await eve.slash(table.thread, "game show")
        assert spectator.ephemeral and "Only the players" in words_of(spectator.response)
        shown = await ana.slash(table.thread, "game show")
        assert shown.ephemeral
        live = [m for m in table.messages() if controls(m)]
        assert len(live) == 1 and live[0].id == table.table_message().id

        export = await ana.slash(table.thread, "game export")
        assert export.ephemeral and "once the game is over" in words_of(export.response)

        rules = await ana.slash(table.channel, "game rules", name="toy")
        assert "Take turns" in words_of(rules.response)
        unknown = await ana.slash(table.channel, "game rules", name="chess")
        assert unknown.ephemeral and "no game called" in words_of(unknown.response)

        bad = await ana.slash(table.channel, "game new", name="toy", options="target=1000")
        assert bad.ephemeral and "between 3 and 60" in words_of(bad.response)
        nothing = await ana.slash(table.channel, "game show", table=99)
        assert nothing.ephemeral and "no table #99" in words_of(nothing.response)

        not_host = await bob.slash(table.thread, "game abandon")
        assert not_host.ephemeral and "Only the host" in words_of(not_host.response)
        done = await ana.slash(table.thread, "game abandon")
        assert done.ephemeral
        assert not any(playable(m) for m in table.messages())
        assert "abandoned by ana" in words_of(table.messages()[-1])

        export = await ana.slash(table.thread, "game export", table=1)
        data = json.loads(bytes(await response_of(export).attachments[0].read()).decode())
        assert data["game"] == "toy" and data["status"] == "abandoned" and isinstance(data["seed"], int)


async def test_leaving_a_running_game_asks_first(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        bob = table.players[1]
        asked = await bob.slash(table.thread, "game leave")
        assert asked.ephemeral and "ends it for everyone" in words_of(asked.response)
        result = await bob.click(response_of(asked).message, label="Leave and end the game")
        assert result.ephemeral
        assert "bob left the game" in words_of(table.messages()[-1])
        assert not any(playable(m) for m in table.messages())


async def test_lobby_buttons(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        ana, bob, cy = (guild.add_member(env.create_user(n)) for n in ("ana", "bob", "cy"))
        created = await ana.slash(channel, "game new", name="toy", options="target=5")
        lobby = response_of(created).message
        assert "target=5" in words_of(lobby) and set(labels(lobby)) == {
            "Join",
            "Leave",
            "Start",
            "Cancel",
            "Add a bot",
            "Add an easy bot",
        }
        await bob.click(lobby, label="Join")
        again = await bob.click(lobby, label="Join")
        assert again.ephemeral and "already seated" in words_of(again.response)
        early = await bob.click(lobby, label="Start")
        assert early.ephemeral and "Only the host" in words_of(early.response)
        await bob.click(lobby, label="Leave")
        notin = await cy.click(lobby, label="Leave")
        assert notin.ephemeral and "not seated" in words_of(notin.response)
        lobby_now = channel.history()[0]
        assert "bob" not in words_of(lobby_now)
        cancel = await cy.click(lobby_now, label="Cancel")
        assert cancel.ephemeral and "Only the host" in words_of(cancel.response)
        await ana.click(lobby_now, label="Cancel")
        assert not controls(channel.history()[0])
        assert "closed before it started" in words_of(channel.history()[0])


async def test_commands_in_direct_messages_are_refused(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        env.create_guild()
        user = env.create_user("dm")
        for command, options in (
            ("game list", {}),
            ("game new", {"name": "toy"}),
            ("game show", {}),
            ("game leave", {}),
            ("game abandon", {}),
            ("game export", {}),
        ):
            result = await user.slash(command, **options)
            assert result.ephemeral and "server channels" in words_of(result.response), command
        rules = await user.slash("game rules", name="toy")
        assert "Take turns" in words_of(rules.response)


async def test_a_player_who_left_the_server_is_unseated_before_start(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        ana, bob, cy = (guild.add_member(env.create_user(n)) for n in ("ana", "bob", "cy"))
        lobby = response_of(await ana.slash(channel, "game new", name="toy")).message
        await bob.click(lobby, label="Join")
        await cy.click(lobby, label="Join")
        guild.remove_member(bob)
        refused = await ana.click(lobby, label="Start")
        assert refused.ephemeral and "bob left this server" in words_of(refused.response)
        lobby_now = channel.history()[0]
        assert "bob" not in words_of(lobby_now) and "cy" in words_of(lobby_now)
        started = await ana.click(lobby_now, label="Start")
        assert started.acknowledged and not started.ephemeral
        assert "has started" in words_of(channel.history()[0])


async def test_out_of_turn_action_from_a_private_panel_closes_the_panel(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        idle = other(table, table.on_turn())
        panel = await idle.click(table.table_message(), label="My secret")
        assert panel.ephemeral and labels(panel.response.message) == ["Knock", "Reroll my secret"]
        result = await idle.click(panel.response.message, label="Knock")
        assert result.acknowledged
        assert "Your secret is" in words_of(result.response) and not controls(result.response.message)
        assert "knocks" in table.recent()


async def test_a_private_action_leaves_no_public_trace(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        idle = other(table, table.on_turn())
        board = table.table_message()
        before = (words_of(board), ids(board), len(table.messages()))
        panel = await idle.click(board, label="My secret")
        done = await idle.click(panel.response.message, label="Reroll my secret")
        assert "Your new secret is" in words_of(done.response) and done.response.ephemeral
        board = table.table_message()
        assert (words_of(board), ids(board), len(table.messages())) == before, "nothing public changed"
        # The buttons drawn before the private action still work (same public version).
        result = await table.on_turn().click(board, label="Add 1")
        assert result.acknowledged and not result.ephemeral


async def test_a_move_committed_just_before_a_crash_gets_its_table_after_restart(
    tmp_path: Path, monkeypatch: Any
) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        board = table.table_message()
        mover = table.on_turn()

        async def crash(self: Any, game: Any) -> None:  # the process dies right after the commit
            return None

        monkeypatch.setattr("bot.ui.publisher.Publisher.publish", crash)
        await mover.click(board, label="Add 2")
        assert table.table_message().id == board.id, "nothing was posted before the crash"
        monkeypatch.undo()
        await env.restart_bot(make_bot(tmp_path))
        fresh = table.table_message()
        assert fresh.id != board.id and "move 1" in words_of(fresh)
        assert not [m for m in table.messages() if controls(m) and m.id != fresh.id]
        result = await table.on_turn().click(fresh, label="Add 1")
        assert result.acknowledged and not result.ephemeral


async def test_a_renderer_bug_costs_the_picture_not_the_move(tmp_path: Path) -> None:
    import dataclasses

    from bot.games import REGISTRY
    from harness.toygame import ENTRY

    def broken(view: Any, names: Any, words: Any) -> bytes:
        raise RuntimeError("boom")

    REGISTRY.register(dataclasses.replace(ENTRY, renderer=broken))
    try:
        async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
            table = await open_table(env, ["ana", "bob"])
            result = await table.on_turn().click(table.table_message(), label="Add 2")
            assert result.acknowledged and not result.ephemeral
            latest = table.table_message()
            assert "adds 2" in table.recent() and not latest.attachments
    finally:
        REGISTRY.register(ENTRY)


async def test_choosing_from_a_select(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        board = table.table_message()
        select_id = next(i for i in ids(board) if i.startswith("s:"))
        wrong = await other(table, table.on_turn()).select(board, ["add.2"], custom_id=select_id)
        assert wrong.ephemeral and "not your turn" in words_of(wrong.response)
        result = await table.on_turn().select(board, ["add.2"], custom_id=select_id)
        assert result.acknowledged and not result.ephemeral
        assert "adds 2" in table.recent()
