"""What ``python -m bot health`` reports: the database seen the way a monitor needs it.

Each figure answers an operator's question: can the bot reach its database, has it been
migrated, how much is being played, and is the scheduler keeping up (a deadline that has been
due for minutes means reminders and timeouts are late: no process is ticking, or it is stuck).
"""

from __future__ import annotations

from typing import Any

from bot.storage.store import Store

LATE_AFTER_S = 300.0
"""A deadline overdue by more than this makes the report unhealthy (the scheduler ticks each minute)."""


async def check(store: Store, *, now: float) -> dict[str, Any]:
    counts = await store.count_games(("lobby", "active"))
    due = await store.next_due()
    overdue = None if due is None or due > now else round(now - due, 1)
    problem = store.health()
    late = overdue is not None and overdue > LATE_AFTER_S
    return {
        "ok": problem is None and not late,
        "database": {
            "reachable": True,
            "backend": store.dialect.name,
            "name": store.name,
            "schema": await store.schema_version(),
            "problem": problem,
        },
        "open_tables": counts,
        "oldest_due_deadline": {
            "at": due,
            "overdue_s": overdue,
            "late": late,
        },
    }
