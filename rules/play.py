"""Driving any game through the contract: replays and random playthroughs.

Shared by the CLI (``simulate``, ``render``, ``replay``), the contract tests
and the benchmarks, so all of them exercise games exactly the same way.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.core import JSON, Action, IllegalAction, Rules
from rules.rng import Rng


def replay(
    rules: Rules[Any],
    players: int,
    options: Mapping[str, object],
    seed: int,
    log: Iterable[tuple[int, Action]],
) -> Any:
    """``setup`` then every logged action; raises ``IllegalAction`` if the log no longer fits."""
    state = rules.setup(players, options, seed)
    for seat, action in log:
        rules.apply(state, seat, action)
    return state


@dataclass(frozen=True, slots=True)
class Story:
    """How a game tells its story: each seat's public score, read from the public view only.

    Reading the public view (never the state) is what keeps hidden money and hands out of the
    chart and the export: whatever ``view(state, None)`` holds is already shown to everyone.
    ``lower_leads`` is for games won with the least (Last Will's money), so "who leads" and
    "lead changes" mean the same as the final ranks.
    """

    scores: Callable[[dict[str, JSON]], list[int]]
    lower_leads: bool = False


def story_series(
    rules: Rules[Any],
    story: Story,
    players: int,
    options: Mapping[str, object],
    seed: int,
    log: Iterable[tuple[int, Action]],
) -> list[list[int]]:
    """Each seat's public score at the start and after every logged move: one point per public
    version, from the log replayed (so a finished game and a game still running read the same)."""
    state = rules.setup(players, options, seed)
    series = [story.scores(rules.view(state, None))]
    for seat, action in log:
        rules.apply(state, seat, action)
        series.append(story.scores(rules.view(state, None)))
    return series


def canonical(data: Any) -> str:
    """One text per state, so "replay equals live" is a string comparison."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


@dataclass(slots=True)
class Playthrough:
    """What a random game did, for reports and for replaying it.

    ``out_of_turn`` counts the logged actions whose seat the game was not waiting for when it
    acted (a loan between turns): the contract tests use it to see that such actions are fuzzed.
    """

    state: Any
    log: list[tuple[int, Action]] = field(default_factory=list)
    options: dict[str, object] = field(default_factory=dict)
    """The options the game was set up with (the game's ``play_options`` unless given)."""
    failures: list[str] = field(default_factory=list)
    finished: bool = False
    out_of_turn: int = 0


OUT_OF_TURN_CHANCE = 0.2
"""How often random play lets a seat the game is not waiting for act, when one can.

Out-of-turn actions (California's loans and repayments, Monopoly's building, mortgaging and
deal offers) are where engines hide their subtlest bugs, since they land in the middle of
somebody else's turn; the fuzzer must take them.  They must not take over, though: only the
waited-for seats move a game on, and a seat may take and repay loans for as long as its money
lasts.  With this chance of an idle seat acting (and otherwise a waiting seat), at least
four steps in five still go to a waited-for seat, so a game that ends under waiting-seat play
still ends, in at most about 1 / (1 - chance) times as many actions.  Measured over 50 seeds, California
with 4 players went from 109 to 132 actions a game on average (25 of them loans and
repayments between turns); 0.1 fuzzed half as many loans, 0.3 made games 40% longer.  The
Estates has no out-of-turn actions, so its games only cost the coin.
"""

_WORD = 1 << 64


def idle_actions(
    rules: Rules[Any], state: Any, players: int, waiting: frozenset[int] | None = None
) -> dict[int, list[Action]]:
    """The legal actions of every seat the game is *not* waiting for, seats with none left out.

    These are the out-of-turn actions available right now (a loan in California, building in
    Monopoly).  Asking every seat costs a ``legal_actions`` call each, so random play asks only
    when its coin has already chosen an out-of-turn step.  ``waiting`` is
    ``rules.waiting_for(state)`` when the caller has it already.
    """
    if waiting is None:
        waiting = rules.waiting_for(state)
    found: dict[int, list[Action]] = {}
    for seat in range(players):
        if seat not in waiting:
            actions = rules.legal_actions(state, seat)
            if actions:
                found[seat] = actions
    return found


def random_playthrough(
    rules: Rules[Any],
    players: int,
    seed: int,
    *,
    options: Mapping[str, object] | None = None,
    max_actions: int = 20_000,
    check: bool = True,
    stop_after: int | None = None,
    out_of_turn_chance: float = OUT_OF_TURN_CHANCE,
) -> Playthrough:
    """Uniformly random legal play, out-of-turn actions included; the same seed, the same game.

    Each step first tosses a coin (heads with ``out_of_turn_chance``, default
    :data:`OUT_OF_TURN_CHANCE`; no toss while the game waits for every seat): on heads, one of
    the seats the game is not waiting for that has a legal action acts (seat uniform, then
    action uniform); on tails, or when no idle seat can act, a waiting seat does.  Keeping the
    chance below one is what stops idle seats from stalling a game forever.  A chance of 0
    plays waiting seats only and tosses no coin: exactly the playthroughs from before idle
    seats were fuzzed.  All choices come from an ``Rng`` seeded from ``seed``, so a seed
    always gives the same playthrough.  With ``check`` every step also verifies the
    game's invariants and that the chosen legal action really applies.  Without ``options`` the
    game's ``play_options`` are used (a round limit, for a game that aimless play would drag
    on); the playthrough records the options it used, for replaying it.
    """
    if not 0.0 <= out_of_turn_chance < 1.0:
        raise ValueError(f"out_of_turn_chance must be in [0, 1), not {out_of_turn_chance!r}")
    # Heads when a 64-bit word falls below a threshold: one draw, no float arithmetic per step.
    heads_below = int(out_of_turn_chance * _WORD)
    chooser = Rng(seed ^ 0x5EED)
    chosen = dict(rules.play_options if options is None else options)
    state = rules.setup(players, chosen, seed)
    run = Playthrough(state, options=chosen)
    limit = stop_after if stop_after is not None else max_actions
    while len(run.log) < limit:
        if rules.outcome(state) is not None:
            run.finished = True
            break
        waiting = rules.waiting_for(state)
        if not waiting:
            run.failures.append("the game is not over but waits for nobody")
            break
        idle: dict[int, list[Action]] = {}
        if heads_below and len(waiting) < players and chooser.next64() < heads_below:
            idle = idle_actions(rules, state, players, waiting)
        if idle:
            seat = chooser.choice(sorted(idle))
            actions = idle[seat]
        else:
            seat = chooser.choice(sorted(waiting))
            actions = rules.legal_actions(state, seat)
            if not actions:
                run.failures.append(f"seat {seat} is waited for but has no legal action")
                break
        action = chooser.choice(actions)
        try:
            rules.apply(state, seat, action)
        except IllegalAction as exc:
            run.failures.append(f"legal action {action} of seat {seat} was refused: {exc}")
            break
        run.log.append((seat, action))
        if idle:
            run.out_of_turn += 1
        if check:
            run.failures.extend(f"after {action}: {msg}" for msg in rules.invariants(state))
            if run.failures:
                break
    else:
        run.finished = rules.outcome(state) is not None
        if stop_after is None and not run.finished:
            run.failures.append(f"the game did not end within {max_actions} actions")
    return run
