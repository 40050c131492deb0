"""The whole host through discord.py's real code path, against SimCord."""

from __future__ import annotations

from pathlib import Path

import simcord

from harness.messages import Table, labels, words_of
from tests.simcord import ids, make_bot, open_table


async def play_to_end(table: Table, limit: int = 60) -> None:
    for _ in range(limit):
        live = [m for m in table.thread.history() if any(i.startswith("g:") for i in ids(m))]
        if not live:
            return
        message = live[-1]
        player = table.on_turn()
        label = "gg" if "gg" in labels(message) else "Add 3"
        result = await player.click(message, label=label)
        assert result.acknowledged
    raise AssertionError("the game did not end")


async def test_create_join_start_play_to_the_end(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        first = table.table_message()
        assert first.attachments and first.attachments[0].filename.endswith(".png")
        assert all(i.startswith(("g:", "a:", "u:", "m:", "s:")) and len(i) <= 100 for i in ids(first))
        await play_to_end(table)
        final = table.thread.history()[-1]
        assert "Final standings" in words_of(final)
        game_ids = [i for m in table.thread.history() for i in ids(m) if i.startswith(("g:", "m:", "s:"))]
        assert not game_ids, "no live game buttons after the end"
        assert labels(final) == ["Catch me up", "Rematch"]
