-- 12: ratings per game and server (issue 28); the SQLite file says why there is no foreign key.
-- Written so that running it again changes nothing (the migration tests roll the schema number back).
-- A server's current season (1 until an admin starts another; no row: season 1).
CREATE TABLE IF NOT EXISTS seasons (
    guild_id  BIGINT  PRIMARY KEY,
    season    INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE IF NOT EXISTS ratings (
    guild_id    BIGINT           NOT NULL,
    game        TEXT             NOT NULL,
    season      INTEGER          NOT NULL,
    player      TEXT             NOT NULL,
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    games       INTEGER          NOT NULL,
    wins        INTEGER          NOT NULL,
    updated_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, game, season, player)
);

CREATE TABLE IF NOT EXISTS rated_games (
    game_id   BIGINT           PRIMARY KEY,
    seq       BIGINT           NOT NULL,
    guild_id  BIGINT           NOT NULL,
    game      TEXT             NOT NULL,
    season    INTEGER          NOT NULL,
    seats     TEXT             NOT NULL,
    at        DOUBLE PRECISION NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS rated_games_order ON rated_games (guild_id, seq);
