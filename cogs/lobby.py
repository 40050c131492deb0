"""``/game``: start, list, show, leave, abandon, export and explain tables.

Thin by design: each command resolves the table, calls the lobby or table
service, and phrases the answer from the catalog.
"""

from __future__ import annotations

import io
import json
import logging
from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.i18n import available_languages
from bot.services.clocks import MAX_AWAY_DAYS, ClockReport, hours_option
from bot.services.reach import ReachService
from bot.services.sessions import LiveGame, Refusal
from bot.storage import CLOSED_STATUSES, OPEN_STATUSES, STARTED_STATUSES, GameStatus, StoreError
from bot.ui import safe
from bot.ui.access import is_manager, server_and_channel, server_of, settings_server
from bot.ui.components import lobby_button
from bot.ui.host import Host
from bot.ui.translator import choice

log = logging.getLogger(__name__)

LANGUAGES = [app_commands.Choice(name=name, value=code) for code, name in available_languages()]
"""``/game new``'s ``language`` choices: one per catalog in ``bot/locales``, named in itself
(never translated: a French speaker looks for "Français", an English one for "English")."""
NOTIFY = "commands.game.notify.choice.how."
RESET = "commands.game.settings.choice.reset."
"""Catalog keys of the choices' names, for their translations (:mod:`bot.ui.translator`)."""


class LobbyCog(commands.Cog):
    # Allowed in DMs on purpose: /game rules works there, and every other
    # subcommand answers with a sentence instead of being silently hidden.
    game = app_commands.Group(
        name="game",
        description="Board game tables",
        allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True),
    )

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.places = ReachService(bot.sessions)

    def t(self, lang: str, key: str, /, **params: object) -> str:
        return self.bot.catalog.text(key, lang, **params)

    async def _refuse(
        self, interaction: discord.Interaction, refusal: Refusal, fallback: str | None = None
    ) -> None:
        """A refusal in the player's language, else ``fallback`` (the table's, once the command
        found its table), else the server's."""
        await self.bot.clicks.refuse(interaction, refusal, fallback or self.bot.server_language(interaction))

    def _for(self, interaction: discord.Interaction, table: LiveGame) -> str:
        """The language of an answer to this player about ``table``: theirs, else the table's."""
        return self.bot.publisher.reader(interaction, table.row.language)

    async def _table(
        self, interaction: discord.Interaction, table: int | None, *, ended: bool = False
    ) -> LiveGame:
        """The named table in this server, or the only open one in this channel or thread.

        With ``ended``, a finished table's own thread also names it (``/game export`` or
        ``/game show`` typed in the thread of a game that is over).
        """
        guild_id = server_of(interaction)
        if table is not None:
            game = await self.bot.sessions.load(table)
            if game.row.guild_id != guild_id:
                raise Refusal("host.refuse.no_game", game_id=table)
            return game
        channel_id = interaction.channel_id or 0
        here = await self.bot.lobby.tables_here(channel_id, ended=ended)
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
        language="The table's language: its messages, buttons and images (default: the server's)",
    )
    @app_commands.choices(language=LANGUAGES)
    async def new(
        self,
        interaction: discord.Interaction,
        name: str,
        options: str | None = None,
        remind: str | None = None,
        timer: str | None = None,
        language: app_commands.Choice[str] | None = None,
    ) -> None:
        lang = self.bot.reader(interaction)
        # The table's own language: asked for, else the server's when we have it, else the bot's.
        table_language = language.value if language is not None else self.bot.server_language(interaction)
        try:
            guild_id, channel_id = server_and_channel(interaction)
            # The server may keep tables to one channel, and opening them to one role (/game settings).
            place = await self.bot.players.place(interaction)
            remind_hours, timer_hours = hours_option(remind), hours_option(timer)
            # Past a limit on opening tables (/game settings), refused with the limit, the count
            # and when to try again; Manage Server may pass the per-member limits.
            game = await self.bot.lobby.create(
                game=name,
                options_text=options,
                host_id=interaction.user.id,
                host_name=interaction.user.display_name,
                guild_id=guild_id,
                channel_id=place.id if place is not None else channel_id,
                language=table_language,
                remind_hours=remind_hours,
                timer_hours=timer_hours,
                limited=True,
                manager=is_manager(interaction),
            )
        except Refusal as refusal:
            await self._refuse(interaction, refusal)
            return
        if place is not None:
            await self.bot.players.open_elsewhere(interaction, game, place)
            return
        desk = self.bot.lobby_desk
        view = desk.view(game)
        message = await safe.announce(interaction, desk.content(game), view=view or discord.utils.MISSING)
        if isinstance(message, safe.Failed):
            # Nobody can see or join a lobby without its message: close it rather than leave a ghost.
            log.warning("game %s: the lobby message could not be posted (%s); closing it", game.id, message)
            await self.bot.lobby.close(
                game.id, interaction.user.id, moderator=True, status=GameStatus.ABANDONED, reason="not_posted"
            )
            await safe.reply(interaction, self.t(lang, "host.internal_error"))
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
        """Open tables, each with its status worded in the reader's language (a table that broke
        while loading shows as such): the stored status is a code, never shown as is."""
        lang = self.bot.reader(interaction)
        try:
            guild_id = server_of(interaction)
        except Refusal as refusal:
            await self._refuse(interaction, refusal)
            return
        rows = await self.bot.lobby.tables_in_server(guild_id, OPEN_STATUSES)
        if not rows:
            await safe.reply(interaction, self.t(lang, "host.lobby.list_empty"))
            return
        lines = [self.t(lang, "host.lobby.list_head")]
        parked = await self.places.parked_among(row.id for row in rows[-20:])
        for row in rows[-20:]:
            game = await self.bot.sessions.load(row.id)
            extra = ""
            if row.id in parked:
                reason = self.t(lang, f"host.parked.{parked[row.id]}")
                extra = self.t(lang, "host.lobby.list_parked", reason=reason, id=row.id)
            elif game.status == GameStatus.ACTIVE:
                waiting = ", ".join(game.names[s] for s in sorted(game.waiting()))
                extra = self.t(lang, "host.lobby.list_waiting", players=waiting)
                # The last *public* move: the moment of a hidden one (a stow) is hidden too.
                if row.public_at is not None:
                    extra += self.t(lang, "host.lobby.list_last", at=int(row.public_at))
            lines.append(
                self.t(
                    lang,
                    "host.lobby.list_line",
                    id=row.id,
                    game=game.entry.rules.title,
                    status=self.t(lang, f"host.lobby.list_status.{game.status}"),
                    players=", ".join(game.names),
                    extra=extra,
                )
            )
        await safe.reply(interaction, "\n".join(lines)[:2000])

    # -- /game show ------------------------------------------------------------------------------

    @game.command(name="show", description="Post the current table message again")
    @app_commands.describe(table="Table number (default: the table in this channel)")
    async def show(self, interaction: discord.Interaction, table: int | None = None) -> None:
        lang = self.bot.reader(interaction)
        try:
            game = await self._table(interaction, table, ended=True)
            lang = self._for(interaction, game)
            if game.status not in (*STARTED_STATUSES, GameStatus.ABANDONED):
                raise Refusal(
                    "host.refuse.not_started" if game.status == GameStatus.LOBBY else "host.refuse.over"
                )
            # A repost moves the board to the bottom of the thread: the players' call, not a spectator's.
            if game.seat_of(interaction.user.id) is None and not is_manager(interaction):
                raise Refusal("host.refuse.players_only")
        except Refusal as refusal:
            await self._refuse(interaction, refusal, lang)
            return
        # Post first, then say what happened: posting may take a few retries.
        await safe.defer(interaction, thinking=True, ephemeral=True)
        # The answer names the real cause: a database that cannot be written is not Discord's refusal.
        try:
            posted = await self.bot.publisher.refresh(game, here=_here(interaction))
            if posted:
                await safe.reply(interaction, self.t(lang, "host.lobby.shown", id=game.id))
                return
            parked = await self.places.parked(game.id)
            on_database = game.id in self.bot.publisher.store_failed
        except StoreError as exc:
            log.error("game %s: /game show failed on the database: %s", game.id, exc)
            parked, on_database = None, True
        if parked is None:
            key = "host.lobby.show_failed_storage" if on_database else "host.lobby.show_failed"
            await safe.reply(interaction, self.t(lang, key, id=game.id))
            return
        reason = self.t(lang, f"host.parked.{parked}")
        await safe.reply(interaction, self.t(lang, "host.lobby.show_parked", id=game.id, reason=reason))

    # -- /game leave -----------------------------------------------------------------------------

    @game.command(name="leave", description="Leave a table")
    @app_commands.describe(table="Table number (default: the table in this channel)")
    async def leave(self, interaction: discord.Interaction, table: int | None = None) -> None:
        lang = self.bot.reader(interaction)
        try:
            game = await self._table(interaction, table)
            lang = self._for(interaction, game)
            if game.seat_of(interaction.user.id) is None:
                raise Refusal("host.refuse.not_seated")
            if game.status == GameStatus.LOBBY:
                await self.bot.lobby.leave(game.id, interaction.user.id)
                await safe.reply(interaction, self.t(lang, "host.lobby.left_lobby", id=game.id))
                await self.bot.lobby_desk.edit(await self.bot.sessions.load(game.id))
                return
        except Refusal as refusal:
            await self._refuse(interaction, refusal, lang)
            return
        view = discord.ui.View(timeout=None)
        view.add_item(lobby_button(game.id, "withdraw", self.t(lang, "host.lobby.withdraw"), "danger"))
        await safe.reply(interaction, self.t(lang, "host.lobby.confirm_withdraw"), view=view)

    # -- /game abandon ---------------------------------------------------------------------------

    @game.command(name="abandon", description="Close a table (host or Manage Server)")
    @app_commands.describe(table="Table number (default: the table in this channel)")
    async def abandon(self, interaction: discord.Interaction, table: int | None = None) -> None:
        lang = self.bot.reader(interaction)
        try:
            found = await self._table(interaction, table)
            lang = self._for(interaction, found)
            game = await self.bot.lobby.close(
                found.id,
                interaction.user.id,
                moderator=is_manager(interaction),
                status=GameStatus.ABANDONED,
                reason=f"abandoned_by:{interaction.user.display_name}",
            )
        except Refusal as refusal:
            await self._refuse(interaction, refusal, lang)
            return
        await safe.reply(interaction, self.t(lang, "host.lobby.abandoned_done", id=game.id))
        if found.status == GameStatus.LOBBY:
            await self.bot.lobby_desk.edit(game)
        else:
            await self.bot.publisher.close_table(
                game, [self.t(game.row.language, "host.abandoned", player=interaction.user.display_name)]
            )

    # -- /game export ----------------------------------------------------------------------------

    @game.command(name="export", description="Download a finished game (seed and every move) as JSON")
    @app_commands.describe(table="Table number (default: the table in this channel)")
    async def export(self, interaction: discord.Interaction, table: int | None = None) -> None:
        lang = self.bot.reader(interaction)
        try:
            guild_id = server_of(interaction)
            if table is None:
                game = await self._table(interaction, None, ended=True)
            else:
                game = await self.bot.sessions.load(table)
                if game.row.guild_id != guild_id:
                    raise Refusal("host.refuse.no_game", game_id=table)
            lang = self._for(interaction, game)
            if game.status in OPEN_STATUSES:
                raise Refusal("host.refuse.export_running")
        except Refusal as refusal:
            await self._refuse(interaction, refusal, lang)
            return
        data = await self.bot.lobby.export(game.id)
        payload = json.dumps(data, indent=1).encode()
        file = discord.File(io.BytesIO(payload), filename=f"game-{game.id}.json")
        await safe.reply(interaction, self.t(lang, "host.lobby.export_ready", id=game.id), file=file)

    # -- slow games: notify, away --------------------------------------------------------------
    #
    # /game notify and /game away are a player's own, across every server (DMs too); /game clock
    # is a table's, for its host or a moderator.  The work is in bot.services.clocks.

    @game.command(name="notify", description="How table reminders reach you")
    @app_commands.describe(how="A ping in the table's thread, a direct message, or no reminders")
    @app_commands.choices(
        how=[
            choice("ping me in the table's thread", "thread", NOTIFY + "thread"),
            choice("send me a direct message", "dm", NOTIFY + "dm"),
            choice("no reminders", "none", NOTIFY + "none"),
        ]
    )
    async def set_notify(self, interaction: discord.Interaction, how: app_commands.Choice[str]) -> None:
        lang = self.bot.reader(interaction)
        try:
            await self.bot.scheduler.reminders.set_notify(interaction.user.id, how.value)
        except Refusal as refusal:
            await self._refuse(interaction, refusal)
            return
        await safe.reply(interaction, self.t(lang, f"host.notify.{how.value}"))

    @game.command(name="away", description="Away for a few days: no reminders, and your turn timers wait")
    @app_commands.describe(days=f"How many days (1 to {MAX_AWAY_DAYS}; 0: I am back)", back="I am back early")
    async def set_away(
        self,
        interaction: discord.Interaction,
        days: app_commands.Range[int, 0, MAX_AWAY_DAYS] | None = None,
        back: bool = False,
    ) -> None:
        lang = self.bot.reader(interaction)
        if days is None and not back:
            away_until = await self.bot.clocks.away_until(interaction.user.id)
            if away_until is not None:
                await safe.reply(interaction, self.t(lang, "host.away.still", until=int(away_until)))
            else:
                await safe.reply(interaction, self.t(lang, "host.away.not_away"))
            return
        try:
            until, games = await self.bot.clocks.set_away(interaction.user.id, 0 if back else days or 0)
        except Refusal as refusal:
            await self._refuse(interaction, refusal)
            return
        if until is None:
            await safe.reply(interaction, self.t(lang, "host.away.back"))
        else:
            await safe.reply(interaction, self.t(lang, "host.away.set", until=int(until)))
        for game_id in games:  # their boards say "away until …", or no longer
            await self.bot.publisher.redraw(game_id)

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
        lang = self.bot.reader(interaction)
        try:
            game = await self._table(interaction, table)
            lang = self._for(interaction, game)
            if remind is None and timer is None:
                report = await self.bot.clocks.report(game.id)
                await safe.reply(
                    interaction, self.t(lang, "host.timer.clock", id=game.id, clock=self._clock(lang, report))
                )
                return
            report = await self.bot.clocks.set_table(
                game.id, interaction.user.id, moderator=is_manager(interaction), remind=remind, timer=timer
            )
        except Refusal as refusal:
            await self._refuse(interaction, refusal, lang)
            return
        await safe.reply(
            interaction, self.t(lang, "host.timer.changed", id=game.id, clock=self._clock(lang, report))
        )

    def _clock(self, lang: str, report: ClockReport) -> str:
        """``reminders after 24 h (default) · default move after 48 h``."""
        hours, own = report.hours, report.own
        mark = self.t(lang, "host.timer.default_mark")
        remind = (
            self.t(lang, "host.timer.remind_every", hours=hours.remind)
            if hours.remind
            else self.t(lang, "host.timer.remind_off")
        ) + (mark if own.remind_hours is None else "")
        timer = (
            self.t(lang, "host.timer.timer_after", hours=hours.timer)
            if hours.timer
            else self.t(lang, "host.timer.timer_off")
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
    @app_commands.describe(game="Which game", season="Which season (default: the current one)")
    async def leaderboard(
        self, interaction: discord.Interaction, game: str, season: app_commands.Range[int, 1] | None = None
    ) -> None:
        await self.bot.players.leaderboard(interaction, game, season)

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
        lobbies="Open lobbies one member may host (0: no limit)",
        tables="Open tables, lobbies included, one member may host (0: no limit)",
        cooldown="Seconds to wait after one member opens 3 tables in a row (0: none)",
        server_tables="Open tables in the whole server (0: no limit)",
        new_season="Start a new season: every rating starts fresh, past seasons stay readable",
    )
    @app_commands.choices(
        reset=[
            choice("tables open where /game new is typed", "channel", RESET + "channel"),
            choice("anyone may open tables", "role", RESET + "role"),
            choice("the bot's default reminder and timer", "clocks", RESET + "clocks"),
            choice("the bot's default limits on opening tables", "limits", RESET + "limits"),
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
        lobbies: int | None = None,
        tables: int | None = None,
        cooldown: int | None = None,
        server_tables: int | None = None,
        new_season: bool | None = None,
    ) -> None:
        """Show or change the server's settings.  The limits on opening tables are handled here
        (the other settings by :meth:`bot.ui.players.PlayerDesk.server_settings`): a change that
        names one is answered with the limits in force, and a bare ``/game settings`` lists them
        after the other settings.  ``new_season`` starts the next season
        (:meth:`bot.ui.players.PlayerDesk.new_season`); given alone, nothing else is listed."""
        if new_season:
            await self.bot.players.new_season(interaction)
            if all(
                v is None
                for v in (remind, timer, channel, role, reset, lobbies, tables, cooldown, server_tables)
            ):
                return
        chosen = reset.value if reset is not None else None
        limits = {
            "lobbies_per_user": lobbies,
            "tables_per_user": tables,
            "cooldown_seconds": cooldown,
            "tables_per_server": server_tables,
        }
        others = (remind, timer, channel, role, None if chosen == "limits" else chosen)
        if any(v is not None for v in limits.values()) or chosen == "limits":
            await self._change_limits(interaction, limits, others, reset=chosen == "limits")
            return
        await self.bot.players.server_settings(
            interaction, remind=remind, timer=timer, channel=channel, role=role, reset=chosen
        )
        if (
            all(option is None for option in others)
            and interaction.guild_id is not None
            and is_manager(interaction)
        ):
            # The bare command: the other settings were listed; the limits follow.
            lang = self.bot.reader(interaction)
            await safe.reply(
                interaction, await self._limits_text(lang, interaction.guild_id, "host.limit.head")
            )

    async def _change_limits(
        self,
        interaction: discord.Interaction,
        limits: dict[str, int | None],
        others: tuple[object, ...],
        *,
        reset: bool,
    ) -> None:
        """Change the limits (and any other setting given with them), answered in one message."""
        lang = self.bot.reader(interaction)
        settings = self.bot.players.settings
        remind, timer, channel, role, reset_other = others
        try:
            guild_id = settings_server(interaction, channel)
            # Every value is checked before anything is saved: a refusal changes nothing.
            settings.check_limits(limits)
            if any(option is not None for option in others):
                await settings.change(
                    guild_id,
                    remind=remind if isinstance(remind, str) else None,
                    timer=timer if isinstance(timer, str) else None,
                    channel_id=channel.id if isinstance(channel, discord.abc.Snowflake) else None,
                    opener_role_id=role.id if isinstance(role, discord.Role) else None,
                    reset=reset_other if isinstance(reset_other, str) else None,
                )
            await settings.change_limits(guild_id, limits, reset=reset)
        except Refusal as refusal:
            await self._refuse(interaction, refusal)
            return
        text = await self._limits_text(lang, guild_id, "host.limit.saved")
        if any(option is not None for option in others):
            text += "\n" + self.t(lang, "host.limit.others_saved")
        await safe.reply(interaction, text)

    async def _limits_text(self, lang: str, guild_id: int, head: str) -> str:
        """The limits in force, one line each, the defaults marked."""
        stored, in_force = await self.bot.players.settings.limits(guild_id)
        mark = self.t(lang, "host.settings.default_mark")
        lines = [self.t(lang, head)]
        for name in ("lobbies_per_user", "tables_per_user", "cooldown_seconds", "tables_per_server"):
            value = getattr(in_force, name)
            shown = (
                self.t(lang, f"host.limit.value.{name}", value=value)
                if value
                else self.t(lang, "host.limit.none")
            )
            if getattr(stored, name) is None:
                shown += mark
            lines.append(self.t(lang, f"host.limit.line.{name}", value=shown))
        lines.append(self.t(lang, "host.limit.hint"))
        return "\n".join(lines)

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
        lang = await self._rules_language(interaction, entry.name)
        head = self.t(
            lang, "host.lobby.rules_head", game=rules.title, min=rules.min_players, max=rules.max_players
        )
        body = self.t(lang, f"{entry.name}.rules")
        options = "\n".join(
            self.t(
                lang,
                "host.lobby.rules_option",
                name=o.name,
                default=self.option_value(lang, o.default),
                help=self.t(lang, f"{entry.name}.option.{o.name}"),
            )
            for o in rules.options
        )
        presenter = self.bot.publisher.presenters.get(entry.name)
        rulings = "\n".join(presenter.rulings(lang)) if presenter is not None else ""
        # Longer than one message (a game's rulings): several ephemeral messages, cut between lines.
        await safe.reply_long(interaction, "\n".join(p for p in (head, body, options, rulings) if p))

    def option_value(self, lang: str, value: object) -> str:
        """An option's default as a player would type it: a yes/no option reads yes or no in
        ``lang`` (``OptionSpec.parse`` takes both languages' words)."""
        if isinstance(value, bool):
            return self.t(lang, "host.lobby.option_yes" if value else "host.lobby.option_no")
        return str(value)

    async def _rules_language(self, interaction: discord.Interaction, game: str) -> str:
        """The language of ``/game rules``: a table's, when it is asked about the game of the table
        in this channel or thread (its players read the rules in the words of its board), else
        the player's own (else the server's)."""
        if interaction.guild_id is not None and interaction.channel_id is not None:
            here = await self.bot.lobby.tables_in_channel(
                interaction.channel_id, OPEN_STATUSES + CLOSED_STATUSES
            )
            channel = interaction.channel_id
            same = [
                row
                for row in here
                if row.game == game and (row.status in OPEN_STATUSES or row.thread_id == channel)
            ]
            if same:
                return same[-1].language
        return self.bot.reader(interaction)

    @rules.autocomplete("name")
    async def _rules_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return self._game_names(current)

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """Tell a table when one of its players leaves the server (needs the members intent)."""
        for row in await self.bot.lobby.tables_in_server(payload.guild_id, (GameStatus.ACTIVE,)):
            game = await self.bot.sessions.load(row.id)
            seat = game.seat_of(payload.user.id)
            if seat is not None and row.table_channel_id:
                await safe.send(
                    self.bot.publisher.channel(row.table_channel_id),
                    content=self.t(game.row.language, "host.member_left", player=game.names[seat]),
                    allowed_mentions=discord.AllowedMentions.none(),
                )


def _here(interaction: discord.Interaction) -> tuple[int, int | None] | None:
    """Where a command was used, as a table's place: the channel, and the thread when in one."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent_id is not None:
        return channel.parent_id, channel.id
    return (interaction.channel_id, None) if interaction.channel_id is not None else None


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LobbyCog(cast(Host, bot)))
