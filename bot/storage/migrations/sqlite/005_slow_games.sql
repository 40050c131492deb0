-- 5: slow games (issue 12).  Time is kept in rows, so a restart neither loses nor repeats
-- it: ``waits`` holds every seat a game waits on, since when, and its next reminder and
-- timeout (NULL: none), indexed so the scheduler asks for the next one without a scan.
-- A table's own clocks (NULL: the server's default; 0: off), players' preferences (how to
-- be reminded, away until when), servers' defaults, how each logged move was made (a
-- timeout's default move) and whether an undo took it back, how long its player had been
-- waited on (stats), each seat's final place, and an undo waiting for consent.
ALTER TABLE games ADD COLUMN remind_hours INTEGER;
ALTER TABLE games ADD COLUMN timer_hours INTEGER;
CREATE TABLE waits (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    since        REAL    NOT NULL,
    remind_due   REAL,
    reminders    INTEGER NOT NULL DEFAULT 0,
    timeout_due  REAL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX waits_by_remind_due ON waits (remind_due) WHERE remind_due IS NOT NULL;
CREATE INDEX waits_by_timeout_due ON waits (timeout_due) WHERE timeout_due IS NOT NULL;
CREATE TABLE players (
    user_id     INTEGER PRIMARY KEY,
    notify      TEXT    NOT NULL DEFAULT 'thread' CHECK (notify IN ('thread', 'dm', 'none')),
    away_until  REAL
);
CREATE TABLE guilds (
    guild_id        INTEGER PRIMARY KEY,
    remind_hours    INTEGER,
    timer_hours     INTEGER,
    channel_id      INTEGER,
    opener_role_id  INTEGER
);
ALTER TABLE actions ADD COLUMN how TEXT NOT NULL DEFAULT 'player' CHECK (how IN ('player', 'timeout'));
ALTER TABLE actions ADD COLUMN undone INTEGER NOT NULL DEFAULT 0;
ALTER TABLE actions ADD COLUMN waited REAL;
ALTER TABLE seats ADD COLUMN rank INTEGER;
CREATE INDEX seats_by_user ON seats (user_id);
CREATE TABLE undo_requests (
    game_id   INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    version   INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    accepted  TEXT    NOT NULL DEFAULT '[]',
    asked_at  REAL    NOT NULL
);
