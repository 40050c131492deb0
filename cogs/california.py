"""California on Discord: take a coin or buy a tile through a private panel; loans any time.

Buying is two private steps and one commit: pick a store tile (each button
shows the cheapest legal price, or why the tile is out of reach), then a
space on a 4×4 grid named like the board image (rows A-D, columns 1-4) that
shows every legal space with its total price, with a Back button.  Nothing
happens until that last click, which sends one engine action: ``buy`` when
the player can pay, or ``loan_buy`` ("borrow 3 and buy") when only a loan
makes it affordable, so the loan and the purchase are committed together or
not at all.  Which action each space gets comes from ``rules.california.offers``:
the cog works out no prices itself.

Every control is one its presser can use (issue 24): a table button is the turn's, for the
player on turn, and anything that differs from seat to seat is on a private panel.  So loans,
which any seat may take or repay at any time but each seat only for itself, are not on the
table, where "Repay loan (4)" would be pressed by players who have none: "My mansion" answers
any seated player, on turn or not, with a private full-size picture of their own mansion
(rendered off the event loop) and "Take a loan (+3)" / "Repay loan (4)" when that seat may.
A purchase that needs a loan takes it in the same click ("borrow 3 and buy").  Two tiles that
read the same are one button (identical tiles in one store buy the same thing), or name their
store when they lie in both.

Words: the engine's events, view and refusals carry tokens (colour keys, tile ids, bonus card
indices, spaces 0-15); everything a player reads is named here from the catalog in the table's
language, as whole phrases where French needs the noun's gender (``california.a.*``,
``california.the.*``, ``california.guest.*``, one sentence per kind of purchase), and the colour
codes on the buttons are the catalog's, the same letters the board prints.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.services.sessions import Applied, LiveGame
from bot.storage import GameStatus
from bot.ui.presenter import Button, Control, Panel, Presenter, Style
from renderers.california import render_mansion
from rules.california import (
    ATTIC,
    COIN,
    EXPAND,
    LOAN,
    LOAN_BUY,
    REPAY,
    bonus_card_token,
    can_borrow,
    offers,
    price,
)
from rules.california import data as cal
from rules.california.state import TILE_COLOUR, TILE_KIND
from rules.core import Action, Event

if TYPE_CHECKING:
    import discord

log = logging.getLogger(__name__)

ROWS = cal.SPACES // cal.COLUMNS
"""The English colour codes, for the host's language-free :meth:`Presenter.mark`; a table's buttons
use :meth:`CaliforniaPresenter.code`, the catalog's letters in its language (``Rd``, ``Ro``)."""


def space_label(space: int) -> str:
    """``A1`` .. ``D4``: row letter, column number, as on the board image."""
    return f"{'ABCD'[space // cal.COLUMNS]}{space % cal.COLUMNS + 1}"


def _tile_kind(tile: int) -> tuple[int, str]:
    """What a tile is for a buyer (its colour and kind): two tiles alike buy the same thing."""
    return TILE_COLOUR[tile], TILE_KIND[tile]


def purse(player: Mapping[str, Any]) -> dict[str, int]:
    """A player's money as the catalog phrases it: silver in all, and in gold and silver coins."""
    return {
        "money": int(player.get("money", 0)),
        "gold": int(player.get("gold", 0)),
        "silver": int(player.get("silver", 0)),
    }


STYLE: dict[str, Style] = {"buy": "success", LOAN_BUY: "primary"}
"""Green buys at once, blue borrows 3 and buys; a space out of reach is grey and disabled."""


class CaliforniaPresenter(Presenter):
    game = "california"
    seat_params = Presenter.seat_params | {"from"}
    """``from``: the seat a guest leaves to visit the buyer (``None``: the guest came from the table)."""

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

    def standing(self, game: LiveGame, view: dict[str, Any], seat: int) -> str:
        """Money, the points a seat would score now, and a loan: all public in California."""
        players = view.get("players") or []
        if not 0 <= seat < len(players):
            return super().standing(game, view, seat)
        player = players[seat]
        score = player.get("score") or {}
        key = "california.alt.seat_loan" if player.get("loan") else "california.alt.seat"
        return self.t(
            key,
            game.row.language,
            player=self.player(game, seat),
            silver=self.number(game, int(player.get("silver") or 0)),
            gold=self.number(game, int(player.get("gold") or 0)),
            points=self.count("california.alt.points", game.row.language, int(score.get("total") or 0)),
        )

    def controls(self, game: LiveGame) -> list[Control]:
        """Coin, My mansion (with the seat's own loan buttons), and the store tiles.

        The tiles sit on the table itself, one row per store, each with the cheapest price
        the player on turn could pay for it: pressing one turns the table, in place, into
        that tile's spaces (:meth:`space_panel`), so a purchase is two clicks and no private
        message.  Built from what everyone may know (California hides nothing but the bag
        and the draw stack), because the table's buttons are shared by everyone.
        """
        lang = game.row.language
        view = self.public(game)
        controls: list[Control] = [
            Button(self.t("california.button.coin", lang), action=COIN, style="primary", row=0),
        ]
        turn = view.get("turn")
        if isinstance(turn, int) and game.status == GameStatus.ACTIVE:
            # The player on turn's own loan buttons, when the engine would take them from them
            # (anybody else is told they are that player's: :meth:`owner`); every seat finds its
            # own, at any time, in My mansion.
            legal = game.entry.rules.legal_actions(game.state, turn)
            for action, key in ((LOAN, "california.button.loan"), (REPAY, "california.button.repay")):
                if action in legal:
                    controls.append(Button(self.t(key, lang), action=action, row=0))
        controls.append(Button(self.t("california.button.mansion", lang), ui="mansion", row=0))
        if isinstance(turn, int):
            controls.extend(self.tile_buttons(game, turn, short=True, first_row=1))
        return controls

    def owner(self, game: LiveGame, action: Action) -> int | None:
        """The table's Loan and Repay are the player on turn's (see :meth:`controls`)."""
        if action not in (LOAN, REPAY):
            return None
        turn = self.public(game).get("turn")
        return turn if isinstance(turn, int) else None

    def owner_hint(self, game: LiveGame, language: str) -> str:
        return self.t("california.refuse.own_loan", language)

    def private_summary(self, game: LiveGame, seat: int) -> list[str]:
        """The seat's own position in one line: money in silver and in coins, the loan, the score."""
        view = self.view_of(game, seat)
        players = view.get("players") or []
        if not 0 <= seat < len(players):
            return []
        return [self.summary(game, players[seat])]

    def summary(self, game: LiveGame, player: Mapping[str, Any]) -> str:
        lang = game.row.language
        loan = self.t("california.summary.loan" if player.get("loan") else "california.summary.no_loan", lang)
        score = player.get("score") or {}
        return self.t(
            "california.summary.line", lang, **purse(player), loan=loan, score=int(score.get("total", 0))
        )

    # -- the private panels ----------------------------------------------------------------------

    async def on_ui(self, interaction: discord.Interaction, game: LiveGame, seat: int, code: str) -> Panel:
        lang = game.row.language
        if code == "mansion":
            return await self.mansion_panel(game, seat)
        if seat not in game.waiting():
            return Panel(self.t("california.panel.not_your_turn", lang))
        if code == "buy":
            return self.store_panel(game, seat)
        if code == "back":
            return self.table_panel(game)
        parts = code.split(".")
        if len(parts) == 3 and parts[0] == "t" and parts[1].isdigit() and parts[2].isdigit():
            # Pressed on the table: its spaces replace the table's buttons, for everyone to see
            # (nothing here is secret) and for the player on turn to press.
            on_table = interaction.message is not None and not interaction.message.flags.ephemeral
            panel = self.space_panel(
                game, seat, int(parts[1]), int(parts[2]), back="back" if on_table else "buy"
            )
            panel.public = on_table
            return panel
        return await super().on_ui(interaction, game, seat, code)

    async def mansion_panel(self, game: LiveGame, seat: int) -> Panel:
        """The seat's own mansion at full size, drawn in a worker thread, and its loan buttons;
        any seat, any time."""
        panel = self.loan_panel(game, seat)
        view = self.view_of(game, seat)
        try:
            panel.image = await asyncio.to_thread(
                render_mansion, view, game.names, seat, self.catalog.words(game.row.language)
            )
        except Exception:  # a renderer bug costs the picture, not the answer (as for the board)
            log.exception("could not draw seat %s's mansion in game %s", seat, game.id)
        return panel

    def loan_panel(self, game: LiveGame, seat: int) -> Panel:
        """The mansion panel's words and buttons: the seat's position, and "Take a loan (+3)" and
        "Repay loan (4)" only when the engine takes them from this seat now."""
        lang = game.row.language
        view = self.view_of(game, seat)
        me = (view.get("players") or [])[seat]
        text = self.t("california.panel.mansion", lang, summary=self.summary(game, me))
        legal = game.entry.rules.legal_actions(game.state, seat) if game.status == GameStatus.ACTIVE else []
        controls: list[Control] = []
        if LOAN in legal:
            controls.append(Button(self.t("california.button.loan", lang), action=LOAN, row=0))
        if REPAY in legal:
            controls.append(Button(self.t("california.button.repay", lang), action=REPAY, row=0))
        return Panel(text, controls)

    def panel_for(self, game: LiveGame, seat: int, action: Action) -> Panel | None:
        """A stale loan button (on the mansion panel): the seat's loan buttons as they are now."""
        if action in (LOAN, REPAY):
            return self.loan_panel(game, seat)
        return None

    def table_panel(self, game: LiveGame) -> Panel:
        """Back from a tile's spaces: the table's own buttons again, in place."""
        return Panel("", self.controls(game), public=True)

    def store_panel(self, game: LiveGame, seat: int) -> Panel:
        """The tiles privately (an older table's "Buy a tile…"); today's table shows them itself."""
        lang = game.row.language
        state = game.state
        text = self.t("california.panel.stores", lang, price=price(state), money=state.players[seat].money)
        return Panel(text, self.tile_buttons(game, seat, short=False, first_row=0))

    def tile_buttons(self, game: LiveGame, seat: int, *, short: bool, first_row: int) -> list[Control]:
        """One button per store tile with the cheapest price ``seat`` could pay (or why none)."""
        lang = game.row.language
        state = game.state
        money = state.players[seat].money
        reach = money + cal.LOAN_AMOUNT if can_borrow(state, seat) else money
        controls: list[Control] = []
        # One button per kind of tile in a store (two identical tiles buy the same thing); on the
        # table, where each store is a row, a tile that lies in both stores names its store.
        kinds = [{_tile_kind(tile) for tile in tiles if tile is not None} for tiles in state.stores]
        in_both = set.intersection(*kinds) if kinds else set()
        for store, tiles in enumerate(state.stores):
            shown: set[tuple[int, str]] = set()
            for slot, tile in enumerate(tiles):
                if tile is None or _tile_kind(tile) in shown:
                    continue
                shown.add(_tile_kind(tile))
                name = self.tile_label(tile, lang)
                if not short or _tile_kind(tile) in in_both:
                    name = self.t("california.panel.tile", lang, store=store + 1, name=name)
                label = name
                options = offers(state, seat, store, slot)
                doable = [(cost, action) for _, cost, action in options if action is not None]
                if doable:
                    cost, action = min(doable, key=lambda o: (o[0], o[1].kind != "buy"))
                    key = "tile_from" if action.kind == "buy" else "tile_borrow"
                    label = self.t(f"california.panel.{key}", lang, label=label, cost=cost)
                elif not options:
                    label = self.t("california.panel.tile_nowhere", lang, label=label)
                else:
                    cheapest = min(cost for _, cost, _ in options)
                    key = "tile_dear_loan" if reach > money else "tile_dear"
                    label = self.t(
                        f"california.panel.{key}", lang, label=label, cost=cheapest, money=money, reach=reach
                    )
                row = first_row + store if short else store * 2 + slot // 2
                if short and len(options) == 1 and doable:
                    # Only one place it can go (furniture, mostly): one click buys it there.
                    target, cost, only = options[0]
                    assert only is not None
                    where = self.t(
                        "california.panel.tile_to", lang, label=name, where=self.target_label(game, target)
                    )
                    label = self.t("california.panel.space_free", lang, space=where, cost=cost)
                    controls.append(self.offer_button(game, label, target, only, row))
                    continue
                controls.append(Button(label, ui=f"t.{store}.{slot}", disabled=not doable, row=row))
        return controls

    def target_label(self, game: LiveGame, target: int | str) -> str:
        """``B2``, ``attic`` or ``expansion``: where a tile goes, as the buttons name it."""
        if target in (ATTIC, EXPAND):
            return self.t(f"california.target.{target}", game.row.language)
        return space_label(int(target))

    def space_panel(self, game: LiveGame, seat: int, store: int, slot: int, back: str = "buy") -> Panel:
        """Where the chosen tile may go, each space with its total price; ``back`` is the code of
        the Back button (the private store panel, or the table's own buttons)."""
        lang = game.row.language
        state = game.state
        if not (0 <= store < cal.STORES and 0 <= slot < cal.STORE_SLOTS) or state.stores[store][slot] is None:
            return self.store_panel(game, seat) if back == "buy" else self.table_panel(game)
        tile = state.stores[store][slot]
        money = state.players[seat].money
        base = price(state)
        found = {target: (cost, action) for target, cost, action in offers(state, seat, store, slot)}
        controls: list[Control] = []
        for space in range(cal.SPACES):
            row = space // cal.COLUMNS
            if space not in found:
                controls.append(Button(f"{space_label(space)} ·", ui=f"none.{space}", disabled=True, row=row))
                continue
            cost, action = found[space]
            key = "california.panel.space" if cost > base else "california.panel.space_free"
            label = self.t(key, lang, space=space_label(space), cost=cost, fee=cost - base)
            controls.append(self.offer_button(game, label, space, action, row))
        for target, key in ((ATTIC, "attic"), (EXPAND, "expansion")):
            if target in found:
                cost, action = found[target]
                label = self.t(f"california.panel.{key}", lang, cost=cost)
                controls.append(self.offer_button(game, label, target, action, ROWS))
        controls.append(Button(self.t("california.panel.back", lang), ui=back, row=ROWS))
        borrow = any(action is not None and action.kind == LOAN_BUY for _, action in found.values())
        text = self.t(
            "california.panel.where",
            lang,
            name=self.tile_label(tile, lang),
            price=base,
            money=money,
            borrow=self.t("california.panel.where_borrow", lang) if borrow else "",
        )
        return Panel(text, controls)

    def offer_button(
        self, game: LiveGame, label: str, target: int | str, action: Action | None, row: int
    ) -> Button:
        """One space: buy it (green), borrow 3 and buy it (blue), or out of reach (grey, disabled)."""
        if action is None:
            return Button(label, ui=f"none.{target}", disabled=True, row=row)
        if action.kind == LOAN_BUY:
            label = self.t("california.panel.borrow", game.row.language, label=label)
        return Button(label, action=action, style=STYLE.get(action.kind, "secondary"), row=row)

    def tile_label(self, tile: int, lang: str) -> str:
        """Short enough for a button: ``red room [Rd]``, ``grand piano [Rd]``, ``attic expansion``."""
        c = TILE_COLOUR[tile]
        if c < 0:
            return self.t("california.expansion", lang)
        colour = cal.COLOURS[c]
        name = self.t(f"california.{'room' if TILE_KIND[tile] == 'room' else 'furniture'}.{colour}", lang)
        return self.t("california.panel.tile_name", lang, name=name, code=self.code(colour, lang))

    def code(self, colour: object, lang: str) -> str:
        """The two letters of a colour in ``lang`` (``Rd``, ``Ro``), as the board image prints them."""
        return self.t(f"california.code.{colour}", lang) if colour in cal.COLOURS else "?"

    # -- what happened ---------------------------------------------------------------------------

    def lines(self, game: LiveGame, events: Sequence[Event]) -> list[str]:
        """One sentence per purchase ("Ana bought ... ; the red guest visits and brings a gift")."""
        lang = game.row.language
        out: list[str] = []
        sentence: list[str] = []
        for event in events:
            if event.visible_to is not None:
                continue
            if event.kind == "tile_bought":
                if sentence:
                    out.append("".join(sentence) + ".")
                sentence = [self._bought(game, event)]
            elif event.kind in ("furniture_moved", "guest_arrives", "guest_stays", "gift", "no_gift_left"):
                key = f"california.part.{event.kind}"
                if event.kind == "guest_arrives" and isinstance(event.params.get("from"), int):
                    key = "california.part.guest_moves"
                piece = self.t(key, lang, **self.event_params(game, event))
                if sentence:
                    sentence.append(piece)
                else:
                    out.append(self.player(game, event.seat) + piece)
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

    def _bought(self, game: LiveGame, event: Event) -> str:
        """The purchase, one whole sentence per kind (the tile's article is part of each phrase)."""
        lang = game.row.language
        p = event.params
        params = self.event_params(game, event)
        target, colour, kind = p.get("target"), p.get("colour"), p.get("kind")
        room = ""
        if kind == "expansion" or colour not in cal.COLOURS:
            case, thing = "expansion", self.t("california.a.expansion", lang)
        else:
            case = "room" if kind == "room" else ("attic" if target == ATTIC else "furniture")
            thing = self.t(f"california.a.{'room' if kind == 'room' else 'furniture'}.{colour}", lang)
            room = self.t(f"california.room.{colour}", lang)
        space = space_label(target) if isinstance(target, int) and 0 <= target < cal.SPACES else ""
        fee = self.t("california.fee", lang, fee=params["fee"]) if p.get("fee") else ""
        return self.t(
            f"california.bought.{case}",
            lang,
            player=params["player"],
            thing=thing,
            cost=params["cost"],
            fee=fee,
            space=space,
            room=room,
        )

    def event_params(self, game: LiveGame, event: Event) -> dict[str, Any]:
        """The base params, plus the event colour's ``guest`` ("the red guest", "le voisin rouge") and
        ``furniture`` ("the grand piano", "la moto"): whole phrases, because French agrees the
        article and the colour with the noun."""
        params = super().event_params(game, event)
        colour = event.params.get("colour")
        if colour in cal.COLOURS:
            params["guest"] = self.t(f"california.guest.{colour}", game.row.language)
            params["furniture"] = self.t(f"california.the.furniture.{colour}", game.row.language)
        return params

    def event_param(self, game: LiveGame, key: str, value: Any) -> Any:
        """California's own tokens in words, for events and refusals alike: a ``colour`` key, a
        bonus ``card`` index, a ``room`` (a colour key: "red room"), a ``tile`` id ("the grand
        piano"), a ground-floor ``space`` as the buttons name it (B2), a ``store`` and ``slot``
        numbered from 1."""
        lang = game.row.language
        if key == "colour" and value in cal.COLOURS:
            return self.t(f"california.colour.{value}", lang)
        if key == "card" and isinstance(value, int) and 0 <= value < len(cal.BONUS_CARDS):
            return self.t(f"california.card.{bonus_card_token(value)}", lang)
        if key == "room" and value in cal.COLOURS:
            return self.t(f"california.room.{value}", lang)
        if key == "tile" and isinstance(value, int) and 0 <= value < len(TILE_KIND):
            return self.tile_phrase("the", value, lang)
        if key == "space" and isinstance(value, int) and 0 <= value < cal.SPACES:
            return space_label(value)
        if key in ("store", "slot") and isinstance(value, int):
            return self.number(game, value + 1)
        return super().event_param(game, key, value)

    def tile_phrase(self, form: str, tile: int, lang: str) -> str:
        """A tile with its article, ``form`` "a" or "the" ("a grand piano", "la moto"): whole phrases
        from the catalog, because the article follows the noun's gender in French."""
        kind, c = TILE_KIND[tile], TILE_COLOUR[tile]
        if c < 0:
            return self.t(f"california.{form}.expansion", lang)
        return self.t(f"california.{form}.{kind}.{cal.COLOURS[c]}", lang)

    def event_key(self, game: LiveGame, event: Event) -> str:
        """A loan repaid by the game's end reads differently from one repaid by choice."""
        if event.kind == "loan_repaid" and event.params.get("automatic"):
            return "california.event.loan_repaid_auto"
        return super().event_key(game, event)

    def score_part(self, game: LiveGame, key: str, value: int) -> str:
        """Gifts and spaces are counted in the language's plural ("1 gift", "0 cadeau")."""
        if key == "loan" and value == 0:
            return ""  # no loan, nothing to say
        if key in ("gifts", "spaces"):
            return self.count(f"california.score.{key}", game.row.language, value)
        return super().score_part(game, key, value)

    def confirmation(self, game: LiveGame, applied: Applied) -> str | None:
        """A private word for the buyer only where the public line leaves something out.

        Everything in California is public, and the history line above the new board already
        says what a coin, a loan or a plain purchase did; each private answer would cost one
        more message.  What it does not say: a purchase made on a loan, and how the buyer's
        own loan was settled when their purchase ended the game.  Only the actor's events
        count: a purchase that ends the game also repays other players' loans, which is
        theirs to hear about.
        """
        lang = game.row.language
        mine = [e for e in applied.events if e.seat == applied.seat]
        bought = next((e for e in mine if e.kind == "tile_bought"), None)
        borrowed = any(e.kind == "loan_taken" for e in mine)
        if bought is None or not (borrowed or applied.finished):
            return None
        p = dict(bought.params)
        key = "california.private.bought_on_loan" if borrowed else "california.private.bought"
        tile = self.event_param(game, "tile", p.get("tile"))
        cost = self.event_param(game, "cost", p.get("cost"))
        said = self.t(key, lang, tile=tile, cost=cost, where=self.where(game, p))
        me = self.view_of(game, applied.seat)["players"][applied.seat]
        repaid = next((e for e in mine if e.kind == "loan_repaid" and e.params.get("automatic")), None)
        if repaid is not None:
            after = self.t("california.private.repaid_at_end", lang, money=repaid.params["money"])
        elif applied.finished and me["loan"]:
            after = self.t("california.private.unpaid_at_end", lang, money=me["money"])
        else:
            left = "california.private.left_with_loan" if me["loan"] else "california.private.left"
            after = self.t(left, lang, money=p.get("money"))
        return f"{said} {after}"

    def where(self, game: LiveGame, params: Mapping[str, Any]) -> str:
        target = params.get("target")
        lang = game.row.language
        if target == ATTIC:
            return self.t("california.where.attic", lang)
        if target == EXPAND:
            return self.t("california.where.expansion", lang)
        return self.t("california.where.space", lang, space=space_label(int(target or 0)))
