"""Players see their ratings (issue 28): beside their line of the final standings, with its change,
and in ``/game stats``; bots' lines and unrated games show none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import simcord

from bot.client import GameBot
from bot.services.ratings import fresh, shown
from harness.messages import Table, labels, response_of, words_of
from tests.bot.ui.test_bot_players import settle
from tests.helpers import en, fr
from tests.simcord import make_bot


class Newest(Table):
    """The channel's newest table (the kit's ``Table`` looks at its first thread)."""

    @property
    def thread(self) -> Any:
        return self.channel.threads[-1]


async def start(channel: Any, host: Any, others: list[Any], *, bots: int = 0, language: str = "en") -> None:
    created = await host.slash(channel, "game new", name="toy", options="target=3", language=language)
    lobby = response_of(created).message
    for player in others:
        await player.click(lobby, label=en("host.lobby.join") if language == "en" else fr("host.lobby.join"))
    for _ in range(bots):
        await host.click(lobby, label=en("host.lobby.bot_normal"))
    await host.click(lobby, label=en("host.lobby.start") if language == "en" else fr("host.lobby.start"))


async def finish(bot: GameBot, table: Table) -> Any:
    """Play the toy race to its end (everyone adds 3, then everyone says gg); the final message."""
    for _ in range(40):
        await settle(bot)
        message = table.table_message()
        if not any(label in labels(message) for label in ("Add 3", "gg")):
            return table.messages()[-1]
        player = table.on_turn()
        await player.click(message, label="gg" if "gg" in labels(message) else "Add 3")
    raise AssertionError("the game did not end")


def text(result: Any) -> str:
    parts = [words_of(result.response)] if result.response is not None else []
    return "\n".join([*parts, *(words_of(f) for f in result.followups)])


def change(value: int) -> str:
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "±0"


async def expected(bot: GameBot, game_id: int, language: str = "en") -> dict[int, str]:
    """``— rating (change)`` per person, as the standings must print it, from the stored ledger."""
    rated = await bot.store.ratings.fetch_rated_game(game_id)
    assert rated is not None, "a finished game of two people is rated"
    game = await bot.sessions.load(game_id)
    words = bot.catalog.words(language)
    found = {}
    for seat, s in enumerate(rated.seats):
        if s.player.startswith("u:"):
            after = shown(s.after)
            moved = after - shown(s.before or fresh())
            found[game.user_of(seat)] = f" — {words.number(after)} ({change(moved)})"
    return found


def standing_lines(message: Any) -> list[str]:
    return [line for line in words_of(message).splitlines() if line.startswith("**") and "." in line[:6]]


async def test_standings_and_stats_show_each_persons_rating_and_its_change(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        ana, bob = (guild.add_member(env.create_user(name)) for name in ("ana", "bob"))
        table = Newest(env, channel, [ana, bob])
        for game_id in (1, 2):
            await start(channel, ana, [bob])
            final = await finish(bot, table)
            assert "Final standings" in words_of(final)
            suffixes = await expected(bot, game_id)
            lines = standing_lines(final)
            assert len(lines) == 2
            for player in (ana, bob):
                (line,) = [line for line in lines if player.user.name in line]
                assert line.endswith(suffixes[player.id]), (line, suffixes)
            # One won, one lost: one rating went up and the other down.
            assert sorted(s[s.index("(") + 1] for s in suffixes.values()) == ["+", "−"]
        # /game show reposts the standings with the same numbers.
        await ana.slash(table.thread, "game show")
        assert all(
            any(line.endswith(s) for line in standing_lines(table.messages()[-1])) for s in suffixes.values()
        )
        # /game stats: the rating on the same scale, with the rated games behind it.
        rating = await bot.store.ratings.fetch_rating(guild.id, "toy", 1, f"u:{ana.id}")
        assert rating is not None and rating.games == 2
        stats = text(await ana.slash(channel, "game stats", game="toy"))
        assert en("host.stats.rating_head", season=1) in stats
        assert f"Toy Race: {shown(rating):,} (2 rated games)" in stats
        everything = text(await bob.slash(channel, "game stats"))
        assert "Toy Race: " in everything and "(2 rated games)" in everything
        other = text(await ana.slash(channel, "game stats", game="california"))
        assert en("host.stats.rating_head", season=1) not in other and "rated game" not in other
        # An abandoned game shows no numbers and counts for nothing.
        await start(channel, ana, [bob])
        await ana.slash(channel, "game abandon", table=3)
        closed = table.messages()[-1]
        assert " — " not in words_of(closed) and "(+" not in words_of(closed)
        assert await bot.store.ratings.fetch_rated_game(3) is None
        again = text(await ana.slash(channel, "game stats", game="toy"))
        assert "(2 rated games)" in again


async def test_a_bots_line_shows_no_rating(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        ana = guild.add_member(env.create_user("ana"))
        table = Newest(env, channel, [ana])
        await start(channel, ana, [], bots=1)
        final = await finish(bot, table)
        lines = standing_lines(final)
        (mine,) = [line for line in lines if "ana" in line]
        (theirs,) = [line for line in lines if "(bot)" in line]
        assert mine.endswith((await expected(bot, 1))[ana.id])
        assert " — " not in theirs and "(+" not in theirs and "(−" not in theirs


async def test_the_standings_say_it_in_french(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        ana, bob = (guild.add_member(env.create_user(name)) for name in ("ana", "bob"))
        table = Newest(env, channel, [ana, bob])
        await start(channel, ana, [bob], language="fr")
        final = await finish(bot, table)
        suffixes = await expected(bot, 1, "fr")
        lines = standing_lines(final)
        for player in (ana, bob):
            (line,) = [line for line in lines if player.user.name in line]
            # French puts a space before the colon and a narrow space in thousands.
            assert f"{player.user.name} : " in line and line.endswith(suffixes[player.id]), line
        assert any("\u202f" in s for s in suffixes.values()), "ratings of 1,000 and more are grouped"
