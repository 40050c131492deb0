"""A number form takes both of its bounds and nothing beyond them, through the real path (SimCord,
a Monopoly auction's "Other amount…"): the form's label says "1 to 1,500", so 1 and 1,500 are bids
and 0 and 1,501 are refused, with the bounds written as the label writes them.

The form tests elsewhere type numbers well inside or well outside the bounds, so a check that
left out the largest number (``number < maximum``) or the smallest passed them.

"Try again" after a refusal reopens the form only while the game is at the version the form was
opened at (``Clicks._seated(..., fresh=True)``): pressed again once a bid has moved the auction on,
it opens nothing and says the board moved on.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import simcord

from bot.client import GameBot
from harness.messages import Table
from rules.monopoly import MonopolyRules, MonopolyState, parse_space
from rules.monopoly.builder import MonopolyBuilder
from tests.helpers import ArrangedSetup, en
from tests.simcord import make_bot, member_at, open_table, panel, pinned_seed, private_text, saved_state

fixed_seed = pinned_seed()

CASH = 1500
OTHER = en("host.auction.other")
AGAIN = en("host.amount.again")


class Arranged(ArrangedSetup, MonopolyRules):
    """Monopoly whose ``setup`` opens a round-robin auction of Castro Street at once."""


def auction_of_castro(state: MonopolyState) -> None:
    """Every seat holds $1,500; the last seat declined Castro Street, so bidding starts at seat 0."""
    builder = MonopolyBuilder.of(state).started(first=state.players - 1)
    for seat in range(state.players):
        builder.cash(seat, CASH)
    builder.auction(parse_space("castro-street"), mode="round").build()


async def versions(bot: GameBot) -> tuple[int, int]:
    game = await bot.sessions.load(1)
    return game.version, game.public_version


def out_of_range(low: str, high: str, typed: str) -> str:
    return en("host.refuse.number_range", min=low, max=high, value=typed)


async def refused(bot: GameBot, table: Table, player: Any, form: Any, typed: str) -> Any:
    """``typed`` submitted in ``form`` and refused privately, with nothing changed; the refusal."""
    before = (await versions(bot), len(table.messages()))
    result = await player.submit_modal(form, {"value": typed})
    assert result.ephemeral, f"{typed!r} was taken"
    assert (await versions(bot), len(table.messages())) == before, f"refusing {typed!r} changed something"
    return result


async def reopened(player: Any, refusal: Any) -> Any:
    """The refused form, opened again from its "Try again" (the game has not moved)."""
    form = await player.click(panel(refusal), label=AGAIN)
    assert form.modal is not None, private_text(form)
    return form


async def test_both_bounds_are_taken_and_one_beyond_each_is_refused(
    tmp_path: Path, registered: Callable[[MonopolyRules], None]
) -> None:
    registered(Arranged(auction_of_castro))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="monopoly")
        first, second = await member_at(bot, table, 0), await member_at(bot, table, 1)

        # The first bid: from 1 to all of one's cash.
        form = await first.click(table.table_message(), label=OTHER)
        assert form.modal is not None and "(1 to 1,500)" in str(form.modal), form.modal
        below = await refused(bot, table, first, form, "0")
        assert private_text(below) == out_of_range("1", "1,500", "0")
        above = await refused(bot, table, first, await reopened(first, below), "1,501")
        assert private_text(above) == out_of_range("1", "1,500", "1,501")
        taken = await first.submit_modal(await reopened(first, above), {"value": "1"})
        assert not private_text(taken).startswith("Please"), private_text(taken)
        state = await saved_state(bot)
        assert (state.auction.high, state.auction.high_bidder) == (1, 0), "the smallest bid is taken"

        # The second: above the high bid, up to all of one's cash.
        form = await second.click(table.table_message(), label=OTHER)
        assert form.modal is not None and "(2 to 1,500)" in str(form.modal), form.modal
        low = await refused(bot, table, second, form, "1")
        assert private_text(low) == out_of_range("2", "1,500", "1")
        await second.submit_modal(await reopened(second, low), {"value": "1,500"})
        state = await saved_state(bot)
        assert (state.auction.high, state.auction.high_bidder) == (CASH, 1), "the largest bid is taken"
        assert state.cash[1] == CASH, "a bid is paid only when the auction is won"

        # The first bidder's old refusal: its form was for the auction as it was, stale now.
        before = await versions(bot)
        late = await first.click(panel(below), label=AGAIN)
        assert late.modal is None, "a stale Try again opens no form"
        assert en("host.refuse.stale") in private_text(late), private_text(late)
        assert await versions(bot) == before
