-- 11: Last Will without the expansion names no ``employment`` and no ``plans`` (components §1,
-- chosen: naming either is refused).  The lobby used to store them filled in with their defaults
-- (``full``, ``tiles``), which ``setup`` now refuses: a base table stored before, lobby or game,
-- would no longer start, replay or take a move back.  Dropping the two keys changes nothing it
-- plays: without the expansion the engine always played no employment and the original plans.
UPDATE games
SET options = json_remove(options, '$.employment', '$.plans')
WHERE game = 'lastwill'
  AND json_extract(options, '$.expansion') = 0
  AND (json_type(options, '$.employment') IS NOT NULL OR json_type(options, '$.plans') IS NOT NULL);
