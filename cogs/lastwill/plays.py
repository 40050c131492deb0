"""The Actions turn on the table: which kinds of plays from the hand it offers, and their panels.

The table names the kinds of plays the seat on turn may make ("Play a card…", "Buy a
property…", "Lay a helper…", "Put a companion on a card…"); each opens a private panel of just
those plays, every one a click away (a Ball's levels and the nuptial sets included).

A hand is secret, so whether the table shows such a button must not depend on it: a button is
shown when *some hand of the seat's size* could make that kind of play now, which only public facts
decide (actions left, money, free board spaces, the tokens on one's board, the market).
:meth:`Plays.open_plays` asks the engine itself: it gives a copy of the game every card a hand
could hold (every card in a hand or a deck, whatever order they lie in) and keeps the kinds it
lists.  So a button's panel can still be empty, but only for a reason the table could not know
(which cards the player holds); the panel then says so above the whole hand and its other plays.

The buttons of an open choice's answers (:meth:`Plays.answer_button`) live here too: the answer
panel and the table (for a choice that names nothing hidden) word them the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core.i18n import clip
from bot.services.sessions import LiveGame
from bot.storage import GameStatus
from bot.ui.presenter import Button, Choice, Control, Panel, Select, Style
from cogs.lastwill.hand import Hand, distinct
from cogs.lastwill.words import View, player_of
from rules.core import Action
from rules.lastwill import (
    LastWillState,
    data,
    dropped_step,
    free_sale_price,
    icon_amount,
    play_cost,
    token_amount,
)
from rules.lastwill.data import CompanionCard, EventCard, HelperCard, PropertyCard

PLAY_KINDS: dict[str, frozenset[str]] = {
    "white": frozenset({"event", "special", "ball", "nupt"}),
    "buy": frozenset({"buy"}),
    "lay": frozenset({"lay"}),
    "token": frozenset({"token"}),
}
"""The table's buttons for plays from the hand, in their order: ``ui="plays.<name>"`` opens the
panel of the engine's action kinds listed here."""
PLAY_CARDS: dict[str, type] = {
    "white": EventCard,
    "buy": PropertyCard,
    "lay": HelperCard,
    "token": CompanionCard,
}
"""Which cards of the hand each panel describes."""


def could_hold(state: LastWillState) -> list[str]:
    """Every card a hand could hold, as the table knows it: the cards in any hand or any deck,
    sorted (so neither who holds which nor the decks' order shows)."""
    found = {card for player in state.players for card in player.hand}
    found.update(card for cards in state.decks.values() for card in cards)
    return sorted(found)


class Plays(Hand):
    """The table's play buttons and the panels they open (see the module docstring)."""

    def open_plays(self, game: LiveGame, view: View, seat: int) -> list[str]:
        """The names in :data:`PLAY_KINDS` that some hand of the seat's size could play now."""
        size = int(player_of(view, seat)["hand"])
        if not size or game.status != GameStatus.ACTIVE:
            return []
        rules = game.entry.rules
        maybe: LastWillState = rules.load(rules.dump(game.state))
        maybe.players[seat].hand = could_hold(game.state)
        kinds = {a.kind for a in rules.legal_actions(maybe, seat) if a.kind != "nupt" or len(a.args) <= size}
        return [name for name, found in PLAY_KINDS.items() if kinds & found]

    def plays_panel(self, game: LiveGame, seat: int, name: str) -> Panel:
        """One kind of play: the hand's cards of that kind with what each would do, and a button
        (or a select) per play; Back to the whole hand."""
        lang = self.lang(game)
        view = self.view_of(game, seat)
        pending = view["pending"]
        if name not in PLAY_KINDS or view["phase"] != "actions" or (pending and pending["seat"] == seat):
            return self.hand_panel(game, seat)  # a button from an older table: the hand, as it is now
        if not self.on_turn(view, seat):
            turn = view["turn"] if pending is None else pending["seat"]
            text = self.t("lastwill.panel.not_your_turn", lang, player=self.player(game, turn))
            return Panel(text, [self.back(game), self.done(game)])
        legal = [a for a in self.seat_moves(game, seat) if a.kind in PLAY_KINDS[name]]
        controls = self.kind_controls(game, view, seat, name, legal)
        hand: list[str] = view["you"]["hand"]
        cards = [c for c in dict.fromkeys(hand) if isinstance(data.CARDS.get(c), PLAY_CARDS[name])]
        if not controls:
            # Nothing of this kind, for a reason only the hand knows: say so above the whole hand,
            # with whatever else it can play.
            whole = self.hand_panel(game, seat)
            why = self.t(f"lastwill.panel.plays_{'none' if cards else 'no'}.{name}", lang)
            return Panel(clip(f"{why}\n{whole.text}"), whole.controls)
        lines = [
            self.t(f"lastwill.panel.plays.{name}", lang),
            self.t("lastwill.panel.hand_turn", lang, left=self.budget(game, view["budget"] or {})),
        ]
        lines += self.card_lines(game, view, seat, cards)
        return Panel(clip("\n".join(lines)), [*controls, self.back(game), self.done(game)])

    def kind_controls(
        self, game: LiveGame, view: View, seat: int, name: str, legal: Sequence[Action]
    ) -> list[Control]:
        """The plays of one kind, each a click: events, Ball levels and nuptial sets; purchases;
        helpers; every companion on every card it fits."""
        if name == "white":
            plain = [a for a in legal if a.kind in ("event", "special")]
            controls = self.play_controls(game, view, seat, plain)
            controls += self.ball_buttons(game, seat, [a for a in legal if a.kind == "ball"], named=True)
            sets = [a for a in legal if a.kind == "nupt"]
            if sets:
                controls.append(self.nuptial_select(game, seat, sets))
            return controls
        if name == "token":
            return self.token_buttons(game, seat, legal)
        return self.play_controls(game, view, seat, legal)

    def ball_buttons(
        self, game: LiveGame, seat: int, balls: Sequence[Action], *, named: bool
    ) -> list[Control]:
        """A button per Ball level one can play now; ``named``: the label names the card too."""
        lang = self.lang(game)
        found: list[tuple[str, Control]] = []
        for action in balls:
            card, level = str(action.args[0]), int(action.args[1])
            record = data.CARDS.get(card)
            if not isinstance(record, EventCard) or not 1 <= level <= len(record.ball):
                continue
            entry = record.ball[level - 1]
            label = self.t(
                "lastwill.button.ball_at" if named else "lastwill.button.ball_level",
                lang,
                card=self.card_name(game, card),
                level=level,
                actions=self.actions(game, entry.actions),
                money=self.money(game, play_cost(game.state, seat, [card], entry.money)),
            )
            found.append((card, Button(label, action=action, style="primary", row=1)))
        return distinct(found)

    def nuptial_select(self, game: LiveGame, seat: int, sets: Sequence[Action]) -> Select:
        """One choice per nuptial set the seat can play now: its cards, one action, what it spends."""
        lang = self.lang(game)
        choices = []
        for action in sets:
            cards = [str(c) for c in action.args]
            money = sum(r.money for c in cards if isinstance(r := data.CARDS.get(c), EventCard))
            choices.append(
                Choice(
                    clip(
                        self.t(
                            "lastwill.choice.nuptial",
                            lang,
                            cards=" + ".join(self.card_id(game, c) for c in cards),
                            actions=self.actions(game, data.NUPTIAL_SET_ACTIONS),
                            money=self.money(game, play_cost(game.state, seat, cards, money)),
                        ),
                        100,
                    ),
                    action,
                )
            )
        return Select(self.t("lastwill.select.nuptial", lang), choices, row=2)

    def token_buttons(self, game: LiveGame, seat: int, tokens: Sequence[Action]) -> list[Control]:
        """A button per companion card and board card it fits (a wild card: per kind it stands for)."""
        lang = self.lang(game)
        found: list[tuple[str, Control]] = []
        for action in tokens:
            target, card = str(action.args[0]), str(action.args[1])
            params = {
                "card": self.card_name(game, card),
                "target": self.card(game, target),
                "money": self.money(game, token_amount(game.state, seat, target)),
            }
            key = "lastwill.button.token_card"
            if len(action.args) > 2:
                key = "lastwill.button.token_wild"
                params["companion"] = self.word(game, "companion", action.args[2])
            found.append((card, Button(self.t(key, lang, **params), action=action, row=3)))
        return distinct(found)

    def answer_button(self, game: LiveGame, view: View, seat: int, pending: View, action: Action) -> Button:
        """One answer with what it brings: a companion's pounds, a line's income, a sale's price."""
        lang = self.lang(game)
        kind, args = action.kind, action.args
        player = player_of(view, seat)
        style: Style = "primary"
        params: dict[str, Any] = {}
        key = f"lastwill.button.{kind}"
        if kind == "with":
            card = str(args[0])
            record = data.CARDS[card]
            companion = (
                str(args[1])
                if len(args) > 1
                else (
                    record.companion.value if isinstance(record, CompanionCard) and record.companion else ""
                )
            )
            params = {
                "card": self.card_id(game, card),
                "companion": self.word(game, "companion", companion),
                "money": self.money(game, icon_amount(game.state, seat, companion)),
            }
            key = "lastwill.button.with_wild" if len(args) > 1 else key
        elif kind == "go":
            key = f"lastwill.button.go.{pending['kind']}"
            params = {
                "money": self.money(
                    game, play_cost(game.state, seat, pending["cards"], int(pending["money"]))
                )
            }
            style = "success"
        elif kind == "extra":
            params = {"money": self.money(game, int(args[0]))}
        elif kind == "target":
            card = str(args[0])
            item = next((i for i in player["board"] if i["id"] == card), None)
            record = data.CARDS[card]
            params = {"card": self.card(game, card)}
            if pending["kind"] == "sale" and item is not None:
                key = "lastwill.button.sale"
                params["money"] = self.money(game, free_sale_price(game.state, seat, card))
            elif isinstance(record, PropertyCard) and item is not None:
                params["from"] = self.money(game, item["value"])
                params["to"] = self.money(game, record.track[dropped_step(game.state, seat, card)])
        elif kind == "fair":
            params = {"card": self.card(game, args[0]), "companion": self.word(game, "companion", args[1])}
        elif kind == "line":
            job = player["employment"]
            line = job["lines"][int(args[0])] if job is not None else {"symbol": "?", "money": 0}
            params = {
                "symbol": self.word(game, "symbol", line["symbol"]),
                "money": self.money(game, line["money"]),
            }
        elif kind == "noline":
            style = "secondary"
        elif kind == "dx":
            key = f"lastwill.button.dx_{args[0]}"
        elif kind == "pick":
            params = {"card": self.card_id(game, str(args[0]))}
        return Button(self.t(key, lang, **params), action=action, style=style, row=0)
