"""Last Will with the Getting the Sack expansion: spend a fortune fastest, and get yourself sacked.

``RULES`` is the one object the host needs; it satisfies :class:`rules.core.Rules`.  The engine
module's docstring is the catalogue of phases, actions and events; ``view`` documents the view.
``data`` keeps every card, number and ruling of the components page, each marked rulebook, public
or chosen, and ``tokens`` names cards, employment cards, Last Will cards and plan tiles both ways.

The price helpers (``buy_price``, ``sale_price``, ``maintain_cost``, ``expense_cost``,
``play_cost``, ``opera_cost``, ``token_amount``, and for an open choice ``icon_amount``,
``dropped_step``, ``free_sale_price``) are the very functions the engine spends by; with
``offered_lines`` (a demotion a play would earn), ``draw_count`` and ``available`` (cards a
drawing names, cards a deck can still give) they take the state, a seat and card ids, and read
public facts only: the market, boards, money, jobs, helpers, plans, deck sizes and the open choice,
never a hand or a deck's order.  So the Discord layer may print what they return on the table.

>>> from rules.lastwill import card, parse_card
>>> card(parse_card("wd2")).symbols
(<Symbol.DINE: 'dine'>, <Symbol.CARRIAGE: 'carriage'>, <Symbol.HELM: 'helm'>, <Symbol.RING: 'ring'>)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import JSON, Action, GameClock, OptionSpec, check_players
from rules.lastwill import data, heuristics
from rules.lastwill import engine as _engine
from rules.lastwill import scoring as _scoring
from rules.lastwill.cards import (
    buy_price,
    expense_cost,
    maintain_cost,
    opera_cost,
    play_cost,
    sale_price,
    token_amount,
)
from rules.lastwill.data import (
    CARDS,
    CHOSEN_RULINGS,
    EMPLOYMENT_CARDS,
    LAST_WILL_CARDS,
    OPTIONS,
    PLAN_TILES,
    Border,
    Card,
    CardId,
    Companion,
    CompanionCard,
    Deck,
    EmploymentCard,
    EmploymentMode,
    EmploymentSet,
    EventCard,
    HelperCard,
    LastWillCard,
    Mark,
    NuptialName,
    Plan,
    PlansMode,
    PlanTile,
    PropertyCard,
    PropertyType,
    Symbol,
    deck_cards,
    offering_slots,
)
from rules.lastwill.employment import offered_lines
from rules.lastwill.invariants import invariants as _invariants
from rules.lastwill.pending import dropped_step, free_sale_price, icon_amount
from rules.lastwill.piles import available
from rules.lastwill.planning import draw_count
from rules.lastwill.sample import sample_state as _sample_state
from rules.lastwill.setup import OPTION_SPECS, new_state, parse_options, table_options
from rules.lastwill.state import DISCARD, SCHEMA, LastWillState, dump_state, load_state
from rules.lastwill.timeout import timeout_action as _timeout_action
from rules.lastwill.tokens import (
    UnknownCard,
    UnknownEmployment,
    UnknownId,
    UnknownLastWill,
    UnknownPlanTile,
    card,
    card_name,
    card_token,
    employment,
    employment_token,
    last_will,
    parse_card,
    parse_employment,
    parse_last_will,
    parse_plan_tile,
    plan_tile,
)
from rules.lastwill.view import view as _view
from rules.search import SearchRules


class LastWillRules:
    name = "lastwill"
    title = "Last Will"
    min_players = data.MIN_PLAYERS
    max_players = data.MAX_PLAYERS
    options: tuple[OptionSpec, ...] = OPTION_SPECS
    schema = SCHEMA
    play_options: Mapping[str, object] = {}
    """Nothing needed: every game ends by round 7 whatever random play does."""

    def table_options(self, options: Mapping[str, object]) -> dict[str, Any]:
        """The shared checks, then Last Will's own: employment and plans need the expansion, and a
        named Last Will card must suit the employment mode.  With the expansion off those two are
        left out of the result, since ``setup`` refuses them named at all."""
        return table_options(options)

    def setup(self, players: int, options: Mapping[str, object], seed: int) -> LastWillState:
        check_players(self, players)
        return new_state(players, parse_options(options), seed)

    # The engine's own functions, not methods wrapping them: random play and bot playouts call
    # these four at every step, and a wrapper's extra call is a few percent of the engine's time.
    legal_actions = staticmethod(_engine.legal_actions)
    apply = staticmethod(_engine.apply)
    waiting_for = staticmethod(_engine.waiting_for)
    outcome = staticmethod(_scoring.outcome)

    def view(self, state: LastWillState, seat: int | None) -> dict[str, JSON]:
        return _view(state, seat)

    def dump(self, state: LastWillState) -> dict[str, JSON]:
        return dump_state(state)

    def load(self, data: Mapping[str, JSON]) -> LastWillState:
        return load_state(data)

    def invariants(self, state: LastWillState) -> list[str]:
        return _invariants(state)

    def fingerprint(self, state: LastWillState, action: Action) -> str | None:
        """A discard keeps its meaning while the others choose theirs (the simultaneous round-1
        and hand-limit discards), so a panel opened before someone else's pick still works;
        every other move belongs to its moment.  Public facts only: the round and which discard."""
        if action.kind == "discard" and state.phase == DISCARD:
            return f"discard.{state.round}.{state.discard_for}"
        return None

    def game_clock(self, state: LastWillState) -> GameClock | None:
        return None  # no clock of the rules' own: the table's timer is the only one

    def timeout_action(self, state: LastWillState, seat: int) -> Action | None:
        """Hold, done, the fewest-card plan, a fixed split, the least useful discards; a begun
        play is confirmed as left (``timeout`` lists every case with its reason)."""
        return _timeout_action(state, seat)

    def sample_state(self, view: Mapping[str, JSON], seat: int, seed: int) -> LastWillState:
        """A state the seat could be in, from its view: other hands, their hidden discards, the
        decks' order and the generator drawn from ``seed`` (``sample`` says how)."""
        return _sample_state(view, seat, seed)

    def sealed(self, state: LastWillState) -> JSON:
        """The draw counter, every deck's order (a draw or a refilled offering turns cards up) and
        the discards held until all are chosen."""
        return [
            state.rng.draws,
            {deck: list(cards) for deck, cards in sorted(state.decks.items())},
            [list(held) for held in state.held],
        ]


RULES = LastWillRules()
_CHECK: SearchRules[LastWillState] = RULES  # mypy proves the contract is met, bots' part too

__all__ = [
    "CARDS",
    "CHOSEN_RULINGS",
    "EMPLOYMENT_CARDS",
    "LAST_WILL_CARDS",
    "OPTIONS",
    "PLAN_TILES",
    "RULES",
    "Border",
    "Card",
    "CardId",
    "Companion",
    "CompanionCard",
    "Deck",
    "EmploymentCard",
    "EmploymentMode",
    "EmploymentSet",
    "EventCard",
    "HelperCard",
    "LastWillCard",
    "LastWillRules",
    "LastWillState",
    "Mark",
    "NuptialName",
    "Plan",
    "PlanTile",
    "PlansMode",
    "PropertyCard",
    "PropertyType",
    "Symbol",
    "UnknownCard",
    "UnknownEmployment",
    "UnknownId",
    "UnknownLastWill",
    "UnknownPlanTile",
    "available",
    "buy_price",
    "card",
    "card_name",
    "card_token",
    "deck_cards",
    "draw_count",
    "dropped_step",
    "employment",
    "employment_token",
    "expense_cost",
    "free_sale_price",
    "heuristics",
    "icon_amount",
    "last_will",
    "maintain_cost",
    "offered_lines",
    "offering_slots",
    "opera_cost",
    "parse_card",
    "parse_employment",
    "parse_last_will",
    "parse_plan_tile",
    "plan_tile",
    "play_cost",
    "sale_price",
    "token_amount",
]
