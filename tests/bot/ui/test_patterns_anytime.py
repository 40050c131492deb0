"""Acting while someone else is on turn: a lasting button (the engine's ``fingerprint``) stays
good across other players' moves, and one whose meaning changed redraws its panel with a line
saying so, never a dead end."""

from __future__ import annotations

from pathlib import Path

import simcord

from harness.messages import labels, response_of, words_of
from tests.simcord import ids, make_bot, open_table


async def test_a_private_panel_outlasts_other_players_moves(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"])
        mover = table.on_turn()
        idle = next(p for p in table.players if p is not mover)
        opened = await idle.click(table.table_message(), label="My secret")
        panel = response_of(opened).message
        knock = next(i for i in ids(panel) if i.endswith(":knock"))
        assert knock.startswith("a:"), "a knock means the same all race long: a lasting button"
        await mover.click(table.table_message(), label="Add 1")  # the public version moves on
        await table.on_turn().click(table.table_message(), label="Add 2")
        result = await idle.click(panel, label="Knock")
        assert result.acknowledged and "Your secret is" in words_of(result.response), "accepted, not stale"
        assert f"{idle.name} knocks" in table.recent(3)


async def test_a_button_whose_meaning_changed_redraws_its_panel(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], options="target=3")
        mover = table.on_turn()
        idle = next(p for p in table.players if p is not mover)
        opened = await idle.click(table.table_message(), label="My secret")
        panel = response_of(opened).message
        await mover.click(table.table_message(), label="Add 3")  # the race ends: knocking is over
        result = await idle.click(panel, label="Knock")
        redrawn = response_of(result).message
        assert response_of(result).ephemeral and "has changed since the button was drawn" in words_of(redrawn)
        assert "Your secret is" in words_of(redrawn) and "Knock" not in labels(redrawn), (
            "the panel as it is now"
        )
        assert "knocks" not in table.recent(3), "nothing happened"


async def test_a_turn_move_on_an_old_panel_is_still_stale(tmp_path: Path) -> None:
    """The turn's own moves have no fingerprint: a public change makes their buttons stale."""
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        mover = table.on_turn()
        idle = next(p for p in table.players if p is not mover)
        opened = await mover.click(table.table_message(), label="My secret")
        reroll = next(i for i in ids(response_of(opened).message) if i.endswith(":reroll"))
        assert reroll.startswith("g:")
        await idle.click(table.table_message(), label="Knock")
        result = await mover.click(response_of(opened).message, label="Reroll my secret")
        assert response_of(result).ephemeral and "has changed since" in words_of(response_of(result).message)
