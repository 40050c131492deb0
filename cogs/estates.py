"""The Estates on Discord: auctions by buttons, hidden money.

Money is hidden in this game, so everything public (the status line, the log
lines, the table buttons, their labels and custom_ids) is built only from the
spectator view ``rules.view(state, None)`` and from public events: never from
``game.state`` and never from a seat's legal actions where those depend on
money (how many bids a seat could afford, whether it already stowed, whether
the auctioneer can pay).  A player learns their own money only privately:
"My checks" (with a picture of their holdings), the bid panel and form, the
stow confirmation, "Catch me up" (``private_summary``) and the engine's refusals.

The table message, per phase of a turn (at most ``MAX_PUBLIC_CONTROLS``
buttons, leaving the host room for its own "Catch me up"):

    choose  one button per piece on offer · My checks
    bid     Bid $min, $min+1, $min+2, $min+5 (the same for everyone) · Other amount… (a private
            form from the minimum to one's own money) · Pass · My checks: the host's
            auction kit (``bot.ui.auction``), worded by ``[estates.auction]``
    decide  Sell for $X · Buy for $X… (always both) · My checks
    place   the placer's legal placements (where a piece may go is public) · My checks

Buying back is decided privately (issue 24: no control that can only be refused).  An
auctioneer who cannot pay the high bid must sell; a public "Buy for $X" that only such an
auctioneer's money makes useless would be pressed and refused again and again, and one that
appeared or vanished with that money would tell everyone what it is.  So the table always
shows "Sell for $X" (always legal for the auctioneer) and "Buy for $X…", which opens the
auctioneer's private panel: "Buy for $X" and "Sell for $X" when they can pay, else why they
must sell and "Sell for $X" alone.  The table is the same whatever the auctioneer holds.
Quick bids stay on the table, the same for everyone, for one-click bidding: one beyond the
bidder's money is refused privately with their balance ("Other amount…" and Pass are there
too), a trade-off kept on purpose, since bids cut to what the bidder can pay would reveal it.

Stowing is irreversible and private, so it lives in "My checks", behind a
confirmation: My checks -> "Stow $1 in the cash box…" -> "Yes, stow $1 million".
The public table is the same whether or not the auctioneer may stow or
already stowed; only the private panel (which may depend on money) offers
the stow, and only when the engine would take it.

Cubes are labelled "3 Gn" (number, company letters) on buttons exactly as on
the board image (``renderers.estates.cube_label``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.core.i18n import DEFAULT_LANGUAGE, words
from bot.services.sessions import LiveGame
from bot.storage import GameStatus
from bot.ui.auction import AuctionKit
from bot.ui.presenter import Button, Control, ModalSpec, Panel, Presenter
from renderers.estates import cube_label, render_holdings
from rules.core import Action, Event
from rules.estates import data
from rules.estates.pieces import token_params

if TYPE_CHECKING:
    import discord

log = logging.getLogger(__name__)

View = dict[str, Any]

STOW = Action("stow")
SELL = Action("sell")
BUY = Action("buy")

MAX_PUBLIC_CONTROLS = 24
"""Discord allows 25 components on a message; the host adds its own "Catch me up" to every table."""
BIDS = AuctionKit("estates")
"""The host's auction kit: Bid $min, +1, +2, +5, Other amount… (a form) and Pass."""
MARKS = dict(zip(data.COLOURS, data.COLOUR_MARKS, strict=True))
"""Colour key -> the letters the board image prints (colour-blind players)."""


def mark(colour: object, lang: str = DEFAULT_LANGUAGE) -> str:
    """``Bl``, ``Re``...: the colour letters the board image prints (colour-blind players), in the
    table's language (``[estates.code]``: ``Ro`` for rouge at a French table)."""
    return words(lang)(f"estates.code.{colour}") if colour in data.COLOURS else "?"


def cube_code(cube: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> str:
    """``5 Bl``: number and colour letters, exactly as the board image writes the cube."""
    return cube_label(cube.get("number"), mark(cube.get("colour"), lang))


class EstatesPresenter(Presenter):
    game = "estates"
    colour_marks = MARKS

    def own(self, game: LiveGame, seat: int) -> dict[str, Any]:
        """A seat's private part of its own view (money, cash box, round scores)."""
        you: dict[str, Any] = self.view_of(game, seat)["you"]
        return you

    def piece(self, lang: str, params: dict[str, Any]) -> str:
        """A piece in a sentence ("the blue 5 (5 Bl)", "a rooftop worth 4", "building permit 2").

        A cube also carries its code as the image and the buttons write it, so a player who cannot
        tell the colours apart can still match the words to the board.  A rooftop known only by its
        token (its value is drawn when it is picked) is "a rooftop".
        """
        kind = params.get("kind")
        if kind == "cube":
            return self.t(
                "estates.piece.cube",
                lang,
                colour=self.colour(lang, params.get("colour")),
                number=params.get("number"),
                mark=mark(params.get("colour"), lang),
                code=cube_code(params, lang),
            )
        if kind == "roof" and params.get("value") is None:
            return self.t("estates.piece.any_roof", lang)
        if kind in ("roof", "permit", "mayor", "cancel"):
            return self.t(f"estates.piece.{kind}", lang, value=params.get("value"))
        return self.t("estates.piece.unknown", lang)

    def colour(self, lang: str, colour: object) -> str:
        """A company colour key ("green") as the table's language names it ("vert")."""
        return self.t(f"estates.colour.{colour}", lang) if colour in data.COLOURS else "?"

    def event_param(self, game: LiveGame, key: str, value: Any) -> Any:
        """The host's naming, plus The Estates' tokens: a ``piece`` token ("blue5", "permit2") in
        words, as events name their pieces, and a ``colour`` key as the colour's name.  Refusals
        (``Presenter.illegal``) pass their params here too, so a refused piece reads as the log
        names it.  Anything else that is not a token (a piece already in words) is left alone."""
        lang = game.row.language
        if key == "piece" and isinstance(value, str) and token_params(value)["kind"] != "unknown":
            return self.piece(lang, token_params(value))
        if key == "colour" and isinstance(value, str):
            return self.colour(lang, value)
        if key == "company" and value in data.COMPANIES:
            return self.t(f"estates.company.{data.COLOURS[data.COMPANIES.index(value)]}", lang)
        return super().event_param(game, key, value)

    # -- the table message -----------------------------------------------------------------------

    def status(self, game: LiveGame, view: dict[str, Any]) -> str:
        lang = game.row.language
        head = self.t(
            "estates.status.head",
            lang,
            round=self.number(game, int(view["round"])),
            rounds=self.number(game, int(view["rounds"])),
            turn=self.number(game, int(view["turn"])),
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
                    amount=self.number(game, int(auction["high_bid"])),
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

    def standing(self, game: LiveGame, view: dict[str, Any], seat: int) -> str:
        """The score a seat would have now and its certificates: never its money, which is secret."""
        scores = view.get("score_now") or []
        certificates = view.get("certificates_by_owner") or []
        if not 0 <= seat < len(scores):
            return super().standing(game, view, seat)
        lang = game.row.language
        held = certificates[seat] if seat < len(certificates) else []
        return self.t(
            "estates.alt.seat",
            lang,
            player=self.player(game, seat),
            points=self.count("estates.points", lang, int(scores[seat])),
            certificates=self.phrase(game, [self.colour(lang, c) for c in held])
            if held
            else self.t("host.nobody", lang),
        )

    def controls(self, game: LiveGame) -> list[Control]:
        """Buttons everyone sees; built from the public view only (see the module docstring)."""
        lang = game.row.language
        view = self.public(game)
        phase = view["phase"]
        checks = Button(self.t("estates.button.checks", lang), ui="checks")
        auction = view.get("auction")
        if phase == "choose":
            return [*self.choose_controls(lang, view), checks]
        if phase == "bid" and isinstance(auction, dict):
            return [*self.bid_controls(game, auction), dataclasses.replace(checks, row=1)]
        if phase == "decide" and isinstance(auction, dict):
            price = self.number(game, int(auction["high_bid"]))
            return [
                Button(self.t("estates.button.sell", lang, price=price), action=SELL, style="success"),
                Button(self.t("estates.button.buy_ask", lang, price=price), ui="decide", style="primary"),
                checks,
            ]
        if phase == "place" and isinstance(auction, dict):
            return [*self.place_controls(game, view), checks]
        return []

    def choose_controls(self, lang: str, view: View) -> list[Control]:
        """Every piece on offer.  No stow here: it is in "My checks", behind a confirmation."""
        controls: list[Control] = []
        for line in view["display"]:
            for cube in line:
                if cube["selectable"]:
                    controls.append(
                        Button(
                            self.t("estates.button.cube", lang, code=cube_code(cube, lang)),
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

        They always fit with "My checks" and the host's "Catch me up": a row never has more buildings
        than its requirement, and the requirements add up to at most 4 + 4 + 4 + (1 + 2 + 3) = 18
        lots, so there are at most 18 places (a permit: 6 and Discard).
        """
        winner = view["auction"]["winner"]
        actions = game.entry.rules.legal_actions(game.state, winner) if isinstance(winner, int) else []
        return [self.place_button(game, view, action) for action in actions[: MAX_PUBLIC_CONTROLS - 1]]

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
                    top=cube_code(cubes[-1], lang) if cubes else "?",
                    worth=worth,
                )
            elif cubes:
                label = self.t(
                    "estates.place.stack",
                    lang,
                    where=where,
                    cube=cube_code(auction, lang),
                    top=cube_code(cubes[-1], lang),
                )
            else:
                label = self.t("estates.place.new", lang, where=where, cube=cube_code(auction, lang))
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
            return await self.checks_panel(game, seat)
        if code == "stow":
            return self.stow_panel(game, seat)
        if code == "bid":
            return self.bid_panel(game, seat)
        if code == "decide":
            return self.decide_panel(game, seat)
        return await super().on_ui(interaction, game, seat, code)

    def decide_panel(self, game: LiveGame, seat: int) -> Panel:
        """The auctioneer's private choice: buy (only when they can pay) or sell; anyone else reads
        whose decision it is.  Private, so it may depend on the auctioneer's money."""
        lang = game.row.language
        view = self.public(game)
        auction = view.get("auction")
        if view["phase"] != "decide" or not isinstance(auction, dict):
            return Panel(self.t("estates.panel.no_decision", lang))
        if auction["auctioneer"] != seat:
            return Panel(
                self.t(
                    "estates.panel.not_your_decision", lang, player=self.player(game, auction["auctioneer"])
                )
            )
        price = int(auction["high_bid"])
        words = {
            "piece": self.piece(lang, auction),
            "price": self.number(game, price),
            "bidder": self.player(game, auction["high_bidder"]),
            "money": self.number(game, int(self.own(game, seat)["money"])),
        }
        sell = Button(self.t("estates.button.sell", lang, price=words["price"]), action=SELL, style="success")
        if BUY not in game.entry.rules.legal_actions(game.state, seat):
            return Panel(self.t("estates.panel.must_sell", lang, **words), [sell])
        buy = Button(self.t("estates.button.buy", lang, price=words["price"]), action=BUY, style="primary")
        return Panel(self.t("estates.panel.decide", lang, **words), [buy, sell])

    def panel_for(self, game: LiveGame, seat: int, action: Action) -> Panel | None:
        """A stale Buy or Sell on the auctioneer's private panel: the decision as it stands now."""
        if action in (BUY, SELL):
            return self.decide_panel(game, seat)
        return None

    def purse_line(self, game: LiveGame, you: dict[str, Any]) -> str:
        lang = game.row.language
        return self.t(
            "estates.panel.checks",
            lang,
            money=self.number(game, int(you["money"])),
            cash_box=self.number(game, int(you["cash_box"])),
            points=self.count("estates.points", lang, int(you["cash_box"]) * data.CASH_BOX_POINTS),
        )

    def round_lines(self, game: LiveGame, you: dict[str, Any]) -> list[str]:
        """One line with the seat's own score of every finished round (private: cash box included).

        Compact on purpose: each round's full private summary is the ``round_score`` event, which
        "Catch me up" replays to its seat; this line is where the seat stands over the match.
        """
        lang = game.row.language
        results = you.get("round_results") or []
        if not results:
            return []
        scores = ", ".join(
            self.t(
                "estates.panel.round_score",
                lang,
                round=self.number(game, int(entry["round"])),
                score=self.number(game, int(entry["score"])),
            )
            for entry in results
        )
        return [self.t("estates.panel.round_scores", lang, scores=scores)]

    async def checks_panel(self, game: LiveGame, seat: int) -> Panel:
        """Your own money, cash box and holdings (with a picture), for your eyes only, at any time.

        The stow is offered here, and only when the engine would take it: this panel is private, so it
        may depend on money and on whether you already stowed.  The picture is drawn off the event
        loop; if it fails, the panel still answers without it.
        """
        lang = game.row.language
        you = self.own(game, seat)
        lines = [self.purse_line(game, you)]
        if you["stowed_this_turn"]:
            lines.append(self.t("estates.panel.stowed_this_turn", lang))
        lines.extend(self.round_lines(game, you))
        controls: list[Control] = []
        if STOW in game.entry.rules.legal_actions(game.state, seat):
            lines.append(self.t("estates.panel.stow_offer", lang))
            controls.append(Button(self.t("estates.button.stow", lang), ui="stow"))
        view = self.view_of(game, seat)
        try:
            words = self.catalog.words(lang)
            image: bytes | None = await asyncio.to_thread(
                render_holdings, view, list(game.names), seat, words
            )
        except Exception:
            log.exception("game %s: the holdings picture could not be drawn", game.id)
            image = None
        return Panel("\n".join(lines), controls, image=image)

    def stow_panel(self, game: LiveGame, seat: int) -> Panel:
        """The confirmation before an irreversible stow, or why one cannot stow now (private)."""
        lang = game.row.language
        back = Button(self.t("estates.button.back", lang), ui="checks")
        if STOW not in game.entry.rules.legal_actions(game.state, seat):
            view = self.public(game)
            you = self.own(game, seat)
            if view["phase"] != "choose" or view["auctioneer"] != seat:
                reason = "estates.panel.stow_not_now"
            elif you["stowed_this_turn"]:
                reason = "estates.panel.stowed_this_turn"
            else:
                reason = "estates.panel.stow_broke"
            return Panel(self.t(reason, lang), [back])
        confirm = Button(self.t("estates.button.stow_confirm", lang), action=STOW, style="danger")
        return Panel(self.t("estates.panel.stow_confirm", lang), [confirm, back])

    def bid_controls(self, game: LiveGame, auction: dict[str, Any]) -> list[Control]:
        """Quick bids right on the table, a form for any other amount, and Pass (the host's kit).

        The amounts follow the minimum bid, which is public; they are offered to everyone
        alike (never shortened to what the bidder can pay), so they reveal nothing, and a
        bid beyond one's money is refused privately by the engine.  On the table, a bid is
        one click and one message instead of a private panel first.
        """
        return BIDS.controls(self, game, int(auction["min_bid"]))

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
                amount=self.number(game, int(auction["high_bid"])),
                player=self.player(game, auction["high_bidder"]),
            )
        text = self.t(
            "estates.panel.bid",
            lang,
            piece=piece,
            high=high,
            min=self.number(game, minimum),
            money=self.number(game, money),
        )
        if minimum > money:
            text += " " + self.t("estates.panel.bid_broke", lang)
        return Panel(text, BIDS.controls(self, game, minimum, money=money))

    def modal(self, game: LiveGame, kind: str, seat: int | None = None) -> ModalSpec | None:
        """The bid form: from the minimum bid up to the clicking bidder's money in hand.

        The form is private, so its bounds may use the bidder's money.  Without ``seat`` (a host that
        does not say who clicked), or for a seat that is not bidding now, the upper bound is all the
        money in the game, which tells nobody anything (see :meth:`bot.ui.auction.AuctionKit.form`).
        """
        if not BIDS.is_form(kind):
            return None
        lang = game.row.language
        auction = self.public(game).get("auction")
        money = None
        if seat is not None and isinstance(auction, dict) and auction.get("to_bid") == seat:
            money = int(self.own(game, seat)["money"])
        return BIDS.form(
            self,
            game,
            lot=self.piece(lang, auction) if isinstance(auction, dict) else "",
            minimum=int(auction["min_bid"]) if isinstance(auction, dict) else data.MIN_FIRST_BID,
            money=money,
            ceiling=data.START_MONEY * len(game.seats),
        )

    def private_summary(self, game: LiveGame, seat: int) -> list[str]:
        """What only ``seat`` knows, for "Catch me up": money, cash box, its round scores so far.

        Built from ``view(state, seat)`` alone, so it says what "My checks" says and nothing about
        anyone else.  (Each round's detailed private summary is the seat's ``round_score`` event.)
        """
        if not 0 <= seat < len(game.seats):
            return []
        lang = game.row.language
        you = self.own(game, seat)
        lines = [self.purse_line(game, you)]
        if you["stowed_this_turn"]:
            lines.append(self.t("estates.panel.stowed_this_turn", lang))
        elif game.status == GameStatus.ACTIVE and STOW in game.entry.rules.legal_actions(game.state, seat):
            lines.append(self.t("estates.panel.stow_offer", lang))
        lines.extend(self.round_lines(game, you))
        return lines

    # -- events and results ----------------------------------------------------------------------

    def lines(self, game: LiveGame, events: Sequence[Event]) -> list[str]:
        """Public log lines; the match's winner is named once, by the host's final standings.

        So the last round's end is told without its winner when the match ends with it, and
        ``game_over`` has no line of its own (the host's "Final standings" follow right after).
        """
        final = any(event.kind == "game_over" for event in events)
        out: list[str] = []
        for event in events:
            if event.visible_to is not None:
                continue
            line = self.event_line(game, event, final=final and event.kind == "round_ended")
            if line:
                out.append(line)
        return out

    def event_line(self, game: LiveGame, event: Event, *, final: bool = False) -> str | None:
        """One public event in words; ``final`` phrases a round end that also ends the match.

        ``game_over`` gets no line: the host's standings name the winner (once).
        """
        if event.kind == "game_over":
            return None
        final = final and event.kind == "round_ended"
        key = "estates.event.round_ended_final" if final else self.event_key(game, event)
        if not self.catalog.has(key, game.row.language):
            return None
        return self.t(key, game.row.language, **self.event_params(game, event))

    def event_key(self, game: LiveGame, event: Event) -> str:
        """A rooftop's auction has its own line: the random rooftop shows its value once picked."""
        if event.kind == "picked" and event.params.get("kind") == "roof":
            return "estates.event.picked_roof"
        return super().event_key(game, event)

    def event_params(self, game: LiveGame, event: Event) -> dict[str, Any]:
        """The host's params (seats named, ``reason`` as ``why``) plus what only The Estates has:
        the piece in words, a permit's direction, and each seat's building points of a round."""
        lang = game.row.language
        p: dict[str, Any] = dict(event.params)
        params = super().event_params(game, event)
        if "kind" in p:
            params["piece"] = self.piece(lang, p)
        if "direction" in p:
            params["direction"] = self.t(f"estates.direction.{p['direction']}", lang)
        if isinstance(p.get("buildings"), list):  # public: one figure per seat (private: one's own)
            params["buildings"] = ", ".join(
                f"{self.player(game, s)} {self.number(game, points)}"
                for s, points in enumerate(p["buildings"])
            )
        return params

    def score_part(self, game: LiveGame, key: str, value: int) -> str:
        number = key.removeprefix("round")
        if number.isdigit():
            return self.t("estates.score.round", game.row.language, round=number, value=value)
        if key == "round_wins":
            return self.count("estates.score.round_wins", game.row.language, value)
        return super().score_part(game, key, value)
