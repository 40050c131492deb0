"""Tables before and around play: create, join, leave, start, cancel, abandon.

Kept apart from the session service because none of it applies a game
action; it only decides who sits where and when a game exists at all.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any

from bot.core.i18n import Phrase, clip
from bot.core.registry import GameEntry
from bot.services.deadlines import waits_planner
from bot.services.export import export_game
from bot.services.server_settings import BURST, check_opening, limits_in_force
from bot.services.sessions import LiveGame, Refusal, SessionService
from bot.storage import CLOSED_STATUSES, ENDED_STATUSES, OPEN_STATUSES, GameRow, GameStatus, SeatRow
from rules.core import SHARED_OPTION_PROBLEMS, InvalidOptions, check_players
from rules.play import canonical


def parse_options(text: str | None) -> dict[str, str]:
    """``"rounds=3 turbo=yes"`` (spaces or commas between pairs) -> a dict of raw strings."""
    result: dict[str, str] = {}
    if not text:
        return result
    for part in text.replace(",", " ").split():
        name, sep, value = part.partition("=")
        if not sep or not name or not value:
            raise Refusal("host.bad_option.written", text=repr(clip(part, 40)))
        result[name.strip().lower()] = value.strip()
    return result


def options_refusal(game: str, exc: InvalidOptions) -> Refusal:
    """The refusal that words ``exc``: ``host.bad_option.<key>`` for the problems every game shares
    (raised by ``rules.core``), ``<game>.bad_option.<key>`` for a game's own."""
    scope = "host" if exc.key in SHARED_OPTION_PROBLEMS else game
    return Refusal(f"{scope}.bad_option.{exc.key}", **exc.params)


class LobbyService:
    def __init__(self, sessions: SessionService) -> None:
        self.sessions = sessions
        self.store = sessions.store
        self._openings: dict[int, tuple[asyncio.Lock, int]] = {}
        """Per server: the lock that makes counting and creating one step, and how many wait on it
        (the entry goes with the last one, so servers that stopped opening tables cost nothing)."""

    @asynccontextmanager
    async def _opening(
        self, guild_id: int | None, user_id: int, *, limited: bool, manager: bool
    ) -> AsyncIterator[None]:
        """Hold the server's opening lock while a new table is judged against the limits
        (:func:`bot.services.server_settings.check_opening`) and written.

        Count and insert under one lock per server, so 200 concurrent ``/game new`` from one member
        make exactly the limit, and two members cannot both take the server's last place.  A server
        is served by one process (shards split servers), so an in-process lock is enough.

        Only a member's own command is ``limited``: the host's tools (the CLI, benchmarks, tests
        that set up hundreds of tables) open tables for no member and are not held back."""
        if guild_id is None or not limited:
            yield
            return
        lock, waiting = self._openings.get(guild_id, (asyncio.Lock(), 0))
        self._openings[guild_id] = (lock, waiting + 1)
        try:
            async with lock:
                limits = limits_in_force(await self.store.servers.fetch_limits(guild_id))
                counts = await self.store.servers.count_open(guild_id, user_id, recent=BURST)
                check_opening(limits, counts, now=self.sessions.clock(), manager=manager)
                yield
        finally:
            lock, waiting = self._openings[guild_id]
            if waiting > 1:
                self._openings[guild_id] = (lock, waiting - 1)
            else:
                del self._openings[guild_id]

    def entry(self, name: str) -> GameEntry:
        entry = self.sessions.registry.get(name.strip().lower())
        if entry is None:
            offered = ", ".join(e.name for e in self.sessions.registry.public())
            raise Refusal(
                "host.refuse.unknown_game",
                game=clip(name, 60),
                games=offered or Phrase("host.lobby.no_games"),
            )
        return entry

    async def create(
        self,
        *,
        game: str,
        options_text: str | None,
        host_id: int,
        host_name: str,
        guild_id: int,
        channel_id: int,
        language: str,
        remind_hours: int | None = None,
        timer_hours: int | None = None,
        limited: bool = False,
        manager: bool = False,
    ) -> LiveGame:
        """A new lobby; ``remind_hours``/``timer_hours`` are the table's own clocks (``None``: the
        server's defaults).  ``limited``: a member's ``/game new``, held to the server's limits on
        opening tables; ``manager``: the member has Manage Server (past the per-member limits).

        Raises ``Refusal`` for an unknown game or option, or past a limit on opening tables."""
        entry = self.entry(game)
        try:
            options = entry.rules.table_options(parse_options(options_text))
        except InvalidOptions as exc:
            raise options_refusal(entry.name, exc) from None
        async with self._opening(guild_id, host_id, limited=limited, manager=manager):
            game_id = await self.store.games.create_game(
                game=entry.name,
                options=options,
                host_id=host_id,
                host_name=host_name,
                guild_id=guild_id,
                channel_id=channel_id,
                language=language,
                now=self.sessions.clock(),
                remind_hours=remind_hours,
                timer_hours=timer_hours,
            )
        return await self.sessions.load(game_id)

    async def rematch(
        self, game_id: int, user_id: int, user_name: str, *, limited: bool = False, manager: bool = False
    ) -> tuple[LiveGame, bool]:
        """A new lobby for the same game and options, hosted by the player who asked; the
        others must join it themselves.  ``(table, False)`` when one is already open.

        Under the old game's lock, so two players pressing Rematch together open one table.  A new
        rematch counts as a ``/game new`` against the limits (else Rematch then Cancel, over and
        over, floods a server as ``/game new`` would).
        """
        async with self.sessions.lock(game_id):
            old = await self.sessions.load(game_id)
            if old.status not in ENDED_STATUSES:
                raise Refusal("host.rematch.not_over")
            if old.seat_of(user_id) is None:
                raise Refusal("host.refuse.not_seated")
            open_one = await self.store.games.fetch_rematch(game_id)
            if open_one is not None:
                return await self.sessions.load(open_one.id), False
            async with self._opening(old.row.guild_id, user_id, limited=limited, manager=manager):
                new_id = await self.store.games.create_game(
                    game=old.entry.name,
                    options=dict(old.row.options),
                    host_id=user_id,
                    host_name=user_name,
                    guild_id=old.row.guild_id,
                    channel_id=old.row.channel_id,
                    language=old.row.language,
                    now=self.sessions.clock(),
                    rematch_of=game_id,
                )
            for seat in old.seats:  # the bots stay for the rematch; people join again themselves
                if seat.bot is not None:
                    await self.store.games.add_seat(new_id, seat.user_id, seat.name, seat.bot)
        return await self.sessions.load(new_id), True

    async def set_thread(self, game_id: int, thread_id: int) -> None:
        """The table's own thread, made once the lobby message exists."""
        async with self.sessions.lock(game_id):
            await self.store.games.set_thread(game_id, thread_id)
            self.sessions.forget(game_id)

    # -- finding tables --------------------------------------------------------------------------

    async def tables_here(self, channel_id: int, *, ended: bool = False) -> list[GameRow]:
        """The open tables shown in a channel or thread, the oldest first.  With ``ended`` and
        none open, a finished table whose own thread this is (a command typed in the thread of a
        game that is over names that game; the channel it was opened from names none)."""
        here = await self.store.games.list_games_in_channel(channel_id, OPEN_STATUSES)
        if not here and ended:
            over = await self.store.games.list_games_in_channel(channel_id, CLOSED_STATUSES)
            here = [row for row in over if row.thread_id == channel_id][-1:]
        return here

    async def tables_in_channel(
        self, channel_id: int, statuses: Sequence[GameStatus] = OPEN_STATUSES
    ) -> list[GameRow]:
        """The tables of these statuses shown in a channel or thread, the oldest first."""
        return await self.store.games.list_games_in_channel(channel_id, statuses)

    async def tables_in_server(
        self, guild_id: int, statuses: Sequence[GameStatus] = OPEN_STATUSES
    ) -> list[GameRow]:
        """The tables of these statuses in a server, the oldest first."""
        return await self.store.games.list_games(guild_id=guild_id, statuses=statuses)

    async def export(self, game_id: int) -> dict[str, Any]:
        """A table's seed, options, seats and every move as JSON-ready data
        (:func:`bot.services.export.export_game`), with the game's story so far."""
        return await export_game(self.store, game_id, self.sessions.registry)

    async def _lobby(self, game_id: int) -> LiveGame:
        game = await self.sessions.load(game_id)
        if game.status != GameStatus.LOBBY:
            raise Refusal("host.refuse.lobby_closed")
        return game

    async def join(self, game_id: int, user_id: int, name: str) -> None:
        async with self.sessions.lock(game_id):
            game = await self._lobby(game_id)
            if game.seat_of(user_id) is not None:
                raise Refusal("host.refuse.already_seated")
            if len(game.seats) >= game.entry.rules.max_players:
                raise Refusal("host.refuse.table_full", max=game.entry.rules.max_players)
            await self.store.games.add_seat(game_id, user_id, name)
            await self.sessions.refresh_seats(game_id)

    async def add_bot(self, game_id: int, user_id: int, level: str, name: str) -> None:
        """The host seats a bot (``level`` easy or normal) named ``name``; its user id is negative,
        the next one free at this table, so it can never be a Discord user's."""
        async with self.sessions.lock(game_id):
            game = await self._lobby(game_id)
            if user_id != game.row.host_id:
                raise Refusal("host.refuse.host_only_bots")
            if not game.entry.has_bots:
                raise Refusal("host.refuse.no_bots_here", game=game.entry.rules.title)
            if len(game.seats) >= game.entry.rules.max_players:
                raise Refusal("host.refuse.table_full", max=game.entry.rules.max_players)
            bot_id = min([0, *(s.user_id for s in game.seats)]) - 1
            await self.store.games.add_seat(game_id, bot_id, name, level)
            await self.sessions.refresh_seats(game_id)

    async def remove_bot(self, game_id: int, user_id: int) -> None:
        """The host takes back the last bot seated."""
        async with self.sessions.lock(game_id):
            game = await self._lobby(game_id)
            if user_id != game.row.host_id:
                raise Refusal("host.refuse.host_only_bots")
            bots = [s for s in game.seats if s.bot is not None]
            if not bots:
                raise Refusal("host.refuse.no_bots")
            await self.store.games.remove_seat(game_id, bots[-1].user_id)
            await self.sessions.refresh_seats(game_id)

    async def leave(self, game_id: int, user_id: int) -> None:
        async with self.sessions.lock(game_id):
            game = await self._lobby(game_id)
            if game.seat_of(user_id) is None:
                raise Refusal("host.refuse.not_seated")
            if user_id == game.row.host_id:
                raise Refusal("host.refuse.host_cannot_leave")
            await self.store.games.remove_seat(game_id, user_id)
            await self.sessions.refresh_seats(game_id)

    async def unseat(self, game_id: int, user_id: int) -> None:
        """Remove a player who can no longer play (they left the server) from a lobby."""
        async with self.sessions.lock(game_id):
            await self._lobby(game_id)
            await self.store.games.remove_seat(game_id, user_id)
            await self.sessions.refresh_seats(game_id)

    async def start(self, game_id: int, user_id: int, *, seed: int | None = None) -> LiveGame:
        async with self.sessions.lock(game_id):
            game = await self._lobby(game_id)
            if user_id != game.row.host_id:
                raise Refusal("host.refuse.host_only")
            rules = game.entry.rules
            try:
                check_players(rules, len(game.seats))
            except InvalidOptions:
                raise Refusal(
                    "host.refuse.player_count",
                    game=rules.title,
                    min=rules.min_players,
                    max=rules.max_players,
                    count=len(game.seats),
                ) from None
            # The seed decides every shuffle, so it is secret and unguessable.
            seed = seed if seed is not None else secrets.randbits(62)
            state = rules.setup(len(game.seats), game.row.options, seed)
            seats = [SeatRow(i, s.user_id, s.name, s.bot) for i, s in enumerate(game.seats)]
            now = self.sessions.clock()
            waiting, defaults = rules.waiting_for(state), self.sessions.hours
            await self.store.games.start(
                game_id,
                seats=seats,
                seed=seed,
                snapshot=canonical(rules.dump(state)),
                now=now,
                # The first waits, with their reminders and timers, start with the game.
                waits=waits_planner(
                    now=now, actor=None, before=frozenset(), after=waiting, defaults=defaults
                ),
            )
            self.sessions.forget(game_id)
            return await self.sessions.load(game_id)

    async def close(
        self,
        game_id: int,
        user_id: int,
        *,
        moderator: bool,
        status: str,
        reason: str,
        lobby_only: bool = False,
    ) -> LiveGame:
        """Cancel a lobby or abandon a game: the host or a server moderator may.

        ``lobby_only`` (the lobby's Cancel button) refuses a game that has started.
        """
        async with self.sessions.lock(game_id):
            game = await self.sessions.load(game_id)
            if lobby_only and game.status != GameStatus.LOBBY:
                raise Refusal(
                    "host.refuse.cancel_started" if game.status == GameStatus.ACTIVE else "host.refuse.over"
                )
            if game.status not in (*OPEN_STATUSES, GameStatus.BROKEN):
                raise Refusal("host.refuse.over")
            if user_id != game.row.host_id and not moderator:
                raise Refusal("host.refuse.host_or_moderator")
            await self.store.games.set_status(
                game_id, GameStatus(status), reason=reason, now=self.sessions.clock()
            )
            self.sessions.forget(game_id)
            return await self.sessions.load(game_id)

    async def withdraw(self, game_id: int, user_id: int, name: str) -> LiveGame:
        """A seated player leaves a running game; turn-based games cannot go on without them."""
        async with self.sessions.lock(game_id):
            game = await self.sessions.load(game_id)
            if game.status != GameStatus.ACTIVE:
                raise Refusal("host.refuse.over")
            if game.seat_of(user_id) is None:
                raise Refusal("host.refuse.not_seated")
            await self.store.games.set_status(
                game_id, GameStatus.ABANDONED, reason=f"left:{name}", now=self.sessions.clock()
            )
            self.sessions.forget(game_id)
            return await self.sessions.load(game_id)


def options_summary(options: Mapping[str, object], words: Callable[[str], str]) -> str:
    """A table's options as its host would type them (``rounds=1``), in the table's language
    through ``words`` (a catalog bound to it): a yes/no option reads ``oui``/``non`` at a French
    table (``OptionSpec.parse`` takes both), and a game without options has standard rules."""

    def value(raw: object) -> object:
        if isinstance(raw, bool):
            return words("host.lobby.option_yes" if raw else "host.lobby.option_no")
        return raw

    typed = ", ".join(f"`{k}={value(v)}`" for k, v in sorted(options.items()))
    return typed or words("host.lobby.options_standard")
