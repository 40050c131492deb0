-- 13: a server's rating leaderboard in ordinal order (issue 28); the SQLite file says why.
-- Running it again changes nothing.
CREATE INDEX IF NOT EXISTS ratings_board ON ratings (guild_id, game, season, (mu - 3 * sigma));
CREATE INDEX IF NOT EXISTS ratings_newcomers ON ratings (guild_id, game, season, games, (mu - 3 * sigma));
