"""How well and how fast bot players play: one normal bot against random (easy) bots.

For each game, ``--games`` games (default 200) of ``--players`` seats: one seat is a normal bot
(``rules.search.choose`` with the game's hints, at the bot players' budget), every other seat
moves uniformly at random among its legal moves (an easy bot), and the normal bot's seat
rotates from game to game.  Only seats the game waits for move, as bot seats do at a table.
Figures per game:

- the normal bot's win rate (a win shared by k tied seats counts 1/k), against the goal of
  at least twice the random share (2 / players);
- decision time p50 / p95 over its decisions that needed thought (a lone legal move is
  instant), against the goal p95 <= 1 s;
- The Estates only: of the auctions in which bidding was profitable for the normal bot (its
  hints' ``auction_check``), the share in which it bid (goal >= 90 %).

Games run in ``--jobs`` processes.  It ends with one JSON line whose ``ok`` is true only when
every goal is met.

    PYTHONPATH=. python benchmarks/bots.py [--game estates] [--games 200] [--players 3] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, cast

from benchmarks.stats import percentile
from bot.games import REGISTRY
from bot.services.bot_players import BUDGET
from rules.rng import Rng
from rules.search import SearchRules, choose

GAMES = tuple(entry.name for entry in REGISTRY.public() if entry.has_bots)
"""Every offered game bots can play, in the registry's order (``bot.games``)."""
DECISION_P95_GOAL_S = 1.0
BID_GOAL = 0.9


@dataclass
class Match:
    """One game's figures for the normal bot."""

    win: float = 0.0
    think_s: list[float] = field(default_factory=list)
    profitable: int = 0
    bid: int = 0
    actions: int = 0


def play(game: str, players: int, seed: int) -> Match:
    """One game: the normal bot at seat ``seed % players``, random bots elsewhere."""
    entry = REGISTRY.get(game)
    assert entry is not None
    rules = cast(SearchRules[Any], entry.rules)
    hints = entry.hints
    check = getattr(hints, "auction_check", None)
    normal = seed % players
    rng = Rng(seed)
    state = rules.setup(players, dict(rules.play_options), seed)
    match = Match()
    while rules.outcome(state) is None:
        waiting = sorted(rules.waiting_for(state))
        seat = rng.choice(waiting)
        if seat == normal:
            view = rules.view(state, seat)
            start = time.perf_counter()
            decision = choose(rules, hints, view, seat, rng.next64(), BUDGET)
            if decision.playouts:
                match.think_s.append(time.perf_counter() - start)
            action = decision.action
            if check is not None:
                verdict = check(state, seat, action)
                if verdict is not None:
                    match.profitable += 1
                    match.bid += bool(verdict)
        else:
            action = rng.choice(rules.legal_actions(state, seat))
        rules.apply(state, seat, action)
        match.actions += 1
    outcome = rules.outcome(state)
    assert outcome is not None
    firsts = [s for s, rank in enumerate(outcome.ranks) if rank == 1]
    match.win = 1 / len(firsts) if normal in firsts else 0.0
    return match


def _play(job: tuple[str, int, int]) -> Match:
    return play(*job)


def report(game: str, players: int, matches: Sequence[Match], seconds: float) -> dict[str, Any]:
    think = [t for m in matches for t in m.think_s]
    wins = sum(m.win for m in matches)
    rate = wins / len(matches)
    goal = 2 / players
    figures: dict[str, Any] = {
        "game": game,
        "players": players,
        "games": len(matches),
        "win_rate": round(rate, 3),
        "goal_win_rate": round(goal, 3),
        "decisions": len(think),
        "think_p50_ms": round(percentile(think, 50) * 1000, 1) if think else 0.0,
        "think_p95_ms": round(percentile(think, 95) * 1000, 1) if think else 0.0,
        "seconds": round(seconds, 1),
    }
    ok = rate >= goal and (not think or percentile(think, 95) <= DECISION_P95_GOAL_S)
    profitable = sum(m.profitable for m in matches)
    if game == "estates":
        share = sum(m.bid for m in matches) / profitable if profitable else 0.0
        figures |= {"profitable_auctions": profitable, "bid_share": round(share, 3)}
        ok = ok and profitable > 0 and share >= BID_GOAL
    figures["ok"] = ok
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", choices=GAMES, action="append", help="a game (repeatable; default all)")
    parser.add_argument("--games", type=int, default=200, help="games per game type (default 200)")
    parser.add_argument("--players", type=int, default=3, help="seats per game (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    args = parser.parse_args(argv)
    results = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for game in args.game or GAMES:
            jobs = [(game, args.players, args.seed + i) for i in range(args.games)]
            start = time.perf_counter()
            matches = list(pool.map(_play, jobs, chunksize=4))
            figures = report(game, args.players, matches, time.perf_counter() - start)
            results.append(figures)
            print(
                f"{game}: won {figures['win_rate']:.0%} of {args.games} (goal {figures['goal_win_rate']:.0%}), "
                f"think p50 {figures['think_p50_ms']} ms, p95 {figures['think_p95_ms']} ms"
                + (
                    f", bid in {figures['bid_share']:.0%} of {figures['profitable_auctions']} profitable auctions"
                    if game == "estates"
                    else ""
                )
            )
    print(json.dumps({"benchmark": "bots", "results": results, "ok": all(r["ok"] for r in results)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
