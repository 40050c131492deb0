"""Several players choosing at once, in secret, as Last Will's discards will need, through SimCord.

Toy Market ends every round with a secret discard by every seat: the game waits for all of them
at once, each gets its own private panel from one table button, the table tells only who is still
to choose, and the choices are revealed together when the last one is in.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import discord
import simcord

from bot.client import GameBot
from harness.messages import Table, labels, words_of
from tests.bot.ui.test_patterns_offers import pings, private, public_requests, state_of
from tests.simcord import ids, make_bot, open_table, panel
from tests.toymarket.rules import CARD_VALUES

GAME = "toymarket"
CHOOSE = "Choose my discard…"


async def seats(bot: GameBot, table: Table) -> dict[int, Any]:
    """Seat -> the member sitting there."""
    game = await bot.sessions.load(1)
    found = {game.seat_of(p.id): p for p in table.players}
    return {seat: member for seat, member in found.items() if seat is not None}


def status(message: discord.Message) -> str:
    """The table's status line (the one before the mentions)."""
    return next(line for line in reversed(words_of(message).splitlines()) if line.startswith("Round "))


async def play_to_the_discards(table: Table, env: simcord.Env) -> int:
    """Every seat rolls once; the request cursor from just before the second-to-last roller was
    pinged for its turn, so every seat's first ping of this stretch is counted after it."""
    players = len(table.players)
    cursor = len(env.http_requests)
    for rolled in range(players):
        if rolled == players - 2:
            cursor = len(env.http_requests)
        await table.on_turn().click(table.table_message(), label="Roll")
    return cursor


def body(message: discord.Message) -> list[str]:
    """The event lines of a table message (without its head, status and mentions)."""
    return words_of(message).splitlines()[:-3]


def discard_button(message: discord.Message, card: int) -> str:
    found = [i for i in ids(message) if i.endswith(f":discard.{card}")]
    assert found, f"no discard of card {card} in {ids(message)}"
    return found[0]


async def test_every_seat_chooses_in_secret_on_its_own_panel(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game=GAME, options="rounds=2")
        by_seat = await seats(bot, table)
        before_last = await play_to_the_discards(table, env)
        board = table.table_message()
        assert "everyone discards one card in secret" in table.recent(2)
        assert status(board) == "Round 1 of 2: secret discards. Waiting for ana, bob and cy."
        assert all(f"<@{p.id}>" in words_of(board) for p in table.players), "the table names all three"
        # Each seat was pinged once over the last two turns: the last roller for its roll, the
        # others when the discards began (the last roller had just acted on the table).
        told = pings(env, before_last)
        assert sorted(len(t) for t in told) == [1, 2] and set().union(*told) == {p.id for p in table.players}

        state = await state_of(bot)
        hands = {seat: list(state.hands[seat]) for seat in by_seat}
        panels: dict[int, discord.Message] = {}
        for seat, member in by_seat.items():
            panels[seat] = panel(await member.click(table.table_message(), label=CHOOSE))
            assert sorted(labels(panels[seat])) == sorted(
                [f"Discard {CARD_VALUES[c]}" for c in hands[seat]] + ["Done"]
            ), "each panel shows its own seat's cards"
            assert all(discard_button(panels[seat], card) for card in hands[seat])
        assert len({p.id for p in panels.values()}) == 3

        first, second, third = sorted(by_seat)
        said_before = body(table.table_message())
        cursor = len(env.http_requests)
        picks: dict[int, int] = {}
        for seat in (first, second):
            picks[seat] = hands[seat][0]
            chosen = await by_seat[seat].click(
                panels[seat], custom_id=discard_button(panels[seat], picks[seat])
            )
            assert f"You discard a {CARD_VALUES[picks[seat]]}" in private(chosen)
        board = table.table_message()
        assert status(board) == f"Round 1 of 2: secret discards. Waiting for {by_seat[third].name}."
        assert pings(env, cursor) == [], "one fewer to wait for is an edit, not a new ping"
        seen = json.dumps([r.json for r in public_requests(env, cursor)], ensure_ascii=False)
        for card in picks.values():
            assert f"discard.{card}" not in seen and "You discard" not in seen
        assert "revealed" not in seen
        assert body(board) == said_before, "a secret choice adds no line to the table"
        again = panel(await by_seat[first].click(board, label=CHOOSE))
        assert f"You chose to discard a {CARD_VALUES[picks[first]]}" in words_of(again) and not labels(again)

        picks[third] = hands[third][-1]
        await by_seat[third].click(panels[third], custom_id=discard_button(panels[third], picks[third]))
        revealed = ", ".join(f"{by_seat[s].name} {CARD_VALUES[picks[s]]}" for s in sorted(by_seat))
        assert f"Discards revealed, each paid in cash: {revealed}." in table.recent(3)
        assert "Round 2 of 2 begins" in table.recent(3)
        assert status(table.table_message()).startswith("Round 2 of 2: ")


async def test_panels_opened_before_the_others_chose_still_work_also_after_a_restart(
    tmp_path: Path,
) -> None:
    """Everyone opens a panel at once, then chooses in any order: other seats' choices (public
    moves: who is waited for changed) do not make a seat's own discard buttons stale."""
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game=GAME, options="rounds=1")
        by_seat = await seats(bot, table)
        await play_to_the_discards(table, env)
        state = await state_of(bot)
        panels = {
            seat: panel(await m.click(table.table_message(), label=CHOOSE)) for seat, m in by_seat.items()
        }
        order = sorted(by_seat, reverse=True)
        await by_seat[order[0]].click(
            panels[order[0]], custom_id=discard_button(panels[order[0]], state.hands[order[0]][0])
        )
        bot = make_bot(tmp_path)
        await env.restart_bot(bot)
        for seat in order[1:]:
            chosen = await by_seat[seat].click(
                panels[seat], custom_id=discard_button(panels[seat], state.hands[seat][0])
            )
            assert "You discard a" in private(chosen), "accepted, not stale"
        final = table.messages()[-1]
        assert "Final standings" in words_of(final) and "Discards revealed" in "\n".join(
            words_of(m) for m in table.messages()[-3:]
        )


async def test_only_seated_players_may_open_a_discard_panel(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], game=GAME)
        await play_to_the_discards(table, env)
        spectator = table.guild.add_member(env.create_user("eve"))
        refused = await spectator.click(table.table_message(), label=CHOOSE)
        assert "not seated" in private(refused)
