"""The Last Will presenter: the class the host calls, made of the package's parts.

:class:`LastWillPresenter` joins the table (``table``), the private steps (``steps``), the hand
(``hand``) and the words (``words``), and adds the hooks that route between them: which panel a
``ui`` code opens, where a click or a stale button leads, "Catch me up", and the final scores.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import renderers.lastwill
from bot.services.sessions import Applied, LiveGame
from bot.storage import GameStatus
from bot.ui.presenter import Panel
from cogs.lastwill.plays import PLAY_KINDS
from cogs.lastwill.steps import Steps
from cogs.lastwill.table import Table
from cogs.lastwill.words import player_of
from rules.core import Action
from rules.lastwill import data
from rules.lastwill.engine import ANSWERS

if TYPE_CHECKING:
    import discord

HAND_KINDS = frozenset({"event", "special", "ball", "nupt", "lay", "buy", "token"})
"""Plays from the hand: private panels only (their actions carry hand card ids)."""
ANSWER_KINDS = ANSWERS
"""Answers to the open choice (the engine's own list): the private answer panel."""
SPLIT_KINDS = frozenset({"draw", "redraw"})
"""Steps of the private drawing split; ``drawok`` draws and closes the panel."""


class LastWillPresenter(Steps, Table):
    """The table, the private panels and the log of Last Will (see the package docstring)."""

    game = "lastwill"

    def seat_colour(self, seat: int) -> int | None:
        red, green, blue = renderers.lastwill.seat_colour(seat)
        return (red << 16) | (green << 8) | blue

    def standing(self, game: LiveGame, view: dict[str, Any], seat: int) -> str:
        """Money and the size of the hand (never its cards), or that the seat was sacked: public."""
        players = view.get("players") or []
        if not 0 <= seat < len(players):
            return super().standing(game, view, seat)
        mine = players[seat]
        key = "lastwill.alt.sacked" if mine.get("sacked") else "lastwill.alt.seat"
        return self.t(
            key,
            game.row.language,
            player=self.player(game, seat),
            money=self.money(game, mine.get("money")),
            cards=self.count("lastwill.cards", game.row.language, int(mine.get("hand") or 0)),
        )

    # -- private panels --------------------------------------------------------------------------

    async def on_ui(self, interaction: discord.Interaction, game: LiveGame, seat: int, code: str) -> Panel:
        found = self.panel(game, seat, code)
        return found if found is not None else await super().on_ui(interaction, game, seat, code)

    def panel(self, game: LiveGame, seat: int, code: str) -> Panel | None:
        """The private panel behind a ``Button(ui=code)``; ``None`` for a code this game never draws."""
        kind, _, arg = code.partition(".")
        simple = {
            "hand": self.hand_panel,
            "answer": self.answer_panel,
            "draw": self.draw_panel,
            "discard": self.discard_panel,
            "bankrupt": self.bankrupt_panel,
            "nupt": self.nuptial_panel,
        }
        if code in simple:
            return simple[code](game, seat)
        if kind == "comp" and arg:
            return self.companion_panel(game, seat, arg)
        if kind == "ball" and arg:
            return self.ball_panel(game, seat, arg)
        if kind == "plays" and arg in PLAY_KINDS:
            return self.plays_panel(game, seat, arg)
        if code == "done":
            return Panel(self.t("lastwill.panel.closed", self.lang(game)))
        return None

    # -- after a click ---------------------------------------------------------------------------

    def next_panel(self, game: LiveGame, seat: int, applied: Applied) -> Panel | None:
        """A split stays on the split, a partial discard on the discard, and a play or an answer
        goes on to the choice it opened or back to the hand while the turn lasts; drawing, the
        last discard and the end of one's turn close the panel."""
        if game.status != GameStatus.ACTIVE:
            return None
        kind = applied.action.kind
        if kind in SPLIT_KINDS:
            return self.draw_panel(game, seat, told=True)
        view = self.view_of(game, seat)
        if kind == "discard":
            owed = int(player_of(view, seat)["discard_owed"]) if view["phase"] == "discard" else 0
            return self.discard_panel(game, seat) if owed else None
        if kind in HAND_KINDS | ANSWER_KINDS | {"bankrupt"}:
            pending = view["pending"]
            if pending is not None and pending["seat"] == seat:
                return self.answer_panel(game, seat)
            if self.on_turn(view, seat):
                return self.hand_panel(game, seat)
        return None

    def panel_for(self, game: LiveGame, seat: int, action: Action) -> Panel | None:
        """Where a stale private button's action lives now."""
        kind = action.kind
        if kind in SPLIT_KINDS or kind == "drawok":
            return self.draw_panel(game, seat)
        if kind == "discard":
            return self.discard_panel(game, seat)
        if kind in ANSWER_KINDS:
            return self.answer_panel(game, seat)
        if kind == "token" and len(action.args) >= 2:
            return self.companion_panel(game, seat, str(action.args[1]))
        if kind == "ball" and action.args:
            return self.ball_panel(game, seat, str(action.args[0]))
        if kind == "nupt":
            return self.nuptial_panel(game, seat)
        if kind in HAND_KINDS:
            return self.hand_panel(game, seat)
        if kind == "bankrupt":
            return self.bankrupt_panel(game, seat)
        return None

    def private_summary(self, game: LiveGame, seat: int) -> list[str]:
        """Catch me up: one's hand, the choice one is answering, discards not yet revealed."""
        if not 0 <= seat < len(game.seats) or game.state is None:
            return []
        lang = self.lang(game)
        view = self.view_of(game, seat)
        you = view["you"]
        lines = [self.t("lastwill.summary.hand", lang, cards=self.cards(game, you["hand"]))]
        if you["discarding"]:
            lines.append(
                self.t("lastwill.summary.discarding", lang, cards=self.cards(game, you["discarding"]))
            )
        if you["split"]:
            lines.append(self.t("lastwill.summary.split", lang, split=self.split(game, you["split"])))
        if you["pending"] is not None:
            what = self.t(
                f"lastwill.choosing.{you['pending']['kind']}",
                lang,
                source=self.source(game, you["pending"]["source"]),
            )
            lines.append(self.t("lastwill.summary.choosing", lang, what=what))
        return lines

    # -- the end ---------------------------------------------------------------------------------

    def score(self, game: LiveGame, value: int) -> str:
        """Final money: least wins."""
        return self.money(game, value)

    def score_part(self, game: LiveGame, key: str, value: int) -> str:
        """The parts of the final money worth saying: final income, property valued, a penalty,
        and "still employed" (who cannot win).  The money itself is the score."""
        lang = self.lang(game)
        if key in ("income", "property", "penalty") and value:
            return self.t(f"lastwill.score.{key}", lang, value=self.money(game, value))
        if key == "employed" and value:
            return self.t("lastwill.score.employed", lang)
        return ""

    def rulings(self, language: str) -> list[str]:
        """``/game rules lastwill`` ends with every chosen ruling, in the data's order."""
        return [self.t("lastwill.chosen_head", language)] + [
            self.t("lastwill.chosen_item", language, text=self.t(f"lastwill.chosen.{key}", language))
            for key in data.CHOSEN_RULINGS
        ]
