-- 1: the initial schema.
CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER,
    channel_id   INTEGER,
    thread_id    INTEGER,
    game         TEXT    NOT NULL,
    options      TEXT    NOT NULL DEFAULT '{}',
    seed         INTEGER,
    status       TEXT    NOT NULL DEFAULT 'lobby'
                 CHECK (status IN ('lobby', 'active', 'finished', 'abandoned', 'broken')),
    version      INTEGER NOT NULL DEFAULT 0,
    snapshot     TEXT,
    host_id      INTEGER NOT NULL,
    language     TEXT    NOT NULL DEFAULT 'en',
    reason       TEXT,
    created_at   REAL    NOT NULL,
    updated_at   REAL    NOT NULL
);
CREATE INDEX games_by_guild ON games (guild_id, status);
CREATE TABLE seats (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    name     TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);
CREATE TABLE actions (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version  INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    user_id  INTEGER,
    action   TEXT    NOT NULL,
    at       REAL    NOT NULL,
    PRIMARY KEY (game_id, version)
);
CREATE TABLE messages (
    message_id  INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    channel_id  INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('lobby', 'table', 'final')),
    version     INTEGER NOT NULL,
    live        INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX messages_live ON messages (game_id, live);
