"""How a game looks on Discord: the contract between the host and a game's cog.

The host draws every table message, routes every click and phrases every
event through a game's :class:`Presenter`; a cog only subclasses it.  The
defaults already give a playable table (one button per legal action, one
catalog line per event), so a game overrides only what it wants to look
better.

Every word comes from the catalog, in every language the bot ships (``bot/locales``): a new
game's presenter lands with its ``[<game>...]`` sections in ``en.toml`` *and* ``fr.toml``
(``tests/bot/core/test_locales.py`` refuses a key missing from either), and names the engine's tokens
(a colour, a card) through :meth:`Presenter.event_param`, so the same name reads the same in its
events, refusals (:meth:`Presenter.illegal`) and board image.  See ``rules/README.md``, "Text,
in every language".
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol, Self

from bot.core.i18n import Catalog
from bot.services.ratings import Change
from bot.services.sessions import Applied, LiveGame, SessionService
from bot.storage import GameStatus
from rules.core import Action, Event, IllegalAction, Outcome

if TYPE_CHECKING:
    import discord

log = logging.getLogger(__name__)

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


Prepare = Callable[[LiveGame], Awaitable[None]]
"""A hook the tables await before they draw a board (``Publisher.host_prepares``)."""


class Prepares(Protocol):
    """Where a presenter files a :data:`Prepare` hook: the bot's publisher."""

    host_prepares: list[Prepare]


class PresenterHost(Protocol):
    """What a presenter may take from the bot that builds it (:meth:`Presenter.for_host`).

    Smaller than the cogs' :class:`bot.ui.host.Host` because that one names the publisher and the
    clicks, which import this module: of the publisher a presenter sees only where its hooks go.
    """

    @property
    def catalog(self) -> Catalog: ...

    @property
    def publisher(self) -> Prepares: ...

    @property
    def sessions(self) -> SessionService: ...


class Presenter:
    """Default presentation; ``game`` is the registry name the presenter serves."""

    game: str = ""
    seat_params: ClassVar[frozenset[str]] = frozenset(
        {"seat", "buyer", "seller", "bidder", "winner", "owner"}
    )
    """Event params that hold one seat, besides any ``*_seat`` (see :func:`is_seat_param`).

    A short list of names that mean a seat in every game, not "every int": ``from`` is a seat in
    California (where a guest came from) but would be a square in Monopoly, so a game adds its own
    (``seat_params = Presenter.seat_params | {"from"}``) rather than the host guessing.
    """
    seat_list_params: ClassVar[frozenset[str]] = frozenset({"seats", "winners"})
    """Event params that hold a list of seats, besides any ``*_seats``: phrased by :meth:`names`.

    Lists with one value *per* seat (``scores``, ``ranks``, The Estates' ``buildings``) are not
    seats; a game phrases those itself.
    """
    colour_marks: ClassVar[Mapping[str, str]] = {}
    """Colour key -> the letters the board image prints beside that colour (``Bl``, ``Rd``...).

    Labels carry them so a colour-blind player can match a button to the picture; :meth:`mark`
    reads them, so every game writes the same letters its renderer draws.
    """

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    @classmethod
    def for_host(cls, host: PresenterHost, /) -> Self:
        """The game's presenter for this bot, built once at start by the client from the class its
        registry entry names; a game that hooks into the tables (Monopoly) overrides it."""
        return cls(host.catalog)

    def t(self, key: str, language: str, /, **params: Any) -> str:
        return self.catalog.text(key, language, **params)

    def player(self, game: LiveGame, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(game.seats):
            return self.t("host.nobody", game.row.language)
        return game.seats[seat].name

    # -- words every game needs ------------------------------------------------------------------

    def names(self, game: LiveGame, seats: object) -> str:
        """Seats as one phrase ("Ana and Bob"), or the catalog's "nobody" for none.

        The joining word is the catalog's ``host.and``, or the game's own ``<game>.and`` while the
        host's table has none, so a translation changes it in one place.  Anything that is not a
        list of seats (a corrupt param) reads as nobody rather than breaking the line.
        """
        lang = game.row.language
        found = (
            [self.player(game, s) for s in seats if isinstance(s, int) and not isinstance(s, bool)]
            if isinstance(seats, list | tuple)
            else []
        )
        if not found:
            return self.t("host.nobody", lang)
        return self.phrase(game, found)

    def phrase(self, game: LiveGame, items: Sequence[str]) -> str:
        """Words as one list ("$225, SFO Airport and Water Works"), joined as :meth:`names` joins."""
        lang = game.row.language
        joiner = next(
            (self.t(key, lang) for key in ("host.and", f"{self.game}.and") if self.catalog.has(key, lang)),
            ", ",
        )
        if len(items) <= 2:
            return joiner.join(items)
        return joiner.join((", ".join(items[:-1]), items[-1]))  # "Ana, Bob and Cy"

    def number(self, game: LiveGame, value: int) -> str:
        """``1,500``: a whole number as the table's language writes it (:meth:`bot.core.i18n.Words.number`,
        which the board images use too); every number in an event passes here
        (:meth:`event_param`), so no game formats numbers itself."""
        return self.catalog.words(game.row.language).number(value)

    def count(self, key: str, lang: str, count: int) -> str:
        """``{count} point`` or ``{count} points``: the catalog's ``<key>_one`` / ``<key>_other``,
        chosen by the language's plural rule (:meth:`bot.core.i18n.Words.count`: French says "0 point")."""
        return self.catalog.words(lang).count(key, count)

    def mark(self, colour: object) -> str:
        """``Bl``, ``Rd``...: the letters :attr:`colour_marks` gives a colour key, ``?`` for none."""
        return self.colour_marks.get(colour, "?") if isinstance(colour, str) else "?"

    def public(self, game: LiveGame) -> dict[str, Any]:
        """The spectator view: the only source of anything shown to everyone.

        Never ``game.state``: in a game with hidden information (money in The Estates, hands in
        Last Will) the state holds secrets, and the table is seen by everyone.
        """
        view: dict[str, Any] = game.entry.rules.view(game.state, None)
        return view

    def view_of(self, game: LiveGame, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: the source of its private panels, forms and summaries."""
        view: dict[str, Any] = game.entry.rules.view(game.state, seat)
        return view

    # -- the table message -----------------------------------------------------------------------

    def status(self, game: LiveGame, view: dict[str, Any]) -> str:
        """One or two lines under the board: whose turn, what is at stake."""
        waiting = sorted(game.waiting())
        names = ", ".join(self.player(game, s) for s in waiting)
        return self.t("host.status.waiting", game.row.language, players=names)

    seat_accents: ClassVar[tuple[int, ...]] = (0x2F6FD1, 0xD1442F, 0x2F9E58, 0xC7A21C, 0x8A4FC7, 0x3AA6B5)
    """Frame colours of a table by seat, for a game whose board gives its seats none."""

    def seat_colour(self, seat: int) -> int | None:
        """The colour the board gives ``seat`` (``0xRRGGBB``); a game with seat colours overrides."""
        return self.seat_accents[seat % len(self.seat_accents)]

    def accent(self, game: LiveGame, view: dict[str, Any]) -> int | None:
        """The table's frame colour: the one seat the game waits on, else Discord's own."""
        waiting = game.waiting()
        return self.seat_colour(next(iter(waiting))) if len(waiting) == 1 else None

    def describe(self, game: LiveGame, view: dict[str, Any], last: str | None) -> str:
        """The board in words (its alt text): the game and move, whose turn, every seat's public
        standing, and the last move.  Built from ``view``, the public view, and from lines the
        table already shows, so it says nothing the picture does not."""
        lang = game.row.language
        parts = [
            self.t("host.board.alt_head", lang, game=game.entry.rules.title, move=game.public_version),
            self.status(game, view)
            if game.status == GameStatus.ACTIVE
            else self.t("host.board.alt_over", lang),
            *(line for seat in range(len(game.seats)) if (line := self.standing(game, view, seat))),
        ]
        if last:
            parts.append(self.t("host.board.alt_last", lang, line=last))
        return "\n".join(parts)

    def standing(self, game: LiveGame, view: dict[str, Any], seat: int) -> str:
        """One seat's public standing for :meth:`describe` ("Ana: $12, 9 points"); a game overrides."""
        return self.player(game, seat)

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

    def owner(self, game: LiveGame, action: Action) -> int | None:
        """The one seat a table button is drawn for, or ``None`` when it is anybody's.

        An action any seat may make at any time (a loan in California) can sit on the table for
        the player on turn, drawn only when it is legal for them: anybody else who presses it is
        told the button is that player's (``host.refuse.someone_elses``), as for a turn's own
        button, instead of being refused by the engine for a reason the table already showed.
        """
        return None

    def carries_turn(self, game: LiveGame, events: Sequence[Event]) -> bool:
        """Whether a new table message, posted to ping someone newly waited on, goes on with the
        live message's turn instead of starting a new one.

        Usually a new player waited on is a new turn: the old message is folded into its lines
        and the new one starts empty.  A game where players are pinged again and again within
        one moment of play (Monopoly's open auction pings every outbid bidder) answers ``True``
        then: the new message carries the turn's lines on and the old one is deleted, so the
        thread keeps one message for the whole moment instead of one per ping.  ``events`` are
        the public events of the moves being shown (the moment may have just ended with them)."""
        return False

    def owner_hint(self, game: LiveGame, language: str) -> str:
        """Where a player finds their own version of an owned button (after the refusal)."""
        return ""

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

    def event_param(self, game: LiveGame, key: str, value: Any) -> Any:
        """One event param as a sentence shows it.

        A seat becomes its player's name and a list of seats one phrase (by the naming rule of
        :func:`is_seat_param` / :func:`is_seat_list_param`), a whole number is formatted by
        :meth:`number`; anything else stays as it is.  A game overrides this for values only it
        knows (California's colour keys) and calls it for the rest.
        """
        if is_seat_param(key, self.seat_params):
            seat = value if isinstance(value, int) and not isinstance(value, bool) else None
            return self.player(game, seat)
        if is_seat_list_param(key, self.seat_list_params):
            return self.names(game, value)
        if isinstance(value, int) and not isinstance(value, bool):
            return self.number(game, value)
        return value

    def illegal(self, game: LiveGame, exc: IllegalAction, lang: str) -> str:
        """Why the engine refused a move, as the sentence ``<game>.illegal.<key>`` in ``lang``.

        Params go through :meth:`event_param`, as an event's do: seats become names, numbers are
        formatted, and a game's own tokens (a tile, a card) read as the board names them.  A key
        the catalog lacks is a bug, logged; the player still gets an honest "not allowed".
        """
        key = f"{self.game}.illegal.{exc.key}"
        if not self.catalog.has(key, lang):
            log.error("no catalog sentence for %s's refusal %s", self.game, exc)
            return self.t("host.refuse.illegal", lang)
        params = {name: self.event_param(game, name, value) for name, value in exc.params.items()}
        return self.t(key, lang, **params)

    def event_params(self, game: LiveGame, event: Event) -> dict[str, Any]:
        """The params of ``event`` ready for its catalog line, one way for every game.

        Each param goes through :meth:`event_param` (seats named, numbers formatted); ``player``
        names the event's own seat (it wins over a param of that name); and a ``reason`` code
        becomes ``why``, the catalog's ``<game>.reason.<code>`` phrased with these same params
        (so a reason may name the player), when the catalog has that key.  Logic that needs the
        raw values (a seat number, a token) reads ``event.params`` instead.
        """
        lang = game.row.language
        params = {key: self.event_param(game, key, value) for key, value in event.params.items()}
        params["player"] = self.player(game, event.seat)
        reason = event.params.get("reason")
        if isinstance(reason, str):
            key = f"{self.game}.reason.{reason}"
            if self.catalog.has(key, lang):
                params["why"] = self.t(key, lang, **params)
        return params

    def event_key(self, game: LiveGame, event: Event) -> str:
        """The catalog key of ``event``'s public line; a game picks a variant here (a rooftop's
        auction names its value, an automatic repayment reads differently)."""
        return f"{self.game}.event.{event.kind}"

    def event_line(self, game: LiveGame, event: Event) -> str | None:
        """A public log line for ``event`` (never called for private events); none without a key."""
        key = self.event_key(game, event)
        if not self.catalog.has(key, game.row.language):
            return None
        return self.t(key, game.row.language, **self.event_params(game, event))

    def lines(self, game: LiveGame, events: Sequence[Event]) -> list[str]:
        """Public log lines for one accepted action; games may merge events into one sentence."""
        out = []
        for event in events:
            if event.visible_to is None:
                line = self.event_line(game, event)
                if line:
                    out.append(line)
        return out

    def paired(self, game: LiveGame, event: Event, following: Event) -> str | None:
        """The catalog key of one line telling ``event`` and the same seat's ``following`` event
        together (a move and the payment it caused), or ``None`` to tell them apart."""
        return None

    def pair_params(self, game: LiveGame, event: Event, following: Event) -> dict[str, Any]:
        """The placeholders of a paired line: both events' own (the second's win a clash)."""
        return {**self.event_params(game, event), **self.event_params(game, following)}

    def pair_line(self, game: LiveGame, public: Sequence[Event], index: int) -> str | None:
        """``public[index]`` and the event after it in one line (:meth:`paired`), else ``None``;
        a game's ``lines`` then steps over both."""
        if index + 1 >= len(public):
            return None
        event, following = public[index], public[index + 1]
        if following.seat != event.seat:
            return None
        key = self.paired(game, event, following)
        if key is None:
            return None
        return self.t(key, game.row.language, **self.pair_params(game, event, following))

    def private_line(self, game: LiveGame, event: Event) -> str | None:
        """Text for an event only its ``visible_to`` seats may read (sent ephemerally)."""
        key = f"{self.game}.private.{event.kind}"
        if not self.catalog.has(key, game.row.language):
            return None
        return self.t(key, game.row.language, **self.event_params(game, event))

    def confirmation(self, game: LiveGame, applied: Applied) -> str | None:
        """A private line for the player whose action was accepted ("You took a loan: +3 silver")."""
        return None

    def panel_for(self, game: LiveGame, seat: int, action: Action) -> Panel | None:
        """The private panel where ``seat`` finds ``action`` now, drawn afresh.

        Shown in place of a panel whose button went stale (its price or the thing it names
        changed), under one line saying so, so a player is never left at a dead end.
        ``None``: the action is not on a private panel (the table is redrawn anyway).
        """
        return None

    def next_panel(self, game: LiveGame, seat: int, applied: Applied) -> Panel | None:
        """The private panel to show after an action taken on one, or ``None`` to close it.

        For choices made in several steps (build three houses in a row, pick companions
        one by one): the panel stays open on its next step, with its own Back and Done.
        Called after the action was committed, with the game as it is now.
        """
        return None

    def opening(self, game: LiveGame) -> list[str]:
        """Lines under "The game begins!" for what ``setup`` already did (dealt jobs, a first
        round's income): ``setup`` returns no events, so a game that acts there tells it here,
        from the public view.  Most games act only through moves and say nothing."""
        return []

    def private_summary(self, game: LiveGame, seat: int) -> list[str]:
        """What only ``seat`` knows right now, for "Catch me up" (money in The Estates, a hand).

        Built from ``view(state, seat)``; the default has nothing private to say.
        """
        return []

    def standings(
        self, game: LiveGame, outcome: Outcome, ratings: Mapping[int, Change] | None = None
    ) -> list[str]:
        """Final standings, best first, with each player's score breakdown; a seat in ``ratings``
        (a person's, in a rated game) adds its rating after the game and the change."""
        lang = game.row.language
        ratings = ratings or {}
        lines = []
        if outcome.no_winner:
            own = f"{self.game}.no_winner"
            lines.append(self.t(own if self.catalog.has(own, lang) else "host.final.no_winner", lang))
        for seat in sorted(range(len(outcome.ranks)), key=lambda s: (outcome.ranks[s], s)):
            parts = outcome.breakdown[seat] if outcome.breakdown else {}
            detail = ", ".join(filter(None, (self.score_part(game, k, v) for k, v in parts.items())))
            rated = ratings.get(seat)
            lines.append(
                self.t(
                    "host.standing" if rated is None else "host.standing_rated",
                    lang,
                    rank=outcome.ranks[seat],
                    player=self.player(game, seat),
                    score=self.score(game, outcome.scores[seat]),
                    detail=f" ({detail})" if detail else "",
                    **({} if rated is None else self.rating_params(game, rated)),
                )
            )
        return lines

    def rating_params(self, game: LiveGame, rated: Change) -> dict[str, str]:
        """``rating`` and ``change`` ("1,642", "+38") in the table's language; the sign is the
        catalog's, as a language may write its minus otherwise."""
        lang = game.row.language
        sign = "up" if rated.change > 0 else "down" if rated.change < 0 else "same"
        change = self.t(f"host.rating.{sign}", lang, change=self.number(game, abs(rated.change)))
        return {"rating": self.number(game, rated.after), "change": change}

    def rulings(self, language: str) -> list[str]:
        """Lines ``/game rules`` adds after the summary and the options: how the bot settles what
        the published rules leave open (Last Will's chosen rulings).  The host sends a text longer
        than one message as several; the default adds nothing."""
        return []

    def score(self, game: LiveGame, value: int) -> str:
        """A final score as the standings print it; a game whose score is money says so."""
        return self.number(game, value)

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


def is_seat_param(key: str, names: frozenset[str] = Presenter.seat_params) -> bool:
    """Whether an event param holds one seat: one of ``names`` or any ``*_seat``.

    The rule engines follow when they name a new param (``payer_seat``, ``owner``), so the host
    names the player without each game mapping it by hand.
    """
    return key in names or key.endswith("_seat")


def is_seat_list_param(key: str, names: frozenset[str] = Presenter.seat_list_params) -> bool:
    """Whether an event param holds a list of seats: one of ``names`` or any ``*_seats``."""
    return key in names or key.endswith("_seats")
