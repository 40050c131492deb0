"""Table messages: one live board per game at the bottom of its thread, and its history.

Publishing is serialised per game and always draws the newest state, so two quick moves never
show up out of order.  The live message is edited in place while the same players are waited
on; when the game waits for someone new it folds into its turn's lines and a new board pings
only the newcomers.  Posting can fail after a move is safely committed (Discord down, a refused
upload): it is retried a few times at once, and :meth:`Publisher.sweep`, run every minute and at
every (re)connect, reposts any table or final standings that is still behind its game, so no
table is ever left without live buttons.

The clicks that reach a game are :class:`bot.ui.clicks.Clicks`, a room of its own: it asks this
class to redraw a table, or to show a table-wide panel in place of the board it was pressed on.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import discord

from bot.core.i18n import Catalog, clip
from bot.services.background import background
from bot.services.messages import TableMessages
from bot.services.ratings import Change, RatingReads
from bot.services.sessions import Applied, LiveGame, Refusal, SessionService, Step, closed_reason, stamp
from bot.services.story import game_story
from bot.storage import CLOSED_STATUSES, ENDED_STATUSES, GameStatus, How, MessageKind, MessageRow, StoreError
from bot.ui import safe
from bot.ui.components import layout, lobby_button
from bot.ui.presenter import Button, Control, Panel, Presenter
from bot.ui.reach import Reach
from bot.ui.table_message import ALT_LIMIT, Picture, plain, table_view, text_of
from bot.ui.table_message import folded as fold
from renderers.story import alt_text, render_story
from rules.core import Action

log = logging.getLogger(__name__)

MAX_LINES = 12
"""Event lines kept on a table message that is edited in place."""

RETRY_DELAYS = (1.0, 4.0)
"""Seconds before the second and third try of a table post; after that the sweep takes over."""

FINAL_WINDOW = 7 * 24 * 3600.0
"""The sweep looks for missing final messages among games that ended this recently."""

SWEEP_BACKOFF_FIRST = 60.0
SWEEP_BACKOFF_MAX = 3600.0
"""A table whose repost keeps failing (Discord down for it) is tried again a minute later, then
twice as long after each failure, at most hourly; the back-off is kept in the store, so a
restart does not start it over.  A table Discord will not let us reach is parked instead."""

LOCK_PATIENCE = 1.0
"""Seconds a click waits for another post of its table before it is acknowledged on its own."""

CATCH_UP = "h.catchup"
TABLE = "table"
"""The paging source of the table's own buttons (``h.pg.<page>.table``)."""
"""The code of the host's own "Catch me up" button (a ``u:`` id); a game's presenter never sees it."""


@dataclass(slots=True)
class _Shown:
    """What the current table message of one game shows (memory only; rebuilt after a restart)."""

    waiting: frozenset[int] | None = None
    """Who has been told we wait for them and still is waited on (``None``: ask the database)."""
    lines: list[str] | None = None
    """The current turn's event lines on the live message (``None``: rebuild them by replay)."""
    since: int | None = None
    """The public version the live message's turn began at."""
    journal: list[Applied] = field(default_factory=list)
    unposted: list[str] = field(default_factory=list)
    """Event lines of moves whose table post failed; the next post of this table carries them."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


@dataclass(frozen=True, slots=True)
class Story:
    """The chart of a finished game's story, posted beside its last board with its alt text."""

    filename: str
    png: bytes
    alt: str


class Publisher:
    """Posts and keeps up to date every table message; one per bot."""

    def __init__(
        self,
        client: discord.Client,
        sessions: SessionService,
        catalog: Catalog,
    ) -> None:
        self.client = client
        self.sessions = sessions
        self.catalog = catalog
        self.presenters: dict[str, Presenter] = {}
        self._shown: dict[int, _Shown] = {}
        self.retry_delays: tuple[float, ...] = RETRY_DELAYS
        self.reach = Reach(client, sessions, catalog)
        self.messages = TableMessages(sessions)
        """The table's messages as the host remembers them (:mod:`bot.services.messages`)."""
        self.ratings = RatingReads(sessions)
        """Players' ratings as shown with the final standings (:mod:`bot.services.ratings`)."""
        self.backlog = False
        """Whether the last sweep stopped for Discord's budget with tables still behind (its loop
        then comes back within seconds, not a minute)."""
        self._repairs: set[int] = set()
        self._background: set[asyncio.Task[None]] = set()
        self.host_controls: list[Callable[[LiveGame], Control | None]] = []
        """More host buttons for every live board, after Catch me up: each maker returns one (or
        ``None``), drawn when Discord has room without paging (``bot.ui.undo`` adds Undo)."""
        self.host_prepares: list[Callable[[LiveGame], Awaitable[None]]] = []
        """Read before a board is drawn (its controls are drawn synchronously): what a host control
        needs from the store, such as whether the last move may be undone."""
        self.client_languages = True
        """Whether a player's own answers follow their Discord client (``Settings.client_languages``)."""
        self.away: dict[int, float] = {}
        """Players away, and until when (the ``Clocks`` service's dict): a table waiting on one says so."""
        self.store_failed: set[int] = set()
        """Tables whose last post failed on the database, not on Discord: ``/game show`` then names
        the database as the cause (issue 25: it blamed Discord for a read-only disk)."""

    # -- helpers ---------------------------------------------------------------------------------

    def presenter(self, game: LiveGame) -> Presenter:
        """The client built it at start from the game's registry entry, so a missing one is a bug
        to name, not a bare presenter to draw the table with."""
        presenter = self.presenters.get(game.entry.name)
        if presenter is None:
            raise LookupError(f"no presenter for game {game.entry.name!r}: the bot was not started with it")
        return presenter

    def t(self, key: str, language: str = "en", /, **params: Any) -> str:
        return self.catalog.text(key, language, **params)

    def shown(self, game_id: int) -> _Shown:
        shown = self._shown.get(game_id)
        if shown is None:
            shown = self._shown[game_id] = _Shown()
        return shown

    def channel(self, channel_id: int) -> discord.abc.Messageable:
        found = self.client.get_channel(channel_id)
        if isinstance(found, discord.abc.Messageable):
            return found
        return self.client.get_partial_messageable(channel_id)

    async def language(self, game_id: int) -> str:
        try:
            return (await self.sessions.load(game_id)).row.language
        except (Refusal, StoreError):
            return "en"

    def reader(self, interaction: discord.Interaction, fallback: str) -> str:
        """The language of an ephemeral answer to one player: their Discord locale when we have
        a catalog for it, else ``fallback`` (the table's language, or the server's).

        Only the host's own words to that player follow it (refusals, errors, command answers);
        a game's private panels, forms and lines stay in the table's language, so that what a
        player reads privately names things exactly as the board and the table messages do.
        """
        if not self.client_languages:
            return fallback
        return self.catalog.match(getattr(interaction, "locale", None)) or fallback

    def lasting(self, game: LiveGame) -> Callable[[Action], int | None]:
        """Stamps for buttons that outlast other moves (the engine's ``fingerprint``)."""
        rules, state = game.entry.rules, game.state
        return lambda action: stamp(rules, state, action) if state is not None else None

    # -- table messages --------------------------------------------------------------------------
    #
    # One live board per table.  The live message holds the board, the buttons, the
    # lines of the current turn and a mention of whoever we wait for.  While the same
    # players are waited on it is edited in place (no new ping).  When the game starts
    # waiting for someone else, the live message is *folded*: edited down to its turn's
    # text lines (no image, no buttons, no mention) and a new live message is posted
    # at the bottom: a new message is the only way to notify, and the answered ping
    # does not linger.  The thread reads as a log of short lines with one board at the
    # bottom.  A click on the live message is answered by the edit itself (one call).

    async def open_table(self, game: LiveGame) -> None:
        """The first table message of a freshly started game."""
        lang = game.row.language
        shown = self.shown(game.id)
        shown.journal.clear()
        async with shown.lock:
            shown.lines, shown.since = [], game.public_version
            started = self.t("host.started", lang, game=game.entry.rules.title)
            await self._post_safely(game, [started, *self.presenter(game).opening(game)], new=True)

    async def publish(
        self, game: LiveGame, responder: discord.Interaction | None = None, *, extra: Sequence[str] = ()
    ) -> None:
        """Show the moves committed since the last post.  Never raises: the moves are saved
        whatever happens here, and a table left behind is reposted by :meth:`sweep`.

        ``responder`` is the click that made the move; when it was pressed on the live
        message, the edit of that message doubles as the answer to the click.  ``extra``: the
        host's own lines after the moves' (an undo), posted even when no move is waiting.
        """
        shown = self.shown(game.id)
        async with self._holding(shown, responder):
            if not shown.journal and not extra:
                return
            batch, shown.journal = shown.journal, []
            lines = self.batch_lines(game, batch)
            if extra and shown.lines is None:
                # After a restart the post reads its turn back from the log, which holds the
                # moves but not the host's own lines: read it now, so that they are kept.
                try:
                    await self._recall_turn(game)
                    lines = []
                except StoreError as exc:
                    log.error("game %s: the turn could not be read back: %s", game.id, exc)
            lines = [*lines, *extra]
            try:
                live = await self.sessions.load(game.id)
            except (Refusal, StoreError) as exc:
                shown.unposted.extend(lines)
                log.error("game %s: the table could not be read to post it: %s", game.id, exc)
                return
            if live.status in CLOSED_STATUSES:
                await self.close_table(live, [], events=lines, responder=responder)
                return
            try:
                pinged = await self._pinged(live)
            except StoreError as exc:
                shown.unposted.extend(lines)
                log.error("game %s: the table could not be read to post it: %s", game.id, exc)
                return
            # A new message only when someone new is waited on: they are the ones to notify.
            # Fewer players waited on (one of several pressed) is an edit in place.
            carry = self.presenter(live).carries_turn(
                live, [e for step in batch for e in step.events if e.public]
            )
            await self._post_safely(
                live, lines, new=_newcomers(live, pinged) != frozenset(), responder=responder, carry=carry
            )

    @contextlib.asynccontextmanager
    async def _holding(self, shown: _Shown, responder: discord.Interaction | None) -> AsyncIterator[None]:
        """The game's publishing lock; a click that would wait long for it is acknowledged first,
        so Discord's three seconds never run out while another post retries."""
        if responder is not None and not responder.response.is_done() and shown.lock.locked():
            try:
                await asyncio.wait_for(shown.lock.acquire(), LOCK_PATIENCE)
            except TimeoutError:
                await safe.defer(responder)
                await shown.lock.acquire()
        else:
            await shown.lock.acquire()
        try:
            yield
        finally:
            shown.lock.release()

    async def _pinged(self, game: LiveGame) -> frozenset[int] | None:
        """Who was told we wait for them (memory, or the newest table message's record)."""
        shown = self.shown(game.id)
        if shown.waiting is None:
            last = await self.messages.newest(game.id, MessageKind.TABLE)
            shown.waiting = last.pinged if last is not None else None
        return shown.waiting

    async def _turn_lines(self, game: LiveGame, since: int | None) -> list[str]:
        """The event lines of the public moves after ``since``, rebuilt by replay (after a restart)."""
        if since is None or since >= game.public_version:
            return []
        try:
            steps = await self.sessions.history(game.id)
        except Refusal:
            return []
        return self.batch_lines(game, [step for step in steps if step.public_version > since])

    async def _recall_turn(self, game: LiveGame) -> None:
        """The live message's turn lines, read back from the log (as :meth:`_post` does)."""
        shown = self.shown(game.id)
        current = await self.messages.live(game.id, MessageKind.TABLE)
        row = current[-1] if current else None
        shown.lines = await self._turn_lines(game, row.since) if row is not None else []
        shown.since = row.since if row is not None else game.public_version

    async def resume(self) -> int:
        """After a start or reconnect: the same repair as the periodic sweep."""
        return await self.sweep()

    async def sweep(self) -> int:
        """Repost every table whose newest message is behind its game, and every final
        standings message that never got out.  Returns how many tables were repaired.

        Parked tables are passed by (nothing is retried until ``/game show``), and so is a table
        whose reposts keep failing until its back-off is over.  Everything here is background
        work: paced, and held back while Discord is refusing too much (:mod:`bot.ui.safe`).
        """
        now = self.sessions.clock()
        with background():
            behind = await self.messages.behind_their_table()
            unfinished = await self.messages.missing_final(ended_since=now - FINAL_WINDOW)
            waiting = await self.messages.backing_off(now) if behind or unfinished else set()
            repaired = 0
            ledger = safe.ledger_of(self.client)
            self.backlog = False
            for game_id in [*behind, *unfinished]:
                if not ledger.has_room():
                    self.backlog = True  # the rest waits for the next sweep, soon
                    break
                if game_id in waiting:
                    continue
                ok = await self.repair(game_id)
                if ok:
                    await self.messages.repost_succeeded(game_id)
                elif not await self.reach.places.parked(game_id):
                    await self.messages.repost_failed(
                        game_id, self.sessions.clock(), first=SWEEP_BACKOFF_FIRST, longest=SWEEP_BACKOFF_MAX
                    )
                repaired += ok
        return repaired

    def repair_soon(self, game_id: int) -> None:
        """Repair one table in the background (after a stale click), at most once at a time."""
        if game_id in self._repairs:
            return
        self._repairs.add(game_id)

        async def run() -> None:
            try:
                with background():
                    await self.repair(game_id)
            except Exception:
                log.exception("game %s: repair failed", game_id)
            finally:
                self._repairs.discard(game_id)

        task = asyncio.get_running_loop().create_task(run())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def repair(self, game_id: int) -> bool:
        """Bring one game's table up to date if it is behind; ``True`` when it is up to date now."""
        shown = self.shown(game_id)
        async with shown.lock:
            game = await self.sessions.load(game_id)
            if await self.reach.places.parked(game_id) is not None:
                return False  # nothing is tried on a parked table until /game show
            if game.status == GameStatus.ACTIVE:
                tables = await self.messages.live(game_id, MessageKind.TABLE)
                if tables and tables[-1].version == game.public_version:
                    if len(tables) > 1:
                        log.info("game %s: removing an older table message that was left live", game_id)
                        await self._retire(game, tables[:-1], None)
                    return True
                log.info("game %s: reposting its table, which was behind the game", game_id)
                new = bool(_newcomers(game, await self._pinged(game))) or not tables
                return await self._post_safely(game, [], new=new)
            if game.status in ENDED_STATUSES:
                if await self.messages.ever_posted(
                    game_id, MessageKind.FINAL
                ) or not await self.messages.ever_posted(game_id, MessageKind.TABLE):
                    return True
                log.info("game %s: posting its final message, which never got out", game_id)
                lines = [] if game.status == GameStatus.FINISHED else [self._closed_line(game)]
                return await self.close_table(game, lines)
            return True

    def _closed_line(self, game: LiveGame) -> str:
        return self.t("host.closed", game.row.language, reason=closed_reason(game.row.reason))

    async def refresh(self, game: LiveGame, here: tuple[int, int | None] | None = None) -> bool:
        """Repost the table at the bottom of the thread (``/game show``); ``True`` once posted.

        The repost carries the turn's lines, pings nobody (the players were pinged when
        the game started waiting for them), and the message it replaces is deleted, so
        the thread still holds one board.  A finished game reposts its final standings.

        A parked table is brought back ``here`` (the channel ``/game show`` was used in, and
        the thread when it was used in one): it is shown there from now on, and its clocks run
        again.  Its old messages are where the bot cannot reach, so they are only forgotten.
        """
        shown = self.shown(game.id)
        if await self.reach.places.parked(game.id) is not None:
            if here is None:
                return False
            async with shown.lock:
                await self.messages.move_table(game.id, *here)
                await self.reach.unpark(game)
                self._shown.pop(game.id, None)
            game = await self.sessions.load(game.id)
            shown = self.shown(game.id)
        async with shown.lock:
            if game.status in ENDED_STATUSES:
                return await self._repost_final(game)
            return await self._post_safely(game, [], new=False, repost=True)

    async def _render(self, game: LiveGame) -> bytes | None:
        """The board as PNG bytes; a renderer bug costs the picture, not the move."""
        view = game.entry.rules.view(game.state, None)
        try:
            words = self.catalog.words(game.row.language)
            return await asyncio.to_thread(game.entry.renderer, view, game.names, words)
        except Exception:
            log.exception("game %s: the board could not be drawn", game.id)
            return None

    async def _story(self, game: LiveGame) -> Story | None:
        """The chart of a finished game's story and its alt text, from public views of its log; a
        renderer or replay bug costs the chart, never the standings."""
        if game.status != GameStatus.FINISHED or game.state is None or game.entry.story is None:
            return None
        try:
            series = await game_story(self.sessions, game)
            if series is None:
                return None
            language = game.row.language
            words = self.catalog.words(language)
            measure = f"story.image.measure.{game.entry.name}"
            if not self.catalog.has(measure, language):
                measure = "story.image.score"
            png = await asyncio.to_thread(render_story, series, game.names, words, measure=measure)
            lower = game.entry.story.lower_leads
            alt = alt_text(series, game.names, words, measure=measure, lower_leads=lower)
        except Exception:
            log.exception("game %s: the story could not be drawn", game.id)
            return None
        return Story(f"story-{game.id}.png", png, alt)

    async def _ratings(self, game: LiveGame) -> dict[int, Change]:
        """Each person's rating after a finished game and its change; none for a game that was not
        rated, and none when they cannot be read (the standings go out without them)."""
        if game.status != GameStatus.FINISHED:
            return {}
        try:
            return await self.ratings.changes(game.id)
        except StoreError as exc:
            log.warning("game %s: the standings go out without ratings: %s", game.id, exc)
            return {}

    def batch_lines(self, game: LiveGame, batch: Sequence[Applied | Step]) -> list[str]:
        """The public lines of committed moves; a default move made by the turn timer opens with
        whose time ran out (once for the steps of one default).  Several players' defaults in a
        row (an auction's clock passing for everyone still in) read as one line under one head,
        their events phrased together, so the presenter may say "Ana, Bo and Cy pass."."""
        presenter = self.presenter(game)
        lines: list[str] = []
        timed_out: int | None = None
        index = 0
        while index < len(batch):
            applied = batch[index]
            run = 1
            while index + run < len(batch) and batch[index + run].how == How.TIMEOUT:
                run += 1
            seats = sorted({step.seat for step in batch[index : index + run]})
            if applied.how == How.TIMEOUT and len(seats) > 1:
                events = [event for step in batch[index : index + run] for event in step.events]
                said = presenter.lines(game, events)
                head = self.t(
                    "host.timer.ran_out_many", game.row.language, players=presenter.names(game, seats)
                )
                lines.extend([f"{head} {said[0]}" if said else head, *said[1:]])
                timed_out, index = None, index + run
                continue
            said = presenter.lines(game, applied.events)
            if applied.how == How.TIMEOUT and applied.seat != timed_out:
                head = self.t(
                    "host.timer.ran_out", game.row.language, player=presenter.player(game, applied.seat)
                )
                said = [f"{head} {said[0]}" if said else head, *said[1:]]
            timed_out = applied.seat if applied.how == How.TIMEOUT else None
            lines.extend(said)
            index += 1
        return lines

    def _away_lines(self, game: LiveGame) -> list[str]:
        """ "Bob is away until …" for each away player the table waits on."""
        now = self.sessions.clock()
        return [
            self.t("host.away.status", game.row.language, player=game.names[seat], until=int(until))
            for seat in sorted(game.waiting())
            if (until := self.away.get(game.user_of(seat), 0.0)) > now
        ]

    async def remind(self, game: LiveGame, seat: int, line: str) -> bool:
        """A reminder on the table: the live board moves to the bottom of its thread (as ``/game
        show`` moves it) with ``line`` under its status, pinging only ``seat``'s player.

        The thread stays a calm log with one board at the bottom: the reminder is no extra
        message, and it goes with the board's next change.  ``False`` when the table no longer
        waits on the seat, or could not be posted.
        """
        shown = self.shown(game.id)
        async with shown.lock:
            live = await self.sessions.load(game.id)
            if live.status != GameStatus.ACTIVE or seat not in live.waiting():
                return False
            return await self._post_safely(live, [], new=False, repost=True, note=line, ping=seat)

    async def redraw(self, game_id: int) -> bool:
        """Draw a table again in place, pinging nobody (a player went away or came back)."""
        shown = self.shown(game_id)
        async with shown.lock:
            game = await self.sessions.load(game_id)
            if game.status != GameStatus.ACTIVE:
                return True
            return await self._post_safely(game, [], new=False)

    def _table_view(
        self,
        game: LiveGame,
        lines: list[str],
        png: bytes | bool | None,
        note: str | None = None,
        *,
        controls: Sequence[Control] | None = None,
        page: int = 0,
        source: str = TABLE,
    ) -> discord.ui.LayoutView:
        """The live board as layout components (:func:`bot.ui.table_message.table_view`).

        ``png``: the picture being attached (or ``True``: the one the message already has).
        ``controls``: a public panel's, in place of the table's own (with the host's)."""
        lang = game.row.language
        presenter = self.presenter(game)
        view = presenter.public(game)
        head = self.t(
            "host.table.head", lang, game=game.entry.rules.title, id=game.id, move=game.public_version
        )
        mentions = " ".join(game.mention(s) for s in sorted(game.waiting()) if not game.is_bot(s))
        shown = lines[-MAX_LINES:]
        status = [presenter.status(game, view), *self._away_lines(game), note, mentions]
        controls = self._controls(game) if controls is None else self._with_host(game, controls)
        aside = next((c for c in controls if isinstance(c, Button) and c.ui == CATCH_UP), None)
        return table_view(
            game.id,
            game.public_version,
            head=head,
            lines=shown,
            status="\n".join(part for part in status if part),
            controls=[c for c in controls if c is not aside],
            aside=aside,
            picture=self._picture(game, view, shown) if png is not None and png is not False else None,
            accent=presenter.accent(game, view),
            page=page,
            source=source,
            lasting=self.lasting(game),
        )

    def _picture(self, game: LiveGame, view: dict[str, Any], lines: Sequence[str]) -> Picture:
        """The board's attachment and its description in words, from the public view only."""
        words = self.presenter(game).describe(game, view, lines[-1] if lines else None)
        return Picture(
            f"table-{game.id}.png",
            plain(words, lambda user: next((s.name for s in game.seats if s.user_id == user), None)),
        )

    def _controls(self, game: LiveGame) -> list[Control]:
        return self._with_host(game, self.presenter(game).controls(game))

    def _with_host(self, game: LiveGame, controls: Sequence[Control]) -> list[Control]:
        """A game's buttons plus the host's own ("Catch me up"), when Discord has room for it."""
        out = list(controls)
        if len(out) < 25:
            out.append(Button(self.t("host.button.catch_up", game.row.language), ui=CATCH_UP, emoji="📜"))
        for make in self.host_controls:
            extra = make(game)
            if extra is not None and len(out) < 25 and layout([*out, extra])[2] == layout(out)[2]:
                out.append(extra)
        return out

    async def _send(
        self,
        game: LiveGame,
        png: bytes | None,
        *,
        responder: discord.Interaction | None = None,
        story: Story | None = None,
        **kwargs: Any,
    ) -> discord.Message | safe.Failed:
        """Post to the table's channel, with a few quick retries when the failure may pass (a
        fresh file each time: a sent one is consumed).  A click waiting on this post is
        acknowledged before any retry sleeps, so Discord's three seconds never run out.

        A failure that will not pass (the thread locked or gone, the thread cap) is handed to
        :class:`bot.ui.reach.Reach`, which parks the table or reaches its players another way.
        """
        channel_id = game.row.table_channel_id or 0
        name = f"table-{game.id}.png"
        failed = safe.Failed(0, 0, "not sent")
        for delay in (0.0, *self.retry_delays):
            if delay:
                if responder is not None:
                    await safe.defer(responder)
                await asyncio.sleep(delay)
            files: dict[str, Any] = (
                {"file": discord.File(io.BytesIO(png), filename=name)} if png is not None else {}
            )
            if png is not None and story is not None:
                # The story rides in the board's gallery (``_final_view``), so both travel together.
                board = discord.File(io.BytesIO(png), filename=name)
                files = {"files": [board, discord.File(io.BytesIO(story.png), filename=story.filename)]}
            result = await safe.send(self.channel(channel_id), **kwargs, **files)
            if not isinstance(result, safe.Failed):
                return result
            failed = result
            if not failed.transient or failed.code == safe.PAUSED:
                break
        await self.reach.trouble(game, failed, channel_id)
        return failed

    async def _post_safely(
        self,
        game: LiveGame,
        lines: list[str],
        *,
        new: bool,
        responder: discord.Interaction | None = None,
        repost: bool = False,
        note: str | None = None,
        ping: int | None = None,
        carry: bool = False,
    ) -> bool:
        self.store_failed.discard(game.id)
        try:
            return await self._post(
                game, lines, new=new, responder=responder, repost=repost, note=note, ping=ping, carry=carry
            )
        except StoreError as exc:
            self.store_failed.add(game.id)
            log.error("game %s: the table could not be recorded: %s", game.id, exc)
        except Exception:
            log.exception("game %s: the table could not be posted", game.id)
        return False

    async def _post(
        self,
        game: LiveGame,
        lines: list[str],
        *,
        new: bool,
        responder: discord.Interaction | None,
        repost: bool,
        note: str | None = None,
        ping: int | None = None,
        carry: bool = False,
    ) -> bool:
        """Show ``game`` as it is now; ``True`` when players can see this version.

        ``new``: the game now waits for other players, so the live message is folded
        into history and a new one pings them.  ``repost``: the same table again at the
        bottom (``/game show``), pinging nobody.  ``carry``: a new message goes on with the turn
        (:meth:`Presenter.carries_turn`).  Otherwise the live message is edited; when
        Discord will take no more edits of old messages (30046) it is reposted instead.
        """
        shown = self.shown(game.id)
        channel_id = game.row.table_channel_id
        if channel_id is None:
            return True
        # Kept as unposted until players can see them, whatever fails on the way.
        lines = shown.unposted = [*shown.unposted, *lines]
        current = await self.messages.live(game.id, MessageKind.TABLE)
        row = current[-1] if current else None
        if shown.lines is None or (row is not None and shown.since != row.since):
            # After a restart (or another process's post) the turn is read back from the log,
            # up to now: that already holds the lines of this post's moves.
            shown.lines = await self._turn_lines(game, row.since) if row is not None else []
            shown.since = row.since if row is not None else game.public_version
            lines = shown.unposted = []
        turn = [*shown.lines, *lines]
        for prepare in self.host_prepares:
            await prepare(game)
        png = await self._render(game)
        name = f"table-{game.id}.png"
        if row is not None and not new and not repost:
            picture = [discord.File(io.BytesIO(png), filename=name)] if png is not None else []
            board = self._table_view(game, turn, png)
            edited = await self._edit(game, row, responder, content=None, view=board, attachments=picture)
            if edited is True:
                shown.unposted, shown.lines = [], turn
                shown.waiting = game.waiting()
                await self.messages.edited(row.message_id, game.public_version, pinged=shown.waiting)
                await self._retire(game, current[:-1], None)
                return True
            if edited.park_reason is not None or edited.code in (safe.THREAD_CAP, safe.PAUSED):
                await self.reach.trouble(game, edited, row.channel_id)
                return False
            # Otherwise (too many old edits, the board deleted, Discord down) a new board is posted
            # and the old one goes: a repost, which pings nobody new.
            repost = True
        # A new turn starts empty: its lines so far close the old turn, folded into history.
        # With no old message to fold them into (the first table, or one lost), they stay.
        # A game that pings again within one moment (an open auction) carries the turn on
        # instead, and the old message goes (``Presenter.carries_turn``).
        carry = carry and new and row is not None
        fresh = [] if new and row is not None and not carry else turn
        if new and not carry and row is not None and responder is not None and self._on(responder, row):
            # Folding the message the click was pressed on is also the answer to the click.
            await self._retire(game, current, turn, responder)
            current, shown.unposted, shown.lines = [], [], []
        waiting = game.waiting()
        mention_ids = [
            discord.Object(id=game.user_of(s))
            for s in sorted(
                _newcomers(game, await self._pinged(game)) | ({ping} if ping is not None else set())
            )
            if not game.is_bot(s)
        ]
        sent = await self._send(
            game,
            png,
            responder=responder,
            view=self._table_view(game, fresh, png, note),
            allowed_mentions=discord.AllowedMentions(users=mention_ids, everyone=False, roles=False),
        )
        if isinstance(sent, safe.Failed):
            log.warning("game %s: the table message could not be posted (%s)", game.id, sent)
            return False
        # The moves this message's lines tell of begin after ``since`` (rebuilt from it after a restart).
        since = shown.since if fresh and shown.since is not None else game.public_version
        await self.messages.posted(
            game.id, channel_id, sent.id, MessageKind.TABLE, game.public_version, since=since, pinged=waiting
        )
        shown.unposted = []
        shown.waiting = waiting
        # The old message: folded into its turn's history (a new turn) or deleted (a repost).
        await self._retire(
            game, [m for m in current if m.message_id != sent.id], turn if new and not carry else []
        )
        shown.lines = fresh
        shown.since = since
        return True

    async def show_on_table(
        self,
        interaction: discord.Interaction,
        game: LiveGame,
        panel: Panel,
        *,
        page: int = 0,
        source: str | None = None,
    ) -> bool:
        """A table-wide panel (the board's other pages, a game's public list) drawn in place of
        the table it was pressed on; ``False`` when the click was not on a table, or the table
        could not be edited (the click's answer is then the clicks' own private panel).

        In order with the table's own posts, and drawn for the version now on disk.
        """
        if not self._on_table(interaction):
            return False
        shown = self.shown(game.id)
        async with self._holding(shown, interaction):
            message = interaction.message
            for prepare in self.host_prepares:
                await prepare(game)
            pictured = message is not None and any(
                a.filename == f"table-{game.id}.png" for a in message.attachments
            )
            board = self._table_view(
                game,
                shown.lines or [],
                pictured,
                panel.text,
                controls=panel.controls,
                page=page,
                source=source or TABLE,
            )
            if interaction.response.is_done():
                return False
            return bool(await safe.update(interaction, content=None, view=board))

    @staticmethod
    def _on_table(interaction: discord.Interaction) -> bool:
        """Whether a click, not yet answered, was pressed on a public message (a table)."""
        message = interaction.message
        return message is not None and not message.flags.ephemeral and not interaction.response.is_done()

    def _on(self, responder: discord.Interaction, row: MessageRow) -> bool:
        """Whether a click, not yet answered, was pressed on this table message."""
        message = responder.message
        return message is not None and message.id == row.message_id and not responder.response.is_done()

    async def _edit(
        self,
        game: LiveGame,
        row: MessageRow,
        responder: discord.Interaction | None,
        *,
        missing_ok: bool = False,
        **fields: Any,
    ) -> Literal[True] | safe.Failed:
        """Edit a table message, through the click pressed on it when there is one (one call
        that both answers the click and changes the message).

        An archived thread takes no edit (50083): the click is acknowledged, the thread
        unarchived (its creator, the bot, may) and the edit made again.
        """
        if responder is not None and self._on(responder, row):
            answered = await safe.update(responder, **fields)
            if answered is True:
                return True
            await safe.defer(responder)
            safe.rewound(fields)
        message = self.client.get_partial_messageable(row.channel_id).get_partial_message(row.message_id)
        result = await safe.edit(message, missing_ok=missing_ok, **fields)
        if isinstance(result, safe.Failed) and result.code == safe.ARCHIVED:
            reopened = await safe.set_archived(self.client, row.channel_id, False)
            if isinstance(reopened, safe.Failed):
                return reopened
            result = await safe.edit(message, missing_ok=missing_ok, **safe.rewound(fields))
        return result

    async def _words_of(self, row: MessageRow) -> str:
        """The words a table message shows (a leftover being stripped keeps them); "" when it is gone."""
        message = self.client.get_partial_messageable(row.channel_id).get_partial_message(row.message_id)
        fetched = await safe.fetch_message(message)
        return "" if isinstance(fetched, safe.Failed) else text_of(fetched)

    async def _retire(
        self,
        game: LiveGame,
        rows: Sequence[MessageRow],
        history: list[str] | None,
        responder: discord.Interaction | None = None,
    ) -> None:
        """Old table messages leave no board and no buttons behind: the newest is folded into
        its turn's lines (``history``), the others (and one with nothing to say) are deleted.
        ``history=None`` strips them instead, keeping their text (a leftover of a failed fold,
        whose lines nobody else holds).  One Discord will not edit any more (too many edits of
        old messages) is deleted: the thread must never show two live boards."""
        for index, row in enumerate(rows):
            text = "\n".join(history) if history and index == len(rows) - 1 else ""
            if history is None:
                text = await self._words_of(row)
            if text:
                folded = await self._edit(
                    game, row, responder, missing_ok=True, attachments=[], content=None, view=fold(text)
                )
                if folded is True:
                    await self.messages.retired(row.message_id)
                    continue
                if folded.code != safe.OLD_EDITS:
                    log.warning("game %s: an old table message could not be folded (%s)", game.id, folded)
                    continue
            message = self.client.get_partial_messageable(row.channel_id).get_partial_message(row.message_id)
            if await safe.delete(message):
                await self.messages.retired(row.message_id)
            else:
                log.warning("game %s: an old table message could not be removed", game.id)

    def _final_view(
        self,
        game: LiveGame,
        lines: list[str],
        png: bytes | None,
        story: Story | None = None,
        ratings: Mapping[int, Change] | None = None,
    ) -> discord.ui.LayoutView:
        """The final standings: the last turn's and closing lines, the standings, the board and the
        chart of the game's story beside it (one gallery, one message: the thread stays calm),
        everyone's mention, Catch me up (after a real game) beside the heading, and Rematch (a
        lobby button: it opens a new table).  ``ratings``: each person's rating after a rated game
        and its change (:meth:`_ratings`), on their standings line."""
        lang = game.row.language
        outcome = game.outcome() if game.state is not None and game.status == GameStatus.FINISHED else None
        head = self.t("host.final.head", lang, game=game.entry.rules.title, id=game.id)
        presenter = self.presenter(game)
        standings = presenter.standings(game, outcome, ratings) if outcome is not None else []
        mentions = " ".join(f"<@{user_id}>" for user_id in game.people())
        catch_up = Button(self.t("host.button.catch_up", lang), ui=CATCH_UP, emoji="📜")
        view = presenter.public(game) if game.state is not None else {}
        layout = table_view(
            game.id,
            game.public_version,
            head=head,
            lines=lines,
            status="\n".join(part for part in (*standings, mentions) if part),
            controls=[],
            aside=catch_up if game.state is not None else None,
            picture=self._picture(game, view, lines) if png is not None else None,
        )
        rematch = lobby_button(game.id, "rematch", self.t("host.button.rematch", lang), "success")
        container = next(item for item in layout.children if isinstance(item, discord.ui.Container))
        if story is not None and png is not None:
            gallery = next(item for item in container.children if isinstance(item, discord.ui.MediaGallery))
            gallery.add_item(
                media=f"attachment://{story.filename}", description=clip(story.alt, ALT_LIMIT) or None
            )
        container.add_item(discord.ui.ActionRow[Any](rematch))
        return layout

    async def close_table(
        self,
        game: LiveGame,
        closing: list[str],
        *,
        events: Sequence[str] = (),
        responder: discord.Interaction | None = None,
    ) -> bool:
        """Final message (why it closed, board, standings, Rematch) pinging every player, and no
        live board left anywhere; ``True`` once it is posted.  ``events`` are the last move's
        lines: they close the last turn, folded into history above.

        Never raises: when it cannot be posted now, :meth:`sweep` posts it later.
        """
        shown = self.shown(game.id)
        lines = [*shown.unposted, *events]
        try:
            channel_id = game.row.table_channel_id
            current = await self.messages.live(game.id, MessageKind.TABLE)
            if shown.lines is None and current:
                # Read back from the log up to now, the last move's lines included.
                shown.lines, lines = await self._turn_lines(game, current[-1].since), []
            history = [*(shown.lines or []), *lines]
            if current:
                await self._retire(game, current, history, responder)
                history = []
            history.extend(closing)
            if channel_id is None:
                return True
            png = await self._render(game) if game.state is not None else None
            story = await self._story(game) if png is not None else None
            ratings = await self._ratings(game)
            sent = await self._send(
                game,
                png,
                responder=responder,
                story=story,
                view=self._final_view(game, history, png, story, ratings),
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(id=u) for u in game.people()], everyone=False, roles=False
                ),
            )
            if isinstance(sent, safe.Failed):
                # The unposted event lines stay; the sweep adds the closing lines again itself.
                shown.unposted = history[: len(history) - len(closing)]
                log.warning("game %s: the final message could not be posted; the sweep will retry", game.id)
                return False
            await self.messages.posted(game.id, channel_id, sent.id, MessageKind.FINAL, game.public_version)
            if game.row.guild_id in self.reach.crowded:
                await self.reach.archive_finished()  # a crowded server gets its place back at once
        except StoreError as exc:
            self.store_failed.add(game.id)
            log.error("game %s: the final message could not be recorded: %s", game.id, exc)
            return False
        except Exception:
            log.exception("game %s: the final message could not be posted", game.id)
            return False
        self._shown.pop(game.id, None)
        return True

    async def _repost_final(self, game: LiveGame) -> bool:
        """``/game show`` after the end: the standings again at the bottom, without pinging, and the
        older copy loses its picture so the thread still shows one board."""
        channel_id = game.row.table_channel_id
        if channel_id is None:
            return False
        old = await self.messages.live(game.id, MessageKind.FINAL)
        png = await self._render(game) if game.state is not None else None
        story = await self._story(game) if png is not None else None
        lines = [] if game.status == GameStatus.FINISHED else [self._closed_line(game)]
        ratings = await self._ratings(game)
        sent = await self._send(
            game,
            png,
            story=story,
            view=self._final_view(game, lines, png, story, ratings),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if isinstance(sent, safe.Failed):
            return False
        await self.messages.posted(game.id, channel_id, sent.id, MessageKind.FINAL, game.public_version)
        for row in old:
            message = self.client.get_partial_messageable(row.channel_id).get_partial_message(row.message_id)
            if await safe.delete(message):
                await self.messages.retired(row.message_id)
        return True


def _newcomers(game: LiveGame, told: frozenset[int] | None) -> frozenset[int]:
    """Players the game waits for who have not been told yet (all of them when nobody knows)."""
    return game.waiting() - (told or frozenset())
