-- 11: Last Will without the expansion names no ``employment`` and no ``plans``; tables stored
-- with them filled in would no longer start or replay (the SQLite file says why).
UPDATE games
SET options = ((options::jsonb - 'employment') - 'plans')::text
WHERE game = 'lastwill'
  AND (options::jsonb -> 'expansion') = 'false'::jsonb
  AND (options::jsonb ? 'employment' OR options::jsonb ? 'plans');
