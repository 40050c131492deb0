"""The clocks people set: a table's reminder and timer (``/game clock``), a player's time away
(``/game away``) and how they are reminded (``/game notify``).

Each change rewrites the deadlines it affects in the same transaction as the setting itself
(:meth:`bot.storage.waits.WaitStore.set_table_clocks`, :meth:`bot.storage.players.PlayerStore.set_away`), and wakes the
scheduler when a deadline may now come sooner than it planned to look.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.deadlines import HOUR, Hours, parse_hours, plan_new_clocks, table_hours
from bot.services.scheduler import Scheduler
from bot.services.sessions import Refusal, SessionService
from bot.storage import OPEN_STATUSES, TableClocks

DAY = 24 * HOUR
MAX_AWAY_DAYS = 60
DEFAULT_WORDS = frozenset({"default", "server", "défaut", "par défaut", "serveur"})


def hours_option(text: str | None) -> int | None:
    """A command's ``remind:``/``timer:`` option as whole hours (``None``: not given).

    Raises ``Refusal`` with the catalog's explanation for anything :func:`parse_hours` refuses.
    """
    if text is None or not text.strip():
        return None
    try:
        return parse_hours(text)
    except ValueError:
        raise Refusal("host.timer.bad_hours", value=text.strip()[:20]) from None


@dataclass(frozen=True, slots=True)
class ClockReport:
    """A table's clocks as ``/game clock`` shows them."""

    game_id: int
    hours: Hours
    """What the table runs on."""
    own: TableClocks
    """Which of them the table set itself (``None``: the server's or the bot's default)."""


class Clocks:
    def __init__(self, sessions: SessionService, scheduler: Scheduler) -> None:
        self.sessions = sessions
        self.scheduler = scheduler
        self.away: dict[int, float] = {}
        """Players away now, and until when: read at start, kept up to date by :meth:`set_away`.
        The publisher shows it on the tables that wait on them (the same dict)."""

    async def load(self) -> None:
        """Read who is away (a handful of rows) once the store is open."""
        found = await self.sessions.store.players.fetch_away_players(self.sessions.clock())
        self.away.clear()
        self.away.update(found)

    def effective(self, clocks: TableClocks) -> Hours:
        return table_hours(
            clocks.remind_hours,
            clocks.timer_hours,
            clocks.server_remind_hours,
            clocks.server_timer_hours,
            self.sessions.hours,
        )

    async def report(self, game_id: int) -> ClockReport:
        clocks = await self.sessions.store.waits.fetch_table_clocks(game_id)
        if clocks is None:
            raise Refusal("host.refuse.no_game", game_id=game_id)
        return ClockReport(game_id, self.effective(clocks), clocks)

    async def set_table(
        self, game_id: int, user_id: int, *, moderator: bool, remind: str | None, timer: str | None
    ) -> ClockReport:
        """Change a table's clocks (``"24h"``, ``"2d"``, ``"off"``, or ``"default"`` for the
        server's); ``None`` leaves that clock as it is.  The host or a moderator may, while the
        table is open.  Running waits get the new clocks from now on."""
        remind_given, new_remind = self._option(remind)
        timer_given, new_timer = self._option(timer)
        async with self.sessions.lock(game_id):
            game = await self.sessions.load(game_id)
            if game.status not in OPEN_STATUSES:
                raise Refusal("host.refuse.over")
            if user_id != game.row.host_id and not moderator:
                raise Refusal("host.refuse.host_or_moderator")
            before = await self.report(game_id)
            own_remind = new_remind if remind_given else before.own.remind_hours
            own_timer = new_timer if timer_given else before.own.timer_hours
            after = self.effective(
                TableClocks(
                    own_remind, own_timer, before.own.server_remind_hours, before.own.server_timer_hours
                )
            )
            now = self.sessions.clock()
            # An open auction's clock is the game's, not the table's: its deadlines stay put.
            running = game.entry.rules.game_clock(game.state) if game.state is not None else None
            await self.sessions.store.waits.set_table_clocks(
                game_id,
                remind_hours=own_remind,
                timer_hours=own_timer,
                now=now,
                waits=lambda context: plan_new_clocks(
                    context, now=now, old=before.hours, new=after, game_clock=running
                ),
            )
        self.scheduler.wake(now)
        return await self.report(game_id)

    @staticmethod
    def _option(text: str | None) -> tuple[bool, int | None]:
        """``(given, hours)``: not given keeps the clock; ``None`` hours is the server's default."""
        if text is None or not text.strip():
            return False, None
        if text.strip().lower() in DEFAULT_WORDS:
            return True, None
        return True, hours_option(text)

    async def away_until(self, user_id: int) -> float | None:
        """Until when the player is away (``None``: not away)."""
        player = await self.sessions.store.players.fetch_player(user_id)
        if player.away_until is None or player.away_until <= self.sessions.clock():
            return None
        return player.away_until

    async def set_away(self, user_id: int, days: int) -> tuple[float | None, list[int]]:
        """Away for ``days`` from now (0: back now).  Returns until when (``None``: back) and the
        running games whose waits on the player moved (their tables say so on the next draw)."""
        if not 0 <= days <= MAX_AWAY_DAYS:
            raise Refusal("host.away.days", max=MAX_AWAY_DAYS)
        now = self.sessions.clock()
        until = now + days * DAY if days else None
        games = await self.sessions.store.players.set_away(user_id, until, now)
        if until is None:
            self.away.pop(user_id, None)
            # Deadlines pulled back may be due now: no need to wait for the loop's next minute.
            self.scheduler.wake(now)
        else:
            self.away[user_id] = until
        return until, games
