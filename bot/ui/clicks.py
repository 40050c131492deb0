"""Every click that reaches a game: actions, lasting actions, selects, panels, forms, Catch me up.

The flow for a click: parse the custom_id -> the session service applies and commits (or
refuses: an ephemeral sentence, nothing changes) -> the table is redrawn by the
:class:`bot.ui.publisher.Publisher`, whose edit of the message the click was pressed on doubles as
the answer to the click.  Clicks and publishing are two rooms: this one reads what was pressed and
answers the presser; the publisher owns every table message (and its lock, its journal, its
retries), and is asked, never reached into.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any

import discord

from bot.core.i18n import clip, plural
from bot.services.sessions import LiveGame, Refusal, SessionService
from bot.storage import GameStatus, StoreError
from bot.storage.base import Unconfirmed
from bot.ui import safe
from bot.ui.access import server_of
from bot.ui.amounts import TypedValues, Unreadable, parse_amount
from bot.ui.components import (
    Malformed,
    Ref,
    build_view,
    custom_id,
    decode_action,
    item_rows,
    parse_page,
    parse_ref,
)
from bot.ui.presenter import Button, ModalSpec, Panel
from bot.ui.publisher import CATCH_UP, TABLE, Publisher
from rules.core import Action, IllegalAction

log = logging.getLogger(__name__)

AGAIN = "h.again."
"""A form's "Try again" button: ``m:<game>:<version>:h.again.<kind>``, the ``m:`` form button of
that kind, opened only at the version the refused form was opened at, with what was typed."""


class Clicks:
    """Every press on a game's controls, answered: the session decides, the publisher shows.

    It holds no table message of its own: what players see is :class:`Publisher`'s, which this
    class asks to redraw a table (or to show a table-wide panel in place) once a move is committed.
    """

    def __init__(self, publisher: Publisher) -> None:
        self.publisher = publisher
        self.sessions: SessionService = publisher.sessions
        self.typed = TypedValues()
        """What players typed into refused forms, for "Try again" (memory only: a restart forgets)."""
        self.host_clicks: dict[str, Callable[[discord.Interaction, Ref], Awaitable[None]]] = {}
        """Who answers a host button's ui code (a ``u:`` id) other than Catch me up (``bot.ui.undo``
        adds Undo's)."""

    # -- answers ---------------------------------------------------------------------------------

    async def refuse(self, interaction: discord.Interaction, refusal: Refusal, language: str = "en") -> None:
        """A refusal, in the player's own language when we have it, else ``language`` (the table's)."""
        text = self.publisher.t(refusal.key, self.publisher.reader(interaction, language), **refusal.params)
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
        """The engine's reason, in the table's language: it is the game speaking, and names its
        tiles and cards as the board and the table's lines do (:meth:`Publisher.reader`), whereas
        the host's own refusals (not seated, stale button) follow the player's locale."""
        log.debug("refused action in game %s from user %s: %s", game_id, interaction.user.id, exc.key)
        try:
            game = await self.sessions.load(game_id)
        except (Refusal, StoreError):  # gone since the move was refused: say it was refused
            await self.refuse(interaction, Refusal("host.refuse.illegal"))
            return
        text = self.publisher.presenter(game).illegal(game, exc, game.row.language)
        await safe.reply(interaction, text)

    async def refuse_storage(
        self, interaction: discord.Interaction, exc: StoreError, language: str, game_id: int | None = None
    ) -> None:
        """The one honest line when a move could not be saved: it was not, and the player may retry.

        Unless the database could not say (:class:`Unconfirmed`: a failed commit it could not
        even be read back after): then we say we could not confirm, and the board of ``game_id``
        is redrawn from the database as soon as it reads, so the table itself shows the truth.
        """
        reader = self.publisher.reader(interaction, language)
        if isinstance(exc, Unconfirmed):
            log.error("user %s: move not confirmed: %s", interaction.user.id, exc)
            if game_id is not None:
                self.publisher.repair_soon(game_id)
            await safe.reply(interaction, self.publisher.t("host.storage_unconfirmed", reader))
            return
        log.error("user %s: nothing saved: %s", interaction.user.id, exc)
        await safe.reply(interaction, self.publisher.t("host.storage_down", reader))

    # -- clicks ----------------------------------------------------------------------------------

    async def on_action_click(self, interaction: discord.Interaction, rest: str) -> None:
        read = await self._read_click(interaction, rest, lambda ref: decode_action(ref.ref))
        if read is not None:
            await self.act(interaction, read[0].game_id, read[1], read[0].version)

    async def on_lasting_click(self, interaction: discord.Interaction, rest: str) -> None:
        """A lasting action (``a:``): good while it means what it meant when drawn, other moves or not."""
        read = await self._read_click(interaction, rest, lambda ref: decode_action(ref.ref))
        if read is not None:
            await self.act(interaction, read[0].game_id, read[1], None, lasting=read[0].version)

    async def on_select(self, interaction: discord.Interaction, rest: str, values: Sequence[str]) -> None:
        def chosen(ref: Ref) -> Action:
            if not _offered(interaction, values):
                raise Malformed(rest)
            return _chosen(ref.ref, values)

        read = await self._read_click(interaction, rest, chosen)
        if read is not None:
            await self.act(interaction, read[0].game_id, read[1], read[0].version)

    async def _read_click(
        self, interaction: discord.Interaction, rest: str, action: Callable[[Ref], Action]
    ) -> tuple[Ref, Action] | None:
        """The reference and action behind a move's button or menu, or ``None`` once a malformed
        one is refused: a forged or truncated id is answered the same way wherever it arrives."""
        try:
            ref = parse_ref(rest)
            return ref, action(ref)
        except Malformed:
            await self.refuse(interaction, Refusal("host.refuse.malformed"))
            return None

    async def act(
        self,
        interaction: discord.Interaction,
        game_id: int,
        action: Action,
        version: int | None,
        *,
        lasting: int | None = None,
    ) -> None:
        try:
            server_of(interaction)
        except Refusal as refusal:
            await self.refuse(interaction, refusal)
            return
        if not _on_private_panel(interaction) and await self._someone_elses(
            interaction, game_id, action, version
        ):
            return
        try:
            applied = await self.sessions.act(
                game_id, interaction.user.id, action, version=version, lasting=lasting
            )
        except Refusal as refusal:
            if refusal.key in ("host.refuse.stale", "host.refuse.changed"):
                await self._refuse_stale(interaction, game_id, action, refusal)
                return
            await self.refuse(interaction, refusal, await self.publisher.language(game_id))
            return
        except IllegalAction as exc:
            await self.refuse_illegal(interaction, game_id, exc)
            return
        except StoreError as exc:
            await self.refuse_storage(interaction, exc, await self.publisher.language(game_id), game_id)
            return
        # No await between the commit and queueing: the journal keeps commit order.
        # A private action leaves the table untouched: others must not see that anything happened.
        if applied.public:
            self.publisher.shown(game_id).journal.append(applied)
        presenter = self.publisher.presenter(applied.game)
        private = [
            presenter.private_line(applied.game, event)
            for event in applied.events
            if event.visible_to is not None and applied.seat in event.visible_to
        ]
        private.append(presenter.confirmation(applied.game, applied))
        if _on_private_panel(interaction):
            # The choice was made on a private panel: it shows its next step, or closes so its
            # buttons cannot be pressed again.
            said = "\n".join(p for p in private if p)
            private = []
            following = presenter.next_panel(applied.game, applied.seat, applied)
            if following is not None:
                text = "\n".join(p for p in (said, following.text) if p)
                await self.send_panel(interaction, applied.game, replace(following, text=text))
            else:
                done = said or self.publisher.t("host.panel_done", applied.game.row.language)
                await safe.update(interaction, content=done, view=None, attachments=[])
        if applied.public:
            await self.publisher.publish(applied.game, responder=interaction)
        await safe.defer(interaction)
        said = "\n".join(text for text in private if text)
        if said:
            await safe.reply(interaction, said)

    async def _someone_elses(
        self, interaction: discord.Interaction, game_id: int, action: Action, version: int | None
    ) -> bool:
        """Refuse a table button drawn for another seat (:meth:`Presenter.owner`); ``True`` when refused.

        Judged on the board the button was drawn for (an older one gets the usual stale answer),
        or now for a lasting button (``version`` ``None``), which means the same on any board.
        """
        try:
            game = await self.sessions.load(game_id)
        except (Refusal, StoreError):
            return False  # the action itself will say what is wrong
        if game.status != GameStatus.ACTIVE or version not in (None, game.public_version):
            return False
        seat = game.seat_of(interaction.user.id)
        presenter = self.publisher.presenter(game)
        owner = presenter.owner(game, action)
        if owner is None or seat is None or seat == owner:
            return False
        lang = game.row.language
        line = self.publisher.t("host.refuse.someone_elses", lang, player=presenter.player(game, owner))
        hint = presenter.owner_hint(game, lang)
        await safe.reply(interaction, f"{line} {hint}".strip())
        return True

    async def _refuse_stale(
        self, interaction: discord.Interaction, game_id: int, action: Action, refusal: Refusal
    ) -> None:
        """A stale button or form: on a private panel, the panel as it is now under the refusal's
        line; elsewhere the refusal itself.  One path for both, so a stale form reads exactly as a
        stale button does."""
        # The player may be pressing an old table because the new one never got posted.
        self.publisher.repair_soon(game_id)
        if await self._redraw(interaction, game_id, action, refusal):
            return
        await self.refuse(interaction, refusal, await self.publisher.language(game_id))

    async def _redraw(
        self, interaction: discord.Interaction, game_id: int, action: Action, refusal: Refusal
    ) -> bool:
        """A stale button on a private panel: the panel as it is now, under the refusal's line.

        ``True`` when the panel was redrawn (the game's presenter knows where the action lives).
        """
        if not _on_private_panel(interaction):
            return False
        try:
            game = await self.sessions.load(game_id)
        except (Refusal, StoreError):
            return False
        seat = game.seat_of(interaction.user.id)
        if seat is None or game.status != GameStatus.ACTIVE:
            return False
        panel = self.publisher.presenter(game).panel_for(game, seat, action)
        if panel is None:
            return False
        # One line for both refusals: on a private panel, "use the newest table" would mislead.
        line = self.publisher.t("host.refuse.changed", game.row.language)
        await self.send_panel(
            interaction, game, replace(panel, text="\n".join(p for p in (line, panel.text) if p))
        )
        return True

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
            if form:
                decode_action(ref.ref)  # a kind, perhaps with leading arguments ("offer_cash.2")
        except Malformed:
            await self.on_malformed(interaction, rest)
            return None
        try:
            game = await self.sessions.load(ref.game_id)  # StoreError: answered by the router's guard
            seat = game.seat_of(interaction.user.id)
            if seat is None:
                raise Refusal("host.refuse.not_seated")
            if game.status != GameStatus.ACTIVE:
                raise Refusal("host.refuse.over")
            if fresh and ref.version != game.public_version:
                raise Refusal("host.refuse.stale")
        except Refusal as refusal:
            await self.refuse(interaction, refusal, await self.publisher.language(ref.game_id))
            return None
        return game, seat, ref.ref

    async def on_panel_click(self, interaction: discord.Interaction, rest: str) -> None:
        # A panel only shows things: an old one is simply redrawn from the current state,
        # with buttons for the current version, instead of being refused as stale.
        try:
            ref = parse_ref(rest)
            if ref.ref == CATCH_UP:
                await self.catch_up(interaction, ref.game_id)
                return
            host_click = self.host_clicks.get(ref.ref)
            if host_click is not None:
                await host_click(interaction, ref)
                return
        except Malformed:
            pass  # answered by _seated below
        found = await self._seated(interaction, rest, fresh=False)
        if found is None:
            return
        game, seat, code = found
        paging = parse_page(code)
        page, code = paging if paging is not None else (0, code)
        if code == TABLE:
            await self.send_panel(
                interaction,
                game,
                Panel("", self.publisher.presenter(game).controls(game), public=True),
                page=page,
                source=TABLE,
            )
            return
        try:
            panel = await self.publisher.presenter(game).on_ui(interaction, game, seat, code)
        except Refusal as refusal:
            await self.refuse(interaction, refusal, game.row.language)
            return
        await self.send_panel(interaction, game, panel, page=page, source=code)

    async def catch_up(self, interaction: discord.Interaction, game_id: int) -> None:
        """ "Catch me up": privately, every public event since the player's own last action, what
        only they were told since, and where they stand now.  Spectators get the latest events.

        Events are never stored, so the log is replayed; it works on a finished game too.
        """
        try:
            game = await self.sessions.load(game_id)
            steps = await self.sessions.history(game_id)
        except Refusal as refusal:
            await self.refuse(interaction, refusal, await self.publisher.language(game_id))
            return
        lang = game.row.language
        presenter = self.publisher.presenter(game)
        seat = game.seat_of(interaction.user.id)
        mine = [index for index, step in enumerate(steps) if step.seat == seat]
        start = mine[-1] + 1 if mine else 0
        news = self.publisher.batch_lines(game, steps[start:])  # a timed-out move says whose time ran out
        private = [
            presenter.private_line(game, event)
            for step in steps[start:]
            for event in step.events
            if seat is not None and event.visible_to is not None and seat in event.visible_to
        ]
        tail = [line for line in private if line]
        if seat is not None and game.state is not None:
            tail.extend(presenter.private_summary(game, seat))
        if tail:
            tail.insert(0, self.publisher.t("host.catch_up.private", lang))
        if game.status == GameStatus.ACTIVE:
            tail.append(presenter.status(game, game.entry.rules.view(game.state, None)))
        if mine:
            # Public moves only: counting log entries would give away others' hidden moves (a stow).
            moves = steps[-1].public_version - steps[start - 1].public_version
            head = self.publisher.t(f"host.catch_up.since_you_{plural(lang, moves)}", lang, moves=moves)
        else:
            head = self.publisher.t("host.catch_up.from_start", lang)
        if not news:
            news = [self.publisher.t("host.catch_up.nothing", lang)]
        await safe.reply(interaction, self._fit(lang, head, news, tail))

    def _fit(self, lang: str, head: str, lines: list[str], tail: list[str]) -> str:
        """Head, as many of the newest ``lines`` as fit one message, then ``tail`` in full."""
        budget = 1900 - len(head) - sum(len(line) + 1 for line in tail)
        kept: list[str] = []
        for line in reversed(lines):
            if budget - len(line) - 1 < 60:
                break
            budget -= len(line) + 1
            kept.append(line)
        kept.reverse()
        skipped = len(lines) - len(kept)
        if skipped:
            kept.insert(0, self.publisher.t("host.catch_up.earlier", lang, count=skipped))
        return clip("\n".join([head, *kept, *tail]))

    async def send_panel(
        self,
        interaction: discord.Interaction,
        game: LiveGame,
        panel: Panel,
        *,
        page: int = 0,
        source: str | None = None,
    ) -> None:
        """A private panel; a click on a private panel replaces it instead of stacking a new one.

        ``source`` is the ui code that draws the panel again, for its paging buttons when its
        list is longer than one message holds.
        """
        view = build_view(
            item_rows(
                game.id,
                game.public_version,
                panel.controls,
                page=page,
                source=source,
                lasting=self.publisher.lasting(game),
            )
        )
        if panel.public and await self.publisher.show_on_table(
            interaction, game, panel, page=page, source=source
        ):
            return
        picture = (
            [discord.File(io.BytesIO(panel.image), filename=f"zoom-{game.id}.png")]
            if panel.image is not None
            else []
        )
        # attachments=[] also clears a zoom picture the panel showed before.
        if (
            _on_private_panel(interaction)
            and not interaction.response.is_done()
            and await safe.update(interaction, content=panel.text, view=view, attachments=picture)
        ):
            return
        kwargs: dict[str, Any] = {"ephemeral": True}
        if view is not None:
            kwargs["view"] = view
        if picture:
            kwargs["file"] = discord.File(io.BytesIO(panel.image or b""), filename=f"zoom-{game.id}.png")
        await safe.reply(interaction, panel.text, **kwargs)

    async def on_form_click(self, interaction: discord.Interaction, rest: str) -> None:
        """A form button: the table's (``m:<game>:<version>:<kind>``) or a refusal's "Try again".

        Opening a form changes nothing: a table's older form button opens with today's bounds, and
        the number is judged against the game as it is when it arrives.  "Try again" instead
        reopens the refused form itself, with what was typed in it: only while the game is at the
        version that form was opened at (else the usual stale answer), since the text was typed
        for the game as it was then.
        """
        try:
            ref = parse_ref(rest).ref
            again = ref.startswith(AGAIN)
            if again:
                decode_action(ref.removeprefix(AGAIN))  # the form's own kind ("bid", "offer_cash.2")
        except Malformed:
            await self.on_malformed(interaction, rest)
            return
        found = await self._seated(interaction, rest, form=True, fresh=again)
        if found is None:
            return
        game, seat, code = found
        kind = code.removeprefix(AGAIN) if again else code
        spec = self.publisher.presenter(game).modal(game, kind, seat)
        if spec is None:
            await self.refuse(interaction, Refusal("host.refuse.unknown_button"), game.row.language)
            return
        typed = self.typed.recall(interaction.user.id, game.id, kind, game.public_version) if again else ""
        modal = NumberForm(
            custom_id("n", game.id, game.public_version, kind),
            spec.title,
            spec.label,
            spec.placeholder,
            default=typed,
        )
        await safe.modal(interaction, modal)

    async def on_form_submit(self, interaction: discord.Interaction, rest: str, raw: str) -> None:
        """A submitted number form; handled from ``on_interaction`` so it survives restarts.

        Its version is the one it was opened at, and a form is refused as stale (the same answer
        as a stale button, the panel redrawn as it is now) once the game has moved on publicly:
        the number was typed for the game as it was, and a deal's draft must not change under a
        form opened before a roll or a payment, even where the action would mean the same.  The
        number is read as the table's language writes numbers (:func:`bot.ui.amounts.parse_amount`:
        "$1,500", "1 500 €"); what cannot be read, or is out of bounds, is refused privately, in
        the table's language like the form itself, with a "Try again" button (:meth:`refuse_form`).
        """
        found = await self._seated(interaction, rest, form=True, fresh=False)
        if found is None:
            return
        game, seat, kind = found
        spec = self.publisher.presenter(game).modal(game, kind, seat)
        if spec is None:
            await self.refuse(interaction, Refusal("host.refuse.unknown_button"), game.row.language)
            return
        opened_at = parse_ref(rest).version  # _seated has read this id already
        lead = decode_action(kind)
        if opened_at != game.public_version:
            await self._refuse_stale(interaction, game.id, lead, Refusal("host.refuse.stale"))
            return
        try:
            number = parse_amount(raw, game.row.language)
        except Unreadable as exc:
            await self.refuse_form(
                interaction, game, kind, opened_at, raw, Refusal(exc.key, value=_quoted(raw))
            )
            return
        if not spec.minimum <= number <= spec.maximum:
            await self.refuse_form(
                interaction, game, kind, opened_at, raw, self._out_of_range(game, spec, number)
            )
            return
        self.typed.forget(interaction.user.id, game.id, kind)
        await self.act(interaction, game.id, Action(lead.kind, (*lead.args, number)), opened_at)

    def _out_of_range(self, game: LiveGame, spec: ModalSpec, number: int) -> Refusal:
        """The bounds and the number as the form's label writes them ("21 to 1,500")."""
        presenter = self.publisher.presenter(game)
        return Refusal(
            "host.refuse.number_range",
            min=presenter.number(game, spec.minimum),
            max=presenter.number(game, spec.maximum),
            value=presenter.number(game, number),
        )

    async def refuse_form(
        self,
        interaction: discord.Interaction,
        game: LiveGame,
        kind: str,
        opened_at: int,
        raw: str,
        refusal: Refusal,
    ) -> None:
        """Why a form's number was not taken, privately, with "Try again": the same form again,
        with what was typed in it.  Nothing in the game changed.

        In the table's language (the form's own words are; a French table's player reads a French
        reason whatever their client's language).  What was typed stays in memory
        (:class:`bot.ui.amounts.TypedValues`), never in the button's id; the log line names the
        reason only, never the number (a bid above one's hidden money says something about it).
        """
        self.typed.remember(interaction.user.id, game.id, kind, opened_at, raw)
        log.debug("refused form %s from user %s: %s", kind, interaction.user.id, refusal.key)
        lang = game.row.language
        again = Button(self.publisher.t("host.amount.again", lang), modal=f"{AGAIN}{kind}", style="primary")
        view = build_view(item_rows(game.id, opened_at, [again]))
        text = self.publisher.t(refusal.key, lang, **refusal.params)
        await safe.reply(interaction, text, **({"view": view} if view is not None else {}))


class NumberForm(discord.ui.Modal):
    """A one-field form; its submission is routed by custom_id in ``on_interaction``.

    ``default`` is the text the field opens with ("Try again" after a refusal shows what was typed).
    """

    def __init__(self, custom_id: str, title: str, label: str, placeholder: str, default: str = "") -> None:
        super().__init__(title=title[:45], custom_id=custom_id, timeout=600)
        self.value: discord.ui.TextInput[NumberForm] = discord.ui.TextInput(
            label=label[:45],
            placeholder=placeholder[:100] or None,
            default=default[:MAX_TYPED] or None,
            max_length=MAX_TYPED,
            custom_id="value",
        )
        self.add_item(self.value)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Deliberately empty: the host's ``on_interaction`` answers every form, before or after a restart."""


MAX_TYPED = 12
"""What a form's field takes: "1 500 000 M$" fits, and a refusal quoting it stays short."""


def _quoted(raw: str) -> str:
    """What was typed, as a refusal quotes it: trimmed, short, and shown as typed (no markdown)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(clip(raw.strip(), 20)))


def _chosen(ref: str, values: Sequence[str]) -> Action:
    """The action a select stands for: its one value, or (a multi-select, ``set<n>.<kind>``) the
    chosen values' arguments combined into one action, in a canonical order."""
    if not ref.startswith("set"):
        if len(values) != 1:
            raise Malformed(ref)
        return decode_action(values[0])
    kind = ref.partition(".")[2]
    args: list[int | str] = []
    for value in values:
        action = decode_action(value)
        if action.kind != kind:
            raise Malformed(ref)
        args.extend(action.args)
    if len(set(args)) != len(args):
        raise Malformed(ref)
    return Action(kind, tuple(sorted(args, key=lambda a: (isinstance(a, str), a))))


def _offered(interaction: discord.Interaction, values: Sequence[str]) -> bool:
    """Whether every chosen value is an option of the select that was used.

    Discord's client only sends offered values, but a forged interaction may send any action's
    reference; a select must never make a move it did not offer (a loan through a tile picker)."""
    message, custom_id = interaction.message, _custom_id(interaction)
    if message is None or custom_id is None:
        return True  # nothing to check against (the host never draws a select without a message)
    for row in message.components:
        for child in getattr(row, "children", ()):
            if getattr(child, "custom_id", None) == custom_id:
                options = {str(option.value) for option in getattr(child, "options", ())}
                return all(value in options for value in values)
    return True


def _on_private_panel(interaction: discord.Interaction) -> bool:
    message = interaction.message
    return message is not None and message.flags.ephemeral


def _custom_id(interaction: discord.Interaction) -> str | None:
    data: dict[str, Any] = dict(interaction.data or {})
    value = data.get("custom_id")
    return str(value) if value is not None else None
