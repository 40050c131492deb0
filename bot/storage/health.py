"""What ``python -m bot health`` reports: the database seen the way a monitor needs it.

Each figure answers an operator's question: can the bot reach its database, has it been
migrated, how much is being played, and is the scheduler keeping up (a deadline that has been
due for minutes means reminders and timeouts are late: no process is ticking, or it is stuck).
And how each bot process fares with Discord: its answers by status and code, its invalid
requests of the last ten minutes (Discord bans at 10,000), whether its guard has paused its
background work; each process writes these every minute (``discord:<process>`` rows of ``meta``).
"""

from __future__ import annotations

import json
from typing import Any

from bot.storage.codes import OPEN_STATUSES
from bot.storage.store import Store

LATE_AFTER_S = 300.0
"""A deadline overdue by more than this makes the report unhealthy (the scheduler ticks each minute)."""


DISCORD_FRESH_S = 300.0
"""A process's Discord figures older than this are from a process that has stopped reporting."""


async def check(store: Store, *, now: float) -> dict[str, Any]:
    counts = await store.games.count_games(OPEN_STATUSES)
    due = await store.waits.fetch_next_due()
    overdue = None if due is None or due > now else round(now - due, 1)
    # SQLite's quick_check: left out of start-up (it reads the whole file), so a monitor runs it.
    damaged = await store.integrity()
    problem = store.health()
    late = overdue is not None and overdue > LATE_AFTER_S
    discord = {
        key.removeprefix("discord:"): {
            **report,
            "fresh": now - float(report.get("at", 0.0)) <= DISCORD_FRESH_S,
        }
        for key, value in (await store.fetch_meta("discord:")).items()
        for report in [json.loads(value)]
    }
    paused = any(report["fresh"] and report.get("paused") for report in discord.values())
    return {
        "ok": problem is None and not late and not paused,
        "database": {
            "reachable": True,
            "backend": store.dialect.name,
            "name": store.name,
            "schema": await store.schema_version(),
            "problem": problem,
            "integrity": "ok" if damaged is None else damaged,
        },
        "open_tables": counts,
        "oldest_due_deadline": {
            "at": due,
            "overdue_s": overdue,
            "late": late,
        },
        "discord": discord,
    }
