"""The undo on the table: the "Undo my last move" button, the request for consent, its answers.

The rule itself (which move, when it is immediate, when it is refused) is
:mod:`bot.services.undo`; this module only draws and answers.  Every button is a ``u:`` host
button (``u:<game>:<public version>:h.undo…``), answered through :class:`bot.ui.clicks.Clicks`,
so the request and its Accept / Refuse work after a restart with nothing registered per message,
and any public change (a move, the undo itself) makes them stale.
"""

from __future__ import annotations

import logging

import discord

from bot.services.sessions import LiveGame, Refusal
from bot.services.undo import Answered, Asked, Undone, UndoService
from bot.storage import GameStatus, StoreError
from bot.ui import safe
from bot.ui.access import server_of
from bot.ui.clicks import Clicks
from bot.ui.components import Ref, build_view, item_rows
from bot.ui.presenter import Button, Control

log = logging.getLogger(__name__)

UNDO = "h.undo"
"""The table's "Undo my last move"."""
ACCEPT = "h.undo.yes"
REFUSE = "h.undo.no"


def offer_undo(game: LiveGame, seat: int | None) -> bool:
    """Whether a running ``game``'s board shows Undo, given the seat that may take back its last
    move (:func:`bot.services.undo.undoable_seat`; ``None``: nobody may)."""
    return game.status == GameStatus.ACTIVE and game.public_version > 0 and seat is not None


class UndoDesk:
    """Puts the Undo button on every live board and answers it and the request it opens."""

    def __init__(self, clicks: Clicks, undo: UndoService) -> None:
        self.clicks = clicks
        self.publisher = clicks.publisher
        self.undo = undo
        self.publisher.host_controls.append(self.button)
        self.publisher.host_prepares.append(self.prepare)
        clicks.host_clicks.update({UNDO: self.on_undo, ACCEPT: self.on_accept, REFUSE: self.on_refuse})

    def t(self, key: str, language: str, /, **params: object) -> str:
        return self.publisher.t(key, language, **params)

    def button(self, game: LiveGame) -> Control | None:
        """On a running game's board while its last public move may be taken back by the player
        who made it (:func:`bot.services.undo.undoable_seat`): never a button that can only be
        refused (a move that rolled dice, a default move, no move yet).  Anybody else who presses
        it reads that the move is not theirs, as for a turn's own button.

        The verdict needs the log, so it is read by :meth:`prepare` before the board is drawn;
        a board drawn without it (nobody prepared it) shows the button as soon as a move was
        made, and the verdict is given when it is pressed.
        """
        known, seat = self.undo.known(game)
        if known and not offer_undo(game, seat):
            return None
        if game.status != GameStatus.ACTIVE or game.public_version == 0:
            return None
        return Button(self.t("host.undo.button", game.row.language), ui=UNDO, emoji="↩️")

    async def prepare(self, game: LiveGame) -> None:
        """Read whether ``game``'s last move may be taken back, for :meth:`button` (call it before
        the board is drawn: the button is drawn synchronously).  Never raises: without a verdict
        the button shows, and a press is judged in full."""
        try:
            await self.undo.undoable(game)
        except (Refusal, StoreError) as exc:
            log.warning("game %s: whether its last move may be undone is unknown: %s", game.id, exc)

    async def _refuse(self, interaction: discord.Interaction, refusal: Refusal, game_id: int) -> None:
        if refusal.key == "host.refuse.stale":
            self.publisher.repair_soon(game_id)
        await self.clicks.refuse(interaction, refusal, await self.publisher.language(game_id))

    async def on_undo(self, interaction: discord.Interaction, ref: Ref) -> None:
        try:
            server_of(interaction)
        except Refusal as refusal:
            await self.clicks.refuse(interaction, refusal)
            return
        try:
            result = await self.undo.ask(ref.game_id, interaction.user.id, ref.version)
        except Refusal as refusal:
            await self._refuse(interaction, refusal, ref.game_id)
            return
        except StoreError as exc:
            await self.clicks.refuse_storage(interaction, exc, await self.publisher.language(ref.game_id))
            return
        if isinstance(result, Undone):
            # The board's edit (or its new copy) with the line is the answer: nothing private to add.
            await self._show_undone(result, responder=interaction)
            await safe.defer(interaction)
            return
        await self._asked(interaction, result)

    async def _show_undone(self, done: Undone, responder: discord.Interaction | None = None) -> None:
        """The table's line and the board without the move (its edit answers a click on the board)."""
        game = done.game
        line = self.t("host.undo.line", game.row.language, player=game.names[done.seat])
        await self.prepare(game)
        await self.publisher.publish(game, responder=responder, extra=[line])

    async def _asked(self, interaction: discord.Interaction, asked: Asked) -> None:
        game = asked.game
        lang = game.row.language
        mine = self.publisher.reader(interaction, lang)  # the asker's own answers; the request is the table's
        names = self._names(game, asked.others)
        if not asked.created:
            waiting = asked.others - asked.request.accepted
            await safe.reply(
                interaction, self.t("host.undo.already_asked", mine, players=self._names(game, waiting))
            )
            return
        channel_id = game.row.table_channel_id
        sent: discord.Message | safe.Failed | None = None
        if channel_id is not None:
            text = self.t(
                "host.undo.asked",
                lang,
                player=game.names[asked.request.seat],
                players=" ".join(f"<@{game.user_of(s)}>" for s in sorted(asked.others)),
            )
            sent = await safe.send(
                self.publisher.channel(channel_id),
                content=text,
                view=self._view(game, asked.request.version),
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(id=game.user_of(s)) for s in sorted(asked.others)],
                    everyone=False,
                    roles=False,
                ),
            )
        if not sent:
            # Nobody could answer a request nobody sees: close it rather than leave it hanging.
            await self.undo.drop_request(game.id, asked.request.version)
            await safe.reply(interaction, self.t("host.internal_error", mine))
            return
        await safe.reply(interaction, self.t("host.undo.asked_you", mine, players=names))

    def _view(self, game: LiveGame, version: int) -> discord.ui.View | None:
        lang = game.row.language
        return build_view(
            item_rows(
                game.id,
                version,
                [
                    Button(self.t("host.undo.accept", lang), ui=ACCEPT, style="success"),
                    Button(self.t("host.undo.refuse", lang), ui=REFUSE, style="danger"),
                ],
            )
        )

    @staticmethod
    def _names(game: LiveGame, seats: frozenset[int]) -> str:
        return ", ".join(game.names[s] for s in sorted(seats))

    async def on_accept(self, interaction: discord.Interaction, ref: Ref) -> None:
        await self._answer(interaction, ref, accept=True)

    async def on_refuse(self, interaction: discord.Interaction, ref: Ref) -> None:
        await self._answer(interaction, ref, accept=False)

    async def _answer(self, interaction: discord.Interaction, ref: Ref, *, accept: bool) -> None:
        # Replaying the log may take a moment: acknowledge first, then edit the request in place.
        await safe.defer(interaction)
        lang = await self.publisher.language(ref.game_id)
        try:
            answered = await self.undo.answer(ref.game_id, interaction.user.id, ref.version, accept=accept)
        except Refusal as refusal:
            if refusal.key == "host.undo.closed_you":
                await self._edit(interaction, self.t("host.undo.closed", lang), view=None)
            await self.clicks.refuse(interaction, refusal, lang)
            return
        except StoreError as exc:
            await self.clicks.refuse_storage(interaction, exc, lang)
            return
        await self._edit(interaction, self._request_text(answered), view=self._answer_view(answered))
        if answered.undone is not None:
            await self._show_undone(answered.undone)
        elif answered.accepted:
            await safe.reply(
                interaction,
                self.t(
                    "host.undo.thanks",
                    self.publisher.reader(interaction, lang),
                    players=self._names(answered.game, answered.waiting),
                ),
            )

    def _answer_view(self, answered: Answered) -> discord.ui.View | None:
        if answered.accepted and answered.undone is None:
            return self._view(answered.game, answered.request.version)
        return None

    def _request_text(self, answered: Answered) -> str:
        """The request message after an answer: who agreed, who refused, or that it is done."""
        game = answered.game
        lang = game.row.language
        asker = game.names[answered.request.seat]
        if answered.undone is not None:
            return self.t("host.undo.agreed", lang, player=asker)
        if not answered.accepted:
            if answered.seat == answered.request.seat:
                return self.t("host.undo.withdrawn", lang, player=asker)
            return self.t("host.undo.refused_by", lang, player=asker, refuser=game.names[answered.seat])
        return self.t(
            "host.undo.progress",
            lang,
            player=asker,
            accepted=self._names(game, answered.request.accepted),
            waiting=self._names(game, answered.waiting),
        )

    async def _edit(
        self, interaction: discord.Interaction, content: str, *, view: discord.ui.View | None
    ) -> None:
        """Edit the request message the click came from (already acknowledged)."""
        await safe.edit_original(interaction, content=content, view=view)
