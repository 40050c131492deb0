"""California on Discord: take a coin or buy a tile through a private panel; loans any time.

Buying is two private steps and one commit: pick a store tile, then a space
on a 4×4 grid that shows only legal spaces with their total price, with a
Back button; nothing happens until that last click, which sends the single
engine action ``buy store slot target``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.presenter import Button, Control, Panel, Presenter
from bot.session import Applied, LiveGame
from rules.california import ATTIC, COIN, EXPAND, LOAN, REPAY, placements, price, tile_name
from rules.california import data as cal
from rules.california.state import TILE_COLOUR
from rules.core import Action, Event

if TYPE_CHECKING:
    from bot.client import GameBot

ROWS = cal.SPACES // cal.COLUMNS
MARK = dict(zip(cal.COLOURS, ("Br", "Rd", "Pu", "Gy", "Bl", "Gn"), strict=True))
"""Colour codes, the same letters the board image prints (colour-blind players)."""


def colour_name(key: str | None) -> str:
    return cal.COLOUR_NAMES[cal.COLOURS.index(key)] if key in cal.COLOURS else ""


def space_label(space: int) -> str:
    """``A1`` .. ``D4``: row letter, column number, as on the board image."""
    return f"{'ABCD'[space // cal.COLUMNS]}{space % cal.COLUMNS + 1}"


class CaliforniaPresenter(Presenter):
    game = "california"

    # -- the table message -----------------------------------------------------------------------

    def status(self, game: LiveGame, view: dict[str, Any]) -> str:
        lang = game.row.language
        turn = view.get("turn")
        return self.t(
            "california.status",
            lang,
            day=view["day"],
            days=view["days"],
            price=view["price"],
            player=self.player(game, turn if isinstance(turn, int) else None),
        )

    def controls(self, game: LiveGame) -> list[Control]:
        lang = game.row.language
        return [
            Button(self.t("california.button.coin", lang), action=COIN, style="primary"),
            Button(self.t("california.button.buy", lang), ui="buy", style="success"),
            Button(self.t("california.button.loan", lang), action=LOAN),
            Button(self.t("california.button.repay", lang), action=REPAY),
        ]

    # -- the buying panels -----------------------------------------------------------------------

    async def on_ui(self, interaction: discord.Interaction, game: LiveGame, seat: int, code: str) -> Panel:
        lang = game.row.language
        if seat not in game.waiting():
            return Panel(self.t("california.panel.not_your_turn", lang))
        if code == "buy":
            return self.store_panel(game, seat)
        parts = code.split(".")
        if len(parts) == 3 and parts[0] == "t" and parts[1].isdigit() and parts[2].isdigit():
            return self.space_panel(game, seat, int(parts[1]), int(parts[2]))
        return await super().on_ui(interaction, game, seat, code)

    def store_panel(self, game: LiveGame, seat: int) -> Panel:
        lang = game.row.language
        state = game.state
        money = state.players[seat].money
        controls: list[Control] = []
        for store, tiles in enumerate(state.stores):
            for slot, tile in enumerate(tiles):
                if tile is None:
                    continue
                places = placements(state, seat, store, slot)
                label = self.t("california.panel.tile", lang, store=store + 1, name=self.tile_label(tile))
                if not places:
                    label = self.t("california.panel.tile_nowhere", lang, label=label)
                controls.append(
                    Button(label, ui=f"t.{store}.{slot}", disabled=not places, row=store * 2 + slot // 2)
                )
        text = self.t("california.panel.stores", lang, price=price(state), money=money)
        return Panel(text, controls)

    def space_panel(self, game: LiveGame, seat: int, store: int, slot: int) -> Panel:
        lang = game.row.language
        state = game.state
        if not (0 <= store < cal.STORES and 0 <= slot < cal.STORE_SLOTS) or state.stores[store][slot] is None:
            return self.store_panel(game, seat)
        tile = state.stores[store][slot]
        money = state.players[seat].money
        costs = dict(placements(state, seat, store, slot))
        controls: list[Control] = []
        for space in range(cal.SPACES):
            cost = costs.get(space)
            if cost is None:
                controls.append(
                    Button(
                        f"{space_label(space)} ·", ui=f"none.{space}", disabled=True, row=space // cal.COLUMNS
                    )
                )
            else:
                controls.append(
                    Button(
                        self.t(
                            "california.panel.space"
                            if cost > price(state)
                            else "california.panel.space_free",
                            lang,
                            space=space_label(space),
                            cost=cost,
                            fee=cost - price(state),
                        ),
                        action=Action("buy", (store, slot, space)),
                        style="success" if cost <= money else "secondary",
                        row=space // cal.COLUMNS,
                    )
                )
        for target, key in ((ATTIC, "attic"), (EXPAND, "expansion")):
            if target in costs:
                controls.append(
                    Button(
                        self.t(f"california.panel.{key}", lang, cost=costs[target]),
                        action=Action("buy", (store, slot, target)),
                        style="success" if costs[target] <= money else "secondary",
                        row=ROWS,
                    )
                )
        controls.append(Button(self.t("california.panel.back", lang), ui="buy", row=ROWS))
        text = self.t(
            "california.panel.where",
            lang,
            name=self.tile_label(tile),
            price=price(state),
            money=money,
        )
        return Panel(text, controls)

    def tile_label(self, tile: int) -> str:
        key = cal.COLOURS[TILE_COLOUR[tile]] if TILE_COLOUR[tile] >= 0 else None
        name = tile_name(tile)
        return f"{name} [{MARK[key]}]" if key else name

    # -- what happened ---------------------------------------------------------------------------

    def lines(self, game: LiveGame, events: Sequence[Event]) -> list[str]:
        """One sentence per purchase ("Ana bought ... ; the red guest visits and brings a gift")."""
        lang = game.row.language
        out: list[str] = []
        sentence: list[str] = []
        for event in events:
            if event.visible_to is not None:
                continue
            p = dict(event.params)
            who = self.player(game, event.seat)
            if event.kind == "tile_bought":
                if sentence:
                    out.append("".join(sentence))
                sentence = [self._bought(game, who, p)]
            elif event.kind in ("furniture_moved", "guest_arrives", "guest_stays", "gift", "no_gift_left"):
                came_from = p.get("from")
                params = {
                    **p,
                    "colour": colour_name(p.get("colour")),
                    "other": self.player(game, came_from) if isinstance(came_from, int) else "",
                }
                key = f"california.part.{event.kind}"
                if event.kind == "guest_arrives" and isinstance(came_from, int):
                    key = "california.part.guest_moves"
                piece = self.t(key, lang, **params)
                if sentence:
                    sentence.append(piece)
                else:
                    out.append(who + piece)
            else:
                if sentence:
                    out.append("".join(sentence) + ".")
                    sentence = []
                line = self.event_line(game, event)
                if line:
                    out.append(line)
        if sentence:
            out.append("".join(sentence) + ".")
        return out

    def _bought(self, game: LiveGame, who: str, p: dict[str, Any]) -> str:
        lang = game.row.language
        target = p.get("target")
        kind = p.get("kind")
        colour = colour_name(p.get("colour"))
        if target == ATTIC:
            placed = self.t("california.placed.attic", lang)
        elif target == EXPAND:
            placed = self.t("california.placed.expansion", lang)
        elif kind == "room":
            placed = self.t("california.placed.room", lang, space=space_label(int(target or 0)))
        else:
            placed = self.t("california.placed.furniture", lang, colour=colour)
        fee = self.t("california.fee", lang, fee=p["fee"]) if p.get("fee") else ""
        name = str(p["name"])
        article = "an" if name[:1] in "aeiou" else "a"
        return self.t(
            "california.bought",
            lang,
            player=who,
            article=article,
            name=name,
            cost=p["cost"],
            fee=fee,
            placed=placed,
        )

    def event_line(self, game: LiveGame, event: Event) -> str | None:
        params = dict(event.params)
        if event.kind == "day_ended":
            reason = "store" if params.get("reason") == "store" else "bank"
            params["why"] = self.t(
                f"california.day_end.{reason}", game.row.language, store=int(params.get("store") or 0) + 1
            )
        if event.kind == "game_ends_tonight":
            params["why"] = self.t(
                f"california.ending.{params.get('reason')}",
                game.row.language,
                player=self.player(game, event.seat),
            )
        if event.kind == "loan_repaid" and params.get("automatic"):
            return self.t(
                "california.event.loan_repaid_auto", game.row.language, player=self.player(game, event.seat)
            )
        key = f"california.event.{event.kind}"
        if not self.catalog.has(key, game.row.language):
            return None
        return self.t(key, game.row.language, **{**params, "player": self.player(game, event.seat)})

    def score_part(self, game: LiveGame, key: str, value: int) -> str:
        if key == "loan" and value == 0:
            return ""  # no loan, nothing to say
        return super().score_part(game, key, value)

    def confirmation(self, game: LiveGame, applied: Applied) -> str | None:
        lang = game.row.language
        for event in applied.events:
            if event.kind == "loan_taken":
                return self.t("california.private.loan", lang, money=event.params["money"])
            if event.kind == "loan_repaid":
                return self.t("california.private.repaid", lang, money=event.params["money"])
        return None


async def setup(bot: GameBot) -> None:
    bot.tables.presenters[CaliforniaPresenter.game] = CaliforniaPresenter(bot.catalog)
