"""My hand: every card with what it would do now, the plays from it, and the panels' shared parts.

:class:`Hand` describes a card for one seat (:meth:`Hand.card_words`: actions, pounds, companion
icons, a helper's privileges, the demotion it would earn), draws the "My hand" panel and its play
buttons, and gives every private panel its Done and Back (:meth:`Hand.done`, :meth:`Hand.back`).
Pounds come from the engine's own helpers (``rules.lastwill``), called with the state for the
seat's public facts and the id of a card in its own hand, so a label is what the move then spends.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from bot.core.i18n import clip
from bot.services.sessions import LiveGame
from bot.storage import GameStatus
from bot.ui.presenter import Button, Control, Panel
from cogs.lastwill.words import View, Words, player_of
from rules.core import Action
from rules.lastwill import buy_price, data, offered_lines, play_cost
from rules.lastwill.data import (
    CompanionCard,
    DiscardForMoney,
    DrawAndKeep,
    DrawBonus,
    DropSteps,
    EventCard,
    ExtraAction,
    FreeActions,
    FreeSale,
    FreeTokens,
    GainActions,
    HandLimitBonus,
    HelperCard,
    MaintainBonus,
    OperaBonus,
    PriceModifier,
    Privilege,
    PropertyCard,
    SymbolBonus,
)

CLOSE_ROW = 9
"""Back and Done go last: explicit rows are laid out in order, and loose buttons would join them."""


class Hand(Words):
    """The hand panel and card descriptions (see the module docstring)."""

    def card_lines(self, game: LiveGame, view: View, seat: int, cards: Sequence[str]) -> list[str]:
        """A line per card in hand: its id and what it does (the hand panel and each play's list)."""
        lang = game.row.language
        return [
            self.t(
                "lastwill.panel.hand_card",
                lang,
                name=self.card_id(game, c),
                what=self.card_words(game, view, seat, c),
            )
            for c in cards
        ]

    def seat_moves(self, game: LiveGame, seat: int) -> list[Action]:
        """The seat's legal moves while the game runs: what its private panels may offer."""
        if game.status != GameStatus.ACTIVE:
            return []
        return list(game.entry.rules.legal_actions(game.state, seat))

    def done(self, game: LiveGame) -> Button:
        return Button(self.t("lastwill.button.close", self.lang(game)), ui="done", row=CLOSE_ROW)

    def back(self, game: LiveGame) -> Button:
        return Button(self.t("lastwill.button.back", self.lang(game)), ui="hand", row=CLOSE_ROW)

    def on_turn(self, view: View, seat: int) -> bool:
        """Whether ``seat`` is taking its Actions turn with no choice open."""
        return view["phase"] == "actions" and view["pending"] is None and view["turn"] == seat

    def hand_panel(self, game: LiveGame, seat: int) -> Panel:
        """ "My hand": every card with what it would do now, and on one's turn a button per play."""
        lang = self.lang(game)
        view = self.view_of(game, seat)
        you = view["you"]
        player = player_of(view, seat)
        hand: list[str] = you["hand"]
        head = self.t(
            "lastwill.panel.hand_head",
            lang,
            cards=self.count("lastwill.cards", lang, len(hand)),
            money=self.money(game, player["money"]),
            limit=player["hand_limit"],
        )
        lines = [head]
        if self.on_turn(view, seat):
            lines.append(
                self.t("lastwill.panel.hand_turn", lang, left=self.budget(game, view["budget"] or {}))
            )
        if player["employment"] is not None and player["demoted"]:
            lines.append(self.t("lastwill.panel.demoted_already", lang))
        lines += self.card_lines(game, view, seat, hand) or [self.t("lastwill.panel.hand_empty", lang)]
        controls: list[Control] = []
        if self.on_turn(view, seat):
            controls = self.play_controls(game, view, seat, self.seat_moves(game, seat))
            if not controls:
                lines.append(self.t("lastwill.panel.no_plays", lang))
        controls += self.elsewhere(game, view, seat)
        controls.append(self.done(game))
        return Panel(clip("\n".join(lines)), controls)

    def elsewhere(self, game: LiveGame, view: View, seat: int) -> list[Control]:
        """Where the seat's own move waits when it is not a play: a choice, a draw, a discard."""
        lang = self.lang(game)
        pending = view["pending"]
        if pending is not None and pending["seat"] == seat:
            return [
                Button(
                    self.t(f"lastwill.button.answer.{pending['kind']}", lang),
                    ui="answer",
                    style="primary",
                    row=8,
                )
            ]
        if view["phase"] == "discard" and player_of(view, seat)["discard_owed"]:
            return [Button(self.t("lastwill.button.discard", lang), ui="discard", style="primary", row=8)]
        if view["phase"] == "drawing" and view["turn"] == seat:
            return [Button(self.t("lastwill.button.draw", lang), ui="draw", style="primary", row=8)]
        return []

    def play_controls(self, game: LiveGame, view: View, seat: int, legal: Sequence[Action]) -> list[Control]:
        """A button per play from the hand; a play of several parts opens its own step."""
        lang = self.lang(game)
        labels: list[tuple[str, Control]] = []
        balls: dict[str, None] = {}
        companions: dict[str, None] = {}
        nuptial = False
        for action in legal:
            kind = action.kind
            card = str(action.args[0]) if action.args else ""
            if kind in ("event", "special"):
                white = data.CARDS[card]
                assert isinstance(white, EventCard)
                label = self.t(
                    "lastwill.button.play",
                    lang,
                    card=self.card_name(game, card),
                    actions=self.actions(game, white.actions),
                    money=self.money(game, play_cost(game.state, seat, [card], white.money)),
                )
                labels.append((card, Button(label, action=action, style="primary", row=0)))
            elif kind == "lay":
                black = data.CARDS[card]
                assert isinstance(black, HelperCard)
                label = self.t(
                    "lastwill.button.lay",
                    lang,
                    card=self.card_name(game, card),
                    actions=self.actions(game, black.lay_actions),
                )
                labels.append((card, Button(label, action=action, row=1)))
            elif kind == "buy":
                typ = str(action.args[1]) if len(action.args) > 1 else data.CARDS[card].symbols[0].value
                key = "lastwill.button.buy_as" if len(action.args) > 1 else "lastwill.button.buy"
                label = self.t(
                    key,
                    lang,
                    card=self.card(game, card),
                    type=self.word(game, "type", typ),
                    money=self.money(game, buy_price(game.state, seat, card, typ)),
                )
                labels.append((card, Button(label, action=action, style="success", row=2)))
            elif kind == "ball":
                balls[card] = None
            elif kind == "token":
                companions[str(action.args[1])] = None
            elif kind == "nupt":
                nuptial = True
        for card in balls:
            label = self.t("lastwill.button.ball", lang, card=self.card_name(game, card))
            labels.append((card, Button(label, ui=f"ball.{card}", style="primary", row=0)))
        for card in companions:
            label = self.t("lastwill.button.token", lang, card=self.card_name(game, card))
            labels.append((card, Button(label, ui=f"comp.{card}", row=3)))
        controls = distinct(labels)
        if nuptial:
            controls.append(
                Button(self.t("lastwill.button.nuptial", lang), ui="nupt", style="primary", row=0)
            )
        return controls

    def card_words(self, game: LiveGame, view: View, seat: int, card_id: str) -> str:
        """What a card would do now for ``seat``: actions, pounds, a demotion it would earn."""
        lang = self.lang(game)
        record = data.CARDS.get(card_id)
        player = player_of(view, seat)
        parts: list[str] = []
        symbols: list[str] = []
        if isinstance(record, EventCard):
            symbols = [s.value for s in record.symbols]
            if record.ball:
                low, high = record.ball[0], record.ball[-1]
                parts.append(
                    self.t(
                        "lastwill.what.ball",
                        lang,
                        low=low.actions,
                        high=high.actions,
                        least=self.money(game, play_cost(game.state, seat, [card_id], low.money)),
                        most=self.money(game, play_cost(game.state, seat, [card_id], high.money)),
                    )
                )
            else:
                parts.append(
                    self.t(
                        "lastwill.what.play",
                        lang,
                        actions=self.actions(game, record.actions),
                        money=self.money(game, play_cost(game.state, seat, [card_id], record.money)),
                    )
                )
            if record.icons:
                icons = ", ".join(
                    self.t(
                        "lastwill.icon",
                        lang,
                        companion=self.word(game, "companion", i.companion.value),
                        amount=self.money(game, i.amount),
                    )
                    for i in record.icons
                )
                parts.append(self.t("lastwill.what.icons", lang, icons=icons))
            if record.effect is not None:
                parts.append(self.effect(game, record.effect))
            if record.nuptial is not None:
                parts.append(self.t("lastwill.what.nuptial", lang))
        elif isinstance(record, PropertyCard):
            prices = " / ".join(
                self.t(
                    "lastwill.what.price",
                    lang,
                    type=self.word(game, "type", t.value),
                    money=self.money(game, buy_price(game.state, seat, card_id, t.value)),
                )
                for t in record.types
            )
            parts.append(
                self.t("lastwill.what.buy", lang, prices=prices, actions=self.actions(game, data.BUY_ACTIONS))
            )
            track = "→".join(self.money(game, v) for v in record.track)
            parts.append(
                self.t("lastwill.what.property", lang, track=track, upkeep=self.money(game, record.upkeep))
            )
            symbols = [s.value for s in record.symbols]
        elif isinstance(record, HelperCard):
            parts.append(self.t("lastwill.what.lay", lang, actions=self.actions(game, record.lay_actions)))
            parts += [self.privilege(game, p) for p in record.privileges]
            if record.expense is not None:
                parts.append(self.expense(game, record.expense))
            symbols = [s.value for s in record.symbols]
        elif isinstance(record, CompanionCard):
            if record.companion is None:
                parts.append(self.t("lastwill.what.wild", lang))
                symbols = [data.Symbol.WILD.value, *(c.value for c in data.Companion)]
            else:
                parts.append(
                    self.t(
                        "lastwill.what.companion",
                        lang,
                        companion=self.word(game, "companion", record.companion.value),
                    )
                )
                symbols = [record.companion.value]
        lines = offered_lines(game.state, seat, symbols)
        if lines:
            best = player["employment"]["lines"][lines[0]]
            parts.append(
                self.t(
                    "lastwill.what.demotion",
                    lang,
                    symbol=self.word(game, "symbol", best["symbol"]),
                    money=self.money(game, best["money"]),
                )
            )
        return " · ".join(parts)

    def expense(self, game: LiveGame, expense: data.Expense) -> str:
        """An expense card's use: its actions and pounds ("£1 per farm, +£1 per horse on farms")."""
        lang = self.lang(game)
        money = self.money(game, expense.amount)
        formula = expense.formula
        if formula is not None:
            parts = [
                self.t(f"lastwill.what.per_{name}", lang, money=self.money(game, amount))
                for name, amount in (
                    ("farm", formula.per_farm),
                    ("horse", formula.per_horse),
                    ("dog", formula.per_dog),
                )
                if amount
            ]
            money = ", ".join(parts)
        return self.t("lastwill.what.expense", lang, actions=self.actions(game, expense.actions), money=money)

    def effect(self, game: LiveGame, effect: object) -> str:
        lang = self.lang(game)
        if isinstance(effect, GainActions):
            return self.t("lastwill.what.gain", lang, actions=self.actions(game, effect.amount))
        if isinstance(effect, DropSteps):
            return self.tally(game, "lastwill.what.drop", effect.steps)
        if isinstance(effect, FreeSale):
            return self.t("lastwill.what.free_sale", lang)
        if isinstance(effect, FreeTokens):
            return self.tally(game, "lastwill.what.free_tokens", effect.count)
        if isinstance(effect, DiscardForMoney):
            symbols = self.either(game, [self.word(game, "symbol", s.value) for s in effect.symbols])
            return self.t(
                "lastwill.what.discard_for", lang, symbols=symbols, money=self.money(game, effect.each)
            )
        return ""

    def privilege(self, game: LiveGame, privilege: Privilege) -> str:
        """A helper's privilege in a few words ("+£1 per Dine card")."""
        lang = self.lang(game)
        if isinstance(privilege, SymbolBonus):
            symbols = self.either(game, [self.word(game, "symbol", s.value) for s in privilege.symbols])
            key = "lastwill.what.bonus_optional" if privilege.optional else "lastwill.what.bonus"
            return self.t(key, lang, money=self.money(game, privilege.amount), symbols=symbols)
        if isinstance(privilege, OperaBonus):
            return self.t("lastwill.what.opera", lang, money=self.money(game, privilege.amount))
        if isinstance(privilege, MaintainBonus):
            types = self.either(game, [self.word(game, "type", t.value) for t in privilege.types])
            return self.t(
                "lastwill.what.gardener", lang, money=self.money(game, privilege.amount), types=types
            )
        if isinstance(privilege, PriceModifier):
            return self.t(
                f"lastwill.what.agent_{privilege.trade.value}",
                lang,
                scope=self.t(f"lastwill.scope.{privilege.scope.value}", lang),
                money=self.money(game, privilege.amount)
                if privilege.amount < 0
                else self.t("lastwill.money_plus", lang, amount=self.number(game, privilege.amount)),
            )
        if isinstance(privilege, FreeActions):
            free = self.free_actions(
                game, {f"{privilege.kind.value}:{privilege.scope.value}": privilege.count}
            )
            return self.t("lastwill.what.free", lang, free=self.phrase(game, free))
        if isinstance(privilege, HandLimitBonus):
            return self.t("lastwill.what.hand_limit", lang, amount=privilege.amount)
        if isinstance(privilege, DrawBonus):
            if privilege.deck is None:
                return self.tally(game, "lastwill.what.draw_any", privilege.count)
            deck = self.word(game, "deck", privilege.deck.value)
            return self.tally(game, "lastwill.what.draw_deck", privilege.count, deck=deck)
        if isinstance(privilege, ExtraAction):
            return self.t("lastwill.what.valet" if privilege.white_only else "lastwill.what.old_friend", lang)
        if isinstance(privilege, DrawAndKeep):
            return self.t("lastwill.what.secretary", lang, draw=privilege.draw, keep=privilege.keep)
        return ""


def distinct(labelled: Sequence[tuple[str, Control]]) -> list[Control]:
    """Buttons whose labels repeat (two Dinners) get their card ids, so each says which card it is."""
    seen: dict[str, int] = {}
    for _card, control in labelled:
        if isinstance(control, Button):
            seen[control.label] = seen.get(control.label, 0) + 1
    out: list[Control] = []
    for card, control in labelled:
        if isinstance(control, Button) and seen[control.label] > 1:
            control = dataclasses.replace(control, label=f"{control.label} · {card}")
        out.append(control)
    return out
