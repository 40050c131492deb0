"""Last Will's table modes played out: do the chosen numbers give sensible games?

Seven modes: ``employment`` full / none / handicap × ``plans`` tiles / original with the
expansion on, and the base game (``expansion`` off).  Each is played at 3 and 5 players, ``--games``
games each, by two players:

* ``random``: uniformly random legal play (a uniformly chosen waiting seat, then a uniform legal
  action), what ``rules.play.random_playthrough`` does for Last Will, which has no out-of-turn
  moves.  It is a weak player: it spends aimlessly, sells, rarely sends a boy to a demotion
  space and often declines the demotion it is offered ("none" is one option among the lines).
* ``greedy``: a purposeful one-step policy (:class:`Greedy`).  It always takes a demotion when
  one is offered and sends a boy to a demotion space first while it may still earn one this
  round; otherwise it picks the legal action that spends the most money per action spent
  (events, Balls, expenses, upkeep), sells a property only when out of cash with actions left
  to spend the proceeds, declares bankruptcy as soon as it may, plans for the most actions,
  draws mostly events.

Every move goes through the engine contract (``RULES.legal_actions`` / ``apply`` /
``waiting_for`` / ``outcome``); the greedy policy *reads* the state (its own hand, the open
boards, the offering, the card data) to score the moves it is offered, and never changes it.

Per mode, player count and policy the report gives: actions per game; how games ended (round 7
or a bankruptcy, and in which round); employment: seats dealt a job, the share of those sacked and
in which round (and how many in the earliest round possible: round = the job's lines, one
demotion a round), the share of seats still employed at the end, how often nobody wins (everyone
still employed), demotions per job per round; and the final money (all seats pooled: min / median /
max / stdev, the winners' median, the property share of it) with the wins per seat of seats dealt
a job and of the others (the handicap balance).

Checks (``ok``), on the greedy policy unless said otherwise:

* every game, both policies, ends by round 7 with no refused legal action (engine sanity);
* with ``employment`` full, at least ``SACK_GOAL`` (50%) of the seats dealt a job are sacked, at
  each player count and plan mode.  Why half: getting sacked is the expansion's goal (a player
  still employed cannot win), and the greedy player chases a demotion every round; a 4-line job
  needs 4 of the 7 rounds, a 5-line one 5.  If purposeful play cannot manage that in most games,
  most seats could never win and "nobody wins" becomes common: the numbers would be off;
* with ``employment`` none, and in the base game, nobody ever holds a job or is demoted;
* with ``employment`` handicap, every game employs 1 to n-1 seats.

Usage::

    PYTHONPATH=. python benchmarks/lastwill_modes.py [--games 100] [--players 3 5] [--seed 1]

The last line of the output is one JSON object with every figure; ``ok`` is true only when every
check passes.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from rules.core import Action, IllegalAction
from rules.lastwill import RULES, LastWillState, data
from rules.lastwill.cards import (
    BLACKS,
    COMPANIONS,
    PROPERTIES,
    WHITES,
    expense_amount,
    free_spaces,
    next_slot,
    opera_bonus,
    owned,
    sale_value,
    upkeep,
)
from rules.lastwill.data import (
    DrawAndKeep,
    DropSteps,
    ExtraAction,
    GainActions,
    HandLimitBonus,
    MaintainBonus,
    SymbolBonus,
)

SACK_GOAL = 0.5
"""Greedy play, employment full: at least this share of the seats dealt a job must be sacked."""
MAX_ACTIONS = 20_000
ROUNDS = data.ROUNDS


@dataclass(frozen=True, slots=True)
class Mode:
    name: str
    options: Mapping[str, object]
    employment: str  # full / none / handicap (the base game plays as none)
    plans: str


MODES: tuple[Mode, ...] = (
    Mode("full/tiles", {"employment": "full", "plans": "tiles"}, "full", "tiles"),
    Mode("full/original", {"employment": "full", "plans": "original"}, "full", "original"),
    Mode("none/tiles", {"employment": "none", "plans": "tiles"}, "none", "tiles"),
    Mode("none/original", {"employment": "none", "plans": "original"}, "none", "original"),
    Mode("handicap/tiles", {"employment": "handicap", "plans": "tiles"}, "handicap", "tiles"),
    Mode("handicap/original", {"employment": "handicap", "plans": "original"}, "handicap", "original"),
    Mode("base (expansion off)", {"expansion": False}, "none", "original"),
)


# --- policies --------------------------------------------------------------------------------


class Policy(Protocol):
    name: str

    def seat(self, waiting: frozenset[int]) -> int: ...

    def choose(self, state: LastWillState, seat: int, actions: list[Action]) -> Action: ...


class RandomPolicy:
    """A uniformly chosen waiting seat plays a uniformly chosen legal action."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed ^ 0x5EED)

    def seat(self, waiting: frozenset[int]) -> int:
        return self.rng.choice(sorted(waiting))

    def choose(self, state: LastWillState, seat: int, actions: list[Action]) -> Action:
        return self.rng.choice(actions)


DEMOTION = 100.0
"""Score of a move that earns this round's demotion now: it beats any amount of spending."""
DRAW_MIX = ("event", "helper", "event", "property", "event", "companion", "event", "helper")
"""Greedy drawing: the k-th card of the split comes from DRAW_MIX[k % 8] (mostly events, which
spend at once; helpers for expenses; a property and a companion for upkeep and lines)."""
BROKE = 3
"""Greedy: with less cash than this and 2 actions left, sell the dearest property to spend on."""
BLIND_DRAW = {"event": 2.0, "helper": 1.5, "property": 1.0, "companion": 1.0}


def _lines_open(state: LastWillState, seat: int, symbols: list[str], *, now: bool = True) -> bool:
    """Do these symbols match an uncovered line of the seat's job ("any": every line)?

    ``now``: and may the seat still earn this round's demotion (one a round, §9)?
    """
    player = state.players[seat]
    if not player.job or state.employment == data.EmploymentMode.NONE or (now and player.demoted):
        return False
    lines = data.EMPLOYMENT[player.job].lines
    return any(
        not covered and ("any" in symbols or line.symbol.value in symbols)
        for line, covered in zip(lines, player.covered, strict=True)
    )


def _symbols(card: str) -> list[str]:
    return [s.value for s in data.CARDS[card].symbols]


def _card_worth(state: LastWillState, seat: int, card: str) -> float:
    """How much spending (or a future demotion) a card in hand promises: for keeping and taking."""
    worth = 0.0
    white = WHITES.get(card)
    if white is not None:
        money = max((b.money / b.actions for b in white.ball), default=white.money / max(1, white.actions))
        worth = money + (6.0 if isinstance(white.effect, GainActions) else 0.0)
    elif card in BLACKS:
        black = BLACKS[card]
        worth = 1.5 + (2.0 * black.expense.amount if black.expense is not None else 0.0)
        if any(isinstance(p, ExtraAction) for p in black.privileges):
            worth += 4.0
    elif card in PROPERTIES:
        worth = PROPERTIES[card].upkeep + 1.0
    elif card in COMPANIONS:
        worth = 1.5
    if _lines_open(state, seat, _symbols(card), now=False):
        worth += 3.0
    return worth


class Greedy:
    """Purposeful one-step play: demotions first, then the most money spent per action.

    * Handicap pick (host): a uniformly random number 1..n-1 of uniformly random seats.
    * Discards: the card worth least (``_card_worth``: money per action, expenses, +3 if it
      matches one of the player's uncovered lines).
    * Planning: the free plan with the most 3 × actions + cards + 2 × (boys − 1) (the
      components page's strength measure).
    * Drawing: ``DRAW_MIX``, then draw.
    * Errands: a demotion space while this round's demotion is still to earn; else the Opera
      (spends £2, a mask demotion), the offering card worth most, a blind draw, an extension when
      the board is nearly full; never the market; hold when nothing is worth anything.
    * Actions: a move earning the round's demotion scores ``DEMOTION``; otherwise money spent per
      action (a 0-action expense counts double), lays by their expense and privileges, buys by
      upkeep; sells its dearest property only when broke (cash under ``BROKE`` with 2 actions
      left: one to sell, one to spend); never drops or switches; declares bankruptcy whenever it
      may; ends the turn when nothing scores above 0.
    * Answers: every companion, the most Wedding Planner money, the first (highest-income) line,
      demotion over extension, the Wild Party on the dearest property; no Lost at Cards sale;
      Bachelor Party discards only in the last round.
    """

    name = "greedy"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed ^ 0x6EED)
        self.target: frozenset[int] | None = None

    def seat(self, waiting: frozenset[int]) -> int:
        return min(waiting)

    def choose(self, state: LastWillState, seat: int, actions: list[Action]) -> Action:
        kinds = {a.kind for a in actions}
        if kinds <= {"emp", "empok"}:
            return self._pick(state, actions)
        if state.pending is not None:
            return self._answer(state, seat, actions)
        if "discard" in kinds:
            return min(actions, key=lambda a: _card_worth(state, seat, str(a.args[0])))
        if "plan" in kinds:
            spaces = {p.pos: p for p in state.plans}
            return max(
                actions,
                key=lambda a: (
                    3 * spaces[int(a.args[0])].actions
                    + spaces[int(a.args[0])].cards
                    + 2 * (spaces[int(a.args[0])].boys - 1)
                ),
            )
        if kinds & {"draw", "drawok"}:
            return self._draw(state, actions)
        if "hold" in kinds:
            return self._best(actions, lambda a: self._errand(state, seat, a), Action("hold"))
        return self._best(actions, lambda a: self._act(state, seat, a), Action("done"))

    @staticmethod
    def _best(actions: list[Action], score: Callable[[Action], float], fallback: Action) -> Action:
        best, top = fallback, 0.0
        for action in actions:
            value = score(action)
            if value > top:
                best, top = action, value
        return best

    def _pick(self, state: LastWillState, actions: list[Action]) -> Action:
        if self.target is None:
            count = self.rng.randint(1, state.count - 1)
            self.target = frozenset(self.rng.sample(range(state.count), count))
        for seat in range(state.count):
            if (seat in state.picked) != (seat in self.target):
                return Action("emp", (seat,))
        return Action("empok")

    def _draw(self, state: LastWillState, actions: list[Action]) -> Action:
        if Action("drawok") in actions:
            return Action("drawok")
        want = DRAW_MIX[sum(state.split.values()) % len(DRAW_MIX)]
        for deck in (want, "event", "helper", "property", "companion"):
            if Action("draw", (deck,)) in actions:
                return Action("draw", (deck,))
        return actions[0]

    def _errand(self, state: LastWillState, seat: int, action: Action) -> float:
        if action.kind != "boy":
            return 0.0  # the market swap and hold: never worth a boy
        space = str(action.args[0])
        player = state.players[seat]
        may = _lines_open(state, seat, ["any"])
        if space == "demote":
            return DEMOTION if may else 0.0
        if space == "demext":
            return DEMOTION - 1 if may else (2.0 if free_spaces(player) <= 1 else 0.2)
        if space == "ext":
            return 2.0 if free_spaces(player) <= 1 else 0.3
        if space == "opera":
            mask = DEMOTION - 2 if _lines_open(state, seat, ["mask"]) else 0.0
            return max(mask, data.OPERA_SPEND + opera_bonus(player) + 0.5)
        if space.startswith("one-"):
            return BLIND_DRAW.get(space[4:], 0.5)
        if space.startswith("slot"):
            label = space[4:]
            for slot in state.offering:
                if slot.label.lower() == label and slot.card:
                    return _card_worth(state, seat, slot.card) + 0.5
        return 0.0

    def _act(self, state: LastWillState, seat: int, action: Action) -> float:
        player = state.players[seat]
        kind, args = action.kind, [str(a) for a in action.args]
        if kind == "bankrupt":
            return 10 * DEMOTION
        if kind in ("event", "special"):
            white = WHITES[args[0]]
            score = white.money / max(1, white.actions)
            if isinstance(white.effect, GainActions):
                score += 3.0 * white.effect.amount
            elif isinstance(white.effect, DropSteps):
                score += 3.0 if any(o.card in PROPERTIES and o.kind != "farm" for o in player.board) else 0.0
            return self._demotion(state, seat, _symbols(args[0]), score + 0.5)
        if kind == "ball":
            level = WHITES[args[0]].ball[int(action.args[1]) - 1]
            score = level.money / level.actions + 0.01 * level.money
            return self._demotion(state, seat, _symbols(args[0]), score)
        if kind == "nupt":
            return self._demotion(state, seat, ["ring"], sum(WHITES[c].money for c in args) + 0.5)
        if kind == "lay":
            black = BLACKS[args[0]]
            score = 1.0
            if black.expense is not None:
                score += black.expense.amount or 2.0
            for privilege in black.privileges:
                if isinstance(privilege, ExtraAction):
                    score += 4.0
                elif isinstance(privilege, SymbolBonus | MaintainBonus):
                    score += 1.5
                elif isinstance(privilege, HandLimitBonus | DrawAndKeep):
                    score += 0.5
            return self._demotion(state, seat, _symbols(args[0]), score / max(1, black.lay_actions))
        if kind == "buy":
            prop = PROPERTIES[args[0]]
            kind_ = args[1] if len(args) > 1 else prop.types[0].value
            return self._demotion(state, seat, [kind_], prop.upkeep + 0.5)
        if kind == "keep":
            item = owned(player, args[0])
            return 0.0 if item is None else float(upkeep(item))
        if kind == "use":
            item = owned(player, args[0])
            expense = BLACKS[args[0]].expense
            if item is None or expense is None:
                return 0.0
            amount = float(expense_amount(player, item))
            return 2 * amount if expense.actions == 0 else amount / expense.actions
        if kind == "token":
            item = owned(player, args[0])
            slot = None if item is None else next_slot(item)
            gain = 0.0 if slot is None else float(slot.amount)
            companion = args[2] if len(args) > 2 else COMPANIONS[args[1]].companion
            symbols = [data.COMPANION_SYMBOL[data.Companion(str(companion))].value]
            if len(args) > 2:
                symbols.append("wild")
            return self._demotion(state, seat, symbols, 1.0 + 0.3 * gain)
        if kind == "sell":
            item = owned(player, args[0])
            broke = player.money < BROKE and state.actions_left >= 2
            return 0.0 if item is None or not broke else 0.8 + 0.01 * sale_value(state, player, item)
        if kind == "sec":
            return 0.6 if args[0] == "event" else 0.0
        return 0.0  # drop, as: never; done is the fallback

    @staticmethod
    def _demotion(state: LastWillState, seat: int, symbols: list[str], score: float) -> float:
        return DEMOTION + score if _lines_open(state, seat, symbols) else score

    def _answer(self, state: LastWillState, seat: int, actions: list[Action]) -> Action:
        kinds = {a.kind for a in actions}
        last = state.round >= ROUNDS or state.last_round
        for kind in ("line", "with", "fair"):
            if kind in kinds:
                return next(a for a in actions if a.kind == kind)
        if "dx" in kinds:
            demote = Action("dx", ("demote",))
            if demote in actions and _lines_open(state, seat, ["any"]):
                return demote
            return Action("dx", ("ext",)) if Action("dx", ("ext",)) in actions else actions[0]
        if "extra" in kinds:
            return max(actions, key=lambda a: int(a.args[0]) if a.args else -1)
        if "bpx" in kinds:
            return next(a for a in actions if a.kind == "bpx") if last else Action("go")
        if "target" in kinds:
            if Action("go") in actions:  # Lost at Cards: may sell; the greedy player keeps it
                return Action("go")
            player = state.players[seat]

            def value(a: Action) -> int:
                item = owned(player, str(a.args[0]))
                return -1 if item is None else PROPERTIES[item.card].track[item.step]

            return max(actions, key=value)
        if "pick" in kinds:
            return max(actions, key=lambda a: _card_worth(state, seat, str(a.args[0])))
        return actions[0]  # noline alone, go alone


# --- playing and recording ---------------------------------------------------------------------


@dataclass(slots=True)
class Game:
    actions: int = 0
    end_round: int = 0
    bankruptcy: bool = False
    job_seats: frozenset[int] = frozenset()  # seats dealt a job
    employed_end: int = 0
    sacked_rounds: list[int] = field(default_factory=list)
    sacked_earliest: int = 0  # sackings in the earliest round possible (round = the job's lines)
    demotions: int = 0
    no_winner: bool = False
    money: list[int] = field(default_factory=list)
    property_money: list[int] = field(default_factory=list)  # each seat's property valued at the end
    winners: tuple[int, ...] = ()
    winners_money: list[int] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    @property
    def jobs(self) -> int:
        return len(self.job_seats)


def _jobs(state: LastWillState) -> frozenset[int]:
    return frozenset(s for s, p in enumerate(state.players) if p.job)


def play(mode: Mode, players: int, seed: int, policy: Policy) -> Game:
    """One game through the engine contract; events tell demotions and sackings as they happen."""
    game = Game()
    state = RULES.setup(players, mode.options, seed)
    dealt = state.phase != "pick"
    if dealt:
        game.job_seats = _jobs(state)
    while game.actions < MAX_ACTIONS:
        if RULES.outcome(state) is not None:
            break
        waiting = RULES.waiting_for(state)
        if not waiting:
            game.failures.append("the game is not over but waits for nobody")
            break
        seat = policy.seat(waiting)
        actions = RULES.legal_actions(state, seat)
        if not actions:
            game.failures.append(f"seat {seat} is waited for but has no legal action")
            break
        action = policy.choose(state, seat, actions)
        try:
            events = RULES.apply(state, seat, action)
        except IllegalAction as exc:
            game.failures.append(f"{action.encode()} of seat {seat} refused: {exc}")
            break
        game.actions += 1
        if not dealt and state.phase != "pick":
            dealt = True
            game.job_seats = _jobs(state)
        for event in events:
            if event.kind == "demoted":
                game.demotions += 1
            elif event.kind == "sacked":
                game.sacked_rounds.append(state.round)
                if state.round == len(data.EMPLOYMENT[str(event.params["job"])].lines):
                    game.sacked_earliest += 1
    outcome = RULES.outcome(state)
    if outcome is None:
        game.failures.append(f"the game did not end within {MAX_ACTIONS} actions")
        return game
    game.end_round = state.round
    game.bankruptcy = state.last_round
    game.employed_end = len(_jobs(state))
    game.no_winner = outcome.no_winner
    game.money = list(outcome.scores)
    game.winners = outcome.winners()
    game.winners_money = [outcome.scores[s] for s in game.winners]
    game.property_money = [int(part.get("property", 0)) for part in outcome.breakdown]
    return game


@dataclass(slots=True)
class Row:
    mode: Mode
    players: int
    policy: str
    games: list[Game]

    def figures(self) -> dict[str, Any]:
        games = self.games
        done = [g for g in games if not g.failures]
        n = max(1, len(done))
        jobs = sum(g.jobs for g in done)
        seats = self.players * n
        money = [m for g in done for m in g.money]
        winners = [m for g in done for m in g.winners_money]
        props = [m for g in done for m in g.property_money]
        bankrupt_rounds = Counter(g.end_round for g in done if g.bankruptcy)
        sack_rounds = Counter(r for g in done for r in g.sacked_rounds)
        job_rounds = sum(g.jobs * g.end_round for g in done)
        sacked = sum(len(g.sacked_rounds) for g in done)
        free_seats = seats - jobs
        job_wins = sum(
            sum(1 for s in g.winners if s in g.job_seats) / len(g.winners) for g in done if g.winners
        )
        free_wins = sum(
            sum(1 for s in g.winners if s not in g.job_seats) / len(g.winners) for g in done if g.winners
        )
        return {
            "mode": self.mode.name,
            "options": dict(self.mode.options),
            "players": self.players,
            "policy": self.policy,
            "games": len(games),
            "failures": sum(len(g.failures) for g in games),
            "failure_examples": [f for g in games for f in g.failures][:3],
            "actions_per_game": round(sum(g.actions for g in done) / n, 1),
            "ended_round_7": sum(1 for g in done if g.end_round == ROUNDS and not g.bankruptcy),
            "bankruptcies": sum(1 for g in done if g.bankruptcy),
            "bankrupt_by_round": {str(r): c for r, c in sorted(bankrupt_rounds.items())},
            "latest_end_round": max((g.end_round for g in done), default=0),
            "jobs_per_game": round(jobs / n, 2),
            "jobs_min": min((g.jobs for g in done), default=0),
            "jobs_max": max((g.jobs for g in done), default=0),
            "sacked": sacked,
            "sacked_share_of_jobs": round(sacked / jobs, 3) if jobs else None,
            "sacked_by_round": {str(r): c for r, c in sorted(sack_rounds.items())},
            "sacked_earliest_share": round(sum(g.sacked_earliest for g in done) / sacked, 3)
            if sacked
            else None,
            "games_with_a_sacking": sum(1 for g in done if g.sacked_rounds),
            "employed_at_end_share_of_seats": round(sum(g.employed_end for g in done) / seats, 3),
            "no_winner_games": sum(1 for g in done if g.no_winner),
            "demotions": sum(g.demotions for g in done),
            "demotions_per_job_round": round(sum(g.demotions for g in done) / job_rounds, 3)
            if job_rounds
            else None,
            "money_min": min(money, default=0),
            "money_median": float(statistics.median(money)) if money else 0.0,
            "money_max": max(money, default=0),
            "money_stdev": round(statistics.stdev(money), 1) if len(money) > 1 else 0.0,
            "winner_money_median": float(statistics.median(winners)) if winners else None,
            "property_money_median": float(statistics.median(props)) if props else 0.0,
            "wins_per_job_seat": round(job_wins / jobs, 3) if jobs else None,
            "wins_per_free_seat": round(free_wins / free_seats, 3) if free_seats else None,
        }


def _pct(part: float, whole: float) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "    - "


def _rounds(counts: Mapping[str, int]) -> str:
    """Counts for rounds 1..7 as '.' for none: '...1.62' reads R4 once, R6 six times, R7 twice."""
    return "".join(
        "." if not counts.get(str(r)) else (str(c) if (c := counts[str(r)]) < 10 else "+")
        for r in range(1, ROUNDS + 1)
    )


def _share(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def print_tables(rows: list[dict[str, Any]]) -> None:
    print("\nPlay, end and employment (bankrupt / sacked rounds: counts for rounds 1..7, '+' = 10 or more)")
    head = (
        f"{'mode':<21}{'n':>2} {'policy':<7}{'act/game':>9}{'R7 end':>8}{'bankr.':>7} {'in R1-7':<8}"
        f"{'jobs':>5}{'sacked':>8} {'in R1-7':<8}{'earliest':>9}{'empl@end':>9}{'no win':>8}"
        f"{'dem/job/rd':>11}"
    )
    print(head)
    print("-" * len(head))
    for r in rows:
        games = r["games"] - r["failures"] or 1
        dem = r["demotions_per_job_round"]
        print(
            f"{r['mode']:<21}{r['players']:>2} {r['policy']:<7}{r['actions_per_game']:>9.1f}"
            f"{_pct(r['ended_round_7'], games):>8}{r['bankruptcies']:>7} {_rounds(r['bankrupt_by_round']):<8}"
            f"{r['jobs_per_game']:>5.2f}{_share(r['sacked_share_of_jobs']):>8} "
            f"{_rounds(r['sacked_by_round']):<8}{_share(r['sacked_earliest_share']):>9}"
            f"{_share(r['employed_at_end_share_of_seats']):>9}{_pct(r['no_winner_games'], games):>8}"
            f"{'-' if dem is None else f'{dem:.3f}':>11}"
        )
    print(
        "\nFinal money (£, every seat of every game pooled; property = its end valuation, included;"
        " wins per seat: shared wins split, 1/n if even)"
    )
    head = (
        f"{'mode':<21}{'n':>2} {'policy':<7}{'min':>6}{'median':>8}{'max':>6}{'stdev':>7}"
        f"{'winner med':>11}{'property med':>13}{'wins/job seat':>14}{'wins/free seat':>15}"
    )
    print(head)
    print("-" * len(head))
    for r in rows:
        winner = r["winner_money_median"]
        job, free = r["wins_per_job_seat"], r["wins_per_free_seat"]
        print(
            f"{r['mode']:<21}{r['players']:>2} {r['policy']:<7}{r['money_min']:>6}{r['money_median']:>8.1f}"
            f"{r['money_max']:>6}{r['money_stdev']:>7.1f}{'-' if winner is None else f'{winner:.1f}':>11}"
            f"{r['property_money_median']:>13.1f}{'-' if job is None else f'{job:.3f}':>14}"
            f"{'-' if free is None else f'{free:.3f}':>15}"
        )


def checks(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []

    def check(name: str, row: dict[str, Any], value: object, passed: bool) -> None:
        found.append(
            {
                "check": name,
                "mode": row["mode"],
                "players": row["players"],
                "policy": row["policy"],
                "value": value,
                "pass": passed,
            }
        )

    for row in rows:
        games = row["games"]
        clean = row["failures"] == 0 and row["latest_end_round"] <= ROUNDS
        check("ends by round 7, no engine failure", row, row["failure_examples"] or "ok", clean)
        if row["policy"] != "greedy":
            continue
        employment = next(m.employment for m in MODES if m.name == row["mode"])
        if employment == "full":
            share = row["sacked_share_of_jobs"] or 0.0
            check(f"sacked share of jobs >= {SACK_GOAL:.0%}", row, share, share >= SACK_GOAL)
        elif employment == "none":
            never = row["jobs_max"] == 0 and row["demotions"] == 0 and row["sacked"] == 0
            check("nobody ever employed", row, row["jobs_max"], never)
        else:
            fits = games > 0 and row["jobs_min"] >= 1 and row["jobs_max"] <= row["players"] - 1
            check("handicap employs 1..n-1 seats", row, [row["jobs_min"], row["jobs_max"]], fits)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per mode, player count and policy")
    parser.add_argument("--players", type=int, nargs="+", default=[3, 5])
    parser.add_argument("--seed", type=int, default=1, help="game i of every row uses seed + i")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    rows: list[dict[str, Any]] = []
    for mode in MODES:
        for players in args.players:
            for make in (RandomPolicy, Greedy):
                games = [play(mode, players, args.seed + i, make(args.seed + i)) for i in range(args.games)]
                rows.append(Row(mode, players, make.name, games).figures())
    seconds = time.perf_counter() - start
    print(
        f"Last Will modes: {args.games} games per row, players {args.players}, seeds {args.seed}.."
        f"{args.seed + args.games - 1}, {seconds:.1f} s"
    )
    print_tables(rows)
    results = checks(rows)
    failed = [c for c in results if not c["pass"]]
    print(f"\nChecks: {len(results) - len(failed)} of {len(results)} pass")
    for c in failed:
        print(f"  FAIL {c['check']}: {c['mode']}, {c['players']} players, {c['policy']}: {c['value']}")
    ok = not failed
    print(
        json.dumps(
            {
                "benchmark": "lastwill_modes",
                "ok": ok,
                "games": args.games,
                "players": args.players,
                "seconds": round(seconds, 1),
                "sack_goal": SACK_GOAL,
                "checks": results,
                "results": rows,
            }
        )
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
