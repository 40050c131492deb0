"""Issue 25, finding 6: a Monopoly deal's cash form opened before the game moved on must not change
the private draft afterwards.  It is refused as a stale button on a private panel is (the same
line, the draft panel redrawn as it stands), and the draft holds what it held.

On today's main before the fix the form was taken (the engine's fingerprint of a draft's cash
action does not change with a roll) and the draft asked for the typed $300.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import simcord

from harness.messages import words_of
from rules.monopoly import MonopolyRules, MonopolyState
from rules.monopoly.builder import MonopolyBuilder
from tests.cogs.test_monopoly_discord import DEAL, Arranged
from tests.helpers import en
from tests.simcord import (
    make_bot,
    member_at,
    open_table,
    panel,
    private_text,
    public_click,
    saved_state,
    select_id,
)


def haight(state: MonopolyState) -> None:
    """Seat 0 is on turn and owns Lower Haight."""
    MonopolyBuilder.of(state).started(first=0).owns(0, "lower-haight")


async def test_a_deal_cash_form_opened_before_a_roll_is_refused_as_stale(
    tmp_path: Path, registered: Callable[[MonopolyRules], None]
) -> None:
    registered(Arranged(haight))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], game="monopoly")
        mover = await member_at(bot, table, 0)
        idle = await member_at(bot, table, 1)
        whom = panel(await idle.click(table.table_message(), label=DEAL))
        draft = panel(await idle.click(whom, label=mover.name))
        draft = panel(await idle.select(draft, ["want.6"], custom_id=select_id(draft, "want.6")))
        form = await idle.click(draft, label="Cash you give…")
        assert form.modal is not None
        before = (await saved_state(bot)).drafts[1]
        assert before is not None and before.give.cash == 0

        await public_click(table, mover, "Roll")  # the game moves on publicly
        late = await idle.submit_modal(form, {"value": "300"})

        said = private_text(late)
        assert said.startswith(en("host.refuse.changed")), said  # a stale private button's line
        assert "$300" not in words_of(panel(late)), "the draft panel as it stands"
        after = (await saved_state(bot)).drafts[1]
        assert after is not None and after.give.cash == 0 and after.want.props == [6], "draft unchanged"

        # The same form opened now is taken: only the stale one was refused.
        fresh = await idle.click(panel(late), label="Cash you give…")
        assert fresh.modal is not None
        taken = panel(await idle.submit_modal(fresh, {"value": "300"}))
        assert "$300" in words_of(taken)
        assert (await saved_state(bot)).drafts[1].give.cash == 300
