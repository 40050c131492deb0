"""A small SIGKILL torture run: real games, several tables, killed and restarted five times."""

from __future__ import annotations

import io
import time
from pathlib import Path

from benchmarks.torture_kills import run


def test_a_few_kills_lose_nothing(tmp_path: Path) -> None:
    started = time.monotonic()
    figures = run(kills=6, seed=7, workdir=tmp_path, tables=3, early=0.3, err=io.StringIO())
    assert figures["kills"] == 6
    assert figures["acknowledged"] > 20, figures
    zero = {key: figures[key] for key in ("lost", "lost_tables", "unloadable", "snapshot_mismatch")}
    assert zero == {"lost": 0, "lost_tables": 0, "unloadable": 0, "snapshot_mismatch": 0}, figures["examples"]
    assert figures["public_version_mismatch"] == 0 and figures["status_mismatch"] == 0, figures["examples"]
    assert figures["log_gaps"] == 0 and figures["child_failures"] == 0, figures["examples"]
    assert figures["failures"] == []
    assert figures["resumed_runs"] >= 1, "no run picked up a game a kill left active"
    assert not list(tmp_path.iterdir()), "the temporary database is removed"
    assert time.monotonic() - started < 15
