"""A small race torture run: same button, two players, cold-cache move + reads, two processes, lobby join."""

from __future__ import annotations

import io
import time
from pathlib import Path

from benchmarks.torture_races import KINDS, run


def test_races_neither_double_apply_nor_leave_a_game_stuck(tmp_path: Path) -> None:
    started = time.monotonic()
    figures = run(races=300, seed=11, workdir=tmp_path, err=io.StringIO())
    assert figures["races"] == 300
    assert set(figures["races_by_kind"]) == set(KINDS)
    assert figures["races_by_cache"].get("evicted", 0) and figures["races_by_cache"].get("restarted", 0)
    assert figures["double_applied"] == 0, figures["examples"]
    assert figures["stuck_games"] == 0, (figures["stuck_symptoms"], figures["examples"])
    assert figures["snapshot_mismatch"] == 0 and figures["public_version_mismatch"] == 0, figures["examples"]
    assert figures["errors"] == 0 and figures["no_winner"] == 0, figures["examples"]
    assert figures["stale_seats"] == 0 and figures["dropped_players"] == 0, figures["examples"]
    assert figures["failures"] == []
    assert not list(tmp_path.iterdir()), "the temporary database is removed"
    assert time.monotonic() - started < 15
