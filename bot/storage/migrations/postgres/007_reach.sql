-- 7: real Discord (issue 23): parked tables, the sweep's back-off, archived threads
-- (the SQLite file says why each column exists).
CREATE TABLE reach (
    game_id      BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    parked       TEXT,
    parked_at    DOUBLE PRECISION,
    paused       TEXT,
    told         TEXT,
    failures     INTEGER NOT NULL DEFAULT 0,
    retry_at     DOUBLE PRECISION,
    archived_at  DOUBLE PRECISION
);
