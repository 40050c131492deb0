"""Per-table language, and per-player language for what only that player reads.

A table is in the language chosen at ``/game new`` (else the server's preferred locale when we
have it, else English): its messages, buttons and a game's private panels.  The host's own answers
to one player (refusals, command answers) follow that player's Discord locale when we have it.

SimCord sends every interaction with ``locale: en-US``; the French player below is made by
rewriting the payload SimCord builds, exactly as Discord would send it for a French client
(``french_clients``, ``tests/conftest.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.storage.codes import GameStatus
from harness.messages import Table, labels, response_of, words_of
from tests.bot.ui.test_discord_flow import play_to_end
from tests.helpers import en, fr
from tests.simcord import make_bot


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.services.lobby.secrets.randbits", lambda _bits: 20261125)


async def open_table(
    env: simcord.Env,
    names: list[str],
    *,
    game: str = "california",
    language: str | None = None,
    preferred_locale: str | None = None,
) -> tuple[Table, discord.Message]:
    guild = env.create_guild(preferred_locale=preferred_locale)
    channel = guild.create_text_channel("games")
    players = [guild.add_member(env.create_user(name)) for name in names]
    kwargs: dict[str, Any] = {"name": game}
    if language is not None:
        kwargs["language"] = language
    result = await players[0].slash(channel, "game new", **kwargs)
    lobby = response_of(result).message
    return Table(env, channel, players), lobby


async def start(table: Table, lobby: discord.Message, join: str, begin: str) -> None:
    for player in table.players[1:]:
        await player.click(lobby, label=join)
    await table.players[0].click(lobby, label=begin)


async def test_a_french_table_is_french_and_an_english_players_refusal_is_english(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table, lobby = await open_table(env, ["ana", "bob", "cy"], language="fr")
        assert "cherche des joueurs" in words_of(lobby)
        assert labels(lobby) == [
            fr(f"host.lobby.{op}") for op in ("join", "leave", "start", "cancel", "bot_normal", "bot_easy")
        ]
        await start(table, lobby, fr("host.lobby.join"), fr("host.lobby.start"))
        board = table.table_message()
        assert fr("host.started", game="California") in table.recent(3)
        assert "Journée 1 sur 12" in words_of(board) and "1 or = 5 argent" in words_of(board)
        shown = set(labels(board))
        assert {fr("california.button.coin"), fr("california.button.mansion")} <= shown
        assert fr("host.button.catch_up") in shown and "Catch me up" not in shown
        # A seated player's private panel is in the table's language (the board's own words).
        panel = await table.players[1].click(board, label=fr("california.button.mansion"))
        assert panel.ephemeral
        assert "argent" in words_of(response_of(panel).message)
        assert "silver" not in words_of(response_of(panel).message)
        # Someone not seated presses it: the refusal is theirs, in their client's language (en-US).
        guild = table.guild
        dan = guild.add_member(env.create_user("dan"))
        refused = await dan.click(board, label=fr("california.button.mansion"))
        assert refused.ephemeral
        assert words_of(response_of(refused).message) == en("host.refuse.not_seated")


async def test_a_french_players_refusal_on_an_english_table_is_french(
    tmp_path: Path, french_clients: set[int]
) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table, lobby = await open_table(env, ["ana", "bob"])
        assert "is looking for players" in words_of(lobby) or labels(lobby)[0] == "Join"
        await start(table, lobby, "Join", "Start")
        board = table.table_message()
        dan = table.guild.add_member(env.create_user("dan"))
        french_clients.add(dan.id)
        refused = await dan.click(board, label="My mansion")
        assert words_of(response_of(refused).message) == fr("host.refuse.not_seated")
        # The table itself stays English for everyone.
        assert "My mansion" in labels(table.table_message())
        # A French client's own command answers are French, on an English server.
        listed = await dan.slash(table.channel, "game list")
        assert words_of(response_of(listed).message).startswith(fr("host.lobby.list_head"))


async def test_the_default_is_the_servers_language_when_we_have_it(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        _, french = await open_table(env, ["ana", "bob"], preferred_locale="fr")
        assert labels(french)[0] == fr("host.lobby.join")
        _, german = await open_table(env, ["ana", "bob"], preferred_locale="de")
        assert labels(german)[0] == en("host.lobby.join")
        _, asked = await open_table(env, ["ana", "bob"], preferred_locale="fr", language="en")
        assert labels(asked)[0] == en("host.lobby.join")


async def test_a_rematch_keeps_the_tables_language(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table, lobby = await open_table(env, ["ana", "bob"], game="toy", language="fr")
        await start(table, lobby, fr("host.lobby.join"), fr("host.lobby.start"))
        await play_to_end(table)
        final = table.messages()[-1]
        assert labels(final) == [fr("host.button.catch_up"), fr("host.button.rematch")]
        await table.players[1].click(final, label=fr("host.button.rematch"))
        rows = await bot.store.games.list_games(guild_id=table.guild.id, statuses=(GameStatus.LOBBY,))
        assert [row.language for row in rows] == ["fr"]


async def test_rules_follow_the_table_here_else_the_player(tmp_path: Path, french_clients: set[int]) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table, lobby = await open_table(env, ["ana", "bob"], language="fr")
        await start(table, lobby, fr("host.lobby.join"), fr("host.lobby.start"))
        # In the French table's thread, about its game: French, though ana's client is English.
        here = await table.players[0].slash(table.thread, "game rules", name="california")
        assert fr("california.rules") in words_of(response_of(here).message)
        # Elsewhere (another server's channel), the player's own language.
        guild = env.create_guild()
        other = guild.create_text_channel("elsewhere")
        eve = guild.add_member(env.create_user("eve"))
        english = await eve.slash(other, "game rules", name="california")
        assert en("california.rules") in words_of(response_of(english).message)
        french_clients.add(eve.id)
        french = await eve.slash(other, "game rules", name="california")
        assert fr("california.rules") in words_of(response_of(french).message)


async def test_table_options_are_explained_and_refused_in_the_players_language(
    tmp_path: Path, french_clients: set[int]
) -> None:
    """What each option does, and why a typed one cannot be used, come from the catalog: an engine
    holds no prose (``OptionSpec`` has no help text; ``InvalidOptions`` names its problem)."""
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        eve = guild.add_member(env.create_user("eve"))
        french_clients.add(eve.id)
        rules = await eve.slash(channel, "game rules", name="lastwill")
        text = "\n".join(words_of(m) for m in [response_of(rules).message, *rules.followups])
        assert (
            fr(
                "host.lobby.rules_option",
                name="expansion",
                default="oui",
                help=fr("lastwill.option.expansion"),
            )
            in text
        )
        assert fr("lastwill.option.end_property_penalty") in text
        assert en("lastwill.option.plans") not in text
        refused = await eve.slash(channel, "game new", name="estates", options="rounds=9")
        assert words_of(response_of(refused).message) == fr(
            "host.bad_option.range", option="rounds", low=1, high=5
        )
        clash = await eve.slash(channel, "game new", name="lastwill", options="expansion=off plans=original")
        assert words_of(response_of(clash).message) == fr(
            "lastwill.bad_option.needs_expansion", option="plans", value="original"
        )
        # Typed in French, a yes/no option is understood.
        opened = await eve.slash(channel, "game new", name="lastwill", options="expansion=non")
        assert not response_of(opened).message.flags.ephemeral


async def test_why_a_french_table_closed_is_said_in_french(tmp_path: Path) -> None:
    """The row stores a code (``abandoned_by:ana``), so the closing line reads in the table's language."""
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table, lobby = await open_table(env, ["ana", "bob"], language="fr")
        await start(table, lobby, fr("host.lobby.join"), fr("host.lobby.start"))
        await table.players[0].slash(table.thread, "game abandon")
        await table.players[1].slash(table.thread, "game show")  # reposts the closed table
        thread = "\n".join(words_of(m) for m in table.messages())
        assert fr("host.closed", reason=fr("host.closed_reason.abandoned_by", player="ana")) in thread
        assert "abandoned" not in thread
