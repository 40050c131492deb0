"""Offers between players on Discord: whom to deal with, the private draft, the open offers.

Monopoly's deals and the toy market's offers follow one pattern (the engine keeps a seat's
*draft* private until it is sent; a sent offer is public and numbered; its recipient accepts,
rejects or counters, its proposer withdraws), so a presenter draws them here instead of writing
its own.  The game supplies only what differs: how a side of a deal reads, what may be put on
each side, and its words (``<game>.panel.draft``, ``<game>.button.send``...)::

    whom (private)     one button per seat one may deal with now (``deal.<seat>``)
                       · Back (to the game's own panel) or Done
    draft (private)    the draft: whom it is for, each side phrased by the game
                       row 0   what one gives (a select)          row 1   what one asks for
                       row 2   Cash you give… · Cash you ask… (forms) · the game's own toggles
                       row 3   Send · Drop                        then Back / Done
    table (public)     one row per open offer, up to ``max_rows``:
                       Accept #n · Reject #n · Counter #n… · Withdraw #n
    offer.<n> (private)  the offer's terms; Accept / Reject / Counter for its recipient,
                       Withdraw for its proposer; Done

The table row is the same for everyone (the table is public; the engine refuses whoever may not
press a button), while an offer's own panel shows each seat only its part.  A game that draws only
what the engine allows now (Monopoly: no deals during an auction, Send only once a side holds
something) passes the seat's ``legal`` actions; without them every button is drawn and the engine
explains a refusal (the toy market).

Actions follow the host's offer pattern: ``deal.<seat>`` starts a draft, ``give`` / ``want`` (and
the game's own steps) edit it, ``send`` / ``drop`` end it, ``accept`` / ``reject`` / ``counter`` /
``withdraw.<n>`` answer offer ``n``.  The cash forms are ``Button(modal=...)``: ``pay`` (the
kit's :attr:`OfferKit.pay`) and ``ask``, each named after the recipient (``pay.<seat>``) when the
engine's cash action names it, so a form opened for an earlier draft cannot fill a later one.

A presenter implements :class:`Dealer` (every :class:`~bot.ui.presenter.Presenter` already has
the host's half), holds one kit as a constant and routes through it::

    OFFERS = OfferKit("toymarket", max_rows=4, sets=True, back_to="holdings", close_row=4)

    def offer_panel(self, game, seat, number):
        return OFFERS.offer_panel(self, game, seat, number)

    def panel_for(self, game, seat, action):
        return OFFERS.panel_for(self, game, seat, action)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from bot.storage import GameStatus
from bot.ui.presenter import Button, Choice, Control, ModalSpec, Panel, Select, Style
from rules.core import Action

if TYPE_CHECKING:
    from bot.services.sessions import Applied, LiveGame

SEND = Action("send")
DROP = Action("drop")
ANSWERS: tuple[tuple[str, Style], ...] = (
    ("accept", "success"),
    ("reject", "danger"),
    ("counter", "primary"),
    ("withdraw", "secondary"),
)
"""An offer's answers in the order they are drawn, with their colours."""
ANSWER_KINDS = frozenset(kind for kind, _ in ANSWERS)
FOR_RECIPIENT = frozenset({"accept", "reject", "counter"})
SIDE_ROWS = (("give", 0), ("want", 1))
CASH_ROW = 2
SEND_ROW = 3


class Dealer(Protocol):
    """What the kit asks of a presenter: the host's words, and the game's own for its deals.

    ``terms`` phrases a deal's two sides from its proposer's side (a draft or an offer, as the
    game's view writes it); ``deal_panel`` is where a seat composes (its draft, or where to start
    one) and ``offer_panel`` one open offer, usually :meth:`OfferKit.offer_panel`.
    """

    def t(self, key: str, language: str, /, **params: Any) -> str: ...

    def player(self, game: LiveGame, seat: int | None, /) -> str: ...

    def number(self, game: LiveGame, value: int, /) -> str: ...

    def public(self, game: LiveGame, /) -> dict[str, Any]: ...

    def terms(self, game: LiveGame, deal: Mapping[str, Any], /) -> str: ...

    def deal_panel(self, game: LiveGame, seat: int, /) -> Panel: ...

    def offer_panel(self, game: LiveGame, seat: int, number: int, /) -> Panel: ...


@dataclass(frozen=True, slots=True)
class Draft:
    """A seat's unsent offer as its game reads it; the kit draws the panel around it.

    The game knows what a side holds, so it phrases ``give`` and ``want`` and lists what may be
    put on or taken off each side now (a side with no choice draws no select).  ``extras`` are
    the game's own toggles (Monopoly's get-out cards), drawn after the cash forms.
    """

    to: int
    give: str
    want: str
    give_choices: Sequence[Choice] = ()
    want_choices: Sequence[Choice] = ()
    extras: Sequence[Control] = ()


@dataclass(frozen=True, slots=True)
class CashForm:
    """A draft's cash form the host opened: ``kind`` is the kit's ``pay`` or ``ask``; ``to`` the
    recipient when the form names it (else the game reads it from the seat's draft)."""

    kind: str
    to: int | None
    gives: bool


@dataclass(frozen=True, slots=True)
class OfferKit:
    """The panels, table rows and forms of one game's offers; stateless, so a module constant.

    ``game`` is the catalog prefix; ``max_rows`` how many open offers the table draws, one row
    each, so they never crowd out the game's own rows (later offers get a row as earlier ones close).  ``steps`` are the game's own draft edits besides
    ``give`` / ``want`` and the cash forms (after which the draft stays open).  ``pay`` / ``ask``
    are the engine's cash actions, ``names_recipient`` whether they carry the recipient before
    the amount.  ``sets``: a side's select picks the whole set at once (the engine's ``give``
    takes the set) rather than one item to toggle.  ``money`` is the catalog key that writes an
    amount (``{amount}``) in the forms' label, or ``None`` for the bare number.  ``back_to`` is the
    ``ui`` code of the game's panel a Back button returns to (``None``: no Back, only Done), and
    ``close_row`` the row of Back and Done (``None``: wherever there is room).
    """

    game: str
    max_rows: int
    steps: frozenset[str] = frozenset()
    pay: str = "pay"
    ask: str = "ask"
    names_recipient: bool = False
    sets: bool = False
    money: str | None = None
    back_to: str | None = None
    close_row: int | None = None

    def text(self, presenter: Dealer, game: LiveGame, name: str, **params: Any) -> str:
        """The game's ``<game>.<name>``: deals are worded by each game (a deal, an offer), so
        unlike the auction kit there is no host default to fall back on."""
        return presenter.t(f"{self.game}.{name}", game.row.language, **params)

    # -- routing ---------------------------------------------------------------------------------

    @property
    def drafting(self) -> frozenset[str]:
        """Kinds that start, edit or drop a draft: the deal panel stays open after each, so a deal
        is composed in one private message edited in place (after Drop it asks whom anew)."""
        return frozenset({"deal", "give", "want", self.pay, self.ask, DROP.kind}) | self.steps

    def next_panel(self, presenter: Dealer, game: LiveGame, seat: int, applied: Applied) -> Panel | None:
        """The deal panel after a drafting step or a counter (which opens a draft back); ``None``
        otherwise (Send closes it), for the game to route the rest.

        A game whose Drop leads elsewhere (back to its own panel) routes Drop before asking.
        """
        kind = applied.action.kind
        if game.status == GameStatus.ACTIVE and (kind in self.drafting or kind == "counter"):
            return presenter.deal_panel(game, seat)
        return None

    def panel_for(self, presenter: Dealer, game: LiveGame, seat: int, action: Action) -> Panel | None:
        """Where a stale drafting button's action lives (the deal panel) or an answer's (its
        offer's panel); ``None`` for actions that are not the kit's.

        A stale Counter goes to its offer, not the draft: the draft it would open is not there.
        """
        if action.kind in self.drafting or action == SEND:
            return presenter.deal_panel(game, seat)
        number = action.args[0] if action.args else None
        if action.kind in ANSWER_KINDS and isinstance(number, int):
            return presenter.offer_panel(game, seat, number)
        return None

    def on_ui(self, presenter: Dealer, game: LiveGame, seat: int, code: str) -> Panel | None:
        """``offer.<n>`` (Counter… on the table) and ``done`` (the kit's Done); ``None`` for other codes."""
        if code == "done":
            return Panel(self.text(presenter, game, "panel.closed"))
        kind, _, number = code.partition(".")
        if kind == "offer" and number.isascii() and number.isdigit():
            return presenter.offer_panel(game, seat, int(number))
        return None

    # -- buttons every panel ends with -----------------------------------------------------------

    def done(self, presenter: Dealer, game: LiveGame, row: int | None = None) -> Button:
        """Done closes a panel (the kit answers ``done``), so the game's other panels use it too."""
        where = self.close_row if row is None else row
        return Button(self.text(presenter, game, "button.done"), ui="done", row=where)

    def back(self, presenter: Dealer, game: LiveGame) -> Button:
        """Back to the game's own panel (:attr:`back_to`), or Done for a game without one."""
        if self.back_to is None:
            return self.done(presenter, game)
        return Button(self.text(presenter, game, "button.back"), ui=self.back_to, row=self.close_row)

    # -- whom, the draft, one offer --------------------------------------------------------------

    def whom_panel(
        self, presenter: Dealer, game: LiveGame, seat: int, legal: Collection[Action] | None = None
    ) -> Panel:
        """One button per seat ``seat`` may deal with: those the engine allows (``legal``), or
        every other seat; none allowed reads why (``panel.no_deals_now``)."""
        if legal is None:
            seats = [other for other in range(len(game.seats)) if other != seat]
        else:
            seats = [a.args[0] for a in legal if a.kind == "deal" and a.args and isinstance(a.args[0], int)]
        if not seats:
            return Panel(self.text(presenter, game, "panel.no_deals_now"), [self.done(presenter, game)])
        others: list[Control] = [
            Button(presenter.player(game, other), action=Action("deal", (other,)), style="primary", row=0)
            for other in seats
        ]
        return Panel(self.text(presenter, game, "panel.whom"), [*others, self.back(presenter, game)])

    def form_kind(self, kind: str, to: int) -> str:
        """The ``Button.modal`` of a cash form: the cash action without its amount."""
        return Action(kind, (to,) if self.names_recipient else ()).encode()

    def draft_panel(
        self, presenter: Dealer, game: LiveGame, draft: Draft, legal: Collection[Action] | None = None
    ) -> Panel:
        """The draft around the game's sides: selects, cash forms, the game's extras, Send, Drop.

        With ``legal``, Send is drawn only when the engine would take it, and a line says what is
        missing (``panel.not_ready``) instead.
        """
        to = draft.to
        name = presenter.player(game, to)
        text = self.text(presenter, game, "panel.draft", player=name, give=draft.give, want=draft.want)
        controls: list[Control] = []
        for (kind, row), choices in zip(SIDE_ROWS, (draft.give_choices, draft.want_choices), strict=True):
            if not choices:
                continue
            placeholder = self.text(presenter, game, f"select.{kind}", player=name)
            if self.sets:
                select = Select(
                    placeholder, choices, row=row, min_values=0, max_values=len(choices), combine=kind
                )
            else:
                select = Select(placeholder, choices, row=row)
            controls.append(select)
        controls += [
            Button(self.text(presenter, game, f"button.{kind}"), modal=self.form_kind(kind, to), row=CASH_ROW)
            for kind in (self.pay, self.ask)
        ]
        controls += draft.extras
        if legal is None or SEND in legal:
            send = self.text(presenter, game, "button.send")
            controls.append(Button(send, action=SEND, style="success", row=SEND_ROW))
        else:
            text += "\n" + self.text(presenter, game, "panel.not_ready")
        controls.append(
            Button(self.text(presenter, game, "button.drop"), action=DROP, style="danger", row=SEND_ROW)
        )
        if self.back_to is not None:
            controls.append(self.back(presenter, game))
        controls.append(self.done(presenter, game, SEND_ROW if self.close_row is None else self.close_row))
        return Panel(text, controls)

    def offer_panel(
        self,
        presenter: Dealer,
        game: LiveGame,
        seat: int,
        number: int,
        legal: Collection[Action] | None = None,
    ) -> Panel:
        """Offer ``number`` with the answers that are ``seat``'s: Accept, Reject and Counter for its
        recipient, Withdraw for its proposer, nothing for anyone else (and, with ``legal``, only
        what the engine allows now)."""
        offer = next((o for o in presenter.public(game)["offers"] if o["offer"] == number), None)
        if offer is None:
            return Panel(
                self.text(presenter, game, "panel.offer_closed", offer=number), [self.done(presenter, game)]
            )
        text = self.text(
            presenter,
            game,
            "panel.offer",
            offer=number,
            from_seat=presenter.player(game, offer["from_seat"]),
            to_seat=presenter.player(game, offer["to_seat"]),
            terms=presenter.terms(game, offer),
        )
        controls: list[Control] = []
        for kind, style in ANSWERS:
            action = Action(kind, (number,))
            mine = offer["to_seat"] == seat if kind in FOR_RECIPIENT else offer["from_seat"] == seat
            if mine and (legal is None or action in legal):
                label = "button.counter_now" if kind == "counter" else f"button.{kind}"
                controls.append(
                    Button(self.text(presenter, game, label, offer=number), action=action, style=style, row=0)
                )
        return Panel(text, [*controls, self.done(presenter, game)])

    # -- the table and the forms -----------------------------------------------------------------

    def row(self, presenter: Dealer, game: LiveGame, number: int, row: int) -> list[Control]:
        """Accept / Reject / Counter… / Withdraw for open offer ``number``, as everyone sees it.

        Counter… opens the offer's own panel (``offer.<n>``): countering closes the offer, so it
        is a step to confirm, not a button on the public table.
        """

        def label(key: str) -> str:
            return self.text(presenter, game, f"button.{key}", offer=number)

        return [
            Button(label("accept"), action=Action("accept", (number,)), style="success", row=row),
            Button(label("reject"), action=Action("reject", (number,)), style="danger", row=row),
            Button(label("counter"), ui=f"offer.{number}", row=row),
            Button(label("withdraw"), action=Action("withdraw", (number,)), row=row),
        ]

    def rows(
        self, presenter: Dealer, game: LiveGame, offers: Sequence[Mapping[str, Any]], first_row: int
    ) -> list[Control]:
        """One :meth:`row` per open offer (from the public view), oldest first, up to :attr:`max_rows`."""
        controls: list[Control] = []
        for index, offer in enumerate(offers[: self.max_rows]):
            controls += self.row(presenter, game, int(offer["offer"]), first_row + index)
        return controls

    def cash_form(self, kind: str) -> CashForm | None:
        """The cash form a ``modal`` kind names, or ``None`` if it is not one this kit drew."""
        try:
            lead = Action.decode(kind)
        except ValueError:
            return None
        if lead.kind not in (self.pay, self.ask):
            return None
        gives = lead.kind == self.pay
        if not self.names_recipient:
            return None if lead.args else CashForm(lead.kind, None, gives)
        to = lead.args[0] if len(lead.args) == 1 else None
        return CashForm(lead.kind, to, gives) if isinstance(to, int) else None

    def form(
        self,
        presenter: Dealer,
        game: LiveGame,
        form: CashForm,
        *,
        seat: int | None,
        to: int,
        cash: Sequence[int],
    ) -> ModalSpec | None:
        """The cash form: from 0 to what the payer holds (``seat`` gives, ``to`` is asked).

        Cash is public in both games that use the kit, so the bound tells nobody anything; when the
        host cannot say who clicked, the giver's bound is all the cash in the game and the engine
        refuses an amount beyond one's own.  ``None`` when ``to`` is not a seat.
        """
        if not 0 <= to < len(cash):
            return None
        payer = seat if form.gives else to
        maximum = cash[payer] if payer is not None and 0 <= payer < len(cash) else sum(cash)
        shown = presenter.number(game, maximum)
        if self.money is not None:
            shown = presenter.t(self.money, game.row.language, amount=shown)
        return ModalSpec(
            self.text(presenter, game, f"form.{form.kind}_title", player=presenter.player(game, to)),
            self.text(presenter, game, "form.label", min=presenter.number(game, 0), max=shown),
            0,
            maximum,
            placeholder="0",
        )

    # -- lines -----------------------------------------------------------------------------------

    def sent(self, presenter: Dealer, game: LiveGame, applied: Applied) -> str | None:
        """The sender's line when an action sent an offer: who must answer it now."""
        for event in applied.events:
            if event.kind == "offered":
                return self.text(
                    presenter,
                    game,
                    "confirm.sent",
                    offer=event.params["offer"],
                    to_seat=presenter.player(game, event.params["to_seat"]),
                )
        return None

    def summary(self, presenter: Dealer, game: LiveGame, draft: Mapping[str, Any], to: int) -> str:
        """The line "Catch me up" gives a draft in progress: only its seat may read it."""
        return self.text(
            presenter,
            game,
            "summary.draft",
            player=presenter.player(game, to),
            terms=presenter.terms(game, draft),
        )
