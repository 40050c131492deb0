-- 10: Monopoly's auctions became open by default; games started before keep the round-robin
-- auctions they were played by (the SQLite file says why).
UPDATE games
SET options = (options::jsonb || '{"auction": "round", "auction_hours": 0}'::jsonb)::text
WHERE game = 'monopoly' AND status <> 'lobby' AND NOT (options::jsonb ? 'auction');
