"""The scheduler benchmark runs end to end (tiny: 20 and 200 open tables, 1,000 stored games)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from benchmarks.scheduler_scale import main


def test_quick_scheduler_benchmark_meets_its_goals(tmp_path: Path) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["--quick", "--workdir", str(tmp_path)])
    summary = json.loads(out.getvalue().strip().splitlines()[-1])
    # Every goal but the CPU ratio, which a tiny run on a busy machine cannot judge (counts are exact).
    goals = {key: value for key, value in summary["goals"].items() if key != "idle_cpu_flat"}
    assert all(goals.values()), out.getvalue()
    assert [level["tables"] for level in summary["levels"]] == [20, 200]
    for level in summary["levels"]:
        assert level["queries_per_idle_minute"] == 1 and level["plans_use_indexes"], level
        assert level["burst_exactly_once"], level
    assert summary["startup"]["overdue_fired"] == summary["startup"]["overdue_expected"] > 0
    assert not list(tmp_path.iterdir()), "the temporary databases are removed"
