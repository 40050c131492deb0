-- 9: storage that lasts (issue 25).
-- ``ended_at``: when a game finished or was abandoned, written once by the statement that ends
-- it.  The sweeps that look for recently ended tables used ``(status, updated_at)``, but every
-- click changes ``updated_at``, and on PostgreSQL a change to an indexed column forbids a HOT
-- update (the whole row is rewritten, every index gets a new entry).  The time index now holds
-- a column that no click touches; ``status`` alone stays indexed (it changes once per game).
-- ``pruned_at``: when ``python -m bot prune`` exported the game to a file and removed its log,
-- snapshot and retired messages (it can then no longer be shown or replayed from here).
-- ``moves``, ``waited_total``, ``timeouts`` on seats: the pruned log's figures for stats (moves
-- a player made themselves with a known wait, their summed wait in seconds, default moves),
-- NULL while the log is still there to be counted.
ALTER TABLE games ADD COLUMN ended_at REAL;
ALTER TABLE games ADD COLUMN pruned_at REAL;
UPDATE games SET ended_at = updated_at WHERE status IN ('finished', 'abandoned');
DROP INDEX games_by_status;
CREATE INDEX games_by_status ON games (status);
CREATE INDEX games_by_end ON games (ended_at) WHERE ended_at IS NOT NULL;
ALTER TABLE seats ADD COLUMN moves INTEGER;
ALTER TABLE seats ADD COLUMN waited_total REAL;
ALTER TABLE seats ADD COLUMN timeouts INTEGER;
