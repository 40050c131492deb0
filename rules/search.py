"""How a bot player chooses a move: search over states its seat could be in.

A bot sees exactly what its seat sees, ``view(state, seat)``; it never reads the state.  To think
ahead it needs whole states, so it asks the game for one that fits its view
(``Rules.sample_state``: the hidden parts, other hands, the deck order, other players' money,
drawn at random) and plays on that, many times over: this is *determinization*.  Each sample
is a guess at what it cannot see; averaging over guesses is what keeps a bot from cheating
while still planning.

The search is determinized Monte Carlo with UCB1 at the root (the bandit rule of Auer,
Cesa-Bianchi and Fischer, 2002): every iteration samples a state, picks one of the seat's
candidate moves (the best so far plus an exploration bonus), plays it, then plays on with quick
moves (``Hints.rollout``) for at most ``Budget.depth`` moves or to the end, and scores where it
got (``reward``).  The move with the best average is chosen.  Random play alone would make
every game's moves look alike; the game's :class:`Hints` say how a position stands
(``values``), which moves are worth trying (``candidates``) and how a quick playout moves
(``rollout``), cheaply, without being a player of their own.

Pure: no clock (the caller passes ``stop``, checked between playouts), no I/O, every random
choice from :class:`rules.rng.Rng` seeded from the call's ``seed``: the same view and seed give
the same move.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from rules.core import JSON, Action, IllegalAction, Outcome, Rules
from rules.rng import Rng

S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)

EXPLORATION = 0.7
"""UCB1's exploration weight for rewards in [0, 1]: below the textbook sqrt(2), since a few
hundred playouts must settle on a move rather than keep sampling weak ones."""


class SearchRules(Rules[S], Protocol[S]):
    """A game a bot can play: the engine contract, plus states sampled from what a seat sees."""

    def sample_state(self, view: Mapping[str, JSON], seat: int, seed: int) -> S:
        """A whole state that ``seat`` could be in, built from ``view(state, seat)`` alone.

        What the view shows is kept as shown; what it hides (other hands, the order of a deck
        or bag, other players' money, the state's own future draws) is drawn from ``seed``,
        consistent with everything public (counts, cards already seen, totals).  So
        ``view(sample_state(v, seat, s), seat) == v``, the seat's ``legal_actions`` are those of
        the real state, the sample keeps the game's invariants, and play goes on from it to the
        end.  Pure: the same view and seed give the same state.
        """
        ...


class Hints(Protocol[S_contra]):
    """What a game tells its bot players about positions: cheap, and never hidden information
    beyond the state it is given (which is a sample, so reading it is fair)."""

    def values(self, state: S_contra) -> Sequence[float]:
        """How well each seat stands now, one number per seat, higher is better, on one scale
        for all seats (points, net worth, money spent): what a playout cut short is scored by."""
        ...

    def candidates(self, state: S_contra, seat: int, actions: list[Action]) -> list[Action]:
        """The moves worth searching, out of ``actions`` (all legal for ``seat``): never empty
        when ``actions`` is not.  Pruning silly bids and sterile shuffles makes search stronger."""
        ...

    def rollout(self, state: S_contra, seat: int, actions: list[Action], rng: Rng) -> Action:
        """A quick move for ``seat`` in a playout, out of ``actions``."""
        ...


class PlainHints:
    """Hints knowing nothing of the game: every move searched, uniform playouts, and every seat
    standing level until the game's own outcome says otherwise."""

    def values(self, state: Any) -> Sequence[float]:
        return ()

    def candidates(self, state: Any, seat: int, actions: list[Action]) -> list[Action]:
        return actions

    def rollout(self, state: Any, seat: int, actions: list[Action], rng: Rng) -> Action:
        return rng.choice(actions)


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a decision may cost: at most ``playouts`` playouts of at most ``depth`` moves
    each, stopping earlier when the caller's ``stop`` says time is up."""

    playouts: int = 300
    depth: int = 80


@dataclass(slots=True)
class Arm:
    """One candidate move at the root and what its playouts scored."""

    action: Action
    plays: int = 0
    total: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.plays if self.plays else 0.0


@dataclass(frozen=True, slots=True)
class Decision:
    """The move chosen, and the figures behind it (for tests and benchmarks)."""

    action: Action
    playouts: int
    arms: tuple[Arm, ...]


def reward(rules: Rules[Any], hints: Hints[Any], state: Any, seat: int) -> float:
    """Where a playout got, for ``seat``, in [0, 1]: 1 for first place alone, 0 for last,
    ties sharing.  At the end the game's own ranks decide; cut short, the hints' values do
    (no values: every seat level, 0.5)."""
    outcome = rules.outcome(state)
    if outcome is not None:
        return _rank_reward(outcome, seat)
    values = list(hints.values(state))
    if not 0 <= seat < len(values):
        return 0.5
    mine = values[seat]
    above = sum(1 for v in values if v > mine)
    level = sum(1 for v in values if v == mine) - 1
    return _place_reward(above, level, len(values))


def _rank_reward(outcome: Outcome, seat: int) -> float:
    ranks = outcome.ranks
    mine = ranks[seat]
    above = sum(1 for r in ranks if r < mine)
    level = sum(1 for r in ranks if r == mine) - 1
    return _place_reward(above, level, len(ranks))


def _place_reward(above: int, level: int, players: int) -> float:
    """1 for first, 0 for last, linear between; ``level`` seats tied with this one share the
    places they cover."""
    if players <= 1:
        return 1.0
    first, last = above, above + level
    return 1.0 - (first + last) / 2 / (players - 1)


def playout(rules: Rules[Any], hints: Hints[Any], state: Any, depth: int, rng: Rng) -> int:
    """Play quick moves from ``state`` (in place) for at most ``depth`` moves or to the end;
    only seats the game waits for move.  Returns the moves made."""
    made = 0
    while made < depth and rules.outcome(state) is None:
        waiting = rules.waiting_for(state)
        if not waiting:
            break
        seat = rng.choice(sorted(waiting))
        actions = rules.legal_actions(state, seat)
        if not actions:
            break
        rules.apply(state, seat, hints.rollout(state, seat, actions, rng))
        made += 1
    return made


def choose(
    rules: SearchRules[S],
    hints: Hints[S],
    view: Mapping[str, JSON],
    seat: int,
    seed: int,
    budget: Budget = Budget(),
    stop: Callable[[], bool] = lambda: False,
) -> Decision:
    """The move ``seat`` makes, seeing ``view`` (``rules.view(state, seat)``) and nothing else.

    A seat with a single candidate moves at once.  Otherwise playouts run until the budget or
    ``stop()`` ends them (at least one per candidate, so every move is tried).  Ties in the
    average go to the move played most, then to the first candidate.
    """
    rng = Rng(seed)
    first = rules.sample_state(view, seat, rng.next64())
    actions = rules.legal_actions(first, seat)
    if not actions:
        raise ValueError(f"seat {seat} has no move to make")
    arms = [Arm(a) for a in hints.candidates(first, seat, actions)]
    if len(arms) == 1:
        return Decision(arms[0].action, 0, tuple(arms))
    played = 0
    state: S | None = first
    while played < budget.playouts and not (played >= len(arms) and stop()):
        if state is None:
            state = rules.sample_state(view, seat, rng.next64())
        arm = _pick(arms, played)
        try:
            rules.apply(state, seat, arm.action)
        except IllegalAction:
            # Not legal in this sample: a sign the game's sample disagrees with its view.  The
            # move is scored as a loss rather than trusted, and the next sample is fresh.
            arm.plays += 1
            played += 1
            state = None
            continue
        playout(rules, hints, state, budget.depth, rng)
        arm.plays += 1
        arm.total += reward(rules, hints, state, seat)
        played += 1
        state = None
    best = max(arms, key=lambda a: (a.mean, a.plays))
    return Decision(best.action, played, tuple(arms))


def random_move(rules: SearchRules[S], view: Mapping[str, JSON], seat: int, seed: int) -> Action:
    """An easy bot's move: uniform among the seat's legal moves, from a state its view allows."""
    rng = Rng(seed)
    state = rules.sample_state(view, seat, rng.next64())
    actions = rules.legal_actions(state, seat)
    if not actions:
        raise ValueError(f"seat {seat} has no move to make")
    return rng.choice(actions)


def _pick(arms: list[Arm], played: int) -> Arm:
    """UCB1: an untried arm first (in order), else the best mean plus exploration bonus."""
    for arm in arms:
        if not arm.plays:
            return arm
    log_total = math.log(played)
    return max(arms, key=lambda a: a.mean + EXPLORATION * math.sqrt(log_total / a.plays))
