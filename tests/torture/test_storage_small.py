"""A small storage-fault torture run (benchmarks/torture_storage.py): every fault, every answer true."""

from __future__ import annotations

from pathlib import Path

from benchmarks.torture_storage import SCENARIOS, run


def test_storage_faults_lose_nothing_acknowledged_and_answer_every_click_truthfully(tmp_path: Path) -> None:
    figures = run(seed=3, moves=25, workdir=tmp_path)
    assert set(figures["scenarios"]) | set(figures["skipped"]) == set(SCENARIOS)
    assert not figures["skipped"], "no C compiler: the fsync, full-disk and read-only faults did not run"
    assert figures["acknowledged_lost"] == 0, figures["scenarios"]
    assert figures["untruthful_answers"] == 0, figures["scenarios"]
    assert figures["unanswered_clicks"] == 0, figures["scenarios"]
    eio = figures["scenarios"]["eio_fsync"]
    assert eio["notsaved"] + eio["unconfirmed"] > 0, "no commit met its fsync fault"
    assert figures["scenarios"]["db_deleted"]["restart_refused"]
    assert figures["ok"]
    assert not list(tmp_path.glob("*/*")), "the scratch databases are removed"
