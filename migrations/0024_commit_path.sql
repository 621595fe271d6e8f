-- 0024_commit_path.sql: what PostgreSQL does for every move's UPDATE of games, cut to what
-- the move needs (issue 23, item 6).
--
-- Measured with callgrind on the backend (docs/operations.md, "Where the time goes"): the
-- UPDATE of games cost about 210,000 instructions a commit, of which writing the row took
-- 9,000. The rest was expressions PostgreSQL reads back from their stored text
-- (stringToNode) and plans again at every execution of the statement, however often it was
-- prepared: the two CHECK constraints on status and result (about 77,000) and the WHEN
-- clauses of the two triggers that every move's UPDATE fires (ended_at, BEFORE UPDATE OF
-- status: about 51,000; the "my games" keys, AFTER UPDATE OF ... updated_at: about 63,000).
-- The values allowed, the triggers' effects and the errors are the same after this
-- migration; only where the checks are made changes.

-- The allowed values as domains: a domain's constraints are read once per connection
-- (PostgreSQL's type cache), not per statement. A domain over text is text to every
-- operator, function, client and binary result; a value outside the list still fails with
-- check_violation (23514).
CREATE DOMAIN game_status AS text CHECK (VALUE IN ('waiting', 'active', 'finished', 'aborted'));
CREATE DOMAIN game_result AS text CHECK (VALUE IN ('completed', 'resignation', 'timeout'));

-- A column in a trigger's WHEN cannot change its type: the triggers go first (and come back
-- below, with their smaller WHEN).
DROP TRIGGER games_ended_at_insert ON games;
DROP TRIGGER games_ended_at_update ON games;
DROP TRIGGER games_inbox_keys ON games;

ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games DROP CONSTRAINT games_result_check;
ALTER TABLE games ALTER COLUMN status TYPE game_status;
ALTER TABLE games ALTER COLUMN result TYPE game_result;

-- ended_at (0017): the same rule, with the test of the new status in the function, which
-- runs only when the status changed (a game's start and its end), instead of in the WHEN,
-- which every move's UPDATE evaluated.
CREATE TRIGGER games_ended_at_insert BEFORE INSERT ON games
    FOR EACH ROW WHEN (NEW.status IN ('finished', 'aborted') AND NEW.ended_at IS NULL)
    EXECUTE FUNCTION games_set_ended_at();
CREATE FUNCTION games_set_ended_at_on_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status IN ('finished', 'aborted') THEN
        NEW.ended_at := now();
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER games_ended_at_update BEFORE UPDATE OF status ON games
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION games_set_ended_at_on_change();

-- The "my games" keys (0012, 0015): the WHEN keeps only the test for a bound seat, false for
-- every other game; the function tests what changed (every move changes updated_at, so for
-- a bound game the function ran at every move before as well).
CREATE OR REPLACE FUNCTION inbox_game_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.status IS DISTINCT FROM NEW.status OR OLD.turn_seat IS DISTINCT FROM NEW.turn_seat
       OR OLD.deadline IS DISTINCT FROM NEW.deadline
       OR OLD.updated_at IS DISTINCT FROM NEW.updated_at THEN
        UPDATE players
           SET inbox_rank = CASE WHEN NEW.status = 'active' AND NEW.turn_seat = seat THEN 0 ELSE 1 END,
               inbox_deadline = inbox_deadline_key(NEW.deadline),
               inbox_recency = inbox_recency_key(NEW.updated_at),
               game_status = NEW.status
         WHERE game_id = NEW.id AND person_id IS NOT NULL;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER games_inbox_keys AFTER UPDATE OF status, turn_seat, deadline, updated_at ON games
    FOR EACH ROW WHEN (NEW.inbox_bound) EXECUTE FUNCTION inbox_game_keys();
