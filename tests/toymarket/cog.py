"""Toy Market on Discord: the host's panel, multi-select, form and ping features in one small game.

What may be public: lots, cash, open offers, whose roll it is and who is still to choose a
discard.  Hands, pending discards and drafts are private, so the table (status, log lines,
buttons) is built from ``view(state, None)`` and public events only; panels and forms of one seat
read ``view(state, seat)``.

The table message::

    row 0   Roll (play phase) | Choose my discard… (discard phase) · My holdings…
    row n   one row per open offer: Accept #n · Reject #n · Counter #n… · Withdraw #n

Private panels (``Button(ui=...)``), each with Back and/or Done:

    holdings   cash, lots, cards; Improve <lot> (its price), Make an offer…, Continue my offer…
    offer      whom the offer is for: one button per other seat (``deal.<seat>``)
    draft      the draft; a multi-select of one's own lots (``give``), one of the recipient's
               (``want``), the forms "Cash you give…" (``pay.<seat>``) and "Cash you ask…"
               (``ask.<seat>``), bounded 0 to what the payer holds; Send offer, Drop draft
    offer.<n>  one offer: Accept / Reject / Counter for its recipient, Withdraw for its proposer
    discard    one button per card in one's hand; the choice stays hidden until all have chosen

Every drafting step keeps its panel open on the next step (:meth:`MarketPresenter.next_panel`),
so a deal is composed in one private message that is edited in place.  The offer panels, the
table's offer rows and the cash forms are the host's offers kit (``bot.ui.offers``,
:data:`OFFERS`), as in Monopoly; this cog says how a side reads and which lots may go on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Self

from bot.services.sessions import Applied, LiveGame
from bot.ui.offers import Draft, OfferKit
from bot.ui.presenter import Button, Choice, Control, ModalSpec, Panel, Presenter, PresenterHost
from rules.core import Action, Event
from tests.toymarket.rules import MAX_LEVEL, lot_name

if TYPE_CHECKING:
    import discord

View = dict[str, Any]

ROLL = Action("roll")

OFFERS = OfferKit("toymarket", max_rows=4, names_recipient=True, sets=True, back_to="holdings", close_row=4)
"""Four offer rows (Discord allows five and row 0 is the game's); cash forms name the recipient
(``pay.<seat>``); a side is picked as a set; Back returns to the holdings, on the panels' last row."""
HOLDINGS_STEPS = frozenset({"improve", "drop"})
"""Actions after which the holdings panel stays open (improve three lots in a row)."""

TEXT = {
    "toymarket.option.rounds": "rounds before the market closes",
    "toymarket.rules": (
        "Each round every player rolls: the die names a lot, you take 2 cash and its owner collects its rent. "
        "At any time you may improve your lots and make offers (lots and cash on each side) to another player, "
        "who accepts, rejects or counters. An offer lapses when a lot in it changes. After each round everyone "
        "discards one card in secret; the discards are revealed together and pay their value. "
        "Score: cash + lots + cards kept."
    ),
    "toymarket.and": " and ",
    "toymarket.nothing": "nothing",
    "toymarket.cash": "{amount} cash",
    "toymarket.terms": "{give} for {want}",
    "toymarket.status.play": "Round {round} of {rounds}: {player} to roll. Waiting for {players}.",
    "toymarket.status.discard": "Round {round} of {rounds}: secret discards. Waiting for {players}.",
    "toymarket.event.rolled": "{player} rolls {die} ({lot}): +{income} cash; {owner} collects {rent} rent.",
    "toymarket.event.improved": "{player} improves {lot} to level {level} for {cost} cash.",
    "toymarket.event.offered": "{player} makes offer #{offer} to {to_seat}: {terms}.",
    "toymarket.event.accepted": "{player} accepts offer #{offer} from {from_seat}: {terms}.",
    "toymarket.event.rejected": "{player} rejects offer #{offer} from {from_seat}.",
    "toymarket.event.countered": "{player} turns down offer #{offer} from {from_seat} to make a counter-offer.",
    "toymarket.event.withdrawn": "{player} withdraws offer #{offer} to {to_seat}.",
    "toymarket.event.lapsed": "Offer #{offer} from {from_seat} to {to_seat} lapses: {why}.",
    "toymarket.reason.lot_changed": "{lot} changed",
    "toymarket.reason.cash_short": "{payer_seat} can no longer pay the cash in it",
    "toymarket.reason.game_over": "the market closed",
    "toymarket.event.discard_phase": "Round {round} is over: everyone discards one card in secret.",
    "toymarket.event.discards_revealed": "Discards revealed, each paid in cash: {values}.",
    "toymarket.event.round_started": "Round {round} of {rounds} begins; {first_seat} rolls first.",
    "toymarket.event.game_ended": "The market closes.",
    "toymarket.private.draft_started": "You start an offer to {to_seat}.",
    "toymarket.private.draft_changed": "Your offer to {to_seat} now reads: {terms}.",
    "toymarket.private.draft_dropped": "You drop your offer.",
    "toymarket.private.discard_chosen": "You discard a {value}; it is revealed when everyone has chosen.",
    "toymarket.confirm.sent": "Offer #{offer} is on the table; {to_seat} is asked to answer.",
    "toymarket.button.roll": "Roll",
    "toymarket.button.discard": "Choose my discard…",
    "toymarket.button.holdings": "My holdings…",
    "toymarket.button.accept": "Accept #{offer}",
    "toymarket.button.reject": "Reject #{offer}",
    "toymarket.button.counter": "Counter #{offer}…",
    "toymarket.button.counter_now": "Counter",
    "toymarket.button.withdraw": "Withdraw #{offer}",
    "toymarket.button.improve": "Improve {lot} ({cost})",
    "toymarket.button.make_offer": "Make an offer…",
    "toymarket.button.continue": "Continue my offer…",
    "toymarket.button.pay": "Cash you give…",
    "toymarket.button.ask": "Cash you ask…",
    "toymarket.button.send": "Send offer",
    "toymarket.button.drop": "Drop offer",
    "toymarket.button.back": "Back",
    "toymarket.button.done": "Done",
    "toymarket.button.discard_card": "Discard {value}",
    "toymarket.select.give": "Lots you give",
    "toymarket.select.want": "Lots you want from {player}",
    "toymarket.form.pay_title": "Cash you give {player}",
    "toymarket.form.ask_title": "Cash you ask from {player}",
    "toymarket.form.label": "Cash ({min} to {max})",
    "toymarket.panel.holdings": "**Your holdings:** {cash} cash.\n{lots}\nYour cards: {cards}.",
    "toymarket.panel.lot": "{lot}: level {level}, rent {rent}",
    "toymarket.panel.no_lots": "You own no lots.",
    "toymarket.panel.whom": "Whom is your offer for?",
    "toymarket.panel.draft": (
        "**Your offer to {player}** (only you see it until you send it)\nYou give: {give}\nYou ask for: {want}"
    ),
    "toymarket.panel.no_draft": "You have no offer in progress.",
    "toymarket.panel.offer": "**Offer #{offer}** from {from_seat} to {to_seat}: {terms}.",
    "toymarket.panel.offer_closed": "Offer #{offer} is no longer open.",
    "toymarket.panel.discard": (
        "Choose one card to discard. Nobody sees your choice until everyone has chosen; "
        "each discard pays its value in cash."
    ),
    "toymarket.panel.discard_chosen": "You chose to discard a {value}; it is revealed when everyone has chosen.",
    "toymarket.panel.no_discard": "There is no discard to choose now.",
    "toymarket.panel.closed": "Closed. Anything you were composing is kept: My holdings → Continue my offer.",
    "toymarket.summary.cards": "Your cards: {cards}.",
    "toymarket.summary.draft": "Your offer in progress to {player}: {terms}.",
    "toymarket.score.cash": "cash {value}",
    "toymarket.score.lots": "lots {value}",
    "toymarket.score.cards": "cards {value}",
    # Refusals: the engine raises IllegalAction("<key>", **params); the host words it from here.
    "toymarket.illegal.no_seat": "There is no such seat at this table.",
    "toymarket.illegal.unknown_action": "There is no such move in this game.",
    "toymarket.illegal.takes_no_arguments": "That move takes no arguments.",
    "toymarket.illegal.market_closed": "The market has closed; the game is over.",
    "toymarket.illegal.not_your_roll": "It is not your turn to roll.",
    "toymarket.illegal.roll_in_discard": (
        "Everyone is choosing a discard now; the next roll comes with the next round."
    ),
    "toymarket.illegal.which_card": "Say which card to discard.",
    "toymarket.illegal.discard_not_now": "Discards are chosen at the end of a round, not now.",
    "toymarket.illegal.discard_chosen_already": "You already chose your discard this round.",
    "toymarket.illegal.card_not_in_hand": "That card is not in your hand.",
    "toymarket.illegal.which_lot": "Say which lot.",
    "toymarket.illegal.no_such_lot": "There is no such lot.",
    "toymarket.illegal.lot_twice": "You named {lot} twice.",
    "toymarket.illegal.not_your_lot": "You do not own {lot}.",
    "toymarket.illegal.fully_improved": "{lot} is already fully improved.",
    "toymarket.illegal.improve_too_dear": "Improving {lot} costs {cost} cash; you have {cash}.",
    "toymarket.illegal.which_recipient": "Say whom the offer is for.",
    "toymarket.illegal.offer_to_self": "You cannot make an offer to yourself.",
    "toymarket.illegal.no_such_recipient": "There is no such player to make an offer to.",
    "toymarket.illegal.no_draft": "Start an offer first: choose whom it is for.",
    "toymarket.illegal.nothing_to_drop": "You have no offer in progress.",
    "toymarket.illegal.not_their_lot": "{to_seat} does not own {lot}.",
    "toymarket.illegal.which_cash": "Say whom the offer is for and how much cash.",
    "toymarket.illegal.draft_moved": "Your offer is now for {to_seat}; open it again to change its cash.",
    "toymarket.illegal.negative_cash": "Cash in an offer cannot be negative.",
    "toymarket.illegal.pay_too_much": "You have only {cash} cash to give, not {amount}.",
    "toymarket.illegal.ask_too_much": "{to_seat} has only {cash} cash, so you cannot ask for {amount}.",
    "toymarket.illegal.empty_offer": "Your offer is empty: put lots or cash on at least one side.",
    "toymarket.illegal.offer_still_open": (
        "Your offer #{offer} is still open; withdraw it before sending another."
    ),
    "toymarket.illegal.no_longer_yours": "You no longer own {lot}; change your offer.",
    "toymarket.illegal.no_longer_theirs": "{to_seat} no longer owns {lot}; change your offer.",
    "toymarket.illegal.which_offer": "Say which offer.",
    "toymarket.illegal.no_such_offer": "There is no offer #{offer}.",
    "toymarket.illegal.not_proposer": "Only the player who made offer #{offer} can withdraw it.",
    "toymarket.illegal.not_recipient": "Offer #{offer} is not addressed to you.",
    "toymarket.illegal.closed_accepted": "Offer #{offer} was accepted, so it can no longer be {answer}.",
    "toymarket.illegal.closed_rejected": "Offer #{offer} was rejected, so it can no longer be {answer}.",
    "toymarket.illegal.closed_countered": "Offer #{offer} was countered, so it can no longer be {answer}.",
    "toymarket.illegal.closed_withdrawn": "Offer #{offer} was withdrawn, so it can no longer be {answer}.",
    "toymarket.illegal.closed_lot_changed": (
        "Offer #{offer} lapsed when {lot} changed, so it can no longer be {answer}."
    ),
    "toymarket.illegal.closed_cash_short": (
        "Offer #{offer} lapsed because its cash could no longer be paid, so it can no longer be {answer}."
    ),
    "toymarket.illegal.closed_game_over": (
        "Offer #{offer} lapsed when the market closed, so it can no longer be {answer}."
    ),
    "toymarket.answer.accept": "accepted",
    "toymarket.answer.reject": "rejected",
    "toymarket.answer.counter": "countered",
    "toymarket.answer.withdraw": "withdrawn",
}
"""The game's own catalog: a test-only game ships its text here, not in ``bot/locales`` (a real
game writes the same keys in ``en.toml`` and ``fr.toml``)."""


class MarketPresenter(Presenter):
    game = "toymarket"

    @classmethod
    def for_host(cls, host: PresenterHost, /) -> Self:
        """A test game ships its text with it (:data:`TEXT`), added to the bot's catalog here."""
        host.catalog.extend("en", TEXT)
        return cls(host.catalog)

    # -- words -----------------------------------------------------------------------------------

    def side(self, game: LiveGame, lots: Sequence[Any], cash: int) -> str:
        """One side of a deal: "Acorn, Birch, 3 cash", or "nothing"."""
        lang = game.row.language
        parts = [lot_name(str(lot)) for lot in lots]
        if cash:
            parts.append(self.t("toymarket.cash", lang, amount=self.number(game, cash)))
        return ", ".join(parts) or self.t("toymarket.nothing", lang)

    def terms(self, game: LiveGame, deal: Mapping[str, Any]) -> str:
        """A deal's two sides from the proposer's side: "Acorn, 2 cash for Birch"."""
        return self.t(
            "toymarket.terms",
            game.row.language,
            give=self.side(game, deal["give"], int(deal["pay"])),
            want=self.side(game, deal["want"], int(deal["ask"])),
        )

    def event_param(self, game: LiveGame, key: str, value: Any) -> Any:
        """Lots by name, the revealed discards as "Ana 3, Bob 5" (one value per seat), and a
        refusal's ``answer`` (the action tried on a closed offer) as its past participle."""
        if key == "lot" and isinstance(value, str):
            return lot_name(value)
        if key == "answer" and isinstance(value, str):
            return self.t(f"toymarket.answer.{value}", game.row.language)
        if key == "values" and isinstance(value, list):
            return ", ".join(f"{self.player(game, seat)} {v}" for seat, v in enumerate(value))
        return super().event_param(game, key, value)

    def event_params(self, game: LiveGame, event: Event) -> dict[str, Any]:
        params = super().event_params(game, event)
        if {"give", "want", "pay", "ask"} <= set(event.params):
            params["terms"] = self.terms(game, event.params)
        return params

    # -- the table -------------------------------------------------------------------------------

    def status(self, game: LiveGame, view: dict[str, Any]) -> str:
        """Round, whose roll it is (or that discards are being chosen) and who is waited for.

        In the discard phase it names only who is still to choose, never what anyone chose.
        """
        key = "toymarket.status.discard" if view["phase"] == "discard" else "toymarket.status.play"
        return self.t(
            key,
            game.row.language,
            round=view["round"],
            rounds=view["rounds"],
            player=self.player(game, view["turn"]),
            players=self.names(game, sorted(game.waiting())),
        )

    def controls(self, game: LiveGame) -> list[Control]:
        """Built from the public view only (hands and drafts must not shape a public button)."""
        lang = game.row.language
        view = self.public(game)
        controls: list[Control] = []
        if view["phase"] == "play":
            controls.append(
                Button(self.t("toymarket.button.roll", lang), action=ROLL, style="primary", row=0)
            )
        elif view["phase"] == "discard":
            controls.append(
                Button(self.t("toymarket.button.discard", lang), ui="discard", style="primary", row=0)
            )
        controls.append(Button(self.t("toymarket.button.holdings", lang), ui="holdings", row=0))
        return controls + OFFERS.rows(self, game, view["offers"], 1)

    def modal(self, game: LiveGame, kind: str, seat: int | None = None) -> ModalSpec | None:
        """``pay.<seat>`` / ``ask.<seat>``: cash in a draft, from 0 to what the payer holds.

        Cash is public in this game, so the bounds tell nobody anything; a form opened for a
        draft since sent elsewhere is still drawn, and the engine explains the change.
        """
        form = OFFERS.cash_form(kind)
        if form is None or form.to is None:
            return None
        return OFFERS.form(self, game, form, seat=seat, to=form.to, cash=self.public(game)["cash"])

    # -- private panels --------------------------------------------------------------------------

    async def on_ui(self, interaction: discord.Interaction, game: LiveGame, seat: int, code: str) -> Panel:
        if code == "holdings":
            return self.holdings_panel(game, seat)
        if code == "offer":
            return OFFERS.whom_panel(self, game, seat)
        if code == "draft":
            return self.deal_panel(game, seat)
        if code == "discard":
            return self.discard_panel(game, seat)
        return OFFERS.on_ui(self, game, seat, code) or await super().on_ui(interaction, game, seat, code)

    def holdings_panel(self, game: LiveGame, seat: int) -> Panel:
        lang = game.row.language
        view = self.view_of(game, seat)
        you = view["you"]
        cash = int(view["cash"][seat])
        mine = [lot for lot in view["lots"] if lot["owner"] == seat]
        lots = "\n".join(
            self.t(
                "toymarket.panel.lot", lang, lot=lot_name(lot["lot"]), level=lot["level"], rent=lot["rent"]
            )
            for lot in mine
        ) or self.t("toymarket.panel.no_lots", lang)
        cards = ", ".join(str(card["value"]) for card in you["hand"]) or self.t("toymarket.nothing", lang)
        text = self.t("toymarket.panel.holdings", lang, cash=cash, lots=lots, cards=cards)
        controls: list[Control] = []
        if view["phase"] != "over":
            for lot in mine:
                if lot["level"] < MAX_LEVEL:
                    controls.append(
                        Button(
                            self.t(
                                "toymarket.button.improve",
                                lang,
                                lot=lot_name(lot["lot"]),
                                cost=lot["improve_cost"],
                            ),
                            action=Action("improve", (lot["lot"],)),
                            disabled=cash < int(lot["improve_cost"]),
                            row=0,
                        )
                    )
            controls.append(Button(self.t("toymarket.button.make_offer", lang), ui="offer", row=3))
            if you["draft"] is not None:
                controls.append(Button(self.t("toymarket.button.continue", lang), ui="draft", row=3))
        controls.append(OFFERS.done(self, game))
        return Panel(text, controls)

    def deal_panel(self, game: LiveGame, seat: int) -> Panel:
        """The draft, each side a multi-select of its owner's lots; without one, a way to start one."""
        lang = game.row.language
        view = self.view_of(game, seat)
        draft = view["you"]["draft"]
        if draft is None:
            return Panel(
                self.t("toymarket.panel.no_draft", lang),
                [Button(self.t("toymarket.button.make_offer", lang), ui="offer"), OFFERS.back(self, game)],
            )
        to = int(draft["to"])

        def lots(owner: int, kind: str) -> list[Choice]:
            return [
                Choice(lot_name(lot["lot"]), Action(kind, (lot["lot"],)))
                for lot in view["lots"]
                if lot["owner"] == owner
            ]

        sides = Draft(
            to,
            give=self.side(game, draft["give"], int(draft["pay"])),
            want=self.side(game, draft["want"], int(draft["ask"])),
            give_choices=lots(seat, "give"),
            want_choices=lots(to, "want"),
        )
        return OFFERS.draft_panel(self, game, sides)

    def offer_panel(self, game: LiveGame, seat: int, number: int) -> Panel:
        return OFFERS.offer_panel(self, game, seat, number)

    def discard_panel(self, game: LiveGame, seat: int) -> Panel:
        lang = game.row.language
        view = self.view_of(game, seat)
        you = view["you"]
        if you["chosen"] is not None:
            return Panel(self.t("toymarket.panel.discard_chosen", lang, value=you["chosen"]["value"]))
        if view["phase"] != "discard":
            return Panel(self.t("toymarket.panel.no_discard", lang))
        cards: list[Control] = [
            Button(
                self.t("toymarket.button.discard_card", lang, value=card["value"]),
                action=Action("discard", (card["card"],)),
                style="primary",
                row=0,
            )
            for card in you["hand"]
        ]
        return Panel(self.t("toymarket.panel.discard", lang), [*cards, OFFERS.done(self, game)])

    def next_panel(self, game: LiveGame, seat: int, applied: Applied) -> Panel | None:
        """Drafting steps stay on the draft, improving and dropping on the holdings; the rest close."""
        if game.status == "active" and applied.action.kind in HOLDINGS_STEPS:
            return self.holdings_panel(game, seat)
        return OFFERS.next_panel(self, game, seat, applied)

    def panel_for(self, game: LiveGame, seat: int, action: Action) -> Panel | None:
        """Where an action lives, drawn afresh when its button went stale (a lot changed hands or
        price): improving on the holdings, drafting on the draft, answers on their offer's panel,
        a discard on the discard panel.  A roll lives on the table."""
        kind = action.kind
        if kind == "improve":
            return self.holdings_panel(game, seat)
        if kind == "discard":
            return self.discard_panel(game, seat)
        return OFFERS.panel_for(self, game, seat, action)

    def confirmation(self, game: LiveGame, applied: Applied) -> str | None:
        """Sending is the one step whose result the sender should read at once: who must answer."""
        return OFFERS.sent(self, game, applied)

    def private_summary(self, game: LiveGame, seat: int) -> list[str]:
        """Catch me up: one's cards and the draft in progress, from ``view(state, seat)``."""
        if not 0 <= seat < len(game.seats):
            return []
        lang = game.row.language
        you = self.view_of(game, seat)["you"]
        cards = ", ".join(str(card["value"]) for card in you["hand"]) or self.t("toymarket.nothing", lang)
        lines = [self.t("toymarket.summary.cards", lang, cards=cards)]
        draft = you["draft"]
        if draft is not None:
            lines.append(OFFERS.summary(self, game, draft, int(draft["to"])))
        return lines
