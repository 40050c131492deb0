"""The Last Will modes benchmark runs end to end (2 games a row) and its checks pass."""

from __future__ import annotations

import json

import pytest

from benchmarks.lastwill_modes import MODES, Greedy, RandomPolicy, main, play


def test_modes_report_runs_and_passes(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--games", "2", "--players", "3", "5"])
    lines = capsys.readouterr().out.strip().splitlines()
    report = json.loads(lines[-1])
    assert report["benchmark"] == "lastwill_modes"
    assert code == 0 and report["ok"] is True, [c for c in report["checks"] if not c["pass"]]
    assert len(report["results"]) == len(MODES) * 2 * 2  # modes × player counts × policies
    assert all(row["failures"] == 0 for row in report["results"])
    assert any(line.startswith("Checks:") for line in lines)


def test_greedy_gets_sacked_and_random_plays_on() -> None:
    full = MODES[0]
    greedy = play(full, 3, 11, Greedy(11))
    assert not greedy.failures and greedy.jobs == 3
    assert greedy.sacked_rounds, "the greedy players chase demotions and get sacked"
    aimless = play(full, 3, 11, RandomPolicy(11))
    assert not aimless.failures and aimless.end_round <= 7 and aimless.actions > 0
