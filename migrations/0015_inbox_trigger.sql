-- 0015_inbox_trigger.sql: the trigger that keeps the lists of games in step (0012,
-- games_inbox_keys) runs only for games in which some seat is bound to a person.
--
-- Before, it ran with every commit of every game (its WHEN includes updated_at, which every
-- commit sets) and ran its UPDATE of players even for the games nobody lists (no seat bound
-- to a person: all named seats, e.g. every game of make bench-http): measured there, the
-- trigger took about 37 us of PostgreSQL time per commit (track_functions), about a fifth of
-- the commit statement's, for an UPDATE that found no row.
--
-- inbox_bound: true once a seat of the game is (or was) bound to a person; set by the seat
-- (a trigger on players, in the transaction that binds it: creation, join), never cleared
-- (a seat stays bound). The games row is always written before its seats (creation) or
-- already locked by the transaction that binds one (a join updates games first), so the
-- UPDATE below takes no new lock order.
ALTER TABLE games ADD COLUMN inbox_bound boolean NOT NULL DEFAULT false;

UPDATE games g SET inbox_bound = true
 WHERE EXISTS (SELECT 1 FROM players p WHERE p.game_id = g.id AND p.person_id IS NOT NULL);

CREATE FUNCTION inbox_seat_bound() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE games SET inbox_bound = true WHERE id = NEW.game_id AND NOT inbox_bound;
    RETURN NULL;
END $$;
CREATE TRIGGER players_inbox_bound AFTER INSERT OR UPDATE OF person_id ON players
    FOR EACH ROW WHEN (NEW.person_id IS NOT NULL) EXECUTE FUNCTION inbox_seat_bound();

-- The same trigger as 0012's, with the test for a bound seat first: for the other games the
-- WHEN is false and the function is never called.
DROP TRIGGER games_inbox_keys ON games;
CREATE TRIGGER games_inbox_keys AFTER UPDATE OF status, turn_seat, deadline, updated_at ON games
    FOR EACH ROW WHEN (NEW.inbox_bound
                       AND (OLD.status IS DISTINCT FROM NEW.status
                            OR OLD.turn_seat IS DISTINCT FROM NEW.turn_seat
                            OR OLD.deadline IS DISTINCT FROM NEW.deadline
                            OR OLD.updated_at IS DISTINCT FROM NEW.updated_at))
    EXECUTE FUNCTION inbox_game_keys();
