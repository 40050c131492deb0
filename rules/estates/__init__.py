"""The Estates (Klaus Zoch): auction floor cubes, rooftops, permits and the Mayor, build three rows.

``RULES`` is the one object the host needs; it satisfies :class:`rules.core.Rules`, and
:class:`rules.search.SearchRules` for bot players (``sample_state``: a state drawn from a seat's
view, ``rules.estates.sample``).  ``HINTS`` are what those bots know about positions
(``rules.estates.heuristics``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import JSON, Action, Event, GameClock, OptionSpec, Outcome, check_players, validate_options
from rules.estates import data, engine
from rules.estates.heuristics import HINTS
from rules.estates.invariants import invariants as _invariants
from rules.estates.sample import sample_state as _sample_state
from rules.estates.state import SCHEMA, EstatesState, dump_state, load_state
from rules.estates.timeout import timeout_action as _timeout_action
from rules.estates.view import view as _view
from rules.search import SearchRules


class EstatesRules:
    name = "estates"
    title = "The Estates"
    min_players = data.MIN_PLAYERS
    max_players = data.MAX_PLAYERS
    options: tuple[OptionSpec, ...] = (
        OptionSpec(
            "rounds",
            data.DEFAULT_ROUNDS,
            minimum=1,
            maximum=data.MAX_ROUNDS,
        ),
    )
    schema = SCHEMA
    play_options: Mapping[str, object] = {}

    def table_options(self, options: Mapping[str, object]) -> dict[str, Any]:
        return validate_options(self.options, options)

    def setup(self, players: int, options: Mapping[str, object], seed: int) -> EstatesState:
        check_players(self, players)
        chosen = self.table_options(options)
        return engine.new_state(players, int(chosen["rounds"]), seed)

    def legal_actions(self, state: EstatesState, seat: int) -> list[Action]:
        return engine.legal_actions(state, seat)

    def apply(self, state: EstatesState, seat: int, action: Action) -> list[Event]:
        return engine.apply(state, seat, action)

    def waiting_for(self, state: EstatesState) -> frozenset[int]:
        return engine.waiting_for(state)

    def outcome(self, state: EstatesState) -> Outcome | None:
        return engine.outcome(state)

    def view(self, state: EstatesState, seat: int | None) -> dict[str, JSON]:
        return _view(state, seat)

    def sample_state(self, view: Mapping[str, JSON], seat: int, seed: int) -> EstatesState:
        """A state ``seat`` could be in, from its view alone: rivals' money and the rooftop pile's
        order drawn from ``seed`` within what is public (``rules.estates.sample``)."""
        return _sample_state(view, seat, seed)

    def dump(self, state: EstatesState) -> dict[str, JSON]:
        return dump_state(state)

    def load(self, data: Mapping[str, JSON]) -> EstatesState:
        return load_state(data)

    def invariants(self, state: EstatesState) -> list[str]:
        return _invariants(state)

    def fingerprint(self, state: EstatesState, action: Action) -> str | None:
        """Every move of The Estates belongs to its moment (a pick, a bid, a placement); the
        private stow is drawn on a private panel for one turn.  Nothing lasts across moves."""
        return None

    def game_clock(self, state: EstatesState) -> GameClock | None:
        return None  # no clock of the rules' own: the table's timer is the only one

    def timeout_action(self, state: EstatesState, seat: int) -> Action | None:
        """Pass a bid, sell, discard where allowed, else the first legal move (``timeout``)."""
        return _timeout_action(state, seat)

    def sealed(self, state: EstatesState) -> JSON:
        """The draw counter alone: rooftops and every new round's cubes are drawn from it, and the
        undrawn cubes never come to light."""
        return [state.rng.draws]


RULES = EstatesRules()
_CHECK: SearchRules[EstatesState] = RULES  # mypy proves the contract (and bots' sampling) is met

__all__ = ["HINTS", "RULES", "EstatesRules", "EstatesState"]
