"""The private steps: a companion's target, the Ball's level, a nuptial set, the open choice,
the drawing split, the discards and the bankruptcy confirmation.

Each is a :class:`Panel` behind a ``Button(ui=...)`` of the hand or the table, drawn from
``view(state, seat)``; its pounds come from the engine's helpers (``rules.lastwill``), the same
functions the engine then spends by.  Each closes with Done or steps Back to the hand.
"""

from __future__ import annotations

from typing import Any

from bot.core.i18n import clip
from bot.services.sessions import LiveGame
from bot.ui.presenter import Button, Choice, Control, Panel, Select
from cogs.lastwill.plays import Plays
from cogs.lastwill.words import as_int, player_of
from rules.core import Action
from rules.lastwill import (
    available,
    data,
    draw_count,
    token_amount,
)
from rules.lastwill.cards import allowance
from rules.lastwill.data import DiscardForMoney, EventCard


class Steps(Plays):
    """The panels of several-part moves and of the open choice (see the module docstring)."""

    def companion_panel(self, game: LiveGame, seat: int, card: str) -> Panel:
        """Which card on one's board takes this companion as a token (a wild card: as what)."""
        lang = self.lang(game)
        view = self.view_of(game, seat)
        moves = [
            a
            for a in self.seat_moves(game, seat)
            if a.kind == "token" and len(a.args) >= 2 and a.args[1] == card
        ]
        controls: list[Control] = []
        for action in moves:
            target = str(action.args[0])
            amount = token_amount(game.state, seat, target)
            companion = str(action.args[2]) if len(action.args) > 2 else data.CARDS[card].symbols[0].value
            controls.append(
                Button(
                    self.t(
                        "lastwill.button.token_on",
                        lang,
                        companion=self.word(game, "companion", companion),
                        card=self.card(game, target),
                        money=self.money(game, amount),
                    ),
                    action=action,
                    style="primary",
                    row=0,
                )
            )
        key = "lastwill.panel.companion" if controls else "lastwill.panel.companion_none"
        text = self.t(key, lang, card=self.card_id(game, card), what=self.card_words(game, view, seat, card))
        return Panel(text, [*controls, self.back(game)])

    def ball_panel(self, game: LiveGame, seat: int, card: str) -> Panel:
        """The Ball's levels one can afford now: each its actions and its pounds."""
        lang = self.lang(game)
        balls = [a for a in self.seat_moves(game, seat) if a.kind == "ball" and a.args[0] == card]
        controls = self.ball_buttons(game, seat, balls, named=False)
        key = "lastwill.panel.ball" if controls else "lastwill.panel.ball_none"
        return Panel(self.t(key, lang, card=self.card_id(game, card)), [*controls, self.back(game)])

    def nuptial_panel(self, game: LiveGame, seat: int) -> Panel:
        """Which nuptial set to play: one choice per set one can play now (2 to 4 cards with
        different names, one action), so no choice is one the engine would refuse."""
        lang = self.lang(game)
        sets = [a for a in self.seat_moves(game, seat) if a.kind == "nupt"]
        if not sets:
            return Panel(self.t("lastwill.panel.nuptial_none", lang), [self.back(game)])
        return Panel(
            self.t("lastwill.panel.nuptial", lang), [self.nuptial_select(game, seat, sets), self.back(game)]
        )

    def answer_panel(self, game: LiveGame, seat: int) -> Panel:
        """The open choice, answered privately: what it is about and one button per answer."""
        lang = self.lang(game)
        view = self.view_of(game, seat)
        pending = view["you"]["pending"]
        if pending is None:
            other = view["pending"]
            if other is not None:
                text = self.t(
                    "lastwill.panel.answer_other", lang, player=self.player(game, as_int(other["seat"]))
                )
            else:
                text = self.t("lastwill.panel.answer_none", lang)
            return Panel(text, [self.back(game)])
        kind = str(pending["kind"])
        options = [Action.decode(code) for code in pending["options"]]
        player = player_of(view, seat)
        params: dict[str, Any] = {
            "source": self.source(game, pending["source"]),
            "icons": self.icons(game, pending["icons"]),
            "money": self.money(game, pending["money"]),
            "count": pending["count"],
        }
        extras = [int(a.args[0]) for a in options if a.kind == "extra"]
        params["most"] = self.money(game, max(extras, default=0))
        if kind == "line" and player["employment"] is not None:
            params["job"] = self.job(game, player["employment"]["id"])
        controls: list[Control] = []
        if kind == "bpx":
            cards = [str(a.args[0]) for a in options if a.kind == "bpx"]
            most = min(len(cards), self.bpx_most(game, seat, str(pending["source"])))
            if cards and most > 0:
                choices = [Choice(self.card_id(game, c), Action("bpx", (c,))) for c in cards]
                controls.append(
                    Select(
                        self.t("lastwill.select.bpx", lang),
                        choices,
                        row=0,
                        max_values=most,
                        combine="bpx",
                    )
                )
        for action in options:
            if kind == "bpx" and action.kind == "bpx":
                continue
            controls.append(self.answer_button(game, view, seat, pending, action))
        text = self.t(f"lastwill.panel.answer.{kind}", lang, **params)
        return Panel(clip(text), [*controls, self.back(game)])

    def bpx_most(self, game: LiveGame, seat: int, source: str) -> int:
        """How many cards the seat's Bachelor Party may discard at once: each pays its pounds, and
        a player who may not go below the floor pays only what cash allows."""
        each = next(
            (
                record.effect.each
                for card in source.split(".")
                if isinstance(record := data.CARDS.get(card), EventCard)
                and isinstance(record.effect, DiscardForMoney)
            ),
            0,
        )
        room = allowance(game.state.players[seat])
        return 99 if room is None or each <= 0 else room // each

    def draw_panel(self, game: LiveGame, seat: int, *, told: bool = False) -> Panel:
        """The drawing split: +1 per deck, Back (start over), Confirm once it adds up.

        ``told``: the split was just stated by the step's private line, so the panel does not
        repeat it.
        """
        lang = self.lang(game)
        view = self.view_of(game, seat)
        if view["phase"] != "drawing" or view["turn"] != seat or view["pending"] is not None:
            return Panel(self.t("lastwill.panel.draw_not_now", lang), [self.done(game)])
        want, fixed = draw_count(game.state, seat)
        split: dict[str, int] = view["you"]["split"]
        named = sum(split.values())
        lines = [self.t("lastwill.panel.draw", lang, cards=self.count("lastwill.cards", lang, want))]
        if fixed:
            lines.append(self.t("lastwill.panel.draw_fixed", lang, split=self.split(game, fixed)))
        if not told:
            lines.append(
                self.t(
                    "lastwill.panel.draw_split", lang, split=self.split(game, split), named=named, count=want
                )
            )
        legal = self.seat_moves(game, seat)
        controls: list[Control] = []
        for action in legal:
            if action.kind == "draw":
                deck = str(action.args[0])
                label = self.t(
                    "lastwill.button.draw_one",
                    lang,
                    deck=self.word(game, "deck", deck),
                    left=available(game.state, deck) - split.get(deck, 0),
                )
                controls.append(Button(label, action=action, row=0))
        if Action("redraw") in legal:
            controls.append(Button(self.t("lastwill.button.redraw", lang), action=Action("redraw"), row=1))
        ready = Action("drawok") in legal
        controls.append(
            Button(
                self.t(
                    "lastwill.button.drawok" if ready else "lastwill.button.drawok_wait",
                    lang,
                    named=named,
                    count=want,
                ),
                action=Action("drawok"),
                style="success",
                disabled=not ready,
                row=1,
            )
        )
        return Panel("\n".join(lines), [*controls, self.done(game)])

    def discard_panel(self, game: LiveGame, seat: int) -> Panel:
        """Round 1's keep-2 or the hand limit: a multi-select of one's hand, secret until all chose."""
        lang = self.lang(game)
        view = self.view_of(game, seat)
        if view["phase"] != "discard":
            return Panel(self.t("lastwill.panel.discard_not_now", lang), [self.done(game)])
        player = player_of(view, seat)
        need = int(player["discard_owed"])
        chosen: list[str] = view["you"]["discarding"]
        others = [s for s in view["waiting"] if s != seat]
        if need <= 0:
            text = self.t(
                "lastwill.panel.discard_done" if chosen else "lastwill.panel.discard_none",
                lang,
                cards=self.cards(game, chosen),
                players=self.names(game, others),
            )
            return Panel(text, [self.done(game)])
        hand: list[str] = view["you"]["hand"]
        keep = len(hand) - need
        lines = [
            self.tally(game, f"lastwill.panel.discard_{view['discard_for'] or 'limit'}", need, keep=keep)
        ]
        if chosen:
            lines.append(self.t("lastwill.panel.discard_chosen", lang, cards=self.cards(game, chosen)))
        choices = [
            Choice(
                self.card_id(game, card),
                Action("discard", (card,)),
                clip(self.card_words(game, view, seat, card), 100),
            )
            for card in dict.fromkeys(hand)
        ]
        select = Select(
            self.count("lastwill.select.discard", lang, need),
            choices,
            row=0,
            min_values=1,
            max_values=need,
            combine="discard",
        )
        return Panel("\n".join(lines), [select, self.done(game)])

    def bankrupt_panel(self, game: LiveGame, seat: int) -> Panel:
        lang = self.lang(game)
        if Action("bankrupt") not in self.seat_moves(game, seat):
            return Panel(self.t("lastwill.panel.bankrupt_not_now", lang), [self.done(game)])
        confirm = Button(
            self.t("lastwill.button.bankrupt_confirm", lang), action=Action("bankrupt"), style="danger", row=0
        )
        return Panel(self.t("lastwill.panel.bankrupt", lang), [confirm, self.back(game)])
