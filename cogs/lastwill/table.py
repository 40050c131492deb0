"""The public table: the status line, everyone's purse, and the table's buttons and selects.

Everything here is seen by all, so it reads ``view(state, None)`` (:meth:`Presenter.public`) and
the engine's public helpers only, and its moves are the waited-for seats' legal actions of the
kinds in :data:`TABLE_KINDS`, none of which names a card in a hand.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from bot.core.i18n import clip
from bot.services.sessions import LiveGame
from bot.storage import GameStatus
from bot.ui.presenter import Button, Choice, Control, Select
from cogs.lastwill.plays import Plays
from cogs.lastwill.words import View, as_int, signed
from rules.core import Action
from rules.lastwill import data, draw_count, expense_cost, maintain_cost, opera_cost, sale_price
from rules.lastwill.data import DrawAndKeep, HelperCard

TABLE_KINDS = frozenset(
    {"emp", "empok", "plan", "boy", "market", "hold", "keep", "use", "sell", "drop", "as", "sec", "bankrupt", "done"}
)  # fmt: skip
"""Moves drawn on the public table: none names a card in a hand, and the engine allows them from
public facts (money, boards, the offering, the errand spaces), so the table hides nothing."""
BOARD_KINDS = ("keep", "use", "sell", "as", "drop", "sec")
"""The table's board select, in this order: what one does with the cards already laid."""
PUBLIC_STEPS = frozenset({"line", "target", "sale", "fair", "extra", "dx"})
"""Open choices whose answers name only public things (a line of one's job, a board card, an
amount of pounds): their answers sit on the table itself, so the move that opened one (the
demotion errand) shows its choice at once.  The others (companions, Bachelor Party discards,
the Personal Secretary's cards) name cards of a hand and stay on the private answer panel.
"Demotion or extension" (``dx``) is on the table too: choosing the demotion is a public event
(``demotion_chosen``), so the table is redrawn with the lines to cover."""
SECRETARY = next(
    p for c in data.ALL_CARDS if isinstance(c, HelperCard) for p in c.privileges if isinstance(p, DrawAndKeep)
)
"""What the Personal Secretary draws and keeps (printed on the card, so public)."""


class Table(Plays):
    """The table message below the board (see the module docstring)."""

    def status(self, game: LiveGame, view: dict[str, Any]) -> str:
        """Round, phase, who is on turn and what they are choosing; everyone's money (public)."""
        lang = self.lang(game)
        phase = view["phase"]
        if phase == "over":
            return self.t("lastwill.status.over", lang)
        params: dict[str, Any] = {
            "round": view["round"],
            "rounds": view["rounds"],
            "player": self.player(game, as_int(view["turn"])),
            "players": self.names(game, view["waiting"]),
        }
        pending = view["pending"]
        if pending is not None:
            params["player"] = self.player(game, as_int(pending["seat"]))
            params["what"] = self.t(
                f"lastwill.choosing.{pending['kind']}", lang, source=self.source(game, pending["source"])
            )
            head = self.t("lastwill.status.choosing", lang, **params)
        elif phase == "pick":
            params["max"] = len(game.seats) - data.HANDICAP_MIN_UNEMPLOYED
            head = self.t("lastwill.status.pick", lang, **params)
        elif phase == "discard":
            head = self.t(f"lastwill.status.discard_{view['discard_for'] or 'limit'}", lang, **params)
        elif phase == "drawing":
            turn = as_int(view["turn"])
            cards = draw_count(game.state, turn)[0] if turn is not None else 0
            params["cards"] = self.count("lastwill.cards", lang, cards)
            head = self.t("lastwill.status.drawing", lang, **params)
        elif phase == "errands":
            params["pass"] = view["errand_pass"]
            head = self.t("lastwill.status.errands", lang, **params)
        elif phase == "actions":
            budget = view["budget"] or {}
            params["left"] = self.budget(game, budget)
            head = self.t("lastwill.status.actions", lang, **params)
        else:
            head = self.t(f"lastwill.status.{phase}", lang, **params)
        return f"{head}\n{self.purses(game, view)}"

    def purses(self, game: LiveGame, view: View) -> str:
        """Everyone's money with their job's progress: "ana £45 (Doctor 1/4) · bob £50 (sacked)"."""
        lang = self.lang(game)
        found = []
        for player in view["players"]:
            job = player["employment"]
            if player["bankrupt"]:
                note = self.t("lastwill.purse.bankrupt", lang)
            elif job is not None:
                covered = sum(1 for line in job["lines"] if line["covered"])
                note = self.t(
                    "lastwill.purse.job",
                    lang,
                    job=self.job(game, job["id"]),
                    covered=covered,
                    lines=len(job["lines"]),
                )
            elif player["sacked"]:
                note = self.t("lastwill.purse.sacked", lang)
            else:
                note = ""
            found.append(
                self.t(
                    "lastwill.purse.seat_note" if note else "lastwill.purse.seat",
                    lang,
                    player=self.player(game, int(player["seat"])),
                    money=self.money(game, player["money"]),
                    note=note,
                )
            )
        return " · ".join(found)

    def controls(self, game: LiveGame) -> list[Control]:
        """The table (see the module docstring): public view, public moves, nothing from a hand."""
        lang = self.lang(game)
        view = self.public(game)
        phase = view["phase"]
        if phase == "over":
            return []
        hand = Button(self.t("lastwill.button.hand", lang), ui="hand", row=0)
        pending = view["pending"]
        if pending is not None:
            if pending["kind"] in PUBLIC_STEPS:
                return [*self.answer_controls(game, view, pending), dataclasses.replace(hand, row=4)]
            label = self.t(f"lastwill.button.answer.{pending['kind']}", lang)
            return [Button(label, ui="answer", style="primary", row=0), hand]
        legal = self.table_moves(game)
        if phase == "pick":
            return [*(self.pick_button(game, action) for action in legal)]
        if phase == "discard":
            return [
                Button(self.t("lastwill.button.discard", lang), ui="discard", style="primary", row=0),
                hand,
            ]
        if phase == "planning":
            free = {a.args[0] for a in legal if a.kind == "plan"}
            return [*(self.plan_button(game, plan) for plan in view["plans"] if plan["pos"] in free), hand]
        if phase == "drawing":
            return [Button(self.t("lastwill.button.draw", lang), ui="draw", style="primary", row=0), hand]
        if phase == "errands":
            return [*self.errand_controls(game, view, legal), dataclasses.replace(hand, row=4)]
        return [*self.action_controls(game, view, legal), dataclasses.replace(hand, row=2)]

    def answer_controls(self, game: LiveGame, view: View, pending: View) -> list[Control]:
        """The answers of an open choice that hides nothing (:data:`PUBLIC_STEPS`), on the table:
        the answering seat's legal moves, worded as its private panel words them."""
        if game.status != GameStatus.ACTIVE:
            return []
        seat = as_int(pending["seat"])
        if seat is None:
            return []
        return [
            self.answer_button(game, view, seat, pending, action)
            for action in game.entry.rules.legal_actions(game.state, seat)
        ]

    def table_moves(self, game: LiveGame) -> list[Action]:
        """The waited-for seats' legal moves that the table may show (:data:`TABLE_KINDS`)."""
        if game.status != GameStatus.ACTIVE:
            return []
        rules = game.entry.rules
        found: dict[Action, None] = {}
        for seat in sorted(game.waiting()):
            for action in rules.legal_actions(game.state, seat):
                if action.kind in TABLE_KINDS:
                    found[action] = None
        return list(found)

    def pick_button(self, game: LiveGame, action: Action) -> Button:
        lang = self.lang(game)
        if action.kind == "empok":
            return Button(self.t("lastwill.button.empok", lang), action=action, style="success", row=1)
        seat = as_int(action.args[0]) if action.args else None
        return Button(
            self.t("lastwill.button.emp", lang, player=self.player(game, seat)), action=action, row=0
        )

    def plan_button(self, game: LiveGame, plan: View) -> Button:
        """ "Plan 3: 4 cards · 2 boys · 1 action": what a plan gives, its position its turn order."""
        lang = self.lang(game)
        label = self.t(
            "lastwill.button.plan",
            lang,
            pos=plan["pos"],
            cards=self.count("lastwill.cards", lang, int(plan["cards"])),
            boys=self.count("lastwill.boys", lang, int(plan["boys"])),
            actions=self.actions(game, int(plan["actions"])),
        )
        return Button(label, action=Action("plan", (int(plan["pos"]),)), style="primary", row=0)

    def errand_controls(self, game: LiveGame, view: View, legal: Sequence[Action]) -> list[Control]:
        """Offering slots (a select), draw-one by deck, the market (a select), the other spaces."""
        lang = self.lang(game)
        seat = as_int(view["turn"]) or 0
        slots = {f"slot{s['slot'].lower()}": s for s in view["offering"]}
        offering: list[Choice] = []
        draws: list[Control] = []
        market: list[Choice] = []
        spaces: list[Control] = []
        for action in legal:
            space = str(action.args[0]) if action.args else ""
            if action.kind == "boy" and space in slots:
                card = str(slots[space]["card"])
                offering.append(
                    Choice(
                        self.t(
                            "lastwill.choice.slot",
                            lang,
                            slot=slots[space]["slot"],
                            card=self.card(game, card),
                        ),
                        action,
                        clip(self.card_words(game, view, seat, card), 100),
                    )
                )
            elif action.kind == "boy" and space.startswith("one-"):
                deck = self.word(game, "deck", space[len("one-") :])
                draws.append(Button(self.t("lastwill.button.one", lang, deck=deck), action=action, row=1))
            elif action.kind == "market":
                first, second = (str(a) for a in action.args)
                market.append(
                    Choice(
                        self.t(
                            "lastwill.choice.swap",
                            lang,
                            first=self.word(game, "type", first),
                            second=self.word(game, "type", second),
                            a=signed(view["market"][first]),
                            b=signed(view["market"][second]),
                        ),
                        action,
                    )
                )
            elif action.kind == "boy":
                label = self.t(
                    f"lastwill.button.space.{space}",
                    lang,
                    money=self.money(game, opera_cost(game.state, seat)),
                )
                spaces.append(Button(label, action=action, style="primary", row=3))
            elif action.kind == "hold":
                spaces.append(Button(self.t("lastwill.button.hold", lang), action=action, row=3))
        controls: list[Control] = []
        if offering:
            controls.append(Select(self.t("lastwill.select.offering", lang), offering, row=0))
        controls += draws
        if market:
            controls.append(
                Select(
                    self.t("lastwill.select.market", lang, market=self.market(game, view["market"])),
                    market,
                    row=2,
                )
            )
        return controls + spaces

    def action_controls(self, game: LiveGame, view: View, legal: Sequence[Action]) -> list[Control]:
        """The Actions turn: a button per kind of play from the hand (:meth:`open_plays`, each
        opening its private panel), a select of the board's moves, End turn and bankruptcy
        (behind a confirmation)."""
        lang = self.lang(game)
        seat = as_int(view["turn"]) or 0
        controls: list[Control] = [
            Button(self.t(f"lastwill.button.plays.{name}", lang), ui=f"plays.{name}", style="primary", row=0)
            for name in self.open_plays(game, view, seat)
        ]
        if Action("done") in legal:
            controls.append(Button(self.t("lastwill.button.done", lang), action=Action("done"), row=2))
        if Action("bankrupt") in legal:
            controls.append(
                Button(self.t("lastwill.button.bankrupt", lang), ui="bankrupt", style="danger", row=2)
            )
        board = sorted((a for a in legal if a.kind in BOARD_KINDS), key=lambda a: BOARD_KINDS.index(a.kind))
        if board:
            choices = [self.board_choice(game, seat, action) for action in board]
            controls.append(Select(self.t("lastwill.select.board", lang), choices, row=1))
        return controls

    def board_choice(self, game: LiveGame, seat: int, action: Action) -> Choice:
        """One move on one's own board, with what it costs or brings."""
        lang = self.lang(game)
        card = str(action.args[0]) if action.args else ""
        params: dict[str, Any] = {"card": self.card(game, card)}
        if action.kind == "keep":
            params["money"] = self.money(game, maintain_cost(game.state, seat, card))
        elif action.kind == "sell":
            params["money"] = self.money(game, sale_price(game.state, seat, card))
        elif action.kind == "use":
            params["money"] = self.money(game, expense_cost(game.state, seat, card))
            record = data.CARDS[card]
            expense = record.expense if isinstance(record, HelperCard) else None
            params["actions"] = self.actions(game, expense.actions if expense is not None else 0)
        elif action.kind == "as":
            params["type"] = self.word(game, "type", action.args[1])
        elif action.kind == "sec":
            params["deck"] = self.word(game, "deck", card)
            params["draw"], params["keep"] = (
                self.number(game, SECRETARY.draw),
                self.number(game, SECRETARY.keep),
            )
        return Choice(self.t(f"lastwill.choice.{action.kind}", lang, **params), action)
