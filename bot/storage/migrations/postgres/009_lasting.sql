-- 9: storage that lasts (issue 25; the SQLite file says why each column exists).  No index
-- holds a column a click changes (``updated_at``, ``version``, ``snapshot``, ``public_*``), so a
-- click's UPDATE of ``games`` can be a HOT update: ``ended_at`` is written once, when the game ends.
ALTER TABLE games ADD COLUMN ended_at DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN pruned_at DOUBLE PRECISION;
UPDATE games SET ended_at = updated_at WHERE status IN ('finished', 'abandoned');
DROP INDEX games_by_status;
CREATE INDEX games_by_status ON games (status);
CREATE INDEX games_by_end ON games (ended_at) WHERE ended_at IS NOT NULL;
ALTER TABLE seats ADD COLUMN moves INTEGER;
ALTER TABLE seats ADD COLUMN waited_total DOUBLE PRECISION;
ALTER TABLE seats ADD COLUMN timeouts INTEGER;
