"""How Last Will says things: money, cards, spaces and decks in words, and one line per event.

:class:`Words` is the root of the presenter's mixins (``hand``, ``table``, ``steps`` and
``presenter`` build on it); it holds the nouns every panel uses and the log's phrasing: an event's
params in words (:meth:`Words.event_param`, :meth:`Words.event_params`), its catalog key
(:meth:`Words.event_key`), and the folding of runs into one line (:meth:`Words.lines`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.core.i18n import plural
from bot.services.sessions import LiveGame
from bot.ui.presenter import Presenter
from rules.core import Event
from rules.lastwill import data
from rules.lastwill.data import PropertyCard

View = dict[str, Any]
REGULAR = tuple(deck.value for deck in data.REGULAR_DECKS)

INCOMES = frozenset({"income", "final_income"})
"""Events told as one line per run ("Income: ana £11 · bob £7")."""
PAIRS = {("errand_ext", "extension"): "errand_ext_taken"}
MONEY_PARAMS = frozenset({"money", "amount", "price", "value", "penalty", "bonus", "floor"})
"""Params that hold pounds, written ``£12`` / ``12 £`` (``floor``: the least a refusal says one may keep)."""
FREE_ACTIONS = frozenset({"buy_or_sell:farm", "buy_or_sell:non_farm", "maintain:farm", "maintain:non_farm"})
"""The free actions a helper gives a turn (the engine's ``kind:scope``), each counted by
``lastwill.turn.free.<kind>_<scope>``."""
"""An event told together with the one right after it (same seat): the boy's extension."""


def signed(value: object) -> str:
    """A market token as printed: ``+3``, ``−2`` (a true minus sign, as money writes debts)."""
    number = as_int(value) or 0
    return f"+{number}" if number >= 0 else f"−{-number}"


def as_int(value: object) -> int | None:
    """An int from a view or event param; ``None`` for anything else (``True`` included)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def player_of(view: View, seat: int) -> View:
    """The seat's entry in a view's ``players``: money, board, job, all public."""
    player: View = view["players"][seat]
    return player


class Words(Presenter):
    """The nouns and the event lines (see the module docstring)."""

    seat_list_params = Presenter.seat_list_params | {"picked"}

    # -- words -----------------------------------------------------------------------------------

    def lang(self, game: LiveGame) -> str:
        return game.row.language

    def money(self, game: LiveGame, amount: object) -> str:
        """``£12``, or ``−£3`` for a debt (only a player with no property and no job has one)."""
        value = as_int(amount) or 0
        key = "lastwill.money_negative" if value < 0 else "lastwill.money"
        return self.t(key, self.lang(game), amount=self.number(game, abs(value)))

    def card_name(self, game: LiveGame, card_id: object) -> str:
        """A card's name in the table's language (``lastwill.card.<key>``), as the board draws it."""
        key = data.CARD_NAME_KEYS.get(str(card_id))
        return self.t(f"lastwill.card.{key}", self.lang(game)) if key is not None else str(card_id)

    def card(self, game: LiveGame, card_id: object) -> str:
        """A card by its name; a property also by its id ("Town House T2"): several share a name,
        and the log must say which one was bought, sold or lost value."""
        record = data.CARDS.get(str(card_id))
        if record is None:
            return str(card_id)
        if isinstance(record, PropertyCard):
            return self.t(
                "lastwill.property_name", self.lang(game), name=self.card_name(game, record.id), id=record.id
            )
        return self.card_name(game, record.id)

    def card_id(self, game: LiveGame, card_id: str) -> str:
        """A card with its id, for private lists where two copies must be told apart."""
        record = data.CARDS.get(card_id)
        if record is None or isinstance(record, PropertyCard):
            return self.card(game, card_id)
        return self.t(
            "lastwill.card_with_id", self.lang(game), name=self.card_name(game, card_id), id=card_id
        )

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
        """An employment card's job in the table's language (``lastwill.job.<key>``)."""
        key = data.JOB_NAME_KEYS.get(str(job_id))
        return self.t(f"lastwill.job.{key}", self.lang(game)) if key is not None else str(job_id)

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
        """Cards per deck: "3 Event cards and 2 Property cards" (a split or a draw's public
        counts), each counted in its own words ("1 carte Propriété")."""
        items = counts.items() if isinstance(counts, dict) else []
        found = [
            self.count(f"lastwill.deck_count.{deck}", self.lang(game), n)
            for deck, n in sorted(items, key=lambda kv: REGULAR.index(kv[0]))
            if deck in REGULAR and as_int(n)
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

    def budget(self, game: LiveGame, budget: Mapping[str, Any]) -> str:
        """ "2 actions left (+1 Valet and 1 free maintenance)"."""
        lang = self.lang(game)
        actions = self.actions(game, as_int(budget.get("actions")) or 0)
        extra = self.extras(game, budget)
        if not extra:
            return self.t("lastwill.left", lang, actions=actions)
        return self.t("lastwill.left_extra", lang, actions=actions, extra=self.phrase(game, extra))

    def extras(self, game: LiveGame, budget: Mapping[str, Any]) -> list[str]:
        """What a turn has beside its actions: the Valet's action, free buys, sales and upkeep."""
        extra = []
        if as_int(budget.get("valet")):
            extra.append(
                self.t("lastwill.turn.valet", self.lang(game), count=self.number(game, budget["valet"]))
            )
        return extra + self.free_actions(game, budget.get("free"))

    def free_actions(self, game: LiveGame, free: object) -> list[str]:
        """A turn's free actions, counted: "1 free maintenance", "2 achats ou ventes gratuits"."""
        lang = self.lang(game)
        return [
            self.count(f"lastwill.turn.free.{str(key).replace(':', '_')}", lang, count)
            for key, count in (free.items() if isinstance(free, dict) else [])
            if as_int(count) and str(key) in FREE_ACTIONS
        ]

    # -- events ----------------------------------------------------------------------------------

    def played_detail(self, game: LiveGame, params: Mapping[str, Any]) -> str:
        """After a play, an upkeep or an expense: the companions added and the helpers' bonus, a
        whole catalog phrase each way (" (with Horse; £2 from helpers)"), or nothing."""
        lang = self.lang(game)
        companions = params.get("companions")
        bonus = as_int(params.get("bonus"))
        found = {
            "companions": self.cards(game, companions) if companions else "",
            "bonus": self.money(game, bonus) if bonus else "",
        }
        if companions and bonus:
            return self.t("lastwill.played.with_bonus", lang, **found)
        if companions:
            return self.t("lastwill.played.with", lang, **found)
        if bonus:
            return self.t("lastwill.played.bonus", lang, **found)
        return ""

    def tally(self, game: LiveGame, key: str, count: int, **params: Any) -> str:
        """The catalog's ``key_one`` / ``key_other`` for ``count`` with more params ("3 cartes
        Événement à la pioche"): :meth:`bot.core.i18n.Words.count` in the table's language."""
        return self.catalog.words(self.lang(game)).count(key, count, **params)

    def either(self, game: LiveGame, items: Sequence[str]) -> str:
        """Alternatives as one phrase: "Helm or Dine", "Manoir ou Château" (``lastwill.or``)."""
        joiner = self.t("lastwill.or", self.lang(game))
        if len(items) <= 2:
            return joiner.join(items)
        return joiner.join((", ".join(items[:-1]), items[-1]))

    def counted(self, game: LiveGame, key: str, count: object) -> str:
        """``key_one`` or ``key_other`` as the table's language counts ``count`` (French: 0 is one)."""
        return f"{key}_{plural(self.lang(game), as_int(count) or 0)}"

    def event_param(self, game: LiveGame, key: str, value: Any) -> Any:
        """Cards by name, pounds as ``£12``, actions counted, decks, types, symbols and companions
        in words: an event's params and a refusal's (:meth:`Presenter.illegal`) alike."""
        if key in ("card", "target") and isinstance(value, str):
            return self.card(game, value)
        if (
            key in ("cards", "companions", "unclaimed")
            and isinstance(value, list)
            and all(isinstance(v, str) for v in value)
        ):
            return self.cards(game, value)
        if key in MONEY_PARAMS and as_int(value) is not None:
            return self.money(game, value)
        if key == "actions" and as_int(value) is not None:
            return self.actions(game, int(value))
        if key in ("type", "other_type") and isinstance(value, str):
            return self.word(game, "type", value)
        if key == "types" and isinstance(value, list):
            return self.phrase(game, [self.word(game, "type", v) for v in value])
        if key == "deck" and isinstance(value, str):
            return self.word(game, "deck", value)
        if key in ("as", "companion", "other_companion") and isinstance(value, str):
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
        if kind == "step_declined":
            params["what"] = self.t(f"lastwill.declined.{p.get('step')}", lang)
        if kind in ("depreciated", "value_dropped"):
            prop = data.CARDS.get(str(p.get("card")))
            if isinstance(prop, PropertyCard):
                last = len(prop.track) - 1
                params["from"] = self.money(game, prop.track[min(as_int(p.get("from")) or 0, last)])
                params["to"] = self.money(game, prop.track[min(as_int(p.get("to")) or 0, last)])
            params["owner"] = self.player(game, event.seat)
        if kind == "turn_started":
            actions = self.actions(game, as_int(p.get("actions")) or 0)
            params["budget"] = self.phrase(game, [actions, *self.extras(game, p)])
        if kind in ("card_played", "maintained", "expense_used"):
            params["extra"] = self.played_detail(game, p)
        if kind == "bought":
            params["tokens"] = params.get("free_tokens", "")
        if kind == "actions_gained":
            params["actions"] = self.actions(game, as_int(p.get("amount")) or 0)
        if kind == "plan_chosen":
            params["cards"] = self.count("lastwill.cards", lang, as_int(p.get("cards")) or 0)
            params["boys"] = self.count("lastwill.boys", lang, as_int(p.get("boys")) or 0)
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
            params["count"] = self.number(game, as_int(p.get("unused")) or 0)
        if kind == "valued":
            params["properties"] = self.count("lastwill.properties", lang, as_int(p.get("properties")) or 0)
        if kind == "round_ended":
            params["count"] = self.number(game, len(p.get("unclaimed") or []))
        if kind == "reshuffled":
            params["count"] = self.number(game, as_int(p.get("cards")) or 0)
        if kind == "game_over":
            params["money"] = self.per_seat(game, p.get("money"), lambda m: self.money(game, m))
        if kind == "handicap_toggled":
            params["target"] = self.player(game, as_int(p.get("target_seat")))
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
        if kind == "discarded" and as_int(p.get("left")):
            return f"{base}_more"
        if kind == "game_over":
            if not p.get("winners"):
                return f"{base}_nobody"
            return f"{base}_bankruptcy" if p.get("bankruptcy") else base
        if kind == "handicap_toggled":
            return f"{base}_on" if p.get("target_seat") in (p.get("picked") or []) else f"{base}_off"
        if kind == "planner_extra" and not as_int(p.get("amount")):
            return f"{base}_none"
        if kind == "turn_ended" and as_int(p.get("unused")):
            return self.counted(game, f"{base}_unused", p.get("unused"))
        if kind == "round_ended":
            return self.counted(game, base, len(p.get("unclaimed") or []))
        if kind == "reshuffled":
            return self.counted(game, base, p.get("cards"))
        if kind == "secretary_drew":
            return self.counted(game, base, p.get("count"))
        if kind == "wild_returned":
            return self.counted(game, base, len(p.get("cards") or []))
        if kind == "bought":
            record = data.CARDS.get(str(p.get("card")))
            if p.get("free_tokens"):
                return f"{base}_free"
            return f"{base}_as" if isinstance(record, PropertyCard) and len(record.types) > 1 else base
        if kind == "card_played" and not as_int(p.get("money")):
            return f"{base}_free"
        if kind == "valued" and as_int(p.get("penalty")):
            return f"{base}_penalty"
        return base

    def paired(self, game: LiveGame, event: Event, following: Event) -> str | None:
        """A boy's errand to the extension space and the extension it brought (:data:`PAIRS`)."""
        pair = PAIRS.get((self.event_key(game, event).removeprefix("lastwill.event."), following.kind))
        return f"lastwill.event.{pair}" if pair is not None else None

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
                    key = "played_at_once" if as_int(paid.params.get("money")) else "played_at_once_free"
                    out.append(self.t(f"lastwill.event.{key}", lang, **params))
                    index += 1
                    public = [e for e in public if e is not paid]
                    continue
            pair = self.pair_line(game, public, index)
            if pair is not None:
                out.append(pair)
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
            items = self.t("lastwill.semicolon", lang).join(
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
