"""The Estates on Discord: auctions by buttons, hidden money.

Money is hidden in this game, so everything public (the status line, the log
lines, the table buttons, their labels and custom_ids) is built only from the
spectator view ``rules.view(state, None)`` and from public events: never from
``game.state`` and never from a seat's legal actions where those depend on
money (how many bids a seat could afford, whether it already stowed, whether
the auctioneer can pay).  A player learns their own money only privately:
"My checks", the bid panel, the stow confirmation and the engine's refusals.

The table message, per phase of a turn:

    choose  Stow $1 in the cash box · one button per piece on offer · My checks
    bid     Bid… (private panel: quick raises and a form) · Pass · My checks
    decide  Sell for $X · Buy for $X (always both; a buy the auctioneer cannot
            pay is refused privately by the engine) · My checks
    place   the placer's legal placements (where a piece may go is public) · My checks

Stowing is a private action: the host leaves the table untouched, and the
Stow button stays on every choose-phase table whether or not the auctioneer
already stowed (a second stow is refused privately), so nothing shows it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.presenter import Button, Control, ModalSpec, Panel, Presenter
from bot.session import Applied, LiveGame
from rules.core import Action, Event
from rules.estates import data

if TYPE_CHECKING:
    from bot.client import GameBot

View = dict[str, Any]

STOW = Action("stow")
PASS = Action("pass")
SELL = Action("sell")
BUY = Action("buy")

MAX_CONTROLS = 25
"""Discord's limit of components on one message."""
BID_FORM_MAX = 999
"""Far above anyone's money on purpose: the engine, not the form, refuses a bid one cannot pay."""
QUICK_RAISES = (0, 1, 2, 5)
"""Quick bids on the bid panel: the minimum bid plus these."""


def mark(colour: object) -> str:
    """``Bl``, ``Re``...: the colour letters the board image prints (colour-blind players)."""
    return data.COLOUR_MARKS[data.COLOURS.index(str(colour))] if colour in data.COLOURS else "?"


def cube_code(cube: dict[str, Any]) -> str:
    """``Bl5``: colour letters and number, as on the board image."""
    return f"{mark(cube.get('colour'))}{cube.get('number')}"


class EstatesPresenter(Presenter):
    game = "estates"

    def public(self, game: LiveGame) -> View:
        """The spectator view: the only source of anything shown to everyone."""
        return game.entry.rules.view(game.state, None)

    def own(self, game: LiveGame, seat: int) -> dict[str, Any]:
        """A seat's private part of its own view (money, cash box, round scores)."""
        you: dict[str, Any] = game.entry.rules.view(game.state, seat)["you"]
        return you

    def piece(self, lang: str, params: dict[str, Any]) -> str:
        """A piece in a sentence ("the blue 5", "a rooftop worth 4", "building permit 2")."""
        kind = params.get("kind")
        if kind == "cube":
            return self.t(
                "estates.piece.cube",
                lang,
                colour=params.get("colour"),
                number=params.get("number"),
                mark=mark(params.get("colour")),
            )
        if kind in ("roof", "permit", "mayor", "cancel"):
            return self.t(f"estates.piece.{kind}", lang, value=params.get("value"))
        return str(params.get("piece", "?"))

    # -- the table message -----------------------------------------------------------------------

    def status(self, game: LiveGame, view: dict[str, Any]) -> str:
        lang = game.row.language
        head = self.t(
            "estates.status.head", lang, round=view["round"], rounds=view["rounds"], turn=view["turn"]
        )
        phase = view["phase"]
        auction = view.get("auction")
        if phase == "choose":
            body = self.t("estates.status.choose", lang, player=self.player(game, view["auctioneer"]))
        elif phase in ("bid", "decide") and isinstance(auction, dict):
            piece = self.piece(lang, auction)
            if auction["high_bid"] is None:
                high = self.t("estates.status.no_bid", lang)
            else:
                high = self.t(
                    "estates.status.high_bid",
                    lang,
                    amount=auction["high_bid"],
                    player=self.player(game, auction["high_bidder"]),
                )
            key = "estates.status.bid" if phase == "bid" else "estates.status.decide"
            body = self.t(
                key,
                lang,
                auctioneer=self.player(game, auction["auctioneer"]),
                piece=piece,
                high=high,
                bidder=self.player(game, auction["to_bid"]),
                amount=auction["high_bid"],
            )
        elif phase == "place" and isinstance(auction, dict):
            body = self.t(
                "estates.status.place",
                lang,
                player=self.player(game, auction["winner"]),
                piece=self.piece(lang, auction),
            )
        else:
            body = self.t("estates.status.over", lang)
        return f"{head} · {body}"

    def controls(self, game: LiveGame) -> list[Control]:
        """Buttons everyone sees; built from the public view only (see the module docstring)."""
        lang = game.row.language
        view = self.public(game)
        phase = view["phase"]
        checks = Button(self.t("estates.button.checks", lang), ui="checks")
        auction = view.get("auction")
        if phase == "choose":
            return [*self.choose_controls(lang, view), checks]
        if phase == "bid":
            return [
                Button(self.t("estates.button.bid", lang), ui="bid", style="primary"),
                Button(self.t("estates.button.pass", lang), action=PASS),
                checks,
            ]
        if phase == "decide" and isinstance(auction, dict):
            price = auction["high_bid"]
            return [
                Button(self.t("estates.button.sell", lang, price=price), action=SELL, style="success"),
                Button(self.t("estates.button.buy", lang, price=price), action=BUY, style="primary"),
                checks,
            ]
        if phase == "place" and isinstance(auction, dict):
            return [*self.place_controls(game, view), checks]
        return []

    def choose_controls(self, lang: str, view: View) -> list[Control]:
        """Stow (always: the button must not tell whether one already stowed) and every piece on offer."""
        controls: list[Control] = [Button(self.t("estates.button.stow", lang), action=STOW, style="success")]
        for line in view["display"]:
            for cube in line:
                if cube["selectable"]:
                    controls.append(
                        Button(
                            self.t("estates.button.cube", lang, code=cube_code(cube)),
                            action=Action("pick", (str(cube["cube"]),)),
                            style="primary",
                        )
                    )
        unroofed = any(lot["cubes"] and lot["roof"] is None for row in view["rows"] for lot in row["lots"])
        if view["rooftops_left"] and unroofed:
            controls.append(Button(self.t("estates.button.roof", lang), action=Action("pick", (data.ROOF,))))
        for value in view["permits_supply"]:
            controls.append(
                Button(
                    self.t("estates.button.permit", lang, value=value),
                    action=Action("pick", (data.PERMIT_TOKEN[int(value)],)),
                )
            )
        if view["mayor"] == "supply":
            controls.append(
                Button(self.t("estates.button.mayor", lang), action=Action("pick", (data.MAYOR,)))
            )
        if view["cancel_available"]:
            controls.append(
                Button(self.t("estates.button.cancel", lang), action=Action("pick", (data.CANCEL,)))
            )
        return controls

    def place_controls(self, game: LiveGame, view: View) -> list[Control]:
        """The placer's legal placements: where a piece may go depends only on the board, so it is public.

        They always fit on one message: a row never has more buildings than its requirement, and the
        requirements add up to at most 4 + 4 + 4 + (1 + 2 + 3) = 18 lots.
        """
        winner = view["auction"]["winner"]
        actions = game.entry.rules.legal_actions(game.state, winner) if isinstance(winner, int) else []
        return [self.place_button(game, view, action) for action in actions[: MAX_CONTROLS - 1]]

    def place_button(self, game: LiveGame, view: View, action: Action) -> Button:
        lang = game.row.language
        auction = view["auction"]
        args = action.args
        if action.kind == "place" and len(args) == 2:
            row, lot = str(args[0]), int(args[1])
            entry = view["rows"][data.ROW_NAMES.index(row)]["lots"][lot - 1]
            cubes = entry["cubes"]
            where = f"{row}{lot}"
            if auction["kind"] == "roof":
                worth = int(entry.get("value") or 0) + int(auction["value"])
                label = self.t(
                    "estates.place.roof",
                    lang,
                    where=where,
                    value=auction["value"],
                    top=cube_code(cubes[-1]) if cubes else "?",
                    worth=worth,
                )
            elif cubes:
                label = self.t(
                    "estates.place.stack",
                    lang,
                    where=where,
                    cube=cube_code(auction),
                    top=cube_code(cubes[-1]),
                )
            else:
                label = self.t("estates.place.new", lang, where=where, cube=cube_code(auction))
            return Button(label, action=action, style="primary")
        if action.kind == "permit" and len(args) == 2:
            row, direction = str(args[0]), str(args[1])
            now = int(view["rows"][data.ROW_NAMES.index(row)]["requirement"])
            value = int(auction["value"])
            new = now + value if direction == data.LONGER else now - value
            label = self.t(
                "estates.place.permit",
                lang,
                row=row,
                direction=self.t(f"estates.direction.{direction}", lang),
                old=now,
                new=new,
            )
            return Button(label, action=action, style="primary")
        if action.kind == "mayor" and args:
            return Button(self.t("estates.place.mayor", lang, row=args[0]), action=action, style="primary")
        if action.kind == "cancel" and args:
            value = data.TOKEN_PERMIT.get(str(args[0]), 0)
            row = next(
                (r["name"] for r in view["rows"] if any(int(p["value"]) == value for p in r["permits"])),
                "?",
            )
            return Button(
                self.t("estates.place.cancel", lang, value=value, row=row), action=action, style="primary"
            )
        if action.kind == "discard":
            return Button(self.t("estates.button.discard", lang), action=action, style="danger")
        return Button(action.encode(), action=action)

    # -- private panels --------------------------------------------------------------------------

    async def on_ui(self, interaction: discord.Interaction, game: LiveGame, seat: int, code: str) -> Panel:
        if code == "checks":
            return self.checks_panel(game, seat)
        if code == "bid":
            return self.bid_panel(game, seat)
        return await super().on_ui(interaction, game, seat, code)

    def checks_panel(self, game: LiveGame, seat: int) -> Panel:
        """Your own money and cash box, for your eyes only, at any time."""
        lang = game.row.language
        you = self.own(game, seat)
        lines = [self.t("estates.panel.checks", lang, money=you["money"], cash_box=you["cash_box"])]
        if you["stowed_this_turn"]:
            lines.append(self.t("estates.panel.stowed_this_turn", lang))
        if you["round_scores"]:
            scores = ", ".join(
                self.t("estates.panel.round_score", lang, round=i, score=s)
                for i, s in enumerate(you["round_scores"], start=1)
            )
            lines.append(self.t("estates.panel.round_scores", lang, scores=scores))
        controls: list[Control] = []
        if STOW in game.entry.rules.legal_actions(game.state, seat):  # private panel: may depend on money
            controls.append(Button(self.t("estates.button.stow", lang), action=STOW, style="success"))
        return Panel("\n".join(lines), controls)

    def bid_panel(self, game: LiveGame, seat: int) -> Panel:
        """The bidder's private panel: minimum bid, own money, quick raises, a form and Pass."""
        lang = game.row.language
        view = self.public(game)
        auction = view.get("auction")
        if view["phase"] != "bid" or not isinstance(auction, dict):
            return Panel(self.t("estates.panel.no_auction", lang))
        if auction["to_bid"] != seat:
            return Panel(
                self.t("estates.panel.not_your_bid", lang, player=self.player(game, auction["to_bid"]))
            )
        money = int(self.own(game, seat)["money"])
        minimum = int(auction["min_bid"])
        piece = self.piece(lang, auction)
        if auction["high_bid"] is None:
            high = self.t("estates.panel.bid_none", lang)
        else:
            high = self.t(
                "estates.panel.bid_high",
                lang,
                amount=auction["high_bid"],
                player=self.player(game, auction["high_bidder"]),
            )
        text = self.t("estates.panel.bid", lang, piece=piece, high=high, min=minimum, money=money)
        if minimum > money:
            text += " " + self.t("estates.panel.bid_broke", lang)
        controls: list[Control] = [
            Button(
                self.t("estates.panel.raise", lang, amount=amount),
                action=Action("bid", (amount,)),
                style="success",
                disabled=amount > money,
                row=0,
            )
            for amount in sorted({minimum + extra for extra in QUICK_RAISES})
        ]
        controls.append(Button(self.t("estates.panel.other", lang), modal="bid", row=1))
        controls.append(Button(self.t("estates.button.pass", lang), action=PASS, row=1))
        return Panel(text, controls)

    def modal(self, game: LiveGame, kind: str) -> ModalSpec | None:
        if kind != "bid":
            return None
        lang = game.row.language
        auction = self.public(game).get("auction")
        minimum = int(auction["min_bid"]) if isinstance(auction, dict) else data.MIN_FIRST_BID
        piece = self.piece(lang, auction) if isinstance(auction, dict) else ""
        return ModalSpec(
            title=self.t("estates.form.title", lang, piece=piece),
            label=self.t("estates.form.label", lang, min=minimum),
            minimum=1,
            maximum=BID_FORM_MAX,
            placeholder=self.t("estates.form.placeholder", lang, min=minimum),
        )

    # -- events and results ----------------------------------------------------------------------

    def event_line(self, game: LiveGame, event: Event) -> str | None:
        lang = game.row.language
        kind = event.kind
        p: dict[str, Any] = dict(event.params)
        key = f"estates.event.{kind}"
        if kind == "picked" and p.get("kind") == "roof":
            key = "estates.event.picked_roof"
        if not self.catalog.has(key, lang):
            return None
        params: dict[str, Any] = {**p, "player": self.player(game, event.seat)}
        if "kind" in p:
            params["piece"] = self.piece(lang, p)
        for name in ("buyer", "bidder"):
            if isinstance(p.get(name), int):
                params[name] = self.player(game, p[name])
        if kind == "permit_placed":
            params["direction"] = self.t(f"estates.direction.{p.get('direction')}", lang)
        if kind == "round_ended":
            params["why"] = self.t(f"estates.round_end.{p.get('reason')}", lang)
            params["buildings"] = ", ".join(
                f"{self.player(game, s)} {points}" for s, points in enumerate(p.get("buildings") or [])
            )
        if kind in ("round_ended", "game_over"):
            params["winners"] = self.names(game, p.get("winners"))
        return self.t(key, lang, **params)

    def names(self, game: LiveGame, seats: object) -> str:
        found = [self.player(game, s) for s in seats if isinstance(s, int)] if isinstance(seats, list) else []
        return self.t("estates.and", game.row.language).join(found) or self.t(
            "host.nobody", game.row.language
        )

    def private_line(self, game: LiveGame, event: Event) -> str | None:
        key = f"estates.private.{event.kind}"
        if not self.catalog.has(key, game.row.language):
            return None
        return self.t(key, game.row.language, **dict(event.params))

    def confirmation(self, game: LiveGame, applied: Applied) -> str | None:
        if applied.action.kind == "bid" and applied.action.args:
            return self.t("estates.private.bid", game.row.language, amount=applied.action.args[0])
        return None

    def score_part(self, game: LiveGame, key: str, value: int) -> str:
        number = key.removeprefix("round")
        if number.isdigit():
            return self.t("estates.score.round", game.row.language, round=number, value=value)
        return super().score_part(game, key, value)


async def setup(bot: GameBot) -> None:
    bot.tables.presenters[EstatesPresenter.game] = EstatesPresenter(bot.catalog)
