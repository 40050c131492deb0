"""Monopoly California Dreaming: buy, rent, build, deal and bankrupt everyone else (2-6 players).

``RULES`` is the one object the host needs; it satisfies :class:`rules.core.Rules`.  The engine
module's docstring is the catalogue of actions, events and who the game waits for.

>>> from rules.monopoly import RULES
>>> state = RULES.setup(3, {"turns": "20"}, seed=1)
>>> RULES.legal_actions(state, 0)
[Action(kind='roll', args=())]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import (
    JSON,
    Action,
    GameClock,
    OptionSpec,
    Outcome,
    check_players,
    rank_by,
    validate_options,
)
from rules.monopoly import data, engine, heuristics, holdings
from rules.monopoly.fingerprint import fingerprint as _fingerprint
from rules.monopoly.invariants import invariants as _invariants
from rules.monopoly.sample import sample_state as _sample_state
from rules.monopoly.state import OVER, SCHEMA, MonopolyState, dump_state, load_state
from rules.monopoly.timeout import timeout_action as _timeout_action
from rules.monopoly.tokens import card_token, parse_card, parse_space, space_name, space_token
from rules.monopoly.view import view as _view
from rules.search import SearchRules


class MonopolyRules:
    name = "monopoly"
    title = "Monopoly California Dreaming"
    min_players = data.MIN_PLAYERS
    max_players = data.MAX_PLAYERS
    options: tuple[OptionSpec, ...] = (
        OptionSpec(
            "turns",
            data.DEFAULT_TURNS,
            minimum=0,
            maximum=data.MAX_TURNS_OPTION,
        ),
        OptionSpec(
            "rent",
            data.DEFAULT_RENT_MODE,
            choices=data.RENT_MODES,
        ),
        OptionSpec(
            "auction",
            data.DEFAULT_AUCTION_MODE,
            choices=data.AUCTION_MODES,
        ),
        OptionSpec(
            "auction_hours",
            data.DEFAULT_AUCTION_HOURS,
            minimum=0,
            maximum=data.MAX_AUCTION_HOURS,
        ),
    )
    schema = SCHEMA
    play_options: Mapping[str, object] = {"turns": data.PLAY_TURNS}
    """Random play stops after this many rounds (richest wins): aimless deals and mortgages
    would otherwise make a game run to thousands of actions before anyone goes bankrupt."""

    def table_options(self, options: Mapping[str, object]) -> dict[str, Any]:
        return validate_options(self.options, options)

    def setup(self, players: int, options: Mapping[str, object], seed: int) -> MonopolyState:
        check_players(self, players)
        chosen = self.table_options(options)
        return engine.new_state(
            players,
            int(chosen["turns"]),
            str(chosen["rent"]),
            seed,
            auction_mode=str(chosen["auction"]),
            auction_hours=int(chosen["auction_hours"]),
        )

    # The engine's own functions, not methods wrapping them: random play and bot playouts call
    # these at every step, and a wrapper's extra call was a few percent of the engine's time.
    legal_actions = staticmethod(engine.legal_actions)
    apply = staticmethod(engine.apply)
    waiting_for = staticmethod(engine.waiting_for)

    def outcome(self, state: MonopolyState) -> Outcome | None:
        """Net worth (the score) with cash beside it for the seats still in; the bankrupt score 0
        and are marked so, and a seat out later ranks higher."""
        if state.phase != OVER:
            return None
        parts: list[dict[str, int]] = []
        keys = []
        scores = []
        for seat in range(state.players):
            if state.alive[seat]:
                worth = holdings.net_worth(state, seat)
                parts.append({"cash": state.cash[seat]})
                keys.append((1, worth, 0))
                scores.append(worth)
            else:
                parts.append({"bankrupt": 1})
                keys.append((0, 0, state.out.index(seat)))
                scores.append(0)
        return Outcome(tuple(scores), rank_by(keys), tuple(parts))

    def view(self, state: MonopolyState, seat: int | None) -> dict[str, JSON]:
        result: dict[str, JSON] | None = None
        outcome = self.outcome(state)
        if outcome is not None:
            result = {
                "ranks": list(outcome.ranks),
                "scores": list(outcome.scores),
                "winners": list(outcome.winners()),
            }
        return _view(state, seat, result)

    def dump(self, state: MonopolyState) -> dict[str, JSON]:
        return dump_state(state)

    def load(self, data: Mapping[str, JSON]) -> MonopolyState:
        return load_state(data)

    def invariants(self, state: MonopolyState) -> list[str]:
        return _invariants(state)

    def fingerprint(self, state: MonopolyState, action: Action) -> str | None:
        return _fingerprint(state, action)

    def game_clock(self, state: MonopolyState) -> GameClock | None:
        """The auction clock (``auction_hours``) while an open auction runs: it restarts at every
        bid and at every new auction (the mark counts both).  Round-robin auctions and everything
        else run on the table's own timer."""
        auction = state.auction
        if auction is None or auction.mode != data.OPEN or state.auction_hours <= 0:
            return None
        return GameClock(state.auction_hours, (state.auctions_opened, auction.bids))

    def timeout_action(self, state: MonopolyState, seat: int) -> Action | None:
        """Pass, decline, reject, roll, end; a debtor mortgages or sells before going bankrupt
        (``timeout`` lists every case with its reason)."""
        return _timeout_action(state, seat)

    def sample_state(self, view: Mapping[str, JSON], seat: int, seed: int) -> MonopolyState:
        """A state ``seat`` could be in, from its view: the decks' order and the dice drawn from
        ``seed`` (``sample`` says what is hidden and how it is drawn)."""
        return _sample_state(view, seat, seed)

    def sealed(self, state: MonopolyState) -> JSON:
        """The dice's draw counter and both decks' order (a card can be drawn without a roll in the
        same move: a move held up by the Pool Party fine lands once the fine is paid)."""
        return [state.rng.draws, {deck: list(cards) for deck, cards in sorted(state.decks.items())}]


RULES = MonopolyRules()
_CHECK: SearchRules[MonopolyState] = RULES  # mypy proves the contract (and bots' sampling) is met

HINTS = heuristics.HINTS
"""What bot players know about Monopoly positions (``heuristics``)."""

__all__ = [
    "HINTS",
    "RULES",
    "MonopolyRules",
    "MonopolyState",
    "card_token",
    "parse_card",
    "parse_space",
    "space_name",
    "space_token",
]
