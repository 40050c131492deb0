"""Any list of controls fits Discord's limits: pages, split selects, multi-selects, panels that
stay open on their next step, and forms whose action carries leading arguments."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.ui.clicks import _chosen
from bot.ui.components import MAX_ROWS, Malformed, build_view, item_rows, layout, page_code, parse_page
from bot.ui.presenter import Button, Choice, Panel, Select
from harness.messages import labels, response_of, words_of
from rules.core import Action
from tests.simcord import ids, make_bot, open_table


def many(count: int, *, row: int | None = None) -> list[Any]:
    return [Button(f"B{n}", ui=f"b.{n}", row=row) for n in range(count)]


def button(control: Button | Select) -> Button:
    assert isinstance(control, Button), control
    return control


def select(control: Button | Select) -> Select:
    assert isinstance(control, Select), control
    return control


def test_a_hundred_buttons_are_paged_four_rows_at_a_time() -> None:
    rows, page, pages = layout(many(100))
    assert (page, pages) == (0, 5) and len(rows) == MAX_ROWS - 1 and all(len(r) == 5 for r in rows)
    rows, page, _ = layout(many(100), page=4)
    assert page == 4 and [button(c).label for c in rows[0]][:1] == ["B80"]
    assert layout(many(100), page=99)[1] == 4, "a page past the end shows the last one"
    view = build_view(item_rows(1, 3, many(100), page=1, source="table"))
    assert view is not None and len(view.children) == 20 + 3
    navigation = [c.item for c in view.children if c.item.row == 4]  # type: ignore[attr-defined]
    assert [c.label for c in navigation] == ["◀", "2/5", "▶"]


def test_rows_a_game_asked_for_are_kept_and_wide_ones_spill() -> None:
    controls = [*many(7, row=1), Button("first", ui="f", row=0), Button("loose", ui="l")]
    rows, _, _ = layout(controls)
    assert [[button(c).label for c in r] for r in rows] == [
        ["first", "loose"],
        ["B0", "B1", "B2", "B3", "B4"],
        ["B5", "B6"],
    ]


def test_a_long_select_is_cut_into_selects_of_twenty_five() -> None:
    choices = [Choice(f"Add {n}", Action("add", (n,))) for n in range(60)]
    rows, _, pages = layout([Select("Pick", choices)])
    assert pages == 1 and [len(select(r[0]).choices) for r in rows] == [25, 25, 10]
    assert select(rows[1][0]).placeholder == "Pick (26–50)"


def test_a_control_that_cannot_be_drawn_is_left_out_never_raised() -> None:
    too_long = Button("long", action=Action("vote", tuple(range(40))))
    twice = Button("again", ui="same")
    view = build_view(item_rows(1, 1, [too_long, twice, Button("again", ui="same"), Button("fine", ui="ok")]))
    assert view is not None and [c.item.label for c in view.children] == ["again", "fine"]  # type: ignore[attr-defined]


def test_paging_codes_read_back() -> None:
    assert parse_page(page_code(3, "buy.t.1")) == (3, "buy.t.1")
    assert parse_page("h.pg.x.table") is None and parse_page("secret") is None


def test_a_multi_select_is_one_action_with_the_chosen_set() -> None:
    assert _chosen("set0x0.vote", ["vote.3", "vote.1"]) == Action("vote", (1, 3))
    assert _chosen("pick0x0", ["add.2"]) == Action("add", (2,))
    for ref, values in (
        ("pick0x0", ["add.1", "add.2"]),
        ("set0x0.vote", ["add.1"]),
        ("set0x0.vote", ["vote.1", "vote.1"]),
    ):
        with pytest.raises(Malformed):
            _chosen(ref, values)


async def test_a_table_with_a_hundred_controls_still_updates_and_pages_in_place(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        presenter: Any = bot.publisher.presenters["toy"]
        usual = presenter.controls

        def crowded(game: Any) -> list[Any]:
            return [*usual(game)[:3], *many(97)]

        presenter.controls = crowded
        mover = table.on_turn()
        result = await mover.click(table.table_message(), label="Add 1")
        assert result.acknowledged and not result.ephemeral
        board = table.table_message()
        assert "move 1" in words_of(board) and "▶" in labels(board) and "1/5" in labels(board)
        turned = await table.on_turn().click(board, label="▶")
        assert turned.acknowledged and not turned.ephemeral
        board = table.table_message()
        assert "2/5" in labels(board) and "B17" in labels(board)
        assert len(table.boards()) == 1, "paging edits the board in place"


async def test_a_panel_stays_open_on_its_next_step(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        presenter: Any = bot.publisher.presenters["toy"]
        presenter.next_panel = lambda game, seat, applied: (
            Panel("Rerolled. Anything else?", [Button("Done", ui="secret")])
            if applied.action.kind == "reroll"
            else None
        )
        player = table.players[0]
        opened = await player.click(table.table_message(), label="My secret")
        panel = response_of(opened).message
        rerolled = await player.click(panel, label="Reroll my secret")
        assert response_of(rerolled).ephemeral
        shown = response_of(rerolled).message
        assert "Your new secret is" in words_of(shown) and "Anything else?" in words_of(shown)
        assert labels(shown) == ["Done"], "the panel shows its next step instead of closing"
        assert all(i.startswith("u:") for i in ids(shown))


async def test_a_form_whose_action_carries_leading_arguments(tmp_path: Path) -> None:
    """``Button(modal="kind.arg")``: the typed number is the action's last argument."""
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        presenter: Any = bot.publisher.presenters["toy"]
        usual = presenter.controls
        presenter.controls = lambda game: [*usual(game), Button("Add 1 and…", modal="add.1")]
        opened_for: list[str] = []
        modal = presenter.modal

        def form(game: Any, kind: str, seat: int | None = None) -> Any:
            opened_for.append(kind)
            return modal(game, "add", seat)

        presenter.modal = form
        await table.on_turn().click(table.table_message(), label="Knock")  # redraw with the new button
        mover = table.on_turn()
        shown = await mover.click(table.table_message(), label="Add 1 and…")
        assert shown.modal is not None and opened_for == ["add.1"]
        result = await mover.submit_modal(shown, {"value": "2"})
        # The toy takes one amount, so ("add", 1, 2) is refused by the engine, in words, privately.
        assert result.ephemeral and "Say how much to add" in words_of(result.response)
