"""California (Michael Schacht): renovate and furnish a mansion, attract guests, collect gifts.

``RULES`` is the one object the host needs; it satisfies :class:`rules.core.Rules`, and
:class:`rules.search.SearchRules` for bot players (``RULES.sample_state`` builds a state from a
seat's view; ``heuristics.HINTS`` tells the bots' search how positions stand).
The other names are small pure helpers for the Discord layer and the renderer
(the current price, every placement of a store tile with its total price and
the action that buys it there now, a loan included when one is needed).
Component numbers and rulings live in :mod:`rules.california.data`.  Events,
views and refusals carry tokens, never words (colour keys, tile ids, spaces
``0..15``, bonus card indices named by :func:`bonus_card_token`): the host
names them from its catalog in the table's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import JSON, Action, GameClock, OptionSpec, check_players, validate_options
from rules.search import SearchRules

from . import data, engine, heuristics
from .engine import (
    ALL_ACTIONS,
    BUY,
    COIN,
    LOAN,
    LOAN_BUY,
    REPAY,
    bonus_points,
    can_borrow,
    offers,
    placements,
    price,
    score_breakdown,
)
from .invariants import invariants as _invariants
from .placement import ATTIC, EXPAND, TARGETS, fees
from .sample import sample_state as _sample_state
from .state import SCHEMA, TILE_COLOUR, TILE_KIND, Player, State
from .timeout import timeout_action as _timeout_action
from .tokens import BonusCard, bonus_card_token, parse_bonus_card
from .view import view as _view


class CaliforniaRules:
    name = "california"
    title = "California"
    min_players = data.MIN_PLAYERS
    max_players = data.MAX_PLAYERS
    options: tuple[OptionSpec, ...] = ()
    schema = SCHEMA
    play_options: Mapping[str, object] = {}

    def table_options(self, options: Mapping[str, object]) -> dict[str, Any]:
        return validate_options(self.options, options)

    def setup(self, players: int, options: Mapping[str, object], seed: int) -> State:
        check_players(self, players)
        self.table_options(options)
        return engine.new_state(players, seed)

    # The engine's own functions rather than methods that call them: playouts make these four
    # calls on every step, and a wrapper's extra frame each time cost a few percent of a playout.
    legal_actions = staticmethod(engine.legal_actions)
    apply = staticmethod(engine.apply)
    waiting_for = staticmethod(engine.waiting_for)
    outcome = staticmethod(engine.outcome)

    def view(self, state: State, seat: int | None) -> dict[str, JSON]:
        return _view(state, seat)

    def dump(self, state: State) -> dict[str, JSON]:
        return state.to_json()

    def load(self, data: Mapping[str, JSON]) -> State:
        return engine.load(data)

    def invariants(self, state: State) -> list[str]:
        return _invariants(state)

    def fingerprint(self, state: State, action: Action) -> str | None:
        """A loan or a repayment means the same whoever is on turn (+3 silver, or 4 back):
        its button survives the turn moving on.  Every other action is the turn's own."""
        return action.kind if action in (engine.LOAN, engine.REPAY) else None

    def game_clock(self, state: State) -> GameClock | None:
        return None  # no clock of the rules' own: the table's timer is the only one

    def timeout_action(self, state: State, seat: int) -> Action | None:
        """Take a coin (``timeout``: it spends nothing and still moves the day on)."""
        return _timeout_action(state, seat)

    def sample_state(self, view: Mapping[str, JSON], seat: int, seed: int) -> State:
        """A state ``seat`` could be in, from its own view: the unseen tiles reshuffled into the
        draw stack and a fresh ``Rng`` drawn from ``seed`` (``rules.california.sample``)."""
        return _sample_state(view, seat, seed)

    def sealed(self, state: State) -> JSON:
        """The draw counter and the face-down stack and bag: every refill turns tiles up."""
        return [state.rng.draws, list(state.stack), list(state.bag)]


RULES = CaliforniaRules()
_CHECK: SearchRules[State] = RULES  # mypy proves the contract (bots' sampling included) is met

__all__ = [
    "ALL_ACTIONS",
    "ATTIC",
    "BUY",
    "COIN",
    "EXPAND",
    "LOAN",
    "LOAN_BUY",
    "REPAY",
    "RULES",
    "SCHEMA",
    "TARGETS",
    "TILE_COLOUR",
    "TILE_KIND",
    "BonusCard",
    "CaliforniaRules",
    "Player",
    "State",
    "bonus_card_token",
    "bonus_points",
    "can_borrow",
    "data",
    "fees",
    "heuristics",
    "offers",
    "parse_bonus_card",
    "placements",
    "price",
    "score_breakdown",
]
