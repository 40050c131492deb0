"""``benchmarks/discord_week.py --quick`` runs end to end and meets every goal.

Why a smoke test: the full run (300 tables, two weeks) takes minutes and is run by hand; this
keeps the benchmark itself working (its driver still reaches every game's moves, the rules layer
still enforces, every disturbance still happens) at a size that runs in well under a minute.
It runs as a child process, as a person would run it: the rules layer patches SimCord process-wide
and the run's log handler sits on the root logger, so neither leaks into other tests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_quick_week_meets_every_goal_and_every_disturbance_happens() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "benchmarks/discord_week.py", "--quick"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    lines = done.stdout.strip().splitlines()
    assert lines, done.stderr[-3000:]
    figures = json.loads(lines[-1])
    assert figures["ok"], json.dumps(figures, indent=1)
    assert done.returncode == 0
    assert figures["happened"] == {
        "cap": True,
        "thread_deleted": True,
        "thread_locked": True,
        "server_removed": True,
        "restart": True,
    }
    for check in ("unanswered", "late", "boards_wrong", "reminders_lost", "reminders_overdue", "tracebacks"):
        assert figures[check] == 0, check
    disturbances = figures["disturbances"]
    assert disturbances["cap_server_tables_in_channel"] >= 1 and disturbances["cap_refusals_160006"] >= 1
    assert disturbances["parked_events"].get("guild_gone", 0) >= 1
    assert disturbances["parked_events"].get("thread_gone") == 1 and disturbances["shown_back"]
    assert disturbances["parked_events"].get("locked") == 1
    assert disturbances["parked_told_by_dm"] >= 1 and disturbances["parked_told_in_channel"] >= 1
    assert disturbances["list_shows_parked"] and disturbances["mine_shows_parked"]
    assert figures["parked_by_reason"].get("locked") == 1
    reminders = figures["reminders"]
    assert reminders["claimed"] >= 1 and reminders["after_restart"] >= 1, reminders
    assert (
        reminders["received_on_table"] + reminders["received_by_dm"]
        == reminders["claimed"] - reminders["given_back"]
    )
    assert figures["moves_by_people"] >= 5 and figures["moves_by_bots"] >= 1
    assert figures["peak_rps"] <= 50 and figures["invalid_peak"] <= 100
