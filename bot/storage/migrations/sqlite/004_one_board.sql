-- 4: one live board per table (issue 8).  A table message records the public version
-- its turn began at (its event lines are the public moves after it, so they can be
-- rebuilt after a restart) and whom it pinged (a repost for the same players pings
-- nobody).  A rematch remembers the game it repeats, so a second click finds it.
ALTER TABLE messages ADD COLUMN since INTEGER;
ALTER TABLE messages ADD COLUMN pinged TEXT;
ALTER TABLE games ADD COLUMN rematch_of INTEGER REFERENCES games (id);
