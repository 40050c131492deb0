"""Monopoly California Dreaming on Discord: turns on the table, holdings and deals in private panels.

All money and holdings are public in Monopoly (deeds lie face up, cash is counted in the open), so
the table may show anyone's cash, and public buttons may follow the legal actions of the seats
the game waits for.  What stays hidden: the order of both decks (never in a view or an event) and
a seat's deal draft until it is sent, which only its own panels and "Catch me up" read, from
``view(state, seat)``.

The table message (rows; the host pages it beyond five):

    row 0   the moment's moves: Roll · Pay $50 · Use <card> (Pool Party) | Buy for $X · Auction it |
            End turn | the opening Roll | "Claim a house: <site>" · No claim (a shortage) |
            "Keep <site> mortgaged ($10)" · "Repay <site> ($110)" (mortgaged property received) |
            "Collect $X rent: <site>" (rent=ask) — or, during an auction, the host's auction kit
            (``bot.ui.auction``: Bid $m, +1, +2, +5 on row 0; Other amount… and Pass on row 1),
            only the bids the bidder on turn can pay (cash is public; no bid that can only be refused);
            in an open auction (``auction=open``) the kit acts for whoever presses it, so only the
            bids some waited bidder can pay are drawn, and the high bidder who presses reads why not
    row 1   My properties · Propose a deal · Raise $X… (only while someone is in debt)
    row 2+  one row per open offer: Accept #n · Reject #n · Counter #n… · Withdraw #n

Private panels (``Button(ui=...)``):

    props       holdings by colour group with rent, buildings and mortgages, and one button per
                building, sale, mortgage and repayment open now, each with its price; stays open
                after each step (:meth:`MonopolyPresenter.next_panel`), paged by the host
    debt        what is owed and to whom, the cash in hand, the amount still to raise and exactly
                the sales and mortgages open (each with what it brings); Propose a deal; "Declare
                bankruptcy…" only when the engine allows it (nothing else would cover the debt),
                behind a confirmation (``bankrupt``)
    deal        whom the deal is for, then the draft: a select per side toggling one property at a
                time (the engine's ``give``/``want`` are toggles), the two cash forms, get-out card
                toggles, Send, Drop, Done
    offer.<n>   one offer, with Counter (which opens the draft back) for its recipient

Deals are drawn by the host's offers kit (``bot.ui.offers``, :data:`DEALS`): the whom panel, the
draft's skeleton, the offer rows on the table and each offer's panel; this cog says only how a
side reads, which deeds and cards may go on it, and that Monopoly draws only legal moves.

Every public event has one line (``[monopoly.event]``); a payment that follows its cause (rent,
tax, a card) is folded into the cause's line: "Bob lands on Napa Valley (Ana): pays $100 rent."
Passes in a row (an auction's clock passing for everyone still in) read as one: "Bo and Cy pass."

An open auction's status says when its clock runs out, as a Discord timestamp every reader sees in
their own language and time zone.  That moment is the host's, not the engine's: the timeouts of
the waits (``bot.services.deadlines``), read before each draw by :meth:`MonopolyPresenter.prepare`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Self

import renderers.monopoly
from bot.core.i18n import Catalog
from bot.services.sessions import Applied, LiveGame, SessionService
from bot.storage import GameStatus, StoreError
from bot.ui.auction import AuctionKit
from bot.ui.offers import Draft, OfferKit
from bot.ui.presenter import Button, Choice, Control, ModalSpec, Panel, Presenter, PresenterHost, Style
from renderers.monopoly import GROUPS, board_space, space_name
from rules.core import Action, Event
from rules.monopoly import data

if TYPE_CHECKING:
    import discord

View = dict[str, Any]

BIDS = AuctionKit("monopoly.bids")
"""The host's auction kit for property and shortage auctions: quick bids, a form and Pass.

Worded by ``[monopoly.bids.auction]`` (dollars); the host's kit test keeps ``[monopoly.auction]``
absent on purpose, so the game's own words live one level down."""

DEALS = OfferKit(
    "monopoly", max_rows=6, steps=frozenset({"givec", "wantc"}), pay="cash", money="monopoly.money"
)
"""The host's offers kit for deals: six offer rows at most (one per proposer, so every seat's; the host
pages the table), get-out card toggles as the game's own draft steps, ``cash`` / ``ask`` forms in
dollars."""

BANK = -1
"""The bank in ``to_seats`` params (``rules.monopoly.state.BANK``)."""

TURN_KINDS = ("roll", "fine", "card", "buy", "decline", "end")
"""Moves of the player on turn (and the opening rolls), drawn on row 0 in this order."""
HOLDING_KINDS = frozenset({"build", "sell", "mort", "unmort"})
"""Any-time moves on one's own property: the "My properties" (or debt) panel."""

MERGED = {
    ("rolled", "moved"): "rolled_moved",
    ("rent_due", "paid"): "rent_paid",
    ("rent_collected", "paid"): "rent_collected_paid",
    ("tax", "paid"): "tax_paid",
    ("card_drawn", "paid"): "card_paid",
    ("card_drawn", "collected"): "card_collected",
}
"""Two events of one seat told as one line: the payment right after its cause."""


WHY_KEYS = {"auction_started": "auction_reason", "lapsed": "lapse", "game_over": "end"}
"""Events whose ``reason`` is not a payment's: phrased from their own table, not ``[monopoly.reason]``."""


BUILDINGS = ("house", "hotel")
"""What a building request, claim or shortage is for; each has its own sentences, so French
agrees with the noun ("une maison", "un hôtel") instead of slotting a word into one sentence."""
BUILDING_KINDS = frozenset({"built", "sold_building", "shortage", "claimed", "shortage_closed"})
"""Events about one kind of building, worded by ``<kind>_house`` / ``<kind>_hotel``."""


def building(item: object) -> str:
    """``house`` or ``hotel``: a building param, read as a house if it is anything else."""
    return "hotel" if item == "hotel" else "house"


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class MonopolyPresenter(Presenter):
    game = "monopoly"
    colour_marks: ClassVar[Mapping[str, str]] = MappingProxyType(
        {key: code for key, (code, _) in GROUPS.items()}
    )
    """The group codes the board image prints (colour-blind players match a label to the picture)."""
    seat_params = Presenter.seat_params | {"outbid"}
    seat_list_params = Presenter.seat_list_params | {"bidders", "asked"}

    def __init__(self, catalog: Catalog, sessions: SessionService | None = None) -> None:
        super().__init__(catalog)
        self.sessions = sessions
        self.clock_ends: dict[int, tuple[int, float | None]] = {}
        """Per game, the public version and the moment its auction clock next runs out, read by
        :meth:`prepare` before the table is drawn (``None``: no timeout stored)."""

    @classmethod
    def for_host(cls, host: PresenterHost, /) -> Self:
        """Also hands the tables :meth:`prepare`, so the auction clock is read before each board."""
        presenter = cls(host.catalog, host.sessions)
        host.publisher.host_prepares.append(presenter.prepare)
        return presenter

    async def prepare(self, game: LiveGame) -> None:
        """Read when a running auction clock runs out (the earliest timeout of the seats waited on),
        for :meth:`status`, which is drawn synchronously.  Never raises: without it the status
        says how long the clock runs instead of when it ends."""
        if game.row.game != self.game:
            return
        if self.sessions is None or game.state is None or game.status != GameStatus.ACTIVE:
            self.clock_ends.pop(game.id, None)
            return
        if game.entry.rules.game_clock(game.state) is None:
            self.clock_ends.pop(game.id, None)
            return
        try:
            ends = await self.sessions.timer_ends(game)
        except StoreError:
            self.clock_ends.pop(game.id, None)
            return
        self.clock_ends[game.id] = (game.public_version, ends)

    def clock_end(self, game: LiveGame) -> float | None:
        """When the auction clock runs out, if :meth:`prepare` read it for this version."""
        known = self.clock_ends.get(game.id)
        return known[1] if known is not None and known[0] == game.public_version else None

    # -- words -----------------------------------------------------------------------------------

    def score(self, game: LiveGame, value: int) -> str:
        """Final standings are net worth, so they read as money."""
        return self.money(game, value)

    def score_part(self, game: LiveGame, key: str, value: int) -> str:
        if key == "cash":
            return self.t("monopoly.score.cash", game.row.language, value=self.money(game, value))
        return super().score_part(game, key, value)

    def money(self, game: LiveGame, amount: object) -> str:
        """``$1,500``: every amount of the game, formatted by the host's :meth:`number`."""
        value = _int(amount)
        return self.t("monopoly.money", game.row.language, amount=self.number(game, value or 0))

    def place(self, game: LiveGame, pos: object) -> str:
        """A space's name in the table's language, as the board prints it: a site by its place
        name (``rules.monopoly.data``), any other space in words (``[monopoly.space]``)."""
        value = _int(pos)
        if value is None or not 0 <= value < data.SPACES:
            return "?"
        return space_name(self.catalog.words(game.row.language), board_space(value))

    def group(self, game: LiveGame, key: str) -> str:
        """A colour group in words with the letters the board prints on it: "Red [Rd]"."""
        name = self.t(f"monopoly.group.{key}", game.row.language)
        return f"{name} [{self.mark(key)}]" if key in self.colour_marks else name

    def card_name(self, game: LiveGame, deck: object) -> str:
        """A get-out card by its deck ("Your Float Popped", "Party Canceled")."""
        return self.t(f"monopoly.getout.{deck}", game.row.language)

    def seats_or_bank(self, game: LiveGame, seats: object) -> str:
        """Creditors: players by name; ``-1``, or no seat at all (a debt's ``to_seats``), is the bank."""
        lang = game.row.language
        values = list(seats) if isinstance(seats, list | tuple) else []
        if all(_int(s) == BANK for s in values):
            return self.t("monopoly.bank", lang)
        return self.names(game, [s for s in values if _int(s) != BANK])

    def side(self, game: LiveGame, terms: Mapping[str, Any]) -> str:
        """One side of a deal: "Route 66, Your Float Popped, $200", or "nothing"."""
        parts = [self.place(game, p) for p in terms.get("spaces", [])]
        parts += [self.card_name(game, d) for d in terms.get("cards", [])]
        if terms.get("cash"):
            parts.append(self.money(game, terms["cash"]))
        return ", ".join(parts) or self.t("monopoly.nothing", game.row.language)

    def terms(self, game: LiveGame, offer: Mapping[str, Any]) -> str:
        return self.t(
            "monopoly.terms",
            game.row.language,
            give=self.side(game, offer.get("give") or {}),
            want=self.side(game, offer.get("want") or {}),
        )

    def lot(self, game: LiveGame, item: str, space: object) -> str:
        """What an auction sells: the property's name, or "a house" / "a hotel" (a shortage)."""
        if item == "property":
            return self.place(game, space)
        return self.t(f"monopoly.lot.{item}", game.row.language)

    def level_words(self, game: LiveGame, level: int) -> str:
        """What stands on a site: "a hotel", "3 houses", "no buildings"."""
        lang = game.row.language
        if level >= data.HOTEL:
            return self.t("monopoly.hotel", lang)
        if level <= 0:
            return self.t("monopoly.unbuilt", lang)
        return self.count("monopoly.houses", lang, level)

    # -- events ----------------------------------------------------------------------------------

    def event_param(self, game: LiveGame, key: str, value: Any) -> Any:
        """Seats named (the bank too), spaces by name, dice as "3 + 4", amounts as ``$1,500``; a
        refusal's colour ``group`` ("Red [Rd]") and building ``lot`` ("a house") in words."""
        lang = game.row.language
        if key == "to_seats":
            return self.seats_or_bank(game, value)
        if key in ("space", "from", "to"):
            return self.place(game, value)
        if key == "spaces":
            names = [self.place(game, p) for p in value] if isinstance(value, list) else []
            return ", ".join(names) or self.t("monopoly.nothing", lang)
        if key == "dice" and isinstance(value, list):
            return " + ".join(str(d) for d in value)
        if key in ("amount", "price", "owed", "cash", "value", "cost", "refund"):
            return self.money(game, value)
        if key == "card" and isinstance(value, str):
            return self.t(f"monopoly.card.{value}", lang)
        if key == "deck" and isinstance(value, str):
            return self.t(f"monopoly.deck.{value}", lang)
        if key == "cards" and isinstance(value, list):
            return ", ".join(self.card_name(game, d) for d in value) or self.t("monopoly.nothing", lang)
        if key in ("give", "want") and isinstance(value, dict):
            return self.side(game, value)
        if key in ("how", "why") and isinstance(value, str):
            return self.t(f"monopoly.{key}.{value}", lang)
        if key == "lot" and isinstance(value, str):
            return self.lot(game, value, None)
        if key == "group" and isinstance(value, str):
            return self.group(game, value)
        return super().event_param(game, key, value)

    def event_params(self, game: LiveGame, event: Event) -> dict[str, Any]:
        """The host's params plus a deal's ``terms``, a building's ``now`` and an auction's ``lot``."""
        p = event.params
        params = super().event_params(game, event)
        if isinstance(p.get("give"), dict) and isinstance(p.get("want"), dict):
            params["terms"] = self.terms(game, p)
        level = _int(p.get("level"))
        if level is not None:
            params["now"] = self.level_words(game, level)
        spaces, levels = p.get("spaces"), p.get("levels")
        if isinstance(spaces, list) and isinstance(levels, list):
            # A hotel sold down with its group (the bank short of houses): what stands on each site.
            params["group_now"] = self.phrase(
                game,
                [
                    self.t(
                        "monopoly.site_now",
                        game.row.language,
                        space=self.place(game, s),
                        now=self.level_words(game, int(lv)),
                    )
                    for s, lv in zip(spaces, levels, strict=True)
                ],
            )
        if isinstance(p.get("item"), str):
            params["lot"] = self.lot(game, p["item"], p.get("space"))
        why = WHY_KEYS.get(event.kind)
        if why is not None and isinstance(p.get("reason"), str):
            params["why"] = self.t(f"monopoly.{why}.{p['reason']}", game.row.language)
        if event.kind == "bankrupt":
            what = [self.money(game, p["cash"])] if _int(p.get("cash")) else []
            what += [self.place(game, pos) for pos in p.get("spaces") or []]
            what += [self.card_name(game, deck) for deck in p.get("cards") or []]
            params["what"] = self.phrase(game, what)
        if event.kind == "in_debt":
            params["short"] = self.money(game, max(0, int(p.get("owed", 0)) - int(p.get("cash", 0))))
        return params

    def event_key(self, game: LiveGame, event: Event) -> str:
        """Variants: a move by a card, a rent for a mortgaged airport... only where the words differ."""
        if event.kind == "moved" and event.params.get("how") == "card":
            return "monopoly.event.moved_card"
        if event.kind == "rolled" and event.params.get("doubles") is True:
            return "monopoly.event.rolled_doubles"
        if event.kind == "auction_won" and event.params.get("item") != "property":
            return "monopoly.event.auction_won_building"
        if event.kind == "auction_started" and event.params.get("mode") == data.OPEN:
            timed = bool(_int(event.params.get("hours")))
            return "monopoly.event.auction_started_open" + ("" if timed else "_unclocked")
        if event.kind == "bid" and _int(event.params.get("outbid")) is not None and self.open_mode(game):
            return "monopoly.event.bid_outbid"
        if event.kind == "sold_building" and (_int(event.params.get("sold")) or 1) > 1:
            return "monopoly.event.sold_building_group"
        if event.kind in BUILDING_KINDS and event.params.get("item") in BUILDINGS:
            return f"monopoly.event.{event.kind}_{event.params['item']}"
        if event.kind == "bankrupt" and not (
            _int(event.params.get("cash")) or event.params.get("spaces") or event.params.get("cards")
        ):
            return "monopoly.event.bankrupt_empty"
        return super().event_key(game, event)

    def carries_turn(self, game: LiveGame, events: Sequence[Event]) -> bool:
        """An open auction pings each bidder who is outbid, each time: its bids gather in the
        turn's one message instead of one message per ping, and the player on turn, pinged when
        it closes, finds the whole auction in the message that asks them to go on."""
        auction = game.state.auction if game.state is not None else None
        if auction is not None:
            return bool(auction.mode == data.OPEN)
        return self.open_mode(game) and any(e.kind in ("auction_won", "auction_unsold") for e in events)

    def open_mode(self, game: LiveGame) -> bool:
        """Whether the game's auctions are open: the running auction's mode, else the table's
        option (a round-robin table reads as it always did: "Bob bids $20.")."""
        auction = self.public(game).get("auction") if game.state is not None else None
        if isinstance(auction, dict) and "mode" in auction:
            return bool(auction["mode"] == data.OPEN)
        return bool(game.row.options.get("auction", data.ROUND) == data.OPEN)

    def paired(self, game: LiveGame, event: Event, following: Event) -> str | None:
        """A payment folded into the line of what caused it (:data:`MERGED`); a roll says doubles."""
        merged = MERGED.get((event.kind, following.kind))
        if merged is None:
            return None
        return (
            f"monopoly.event.{merged}_doubles"
            if event.params.get("doubles") is True
            else f"monopoly.event.{merged}"
        )

    def pair_params(self, game: LiveGame, event: Event, following: Event) -> dict[str, Any]:
        """Both events' placeholders, ``player`` always the first event's seat."""
        return {**super().pair_params(game, event, following), "player": self.player(game, event.seat)}

    def lines(self, game: LiveGame, events: Sequence[Event]) -> list[str]:
        """Public lines, with a payment folded into the line of what caused it (:data:`MERGED`)."""
        public = [e for e in events if e.visible_to is None]
        out: list[str] = []
        index = 0
        while index < len(public):
            event = public[index]
            merged = self.pair_line(game, public, index)
            if merged is not None:
                out.append(merged)
                index += 2
                continue
            if event.kind == "passed":
                run = 1
                while index + run < len(public) and public[index + run].kind == "passed":
                    run += 1
                if run > 1:
                    seats = sorted({e.seat for e in public[index : index + run] if e.seat is not None})
                    out.append(
                        self.t(
                            "monopoly.event.passed_many", game.row.language, players=self.names(game, seats)
                        )
                    )
                    index += run
                    continue
            line = self.event_line(game, event)
            if line:
                out.append(line)
            index += 1
        return out

    # -- the table message -----------------------------------------------------------------------

    def status(self, game: LiveGame, view: dict[str, Any]) -> str:
        """What the game waits for, in one line, then everyone's cash (public in Monopoly)."""
        lang = game.row.language
        auction, shortage = view.get("auction"), view.get("shortage")
        turn = _int(view.get("turn")) or 0
        if view["phase"] == "over":
            return self.t("monopoly.status.over", lang)
        if view["phase"] == "opening":
            head = self.t(
                "monopoly.status.opening", lang, players=self.names(game, view["opening"]["rolling"])
            )
        elif isinstance(auction, dict) and auction.get("mode") == data.OPEN:
            head = self.open_auction_status(game, auction)
        elif isinstance(auction, dict):
            lot = self.lot(game, auction["item"], auction["space"])
            high = (
                self.t(
                    "monopoly.status.high",
                    lang,
                    amount=self.money(game, auction["high"]),
                    player=self.player(game, auction["high_bidder"]),
                )
                if auction["high_bidder"] is not None
                else self.t("monopoly.status.no_bid", lang)
            )
            head = self.t(
                "monopoly.status.auction", lang, lot=lot, high=high, player=self.player(game, auction["turn"])
            )
        elif isinstance(shortage, dict):
            head = self.t(
                f"monopoly.status.shortage_{building(shortage['item'])}",
                lang,
                supply=self.number(game, int(shortage["supply"])),
                players=self.names(game, shortage["asked"]),
            )
        elif view["debts"]:
            debts = view["debts"]
            head = " ".join(
                self.t(
                    "monopoly.status.debt",
                    lang,
                    player=self.player(game, d["debtor"]),
                    owed=self.money(game, d["total"]),
                    to=self.seats_or_bank(game, d["to_seats"]),
                )
                for d in debts
            )
        elif view["fees"]:
            head = self.t(
                "monopoly.status.fees",
                lang,
                players=self.names(game, sorted({f["seat"] for f in view["fees"]})),
            )
        else:
            seat = view["seats"][turn]
            where = self.place(game, seat["position"])
            if seat["pool"] is not None:
                where = self.count("monopoly.status.in_pool", lang, int(seat["pool"]))
            key = {"roll": "roll", "buy": "buy", "end": "end"}.get(view["phase"], "roll")
            head = self.t(
                f"monopoly.status.{key}",
                lang,
                player=self.player(game, turn),
                where=where,
                price=self.money(game, view["spaces"][seat["position"]]["price"]),
            )
        for claim in view["claims"]:
            head += " " + self.t(
                "monopoly.status.claim",
                lang,
                owner=self.player(game, claim["owner"]),
                amount=self.money(game, claim["amount"]),
                player=self.player(game, claim["payer"]),
                space=self.place(game, claim["space"]),
            )
        if view["offers"]:
            head += " " + self.t("monopoly.status.offers", lang, count=len(view["offers"]))
        cash = " · ".join(
            self.t(
                "monopoly.status.cash" if s["alive"] else "monopoly.status.out",
                lang,
                player=self.player(game, s["seat"]),
                cash=self.money(game, s["cash"]),
            )
            for s in view["seats"]
        )
        return f"{head}\n{cash}"

    def open_auction_status(self, game: LiveGame, auction: View) -> str:
        """The lot, the high bid and who holds it, who may still bid, who passed, and when the clock
        runs out (``<t:…:R>``: "in 23 hours" in each reader's own language)."""
        lang = game.row.language
        high_bidder = _int(auction.get("high_bidder"))
        high = (
            self.t(
                "monopoly.status.high",
                lang,
                amount=self.money(game, auction["high"]),
                player=self.player(game, high_bidder),
            )
            if high_bidder is not None
            else self.t("monopoly.status.no_bid", lang)
        )
        bidding = [s for s in auction.get("active") or [] if s != high_bidder]
        parts = [
            self.t(
                "monopoly.status.auction_open",
                lang,
                lot=self.lot(game, auction["item"], auction["space"]),
                high=high,
                players=self.names(game, bidding),
            )
        ]
        if auction.get("passed"):
            parts.append(
                self.t("monopoly.status.auction_passed", lang, players=self.names(game, auction["passed"]))
            )
        hours = _int(auction.get("hours")) or 0
        end = self.clock_end(game)
        if hours <= 0:
            parts.append(self.t("monopoly.status.auction_unclocked", lang))
        elif end is not None:
            parts.append(self.t("monopoly.status.auction_clock", lang, when=f"<t:{int(end)}:R>"))
        else:
            parts.append(self.t("monopoly.status.auction_hours", lang, hours=self.number(game, hours)))
        return " ".join(parts)

    def seat_colour(self, seat: int) -> int | None:
        red, green, blue = renderers.monopoly.seat_colour(seat)
        return (red << 16) | (green << 8) | blue

    def standing(self, game: LiveGame, view: dict[str, Any], seat: int) -> str:
        """Cash, where the token stands and its net worth, or that it went bankrupt: all public."""
        seats = view.get("seats") or []
        if not 0 <= seat < len(seats):
            return super().standing(game, view, seat)
        mine = seats[seat]
        if not mine.get("alive", True):
            return self.t("monopoly.alt.bankrupt", game.row.language, player=self.player(game, seat))
        return self.t(
            "monopoly.alt.seat",
            game.row.language,
            player=self.player(game, seat),
            cash=self.money(game, mine.get("cash")),
            place=self.place(game, mine.get("position")),
            worth=self.money(game, mine.get("net_worth")),
        )

    def controls(self, game: LiveGame) -> list[Control]:
        """The table (see the module docstring); everything on it is public in Monopoly."""
        lang = game.row.language
        view = self.public(game)
        if view["phase"] == "over":
            return []
        rules = game.entry.rules
        panels: list[Control] = [
            Button(self.t("monopoly.button.props", lang), ui="props", row=1),
            Button(self.t("monopoly.button.deal", lang), ui="deal", row=1),
        ]
        auction = view.get("auction")
        if isinstance(auction, dict):
            # Cash is public: the bidder on turn sees only the bids they can pay (none that can
            # only be refused), and everyone can see why the others are missing.  In an open
            # auction the buttons act for whoever presses them: a bid shows when some bidder
            # waited on can pay it (the richest one bounds them).
            bidders = sorted(game.waiting()) if auction.get("mode") == data.OPEN else [_int(auction["turn"])]
            purses = [int(view["seats"][s]["cash"]) for s in bidders if s is not None]
            cash = max(purses) if purses else None
            bids = BIDS.controls(self, game, int(auction["min_bid"]), money=cash, hide_dear=True)
            return [*bids, panels[0]]
        moves: list[Control] = []
        waiting = sorted(game.waiting())
        legal = {seat: rules.legal_actions(game.state, seat) for seat in waiting}
        if isinstance(view.get("shortage"), dict):
            seen: set[Action] = set()
            for seat in waiting:
                for action in legal[seat]:
                    if action not in seen:
                        seen.add(action)
                        moves.append(self.move_button(game, view, action, seat))
            return [*moves, panels[0]]
        seen = set()
        for seat in waiting:
            for action in legal[seat]:
                if action.kind in (*TURN_KINDS, "keep", "lift", "rent") and action not in seen:
                    seen.add(action)
                    moves.append(self.move_button(game, view, action, seat))
        moves.sort(key=_order)
        turn = _int(view["turn"]) or 0
        buying = view["phase"] == "buy" and not view["debts"] and not view["fees"] and turn in waiting
        if buying and not any(isinstance(c, Button) and c.action == Action("buy") for c in moves):
            price = view["spaces"][view["seats"][turn]["position"]]["price"]
            moves.insert(
                0,
                Button(
                    self.t("monopoly.button.buy", lang, price=self.money(game, price)),
                    action=Action("buy"),
                    style="success",
                    disabled=True,
                    row=0,
                ),
            )
        if view["debts"]:
            panels.append(Button(self.t("monopoly.button.debt", lang), ui="debt", style="danger", row=1))
        if view["phase"] == "opening":
            panels = []
        return [*moves, *panels, *DEALS.rows(self, game, view["offers"], 2)]

    def move_button(self, game: LiveGame, view: View, action: Action, seat: int) -> Button:
        """One move of the table with its price in the label ("Buy for $240", "Repay Napa Valley ($132)")."""
        lang = game.row.language
        kind, args = action.kind, action.args
        pos = _int(args[0]) if args else None
        params: dict[str, Any] = {}
        style: Style = "secondary"
        if kind in ("roll", "end"):
            style = "primary"
        elif kind == "fine":
            params = {"amount": self.money(game, data.POOL_FINE)}
        elif kind == "card":
            params = {"card": self.card_name(game, args[0] if args else "")}
        elif kind == "buy":
            position = view["seats"][seat]["position"]
            params, style = {"price": self.money(game, view["spaces"][position]["price"])}, "success"
        elif kind == "claim" and pos is not None and isinstance(view.get("shortage"), dict):
            kind = f"claim_{building(view['shortage']['item'])}"
            params, style = {"space": self.place(game, pos)}, "success"
        elif kind in ("keep", "lift") and pos is not None:
            amount = data.fee(pos) if kind == "keep" else data.repay_cost(pos)
            params = {"space": self.place(game, pos), "amount": self.money(game, amount)}
            style = "success" if kind == "lift" else "secondary"
        elif kind == "rent" and pos is not None:
            claim = next((c for c in view["claims"] if c["space"] == pos), None)
            amount = claim["amount"] if claim else 0
            params, style = {"space": self.place(game, pos), "amount": self.money(game, amount)}, "success"
        key = f"monopoly.button.{kind}"
        label = self.t(key, lang, **params) if self.catalog.has(key, lang) else action.encode()
        return Button(label, action=action, style=style, row=0)

    # -- forms -----------------------------------------------------------------------------------

    def modal(self, game: LiveGame, kind: str, seat: int | None = None) -> ModalSpec | None:
        """The bid form (minimum bid to the bidder's cash) and a draft's two cash forms (0 to the
        payer's cash).  Cash is public, so no bound tells anyone anything new."""
        view = self.public(game)
        cash = [int(s["cash"]) for s in view["seats"]]
        if BIDS.is_form(kind):
            auction = view.get("auction")
            if not isinstance(auction, dict):
                return BIDS.form(self, game, lot="?", minimum=1, money=None, ceiling=max(1, sum(cash)))
            lot = self.lot(game, auction["item"], auction["space"])
            bidding = auction["turn"] == seat or (auction.get("mode") == data.OPEN and seat in game.waiting())
            money = cash[seat] if seat is not None and bidding else None
            return BIDS.form(
                self, game, lot=lot, minimum=int(auction["min_bid"]), money=money, ceiling=max(1, sum(cash))
            )
        form = DEALS.cash_form(kind)
        if form is None or seat is None or not 0 <= seat < len(cash):
            return None
        draft = self.view_of(game, seat)["you"]["draft"]
        if draft is None:
            return None
        return DEALS.form(self, game, form, seat=seat, to=int(draft["to_seat"]), cash=cash)

    # -- private panels --------------------------------------------------------------------------

    async def on_ui(self, interaction: discord.Interaction, game: LiveGame, seat: int, code: str) -> Panel:
        if code == "props":
            return self.props_panel(game, seat)
        if code == "debt":
            return self.debt_panel(game, seat)
        if code == "bankrupt":
            return self.bankrupt_panel(game, seat)
        if code == "deal":
            return self.deal_panel(game, seat)
        if code == "whom":
            return self.whom_panel(game, seat)
        return DEALS.on_ui(self, game, seat, code) or await super().on_ui(interaction, game, seat, code)

    def _legal(self, game: LiveGame, seat: int) -> list[Action]:
        if game.status != GameStatus.ACTIVE:
            return []
        return list(game.entry.rules.legal_actions(game.state, seat))

    def holding_button(self, game: LiveGame, view: View, action: Action) -> Button:
        """A building, sale, mortgage or repayment with what it costs or brings."""
        lang = game.row.language
        pos = _int(action.args[0]) if action.args else None
        space = view["spaces"][pos or 0]
        name = self.place(game, pos)
        cost = data.BOARD[pos or 0].house_cost
        if action.kind == "build":
            item = "hotel" if space["level"] == data.MAX_HOUSES else "house"
            label = self.t(f"monopoly.button.build_{item}", lang, space=name, price=self.money(game, cost))
            style: Style = "success"
        elif action.kind == "sell":
            item = "hotel" if space["level"] == data.HOTEL else "house"
            refund = cost // data.SELL_BACK_DIVISOR
            if item == "hotel":
                refund *= data.HOTEL - min(data.MAX_HOUSES, int(view["bank"]["houses"]))
            label = self.t(f"monopoly.button.sell_{item}", lang, space=name, price=self.money(game, refund))
            style = "secondary"
        elif action.kind == "mort":
            label = self.t(
                "monopoly.button.mort",
                lang,
                space=name,
                price=self.money(game, data.mortgage_value(pos or 0)),
            )
            style = "secondary"
        else:
            label = self.t(
                "monopoly.button.unmort", lang, space=name, price=self.money(game, data.repay_cost(pos or 0))
            )
            style = "primary"
        return Button(label, action=action, style=style)

    def holdings_lines(self, game: LiveGame, view: View, seat: int) -> list[str]:
        """One line per colour group the seat holds: each property with rent, buildings, mortgage."""
        lang = game.row.language
        lines = []
        for key, group in data.GROUPS.items():
            mine = [view["spaces"][p] for p in group if view["spaces"][p]["owner"] == seat]
            if not mine:
                continue
            parts = []
            for space in mine:
                if space["mortgaged"]:
                    state = self.t(
                        "monopoly.panel.mortgaged", lang, cost=self.money(game, data.repay_cost(space["pos"]))
                    )
                elif space["kind"] == data.UTILITY:
                    state = self.t("monopoly.panel.utility_rent", lang, times=space["rent_now"])
                else:
                    state = self.t("monopoly.panel.rent", lang, rent=self.money(game, space["rent_now"]))
                name = self.place(game, space["pos"])
                if space["level"]:
                    buildings = self.level_words(game, int(space["level"]))
                    line = self.t(
                        "monopoly.panel.property_built", lang, space=name, buildings=buildings, state=state
                    )
                else:
                    line = self.t("monopoly.panel.property", lang, space=name, state=state)
                parts.append(line)
            full = len(mine) == len(group)
            lines.append(
                self.t(
                    "monopoly.panel.group_full" if full else "monopoly.panel.group",
                    lang,
                    group=self.group(game, key),
                    count=len(mine),
                    of=len(group),
                    properties="; ".join(parts),
                )
            )
        return lines

    def purse(self, game: LiveGame, view: View, seat: int) -> str:
        lang = game.row.language
        you = view["seats"][seat]
        cards = ", ".join(self.card_name(game, d) for d in you["getout"])
        text = self.t(
            "monopoly.panel.purse",
            lang,
            cash=self.money(game, you["cash"]),
            worth=self.money(game, you["net_worth"]),
        )
        if cards:
            text += " " + self.t("monopoly.panel.cards", lang, cards=cards)
        return text

    def props_panel(self, game: LiveGame, seat: int) -> Panel:
        """ "My properties": holdings by group, and every building, sale, mortgage and repayment
        open to the seat now, each with its price (the host pages a long list)."""
        lang = game.row.language
        view = self.view_of(game, seat)
        if 0 <= seat < len(view["seats"]) and not view["seats"][seat]["alive"]:
            return Panel(self.t("monopoly.panel.out", lang), [DEALS.done(self, game)])
        lines = [self.purse(game, view, seat)]
        lines += self.holdings_lines(game, view, seat) or [self.t("monopoly.panel.no_props", lang)]
        legal = self._legal(game, seat)
        shortage = view["shortage"]
        controls: list[Control] = [
            self.holding_button(game, view, a) for a in legal if a.kind in HOLDING_KINDS
        ]
        if any(d["debtor"] == seat for d in view["debts"]):
            lines.append(self.t("monopoly.panel.see_debt", lang))
            controls.insert(0, Button(self.t("monopoly.button.debt", lang), ui="debt", style="danger"))
        elif shortage is not None and shortage["requester"] == seat:
            lines.append(self.t(f"monopoly.panel.wait_own_shortage_{building(shortage['item'])}", lang))
        elif view["auction"] is not None or shortage is not None:
            lines.append(self.t("monopoly.panel.wait_overlay", lang))
        elif view["debts"]:
            lines.append(self.t("monopoly.panel.wait_debt", lang))
        elif not controls and view["phase"] != "opening":
            lines.append(self.t("monopoly.panel.nothing_now", lang))
        if any(a.kind == "deal" for a in legal):
            controls.append(Button(self.t("monopoly.button.deal", lang), ui="deal"))
        controls.append(DEALS.done(self, game))
        return Panel("\n".join(lines), controls)

    def debt_panel(self, game: LiveGame, seat: int) -> Panel:
        """What the debtor owes and exactly how they can raise it: each sale and mortgage with what
        it brings, deals, and bankruptcy only when the engine allows it (nothing else covers it)."""
        lang = game.row.language
        view = self.view_of(game, seat)
        mine = [d for d in view["debts"] if d["debtor"] == seat]
        if not mine:
            if view["debts"]:
                # The words offer a deal to the debtor: the button is there whenever one may be made.
                names = self.names(game, sorted({d["debtor"] for d in view["debts"]}))
                offer: list[Control] = [DEALS.done(self, game)]
                if any(a.kind in ("deal", "send") for a in self._legal(game, seat)):
                    offer.insert(0, Button(self.t("monopoly.button.deal", lang), ui="deal"))
                return Panel(self.t("monopoly.panel.others_debt", lang, players=names), offer)
            return Panel(self.t("monopoly.panel.no_debt", lang), [DEALS.done(self, game)])
        owed = sum(int(d["total"]) for d in mine)
        cash = int(view["seats"][seat]["cash"])
        to = "; ".join(
            self.t(
                "monopoly.panel.debt_to",
                lang,
                owed=self.money(game, d["total"]),
                to=self.seats_or_bank(game, d["to_seats"]),
                why=self.t(f"monopoly.reason.{d['reason']}", lang),
            )
            for d in mine
        )
        lines = [
            self.t(
                "monopoly.panel.debt",
                lang,
                debts=to,
                cash=self.money(game, cash),
                short=self.money(game, max(0, owed - cash)),
            )
        ]
        legal = self._legal(game, seat)
        raising = [a for a in legal if a.kind in ("sell", "mort")]
        controls: list[Control] = [self.holding_button(game, view, a) for a in raising]
        if raising:
            lines.append(self.t("monopoly.panel.debt_raise", lang))
        controls.append(Button(self.t("monopoly.button.deal", lang), ui="deal"))
        if Action("bankrupt") in legal:
            lines.append(self.t("monopoly.panel.debt_hopeless", lang))
            controls.append(Button(self.t("monopoly.button.bankrupt", lang), ui="bankrupt", style="danger"))
        else:
            lines.append(self.t("monopoly.panel.debt_can", lang))
        controls.append(DEALS.done(self, game))
        return Panel("\n".join(lines), controls)

    def bankrupt_panel(self, game: LiveGame, seat: int) -> Panel:
        """The confirmation before leaving the game, or why bankruptcy is not open (private)."""
        lang = game.row.language
        back = Button(self.t("monopoly.button.back", lang), ui="debt")
        if Action("bankrupt") not in self._legal(game, seat):
            return Panel(self.t("monopoly.panel.bankrupt_not_now", lang), [back])
        confirm = Button(
            self.t("monopoly.button.bankrupt_confirm", lang), action=Action("bankrupt"), style="danger"
        )
        return Panel(self.t("monopoly.panel.bankrupt_confirm", lang), [confirm, back])

    def whom_panel(self, game: LiveGame, seat: int) -> Panel:
        return DEALS.whom_panel(self, game, seat, self._legal(game, seat))

    def deal_panel(self, game: LiveGame, seat: int) -> Panel:
        """The draft, or whom the deal is for when there is none.  Monopoly's sides toggle one
        deed at a time (the engine's ``give``/``want``) and may carry get-out cards."""
        view = self.view_of(game, seat)
        draft = view["you"]["draft"]
        if draft is None:
            return self.whom_panel(game, seat)
        legal = self._legal(game, seat)
        sides = Draft(
            int(draft["to_seat"]),
            give=self.side(game, draft["give"]),
            want=self.side(game, draft["want"]),
            give_choices=self.deed_choices(game, view, legal, "give", draft["give"]["spaces"]),
            want_choices=self.deed_choices(game, view, legal, "want", draft["want"]["spaces"]),
            extras=self.card_toggles(game, legal, draft),
        )
        return DEALS.draft_panel(self, game, sides, legal)

    def deed_choices(
        self, game: LiveGame, view: View, legal: Sequence[Action], kind: str, chosen: Sequence[int]
    ) -> list[Choice]:
        """A side's select: the deeds the engine would add now and those already on it, each
        labelled with what picking it does (a toggle) and its price."""
        lang = game.row.language
        spaces = sorted(
            {int(a.args[0]) for a in legal if a.kind == kind and isinstance(a.args[0], int)} | set(chosen)
        )
        return [
            Choice(
                self.t(
                    "monopoly.select.remove" if pos in chosen else "monopoly.select.add",
                    lang,
                    space=self.place(game, pos),
                    price=self.money(game, data.BOARD[pos].price),
                ),
                Action(kind, (pos,)),
                self.deed_note(game, view, pos),
            )
            for pos in spaces
        ]

    def card_toggles(self, game: LiveGame, legal: Sequence[Action], draft: View) -> list[Control]:
        """Get-out cards as toggles on the forms' row: a card is one item, too few for a select."""
        lang = game.row.language
        controls: list[Control] = []
        for kind in ("givec", "wantc"):
            side = draft["give" if kind == "givec" else "want"]
            decks = {str(a.args[0]) for a in legal if a.kind == kind and a.args} | set(side["cards"])
            for deck in sorted(decks):
                words = "remove" if deck in side["cards"] else "add"
                controls.append(
                    Button(
                        self.t(f"monopoly.button.{kind}_{words}", lang, card=self.card_name(game, deck)),
                        action=Action(kind, (deck,)),
                        row=2,
                    )
                )
        return controls

    def deed_note(self, game: LiveGame, view: View, pos: int) -> str:
        """A select option's description: the group and, if so, that it is mortgaged (10% due)."""
        lang = game.row.language
        space = view["spaces"][pos]
        note = self.group(game, str(space["group"]))
        if space["mortgaged"]:
            note += " · " + self.t("monopoly.select.mortgaged", lang, fee=self.money(game, data.fee(pos)))
        return note

    def offer_panel(self, game: LiveGame, seat: int, number: int) -> Panel:
        return DEALS.offer_panel(self, game, seat, number, self._legal(game, seat))

    # -- after a click ---------------------------------------------------------------------------

    def in_debt(self, game: LiveGame, seat: int) -> bool:
        return any(d["debtor"] == seat for d in self.public(game)["debts"])

    def next_panel(self, game: LiveGame, seat: int, applied: Applied) -> Panel | None:
        """Drafting stays on the draft, holdings on "My properties" (on the debt panel while in
        debt, so the debtor sees the amount shrink); sending, answers and bankruptcy close."""
        if game.status == GameStatus.ACTIVE and applied.action.kind in HOLDING_KINDS:
            return self.debt_panel(game, seat) if self.in_debt(game, seat) else self.props_panel(game, seat)
        return DEALS.next_panel(self, game, seat, applied)

    def panel_for(self, game: LiveGame, seat: int, action: Action) -> Panel | None:
        """Where a stale private button's action lives now: holdings on "My properties" (or the
        debt panel), drafting on the deal panel, answers on their offer, bankruptcy on the debt."""
        kind = action.kind
        if kind in HOLDING_KINDS:
            return self.debt_panel(game, seat) if self.in_debt(game, seat) else self.props_panel(game, seat)
        if kind == "bankrupt":
            return self.debt_panel(game, seat)
        return DEALS.panel_for(self, game, seat, action)

    def confirmation(self, game: LiveGame, applied: Applied) -> str | None:
        """The sender reads at once who must answer; a debtor whose debt got paid reads that."""
        sent = DEALS.sent(self, game, applied)
        if sent is not None:
            return sent
        if applied.action.kind == "bankrupt":
            return self.t("monopoly.confirm.bankrupt", game.row.language)
        paid = [e for e in applied.events if e.kind == "paid" and e.seat == applied.seat]
        if paid and applied.action.kind in HOLDING_KINDS | {"accept"}:
            amount = self.money(game, paid[-1].params["amount"])
            return self.t("monopoly.confirm.debt_paid", game.row.language, amount=amount)
        return None

    def private_summary(self, game: LiveGame, seat: int) -> list[str]:
        """Catch me up: cash, net worth, cards, properties by group, a debt, one's draft."""
        if not 0 <= seat < len(game.seats) or game.state is None:
            return []
        lang = game.row.language
        view = self.view_of(game, seat)
        lines = [self.purse(game, view, seat)]
        lines += self.holdings_lines(game, view, seat)
        owed = sum(int(d["total"]) for d in view["debts"] if d["debtor"] == seat)
        if owed:
            lines.append(self.t("monopoly.summary.debt", lang, owed=self.money(game, owed)))
        draft = view.get("you", {}).get("draft")
        if draft is not None:
            lines.append(DEALS.summary(self, game, draft, int(draft["to_seat"])))
        return lines


def _order(control: Control) -> int:
    """Row 0 in a fixed order: the turn's moves first (Roll before Pay $50...), then the rest."""
    if isinstance(control, Button) and control.action is not None:
        kind = control.action.kind
        return TURN_KINDS.index(kind) if kind in TURN_KINDS else len(TURN_KINDS)
    return len(TURN_KINDS) + 1
