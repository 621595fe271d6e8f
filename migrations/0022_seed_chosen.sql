-- 0022_seed_chosen.sql: whether a game's creator chose its seed (issue 29, item 7).
--
-- A seed named at creation fixes the draw order (as does a deck, which the engine's state
-- keeps as custom_deck): the state and a join's answer show both, so that whoever joins an
-- open seat can tell. Games created before this column did not record it: they count as
-- chosen (true), since nobody can tell that they were not; every insert names its value.
ALTER TABLE games ADD COLUMN seed_chosen boolean NOT NULL DEFAULT true;
