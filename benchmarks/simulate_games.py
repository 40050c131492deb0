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

    python benchmarks/simulate_games.py [--games 200] [--players 5]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL_ACTIONS_PER_SECOND = 5000.0
GAME_GOALS = {"monopoly": (6, 10_000.0), "lastwill": (5, 10_000.0)}
"""Game -> (players, actions per second) where its issue set its own goal."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from bot.registry import REGISTRY

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    results = []
    ok = True
    for entry in REGISTRY.public():
        players, goal = GAME_GOALS.get(entry.name, (args.players, GOAL_ACTIONS_PER_SECOND))
        players = min(max(players, entry.rules.min_players), entry.rules.max_players)
        command = [
            sys.executable,
            "-m",
            "bot",
            "simulate",
            entry.name,
            "--players",
            str(players),
            "--games",
            str(args.games),
            "--seed",
            str(args.seed),
        ]
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
        report = json.loads(done.stdout.strip().splitlines()[-1])
        passed = (
            done.returncode == 0
            and report["invariant_failures"] == 0
            and (report["actions_per_second"] >= goal)
        )
        ok = ok and passed
        print(
            f"{entry.name:<12} {players} players, {report['games']} games: {report['actions']} actions in "
            f"{report['seconds']} s = {report['actions_per_second']:,.0f} actions/s "
            f"(goal >= {goal:,.0f}), {report['actions'] / report['games']:.1f} "
            f"actions/game, invariant failures {report['invariant_failures']}"
            f"  {'PASS' if passed else 'FAIL'}"
        )
        results.append(
            {**report, "actions_per_game": round(report["actions"] / report["games"], 1), "pass": passed}
        )
    print(json.dumps({"benchmark": "simulate_games", "ok": ok, "results": results}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
