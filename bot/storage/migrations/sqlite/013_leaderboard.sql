-- 13: a server's rating leaderboard read in order of openskill's ordinal (issue 28), so a board
-- of 100,000 rated players is not sorted whole for its first lines.  The expression is spelt as
-- the queries' (bot.storage.ratings.ORDINAL).  ratings_board serves the ranked part, walked from
-- the top; ratings_newcomers the few-games part, one game count at a time (newcomers' wide sigma
-- puts them at the bottom of the first).  Running it again changes nothing.
CREATE INDEX IF NOT EXISTS ratings_board ON ratings (guild_id, game, season, (mu - 3 * sigma));
CREATE INDEX IF NOT EXISTS ratings_newcomers ON ratings (guild_id, game, season, games, (mu - 3 * sigma));
