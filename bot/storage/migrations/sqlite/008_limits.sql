-- 8: limits on opening tables (issue 25).  A server's own limits, next to its other settings
-- (NULL: the bot's default; 0: no limit): open lobbies and open tables one member may host, the
-- seconds between two tables a member opens, and open tables in the whole server.  The counts
-- behind them are read from ``games`` at each /game new, by host and server (the index below), so
-- nothing extra is written per table and a restart forgets nothing: the cooldown is the newest
-- ``created_at`` of the member's tables.  None of these columns changes when a move is played.
ALTER TABLE guilds ADD COLUMN lobbies_per_user INTEGER;
ALTER TABLE guilds ADD COLUMN tables_per_user INTEGER;
ALTER TABLE guilds ADD COLUMN cooldown_seconds INTEGER;
ALTER TABLE guilds ADD COLUMN tables_per_server INTEGER;
CREATE INDEX games_by_host ON games (guild_id, host_id, created_at);
