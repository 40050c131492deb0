"""A player's and a server's own views: ``/game mine``, ``/game stats``, ``/game leaderboard``,
``/game settings``, and where ``/game new`` opens a table when the server chose a channel.

Every answer is ephemeral and short enough for a phone: one line per table or player, links
to jump to a table.  The figures and rules are services' (:mod:`bot.services.mine`,
:mod:`bot.services.stats`, :mod:`bot.services.server_settings`); this module phrases them and
talks to Discord.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

import discord

from bot.core.i18n import clip, plural
from bot.services.lobby import LobbyService
from bot.services.mine import MineService, MyTable
from bot.services.seasons import MIN_GAMES, BoardLine
from bot.services.server_settings import ServerSettings, may_open
from bot.services.sessions import LiveGame, Refusal
from bot.services.stats import StatsService
from bot.storage import GameStatus, GuildSettings, MessageKind
from bot.ui import safe
from bot.ui.access import is_manager, server_of, settings_server
from bot.ui.lobby_message import LobbyDesk

log = logging.getLogger(__name__)

LIMIT = 1900
"""Characters an answer keeps to (Discord's limit is 2,000); longer lists end with "and N more"."""

Place = discord.TextChannel | discord.ForumChannel
"""Where a server may have its tables open."""


def jump_url(guild_id: int | None, channel_id: int | None, message_id: int | None) -> str | None:
    """A link that opens the channel (or message) in Discord; ``None`` without a channel."""
    if channel_id is None:
        return None
    where = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return f"{where}/{message_id}" if message_id is not None else where


class PlayerDesk:
    """Answers the player and server commands; one per bot."""

    def __init__(
        self,
        desk: LobbyDesk,
        lobby: LobbyService,
        mine: MineService,
        stats: StatsService,
        settings: ServerSettings,
        reader: Callable[[discord.Interaction], str],
    ) -> None:
        self.desk = desk
        self.clicks = desk.clicks
        self.publisher = desk.publisher
        self.lobby = lobby
        self.mine_service = mine
        self.stats_service = stats
        self.settings = settings
        self.reader = reader
        """The language of one player's answers (``GameBot.reader``: their locale, else the server's)."""

    def t(self, lang: str, key: str, /, **params: object) -> str:
        return self.publisher.t(key, lang, **params)

    # -- /game mine ------------------------------------------------------------------------------

    async def mine(self, interaction: discord.Interaction) -> None:
        """Your tables in this server; in a direct message, in every server, grouped by server."""
        lang = self.reader(interaction)
        client = self.publisher.client
        guild_id = interaction.guild_id
        tables = await self.mine_service.tables(interaction.user.id, guild_id=guild_id)
        if guild_id is None:
            # Only servers the bot is still in (a table elsewhere cannot be opened anyway), and
            # parked tables wherever they were: they say why, and how to bring them back.
            tables = [
                table
                for table in tables
                if table.parked or (table.guild_id and client.get_guild(table.guild_id))
            ]
        if not tables:
            await safe.reply(
                interaction, self.t(lang, "host.mine.none_here" if guild_id else "host.mine.none_anywhere")
            )
            return
        lines = [
            self.t(lang, "host.mine.head_here" if guild_id else "host.mine.head_anywhere", count=len(tables))
        ]
        if guild_id is not None:
            lines.extend(self._table_line(lang, table) for table in tables)
        else:
            servers: dict[int, list[MyTable]] = {}
            for table in tables:
                servers.setdefault(table.guild_id or 0, []).append(table)
            names = {gid: _guild_name(client, gid) for gid in servers}
            # The server with a table waiting for you first, then by name.
            for gid in sorted(servers, key=lambda g: (min(t.order for t in servers[g]), names[g].lower())):
                lines.append(self.t(lang, "host.mine.server", server=names[gid]))
                lines.extend(self._table_line(lang, table) for table in servers[gid])
        await safe.reply(interaction, self._fit(lang, lines), suppress_embeds=True)

    def _table_line(self, lang: str, table: MyTable) -> str:
        url = jump_url(table.guild_id, table.channel_id, table.message_id)
        link = self.t(lang, "host.mine.link", url=url) if url else ""
        last = self.t(lang, "host.mine.last", at=int(table.last_move)) if table.last_move else ""
        if table.parked:
            reason = self.t(lang, f"host.parked.{table.parked}")
            return self.t(lang, "host.mine.parked", game=table.title, id=table.game_id, reason=reason)
        if table.your_move:
            return self.t(
                lang, "host.mine.your_move", game=table.title, id=table.game_id, last=last, link=link
            )
        if table.status == GameStatus.ACTIVE:
            return self.t(
                lang,
                "host.mine.running",
                game=table.title,
                id=table.game_id,
                players=", ".join(table.waiting) or self.t(lang, "host.nobody"),
                last=last,
                link=link,
            )
        return self.t(
            lang,
            "host.mine.lobby",
            game=table.title,
            id=table.game_id,
            count=table.seated,
            min=table.min_players,
            max=table.max_players,
            host=self.t(lang, "host.mine.you_host") if table.host else "",
            link=link,
        )

    def _fit(self, lang: str, lines: Sequence[str]) -> str:
        """As many lines as fit one message, then how many were left out."""
        kept: list[str] = []
        size = 0
        for index, line in enumerate(lines):
            if size + len(line) + 1 > LIMIT - 40:
                kept.append(self.t(lang, "host.mine.more", count=len(lines) - index))
                break
            kept.append(line)
            size += len(line) + 1
        return clip("\n".join(kept))

    # -- /game stats and /game leaderboard -------------------------------------------------------

    async def stats(
        self, interaction: discord.Interaction, player: discord.User | discord.Member | None, game: str | None
    ) -> None:
        """A player's games played and won, and their average time to move (here, or in a direct
        message your own, over every server)."""
        lang = self.reader(interaction)
        try:
            entry = self.lobby.entry(game) if game else None
            who = player or interaction.user
            if interaction.guild_id is None and who.id != interaction.user.id:
                raise Refusal("host.stats.own_only")
        except Refusal as refusal:
            await self.clicks.refuse(interaction, refusal, lang)
            return
        record = await self.stats_service.record(
            who.id, guild_id=interaction.guild_id, game=entry.name if entry else None
        )
        title = entry.rules.title if entry else self.t(lang, "host.stats.all_games")
        scope = self.t(lang, "host.stats.here" if interaction.guild_id else "host.stats.everywhere")
        lines = [self.t(lang, "host.stats.head", player=who.display_name, game=title, scope=scope)]
        if record.played:
            lines.append(
                self.t(
                    lang,
                    "host.stats.played",
                    played=record.played,
                    won=record.won,
                    rate=_percent(record.won, record.played),
                )
            )
        else:
            lines.append(self.t(lang, "host.stats.none"))
        if record.waited is not None:
            lines.append(
                self.t(
                    lang,
                    f"host.stats.pace_{plural(lang, record.answered)}",
                    time=self.duration(lang, record.waited),
                    moves=record.answered,
                )
            )
        else:
            lines.append(self.t(lang, "host.stats.pace_unknown"))
        if record.timeouts:
            lines.append(self.t(lang, "host.stats.timeouts", count=record.timeouts))
        if interaction.guild_id is not None:
            # Ratings are per server: a direct message, over every server, has none to show.
            season, ratings = await self.stats_service.ratings(
                who.id, interaction.guild_id, entry.name if entry else None
            )
            if ratings:
                lines.append(self.t(lang, "host.stats.rating_head", season=season))
            words = self.publisher.catalog.words(lang)
            for rated in ratings:
                found = self.lobby.sessions.registry.get(rated.game)
                lines.append(
                    self.t(
                        lang,
                        f"host.stats.rating_{plural(lang, rated.games)}",
                        game=found.rules.title if found else rated.game,
                        rating=words.number(rated.rating),
                        games=words.number(rated.games),
                    )
                )
        await safe.reply(interaction, "\n".join(lines))

    async def leaderboard(
        self, interaction: discord.Interaction, game: str, season: int | None = None
    ) -> None:
        """This server's best players at one game in a season (default: the current one), by
        conservative rating; newcomers apart (:mod:`bot.services.seasons`)."""
        lang = self.reader(interaction)
        try:
            guild_id = server_of(interaction)
            entry = self.lobby.entry(game)
            board = await self.stats_service.seasons.board(guild_id, entry.name, season)
        except Refusal as refusal:
            await self.clicks.refuse(interaction, refusal, lang)
            return
        title = entry.rules.title
        if not board.ranked and not board.newcomers:
            await safe.reply(
                interaction, self.t(lang, "host.season.board_empty", game=title, season=board.season)
            )
            return
        key = "host.season.board_head" if board.season == board.current else "host.season.board_head_past"
        lines = [self.t(lang, key, game=title, season=board.season, current=board.current)]
        lines.extend(self._board_line(lang, line) for line in board.ranked)
        if board.newcomers:
            lines.append(self.t(lang, "host.season.newcomers", min=MIN_GAMES))
            lines.extend(self._board_line(lang, line) for line in board.newcomers)
        lines.append(self.t(lang, "host.season.board_note"))
        await safe.reply(interaction, self._fit(lang, lines))

    def _board_line(self, lang: str, line: BoardLine) -> str:
        return self.t(
            lang,
            "host.season.board_line",
            place=line.place,
            player=clip(line.name, 40),
            rating=self.publisher.catalog.words(lang).number(line.rating),
            games=line.games,
            won=line.wins,
        )

    async def new_season(self, interaction: discord.Interaction) -> None:
        """Start the server's next season (Manage Server): every rating starts fresh, the past
        seasons' boards stay readable with ``/game leaderboard season:``."""
        lang = self.reader(interaction)
        try:
            guild_id = settings_server(interaction, None)
        except Refusal as refusal:
            await self.clicks.refuse(interaction, refusal, lang)
            return
        season = await self.stats_service.seasons.start(guild_id)
        await safe.reply(interaction, self.t(lang, "host.season.started", season=season, past=season - 1))

    def duration(self, lang: str, seconds: float) -> str:
        """ "under a minute", "25 min", "3 h 20 min", "2 d 5 h": rounded to what a reader needs."""
        minutes = int(seconds // 60)
        if minutes < 1:
            return self.t(lang, "host.stats.under_minute")
        if minutes < 60:
            return self.t(lang, "host.stats.minutes", minutes=minutes)
        hours, minutes = divmod(minutes, 60)
        if hours < 24:
            if minutes == 0:
                return self.t(lang, "host.stats.hours", hours=hours)
            return self.t(lang, "host.stats.hours_minutes", hours=hours, minutes=minutes)
        days, hours = divmod(hours, 24)
        if hours == 0:
            return self.t(lang, "host.stats.days", days=days)
        return self.t(lang, "host.stats.days_hours", days=days, hours=hours)

    # -- /game settings --------------------------------------------------------------------------

    async def server_settings(
        self,
        interaction: discord.Interaction,
        *,
        remind: str | None,
        timer: str | None,
        channel: discord.abc.GuildChannel | None,
        role: discord.Role | None,
        reset: str | None,
    ) -> None:
        """Show (no options) or change the server's settings; Manage Server only."""
        lang = self.reader(interaction)
        try:
            guild_id = settings_server(interaction, channel)
            if all(option is None for option in (remind, timer, channel, role, reset)):
                current = await self.settings.get(guild_id)
                await safe.reply(
                    interaction, self._settings_text(lang, current, self.t(lang, "host.settings.head"))
                )
                return
            changed = await self.settings.change(
                guild_id,
                remind=remind,
                timer=timer,
                channel_id=channel.id if channel is not None else None,
                opener_role_id=role.id if role is not None else None,
                reset=reset,
            )
        except Refusal as refusal:
            await self.clicks.refuse(interaction, refusal, lang)
            return
        await safe.reply(interaction, self._settings_text(lang, changed, self.t(lang, "host.settings.saved")))

    def _settings_text(self, lang: str, settings: GuildSettings, head: str) -> str:
        defaults = self.publisher.sessions.hours
        mark = self.t(lang, "host.settings.default_mark")
        remind = settings.remind_hours if settings.remind_hours is not None else defaults.remind
        timer = settings.timer_hours if settings.timer_hours is not None else defaults.timer
        lines = [
            head,
            self.t(
                lang,
                "host.settings.remind",
                value=(
                    self.t(lang, "host.settings.every", hours=remind)
                    if remind
                    else self.t(lang, "host.settings.off")
                )
                + (mark if settings.remind_hours is None else ""),
            ),
            self.t(
                lang,
                "host.settings.timer",
                value=(
                    self.t(lang, "host.settings.after", hours=timer)
                    if timer
                    else self.t(lang, "host.settings.off")
                )
                + (mark if settings.timer_hours is None else ""),
            ),
            self.t(
                lang,
                "host.settings.channel",
                value=f"<#{settings.channel_id}>"
                if settings.channel_id
                else self.t(lang, "host.settings.anywhere"),
            ),
            self.t(
                lang,
                "host.settings.openers",
                value=self.t(lang, "host.settings.role", role=f"<@&{settings.opener_role_id}>")
                if settings.opener_role_id
                else self.t(lang, "host.settings.anyone"),
            ),
            self.t(lang, "host.settings.hint"),
        ]
        return "\n".join(lines)

    # -- where /game new opens a table -----------------------------------------------------------

    async def place(self, interaction: discord.Interaction) -> Place | None:
        """Where a table opened by this member goes: ``None`` for right here, else the server's
        chosen channel.  Raises ``Refusal`` when the member may not open tables, or the chosen
        channel is gone (a table is never opened somewhere the server did not choose)."""
        guild = interaction.guild
        if guild is None:
            raise Refusal("host.refuse.dm")
        settings = await self.settings.get(guild.id)
        member = interaction.user
        roles = {role.id for role in getattr(member, "roles", ())}
        if not may_open(settings, roles, manager=is_manager(interaction)):
            raise Refusal("host.settings.not_opener", role=f"<@&{settings.opener_role_id}>")
        if settings.channel_id is None or settings.channel_id == interaction.channel_id:
            return None
        found = guild.get_channel(settings.channel_id)
        if not isinstance(found, (discord.TextChannel, discord.ForumChannel)):
            raise Refusal("host.settings.channel_gone")
        return found

    async def open_elsewhere(self, interaction: discord.Interaction, game: LiveGame, place: Place) -> None:
        """Post a new table's lobby in the server's chosen channel: a message with its own thread
        in a text channel, a post (a thread whose first message is the lobby) in a forum."""
        lang = self.reader(interaction)
        await safe.defer(interaction, thinking=True, ephemeral=True)
        posted = await self.desk.post_lobby(game)  # a message and its thread, or a forum post
        if not posted:
            await self.lobby.close(
                game.id, interaction.user.id, moderator=True, status=GameStatus.ABANDONED, reason="not_posted"
            )
            await safe.reply(interaction, self.t(lang, "host.internal_error"))
            return
        fresh = await self.publisher.sessions.load(game.id)
        messages = await self.desk.messages.live(game.id, MessageKind.LOBBY)
        message = messages[-1] if messages else None
        url = jump_url(
            interaction.guild_id,
            message.channel_id if message else fresh.row.table_channel_id,
            message.message_id if message else None,
        )
        await safe.reply(
            interaction,
            self.t(lang, "host.settings.opened_there", id=game.id, channel=place.id, url=url or ""),
            suppress_embeds=True,
        )


def _guild_name(client: discord.Client, guild_id: int) -> str:
    guild = client.get_guild(guild_id)
    return guild.name if guild is not None else str(guild_id)


def _percent(part: int, whole: int) -> int:
    return round(100 * part / whole) if whole else 0
