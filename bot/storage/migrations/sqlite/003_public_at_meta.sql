-- 3: when the game last changed *publicly*, for "last move" in /game list; the log's
-- newest entry may be a hidden stow, whose moment must not show.  Older games start
-- with none (their log cannot tell which moves were public).  And a small key-value
-- table, which also gives start-up a real row to write when it proves the file writable.
ALTER TABLE games ADD COLUMN public_at REAL;
CREATE INDEX games_by_status ON games (status, updated_at);
CREATE TABLE meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
