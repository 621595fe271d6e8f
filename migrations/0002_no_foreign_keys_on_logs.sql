-- 0002_no_foreign_keys_on_logs.sql: the action and event logs keep no foreign key to games.
--
-- Every row of actions and events is written by the statement that moves its game on
-- (api/store.c, ST_GAME_COMMIT: the inserts take the game's id from the UPDATE of its row,
-- so they write nothing unless that row exists at the version read), or by the transaction
-- that creates the game. The foreign keys checked the same thing again, with a query per
-- row written (a fifth of the database's work per action): they go. Games are never
-- deleted by the service; deleting one by hand means deleting its actions and events too.

ALTER TABLE actions DROP CONSTRAINT actions_game_id_fkey;
ALTER TABLE events DROP CONSTRAINT events_game_id_fkey;
