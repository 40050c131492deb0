-- 10: Monopoly's auctions became open by default (``auction=open``, ``auction_hours=24``).  A game
-- is replayed from ``setup(players, options, seed)`` and its log (undo, history, catch me up), so a
-- game started before has its options completed with the rules it was played by: round-robin
-- auctions, no auction clock.  Lobbies have not been set up yet: they start with the new default.
UPDATE games
SET options = json_set(options, '$.auction', 'round', '$.auction_hours', 0)
WHERE game = 'monopoly' AND status <> 'lobby' AND json_extract(options, '$.auction') IS NULL;
