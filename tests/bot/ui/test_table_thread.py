"""One live board per table, pings only on a change of turn, history as lines, Catch me up, the end.

Everything through discord.py's real code path against SimCord, with the toy game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import simcord

from bot.storage.codes import MessageKind
from harness.messages import Table, controls, labels, payload_words, response_of, words_of
from tests.simcord import ids, make_bot, open_table, playable


def pings(env: simcord.Env, since: int = 0) -> list[set[int]]:
    """Whom each new message since request ``since`` notified (mentioned and allowed to ping)."""
    out = []
    for entry in env.http_requests[since:]:
        if entry.method != "POST" or not entry.path.endswith("/messages") or not isinstance(entry.json, dict):
            continue
        allowed = {int(u) for u in (entry.json.get("allowed_mentions") or {}).get("users") or ()}
        content = payload_words(entry.json)
        out.append({u for u in allowed if f"<@{u}>" in content})
    return out


def live(table: Table) -> list[Any]:
    return [m for m in table.messages() if playable(m)]


async def test_one_board_a_ping_per_turn_and_history_as_lines(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        ana = table.on_turn()
        bob = next(p for p in table.players if p is not ana)
        cursor = len(env.http_requests)
        board = table.table_message()
        # Same player still waited on (an out-of-turn knock by bob): edited in place, nobody pinged.
        await bob.click(board, label="Knock")
        assert table.table_message().id == board.id and "knocks" in words_of(table.table_message())
        assert pings(env, cursor) == []
        # A change of turn: the old board folds into its lines, a new one pings only bob.
        result = await ana.click(board, label="Add 2")
        assert result.acknowledged and not result.ephemeral
        folded = next(m for m in table.messages() if m.id == board.id)
        assert "adds 2" in words_of(folded) and "knocks" in words_of(folded)
        assert words_of(folded).startswith("The game of Toy Race begins!"), "the first turn keeps its opening"
        assert not folded.attachments and not controls(folded) and "<@" not in words_of(folded)
        assert pings(env, cursor) == [{bob.id}]
        assert len(table.boards()) == 1 and len(live(table)) == 1
        # Every click on the live board is answered by the edit itself: one call, no defer.
        cursor = len(env.http_requests)
        await bob.click(table.table_message(), label="Add 1")
        calls = [(e.method, e.path.split("/")[1]) for e in env.http_requests[cursor:]]
        assert calls == [("POST", "interactions"), ("POST", "channels")], calls
        assert pings(env, cursor) == [{ana.id}]
        assert len(table.boards()) == 1


async def test_a_restart_keeps_the_turns_lines(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        ana = table.on_turn()
        bob = next(p for p in table.players if p is not ana)
        await ana.click(table.table_message(), label="Add 1")
        await ana.click(table.table_message(), label="Knock")
        await env.restart_bot(make_bot(tmp_path))
        cursor = len(env.http_requests)
        await bob.click(table.table_message(), label="Knock")
        content = words_of(table.table_message())
        assert f"{ana.name} knocks" in content and f"{bob.name} knocks" in content, (
            "lines rebuilt from the log"
        )
        assert content.count("knocks") == 2, "the newest move is told once"
        assert pings(env, cursor) == [], "the restart does not re-ping bob"


async def test_catch_me_up_lists_what_happened_since_my_last_move(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"])
        ana = table.on_turn()
        await ana.click(table.table_message(), label="Add 1")
        bob = table.on_turn()
        await bob.click(table.table_message(), label="Knock")  # private: bob peeks at his secret
        await bob.click(table.table_message(), label="Add 2")
        cy = table.on_turn()
        await cy.click(table.table_message(), label="Add 3")
        answer = await ana.click(table.table_message(), label="Catch me up")
        text = words_of(answer.response)
        assert answer.ephemeral and "Since your last move" in text
        assert f"{bob.name} knocks" in text and f"{bob.name} adds 2" in text and f"{cy.name} adds 3" in text
        assert f"{ana.name} adds 1" not in text, "her own move is not news"
        assert f"Waiting for {ana.name}" in text
        news = words_of((await bob.click(table.table_message(), label="Catch me up")).response)
        assert f"{cy.name} adds 3" in news and f"{bob.name} adds 2" not in news
        spectator = table.guild.add_member(env.create_user("eve"))
        seen = words_of((await spectator.click(table.table_message(), label="Catch me up")).response)
        assert (
            "What happened so far" in seen and f"{ana.name} adds 1" in seen and "secret" not in seen.lower()
        )


async def test_catch_me_up_does_not_count_hidden_moves(tmp_path: Path) -> None:
    """A reroll is private: nobody else may notice it, not even as one more move in the count."""
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        ana = table.on_turn()
        bob = next(p for p in table.players if p is not ana)
        await ana.click(table.table_message(), label="Add 1")
        rerolled = await bob.click(table.table_message(), label="My secret")
        await bob.click(response_of(rerolled).message, label="Reroll my secret")
        await bob.click(table.table_message(), label="Add 2")
        text = words_of((await ana.click(table.table_message(), label="Catch me up")).response)
        assert "(1 move)" in text and "reroll" not in text.lower(), text


async def test_the_end_pings_everyone_and_offers_a_rematch(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], options="target=3")
        ana = table.on_turn()
        bob = next(p for p in table.players if p is not ana)
        await ana.click(table.table_message(), label="Add 3")
        cursor = len(env.http_requests)
        cheer = table.table_message()
        await ana.click(cheer, label="gg")
        # Both were told when the race ended; one fewer to wait for is an edit, not a new ping.
        assert table.table_message().id == cheer.id and pings(env, cursor) == []
        await bob.click(table.table_message(), label="gg")
        final = table.messages()[-1]
        assert "Final standings" in words_of(final) and final.attachments
        assert {ana.id, bob.id} in pings(env, cursor)
        assert labels(final) == ["Catch me up", "Rematch"]
        assert len(table.boards()) == 1 and not live(table)
        # Export and show from the finished game's own thread.
        export = await bob.slash(table.thread, "game export")
        assert export.ephemeral and response_of(export).attachments
        shown = await ana.slash(table.thread, "game show")
        assert shown.acknowledged and "Here is table #1" in words_of(
            (shown.followups or [response_of(shown)])[-1]
        )
        assert len(table.boards()) == 1 and "Final standings" in words_of(table.messages()[-1])
        # Rematch: a new lobby in the channel, same options, pinging the others; a second click finds it.
        final = table.messages()[-1]
        spectator = table.guild.add_member(env.create_user("eve"))
        refused = await spectator.click(final, label="Rematch")
        assert refused.ephemeral and "not seated" in words_of(refused.response)
        cursor = len(env.http_requests)
        opened = await bob.click(final, label="Rematch")
        assert "Table #2 is open for the rematch" in words_of((opened.followups or [response_of(opened)])[-1])
        lobby = next(m for m in reversed(table.channel.history()) if "Join" in labels(m))
        assert "**Rematch** of table #1" in words_of(lobby) and "target" in words_of(lobby)
        assert {ana.id} in pings(env, cursor)
        again = await ana.click(final, label="Rematch")
        assert "already open" in words_of(again.response) and "#2" in words_of(again.response)
        await ana.click(lobby, label="Join")
        await bob.click(lobby, label="Start")
        rematch = table.channel.threads[-1]
        assert any(i.startswith("g:2:") for m in rematch.history() for i in ids(m))


async def test_game_show_reposts_without_pinging(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        ana = table.players[0]
        await ana.click(table.table_message(), label="Knock")
        old = table.table_message()
        cursor = len(env.http_requests)
        shown = await ana.slash(table.thread, "game show")
        assert shown.acknowledged
        fresh = table.table_message()
        assert fresh.id != old.id and "ana knocks" in words_of(fresh), "the turn's lines come along"
        assert old.id not in [m.id for m in table.messages()], "the old board is gone"
        assert pings(env, cursor) == [set()]
        assert len(table.boards()) == 1


async def test_an_old_board_left_live_is_stripped_by_the_sweep(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        first = table.table_message()
        await table.on_turn().click(first, label="Add 1")
        # As if folding the first board had failed: its row is live again beside the new one.
        await bot.store.messages.add_message(1, first.channel.id, first.id, MessageKind.TABLE, 0, since=0)
        assert await bot.store.messages.list_games_behind_their_table() == [1]
        await env.advance_time(125)  # the minutely sweep
        assert await bot.store.messages.list_games_behind_their_table() == []
        assert [m.message_id for m in await bot.store.messages.fetch_live_messages(1, MessageKind.TABLE)] == [
            table.table_message().id
        ]


async def test_a_click_that_would_wait_for_a_slow_post_is_acknowledged_first(tmp_path: Path) -> None:
    """Discord gives a click three seconds: one that queues behind another post is deferred."""
    import asyncio

    from bot.ui.publisher import LOCK_PATIENCE, Publisher, _Shown

    class Response:
        deferred = False

        def is_done(self) -> bool:
            return self.deferred

        async def defer(self, **_: Any) -> None:
            self.deferred = True

    class Click:
        id = 1
        client = None
        response = Response()

    shown = _Shown()
    await shown.lock.acquire()  # another post of this table is under way
    click: Any = Click()
    entered = asyncio.Event()

    async def publish() -> None:
        # Deliberately no publisher: ``_holding`` uses only the table's lock and the click.
        async with Publisher._holding(None, shown, click):  # type: ignore[arg-type]
            entered.set()

    task = asyncio.create_task(publish())
    await asyncio.sleep(LOCK_PATIENCE + 0.2)
    assert click.response.deferred and not entered.is_set()
    shown.lock.release()
    await task
    assert entered.is_set()


def test_catch_up_keeps_the_newest_lines_that_fit_one_message(tmp_path: Path) -> None:
    from bot.ui.clicks import Clicks
    from bot.ui.publisher import Publisher

    publisher: Any = Publisher.__new__(Publisher)
    publisher.catalog = make_bot(tmp_path).catalog
    clicks: Any = Clicks.__new__(Clicks)
    clicks.publisher = publisher
    lines = [f"move {n}: someone did something rather long to describe" for n in range(200)]
    text = Clicks._fit(clicks, "en", "HEAD", lines, ["private", "status"])
    assert len(text) <= 2000 and text.startswith("HEAD") and text.endswith("private\nstatus")
    assert "move 199" in text and "move 0:" not in text and "earlier lines not shown" in text
