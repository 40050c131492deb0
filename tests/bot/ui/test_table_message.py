"""The table message on Discord's layout components, and the board described in words.

A live board is one container (status, board, controls, in that order, framed in the colour of
the seat to act); a folded one is its lines only; a board posted the old way (``content`` and a
classic view) still plays and becomes a layout at its next edit.  Every board image carries a
description built from the public view: whose turn, each seat's standing, the last move, in the
table's language, within Discord's 1,024 characters, and never a secret.
"""

from __future__ import annotations

import copy
import io
import random
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.client import GameBot
from bot.core.i18n import Catalog
from bot.core.registry import GameEntry
from bot.games import REGISTRY
from bot.storage.codes import GameStatus, MessageKind
from bot.ui.components import build_view, item_rows
from bot.ui.presenter import Button, Presenter, Select
from bot.ui.table_message import ALT_LIMIT, COMPONENT_LIMIT, TEXT_LIMIT, count, table_view
from cogs.california import CaliforniaPresenter
from cogs.estates import EstatesPresenter
from cogs.lastwill.presenter import LastWillPresenter
from cogs.monopoly import MonopolyPresenter
from harness.messages import alt_texts, controls, is_layout, labels, walk, words_of
from rules.core import Action
from tests.helpers import bare_game
from tests.simcord import make_bot, open_table

PRESENTERS: dict[str, type[Presenter]] = {
    "california": CaliforniaPresenter,
    "estates": EstatesPresenter,
    "monopoly": MonopolyPresenter,
    "lastwill": LastWillPresenter,
}
PLAYERS = {"california": (2, 5), "estates": (2, 5), "monopoly": (2, 6), "lastwill": (2, 5)}
NAMES = ("Ana", "Bob", "Cleo", "Dev", "Eli", "Fay")
CATALOG = Catalog.load()


def entry(name: str) -> GameEntry:
    found = REGISTRY.get(name)
    assert found is not None, name
    return found


def kinds(message: Any) -> list[int]:
    return [int(getattr(getattr(c, "type", None), "value", 0)) for c in walk(message)]


async def test_a_live_board_is_one_container_status_board_controls(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        board = table.table_message()
        assert is_layout(board) and board.content == ""
        (container,) = board.components
        assert isinstance(container, discord.Container)
        order = kinds(board)
        # container, section (heading, Catch me up beside it), the status, the picture, rows.
        assert order[0] == 17 and order[1] == 9 and 12 in order
        gallery = order.index(12)
        assert all(kind == 10 for kind in order[2:gallery] if kind not in (2,)), order
        assert min(i for i, kind in enumerate(order) if kind == 1) > gallery, "controls come after the board"
        section = next(c for c in walk(board) if isinstance(c, discord.SectionComponent))
        assert getattr(section.accessory, "label", None) == "Catch me up"
        assert "Toy Race" in words_of(board) and f"<@{table.on_turn().id}>" in words_of(board)
        # Framed in the colour of the one seat the game waits on.
        waiting = table.players.index(table.on_turn())
        assert container.accent_colour is not None
        assert container.accent_colour.value == Presenter.seat_accents[waiting]
        (alt,) = alt_texts(board)
        assert alt.startswith("Toy Race board, move 0.") and "ana" in alt and len(alt) <= ALT_LIMIT
        assert board.attachments[0].filename == "table-1.png"


async def test_a_fold_keeps_only_the_lines(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        board = table.table_message()
        await table.on_turn().click(board, label="Add 2")
        folded = next(m for m in table.messages() if m.id == board.id)
        assert is_layout(folded) and kinds(folded) == [10], (
            "one text display: no container, picture or button"
        )
        assert "adds 2" in words_of(folded) and not folded.attachments


async def test_a_board_posted_the_old_way_plays_and_becomes_a_layout(tmp_path: Path) -> None:
    """A table posted before this change (``content``, a classic view) keeps its buttons working."""
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        bot = env.bot
        assert isinstance(bot, GameBot)
        game = await bot.sessions.load(1)
        store = bot.sessions.store
        (row,) = await store.messages.fetch_live_messages(1, MessageKind.TABLE)
        view = build_view(item_rows(1, game.public_version, bot.publisher._controls(game)))
        assert view is not None
        channel = bot.get_channel(row.channel_id)
        assert isinstance(channel, discord.Thread)
        old = await channel.send(
            content=f"The old way\n<@{table.on_turn().id}>",
            view=view,
            file=discord.File(io.BytesIO(b"\x89PNG\r\n"), filename="table-1.png"),
        )
        await store.messages.add_message(
            1, row.channel_id, old.id, MessageKind.TABLE, game.public_version, since=row.since
        )
        await store.messages.retire_message(row.message_id)
        classic = next(m for m in table.messages() if m.id == old.id)
        assert not is_layout(classic) and "Knock" in labels(classic)
        other = next(p for p in table.players if p is not table.on_turn())
        result = await other.click(classic, label="Knock")
        assert result.acknowledged and not result.ephemeral
        now = next(m for m in table.messages() if m.id == old.id)
        assert is_layout(now) and now.content == "" and "knocks" in words_of(now), (
            "edited in place into a layout"
        )


def positions(name: str, players: int, seed: int, steps: int) -> list[Any]:
    """States along one random game, ``steps`` apart."""
    rules = entry(name).rules
    state = rules.setup(players, {}, seed)
    rng = random.Random(seed)
    found = [copy.deepcopy(state)]
    for number in range(1, 2_000):
        if rules.outcome(state) is not None:
            break
        seat = rng.choice(sorted(rules.waiting_for(state)))
        rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
        if number % steps == 0:
            found.append(copy.deepcopy(state))
    return found


def describe(name: str, state: Any, players: int, language: str, last: str | None = None) -> str:
    found = entry(name)
    game = bare_game(found, state, NAMES[:players])
    game.row.language = language
    game.public_version = 7
    presenter = PRESENTERS[name](CATALOG)
    return presenter.describe(game, found.rules.view(state, None), last)


@pytest.mark.parametrize("name", sorted(PRESENTERS))
@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_board_is_described_in_words(name: str, language: str) -> None:
    """Whose turn, every seat by name, the last move; in the table's language; within 1,024."""
    low, high = PLAYERS[name]
    head = CATALOG.text("host.board.alt_head", language, game=entry(name).rules.title, move=7)
    last = CATALOG.text("host.board.alt_last", language, line="Ana did something")
    for players in range(low, high + 1):
        for state in positions(name, players, seed=players, steps=40)[:6]:
            text = describe(name, state, players, language, "Ana did something")
            assert text.startswith(head) and text.endswith(last)
            assert all(n in text for n in NAMES[:players]), text
            assert len(text) <= ALT_LIMIT, len(text)


def test_the_estates_description_never_shows_money() -> None:
    """Two tables that differ only by a private stow are described alike (money is secret)."""
    rules = entry("estates").rules
    state = rules.setup(3, {}, 11)
    stow = Action("stow")
    seat = next(iter(rules.waiting_for(state)))
    assert stow in rules.legal_actions(state, seat)
    stowed = copy.deepcopy(state)
    rules.apply(stowed, seat, stow)
    assert rules.view(stowed, seat) != rules.view(state, seat), "the stow changed the seat's own view"
    assert describe("estates", stowed, 3, "en") == describe("estates", state, 3, "en")


def test_the_last_will_description_names_no_card_in_a_hand() -> None:
    rules = entry("lastwill").rules
    for state in positions("lastwill", 4, seed=3, steps=25):
        text = describe("lastwill", state, 4, "en")
        hands = [rules.view(state, seat)["you"]["hand"] for seat in range(4)]
        assert any(hands), "some hand holds cards to look for"
        for hand in hands:
            for card in hand:
                assert card not in text


def test_a_full_table_stays_within_discords_limits() -> None:
    """Five rows of five, a heading, its aside, three texts at their longest and a picture."""
    many: list[Button | Select] = [Button(f"b{i}", action=Action("x", (i,))) for i in range(40)]
    view = table_view(
        1,
        1,
        head="h" * 500,
        lines=["l" * 300] * 20,
        status="s" * 3000,
        controls=many,
        aside=Button("Catch me up", ui="h.catchup"),
        picture=None,
        source="table",
    )
    assert count(view) <= COMPONENT_LIMIT
    texts = [c.content for c in view.walk_children() if isinstance(c, discord.ui.TextDisplay)]
    assert sum(len(t) for t in texts) <= TEXT_LIMIT


@pytest.mark.parametrize("name", sorted(PRESENTERS))
def test_a_finished_board_says_the_game_is_over(name: str) -> None:
    rules = entry(name).rules
    state = positions(name, 3, seed=5, steps=100_000)[0]
    rng = random.Random(5)
    while rules.outcome(state) is None:
        seat = rng.choice(sorted(rules.waiting_for(state)))
        rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
    game = bare_game(entry(name), state, NAMES[:3], status=GameStatus.FINISHED)
    game.public_version = 9
    text = PRESENTERS[name](CATALOG).describe(game, rules.view(state, None), None)
    assert "The game is over." in text.splitlines()[1] and "to play" not in text


async def test_a_board_left_live_by_a_failed_fold_is_stripped_and_keeps_its_words(tmp_path: Path) -> None:
    """Two live boards (a fold that failed): the repair strips the older one of its picture and
    buttons, keeping its words, which only Discord still holds (read back through ``safe``)."""
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        bot = env.bot
        assert isinstance(bot, GameBot)
        old = table.table_message()
        game = await bot.sessions.load(1)
        channel = bot.get_channel(old.channel.id)
        assert isinstance(channel, discord.Thread)
        again = await channel.send(view=bot.publisher._table_view(game, ["A second copy"], None))
        await bot.sessions.store.messages.add_message(
            1, channel.id, again.id, MessageKind.TABLE, game.public_version, since=0
        )
        assert await bot.publisher.repair(1)
        stripped = next(m for m in table.messages() if m.id == old.id)
        assert is_layout(stripped) and not controls(stripped) and not stripped.attachments
        assert "Toy Race" in words_of(stripped) and words_of(stripped) == words_of(old)
        assert [
            row.message_id
            for row in await bot.sessions.store.messages.fetch_live_messages(1, MessageKind.TABLE)
        ] == [again.id]
