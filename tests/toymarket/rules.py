"""Toy Market: the smallest game with Monopoly's deals and Last Will's secret discards.

A test-only game (hidden from players, like ``harness/toygame``).  It exists so the host is tested
on the interaction patterns of the two big games before they exist:

- **Turns.**  Each round every seat, in turn order, *rolls*: a die names one of six lots; the
  roller takes ``ROLL_INCOME`` cash and the lot's owner collects its rent.
- **Holdings and an any-time action.**  Six named lots with owners and levels, and public cash.
  At any time, on anybody's turn, an owner may *improve* a lot (its price rises with its level).
- **Offers as engine state.**  A seat composes a deal privately (a *draft*: lots and cash on each
  side, built in small steps), then *sends* it: it becomes a public, numbered offer, and the
  game waits for the recipient, who may *accept*, *reject* or *counter* (a counter closes the
  offer and opens a draft back, sides swapped).  The proposer may *withdraw*.  An offer *lapses*
  (is removed, with a public event) as soon as a lot named in it changes owner or level, or a
  side can no longer pay the cash named in it; acting on a closed offer is refused with the
  reason it closed (``IllegalAction("closed_withdrawn", offer=2, answer="accept")``).
- **Simultaneous secret choices.**  After every seat has rolled, every seat discards one card
  of its hidden hand at once.  A choice is told only to the chooser; when all have chosen, the
  discards are revealed together and each pays its value in cash.  After ``rounds`` rounds the
  market closes: score = cash + the worth of one's lots + the cards still in hand.

Actions (``Action(kind, args)``), turn actions first, then any-time ones:

- ``roll``: the seat on turn, in the play phase.
- ``discard.<card>``: a card id from one's hand, once per discard phase.
- ``improve.<lot>``: one's own lot below ``MAX_LEVEL``, for ``IMPROVE_COST[level]``.
- ``deal.<seat>``: start (or restart) one's draft, to another seat.
- ``give[.<lot>...]`` / ``want[.<lot>...]``: the set of one's own lots the draft gives / of the
  recipient's lots it asks for (any set, the empty one included).
- ``pay.<seat>.<n>`` / ``ask.<seat>.<n>``: cash the draft gives / asks for, at most what the payer
  holds; ``seat`` must be the draft's recipient (a form opened for an earlier one is refused).
- ``send`` / ``drop``: send the draft as a public offer / throw it away.
- ``accept.<n>`` / ``reject.<n>`` / ``counter.<n>``: the recipient of open offer ``n``.
- ``withdraw.<n>``: its proposer.

Events (``kind(params)``; *private* ones go to their seat only):

- ``rolled(die, lot, income, owner, rent)``, ``improved(lot, level, cost)``
- ``draft_started(to_seat)``, ``draft_changed(to_seat, give, want, pay, ask)``, ``draft_dropped()``:
  private
- ``offered(offer, to_seat, give, want, pay, ask)``, ``accepted(offer, from_seat, ...terms)``,
  ``rejected(offer, from_seat)``, ``countered(offer, from_seat)``, ``withdrawn(offer, to_seat)``,
  ``lapsed(offer, from_seat, to_seat, reason[, lot | payer_seat])`` with ``reason`` one of
  ``LAPSE_REASONS``
- ``discard_phase(round)``; ``discard_chosen(card, value)``: private;
  ``discards_revealed(values)`` (one value per seat); ``round_started(round, rounds, first_seat)``;
  ``game_ended()``

Hidden information: the hands, each seat's pending discard, the drafts and the deck.  Drafting
is a private action (only its seat hears of it, and nobody is waited for because of it), so
composing an offer changes nothing anyone else can see; sending it does.

Refusals (``IllegalAction(key, **params)``) name their reason; the host words them from
``toymarket.illegal.<key>`` in ``tests/toymarket/cog.py``.  Params are ints, seats (``to_seat``,
named by the host) and the game's tokens (``lot``, ``answer``), which the presenter words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from rules.core import (
    JSON,
    Action,
    Event,
    GameClock,
    IllegalAction,
    OptionSpec,
    Outcome,
    Rules,
    StateError,
    check_players,
    rank_by,
    validate_options,
)
from rules.rng import Rng

SCHEMA = 1

LOTS = ("acorn", "birch", "cedar", "dune", "elm", "fern")
"""The six lots, in board order (also alphabetical, so a multi-select's sorted set is board order).
Die face ``n`` names ``LOTS[n - 1]``."""

DIE_FACES = len(LOTS)
START_CASH = 8
ROLL_INCOME = 2
"""Cash the roller takes from the bank on every roll, whichever lot the die names."""
RENT = (1, 2, 3, 4)
"""Cash a lot's owner collects from the bank when the die names it, by the lot's level."""
IMPROVE_COST = (3, 4, 5)
"""Price of raising a lot from level ``i`` to ``i + 1``; its length is the top level."""
MAX_LEVEL = len(IMPROVE_COST)
LOT_WORTH = (4, 8, 12, 16)
"""What a lot scores at the end, by level."""

CARD_VALUES = tuple(1 + card % 7 for card in range(28))
"""The deck: card id -> value (four each of 1..7).  Enough for 4 seats x (MAX_ROUNDS + 1) cards."""
KEEP = 1
"""Cards each seat still holds at the end: hands are dealt ``rounds + KEEP`` cards, one is
discarded per round."""

DEFAULT_ROUNDS = 3
MAX_ROUNDS = 5
MAX_PLAYERS = 4
assert len(CARD_VALUES) >= MAX_PLAYERS * (MAX_ROUNDS + KEEP), "the deck deals every hand"

LAPSE_REASONS = ("lot_changed", "cash_short", "game_over")
"""Why an open offer lapses: a lot named in it changed owner or level, a side can no longer pay
the cash named in it, or the market closed with the offer still open."""

PLAY, DISCARD, OVER = "play", "discard", "over"

NO_ARGS = frozenset({"roll", "send", "drop"})
OFFER_KINDS = frozenset({"accept", "reject", "counter", "withdraw"})
DRAFT_KINDS = frozenset({"give", "want", "pay", "ask", "send", "drop"})


def lot_name(lot: str) -> str:
    """A lot as a sentence shows it ("Acorn")."""
    return lot.capitalize()


@dataclass(slots=True)
class Draft:
    """An offer being composed: private to its seat until sent."""

    to: int
    give: tuple[str, ...] = ()
    want: tuple[str, ...] = ()
    pay: int = 0
    ask: int = 0

    def empty(self) -> bool:
        return not (self.give or self.want or self.pay or self.ask)

    def to_json(self) -> dict[str, JSON]:
        return {
            "to": self.to,
            "give": list(self.give),
            "want": list(self.want),
            "pay": self.pay,
            "ask": self.ask,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Draft:
        return cls(
            to=int(data["to"]),
            give=tuple(str(x) for x in data["give"]),
            want=tuple(str(x) for x in data["want"]),
            pay=int(data["pay"]),
            ask=int(data["ask"]),
        )


@dataclass(slots=True)
class Offer:
    """A sent offer: public and immutable; ``levels`` are its lots' levels when it was sent."""

    number: int
    proposer: int
    recipient: int
    give: tuple[str, ...]
    want: tuple[str, ...]
    pay: int
    ask: int
    levels: dict[str, int]

    def terms(self) -> dict[str, JSON]:
        return {"give": list(self.give), "want": list(self.want), "pay": self.pay, "ask": self.ask}

    def to_json(self) -> dict[str, JSON]:
        return {
            "number": self.number,
            "proposer": self.proposer,
            "recipient": self.recipient,
            **self.terms(),
            "levels": dict(self.levels),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Offer:
        return cls(
            number=int(data["number"]),
            proposer=int(data["proposer"]),
            recipient=int(data["recipient"]),
            give=tuple(str(x) for x in data["give"]),
            want=tuple(str(x) for x in data["want"]),
            pay=int(data["pay"]),
            ask=int(data["ask"]),
            levels={str(k): int(v) for k, v in data["levels"].items()},
        )


@dataclass(slots=True)
class MarketState:
    rounds: int
    cash: list[int]
    owners: list[int]
    """Owner seat of each lot, in ``LOTS`` order."""
    hands: list[list[int]]
    deck: list[int]
    rng: Rng
    first: int = 0
    turn: int = 0
    round: int = 1
    rolled: int = 0
    """Rolls taken this round; the discard phase starts when every seat has rolled."""
    phase: str = PLAY
    levels: list[int] = field(default_factory=lambda: [0] * len(LOTS))
    chosen: list[int | None] = field(default_factory=list)
    """Each seat's pending discard (a card id) in the discard phase: hidden until all have chosen."""
    discards: list[list[int]] = field(default_factory=list)
    """Revealed discards, card ids per seat, oldest first."""
    drafts: list[Draft | None] = field(default_factory=list)
    offers: list[Offer] = field(default_factory=list)
    closed: dict[int, tuple[str, str]] = field(default_factory=dict)
    """Offer number -> (why it closed, the lot for ``lot_changed``): what a late answer is told."""
    next_offer: int = 1
    """Numbers are given when an offer is *sent*, so they count public offers only."""
    paid_out: int = 0
    paid_in: int = 0
    """Cash the bank paid (income, rent, discards) and took (improvements), for the money law."""
    last_roll: int | None = None


class MarketRules:
    name = "toymarket"
    title = "Toy Market"
    min_players = 2
    max_players = MAX_PLAYERS
    schema = SCHEMA
    play_options: Mapping[str, object] = {}
    options: tuple[OptionSpec, ...] = (OptionSpec("rounds", DEFAULT_ROUNDS, minimum=1, maximum=MAX_ROUNDS),)

    # -- setup -----------------------------------------------------------------------------------

    def table_options(self, options: Mapping[str, object]) -> dict[str, Any]:
        return validate_options(self.options, options)

    def setup(self, players: int, options: Mapping[str, object], seed: int) -> MarketState:
        """Lots dealt round the table from a shuffled row, hands of ``rounds + KEEP`` hidden cards."""
        check_players(self, players)
        opts = self.table_options(options)
        rounds = int(opts["rounds"])
        rng = Rng(seed)
        order = list(range(len(LOTS)))
        rng.shuffle(order)
        owners = [0] * len(LOTS)
        for dealt, lot in enumerate(order):
            owners[lot] = dealt % players
        deck = list(range(len(CARD_VALUES)))
        rng.shuffle(deck)
        size = rounds + KEEP
        hands = [sorted(deck[seat * size : (seat + 1) * size]) for seat in range(players)]
        first = rng.below(players)
        return MarketState(
            rounds=rounds,
            cash=[START_CASH] * players,
            owners=owners,
            hands=hands,
            deck=deck[players * size :],
            rng=rng,
            first=first,
            turn=first,
            chosen=[None] * players,
            discards=[[] for _ in range(players)],
            drafts=[None] * players,
        )

    # -- what may be done ------------------------------------------------------------------------

    def legal_actions(self, state: MarketState, seat: int) -> list[Action]:
        """Turn actions first, then answers to offers, then any-time actions (improve, drafting).

        Complete: every action this seat may take now is listed, every subset of its lots for a
        draft's ``give`` and every amount of cash, so a fuzzer reaches every rule.
        """
        if state.phase == OVER or not 0 <= seat < len(state.cash):
            return []
        actions: list[Action] = []
        if state.phase == PLAY and seat == state.turn:
            actions.append(Action("roll"))
        if state.phase == DISCARD and state.chosen[seat] is None:
            actions += [Action("discard", (card,)) for card in state.hands[seat]]
        for offer in state.offers:
            if offer.recipient == seat:
                actions += [Action(kind, (offer.number,)) for kind in ("accept", "reject", "counter")]
            if offer.proposer == seat:
                actions.append(Action("withdraw", (offer.number,)))
        for index, lot in enumerate(LOTS):
            level = state.levels[index]
            if state.owners[index] == seat and level < MAX_LEVEL and state.cash[seat] >= IMPROVE_COST[level]:
                actions.append(Action("improve", (lot,)))
        actions += [Action("deal", (other,)) for other in range(len(state.cash)) if other != seat]
        draft = state.drafts[seat]
        if draft is None:
            return actions
        actions += [Action("give", subset) for subset in _subsets(_lots_of(state, seat))]
        actions += [Action("want", subset) for subset in _subsets(_lots_of(state, draft.to))]
        actions += [Action("pay", (draft.to, n)) for n in range(state.cash[seat] + 1)]
        actions += [Action("ask", (draft.to, n)) for n in range(state.cash[draft.to] + 1)]
        if self._send_problem(state, seat, draft) is None:
            actions.append(Action("send"))
        actions.append(Action("drop"))
        return actions

    def waiting_for(self, state: MarketState) -> frozenset[int]:
        """The roller (or every seat still to discard), plus the recipient of every open offer."""
        if state.phase == OVER:
            return frozenset()
        if state.phase == PLAY:
            waiting = {state.turn}
        else:
            waiting = {seat for seat, card in enumerate(state.chosen) if card is None}
        return frozenset(waiting | {offer.recipient for offer in state.offers})

    def game_clock(self, state: MarketState) -> GameClock | None:
        return None  # no clock of the rules' own: the table's timer is the only one

    def timeout_action(self, state: MarketState, seat: int) -> Action | None:
        """What the game does for a seat it waited on too long: reject the oldest offer addressed
        to it (nobody trades an absent seat's lots), else roll on its turn, else discard its
        lowest card (a discard pays its value, a kept card scores it: the lowest risks least).
        Reads only the seat's own hand."""
        if seat not in self.waiting_for(state):
            return None
        offer = next((o for o in state.offers if o.recipient == seat), None)
        if offer is not None:
            return Action("reject", (offer.number,))
        if state.phase == PLAY:
            return Action("roll")
        return Action("discard", (min(state.hands[seat], key=lambda card: (CARD_VALUES[card], card)),))

    def sealed(self, state: MarketState) -> JSON:
        """The die's draw counter, the deck's order and the discards chosen but not yet revealed."""
        return [state.rng.draws, list(state.deck), list(state.chosen)]

    # -- applying --------------------------------------------------------------------------------

    def apply(self, state: MarketState, seat: int, action: Action) -> list[Event]:
        """Validate completely, then change the state; ``IllegalAction`` leaves it untouched."""
        if not 0 <= seat < len(state.cash):
            raise IllegalAction("no_seat")
        kind = action.kind
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise IllegalAction("unknown_action")
        if state.phase == OVER:
            raise IllegalAction("market_closed")
        if kind in NO_ARGS and action.args:
            raise IllegalAction("takes_no_arguments")
        return handler(self, state, seat, action)

    def _roll(self, state: MarketState, seat: int, action: Action) -> list[Event]:
        if state.phase != PLAY:
            raise IllegalAction("roll_in_discard")
        if seat != state.turn:
            raise IllegalAction("not_your_roll")
        die = 1 + state.rng.below(DIE_FACES)
        index = die - 1
        owner = state.owners[index]
        rent = RENT[state.levels[index]]
        state.cash[seat] += ROLL_INCOME
        state.cash[owner] += rent
        state.paid_out += ROLL_INCOME + rent
        state.last_roll = die
        events = [
            Event(
                "rolled",
                seat,
                {"die": die, "lot": LOTS[index], "income": ROLL_INCOME, "owner": owner, "rent": rent},
            )
        ]
        state.rolled += 1
        if state.rolled < len(state.cash):
            state.turn = (state.turn + 1) % len(state.cash)
            return events
        state.phase = DISCARD
        state.chosen = [None] * len(state.cash)
        events.append(Event("discard_phase", None, {"round": state.round}))
        return events

    def _discard(self, state: MarketState, seat: int, action: Action) -> list[Event]:
        card = _one_int(action)
        if card is None:
            raise IllegalAction("which_card")
        if state.phase != DISCARD:
            raise IllegalAction("discard_not_now")
        if state.chosen[seat] is not None:
            raise IllegalAction("discard_chosen_already")
        if card not in state.hands[seat]:
            raise IllegalAction("card_not_in_hand")
        state.hands[seat].remove(card)
        state.chosen[seat] = card
        events = [
            Event(
                "discard_chosen",
                seat,
                {"card": card, "value": CARD_VALUES[card]},
                visible_to=frozenset({seat}),
            )
        ]
        if any(choice is None for choice in state.chosen):
            return events
        return events + self._reveal(state)

    def _reveal(self, state: MarketState) -> list[Event]:
        """Every seat has chosen: the discards are shown together, paid, and the round moves on."""
        values = []
        for seat, card in enumerate(state.chosen):
            assert card is not None
            value = CARD_VALUES[card]
            state.discards[seat].append(card)
            state.cash[seat] += value
            state.paid_out += value
            values.append(value)
        state.chosen = [None] * len(state.cash)
        events = [Event("discards_revealed", None, {"values": values})]
        if state.round == state.rounds:
            return events + self._close_market(state)
        state.round += 1
        state.first = (state.first + 1) % len(state.cash)
        state.turn = state.first
        state.rolled = 0
        state.phase = PLAY
        events.append(
            Event(
                "round_started",
                None,
                {"round": state.round, "rounds": state.rounds, "first_seat": state.first},
            )
        )
        return events

    def _close_market(self, state: MarketState) -> list[Event]:
        events = [self._lapse(state, offer, "game_over") for offer in list(state.offers)]
        state.drafts = [None] * len(state.cash)
        state.phase = OVER
        state.last_roll = None
        return [*events, Event("game_ended")]

    def _improve(self, state: MarketState, seat: int, action: Action) -> list[Event]:
        lot = _one_lot(action)
        index = LOTS.index(lot)
        if state.owners[index] != seat:
            raise IllegalAction("not_your_lot", lot=lot)
        level = state.levels[index]
        if level >= MAX_LEVEL:
            raise IllegalAction("fully_improved", lot=lot)
        cost = IMPROVE_COST[level]
        if state.cash[seat] < cost:
            raise IllegalAction("improve_too_dear", lot=lot, cost=cost, cash=state.cash[seat])
        state.cash[seat] -= cost
        state.paid_in += cost
        state.levels[index] = level + 1
        events = [Event("improved", seat, {"lot": lot, "level": level + 1, "cost": cost})]
        return events + self._lapse_changed(state)

    # -- drafting (private) ----------------------------------------------------------------------

    def _deal(self, state: MarketState, seat: int, action: Action) -> list[Event]:
        to = _one_int(action)
        if to is None:
            raise IllegalAction("which_recipient")
        if to == seat:
            raise IllegalAction("offer_to_self")
        if not 0 <= to < len(state.cash):
            raise IllegalAction("no_such_recipient")
        state.drafts[seat] = Draft(to)
        return [Event("draft_started", seat, {"to_seat": to}, visible_to=frozenset({seat}))]

    def _draft(self, state: MarketState, seat: int) -> Draft:
        draft = state.drafts[seat]
        if draft is None:
            raise IllegalAction("no_draft")
        return draft

    def _give(self, state: MarketState, seat: int, action: Action) -> list[Event]:
        draft = self._draft(state, seat)
        lots = _lot_set(action)
        for lot in lots:
            if state.owners[LOTS.index(lot)] != seat:
                raise IllegalAction("not_your_lot", lot=lot)
        draft.give = lots
        return [_draft_changed(seat, draft)]

    def _want(self, state: MarketState, seat: int, action: Action) -> list[Event]:
        draft = self._draft(state, seat)
        lots = _lot_set(action)
        for lot in lots:
            if state.owners[LOTS.index(lot)] != draft.to:
                raise IllegalAction("not_their_lot", lot=lot, to_seat=draft.to)
        draft.want = lots
        return [_draft_changed(seat, draft)]

    def _cash(self, state: MarketState, seat: int, action: Action) -> list[Event]:
        draft = self._draft(state, seat)
        if len(action.args) != 2 or not all(isinstance(a, int) for a in action.args):
            raise IllegalAction("which_cash")
        to, amount = int(action.args[0]), int(action.args[1])
        if to != draft.to:
            raise IllegalAction("draft_moved", to_seat=draft.to)
        if amount < 0:
            raise IllegalAction("negative_cash")
        if action.kind == "pay":
            if amount > state.cash[seat]:
                raise IllegalAction("pay_too_much", cash=state.cash[seat], amount=amount)
            draft.pay = amount
        else:
            if amount > state.cash[to]:
                raise IllegalAction("ask_too_much", to_seat=to, cash=state.cash[to], amount=amount)
            draft.ask = amount
        return [_draft_changed(seat, draft)]

    def _drop(self, state: MarketState, seat: int, action: Action) -> list[Event]:
        if state.drafts[seat] is None:
            raise IllegalAction("nothing_to_drop")
        state.drafts[seat] = None
        return [Event("draft_dropped", seat, visible_to=frozenset({seat}))]

    def _send_problem(self, state: MarketState, seat: int, draft: Draft) -> IllegalAction | None:
        """Why this draft cannot be sent now (the refusal ``send`` raises); ``None`` when it can.

        ``legal_actions`` asks too, so Send is listed exactly when it would be accepted.
        """
        if draft.empty():
            return IllegalAction("empty_offer")
        mine = next((o for o in state.offers if o.proposer == seat), None)
        if mine is not None:
            return IllegalAction("offer_still_open", offer=mine.number)
        for lot in draft.give:
            if state.owners[LOTS.index(lot)] != seat:
                return IllegalAction("no_longer_yours", lot=lot)
        for lot in draft.want:
            if state.owners[LOTS.index(lot)] != draft.to:
                return IllegalAction("no_longer_theirs", lot=lot, to_seat=draft.to)
        if draft.pay > state.cash[seat]:
            return IllegalAction("pay_too_much", cash=state.cash[seat], amount=draft.pay)
        if draft.ask > state.cash[draft.to]:
            return IllegalAction(
                "ask_too_much", to_seat=draft.to, cash=state.cash[draft.to], amount=draft.ask
            )
        return None

    def _send(self, state: MarketState, seat: int, action: Action) -> list[Event]:
        draft = self._draft(state, seat)
        problem = self._send_problem(state, seat, draft)
        if problem is not None:
            raise problem
        offer = Offer(
            number=state.next_offer,
            proposer=seat,
            recipient=draft.to,
            give=draft.give,
            want=draft.want,
            pay=draft.pay,
            ask=draft.ask,
            levels={lot: state.levels[LOTS.index(lot)] for lot in (*draft.give, *draft.want)},
        )
        state.next_offer += 1
        state.offers.append(offer)
        state.drafts[seat] = None
        return [Event("offered", seat, {"offer": offer.number, "to_seat": offer.recipient, **offer.terms()})]

    # -- answering offers (public) ---------------------------------------------------------------

    def _open_offer(self, state: MarketState, action: Action) -> Offer:
        """The open offer an answer names; a closed one is refused with why it closed."""
        number = _one_int(action)
        if number is None:
            raise IllegalAction("which_offer")
        for offer in state.offers:
            if offer.number == number:
                return offer
        if number in state.closed:
            why, lot = state.closed[number]
            raise _closed(number, why, lot, action.kind)
        raise IllegalAction("no_such_offer", offer=number)

    def _answer(self, state: MarketState, seat: int, action: Action) -> list[Event]:
        offer = self._open_offer(state, action)
        if action.kind == "withdraw":
            if offer.proposer != seat:
                raise IllegalAction("not_proposer", offer=offer.number)
            self._close(state, offer, "withdrawn")
            return [Event("withdrawn", seat, {"offer": offer.number, "to_seat": offer.recipient})]
        if offer.recipient != seat:
            raise IllegalAction("not_recipient", offer=offer.number)
        if action.kind == "reject":
            self._close(state, offer, "rejected")
            return [Event("rejected", seat, {"offer": offer.number, "from_seat": offer.proposer})]
        if action.kind == "counter":
            self._close(state, offer, "countered")
            draft = Draft(offer.proposer, give=offer.want, want=offer.give, pay=offer.ask, ask=offer.pay)
            state.drafts[seat] = draft
            return [
                Event("countered", seat, {"offer": offer.number, "from_seat": offer.proposer}),
                Event("draft_started", seat, {"to_seat": offer.proposer}, visible_to=frozenset({seat})),
                _draft_changed(seat, draft),
            ]
        # Accept: an open offer is always good (it lapses the moment it is not), so it trades now.
        self._close(state, offer, "accepted")
        for lot in offer.give:
            state.owners[LOTS.index(lot)] = offer.recipient
        for lot in offer.want:
            state.owners[LOTS.index(lot)] = offer.proposer
        state.cash[offer.proposer] += offer.ask - offer.pay
        state.cash[offer.recipient] += offer.pay - offer.ask
        events = [
            Event("accepted", seat, {"offer": offer.number, "from_seat": offer.proposer, **offer.terms()})
        ]
        return events + self._lapse_changed(state)

    def _close(self, state: MarketState, offer: Offer, why: str, lot: str = "") -> None:
        state.offers.remove(offer)
        state.closed[offer.number] = (why, lot)

    def _lapse(self, state: MarketState, offer: Offer, why: str, **params: JSON) -> Event:
        assert why in LAPSE_REASONS, why
        self._close(state, offer, why, str(params.get("lot", "")))
        return Event(
            "lapsed",
            None,
            {
                "offer": offer.number,
                "from_seat": offer.proposer,
                "to_seat": offer.recipient,
                "reason": why,
                **params,
            },
        )

    def _lapse_changed(self, state: MarketState) -> list[Event]:
        """Every open offer whose named holdings changed lapses, with a public event."""
        events = []
        for offer in list(state.offers):
            changed = _changed_lot(state, offer)
            if changed is not None:
                events.append(self._lapse(state, offer, "lot_changed", lot=changed))
            elif state.cash[offer.proposer] < offer.pay:
                events.append(self._lapse(state, offer, "cash_short", payer_seat=offer.proposer))
            elif state.cash[offer.recipient] < offer.ask:
                events.append(self._lapse(state, offer, "cash_short", payer_seat=offer.recipient))
        return events

    # -- the rest of the contract ----------------------------------------------------------------

    def fingerprint(self, state: MarketState, action: Action) -> str | None:
        """What an action means now, from public facts only; ``None`` for a turn's own moves.

        - ``improve.<lot>``: the lot, its owner and its price.  A button drawn for it stays good
          across other players' moves until that lot changes hands or level (its price).
        - ``give`` / ``want``: the lots named and their owners (who holds them is public).
        - ``pay`` / ``ask`` / ``deal`` / ``send`` / ``drop``: drafting means the same all game
          long; the draft itself is private, so it never enters a fingerprint.
        - ``accept`` / ``reject`` / ``counter`` / ``withdraw``: an offer's number always names the
          same, unchangeable offer; once it is closed the engine says why, in words.
        - ``discard.<card>``: that card in this round's discard (the card is in the action
          already; the round is public), so a seat's panel survives the others' choices.
        - ``roll``: ``None``, it belongs to its turn.
        """
        kind, args = action.kind, action.args
        if kind == "improve" and len(args) == 1 and args[0] in LOTS:
            index = LOTS.index(str(args[0]))
            level = state.levels[index]
            price = IMPROVE_COST[level] if level < MAX_LEVEL else "max"
            return f"improve:{args[0]}:owner{state.owners[index]}:cost{price}"
        if kind in ("give", "want"):
            named = [f"{lot}@{state.owners[LOTS.index(lot)]}" for lot in args if lot in LOTS]
            return f"{kind}:{','.join(named)}"
        if kind in DRAFT_KINDS or kind == "deal" or kind in OFFER_KINDS:
            return action.encode()
        if kind == "discard":
            return f"discard:round{state.round}:{action.encode()}"
        return None

    def outcome(self, state: MarketState) -> Outcome | None:
        if state.phase != OVER:
            return None
        parts = [self._score_parts(state, seat) for seat in range(len(state.cash))]
        scores = tuple(sum(part.values()) for part in parts)
        ranks = rank_by([(score, state.cash[seat]) for seat, score in enumerate(scores)])
        return Outcome(scores, ranks, tuple(parts))

    def _score_parts(self, state: MarketState, seat: int) -> dict[str, int]:
        lots = sum(LOT_WORTH[state.levels[i]] for i in range(len(LOTS)) if state.owners[i] == seat)
        cards = sum(CARD_VALUES[card] for card in state.hands[seat])
        return {"cash": state.cash[seat], "lots": lots, "cards": cards}

    def view(self, state: MarketState, seat: int | None) -> dict[str, JSON]:
        """Public: lots, cash, offers, who has chosen a discard and the revealed discards.

        A seat also gets ``you``: its hand, its pending discard and its draft.  At the end every
        hand is shown (the scores count them).
        """
        view: dict[str, JSON] = {
            "round": state.round,
            "rounds": state.rounds,
            "phase": state.phase,
            "turn": state.turn if state.phase == PLAY else None,
            "first": state.first,
            "cash": list(state.cash),
            "lots": [
                {
                    "lot": lot,
                    "owner": state.owners[i],
                    "level": state.levels[i],
                    "rent": RENT[state.levels[i]],
                    "improve_cost": IMPROVE_COST[state.levels[i]] if state.levels[i] < MAX_LEVEL else None,
                    "worth": LOT_WORTH[state.levels[i]],
                }
                for i, lot in enumerate(LOTS)
            ],
            "hand_sizes": [len(hand) + (state.chosen[s] is not None) for s, hand in enumerate(state.hands)],
            "chosen": [card is not None for card in state.chosen],
            "discards": [[CARD_VALUES[card] for card in pile] for pile in state.discards],
            "offers": [_offer_view(offer) for offer in state.offers],
            "closed": [[number, why, lot] for number, (why, lot) in sorted(state.closed.items())],
            "last_roll": state.last_roll,
            "deck": len(state.deck),
            "you": None,
        }
        if state.phase == OVER:
            view["hands"] = [[CARD_VALUES[card] for card in hand] for hand in state.hands]
        if seat is not None and 0 <= seat < len(state.cash):
            draft = state.drafts[seat]
            pending = state.chosen[seat]
            view["you"] = {
                "seat": seat,
                "hand": [{"card": card, "value": CARD_VALUES[card]} for card in state.hands[seat]],
                "chosen": None if pending is None else {"card": pending, "value": CARD_VALUES[pending]},
                "draft": None if draft is None else draft.to_json(),
            }
        return view

    def dump(self, state: MarketState) -> dict[str, JSON]:
        return {
            "schema": SCHEMA,
            "rounds": state.rounds,
            "cash": list(state.cash),
            "owners": list(state.owners),
            "levels": list(state.levels),
            "hands": [list(hand) for hand in state.hands],
            "deck": list(state.deck),
            "rng": state.rng.to_json(),
            "first": state.first,
            "turn": state.turn,
            "round": state.round,
            "rolled": state.rolled,
            "phase": state.phase,
            "chosen": list(state.chosen),
            "discards": [list(pile) for pile in state.discards],
            "drafts": [None if d is None else d.to_json() for d in state.drafts],
            "offers": [offer.to_json() for offer in state.offers],
            "closed": [[number, why, lot] for number, (why, lot) in sorted(state.closed.items())],
            "next_offer": state.next_offer,
            "paid_out": state.paid_out,
            "paid_in": state.paid_in,
            "last_roll": state.last_roll,
        }

    def load(self, data: Mapping[str, Any]) -> MarketState:
        if data.get("schema") != SCHEMA:
            raise StateError(f"unknown toymarket schema {data.get('schema')!r}")
        try:
            return MarketState(
                rounds=int(data["rounds"]),
                cash=[int(x) for x in data["cash"]],
                owners=[int(x) for x in data["owners"]],
                levels=[int(x) for x in data["levels"]],
                hands=[[int(c) for c in hand] for hand in data["hands"]],
                deck=[int(c) for c in data["deck"]],
                rng=Rng.from_json(data["rng"]),
                first=int(data["first"]),
                turn=int(data["turn"]),
                round=int(data["round"]),
                rolled=int(data["rolled"]),
                phase=str(data["phase"]),
                chosen=[None if c is None else int(c) for c in data["chosen"]],
                discards=[[int(c) for c in pile] for pile in data["discards"]],
                drafts=[None if d is None else Draft.from_json(d) for d in data["drafts"]],
                offers=[Offer.from_json(o) for o in data["offers"]],
                closed={int(n): (str(why), str(lot)) for n, why, lot in data["closed"]},
                next_offer=int(data["next_offer"]),
                paid_out=int(data["paid_out"]),
                paid_in=int(data["paid_in"]),
                last_roll=None if data["last_roll"] is None else int(data["last_roll"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise StateError(f"bad toymarket state: {exc}") from exc

    def invariants(self, state: MarketState) -> list[str]:
        """Money from the bank is accounted for, every card is in one place, open offers are good."""
        problems = []
        players = len(state.cash)
        if any(c < 0 for c in state.cash):
            problems.append(f"negative cash: {state.cash}")
        if sum(state.cash) + state.paid_in != START_CASH * players + state.paid_out:
            problems.append("cash does not add up to the starting cash plus the bank's payments")
        if len(state.owners) != len(LOTS) or any(not 0 <= o < players for o in state.owners):
            problems.append(f"a lot has no owner at the table: {state.owners}")
        if any(not 0 <= lv <= MAX_LEVEL for lv in state.levels):
            problems.append(f"a level is out of range: {state.levels}")
        pending = [c for c in state.chosen if c is not None]
        cards = [
            *state.deck,
            *(c for h in state.hands for c in h),
            *(c for p in state.discards for c in p),
            *pending,
        ]
        if sorted(cards) != list(range(len(CARD_VALUES))):
            problems.append("the cards are not each in exactly one place")
        done = state.rounds if state.phase == OVER else state.round - 1
        if any(len(pile) != done for pile in state.discards):
            problems.append(f"after {done} rounds the discard piles are {state.discards}")
        proposers = [offer.proposer for offer in state.offers]
        if len(set(proposers)) != len(proposers):
            problems.append("a seat has two open offers")
        for offer in state.offers:
            if offer.number in state.closed or not 0 < offer.number < state.next_offer:
                problems.append(f"offer #{offer.number} is open and closed, or was never numbered")
            if _changed_lot(state, offer) is not None or state.cash[offer.proposer] < offer.pay:
                problems.append(f"offer #{offer.number} should have lapsed")
            if state.cash[offer.recipient] < offer.ask:
                problems.append(f"offer #{offer.number} should have lapsed (its asked cash)")
        if state.phase == OVER and (state.offers or any(state.drafts)):
            problems.append("offers or drafts outlive the game")
        if state.phase == DISCARD and state.rolled != players:
            problems.append("the discard phase began before every seat rolled")
        return problems


# -- helpers ---------------------------------------------------------------------------------------


def _one_int(action: Action) -> int | None:
    """The action's one whole-number argument; ``None`` when it has not exactly one (each caller
    names what was missing: a card, a seat, an offer)."""
    if len(action.args) != 1 or not isinstance(action.args[0], int):
        return None
    return action.args[0]


def _one_lot(action: Action) -> str:
    if len(action.args) != 1 or not isinstance(action.args[0], str):
        raise IllegalAction("which_lot")
    return _known_lot(action.args[0])


def _known_lot(arg: object) -> str:
    """A lot of the game; anything else (only a forged action names one) is refused without being
    quoted, so a player's input never reaches the table's text."""
    if not isinstance(arg, str) or arg not in LOTS:
        raise IllegalAction("no_such_lot")
    return arg


def _lot_set(action: Action) -> tuple[str, ...]:
    """The lots an action names, as a set in board order; a lot named twice is refused."""
    lots = [_known_lot(arg) for arg in action.args]
    for lot in lots:
        if lots.count(lot) > 1:
            raise IllegalAction("lot_twice", lot=lot)
    return tuple(sorted(lots, key=LOTS.index))


def _closed(number: int, why: str, lot: str, answer: str) -> IllegalAction:
    """The refusal for answering offer ``number`` after it closed, one reason per way it closed.

    ``answer`` is the action tried (``accept``, ``reject``, ``counter``, ``withdraw``): a token
    the presenter words ("so it can no longer be accepted").  ``game_over`` is never reached by a
    player (after the end every action is refused first) but has its sentence so that every way
    an offer closes has one.
    """
    match why:
        case "accepted":
            return IllegalAction("closed_accepted", offer=number, answer=answer)
        case "rejected":
            return IllegalAction("closed_rejected", offer=number, answer=answer)
        case "countered":
            return IllegalAction("closed_countered", offer=number, answer=answer)
        case "withdrawn":
            return IllegalAction("closed_withdrawn", offer=number, answer=answer)
        case "lot_changed":
            return IllegalAction("closed_lot_changed", offer=number, answer=answer, lot=lot)
        case "cash_short":
            return IllegalAction("closed_cash_short", offer=number, answer=answer)
        case "game_over":
            return IllegalAction("closed_game_over", offer=number, answer=answer)
    raise StateError(f"offer #{number} closed for an unknown reason {why!r}")


def _lots_of(state: MarketState, seat: int) -> list[str]:
    return [lot for index, lot in enumerate(LOTS) if state.owners[index] == seat]


def _subsets(lots: Sequence[str]) -> Iterable[tuple[str, ...]]:
    for size in range(len(lots) + 1):
        yield from combinations(lots, size)


def _changed_lot(state: MarketState, offer: Offer) -> str | None:
    """The first lot of ``offer`` that is no longer held by its side at the level it was offered at."""
    for lot, holder in [
        *((lot, offer.proposer) for lot in offer.give),
        *((lot, offer.recipient) for lot in offer.want),
    ]:
        index = LOTS.index(lot)
        if state.owners[index] != holder or state.levels[index] != offer.levels[lot]:
            return lot
    return None


def _draft_changed(seat: int, draft: Draft) -> Event:
    return Event(
        "draft_changed",
        seat,
        {
            "to_seat": draft.to,
            "give": list(draft.give),
            "want": list(draft.want),
            "pay": draft.pay,
            "ask": draft.ask,
        },
        visible_to=frozenset({seat}),
    )


def _offer_view(offer: Offer) -> dict[str, JSON]:
    return {"offer": offer.number, "from_seat": offer.proposer, "to_seat": offer.recipient, **offer.terms()}


_HANDLERS = {
    "roll": MarketRules._roll,
    "discard": MarketRules._discard,
    "improve": MarketRules._improve,
    "deal": MarketRules._deal,
    "give": MarketRules._give,
    "want": MarketRules._want,
    "pay": MarketRules._cash,
    "ask": MarketRules._cash,
    "send": MarketRules._send,
    "drop": MarketRules._drop,
    "accept": MarketRules._answer,
    "reject": MarketRules._answer,
    "counter": MarketRules._answer,
    "withdraw": MarketRules._answer,
}
"""Action kind -> the method that validates and applies it."""

RULES = MarketRules()
_CHECK: Rules[MarketState] = RULES  # mypy proves the contract is met
