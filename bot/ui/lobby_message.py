"""The lobby message of a table: who sits, Join / Leave / Start / Cancel, and what those buttons do.

Kept apart from :mod:`bot.ui.clicks` and :mod:`bot.ui.publisher` because none of it draws a board or applies
a game action; it only decides who plays and when the game begins.
"""

from __future__ import annotations

import logging

import discord

from bot.services.bot_players import Level, bot_name
from bot.services.lobby import LobbyService, options_summary
from bot.services.sessions import LiveGame, Refusal
from bot.storage import GameStatus, MessageKind
from bot.ui import safe
from bot.ui.access import is_manager
from bot.ui.clicks import Clicks
from bot.ui.components import Malformed, lobby_button, parse_lobby

log = logging.getLogger(__name__)


class LobbyDesk:
    def __init__(self, clicks: Clicks, lobby: LobbyService) -> None:
        self.clicks = clicks
        self.publisher = clicks.publisher
        self.lobby = lobby
        self.messages = self.publisher.messages

    async def on_click(self, interaction: discord.Interaction, rest: str) -> None:
        try:
            game_id, op = parse_lobby(rest)
        except Malformed:
            await self.clicks.refuse(interaction, Refusal("host.refuse.malformed"))
            return
        user = interaction.user
        language = await self.publisher.language(game_id)
        try:
            if op == "join":
                await self.lobby.join(game_id, user.id, user.display_name)
            elif op == "leave":
                await self.lobby.leave(game_id, user.id)
            elif op == "start":
                await self._drop_departed(interaction, game_id)
                game = await self.lobby.start(game_id, user.id)
                await safe.defer(interaction)
                await self.edit(game, interaction)
                await self.publisher.open_table(game)
                self.publisher.sessions.moved(game.id)  # a bot may play first, once its table is out
                return
            elif op == "cancel":
                moderator = is_manager(interaction)
                # An old lobby message must not end a running game: only a lobby is cancelled here.
                game = await self.lobby.close(
                    game_id,
                    user.id,
                    moderator=moderator,
                    status=GameStatus.ABANDONED,
                    reason="cancelled",
                    lobby_only=True,
                )
                await safe.defer(interaction)
                await self.edit(game, interaction)
                return
            elif op == "rematch":
                await self.rematch(interaction, game_id)
                return
            elif op in ("bot_easy", "bot_normal"):
                level = Level.EASY if op == "bot_easy" else Level.NORMAL
                seated = [s.name for s in (await self.publisher.sessions.load(game_id)).seats]
                name = bot_name(seated, level, lambda key: self.publisher.t(key, language))
                await self.lobby.add_bot(game_id, user.id, level.value, name)
            elif op == "unbot":
                await self.lobby.remove_bot(game_id, user.id)
            elif op == "withdraw":
                game = await self.lobby.withdraw(game_id, user.id, user.display_name)
                await safe.reply(
                    interaction,
                    self.publisher.t("host.left_game", self.publisher.reader(interaction, language)),
                )
                await self.publisher.close_table(
                    game, [self.publisher.t("host.abandoned_by", language, player=user.display_name)]
                )
                return
        except Refusal as refusal:
            await self.clicks.refuse(interaction, refusal, language)
            return
        game = await self.publisher.sessions.load(game_id)
        await safe.defer(interaction)
        await self.edit(game, interaction)

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """Open (or point to) the rematch lobby, posted where the old table's lobby was.

        A new rematch counts against the limits on opening tables as ``/game new`` does (the
        refusal, raised here, is answered by :meth:`on_click`)."""
        user = interaction.user
        old = await self.publisher.sessions.load(game_id)
        game, created = await self.lobby.rematch(
            game_id, user.id, user.display_name, limited=True, manager=is_manager(interaction)
        )
        channel_id = game.row.table_channel_id or 0
        lang = game.row.language  # the rematch keeps the table's language
        mine = self.publisher.reader(interaction, lang)  # what only the player who asked reads
        if not created:
            await safe.reply(
                interaction, self.publisher.t("host.rematch.exists", mine, id=game.id, channel=channel_id)
            )
            return
        await safe.defer(interaction, thinking=True, ephemeral=True)
        others = [seat for seat in old.seats if seat.user_id != user.id and seat.bot is None]
        invite = self.publisher.t(
            "host.rematch.open", lang, old=old.id, players=" ".join(f"<@{s.user_id}>" for s in others)
        )
        if await self.post_lobby(game, extra=invite, mention=[s.user_id for s in others]):
            game = await self.publisher.sessions.load(game.id)
            await safe.reply(
                interaction,
                self.publisher.t(
                    "host.rematch.opened", mine, id=game.id, channel=game.row.table_channel_id or 0
                ),
            )
        else:
            await self.lobby.close(
                game.id,
                user.id,
                moderator=True,
                status=GameStatus.ABANDONED,
                reason="not_posted",
                lobby_only=True,
            )
            await safe.reply(interaction, self.publisher.t("host.internal_error", mine))

    async def post_lobby(self, game: LiveGame, *, extra: str = "", mention: list[int] | None = None) -> bool:
        """Post a lobby message in the game's channel and open its thread; ``False`` when Discord
        refused the message (nobody could join: the caller closes the lobby).  In a forum (a
        server's chosen place for tables, ``/game settings``) the lobby opens a post instead."""
        channel_id = game.row.channel_id
        if channel_id is None:
            return False
        channel = self.publisher.channel(channel_id)
        content = "\n".join(part for part in (extra, self.content(game)) if part)
        allowed = discord.AllowedMentions(
            users=[discord.Object(id=u) for u in mention or []], everyone=False, roles=False
        )
        forum = self.publisher.client.get_channel(channel_id)
        if isinstance(forum, discord.ForumChannel):
            return await self._post_in_forum(game, forum, content, allowed)
        message = await safe.send(
            channel,
            content=content,
            view=self.view(game) or discord.utils.MISSING,
            allowed_mentions=allowed,
        )
        if isinstance(message, safe.Failed):
            return False
        await self.opened(game, message)
        return True

    async def _post_in_forum(
        self, game: LiveGame, forum: discord.ForumChannel, content: str, allowed: discord.AllowedMentions
    ) -> bool:
        """A forum takes no plain messages: the lobby is the first message of a new post, and that
        post is the table's thread."""
        created = await safe.forum_post(
            forum,
            self.thread_name(game),
            content=content,
            view=self.view(game) or discord.utils.MISSING,
            allowed_mentions=allowed,
        )
        if isinstance(created, safe.Failed):
            log.warning("game %s: the lobby's forum post could not be made: %s", game.id, created)
            if created.code == safe.THREAD_CAP and game.row.guild_id is not None:
                self.publisher.reach.crowded.add(game.row.guild_id)
            return False
        await self.messages.posted(game.id, created.thread.id, created.message.id, MessageKind.LOBBY, 0)
        await self.lobby.set_thread(game.id, created.thread.id)
        return True

    async def opened(self, game: LiveGame, message: discord.Message) -> None:
        """A lobby message is out: remember it, and give the table its own thread when the
        channel allows one (else the game is played in the channel itself, as it is in a server
        at Discord's cap of active threads).  The thread archives after a week without a message,
        the longest Discord offers: a slow table may wait days on a player."""
        await self.messages.posted(game.id, message.channel.id, message.id, MessageKind.LOBBY, 0)
        if isinstance(message.channel, discord.TextChannel):
            thread = await safe.create_thread(message, self.thread_name(game))
            if isinstance(thread, safe.Failed):
                # A server at its cap is expected (the bot reaches players another way); a channel
                # that refuses threads is worth an admin's look.  The sandbox, whose channel allows
                # no threads by design, lowers this to INFO (bot.sandbox.ThreadlessChannel).
                log.log(
                    logging.INFO if thread.code == safe.THREAD_CAP else logging.WARNING,
                    "game %s: no thread (%s); playing in the channel",
                    game.id,
                    thread,
                    extra={"no_thread_channel": message.channel.id},
                )
                if thread.code == safe.THREAD_CAP and game.row.guild_id is not None:
                    self.publisher.reach.crowded.add(game.row.guild_id)
            else:
                await self.lobby.set_thread(game.id, thread.id)

    def thread_name(self, game: LiveGame) -> str:
        """The table's thread (or forum post) as the server's channel list shows it, in the
        table's language: "California #3", "California n° 3"."""
        return self.publisher.t(
            "host.lobby.thread", game.row.language, game=game.entry.rules.title, id=game.id
        )

    async def _drop_departed(self, interaction: discord.Interaction, game_id: int) -> None:
        """Players who left the server since joining are unseated before the game can start."""
        guild = interaction.guild
        game = await self.publisher.sessions.load(game_id)
        if guild is None or game.status != GameStatus.LOBBY or interaction.user.id != game.row.host_id:
            return
        gone = []
        for seat in game.seats:
            if seat.bot is not None or guild.get_member(seat.user_id) is not None:
                continue
            found = await safe.fetch_member(guild, seat.user_id)
            if isinstance(found, safe.Failed) and found.status == 404:
                gone.append(seat)
        for seat in gone:
            await self.lobby.unseat(game_id, seat.user_id)
        if gone:
            await self.edit(await self.publisher.sessions.load(game_id))
            raise Refusal("host.refuse.member_gone", player=", ".join(s.name for s in gone))

    def content(self, game: LiveGame) -> str:
        lang = game.row.language
        rules = game.entry.rules
        players = "\n".join(
            f"{i + 1}. {s.name}"
            + (self.publisher.t("host.lobby.host_mark", lang) if s.user_id == game.row.host_id else "")
            for i, s in enumerate(game.seats)
        )
        # A channel that refused the table a thread (see ``opened``) has the game played in it.
        started = "host.lobby.started" if game.row.thread_id is not None else "host.lobby.started_here"
        keys: dict[str, str] = {
            GameStatus.LOBBY: "host.lobby.open",
            GameStatus.ACTIVE: started,
            GameStatus.FINISHED: started,
        }
        key = keys.get(game.status, "host.lobby.closed")
        return self.publisher.t(
            key,
            lang,
            game=rules.title,
            id=game.id,
            min=rules.min_players,
            max=rules.max_players,
            options=options_summary(game.row.options, lambda key: self.publisher.t(key, lang)),
            players=players,
            count=len(game.seats),
        )

    def view(self, game: LiveGame) -> discord.ui.View | None:
        if game.status != GameStatus.LOBBY:
            return None
        lang = game.row.language
        view = discord.ui.View(timeout=None)
        for op, style in (
            ("join", "success"),
            ("leave", "secondary"),
            ("start", "primary"),
            ("cancel", "danger"),
            ("bot_normal", "secondary"),
            ("bot_easy", "secondary"),
            ("unbot", "secondary"),
        ):
            if op == "unbot" and not any(s.bot for s in game.seats):
                continue
            if op.startswith("bot_") and not game.entry.has_bots:
                continue
            view.add_item(lobby_button(game.id, op, self.publisher.t(f"host.lobby.{op}", lang), style))
        return view

    async def edit(self, game: LiveGame, interaction: discord.Interaction | None = None) -> None:
        content = self.content(game)
        view = self.view(game)
        if (
            interaction is not None
            and interaction.message is not None
            and await safe.edit_original(interaction, content=content, view=view)
        ):
            return
        for row in await self.messages.live(game.id, MessageKind.LOBBY):
            message = self.publisher.client.get_partial_messageable(row.channel_id).get_partial_message(
                row.message_id
            )
            await safe.edit(message, content=content, view=view)
