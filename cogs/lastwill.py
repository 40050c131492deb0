"""Last Will with Getting the Sack on Discord: a public table, and one's hand in private panels.

Hands, draws, the drawing split and the discards not yet revealed are secret; money, boards, jobs,
the offering, plans, errand boys and market tokens are open.  So everything public (the status,
the log lines, the table's buttons, their labels and custom_ids) comes from ``view(state, None)``
and from public events.  The table's moves are the waited-for seat's legal actions of the kinds in
:data:`TABLE_KINDS` only: each of them names a seat, a plan, an errand space, a face-up offering
slot or a card already on a board, and the engine decides them from public facts alone (a test
swaps every hidden card and checks that the table stays the same).  Everything that names a card
in a hand lives on private (ephemeral) panels, drawn from ``view(state, seat)``.

The table message, by phase (the host adds "Catch me up"):

    pick       one toggle per seat ("Toggle job: bob") · Confirm employed players (handicap only)
    discard    Choose my discards… (a private multi-select; the status names who is still choosing)
    planning   one button per free plan: "Plan 3: 4 cards · 2 boys · 1 action"
    drawing    Choose my draw… (the private split panel)
    errands    a select of offering slots ("Slot 4: Farm F3") · Draw 1: Property/Event/Helper/
               Companion · a select of market swaps · Opera (£2) · Board extension · Demotion ·
               Demotion or extension · Keep the boy home
    actions    My hand… · End turn · Declare bankruptcy… (when open) · a select of one's board
               moves ("Maintain Town House T2 (£3)", "Sell Farm F3 (+£8)", "Use Reservation (£2)")
    a choice   one button naming it ("Choose a demotion…", "Add companions…"): it opens the
               chooser's private panel
    always     My hand…

Private panels (``Button(ui=...)``), each closing with Done or stepping Back to the hand:

    hand       every card with what it would do now (price, money spent, actions, a demotion it
               would earn) and, on one's Actions turn, a button per play; several-part plays open
               their own step: ``comp.<card>`` (which board card takes this companion), ``ball.<card>``
               (the Ball's level), ``nupt`` (which nuptial cards form a set: a multi-select)
    answer     the open choice (companions, a line to cover, the Wedding Planner's extra, a
               Bachelor Party's discards, a target, Breeders' Fair tokens, demotion or extension,
               the Personal Secretary's keep)
    draw       +1 per deck, Back (start over) and Confirm: the split is private until drawn
    discard    a multi-select of one's hand: round 1's keep-2 and the hand limit, all seats at once
    bankrupt   the confirmation

Every public event has one short line (``[lastwill.event]``); runs of incomes, depreciations and a
play with its payment fold into one line each (:meth:`LastWillPresenter.lines`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.i18n import clip
from bot.session import Applied, LiveGame
from bot.ui.presenter import Button, Choice, Control, Panel, Presenter, Select, Style
from rules.core import Action, Event
from rules.lastwill import data
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
    Scope,
    SymbolBonus,
    Trade,
)
from rules.lastwill.engine import ANSWERS

if TYPE_CHECKING:
    from bot.client import GameBot

View = dict[str, Any]
P = TypeVar("P", bound=Privilege)

TABLE_KINDS = frozenset(
    {"emp", "empok", "plan", "boy", "market", "hold", "keep", "use", "sell", "drop", "as", "sec", "bankrupt", "done"}
)  # fmt: skip
"""Moves drawn on the public table: none names a card in a hand, and the engine allows them from
public facts (money, boards, the offering, the errand spaces), so the table hides nothing."""
BOARD_KINDS = ("keep", "use", "sell", "as", "drop", "sec")
"""The table's board select, in this order: what one does with the cards already laid."""
HAND_KINDS = frozenset({"event", "special", "ball", "nupt", "lay", "buy", "token"})
"""Plays from the hand: private panels only (their actions carry hand card ids)."""
ANSWER_KINDS = ANSWERS
"""Answers to the open choice (the engine's own list): the private answer panel."""
SPLIT_KINDS = frozenset({"draw", "redraw"})
"""Steps of the private drawing split; ``drawok`` draws and closes the panel."""
REGULAR = tuple(deck.value for deck in data.REGULAR_DECKS)
CLOSE_ROW = 9
"""Back and Done go last: explicit rows are laid out in order, and loose buttons would join them."""

INCOMES = frozenset({"income", "final_income"})
"""Events told as one line per run ("Income: ana £11 · bob £7")."""
PAIRS = {("errand_ext", "extension"): "errand_ext_taken"}
"""An event told together with the one right after it (same seat): the boy's extension."""


def signed(value: object) -> str:
    """A market token as printed: ``+3``, ``−2`` (a true minus sign, as money writes debts)."""
    number = _int(value) or 0
    return f"+{number}" if number >= 0 else f"−{-number}"


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


# --- what the view says, in pounds (the engine's rules, read from a view and ``data``) -------------
#
# Labels show what a move will cost before it is made.  They are computed from the view (public, or
# the seat's own) and the card data, as the engine computes them from the state; the random-game test
# compares every label with the engine's own event, so the two cannot drift apart silently.


def _seat_view(view: View, seat: int) -> View:
    player: View = view["players"][seat]
    return player


def room(player: View) -> int | None:
    """Pounds the player may still spend; ``None``: no limit (no property and no job: debt allowed)."""
    limited = player["employment"] is not None or any(i["kind"] == "property" for i in player["board"])
    return int(player["money"]) - data.SPEND_DOWN_TO if limited else None


def privileges(player: View, kind: type[P]) -> list[P]:
    """Each privilege of this kind on the player's laid black cards (copies stack)."""
    found: list[P] = []
    for item in player["board"]:
        card = data.CARDS.get(item["id"])
        if isinstance(card, HelperCard):
            found += [p for p in card.privileges if isinstance(p, kind)]
    return found


def symbol_bonus(player: View, symbols: Iterable[data.Symbol]) -> tuple[int, int]:
    """(automatic, optional) helper bonus for one card used with these symbols."""
    wanted = set(symbols)
    auto = optional = 0
    for bonus in privileges(player, SymbolBonus):
        if wanted & set(bonus.symbols):
            if bonus.optional:
                optional += bonus.amount
            else:
                auto += bonus.amount
    return auto, optional


def shrink(player: View, base: int, bonus: int) -> int:
    """Helper bonuses shrink to what cash allows once ``base`` is paid (§10)."""
    left = room(player)
    return bonus if left is None else max(0, min(bonus, left - base))


def _agent(player: View, trade: Trade, kind: str) -> int:
    where = Scope.FARM if kind == data.PropertyType.FARM else Scope.NON_FARM
    return sum(m.amount for m in privileges(player, PriceModifier) if m.trade is trade and m.scope is where)


def buy_price(view: View, seat: int, card: str, kind: str) -> int:
    prop = data.CARDS[card]
    assert isinstance(prop, PropertyCard)
    price = prop.track[0] + int(view["market"][kind]) + _agent(_seat_view(view, seat), Trade.BUY, kind)
    return max(data.PRICE_FLOOR, price)


def sale_value(view: View, seat: int, item: View, *, ignore_market: bool = False) -> int:
    kind = str(item["type"])
    value = int(item["value"]) + _agent(_seat_view(view, seat), Trade.SELL, kind)
    if not ignore_market:
        value += int(view["market"][kind])
    return max(data.PRICE_FLOOR, value)


def maintain_cost(view: View, seat: int, item: View) -> int:
    player = _seat_view(view, seat)
    base = int(item["upkeep"])
    bonus = sum(b.amount for b in privileges(player, MaintainBonus) if item["type"] in b.types)
    return base + shrink(player, base, bonus)


def expense_cost(view: View, seat: int, item: View) -> int:
    player = _seat_view(view, seat)
    base = int(item["expense"] or 0)
    auto = symbol_bonus(player, data.CARDS[item["id"]].symbols)[0] if base > 0 else 0
    return base + shrink(player, base, auto)


def play_cost(view: View, seat: int, cards: Sequence[str], money: int) -> int:
    """What a white play spends (before companions): its money and the automatic helper bonuses."""
    player = _seat_view(view, seat)
    auto = 0
    for card in cards:
        white = data.CARDS[card]
        if isinstance(white, EventCard) and white.money > 0:
            auto += symbol_bonus(player, white.symbols)[0]
    return money + shrink(player, money, auto)


def opera_cost(view: View, seat: int) -> int:
    player = _seat_view(view, seat)
    bonus = sum(b.amount for b in privileges(player, OperaBonus))
    return data.OPERA_SPEND + shrink(player, data.OPERA_SPEND, bonus)


def matched_lines(player: View, symbols: Iterable[str]) -> list[View]:
    """Uncovered lines a card with these symbols would cover, best paid first; none once the round's
    demotion is earned (§9)."""
    job = player["employment"]
    if job is None or player["demoted"]:
        return []
    wanted = set(symbols)
    found = [
        line
        for line in job["lines"]
        if not line["covered"] and line["symbol"] in wanted and line["symbol"] not in data.NEVER_ON_LINES
    ]
    return sorted(found, key=lambda line: -int(line["money"]))


def draw_count(view: View, seat: int) -> tuple[int, dict[str, int]]:
    """Cards the seat names freely this drawing (the plan and a School Chum SC5, capped by what the
    decks hold), and the deck-bound extras that come by themselves (SC3, SC4)."""
    player = _seat_view(view, seat)
    plan = next((p for p in view["plans"] if p["pos"] == player["plan"]), None)
    free = int(plan["cards"]) if plan is not None else 0
    fixed: dict[str, int] = {}
    for bonus in privileges(player, DrawBonus):
        if bonus.deck is None:
            free += bonus.count
        else:
            fixed[bonus.deck.value] = fixed.get(bonus.deck.value, 0) + bonus.count
    return min(free, sum(available(view, deck) for deck in REGULAR)), fixed


def available(view: View, deck: str) -> int:
    """Cards a draw could reach: the deck and, once it is empty, its face-up pile reshuffled."""
    return int(view["decks"][deck]) + len(view["discards"].get(deck, []))


class LastWillPresenter(Presenter):
    """The table, the private panels and the log of Last Will (see the module docstring)."""

    game = "lastwill"
    seat_list_params = Presenter.seat_list_params | {"picked"}

    # -- words -----------------------------------------------------------------------------------

    def lang(self, game: LiveGame) -> str:
        return game.row.language

    def money(self, game: LiveGame, amount: object) -> str:
        """``£12``, or ``−£3`` for a debt (only a player with no property and no job has one)."""
        value = _int(amount) or 0
        key = "lastwill.money_negative" if value < 0 else "lastwill.money"
        return self.t(key, self.lang(game), amount=self.number(game, abs(value)))

    def card(self, game: LiveGame, card_id: object) -> str:
        """A card by its printed name; a property also by its id ("Town House T2"): several share a
        name, and the log must say which one was bought, sold or lost value."""
        record = data.CARDS.get(str(card_id))
        if record is None:
            return str(card_id)
        if isinstance(record, PropertyCard):
            return self.t("lastwill.property_name", self.lang(game), name=record.name, id=record.id)
        return record.name

    def card_id(self, game: LiveGame, card_id: str) -> str:
        """A card with its id, for private lists where two copies must be told apart."""
        record = data.CARDS.get(card_id)
        if record is None or isinstance(record, PropertyCard):
            return self.card(game, card_id)
        return self.t("lastwill.card_with_id", self.lang(game), name=record.name, id=card_id)

    def cards(self, game: LiveGame, ids: object) -> str:
        found = [self.card(game, c) for c in ids] if isinstance(ids, list | tuple) else []
        return self.phrase(game, found) if found else self.t("lastwill.nothing", self.lang(game))

    def word(self, game: LiveGame, table: str, key: object) -> str:
        """A closed word (a symbol, a deck, a property type, a companion) from the catalog."""
        full = f"lastwill.{table}.{key}"
        return self.t(full, self.lang(game)) if self.catalog.has(full, self.lang(game)) else str(key)

    def actions(self, game: LiveGame, count: int) -> str:
        return self.count("lastwill.actions", self.lang(game), count)

    def job(self, game: LiveGame, job_id: object) -> str:
        record = data.EMPLOYMENT.get(str(job_id))
        return record.job if record is not None else str(job_id)

    def space(self, game: LiveGame, space: object) -> str:
        """An errand space: "slot 4", "the Opera", "draw one (Event)"."""
        text = str(space)
        lang = self.lang(game)
        if text.startswith("slot"):
            return self.t("lastwill.space.slot", lang, slot=text[len("slot") :].upper())
        if text.startswith("one-"):
            return self.t("lastwill.space.one", lang, deck=self.word(game, "deck", text[len("one-") :]))
        return self.word(game, "space", text)

    def source(self, game: LiveGame, source: object) -> str:
        """What opened a choice: the cards played ("Dinner and Wedding Gift") or an errand space."""
        parts = str(source).split(".")
        if all(p in data.CARDS for p in parts):
            return self.phrase(game, [self.card(game, p) for p in parts])
        return self.space(game, source)

    def icons(self, game: LiveGame, icons: object) -> str:
        """Open companion icons of a play: "Guest +£2, Horse +£3"."""
        found = [
            self.t(
                "lastwill.icon",
                self.lang(game),
                companion=self.word(game, "companion", icon[0]),
                amount=self.money(game, icon[1]),
            )
            for icon in (icons if isinstance(icons, list) else [])
            if isinstance(icon, list) and len(icon) == 3 and not icon[2]
        ]
        return ", ".join(found) or self.t("lastwill.nothing", self.lang(game))

    def split(self, game: LiveGame, counts: object) -> str:
        """Cards per deck: "3 Event, 2 Property" (a split or a draw's public counts)."""
        items = counts.items() if isinstance(counts, dict) else []
        found = [
            self.t("lastwill.deck_count", self.lang(game), count=n, deck=self.word(game, "deck", deck))
            for deck, n in sorted(items, key=lambda kv: REGULAR.index(kv[0]) if kv[0] in REGULAR else 9)
            if n
        ]
        return self.phrase(game, found) if found else self.t("lastwill.nothing", self.lang(game))

    def market(self, game: LiveGame, market: object) -> str:
        items = market.items() if isinstance(market, dict) else []
        return ", ".join(
            self.t("lastwill.market_token", self.lang(game), type=self.word(game, "type", k), token=signed(v))
            for k, v in items
            if isinstance(v, int)
        )

    def per_seat(self, game: LiveGame, values: object, show: Any) -> str:
        """One value per seat, "ana £11 · bob £7", leaving out seats with nothing."""
        found = [
            self.t("lastwill.per_seat", self.lang(game), player=self.player(game, seat), value=show(value))
            for seat, value in enumerate(values if isinstance(values, list) else [])
            if value not in (0, "", None, [])
        ]
        return " · ".join(found) or self.t("lastwill.nothing", self.lang(game))

    # -- events ----------------------------------------------------------------------------------

    def event_param(self, game: LiveGame, key: str, value: Any) -> Any:
        """Cards by name, pounds as ``£12``, decks, types, symbols and companions in words."""
        if key in ("card", "target") and isinstance(value, str):
            return self.card(game, value)
        if (
            key in ("cards", "companions", "unclaimed")
            and isinstance(value, list)
            and all(isinstance(v, str) for v in value)
        ):
            return self.cards(game, value)
        if key in ("money", "amount", "price", "value", "penalty", "bonus") and _int(value) is not None:
            return self.money(game, value)
        if key == "type" and isinstance(value, str):
            return self.word(game, "type", value)
        if key == "types" and isinstance(value, list):
            return self.phrase(game, [self.word(game, "type", v) for v in value])
        if key == "deck" and isinstance(value, str):
            return self.word(game, "deck", value)
        if key in ("as", "companion") and isinstance(value, str):
            return self.word(game, "companion", value)
        if key == "free_tokens" and isinstance(value, list):
            return self.phrase(game, [self.word(game, "companion", v) for v in value])
        if key == "symbol" and isinstance(value, str):
            return self.word(game, "symbol", value)
        if key == "job" and isinstance(value, str):
            return self.job(game, value)
        if key == "space":
            return self.space(game, value)
        if key == "source":
            return self.source(game, value)
        if key in ("counts", "split"):
            return self.split(game, value)
        if key == "market":
            return self.market(game, value)
        if key == "options" and isinstance(value, list):
            return self.phrase(game, [self.word(game, "dx", v) for v in value])
        return super().event_param(game, key, value)

    def event_params(self, game: LiveGame, event: Event) -> dict[str, Any]:
        """The host's params plus what a line needs beyond them: values on a track, counts in
        words, per-seat lists and the extras of a play."""
        p = event.params
        lang = self.lang(game)
        params = super().event_params(game, event)
        kind = event.kind
        if kind in ("depreciated", "value_dropped"):
            prop = data.CARDS.get(str(p.get("card")))
            if isinstance(prop, PropertyCard):
                last = len(prop.track) - 1
                params["from"] = self.money(game, prop.track[min(_int(p.get("from")) or 0, last)])
                params["to"] = self.money(game, prop.track[min(_int(p.get("to")) or 0, last)])
            params["owner"] = self.player(game, event.seat)
        if _int(p.get("actions")) is not None:
            params["actions"] = self.actions(game, int(p["actions"]))
        if kind == "turn_started":
            extra = []
            if _int(p.get("valet")):
                extra.append(self.t("lastwill.turn.valet", lang, count=p["valet"]))
            for key, count in (p.get("free") or {}).items():
                if count:
                    extra.append(self.t(f"lastwill.turn.free.{key}", lang, count=count))
            params["extra"] = "".join(f", {e}" for e in extra)
        if kind == "card_played":
            parts = []
            if p.get("companions"):
                parts.append(
                    self.t("lastwill.played.with", lang, companions=self.cards(game, p["companions"]))
                )
            if _int(p.get("bonus")):
                parts.append(self.t("lastwill.played.bonus", lang, bonus=self.money(game, p["bonus"])))
            params["extra"] = f" ({'; '.join(parts)})" if parts else ""
        if kind in ("maintained", "expense_used"):
            bonus = _int(p.get("bonus")) or 0
            params["extra"] = (
                self.t("lastwill.played.bonus_short", lang, bonus=self.money(game, bonus)) if bonus else ""
            )
        if kind == "bought":
            tokens = p.get("free_tokens") or []
            params["extra"] = (
                self.t("lastwill.bought_tokens", lang, tokens=params["free_tokens"]) if tokens else ""
            )
            record = data.CARDS.get(str(p.get("card")))
            dual = isinstance(record, PropertyCard) and len(record.types) > 1
            params["as_type"] = (
                self.t("lastwill.bought_as", lang, type=params.get("type", "")) if dual else ""
            )
        if kind == "plan_chosen":
            params["cards"] = self.count("lastwill.cards", lang, _int(p.get("cards")) or 0)
            params["boys"] = self.count("lastwill.boys", lang, _int(p.get("boys")) or 0)
        if kind == "offering_filled":
            slots = p.get("slots") or {}
            params["slots"] = " · ".join(
                self.t("lastwill.slot_card", lang, slot=label, card=self.card(game, card))
                for label, card in slots.items()
                if card
            ) or self.t("lastwill.nothing", lang)
        if kind == "discard_phase":
            params["need"] = self.per_seat(game, p.get("need"), lambda n: self.number(game, int(n)))
        if kind == "discards_revealed":
            params["cards"] = self.per_seat(game, p.get("cards"), lambda cs: self.cards(game, cs))
        if kind == "employment_dealt":
            params["jobs"] = self.per_seat(game, p.get("jobs"), lambda j: self.job(game, j))
        if kind == "turn_ended":
            params["unused"] = self.actions(game, _int(p.get("unused")) or 0)
        if kind == "valued":
            params["properties"] = self.count("lastwill.properties", lang, _int(p.get("properties")) or 0)
        if kind == "round_ended":
            params["count"] = len(p.get("unclaimed") or [])
        if kind == "reshuffled":
            params["cards"] = self.number(game, _int(p.get("cards")) or 0)
        if kind == "game_over":
            params["money"] = self.per_seat(game, p.get("money"), lambda m: self.money(game, m))
        if kind == "handicap_toggled":
            params["target"] = self.player(game, _int(p.get("target_seat")))
        if kind == "secretary_discarded":
            params["count"] = len(p.get("cards") or [])
        return params

    def event_key(self, game: LiveGame, event: Event) -> str:
        """Variants where the words differ: an errand by its space, a sale by Lost at Cards..."""
        p = event.params
        kind = event.kind
        base = f"lastwill.event.{kind}"
        if kind == "errand":
            space = str(p.get("space", ""))
            if space.startswith("slot"):
                return f"{base}_slot"
            if space.startswith("one-"):
                return f"{base}_one"
            return f"{base}_{space}"
        if kind == "held" and p.get("forced"):
            return f"{base}_forced"
        if kind == "sold" and p.get("free"):
            return f"{base}_free"
        if kind in ("discard_phase", "discards_revealed"):
            return f"{base}_{p.get('kind', 'limit')}"
        if kind == "discarded" and _int(p.get("left")):
            return f"{base}_more"
        if kind == "game_over":
            if not p.get("winners"):
                return f"{base}_nobody"
            return f"{base}_bankruptcy" if p.get("bankruptcy") else base
        if kind == "handicap_toggled":
            return f"{base}_on" if p.get("target_seat") in (p.get("picked") or []) else f"{base}_off"
        if kind == "planner_extra" and not _int(p.get("amount")):
            return f"{base}_none"
        if kind == "turn_ended" and _int(p.get("unused")):
            return f"{base}_unused"
        if kind == "card_played" and not _int(p.get("money")):
            return f"{base}_free"
        if kind == "valued" and _int(p.get("penalty")):
            return f"{base}_penalty"
        return base

    def lines(self, game: LiveGame, events: Sequence[Event]) -> list[str]:
        """One short line per public event, with a few folded together so the log stays calm:
        a run of incomes (or depreciations) is one line, a play and its payment in the same click
        are one line, and a boy's errand to the extension space tells the extension it brought."""
        public = [e for e in events if e.visible_to is None]
        lang = self.lang(game)
        out: list[str] = []
        index = 0
        while index < len(public):
            event = public[index]
            if event.kind in INCOMES or event.kind == "depreciated":
                run = [e for e in public[index:]]
                run = run[: next((i for i, e in enumerate(run) if e.kind != event.kind), len(run))]
                out.append(self.run_line(game, event.kind, run))
                index += len(run)
                continue
            if event.kind == "playing":
                paid = next(
                    (e for e in public[index + 1 :] if e.kind == "card_played" and e.seat == event.seat), None
                )
                if paid is not None and paid.params.get("cards") == event.params.get("cards"):
                    params = {
                        **self.event_params(game, paid),
                        "actions": self.event_params(game, event)["actions"],
                    }
                    key = "played_at_once" if _int(paid.params.get("money")) else "played_at_once_free"
                    out.append(self.t(f"lastwill.event.{key}", lang, **params))
                    index += 1
                    public = [e for e in public if e is not paid]
                    continue
            following = public[index + 1] if index + 1 < len(public) else None
            pair = (
                PAIRS.get((self.event_key(game, event).removeprefix("lastwill.event."), following.kind))
                if following is not None and following.seat == event.seat
                else None
            )
            if pair is not None and following is not None:
                params = {**self.event_params(game, event), **self.event_params(game, following)}
                out.append(self.t(f"lastwill.event.{pair}", lang, **params))
                index += 2
                continue
            line = self.event_line(game, event)
            if line:
                out.append(line)
            index += 1
        return out

    def opening(self, game: LiveGame) -> list[str]:
        """Round 1's start, the jobs dealt and the first income, which ``setup`` did already:
        told as the events it would have sent, so the words are the same as in later rounds."""
        if game.state is None:
            return []
        view = self.public(game)
        if view["phase"] == "pick":
            return []  # the host picks the employed seats first; round 1 starts after that
        players = view["players"]
        events = [Event("round_started", view["start"], {"round": view["round"], "rounds": view["rounds"]})]
        jobs = [(p.get("employment") or {}).get("id", "") for p in players]
        if any(jobs):
            events.append(Event("employment_dealt", None, {"jobs": jobs}))
            events += [
                Event("income", p["seat"], {"amount": p["employment"]["income"], "money": p["money"]})
                for p in players
                if p.get("employment") and p["employment"]["income"]
            ]
        return self.lines(game, events)

    def run_line(self, game: LiveGame, kind: str, run: Sequence[Event]) -> str:
        """Several incomes or depreciations in one line."""
        lang = self.lang(game)
        if kind == "depreciated":
            owners: dict[int | None, list[str]] = {}
            for e in run:
                item = self.t("lastwill.event.depreciated_item", lang, **self.event_params(game, e))
                owners.setdefault(e.seat, []).append(item)
            items = "; ".join(
                self.t("lastwill.per_owner", lang, player=self.player(game, seat), items=", ".join(found))
                for seat, found in owners.items()
            )
            return self.t("lastwill.event.depreciated_run", lang, items=items)
        items = " · ".join(
            self.t(
                "lastwill.per_seat",
                lang,
                player=self.player(game, e.seat),
                value=self.money(game, e.params["amount"]),
            )
            for e in run
        )
        return self.t(f"lastwill.event.{kind}_run", lang, items=items)

    def private_line(self, game: LiveGame, event: Event) -> str | None:
        """What only the actor reads: the cards they drew, kept or discarded, and their split."""
        key = f"lastwill.private.{event.kind}"
        if event.kind == "errand":
            key = "lastwill.private.errand_one"
        if not self.catalog.has(key, self.lang(game)):
            return None
        return self.t(key, self.lang(game), **self.event_params(game, event))

    # -- the table -------------------------------------------------------------------------------

    def status(self, game: LiveGame, view: dict[str, Any]) -> str:
        """Round, phase, who is on turn and what they are choosing; everyone's money (public)."""
        lang = self.lang(game)
        phase = view["phase"]
        if phase == "over":
            return self.t("lastwill.status.over", lang)
        params: dict[str, Any] = {
            "round": view["round"],
            "rounds": view["rounds"],
            "player": self.player(game, _int(view["turn"])),
            "players": self.names(game, view["waiting"]),
        }
        pending = view["pending"]
        if pending is not None:
            params["player"] = self.player(game, _int(pending["seat"]))
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
            turn = _int(view["turn"])
            cards = draw_count(view, turn)[0] if turn is not None else 0
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

    def budget(self, game: LiveGame, budget: Mapping[str, Any]) -> str:
        """ "2 actions left (+1 Valet, 1 free maintenance)"."""
        lang = self.lang(game)
        text = self.t("lastwill.left", lang, actions=self.actions(game, int(budget.get("actions", 0))))
        extra = []
        if _int(budget.get("valet")):
            extra.append(self.t("lastwill.turn.valet", lang, count=budget["valet"]))
        for key, count in (budget.get("free") or {}).items():
            if count:
                extra.append(self.t(f"lastwill.turn.free.{key}", lang, count=count))
        return f"{text} ({', '.join(extra)})" if extra else text

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
                    "lastwill.purse.job", lang, job=job["job"], covered=covered, lines=len(job["lines"])
                )
            elif player["sacked"]:
                note = self.t("lastwill.purse.sacked", lang)
            else:
                note = ""
            found.append(
                self.t(
                    "lastwill.purse.seat",
                    lang,
                    player=self.player(game, int(player["seat"])),
                    money=self.money(game, player["money"]),
                    note=f" ({note})" if note else "",
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
            label = self.t(f"lastwill.button.answer.{pending['kind']}", lang)
            return [Button(label, ui="answer", style="primary", row=0), hand]
        legal = self._table_moves(game)
        if phase == "pick":
            return [*(self.pick_button(game, action) for action in legal)]
        if phase == "discard":
            return [
                Button(self.t("lastwill.button.discard", lang), ui="discard", style="primary", row=0),
                hand,
            ]
        if phase == "planning":
            return [*(self.plan_button(game, plan) for plan in view["plans"] if plan["seat"] is None), hand]
        if phase == "drawing":
            return [Button(self.t("lastwill.button.draw", lang), ui="draw", style="primary", row=0), hand]
        if phase == "errands":
            return [*self.errand_controls(game, view, legal), dataclasses.replace(hand, row=4)]
        return [dataclasses.replace(hand, style="primary"), *self.action_controls(game, view, legal)]

    def _table_moves(self, game: LiveGame) -> list[Action]:
        """The waited-for seats' legal moves that the table may show (:data:`TABLE_KINDS`)."""
        if game.status != "active":
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
        seat = _int(action.args[0]) if action.args else None
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
        seat = _int(view["turn"]) or 0
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
                        clip(self.describe(game, view, seat, card), 100),
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
                    f"lastwill.button.space.{space}", lang, money=self.money(game, opera_cost(view, seat))
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
        """End turn, bankruptcy (behind a confirmation) and a select of the board's moves."""
        lang = self.lang(game)
        seat = _int(view["turn"]) or 0
        controls: list[Control] = []
        if Action("done") in legal:
            controls.append(Button(self.t("lastwill.button.done", lang), action=Action("done"), row=0))
        if Action("bankrupt") in legal:
            controls.append(
                Button(self.t("lastwill.button.bankrupt", lang), ui="bankrupt", style="danger", row=0)
            )
        board = sorted((a for a in legal if a.kind in BOARD_KINDS), key=lambda a: BOARD_KINDS.index(a.kind))
        if board:
            choices = [self.board_choice(game, view, seat, action) for action in board]
            controls.append(Select(self.t("lastwill.select.board", lang), choices, row=1))
        return controls

    def board_choice(self, game: LiveGame, view: View, seat: int, action: Action) -> Choice:
        """One move on one's own board, with what it costs or brings."""
        lang = self.lang(game)
        player = _seat_view(view, seat)
        card = str(action.args[0]) if action.args else ""
        item = next((i for i in player["board"] if i["id"] == card), None)
        params: dict[str, Any] = {"card": self.card(game, card)}
        if action.kind == "keep" and item is not None:
            params["money"] = self.money(game, maintain_cost(view, seat, item))
        elif action.kind == "sell" and item is not None:
            params["money"] = self.money(game, sale_value(view, seat, item))
        elif action.kind == "use" and item is not None:
            params["money"] = self.money(game, expense_cost(view, seat, item))
            record = data.CARDS[card]
            expense = record.expense if isinstance(record, HelperCard) else None
            params["actions"] = self.actions(game, expense.actions if expense is not None else 0)
        elif action.kind == "as":
            params["type"] = self.word(game, "type", action.args[1])
        elif action.kind == "sec":
            params["deck"] = self.word(game, "deck", card)
        return Choice(self.t(f"lastwill.choice.{action.kind}", lang, **params), action)

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
        if code == "done":
            return Panel(self.t("lastwill.panel.closed", self.lang(game)))
        return None

    def _legal(self, game: LiveGame, seat: int) -> list[Action]:
        if game.status != "active":
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
        player = _seat_view(view, seat)
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
        lines += [
            self.t(
                "lastwill.panel.hand_card",
                lang,
                name=self.card_id(game, c),
                what=self.describe(game, view, seat, c),
            )
            for c in hand
        ] or [self.t("lastwill.panel.hand_empty", lang)]
        controls: list[Control] = []
        if self.on_turn(view, seat):
            controls = self.play_controls(game, view, seat, self._legal(game, seat))
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
        if view["phase"] == "discard" and _seat_view(view, seat)["discard_owed"]:
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
                    card=white.name,
                    actions=self.actions(game, white.actions),
                    money=self.money(game, play_cost(view, seat, [card], white.money)),
                )
                labels.append((card, Button(label, action=action, style="primary", row=0)))
            elif kind == "lay":
                black = data.CARDS[card]
                assert isinstance(black, HelperCard)
                label = self.t(
                    "lastwill.button.lay",
                    lang,
                    card=black.name,
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
                    money=self.money(game, buy_price(view, seat, card, typ)),
                )
                labels.append((card, Button(label, action=action, style="success", row=2)))
            elif kind == "ball":
                balls[card] = None
            elif kind == "token":
                companions[str(action.args[1])] = None
            elif kind == "nupt":
                nuptial = True
        for card in balls:
            label = self.t("lastwill.button.ball", lang, card=data.CARDS[card].name)
            labels.append((card, Button(label, ui=f"ball.{card}", style="primary", row=0)))
        for card in companions:
            label = self.t("lastwill.button.token", lang, card=data.CARDS[card].name)
            labels.append((card, Button(label, ui=f"comp.{card}", row=3)))
        controls = _distinct(labels)
        if nuptial:
            controls.append(
                Button(self.t("lastwill.button.nuptial", lang), ui="nupt", style="primary", row=0)
            )
        return controls

    def describe(self, game: LiveGame, view: View, seat: int, card_id: str) -> str:
        """What a card would do now for ``seat``: actions, pounds, a demotion it would earn."""
        lang = self.lang(game)
        record = data.CARDS.get(card_id)
        player = _seat_view(view, seat)
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
                        least=self.money(game, play_cost(view, seat, [card_id], low.money)),
                        most=self.money(game, play_cost(view, seat, [card_id], high.money)),
                    )
                )
            else:
                parts.append(
                    self.t(
                        "lastwill.what.play",
                        lang,
                        actions=self.actions(game, record.actions),
                        money=self.money(game, play_cost(view, seat, [card_id], record.money)),
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
                    money=self.money(game, buy_price(view, seat, card_id, t.value)),
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
        lines = matched_lines(player, symbols)
        if lines:
            best = lines[0]
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
            return self.t("lastwill.what.drop", lang, steps=effect.steps)
        if isinstance(effect, FreeSale):
            return self.t("lastwill.what.free_sale", lang)
        if isinstance(effect, FreeTokens):
            return self.t("lastwill.what.free_tokens", lang, count=effect.count)
        if isinstance(effect, DiscardForMoney):
            symbols = self.phrase(game, [self.word(game, "symbol", s.value) for s in effect.symbols])
            return self.t(
                "lastwill.what.discard_for", lang, symbols=symbols, money=self.money(game, effect.each)
            )
        return ""

    def privilege(self, game: LiveGame, privilege: Privilege) -> str:
        """A helper's privilege in a few words ("+£1 per Dine card")."""
        lang = self.lang(game)
        if isinstance(privilege, SymbolBonus):
            symbols = self.phrase(game, [self.word(game, "symbol", s.value) for s in privilege.symbols])
            key = "lastwill.what.bonus_optional" if privilege.optional else "lastwill.what.bonus"
            return self.t(key, lang, money=self.money(game, privilege.amount), symbols=symbols)
        if isinstance(privilege, OperaBonus):
            return self.t("lastwill.what.opera", lang, money=self.money(game, privilege.amount))
        if isinstance(privilege, MaintainBonus):
            types = self.phrase(game, [self.word(game, "type", t.value) for t in privilege.types])
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
                else f"+{self.money(game, privilege.amount)}",
            )
        if isinstance(privilege, FreeActions):
            return self.t(
                f"lastwill.what.free_{privilege.kind.value}",
                lang,
                count=privilege.count,
                scope=self.t(f"lastwill.scope.{privilege.scope.value}", lang),
            )
        if isinstance(privilege, HandLimitBonus):
            return self.t("lastwill.what.hand_limit", lang, amount=privilege.amount)
        if isinstance(privilege, DrawBonus):
            if privilege.deck is None:
                return self.t("lastwill.what.draw_any", lang, count=privilege.count)
            deck = self.word(game, "deck", privilege.deck.value)
            return self.t("lastwill.what.draw_deck", lang, count=privilege.count, deck=deck)
        if isinstance(privilege, ExtraAction):
            return self.t("lastwill.what.valet" if privilege.white_only else "lastwill.what.old_friend", lang)
        if isinstance(privilege, DrawAndKeep):
            return self.t("lastwill.what.secretary", lang, draw=privilege.draw, keep=privilege.keep)
        return ""

    def companion_panel(self, game: LiveGame, seat: int, card: str) -> Panel:
        """Which card on one's board takes this companion as a token (a wild card: as what)."""
        lang = self.lang(game)
        view = self.view_of(game, seat)
        player = _seat_view(view, seat)
        moves = [
            a for a in self._legal(game, seat) if a.kind == "token" and len(a.args) >= 2 and a.args[1] == card
        ]
        controls: list[Control] = []
        for action in moves:
            target = str(action.args[0])
            item = next((i for i in player["board"] if i["id"] == target), None)
            tokens = len(item["tokens"]) if item is not None else 0
            record = data.CARDS[target]
            slots = (
                record.slots
                if isinstance(record, PropertyCard)
                else (
                    record.expense.slots
                    if isinstance(record, HelperCard) and record.expense is not None
                    else ()
                )
            )
            amount = slots[tokens].amount if tokens < len(slots) else 0
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
        text = self.t(key, lang, card=self.card_id(game, card), what=self.describe(game, view, seat, card))
        return Panel(text, [*controls, self.back(game)])

    def ball_panel(self, game: LiveGame, seat: int, card: str) -> Panel:
        """The Ball's levels one can afford now: each its actions and its pounds."""
        lang = self.lang(game)
        view = self.view_of(game, seat)
        record = data.CARDS.get(card)
        controls: list[Control] = []
        if isinstance(record, EventCard):
            for action in self._legal(game, seat):
                if action.kind == "ball" and action.args[0] == card:
                    level = int(action.args[1])
                    entry = record.ball[level - 1]
                    controls.append(
                        Button(
                            self.t(
                                "lastwill.button.ball_level",
                                lang,
                                level=level,
                                actions=self.actions(game, entry.actions),
                                money=self.money(game, play_cost(view, seat, [card], entry.money)),
                            ),
                            action=action,
                            style="primary",
                            row=0,
                        )
                    )
        key = "lastwill.panel.ball" if controls else "lastwill.panel.ball_none"
        return Panel(self.t(key, lang, card=self.card_id(game, card)), [*controls, self.back(game)])

    def nuptial_panel(self, game: LiveGame, seat: int) -> Panel:
        """Which nuptial cards form a set: a multi-select of those that can, 2 to 4, one action."""
        lang = self.lang(game)
        view = self.view_of(game, seat)
        sets = [a for a in self._legal(game, seat) if a.kind == "nupt"]
        cards = sorted({str(c) for a in sets for c in a.args})
        if not cards:
            return Panel(self.t("lastwill.panel.nuptial_none", lang), [self.back(game)])
        choices = [
            Choice(
                self.card_id(game, card),
                Action("nupt", (card,)),
                clip(self.describe(game, view, seat, card), 100),
            )
            for card in cards
        ]
        sizes = [len(a.args) for a in sets]
        select = Select(
            self.t("lastwill.select.nuptial", lang),
            choices,
            row=0,
            min_values=min(sizes),
            max_values=max(sizes),
            combine="nupt",
        )
        return Panel(self.t("lastwill.panel.nuptial", lang), [select, self.back(game)])

    def answer_panel(self, game: LiveGame, seat: int) -> Panel:
        """The open choice, answered privately: what it is about and one button per answer."""
        lang = self.lang(game)
        view = self.view_of(game, seat)
        pending = view["you"]["pending"]
        if pending is None:
            other = view["pending"]
            if other is not None:
                text = self.t(
                    "lastwill.panel.answer_other", lang, player=self.player(game, _int(other["seat"]))
                )
            else:
                text = self.t("lastwill.panel.answer_none", lang)
            return Panel(text, [self.back(game)])
        kind = str(pending["kind"])
        options = [Action.decode(code) for code in pending["options"]]
        player = _seat_view(view, seat)
        params: dict[str, Any] = {
            "source": self.source(game, pending["source"]),
            "icons": self.icons(game, pending["icons"]),
            "money": self.money(game, pending["money"]),
            "count": pending["count"],
        }
        extras = [int(a.args[0]) for a in options if a.kind == "extra"]
        params["most"] = self.money(game, max(extras, default=0))
        if kind == "line" and player["employment"] is not None:
            params["job"] = player["employment"]["job"]
        controls: list[Control] = []
        if kind == "bpx":
            cards = [str(a.args[0]) for a in options if a.kind == "bpx"]
            if cards:
                choices = [Choice(self.card_id(game, c), Action("bpx", (c,))) for c in cards]
                controls.append(
                    Select(
                        self.t("lastwill.select.bpx", lang),
                        choices,
                        row=0,
                        max_values=len(cards),
                        combine="bpx",
                    )
                )
        for action in options:
            if kind == "bpx" and action.kind == "bpx":
                continue
            controls.append(self.answer_button(game, view, seat, pending, action))
        text = self.t(f"lastwill.panel.answer.{kind}", lang, **params)
        return Panel(clip(text), [*controls, self.back(game)])

    def answer_button(self, game: LiveGame, view: View, seat: int, pending: View, action: Action) -> Button:
        """One answer with what it brings: a companion's pounds, a line's income, a sale's price."""
        lang = self.lang(game)
        kind, args = action.kind, action.args
        player = _seat_view(view, seat)
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
            best = max((int(i[1]) for i in pending["icons"] if i[0] == companion and not i[2]), default=0)
            params = {
                "card": self.card_id(game, card),
                "companion": self.word(game, "companion", companion),
                "money": self.money(game, best),
            }
            key = "lastwill.button.with_wild" if len(args) > 1 else key
        elif kind == "go":
            key = f"lastwill.button.go.{pending['kind']}"
            params = {
                "money": self.money(game, play_cost(view, seat, pending["cards"], int(pending["money"])))
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
                params["money"] = self.money(game, sale_value(view, seat, item, ignore_market=True))
            elif isinstance(record, PropertyCard) and item is not None:
                steps = next(
                    (
                        e.steps
                        for c in str(pending["source"]).split(".")
                        if isinstance(e := _effect(c), DropSteps)
                    ),
                    0,
                )
                to = min(int(item["step"]) + steps, len(record.track) - 1)
                params["from"] = self.money(game, item["value"])
                params["to"] = self.money(game, record.track[to])
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

    def draw_panel(self, game: LiveGame, seat: int, *, told: bool = False) -> Panel:
        """The drawing split: +1 per deck, Back (start over), Confirm once it adds up.

        ``told``: the split was just stated by the step's private line, so the panel does not
        repeat it.
        """
        lang = self.lang(game)
        view = self.view_of(game, seat)
        if view["phase"] != "drawing" or view["turn"] != seat or view["pending"] is not None:
            return Panel(self.t("lastwill.panel.draw_not_now", lang), [self.done(game)])
        want, fixed = draw_count(view, seat)
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
        legal = self._legal(game, seat)
        controls: list[Control] = []
        for action in legal:
            if action.kind == "draw":
                deck = str(action.args[0])
                label = self.t(
                    "lastwill.button.draw_one",
                    lang,
                    deck=self.word(game, "deck", deck),
                    left=available(view, deck) - split.get(deck, 0),
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
        player = _seat_view(view, seat)
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
            self.t(f"lastwill.panel.discard_{view['discard_for'] or 'limit'}", lang, need=need, keep=keep)
        ]
        if chosen:
            lines.append(self.t("lastwill.panel.discard_chosen", lang, cards=self.cards(game, chosen)))
        choices = [
            Choice(
                self.card_id(game, card),
                Action("discard", (card,)),
                clip(self.describe(game, view, seat, card), 100),
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
        if Action("bankrupt") not in self._legal(game, seat):
            return Panel(self.t("lastwill.panel.bankrupt_not_now", lang), [self.done(game)])
        confirm = Button(
            self.t("lastwill.button.bankrupt_confirm", lang), action=Action("bankrupt"), style="danger", row=0
        )
        return Panel(self.t("lastwill.panel.bankrupt", lang), [confirm, self.back(game)])

    # -- after a click ---------------------------------------------------------------------------

    def next_panel(self, game: LiveGame, seat: int, applied: Applied) -> Panel | None:
        """A split stays on the split, a partial discard on the discard, and a play or an answer
        goes on to the choice it opened or back to the hand while the turn lasts; drawing, the
        last discard and the end of one's turn close the panel."""
        if game.status != "active":
            return None
        kind = applied.action.kind
        if kind in SPLIT_KINDS:
            return self.draw_panel(game, seat, told=True)
        view = self.view_of(game, seat)
        if kind == "discard":
            owed = int(_seat_view(view, seat)["discard_owed"]) if view["phase"] == "discard" else 0
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


def _effect(card: str) -> object:
    record = data.CARDS.get(card)
    return record.effect if isinstance(record, EventCard) else None


def _distinct(labelled: Sequence[tuple[str, Control]]) -> list[Control]:
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


async def setup(bot: GameBot) -> None:
    bot.tables.presenters[LastWillPresenter.game] = LastWillPresenter(bot.catalog)
