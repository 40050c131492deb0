"""How a game looks on Discord: the contract between the host and a game's cog.

The host draws every table message, routes every click and phrases every
event through a game's :class:`Presenter`; a cog only subclasses it.  The
defaults already give a playable table (one button per legal action, one
catalog line per event), so a game overrides only what it wants to look
better.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from bot.i18n import Catalog
from bot.session import Applied, LiveGame
from rules.core import Action, Event, Outcome

if TYPE_CHECKING:
    import discord

Style = Literal["primary", "secondary", "success", "danger"]


@dataclass(frozen=True, slots=True)
class Button:
    """A button on the table message.

    Exactly one of ``action`` (an engine action for the clicking player),
    ``ui`` (a code the presenter answers privately, e.g. "show my hand") or
    ``modal`` (an action kind completed by a number typed in a form) is set.
    """

    label: str
    action: Action | None = None
    ui: str | None = None
    modal: str | None = None
    style: Style = "secondary"
    row: int | None = None
    disabled: bool = False
    emoji: str | None = None


@dataclass(frozen=True, slots=True)
class Choice:
    label: str
    action: Action
    description: str | None = None


@dataclass(frozen=True, slots=True)
class Select:
    """A dropdown of engine actions, for choices too many for buttons.

    Any number of choices: the host pages a list longer than Discord's 25 options.
    With ``max_values > 1`` the player picks a set (from ``min_values`` to ``max_values``
    choices) that becomes one action: ``Action(combine, args of the chosen choices in
    list order)``; each choice's action is then ``Action(combine, (token,))``.
    """

    placeholder: str
    choices: Sequence[Choice]
    row: int | None = None
    min_values: int = 1
    max_values: int = 1
    combine: str | None = None


Control = Button | Select


@dataclass(frozen=True, slots=True)
class ModalSpec:
    """The form behind a ``Button.modal``: one whole number within bounds.

    ``Button.modal`` is an action kind, optionally with leading arguments written as in an
    encoded action (``"offer_cash.2"``: cash offered to seat 2); the typed number is added
    as the last argument.  The title and label say what the number is for ("Offer cash to
    Ana"); the bounds are what is legal and affordable for the seat *now*, and are asked for
    again when the form is submitted.
    """

    title: str
    label: str
    minimum: int
    maximum: int
    placeholder: str = ""


@dataclass(slots=True)
class Panel:
    """A private (ephemeral) reply to a UI button: text plus optional controls."""

    text: str
    controls: list[Control] = field(default_factory=list)
    image: bytes | None = None
    """A private picture (a zoom on one's own mansion or holdings): PNG bytes, or none."""
    public: bool = False
    """Shown on the table itself, edited in place, instead of privately: for a step of a choice
    that hides nothing (where California's chosen tile may go).  One call, no new message; the
    table's next update brings its usual buttons back."""


class Presenter:
    """Default presentation; ``game`` is the registry name the presenter serves."""

    game: str = ""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def t(self, key: str, language: str, /, **params: Any) -> str:
        return self.catalog.text(key, language, **params)

    def player(self, game: LiveGame, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(game.seats):
            return self.t("host.nobody", game.row.language)
        return game.seats[seat].name

    # -- the table message -----------------------------------------------------------------------

    def status(self, game: LiveGame, view: dict[str, Any]) -> str:
        """One or two lines under the board: whose turn, what is at stake."""
        waiting = sorted(game.waiting())
        names = ", ".join(self.player(game, s) for s in waiting)
        return self.t("host.status.waiting", game.row.language, players=names)

    def controls(self, game: LiveGame) -> list[Control]:
        """Buttons on the public table message.

        Must not reveal hidden information: a control shown to everyone may
        not depend on one player's secret (money, hand).
        """
        rules = game.entry.rules
        seen: dict[str, Button] = {}
        for seat in sorted(game.waiting()):
            for action in rules.legal_actions(game.state, seat):
                code = action.encode()
                if code not in seen and len(seen) < 25:
                    seen[code] = Button(self.action_label(game, action), action=action)
        return list(seen.values())

    def action_label(self, game: LiveGame, action: Action) -> str:
        key = f"{self.game}.action.{action.kind}"
        params = {f"a{i}": arg for i, arg in enumerate(action.args)}
        if self.catalog.has(key, game.row.language):
            return self.t(key, game.row.language, **params)
        return action.encode()

    def modal(self, game: LiveGame, kind: str, seat: int | None = None) -> ModalSpec | None:
        """The form for ``Button(modal=kind)`` as ``seat`` opens it; ``None`` refuses it.

        A form is private, so its bounds may use what only that seat knows (its money).
        """
        return None

    # -- events and results ----------------------------------------------------------------------

    def event_line(self, game: LiveGame, event: Event) -> str | None:
        """A public log line for ``event`` (never called for private events)."""
        key = f"{self.game}.event.{event.kind}"
        if not self.catalog.has(key, game.row.language):
            return None
        return self.t(key, game.row.language, player=self.player(game, event.seat), **dict(event.params))

    def lines(self, game: LiveGame, events: Sequence[Event]) -> list[str]:
        """Public log lines for one accepted action; games may merge events into one sentence."""
        out = []
        for event in events:
            if event.visible_to is None:
                line = self.event_line(game, event)
                if line:
                    out.append(line)
        return out

    def private_line(self, game: LiveGame, event: Event) -> str | None:
        """Text for an event only its ``visible_to`` seats may read (sent ephemerally)."""
        key = f"{self.game}.private.{event.kind}"
        if not self.catalog.has(key, game.row.language):
            return None
        return self.t(key, game.row.language, player=self.player(game, event.seat), **dict(event.params))

    def confirmation(self, game: LiveGame, applied: Applied) -> str | None:
        """A private line for the player whose action was accepted ("You took a loan: +3 silver")."""
        return None

    def next_panel(self, game: LiveGame, seat: int, applied: Applied) -> Panel | None:
        """The private panel to show after an action taken on one, or ``None`` to close it.

        For choices made in several steps (build three houses in a row, pick companions
        one by one): the panel stays open on its next step, with its own Back and Done.
        Called after the action was committed, with the game as it is now.
        """
        return None

    def private_summary(self, game: LiveGame, seat: int) -> list[str]:
        """What only ``seat`` knows right now, for "Catch me up" (money in The Estates, a hand).

        Built from ``view(state, seat)``; the default has nothing private to say.
        """
        return []

    def standings(self, game: LiveGame, outcome: Outcome) -> list[str]:
        """Final standings, best first, with each player's score breakdown."""
        lang = game.row.language
        lines = []
        for seat in sorted(range(len(outcome.ranks)), key=lambda s: (outcome.ranks[s], s)):
            parts = outcome.breakdown[seat] if outcome.breakdown else {}
            detail = ", ".join(filter(None, (self.score_part(game, k, v) for k, v in parts.items())))
            lines.append(
                self.t(
                    "host.standing",
                    lang,
                    rank=outcome.ranks[seat],
                    player=self.player(game, seat),
                    score=outcome.scores[seat],
                    detail=f" ({detail})" if detail else "",
                )
            )
        return lines

    def score_part(self, game: LiveGame, key: str, value: int) -> str:
        """One item of a score breakdown, named by the catalog when it has a name for it."""
        name = f"{self.game}.score.{key}"
        if self.catalog.has(name, game.row.language):
            return self.t(name, game.row.language, value=value)
        return f"{key} {value}"

    # -- private panels --------------------------------------------------------------------------

    async def on_ui(self, interaction: discord.Interaction, game: LiveGame, seat: int, code: str) -> Panel:
        """Answer a ``Button(ui=...)`` click privately; the default knows no codes."""
        return Panel(self.t("host.refuse.unknown_button", game.row.language))
