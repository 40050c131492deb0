-- 6: bot players (issue 14).  A seat a bot fills says how well it plays; people's seats are
-- NULL.  A bot's user id is negative (no Discord user has one), unique within its game.
ALTER TABLE seats ADD COLUMN bot TEXT CHECK (bot IN ('easy', 'normal'));
