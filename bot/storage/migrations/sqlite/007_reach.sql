-- 7: real Discord (issue 23).  What the bot knows about reaching a table on Discord, kept in
-- rows so that a restart forgets none of it.  A table Discord will not let us reach (the server
-- removed the bot, its thread or channel was deleted or locked, a permission is missing) is
-- *parked*: why and since when, and its deadlines set aside (``paused``: JSON [seat, remind_due,
-- timeout_due] rows, given back shifted by the parked time when it is shown again), so the
-- scheduler's indexes never see them.  ``told``: what its players were last told about (each
-- trouble is told once).  ``failures`` and ``retry_at``: the sweep's back-off for a table whose
-- posts keep failing.  ``archived_at``: when a finished table's thread was archived.
CREATE TABLE reach (
    game_id      INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    parked       TEXT,
    parked_at    REAL,
    paused       TEXT,
    told         TEXT,
    failures     INTEGER NOT NULL DEFAULT 0,
    retry_at     REAL,
    archived_at  REAL
);
