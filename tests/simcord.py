"""Every helper the tests use to drive the real bot through SimCord (offline simulated Discord).

Reading messages (words, labels, controls, a ``Table``) is ``harness.messages``, shared with the
benchmarks; what only tests need is here, in one place: a bot on a temporary file, a table opened
by slash commands, custom ids, a private panel and its text, a public click, the saved state, who
sits where, a message's buttons and selects, and a pinned table seed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.client import GameBot
from bot.core.config import Settings
from harness.messages import Table, children, controls, kind_of, labels, response_of, walk, words_of


def settings(tmp: Path) -> Settings:
    return Settings(
        token=None,
        database=tmp / "host.sqlite3",
        dev_guild=None,
        log_level="INFO",
        language="en",
        bot_delay=0.0,
    )


OPEN_BOTS: list[GameBot] = []
"""Bots made by a test; ``tests/conftest.py`` closes their databases before the test's loop ends.

SimCord detaches a bot without closing it, and an open aiosqlite connection then
outlives the event loop it answers to.
"""


def make_bot(tmp: Path) -> GameBot:
    bot = GameBot(settings(tmp))
    OPEN_BOTS.append(bot)
    return bot


async def close_bots() -> None:
    while OPEN_BOTS:
        store = getattr(OPEN_BOTS.pop(), "store", None)
        if store is not None:
            await store.close()


def row_labels(message: Any) -> list[str]:
    """Labels of the buttons in a message's action rows: the moves, without a heading's aside."""
    rows = [c for c in walk(message) if kind_of(c) == 1]
    return [getattr(child, "label", None) or "" for row in rows for child in children(row)]


def ids(message: discord.Message) -> list[str]:
    return [getattr(child, "custom_id", None) or "" for child in controls(message)]


def playable(message: discord.Message) -> bool:
    """Whether a message still has game buttons (the final message keeps only Catch me up and Rematch)."""
    return any(
        i.startswith(("g:", "m:", "s:")) or (i.startswith("u:") and not i.endswith(":h.catchup"))
        for i in ids(message)
    )


async def open_table(
    env: simcord.Env, names: list[str], game: str = "toy", options: str | None = None
) -> Table:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    players = [guild.add_member(env.create_user(name)) for name in names]
    kwargs: dict[str, Any] = {"name": game}
    if options:
        kwargs["options"] = options
    result = await players[0].slash(channel, "game new", **kwargs)
    lobby = response_of(result).message
    for player in players[1:]:
        await player.click(lobby, label="Join")
    await players[0].click(lobby, label="Start")
    return Table(env, channel, players)


TABLE_SEED = 20261125
"""The lobby's table seed most Discord tests pin (see :func:`pinned_seed`)."""


def pinned_seed(seed: int = TABLE_SEED) -> Any:
    """An autouse fixture (assign it to ``fixed_seed`` in a test module) pinning the lobby's table
    seed, so every shuffle and every roll, and so the test's expectations, repeat."""

    @pytest.fixture(autouse=True, name="fixed_seed")
    def pin(monkeypatch: pytest.MonkeyPatch) -> None:
        """The lobby's table seed, pinned (``tests/helpers.py``: ``pinned_seed``)."""
        monkeypatch.setattr("bot.services.lobby.secrets.randbits", lambda _bits: seed)

    return pin


def buttons(message: discord.Message) -> list[Any]:
    """Every component of a message (its buttons and selects), row by row."""
    return controls(message)


def button(message: discord.Message, label: str) -> Any:
    """The first component of a message labelled ``label``."""
    found = [b for b in buttons(message) if getattr(b, "label", None) == label]
    assert found, f"no button {label!r} in {labels(message)}"
    return found[0]


def select_id(message: discord.Message, value: str) -> str:
    """The custom_id of the select on a message that offers ``value``."""
    for child in buttons(message):
        if any(option.value == value for option in getattr(child, "options", []) or []):
            return str(child.custom_id)
    raise AssertionError(f"no select offers {value!r} in {ids(message)}")


def panel(result: Any) -> discord.Message:
    """The private panel a click answered with (shown or edited in place)."""
    assert result.response is not None and result.response.ephemeral, "a panel is private"
    message: discord.Message = result.response.message
    return message


def private_text(result: Any) -> str:
    """What a click answered privately: the ephemeral reply, else the ephemeral followups."""
    if result.response is not None and result.response.ephemeral:
        return str(words_of(result.response))
    return "\n".join(words_of(f) for f in result.followups if f.ephemeral)


async def public_click(table: Table, player: Any, label: str) -> Any:
    """``player`` clicks ``label`` on the live table, answered publicly."""
    result = await player.click(table.table_message(), label=label)
    assert result.acknowledged and not result.ephemeral, (label, private_text(result))
    return result


async def saved_state(bot: GameBot, game_id: int = 1) -> Any:
    """The state the bot keeps for table ``game_id``."""
    return (await bot.sessions.load(game_id)).state


async def sound_state(bot: GameBot, rules: Any, game_id: int = 1) -> Any:
    """The saved state, checked against the game's conservation laws."""
    state = await saved_state(bot, game_id)
    assert rules.invariants(state) == [], rules.invariants(state)
    return state


async def seat_of(bot: GameBot, member: Any) -> int:
    """The seat of ``member`` at table 1."""
    seat = (await bot.sessions.load(1)).seat_of(member.id)
    assert seat is not None
    return seat


async def member_at(bot: GameBot, table: Table, seat: int) -> Any:
    """The member sitting in ``seat`` at table 1."""
    for player in table.players:
        if await seat_of(bot, player) == seat:
            return player
    raise AssertionError(seat)
