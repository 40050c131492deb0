"""Auctions on Discord: quick bids, a number form and Pass, drawn one way for every game.

The Estates auctions a piece once around the table with hidden money; Monopoly auctions an
unbought property among everyone.  Both need the same few controls, so a presenter builds them
here instead of writing its own::

    table (public)   Bid $m · Bid $m+1 · Bid $m+2 · Bid $m+5        row r
                     Other amount… (the form) · Pass                  row r+1
    panel (private)  the same, with each quick bid above the bidder's money greyed out
    table, money public  (Monopoly) only the quick bids the bidder can pay, the form only if
                     they can pay the minimum: no button there that can only be refused
    form (private)   one whole number, from the minimum bid to the bidder's money

``m`` is the minimum bid *now* (one above the high bid, or the opening bid), which everyone can
see.  The public controls are built from it alone, never from anyone's money: in The Estates
money is secret, and quick bids shortened to what the bidder can pay would tell the table how
much they hold.  A public quick bid beyond one's money is refused privately by the engine (with
the balance), as a typed one would be.  Only the private panel and the form, which one seat
sees, may depend on that seat's money (:meth:`AuctionKit.controls` with ``money``,
:meth:`AuctionKit.form`).

Actions.  A bid is ``Action(bid, (*args, amount))`` and a pass ``Action(pass_kind, args)``:
``args`` are leading arguments for a game whose bid names what is sold (none in The Estates,
where the state knows the piece).  The form is ``Button(modal=Action(bid, args).encode())``, so the
host appends the typed number and sends the very action a quick bid sends; the presenter's
``modal(game, kind, seat)`` answers that ``kind`` with :meth:`AuctionKit.form`, and the host
checks the bounds again when the form is submitted.

Text comes from the catalog's ``[host.auction]`` table: ``raise`` ({amount}), ``other``,
``pass``, ``title`` ({lot}), ``label`` ({min}, {max}) and ``placeholder`` ({min}).  A game
overrides any of them with ``<game>.auction.<name>`` (The Estates writes "$" and "million"), so
a new game gets working auctions with no text of its own.

A presenter holds one kit as a constant and calls it::

    BIDS = AuctionKit("estates")

    def controls(self, game):          # the public table
        return BIDS.controls(self, game, minimum)

    def modal(self, game, kind, seat):  # the form, bounded by the clicking bidder's money
        if not BIDS.is_form(kind):
            return None
        return BIDS.form(self, game, lot=piece, minimum=minimum, money=money, ceiling=ceiling)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.ui.presenter import Button, Control, ModalSpec
from rules.core import Action, Arg

if TYPE_CHECKING:
    from bot.services.sessions import LiveGame
    from bot.ui.presenter import Presenter

QUICK_RAISES = (0, 1, 2, 5)
"""The quick bids: the minimum bid plus these (a raise of one, a nudge, a jump)."""


@dataclass(frozen=True, slots=True)
class AuctionKit:
    """The controls and the form of one game's auctions; stateless, so a module constant.

    ``game`` is the catalog prefix for the game's own wording; ``bid`` and ``pass_kind`` are the
    engine's action kinds; ``raises`` are added to the minimum bid for the quick bids.
    """

    game: str
    bid: str = "bid"
    pass_kind: str = "pass"
    raises: Sequence[int] = QUICK_RAISES

    def text(self, presenter: Presenter, game: LiveGame, name: str, **params: Any) -> str:
        """The game's ``<game>.auction.<name>`` when it has one, else the host's ``host.auction.<name>``."""
        lang = game.row.language
        key = f"{self.game}.auction.{name}"
        if not presenter.catalog.has(key, lang):
            key = f"host.auction.{name}"
        return presenter.t(key, lang, **params)

    def amounts(self, minimum: int) -> list[int]:
        """The quick bids for a minimum bid, lowest first (public: they follow the minimum only)."""
        return sorted({minimum + extra for extra in self.raises})

    def bid_action(self, amount: int, args: tuple[Arg, ...] = ()) -> Action:
        return Action(self.bid, (*args, amount))

    def pass_action(self, args: tuple[Arg, ...] = ()) -> Action:
        return Action(self.pass_kind, args)

    def form_kind(self, args: tuple[Arg, ...] = ()) -> str:
        """The ``Button.modal`` of the form: the bid action without its amount."""
        return Action(self.bid, args).encode()

    def form_args(self, kind: str) -> tuple[Arg, ...] | None:
        """The leading arguments of a form ``kind`` this kit drew, or ``None`` if it is not one.

        For a game whose forms differ by what is sold (``bid.12``); a game with one form asks
        :meth:`is_form`.
        """
        try:
            lead = Action.decode(kind)
        except ValueError:
            return None
        return lead.args if lead.kind == self.bid else None

    def is_form(self, kind: str, args: tuple[Arg, ...] = ()) -> bool:
        return kind == self.form_kind(args)

    def controls(
        self,
        presenter: Presenter,
        game: LiveGame,
        minimum: int,
        *,
        money: int | None = None,
        args: tuple[Arg, ...] = (),
        row: int = 0,
        hide_dear: bool = False,
    ) -> list[Control]:
        """Quick bids on ``row``, then the form and Pass on the next row.

        Without ``money`` (the public table of a game with secret money) every quick bid is
        offered to everyone alike; with it (a private panel, for the seat whose money it is) the
        bids above it are greyed out, or with ``hide_dear`` (a table where the bidder's money is
        public) left out, and the form too when the bidder cannot pay even the minimum bid.
        """
        dear = [money is not None and amount > money for amount in self.amounts(minimum)]
        controls: list[Control] = [
            Button(
                self.text(presenter, game, "raise", amount=presenter.number(game, amount)),
                action=self.bid_action(amount, args),
                style="success",
                disabled=too_dear,
                row=row,
            )
            for amount, too_dear in zip(self.amounts(minimum), dear, strict=True)
            if not (hide_dear and too_dear)
        ]
        if not (hide_dear and money is not None and money < minimum):
            controls.append(
                Button(self.text(presenter, game, "other"), modal=self.form_kind(args), row=row + 1)
            )
        controls.append(
            Button(self.text(presenter, game, "pass"), action=self.pass_action(args), row=row + 1)
        )
        return controls

    def form(
        self,
        presenter: Presenter,
        game: LiveGame,
        *,
        lot: str,
        minimum: int,
        money: int | None,
        ceiling: int,
    ) -> ModalSpec:
        """The bid form for ``lot`` (what is sold, phrased): from the minimum bid to ``money``.

        ``money`` is the clicking bidder's own money (the form is private), or ``None`` when the
        host cannot say who clicked or the clicker is not bidding now: then the upper bound is
        ``ceiling``, a bound that tells nobody anything (all the money in the game), and the
        engine refuses a bid beyond one's money privately.  A bidder who cannot reach the minimum
        gets the minimum as both bounds, so what they read is the engine's refusal (with their
        balance), never an upside-down range.
        """
        maximum = max(minimum, ceiling if money is None else money)
        return ModalSpec(
            title=self.text(presenter, game, "title", lot=lot),
            label=self.text(
                presenter,
                game,
                "label",
                min=presenter.number(game, minimum),
                max=presenter.number(game, maximum),
            ),
            minimum=minimum,
            maximum=maximum,
            placeholder=self.text(presenter, game, "placeholder", min=minimum),
        )
