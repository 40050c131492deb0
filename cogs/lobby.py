"""``/game``: start, list, show, leave, abandon, export and explain tables.

Thin by design: each command resolves the table, calls the lobby or table
service, and phrases the answer from the catalog.
"""

from __future__ import annotations

import io
import json
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.export import export_game
from bot.services.clocks import MAX_AWAY_DAYS, ClockReport, hours_option
from bot.session import LiveGame, Refusal
from bot.ui import safe
from bot.ui.components import lobby_button

if TYPE_CHECKING:
    from bot.client import GameBot

log = logging.getLogger(__name__)

OPEN = ("lobby", "active")
ENDED = ("finished", "abandoned", "broken")


class LobbyCog(commands.Cog):
    # Allowed in DMs on purpose: /game rules works there, and every other
    # subcommand answers with a sentence instead of being silently hidden.
    game = app_commands.Group(
        name="game",
        description="Board game tables",
        allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True),
    )

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    def t(self, key: str, /, **params: object) -> str:
        return self.bot.catalog.text(key, self.bot.settings.language, **params)

    async def _refuse(self, interaction: discord.Interaction, refusal: Refusal) -> None:
        await self.bot.tables.refuse(interaction, refusal, self.bot.settings.language)

    async def _table(
        self, interaction: discord.Interaction, table: int | None, *, ended: bool = False
    ) -> LiveGame:
        """The named table in this server, or the only open one in this channel or thread.

        With ``ended``, a finished table's own thread also names it (``/game export`` or
        ``/game show`` typed in the thread of a game that is over).
        """
        if interaction.guild_id is None:
            raise Refusal("host.refuse.dm")
        if table is not None:
            game = await self.bot.sessions.load(table)
            if game.row.guild_id != interaction.guild_id:
                raise Refusal("host.refuse.no_game", game_id=table)
            return game
        channel_id = interaction.channel_id or 0
        here = await self.bot.store.games_in_channel(channel_id, OPEN)
        if not here and ended:
            over = await self.bot.store.games_in_channel(channel_id, ENDED)
            here = [row for row in over if row.thread_id == channel_id][-1:]
        if not here:
            raise Refusal("host.refuse.no_table_here")
        if len(here) > 1:
            raise Refusal("host.refuse.several_tables", ids=", ".join(f"#{g.id}" for g in here))
        return await self.bot.sessions.load(here[0].id)

    # -- /game new -------------------------------------------------------------------------------

    @game.command(name="new", description="Open a table for a game; others join with a button")
    @app_commands.describe(
        name="Which game",
        options="Optional table options, e.g. rounds=3",
        remind="Remind a player we wait on after… (e.g. 24h, 2d, off; default: the server's)",
        timer="Make the default move for a player we waited on for… (e.g. 48h, off; default: the server's)",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        name: str,
        options: str | None = None,
        remind: str | None = None,
        timer: str | None = None,
    ) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            await self._refuse(interaction, Refusal("host.refuse.dm"))
            return
        try:
            # The server may keep tables to one channel, and opening them to one role (/game settings).
            place = await self.bot.players.place(interaction)
            remind_hours, timer_hours = hours_option(remind), hours_option(timer)
            game = await self.bot.lobby.create(
                game=name,
                options_text=options,
                host_id=interaction.user.id,
                host_name=interaction.user.display_name,
                guild_id=interaction.guild_id,
                channel_id=place.id if place is not None else interaction.channel_id,
                language=self.bot.settings.language,
                remind_hours=remind_hours,
                timer_hours=timer_hours,
            )
        except Refusal as refusal:
            await self._refuse(interaction, refusal)
            return
        if place is not None:
            await self.bot.players.open_elsewhere(interaction, game, place)
            return
        desk = self.bot.lobby_desk
        view = desk.view(game)
        try:
            await interaction.response.send_message(desk.content(game), view=view or discord.utils.MISSING)
            message = await interaction.original_response()
        except safe.FAILURES as exc:
            # Nobody can see or join a lobby without its message: close it rather than leave a ghost.
            log.warning("game %s: the lobby message could not be posted (%s); closing it", game.id, exc)
            await self.bot.lobby.close(
                game.id, interaction.user.id, moderator=True, status="abandoned", reason="not posted"
            )
            await safe.reply(interaction, self.t("host.internal_error"))
            return
        await desk.opened(game, message)

    @new.autocomplete("name")
    async def _new_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return self._game_names(current)

    def _game_names(self, current: str) -> list[app_commands.Choice[str]]:
        text = current.lower()
        return [
            app_commands.Choice(name=e.rules.title, value=e.name)
            for e in self.bot.registry.public()
            if text in e.name or text in e.rules.title.lower()
        ][:25]

    # -- /game list ------------------------------------------------------------------------------

    @game.command(name="list", description="Tables in this server")
    async def list_(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            await self._refuse(interaction, Refusal("host.refuse.dm"))
            return
        rows = await self.bot.store.games(guild_id=interaction.guild_id, statuses=OPEN)
        if not rows:
            await safe.reply(interaction, self.t("host.lobby.list_empty"))
            return
        lines = [self.t("host.lobby.list_head")]
        for row in rows[-20:]:
            game = await self.bot.sessions.load(row.id)
            extra = ""
            if game.status == "active":
                waiting = ", ".join(game.names[s] for s in sorted(game.waiting()))
                extra = self.t("host.lobby.list_waiting", players=waiting)
                # The last *public* move: the moment of a hidden one (a stow) is hidden too.
                if row.public_at is not None:
                    extra += self.t("host.lobby.list_last", at=int(row.public_at))
            lines.append(
                self.t(
                    "host.lobby.list_line",
                    id=row.id,
                    game=game.entry.rules.title,
                    status=game.status,
                    players=", ".join(game.names),
                    extra=extra,
                )
            )
        await safe.reply(interaction, "\n".join(lines)[:2000])

    # -- /game show ------------------------------------------------------------------------------

    @game.command(name="show", description="Post the current table message again")
    @app_commands.describe(table="Table number (default: the table in this channel)")
    async def show(self, interaction: discord.Interaction, table: int | None = None) -> None:
        try:
            game = await self._table(interaction, table, ended=True)
            if game.status not in ("active", "finished", "abandoned"):
                raise Refusal("host.refuse.not_started" if game.status == "lobby" else "host.refuse.over")
            # A repost moves the board to the bottom of the thread: the players' call, not a spectator's.
            moderator = bool(interaction.permissions and interaction.permissions.manage_guild)
            if game.seat_of(interaction.user.id) is None and not moderator:
                raise Refusal("host.refuse.players_only")
        except Refusal as refusal:
            await self._refuse(interaction, refusal)
            return
        # Post first, then say what happened: posting may take a few retries.
        await safe.defer(interaction, thinking=True, ephemeral=True)
        posted = await self.bot.tables.refresh(game)
        await safe.reply(
            interaction, self.t("host.lobby.shown" if posted else "host.lobby.show_failed", id=game.id)
        )

    # -- /game leave -----------------------------------------------------------------------------

    @game.command(name="leave", description="Leave a table")
    @app_commands.describe(table="Table number (default: the table in this channel)")
    async def leave(self, interaction: discord.Interaction, table: int | None = None) -> None:
        try:
            game = await self._table(interaction, table)
            if game.seat_of(interaction.user.id) is None:
                raise Refusal("host.refuse.not_seated")
            if game.status == "lobby":
                await self.bot.lobby.leave(game.id, interaction.user.id)
                await safe.reply(interaction, self.t("host.lobby.left_lobby", id=game.id))
                await self.bot.lobby_desk.edit(await self.bot.sessions.load(game.id))
                return
        except Refusal as refusal:
            await self._refuse(interaction, refusal)
            return
        view = discord.ui.View(timeout=None)
        view.add_item(lobby_button(game.id, "withdraw", self.t("host.lobby.withdraw"), "danger"))
        await safe.reply(interaction, self.t("host.lobby.confirm_withdraw"), view=view)

    # -- /game abandon ---------------------------------------------------------------------------

    @game.command(name="abandon", description="Close a table (host or Manage Server)")
    @app_commands.describe(table="Table number (default: the table in this channel)")
    async def abandon(self, interaction: discord.Interaction, table: int | None = None) -> None:
        try:
            found = await self._table(interaction, table)
            moderator = bool(interaction.permissions and interaction.permissions.manage_guild)
            game = await self.bot.lobby.close(
                found.id,
                interaction.user.id,
                moderator=moderator,
                status="abandoned",
                reason=f"abandoned by {interaction.user.display_name}",
            )
        except Refusal as refusal:
            await self._refuse(interaction, refusal)
            return
        await safe.reply(interaction, self.t("host.lobby.abandoned_done", id=game.id))
        if found.status == "lobby":
            await self.bot.lobby_desk.edit(game)
        else:
            await self.bot.tables.close_table(
                game, [self.t("host.abandoned", player=interaction.user.display_name)]
            )

    # -- /game export ----------------------------------------------------------------------------

    @game.command(name="export", description="Download a finished game (seed and every move) as JSON")
    @app_commands.describe(table="Table number (default: the table in this channel)")
    async def export(self, interaction: discord.Interaction, table: int | None = None) -> None:
        try:
            if interaction.guild_id is None:
                raise Refusal("host.refuse.dm")
            if table is None:
                game = await self._table(interaction, None, ended=True)
            else:
                game = await self.bot.sessions.load(table)
                if game.row.guild_id != interaction.guild_id:
                    raise Refusal("host.refuse.no_game", game_id=table)
            if game.status in ("lobby", "active"):
                raise Refusal("host.refuse.export_running")
        except Refusal as refusal:
            await self._refuse(interaction, refusal)
            return
        data = await export_game(self.bot.store, game.id)
        payload = json.dumps(data, indent=1).encode()
        file = discord.File(io.BytesIO(payload), filename=f"game-{game.id}.json")
        await safe.reply(interaction, self.t("host.lobby.export_ready", id=game.id), file=file)

    # -- slow games: notify, away --------------------------------------------------------------
    #
    # /game notify and /game away are a player's own, across every server (DMs too); /game clock
    # is a table's, for its host or a moderator.  The work is in bot.services.clocks.

    @game.command(name="notify", description="How table reminders reach you")
    @app_commands.describe(how="A ping in the table's thread, a direct message, or no reminders")
    @app_commands.choices(
        how=[
            app_commands.Choice(name="ping me in the table's thread", value="thread"),
            app_commands.Choice(name="send me a direct message", value="dm"),
            app_commands.Choice(name="no reminders", value="none"),
        ]
    )
    async def set_notify(self, interaction: discord.Interaction, how: app_commands.Choice[str]) -> None:
        try:
            await self.bot.scheduler.reminders.set_notify(interaction.user.id, how.value)
        except Refusal as refusal:
            await self._refuse(interaction, refusal)
            return
        await safe.reply(interaction, self.t(f"host.notify.{how.value}"))

    @game.command(name="away", description="Away for a few days: no reminders, and your turn timers wait")
    @app_commands.describe(days=f"How many days (1 to {MAX_AWAY_DAYS}; 0: I am back)", back="I am back early")
    async def set_away(
        self,
        interaction: discord.Interaction,
        days: app_commands.Range[int, 0, MAX_AWAY_DAYS] | None = None,
        back: bool = False,
    ) -> None:
        if days is None and not back:
            away_until = await self.bot.clocks.away_until(interaction.user.id)
            if away_until is not None:
                await safe.reply(interaction, self.t("host.away.still", until=int(away_until)))
            else:
                await safe.reply(interaction, self.t("host.away.not_away"))
            return
        try:
            until, games = await self.bot.clocks.set_away(interaction.user.id, 0 if back else days or 0)
        except Refusal as refusal:
            await self._refuse(interaction, refusal)
            return
        if until is None:
            await safe.reply(interaction, self.t("host.away.back"))
        else:
            await safe.reply(interaction, self.t("host.away.set", until=int(until)))
        for game_id in games:  # their boards say "away until …", or no longer
            await self.bot.tables.redraw(game_id)

    @game.command(name="clock", description="A table's reminder and turn timer (host or Manage Server)")
    @app_commands.describe(
        table="Table number (default: the table in this channel)",
        remind="Remind after… (e.g. 24h, 2d, off, default); leave out to keep it",
        timer="Default move after… (e.g. 48h, off, default); leave out to keep it",
    )
    async def table_clock(
        self,
        interaction: discord.Interaction,
        table: int | None = None,
        remind: str | None = None,
        timer: str | None = None,
    ) -> None:
        try:
            game = await self._table(interaction, table)
            if remind is None and timer is None:
                report = await self.bot.clocks.report(game.id)
                await safe.reply(
                    interaction, self.t("host.timer.clock", id=game.id, clock=self._clock(report))
                )
                return
            moderator = bool(interaction.permissions and interaction.permissions.manage_guild)
            report = await self.bot.clocks.set_table(
                game.id, interaction.user.id, moderator=moderator, remind=remind, timer=timer
            )
        except Refusal as refusal:
            await self._refuse(interaction, refusal)
            return
        await safe.reply(interaction, self.t("host.timer.changed", id=game.id, clock=self._clock(report)))

    def _clock(self, report: ClockReport) -> str:
        """``reminders after 24 h (default) · default move after 48 h``."""
        hours, own = report.hours, report.own
        mark = self.t("host.timer.default_mark")
        remind = (
            self.t("host.timer.remind_every", hours=hours.remind)
            if hours.remind
            else self.t("host.timer.remind_off")
        ) + (mark if own.remind_hours is None else "")
        timer = (
            self.t("host.timer.timer_after", hours=hours.timer)
            if hours.timer
            else self.t("host.timer.timer_off")
        ) + (mark if own.timer_hours is None else "")
        return f"{remind} · {timer}"

    # -- undo, my tables, settings, stats --------------------------------------------------------
    #
    # Undo is a button on every board (bot.ui.undo).  /game mine and /game stats work in direct
    # messages too (over every server); /game settings is for Manage Server.  The work is in
    # bot.services.mine, .stats and .server_settings, phrased by bot.ui.players.

    @game.command(name="mine", description="Your tables, the ones waiting for you first")
    async def mine(self, interaction: discord.Interaction) -> None:
        await self.bot.players.mine(interaction)

    @game.command(name="stats", description="Games played and won, and the average time to move")
    @app_commands.describe(player="Whose (default: yours)", game="Which game (default: all)")
    async def stats(
        self,
        interaction: discord.Interaction,
        player: discord.User | None = None,
        game: str | None = None,
    ) -> None:
        await self.bot.players.stats(interaction, player, game)

    @game.command(name="leaderboard", description="This server's best players at a game")
    @app_commands.describe(game="Which game")
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        await self.bot.players.leaderboard(interaction, game)

    @stats.autocomplete("game")
    @leaderboard.autocomplete("game")
    async def _stats_games(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return self._game_names(current)

    @game.command(name="settings", description="This server's table settings (Manage Server)")
    @app_commands.describe(
        remind="Default reminder for new tables (e.g. 24h, 2d, off, default)",
        timer="Default turn timer for new tables (e.g. 48h, off, default)",
        channel="The text channel or forum where /game new opens tables",
        role="Only members with this role (and Manage Server) may open tables",
        reset="Go back to a default",
    )
    @app_commands.choices(
        reset=[
            app_commands.Choice(name="tables open where /game new is typed", value="channel"),
            app_commands.Choice(name="anyone may open tables", value="role"),
            app_commands.Choice(name="the bot's default reminder and timer", value="clocks"),
        ]
    )
    async def server_settings(
        self,
        interaction: discord.Interaction,
        remind: str | None = None,
        timer: str | None = None,
        channel: discord.TextChannel | discord.ForumChannel | None = None,
        role: discord.Role | None = None,
        reset: app_commands.Choice[str] | None = None,
    ) -> None:
        await self.bot.players.server_settings(
            interaction,
            remind=remind,
            timer=timer,
            channel=channel,
            role=role,
            reset=reset.value if reset is not None else None,
        )

    # -- /game rules -----------------------------------------------------------------------------

    @game.command(name="rules", description="A short summary of a game's rules")
    @app_commands.describe(name="Which game")
    async def rules(self, interaction: discord.Interaction, name: str) -> None:
        try:
            entry = self.bot.lobby.entry(name)
        except Refusal as refusal:
            await self._refuse(interaction, refusal)
            return
        rules = entry.rules
        lang = self.bot.settings.language
        head = self.t("host.lobby.rules_head", game=rules.title, min=rules.min_players, max=rules.max_players)
        body = self.t(f"{entry.name}.rules")
        options = "\n".join(f"`{o.name}` (default {o.default}): {o.help}" for o in rules.options)
        presenter = self.bot.tables.presenters.get(entry.name)
        rulings = "\n".join(presenter.rulings(lang)) if presenter is not None else ""
        # Longer than one message (a game's rulings): several ephemeral messages, cut between lines.
        await safe.reply_long(interaction, "\n".join(p for p in (head, body, options, rulings) if p))

    @rules.autocomplete("name")
    async def _rules_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return self._game_names(current)

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """Tell a table when one of its players leaves the server (needs the members intent)."""
        for row in await self.bot.store.games(guild_id=payload.guild_id, statuses=("active",)):
            game = await self.bot.sessions.load(row.id)
            seat = game.seat_of(payload.user.id)
            if seat is not None and row.table_channel_id:
                await safe.send(
                    self.bot.tables.channel(row.table_channel_id),
                    content=self.t("host.member_left", player=game.names[seat]),
                    allowed_mentions=discord.AllowedMentions.none(),
                )


async def setup(bot: GameBot) -> None:
    await bot.add_cog(LobbyCog(bot))
