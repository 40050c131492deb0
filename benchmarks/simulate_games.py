"""Engine throughput: ``python -m bot simulate`` for every registered game, with the goals beside it.

Runs the real CLI in a subprocess (exactly what an operator would type) so the
figure includes nothing the command does not do.  Goals from the game issues:
at least 5,000 actions per second with 5 players over 200 games, zero
invariant failures; Monopoly's issue asks 10,000 actions per second with 6 players and Last
Will's 10,000 with 5 (``GAME_GOALS``: a game listed there is played at its own player count).

The random player (``rules.play.random_playthrough``) also lets seats the game is not
waiting for act (``OUT_OF_TURN_CHANCE``: California's loans between turns), so the figure
includes the ``legal_actions`` calls that finding those actions costs.  Each line also gives
the mean game length (actions per game): out-of-turn play makes games longer, and a game
that an idle seat could keep going shows up there first.

With ``--no-check`` it measures what bot players' playouts need instead (the bot players'
issue): the engine alone, invariant checks off, at every player count each game allows,
against 50,000 actions per second.  A short run on a shared machine swings by a third from
one try to the next, so each count is run ``--repeats`` times and the median is judged.

    python benchmarks/simulate_games.py [--games 200] [--players 5]
    python benchmarks/simulate_games.py --no-check [--games 200] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GOAL_ACTIONS_PER_SECOND = 5000.0
GAME_GOALS = {"monopoly": (6, 10_000.0), "lastwill": (5, 10_000.0)}
"""Game -> (players, actions per second) where its issue set its own goal."""
UNCHECKED_GOAL = 50_000.0
"""Actions per second without invariant checks, every game and player count (bot players)."""


def run(game: str, players: int, games: int, seed: int, check: bool) -> dict[str, Any]:
    """One ``python -m bot simulate`` in a subprocess: its JSON report and exit code."""
    command = [sys.executable, "-m", "bot", "simulate", game, "--players", str(players)]
    command += ["--games", str(games), "--seed", str(seed)] + ([] if check else ["--no-check"])
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    report["exit_code"] = done.returncode
    return report


def cases(check: bool, players: int) -> list[tuple[str, int, float]]:
    """(game, players, goal) to measure: the issue goals, or every count unchecked."""
    sys.path.insert(0, str(ROOT))
    from bot.games import REGISTRY

    found = []
    for entry in REGISTRY.public():
        low, high = entry.rules.min_players, entry.rules.max_players
        if not check:
            found += [(entry.name, n, UNCHECKED_GOAL) for n in range(low, high + 1)]
            continue
        count, goal = GAME_GOALS.get(entry.name, (players, GOAL_ACTIONS_PER_SECOND))
        found.append((entry.name, min(max(count, low), high), goal))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-check", action="store_true", help="the engine alone, every player count")
    parser.add_argument("--repeats", type=int, default=1, help="runs per case; the median is judged")
    args = parser.parse_args(argv)
    check = not args.no_check
    results = []
    ok = True
    for game, players, goal in cases(check, args.players):
        runs = [run(game, players, args.games, args.seed, check) for _ in range(max(1, args.repeats))]
        speeds = sorted(r["actions_per_second"] for r in runs)
        report = {**runs[0], "actions_per_second": statistics.median(speeds)}
        passed = all(r["exit_code"] == 0 and r["invariant_failures"] == 0 for r in runs) and (
            report["actions_per_second"] >= goal
        )
        ok = ok and passed
        tries = "" if len(runs) == 1 else f" (median of {', '.join(f'{v:,.0f}' for v in speeds)})"
        print(
            f"{game:<12} {players} players, {report['games']} games: {report['actions']} actions, "
            f"{report['actions_per_second']:,.0f} actions/s{tries} (goal >= {goal:,.0f}), "
            f"{report['actions'] / report['games']:.1f} actions/game, "
            f"invariant failures {report['invariant_failures']}  {'PASS' if passed else 'FAIL'}"
        )
        report.pop("exit_code")
        results.append(
            {**report, "actions_per_game": round(report["actions"] / report["games"], 1), "pass": passed}
        )
    print(json.dumps({"benchmark": "simulate_games", "checked": check, "ok": ok, "results": results}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
