"""The story of a finished game, posted with the final standings: one message, two pictures."""

from __future__ import annotations

from pathlib import Path

import simcord

from bot.core.i18n import words
from harness.messages import alt_texts, words_of
from tests.simcord import make_bot, open_table


async def test_the_final_standings_carry_the_story_chart(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], options="target=3")
        ana = table.on_turn()
        bob = next(p for p in table.players if p is not ana)
        await ana.click(table.table_message(), label="Add 3")
        await ana.click(table.table_message(), label="gg")
        before = len(table.messages())
        await bob.click(table.table_message(), label="gg")
        final = table.messages()[-1]
        assert "Final standings" in words_of(final)
        # No extra message: the chart is the second picture of the standings' own gallery.
        assert len(table.messages()) <= before + 1
        assert [a.filename for a in final.attachments] == ["table-1.png", "story-1.png"]
        board_alt, story_alt = alt_texts(final)
        assert board_alt and story_alt
        # The alt text tells the public story of the moves played, seat by seat.
        assert story_alt.startswith(words("en")("story.image.alt_intro_other", measure="Score", count="3"))
        assert "ana" in story_alt and "bob" in story_alt
        chart = env.backend.cdn.get(final.attachments[1].url)
        assert chart is not None and bytes(chart).startswith(b"\x89PNG")
        # /game show reposts the standings with both pictures, and still one board in the thread.
        await ana.slash(table.thread, "game show")
        again = table.messages()[-1]
        assert [a.filename for a in again.attachments] == ["table-1.png", "story-1.png"]
        assert alt_texts(again)[1] == story_alt
        assert len(table.boards()) == 1
