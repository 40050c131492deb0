-- 8: limits on opening tables (issue 25): a server's own limits, and an index to count a member's
-- tables and find their newest (the SQLite file says why).  No column of the index changes when a
-- move is played, so a click's update stays a HOT update.
ALTER TABLE guilds ADD COLUMN lobbies_per_user INTEGER;
ALTER TABLE guilds ADD COLUMN tables_per_user INTEGER;
ALTER TABLE guilds ADD COLUMN cooldown_seconds INTEGER;
ALTER TABLE guilds ADD COLUMN tables_per_server INTEGER;
CREATE INDEX games_by_host ON games (guild_id, host_id, created_at);
