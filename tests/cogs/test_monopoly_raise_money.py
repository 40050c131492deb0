"""Monopoly's "Raise money…" is the debtor's alone: while one player is in debt, every other
seat's "My properties" says that building and repaying wait, and offers no way into a debt
that is not theirs.

The debt tests elsewhere open the debtor's panels only, so a "My properties" that showed
"Raise money…" to everyone while anyone owed money passed them.  Here every seat's panel is read,
below Discord (the presenter) and through SimCord (the creditor clicking "My properties").
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import simcord

from bot.core.i18n import Catalog
from bot.core.registry import GameEntry
from bot.ui.presenter import Button, Panel
from cogs.monopoly import MonopolyPresenter
from harness.messages import labels, words_of
from rules.monopoly import RULES, MonopolyRules, MonopolyState
from rules.monopoly.builder import MonopolyBuilder
from rules.monopoly.state import Debt
from tests.helpers import TINY_PNG, ArrangedSetup, bare_game, en
from tests.simcord import make_bot, member_at, open_table, panel, pinned_seed

fixed_seed = pinned_seed()

RAISE = en("monopoly.button.debt")
"""The debt panel's button ("Raise money…")."""
SEE_DEBT = en("monopoly.panel.see_debt")
WAIT_DEBT = en("monopoly.panel.wait_debt")
PROPS = en("monopoly.button.props")


class Arranged(ArrangedSetup, MonopolyRules):
    """Monopoly whose ``setup`` also places the debt below (kept across a restart)."""


def seat_zero_owes_rent(state: MonopolyState) -> None:
    """Seat 0 owes seat 1 $300 rent with $100 in hand; every seat owns a property to mortgage."""
    builder = MonopolyBuilder.of(state).started(first=0).owns(0, "rodeo-drive").cash(0, 100)
    builder.owns(1, "lower-haight")
    if state.players > 2:
        builder.owns(2, "castro-street")
    state.debts.append(Debt(0, [1], 300, "rent"))  # no builder step: debts come from play


def stub_render(view: dict[str, Any], names: Any, words: Any) -> bytes:
    """A one-pixel board: the picture is not under test."""
    return TINY_PNG


def button_labels(item: Panel) -> list[str]:
    return [c.label for c in item.controls if isinstance(c, Button)]


def test_only_the_debtor_reads_raise_money_on_my_properties() -> None:
    presenter = MonopolyPresenter(Catalog.load())
    state = RULES.setup(3, {}, 5)
    seat_zero_owes_rent(state)
    game = bare_game(GameEntry(RULES, stub_render, MonopolyPresenter), state, ["p0", "p1", "p2"])

    debtor = presenter.props_panel(game, 0)
    assert button_labels(debtor)[0] == RAISE and SEE_DEBT in debtor.text
    assert WAIT_DEBT not in debtor.text

    for seat in (1, 2):  # the creditor, and a player with no part in the debt
        theirs = presenter.props_panel(game, seat)
        assert RAISE not in button_labels(theirs), (seat, button_labels(theirs))
        assert SEE_DEBT not in theirs.text, (seat, theirs.text)
        assert WAIT_DEBT in theirs.text, (seat, theirs.text)

    state.debts.clear()  # paid: nobody's panel mentions a debt any more
    for seat in range(3):
        after = presenter.props_panel(game, seat)
        assert (
            RAISE not in button_labels(after) and WAIT_DEBT not in after.text and SEE_DEBT not in after.text
        )


async def test_the_creditors_my_properties_has_no_raise_money(
    tmp_path: Path, registered: Callable[[MonopolyRules], None]
) -> None:
    registered(Arranged(seat_zero_owes_rent))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], game="monopoly")
        debtor, creditor = await member_at(bot, table, 0), await member_at(bot, table, 1)
        board = table.table_message()
        assert RAISE in labels(board), "the table shows the debt's button while someone owes"

        theirs = panel(await creditor.click(board, label=PROPS))
        assert RAISE not in labels(theirs), labels(theirs)
        assert WAIT_DEBT in words_of(theirs) and SEE_DEBT not in words_of(theirs)

        mine = panel(await debtor.click(board, label=PROPS))
        assert RAISE in labels(mine) and SEE_DEBT in words_of(mine)
