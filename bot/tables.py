"""Everything a table shows on Discord, and every click that reaches a game.

The flow for a click: parse the custom_id -> the session service applies and
commits (or refuses: an ephemeral sentence, nothing changes) -> acknowledge
-> render off the event loop -> post a new table message when the set of
players we wait for changed (pinging only them), else edit the current one.
Publishing is serialised per game and always draws the newest state, so two
quick moves never show up out of order.

Posting can fail after the move is safely committed (Discord down, a refused
upload).  It is retried a few times at once, and :meth:`Tables.sweep`, run
every minute and at every (re)connect, reposts any table or final standings
that is still behind its game, so no table is ever left without live buttons.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot import safe
from bot.components import (
    Malformed,
    build_view,
    custom_id,
    decode_action,
    parse_ref,
)
from bot.i18n import Catalog, clip
from bot.presenter import Panel, Presenter
from bot.session import Applied, LiveGame, Refusal, SessionService
from bot.store import StoreError
from rules.core import Action, IllegalAction

log = logging.getLogger(__name__)

MAX_LINES = 12
"""Event lines kept on a table message that is edited in place."""

RETRY_DELAYS = (1.0, 4.0)
"""Seconds before the second and third try of a table post; after that the sweep takes over."""

FINAL_WINDOW = 7 * 24 * 3600.0
"""The sweep looks for missing final messages among games that ended this recently."""

SWEEP_BACKOFF_MAX = 3600.0
"""A table whose repost keeps failing (a deleted thread) is retried at most this often."""

_NUMBER = re.compile(r"-?[0-9]{1,9}")
"""A form's number: ASCII digits only (``str.isdigit`` also accepts "²" and "①", which ``int`` refuses)."""


@dataclass(slots=True)
class _Shown:
    """What the current table message of one game shows (memory only; rebuilt after a restart)."""

    waiting: frozenset[int] | None = None
    lines: list[str] = field(default_factory=list)
    journal: list[Applied] = field(default_factory=list)
    unposted: list[str] = field(default_factory=list)
    """Event lines of moves whose table post failed; the next post of this table carries them."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Tables:
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
        self._failures: dict[int, tuple[int, float]] = {}  # game -> (failed sweeps, next try at loop time)
        self._repairs: set[int] = set()
        self._background: set[asyncio.Task[None]] = set()

    # -- helpers ---------------------------------------------------------------------------------

    def presenter(self, game: LiveGame) -> Presenter:
        presenter = self.presenters.get(game.entry.name)
        if presenter is None:
            presenter = self.presenters[game.entry.name] = Presenter(self.catalog)
            presenter.game = game.entry.name
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

    async def refuse(self, interaction: discord.Interaction, refusal: Refusal, language: str = "en") -> None:
        text = self.t(refusal.key, language, **refusal.params)
        # Debug, not warning: refusals are ordinary play, and a refused *private*
        # action (a second stow) must not be visible where accepted ones are not.
        log.debug(
            "refused %s from user %s: %s",
            clip(_custom_id(interaction) or "command", 100),
            interaction.user.id,
            refusal.key,
        )
        await safe.reply(interaction, text)

    async def refuse_illegal(
        self, interaction: discord.Interaction, game_id: int, exc: IllegalAction
    ) -> None:
        log.debug("refused action in game %s from user %s: illegal", game_id, interaction.user.id)
        await safe.reply(interaction, str(exc))

    async def refuse_storage(self, interaction: discord.Interaction, exc: StoreError, language: str) -> None:
        """The one honest line when a move could not be saved: it was not, and the player may retry."""
        log.error("user %s: nothing saved: %s", interaction.user.id, exc)
        await safe.reply(interaction, self.t("host.storage_down", language))

    async def language(self, game_id: int) -> str:
        try:
            return (await self.sessions.load(game_id)).row.language
        except (Refusal, StoreError):
            return "en"

    # -- clicks ----------------------------------------------------------------------------------

    async def on_action_click(self, interaction: discord.Interaction, rest: str) -> None:
        try:
            ref = parse_ref(rest)
            action = decode_action(ref.ref)
        except Malformed:
            await self.refuse(interaction, Refusal("host.refuse.malformed"))
            return
        await self.act(interaction, ref.game_id, action, ref.version)

    async def on_select(self, interaction: discord.Interaction, rest: str, values: Sequence[str]) -> None:
        try:
            ref = parse_ref(rest)
            if len(values) != 1:
                raise Malformed(rest)
            action = decode_action(values[0])
        except Malformed:
            await self.refuse(interaction, Refusal("host.refuse.malformed"))
            return
        await self.act(interaction, ref.game_id, action, ref.version)

    async def act(
        self, interaction: discord.Interaction, game_id: int, action: Action, version: int | None
    ) -> None:
        if interaction.guild_id is None:
            await self.refuse(interaction, Refusal("host.refuse.dm"))
            return
        try:
            applied = await self.sessions.act(game_id, interaction.user.id, action, version=version)
        except Refusal as refusal:
            if refusal.key == "host.refuse.stale":
                # The player may be pressing an old table because the new one never got posted.
                self.repair_soon(game_id)
            await self.refuse(interaction, refusal, await self.language(game_id))
            return
        except IllegalAction as exc:
            await self.refuse_illegal(interaction, game_id, exc)
            return
        except StoreError as exc:
            await self.refuse_storage(interaction, exc, await self.language(game_id))
            return
        # No await between the commit and queueing: the journal keeps commit order.
        # A private action leaves the table untouched: others must not see that anything happened.
        if applied.public:
            self.shown(game_id).journal.append(applied)
        presenter = self.presenter(applied.game)
        private = [
            presenter.private_line(applied.game, event)
            for event in applied.events
            if event.visible_to is not None and applied.seat in event.visible_to
        ]
        private.append(presenter.confirmation(applied.game, applied))
        if _on_private_panel(interaction):
            # The choice was made on a private panel: close it so its buttons cannot be pressed again.
            done = "\n".join(p for p in private if p) or self.t("host.panel_done", applied.game.row.language)
            private = []
            try:
                await interaction.response.edit_message(content=done, view=None)
            except discord.HTTPException as exc:
                log.warning("could not close a panel: %s", exc)
        await safe.defer(interaction)
        if applied.public:
            await self.publish(applied.game)
        for text in private:
            if text:
                await safe.reply(interaction, text)

    async def on_malformed(self, interaction: discord.Interaction, rest: str) -> None:
        await self.refuse(interaction, Refusal("host.refuse.malformed"))

    async def _seated(
        self, interaction: discord.Interaction, rest: str, *, form: bool = False, fresh: bool = True
    ) -> tuple[LiveGame, int, str] | None:
        """The game, seat and reference behind a panel or form button, or ``None`` after a refusal.

        Panels and forms show things only a seated player may see, drawn for one public version.
        """
        try:
            ref = parse_ref(rest)
            if form and "." in ref.ref:
                raise Malformed(rest)
        except Malformed:
            await self.on_malformed(interaction, rest)
            return None
        try:
            game = await self.sessions.load(ref.game_id)  # StoreError: answered by the router's guard
            seat = game.seat_of(interaction.user.id)
            if seat is None:
                raise Refusal("host.refuse.not_seated")
            if game.status != "active":
                raise Refusal("host.refuse.over")
            if fresh and ref.version != game.public_version:
                raise Refusal("host.refuse.stale")
        except Refusal as refusal:
            await self.refuse(interaction, refusal, await self.language(ref.game_id))
            return None
        return game, seat, ref.ref

    async def on_panel_click(self, interaction: discord.Interaction, rest: str) -> None:
        # A panel only shows things: an old one is simply redrawn from the current state,
        # with buttons for the current version, instead of being refused as stale.
        found = await self._seated(interaction, rest, fresh=False)
        if found is None:
            return
        game, seat, code = found
        try:
            panel = await self.presenter(game).on_ui(interaction, game, seat, code)
        except Refusal as refusal:
            await self.refuse(interaction, refusal, game.row.language)
            return
        await self.send_panel(interaction, game, panel)

    async def send_panel(self, interaction: discord.Interaction, game: LiveGame, panel: Panel) -> None:
        """A private panel; a click on a private panel replaces it instead of stacking a new one."""
        view = build_view(game.id, game.public_version, panel.controls)
        picture = (
            [discord.File(io.BytesIO(panel.image), filename=f"zoom-{game.id}.png")]
            if panel.image is not None
            else []
        )
        if _on_private_panel(interaction) and not interaction.response.is_done():
            try:
                # attachments=[] also clears a zoom picture the panel showed before.
                await interaction.response.edit_message(content=panel.text, view=view, attachments=picture)
                return
            except discord.HTTPException as exc:
                log.warning("could not update a panel: %s", exc)
        kwargs: dict[str, Any] = {"ephemeral": True}
        if view is not None:
            kwargs["view"] = view
        if picture:
            kwargs["file"] = discord.File(io.BytesIO(panel.image or b""), filename=f"zoom-{game.id}.png")
        await safe.reply(interaction, panel.text, **kwargs)

    async def on_form_click(self, interaction: discord.Interaction, rest: str) -> None:
        found = await self._seated(interaction, rest, form=True)
        if found is None:
            return
        game, _, kind = found
        spec = self.presenter(game).modal(game, kind)
        if spec is None:
            await self.refuse(interaction, Refusal("host.refuse.unknown_button"), game.row.language)
            return
        modal = NumberForm(
            custom_id("n", game.id, game.public_version, kind), spec.title, spec.label, spec.placeholder
        )
        try:
            await interaction.response.send_modal(modal)
        except discord.HTTPException as exc:
            log.warning("could not open a form: %s", exc)

    async def on_form_submit(self, interaction: discord.Interaction, rest: str, raw: str) -> None:
        """A submitted number form; handled from ``on_interaction`` so it survives restarts."""
        found = await self._seated(interaction, rest, form=True)
        if found is None:
            return
        game, _, kind = found
        spec = self.presenter(game).modal(game, kind)
        text = raw.strip()
        try:
            if spec is None:
                raise Refusal("host.refuse.unknown_button")
            if not _NUMBER.fullmatch(text):
                raise Refusal("host.refuse.not_a_number", value=clip(raw, 20))
            number = int(text)
            if not spec.minimum <= number <= spec.maximum:
                raise Refusal("host.refuse.number_range", min=spec.minimum, max=spec.maximum, value=number)
        except Refusal as refusal:
            await self.refuse(interaction, refusal, game.row.language)
            return
        await self.act(interaction, game.id, Action(kind, (number,)), game.public_version)

    # -- table messages --------------------------------------------------------------------------

    async def open_table(self, game: LiveGame) -> None:
        """The first table message of a freshly started game."""
        lang = game.row.language
        shown = self.shown(game.id)
        shown.journal.clear()
        async with shown.lock:
            await self._post_safely(
                game, [self.t("host.started", lang, game=game.entry.rules.title)], new=True
            )

    async def publish(self, game: LiveGame) -> None:
        """Show the moves committed since the last post.  Never raises: the moves are saved
        whatever happens here, and a table left behind is reposted by :meth:`sweep`."""
        shown = self.shown(game.id)
        async with shown.lock:
            if not shown.journal:
                return
            batch, shown.journal = shown.journal, []
            presenter = self.presenter(game)
            lines = [line for applied in batch for line in presenter.lines(game, applied.events)]
            try:
                live = await self.sessions.load(game.id)
            except (Refusal, StoreError) as exc:
                shown.unposted.extend(lines)
                log.error("game %s: the table could not be read to post it: %s", game.id, exc)
                return
            if live.status in ("finished", "abandoned", "broken"):
                await self._finish_safely(live, lines)
                return
            new = shown.waiting is None or shown.waiting != live.waiting()
            await self._post_safely(live, lines, new=new)

    async def resume(self) -> int:
        """After a start or reconnect: the same repair as the periodic sweep."""
        return await self.sweep()

    async def sweep(self) -> int:
        """Repost every table whose newest message is behind its game, and every final
        standings message that never got out.  Returns how many were repaired.

        A game whose repost keeps failing (its thread was deleted, say) is retried
        with a doubling delay up to an hour, so a dead thread costs one log line an hour.
        """
        store = self.sessions.store
        behind = await store.games_behind_their_table()
        unfinished = await store.games_missing_final(ended_since=self.sessions.clock() - FINAL_WINDOW)
        repaired = 0
        for game_id in [*behind, *unfinished]:
            if not self._due(game_id):
                continue
            ok = await self.repair(game_id)
            self._note(game_id, ok)
            repaired += ok
        return repaired

    def _due(self, game_id: int) -> bool:
        failures = self._failures.get(game_id)
        return failures is None or failures[1] <= asyncio.get_running_loop().time()

    def _note(self, game_id: int, ok: bool) -> None:
        if ok:
            self._failures.pop(game_id, None)
            return
        count = self._failures.get(game_id, (0, 0.0))[0] + 1
        wait = min(SWEEP_BACKOFF_MAX, 60.0 * 2 ** (count - 1))
        self._failures[game_id] = (count, asyncio.get_running_loop().time() + wait)

    def repair_soon(self, game_id: int) -> None:
        """Repair one table in the background (after a stale click), at most once at a time."""
        if game_id in self._repairs:
            return
        self._repairs.add(game_id)

        async def run() -> None:
            try:
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
            store = self.sessions.store
            if game.status == "active":
                tables = await store.live_messages(game_id, "table")
                if tables and tables[-1].version == game.public_version:
                    return True
                log.info("game %s: reposting its table, which was behind the game", game_id)
                return await self._post_safely(game, [], new=True)
            if game.status in ("finished", "abandoned"):
                if await store.has_message(game_id, "final") or not await store.has_message(game_id, "table"):
                    return True
                log.info("game %s: posting its final message, which never got out", game_id)
                lines = [] if game.status == "finished" else [self._closed_line(game)]
                return await self._finish_safely(game, lines)
            return True

    def _closed_line(self, game: LiveGame) -> str:
        return self.t("host.closed", game.row.language, reason=clip(game.row.reason or "", 100))

    async def refresh(self, game: LiveGame) -> bool:
        """Repost the table (``/game show``): a new message with live buttons, the old one stripped.

        ``True`` only when the new message was posted.
        """
        shown = self.shown(game.id)
        async with shown.lock:
            return await self._post_safely(game, [], new=True)

    async def _render(self, game: LiveGame) -> bytes | None:
        """The board as PNG bytes; a renderer bug costs the picture, not the move."""
        view = game.entry.rules.view(game.state, None)
        try:
            return await asyncio.to_thread(game.entry.renderer, view, game.names)
        except Exception:
            log.exception("game %s: the board could not be drawn", game.id)
            return None

    def _table_content(self, game: LiveGame, lines: list[str]) -> str:
        lang = game.row.language
        presenter = self.presenter(game)
        view = game.entry.rules.view(game.state, None)
        head = self.t(
            "host.table.head", lang, game=game.entry.rules.title, id=game.id, move=game.public_version
        )
        status = presenter.status(game, view)
        mentions = " ".join(f"<@{game.user_of(s)}>" for s in sorted(game.waiting()))
        body = "\n".join(lines[-MAX_LINES:])
        parts = [part for part in (body, head, status, mentions) if part]
        return clip("\n".join(parts))

    async def _send(
        self, channel_id: int, png: bytes | None, name: str, **kwargs: Any
    ) -> discord.Message | None:
        """Send with a few quick retries (a fresh file each time: a sent one is consumed)."""
        for delay in (0.0, *self.retry_delays):
            if delay:
                await asyncio.sleep(delay)
            files = {"file": discord.File(io.BytesIO(png), filename=name)} if png is not None else {}
            sent = await safe.send(self.channel(channel_id), **kwargs, **files)
            if sent is not None:
                return sent
        return None

    async def _post_safely(self, game: LiveGame, lines: list[str], *, new: bool) -> bool:
        try:
            return await self._post(game, lines, new=new)
        except StoreError as exc:
            log.error("game %s: the table could not be recorded: %s", game.id, exc)
        except Exception:
            log.exception("game %s: the table could not be posted", game.id)
        return False

    async def _post(self, game: LiveGame, lines: list[str], *, new: bool) -> bool:
        """Edit the current table message, or post a new one; ``True`` when players can see this version."""
        shown = self.shown(game.id)
        store = self.sessions.store
        channel_id = game.row.table_channel_id
        if channel_id is None:
            return True
        # Kept as unposted until players can see them, whatever fails on the way.
        lines = shown.unposted = [*shown.unposted, *lines]
        current = await store.live_messages(game.id, "table")
        view = build_view(game.id, game.public_version, self.presenter(game).controls(game))
        png = await self._render(game)
        name = f"table-{game.id}.png"
        if not new and current:
            edited = (shown.lines + lines)[-MAX_LINES:]
            row = current[-1]
            message = self.client.get_partial_messageable(channel_id).get_partial_message(row.message_id)
            replace = (
                {"attachments": [discord.File(io.BytesIO(png), filename=name)]} if png is not None else {}
            )
            content = self._table_content(game, edited)
            if await safe.edit(message, content=content, view=view, **replace):
                shown.unposted = []
                await store.update_message_version(row.message_id, game.public_version)
                shown.lines = edited
                shown.waiting = game.waiting()
                return True
        fresh = lines[-MAX_LINES:]
        mention_ids = [discord.Object(id=game.user_of(s)) for s in sorted(game.waiting())]
        sent = await self._send(
            channel_id,
            png,
            name,
            content=self._table_content(game, fresh),
            view=view or discord.utils.MISSING,
            allowed_mentions=discord.AllowedMentions(users=mention_ids, everyone=False, roles=False),
        )
        if sent is None:
            log.warning("game %s: the table message could not be posted; the sweep will retry", game.id)
            return False
        shown.unposted = []
        await store.add_message(game.id, channel_id, sent.id, "table", game.public_version)
        shown.lines = fresh
        shown.waiting = game.waiting()
        await self._strip(game, keep=sent.id)
        return True

    async def _strip(self, game: LiveGame, keep: int | None = None) -> None:
        """Old table messages keep their text and board as history but lose their buttons."""
        store = self.sessions.store
        for row in await store.live_messages(game.id, "table"):
            if row.message_id == keep:
                continue
            message = self.client.get_partial_messageable(row.channel_id).get_partial_message(row.message_id)
            await safe.edit(message, view=None)
            await store.retire_message(row.message_id)

    async def _finish_safely(self, game: LiveGame, lines: list[str]) -> bool:
        lang = game.row.language
        outcome = game.outcome() if game.state is not None and game.status == "finished" else None
        if outcome is not None:
            standings = self.presenter(game).standings(game, outcome)
            lines = [
                *lines,
                self.t("host.final.head", lang, game=game.entry.rules.title, id=game.id),
                *standings,
            ]
        return await self.close_table(game, lines)

    async def close_table(self, game: LiveGame, lines: list[str]) -> bool:
        """Final message (board + lines), and no live buttons anywhere; ``True`` once it is posted.

        Never raises: when it cannot be posted now, :meth:`sweep` posts it later.
        """
        shown = self.shown(game.id)
        lines = [*shown.unposted, *lines]
        try:
            await self._strip(game)
            channel_id = game.row.table_channel_id
            if channel_id is None:
                return True
            png = await self._render(game) if game.state is not None else None
            sent = await self._send(
                channel_id,
                png,
                f"table-{game.id}.png",
                content=clip("\n".join(lines)) or "\u200b",
                allowed_mentions=discord.AllowedMentions.none(),
            )
            if sent is None:
                # The unposted event lines stay; the sweep adds the closing lines again itself.
                log.warning("game %s: the final message could not be posted; the sweep will retry", game.id)
                return False
            await self.sessions.store.add_message(game.id, channel_id, sent.id, "final", game.public_version)
            await self.sessions.store.retire_message(sent.id)
        except StoreError as exc:
            log.error("game %s: the final message could not be recorded: %s", game.id, exc)
            return False
        except Exception:
            log.exception("game %s: the final message could not be posted", game.id)
            return False
        self._shown.pop(game.id, None)
        return True


class NumberForm(discord.ui.Modal):
    """A one-field form; its submission is routed by custom_id in ``on_interaction``."""

    def __init__(self, custom_id: str, title: str, label: str, placeholder: str) -> None:
        super().__init__(title=title[:45], custom_id=custom_id, timeout=600)
        self.value: discord.ui.TextInput[NumberForm] = discord.ui.TextInput(
            label=label[:45], placeholder=placeholder[:100] or None, max_length=12, custom_id="value"
        )
        self.add_item(self.value)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Deliberately empty: the host's ``on_interaction`` answers every form, before or after a restart."""


def _on_private_panel(interaction: discord.Interaction) -> bool:
    message = interaction.message
    return message is not None and message.flags.ephemeral


def _custom_id(interaction: discord.Interaction) -> str | None:
    data: dict[str, Any] = dict(interaction.data or {})
    value = data.get("custom_id")
    return str(value) if value is not None else None
