"""The click-latency benchmark runs end to end (tiny: 1 and 2 tables, a handful of clicks)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from benchmarks.host_latency import main
from bot.games import REGISTRY


def test_quick_benchmark_produces_figures(tmp_path: Path) -> None:
    out = io.StringIO()
    summary = main(["--quick", "--workdir", str(tmp_path)], out=out)

    assert [level["tables"] for level in summary["levels"]] == [1, 2]
    for level in summary["levels"]:
        assert level["clicks"] >= 5
        for key in ("reply_p50_ms", "reply_p95_ms", "table_p50_ms", "table_p95_ms"):
            assert level[key] > 0, (key, level)  # NaN (nothing measured) fails too
        assert level["missing_reply"] == 0 and level["missing_table"] == 0, level
        assert level["bot_errors"] == 0, level
        assert level["db"]["synchronous"] == 2, "the bot's store runs with synchronous=FULL"
    lines = out.getvalue().strip().splitlines()
    assert any("PASS" in line or "FAIL" in line for line in lines)
    assert json.loads(lines[-1]) == json.loads(json.dumps(summary))
    assert not list(tmp_path.iterdir()), "the temporary databases are removed"


def test_thread_volume_meets_its_goals() -> None:
    """One scripted 3-player game of each game by clicks: one image at a time, a ping per new
    wait, at most 2.5 Discord calls per action (counts, not timings: the same on any machine)."""
    import contextlib

    from benchmarks.thread_volume import main as thread_volume

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = thread_volume(["--seed", "7"])
    summary = json.loads(out.getvalue().strip().splitlines()[-1])
    assert code == 0 and summary["ok"], out.getvalue()
    assert [g["game"] for g in summary["games"]] == [e.name for e in REGISTRY.public()]
    for game in summary["games"]:
        assert game["finished"] and game["max_images_at_once"] == 1 and game["messages_with_images"] == 1
        assert game.get("misses", 0) <= 10, game  # the script's own dead ends: a few first looks


RENDER_ARGV = {"california": ["--seeds", "1", "--repeat", "1"]}
"""Renderer benchmarks whose arguments differ from the usual ``--seeds 1 --repeats 1``."""


@pytest.mark.parametrize("game", [e.name for e in REGISTRY.public()])
def test_render_benchmarks_print_their_figures(game: str) -> None:
    """Each offered game's renderer benchmark (``benchmarks/render_<game>.py``) runs (one game, one render) and ends with its JSON figures
    (timings are not judged here: they depend on the machine)."""
    import contextlib
    import importlib

    argv = RENDER_ARGV.get(game, ["--seeds", "1", "--repeats", "1"])
    main = importlib.import_module(f"benchmarks.render_{game}").main
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(argv)
    figures = json.loads(out.getvalue().strip().splitlines()[-1])
    assert figures["benchmark"] == f"render_{game}" and figures["renders"] >= 1
    assert code == (0 if figures["ok"] else 1)
    for key in ("cold_ms", "median_ms", "p95_ms", "png_bytes_max", "goal_median_ms", "goal_png_bytes"):
        assert figures[key] > 0, key


def test_the_scale_benchmark_runs_on_postgres_and_meets_its_goals(postgres_server: str) -> None:
    """``benchmarks/scale.py --quick`` on the session's PostgreSQL: two real child processes racing
    on 200 tables, one SIGKILLed and restarted, and a start-up on 2,000 stored games; counts and
    checks only (the figures that matter come from the full run)."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "benchmarks/scale.py", "--quick", "--postgres", postgres_server],
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert done.returncode == 0 and summary["ok"], done.stdout[-3000:]
    pair = summary["two_processes"]
    assert pair["actions"] > 0 and pair["acks_after_restart"] > 0 and pair["lost"] == 0
    assert set(summary["latency"]) == {"sqlite/1", "sqlite/2", "postgres/1", "postgres/2"}


def test_the_ratings_benchmark_runs_and_its_rebuild_agrees(capsys: pytest.CaptureFixture[str]) -> None:
    """``benchmarks/ratings.py --quick`` on SQLite: every figure is there, and the rebuild over
    the games it rated finds no difference (a count, not a timing: the same on any machine)."""
    from benchmarks.ratings import main as ratings_main

    ratings_main(["--quick", "--no-postgres"])
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    sqlite = summary["sqlite"]
    assert sqlite["rebuild_games"] == 200 and sqlite["rebuild_differences"] == 0
    assert sqlite["board_lines"] > 0 and sqlite["updates"] > 0
    assert summary["story"]["story_max_bytes"] > 0
    assert set(summary["goals"]) >= {"sqlite_rebuild_agrees", "story_le_300kB"}
