-- 2: the public version, drawn into custom_ids instead of the log length, so that a
-- private action (a hidden stow) does not show up as a change of every button's id.
ALTER TABLE games ADD COLUMN public_version INTEGER NOT NULL DEFAULT 0;
UPDATE games SET public_version = version;
