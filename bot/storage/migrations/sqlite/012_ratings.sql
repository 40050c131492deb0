-- 12: ratings per game and server (issue 28).  Derived data: ``python -m bot ratings --rebuild``
-- recomputes ``ratings`` from ``rated_games`` (which keeps each rated game's seats and places, so
-- it outlives the game's own rows when they are pruned: no foreign key to ``games``).
-- Written so that running it again changes nothing (the migration tests roll the schema number back).
-- A server's current season (1 until an admin starts another; no row: season 1).
CREATE TABLE IF NOT EXISTS seasons (
    guild_id  INTEGER PRIMARY KEY,
    season    INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE IF NOT EXISTS ratings (
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    season      INTEGER NOT NULL,
    player      TEXT    NOT NULL,  -- 'u:<user id>' for a person, 'b:<level>' for a bot
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    updated_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, game, season, player)
);

CREATE TABLE IF NOT EXISTS rated_games (
    game_id   INTEGER PRIMARY KEY,  -- a game is never counted twice
    seq       INTEGER NOT NULL,     -- the order ratings were applied in, per server
    guild_id  INTEGER NOT NULL,
    game      TEXT    NOT NULL,
    season    INTEGER NOT NULL,
    seats     TEXT    NOT NULL,     -- per seat: player key, place, mu/sigma before and after
    at        REAL    NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS rated_games_order ON rated_games (guild_id, seq);
