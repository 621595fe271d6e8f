-- 0015_retention_games.sql: retention of finished and aborted games, expiry of lobbies
-- (issue 16, item 3; api/retention.c).
--
-- ended_at: when the game became finished or aborted (NULL while waiting or active). It is
-- set once, by the triggers below, whatever code path writes the status (commits,
-- resignations, aborts, clocks, expiry, a replayed game created finished, unless its
-- insert names its end: scripts/bench-retention.sh's copies of old games), so that the
-- moves of a game never change an indexed column of its row: games_ended indexes it for
-- the retention sweep ("ended before now - RETENTION_DAYS, oldest first"), and an index on
-- updated_at instead would make every move's UPDATE of games a non-HOT update with an index
-- entry of its own. Games that ended before this migration take their last change.
ALTER TABLE games ADD COLUMN ended_at timestamptz;
UPDATE games SET ended_at = updated_at WHERE status IN ('finished', 'aborted');

CREATE FUNCTION games_set_ended_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.ended_at := now();
    RETURN NEW;
END $$;
CREATE TRIGGER games_ended_at_insert BEFORE INSERT ON games
    FOR EACH ROW WHEN (NEW.status IN ('finished', 'aborted') AND NEW.ended_at IS NULL)
    EXECUTE FUNCTION games_set_ended_at();
CREATE TRIGGER games_ended_at_update BEFORE UPDATE OF status ON games
    FOR EACH ROW WHEN (NEW.status IN ('finished', 'aborted')
                       AND OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION games_set_ended_at();

-- The sweep's two look-ups, each an index range from the oldest row: games that ended
-- (retention) and lobbies still waiting for their open seats, by creation (expiry).
CREATE INDEX games_ended ON games (ended_at) WHERE ended_at IS NOT NULL;
CREATE INDEX games_waiting ON games (created_at) WHERE status = 'waiting';

-- The sweep itself is one job (0010) of kind 'retention' that is no game's: the nil uuid,
-- claimed by any server's job workers with the lease of every job, so that one server at a
-- time runs it; each run deletes a batch and plans the row again (at once while more is
-- due, else after RETENTION_INTERVAL). jobs.game_id so loses its foreign key to games,
-- which only checked again what every writer of jobs guarantees (a commit's jobs take the
-- game's id from the UPDATE of its row, as actions and events since 0002); the rows of a
-- deleted game's jobs are deleted by the sweep with the game.
ALTER TABLE jobs DROP CONSTRAINT jobs_game_id_fkey;
INSERT INTO jobs (game_id, kind, version, due_at, lease_ms)
    VALUES ('00000000-0000-0000-0000-000000000000', 'retention', 0, now(), 60000)
    ON CONFLICT DO NOTHING;
