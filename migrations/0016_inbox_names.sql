-- 0016_inbox_names.sql: the seats' names of a game on its games row, so that a page of
-- "my games" (GET /v1/players/me/games, 0012) reads each listed game's row once and no
-- players rows but the person's own (measured with make bench-inbox's data: the join to
-- every seat of each listed game was about half of the page's PostgreSQL time, 51 more
-- index descents and twice the rows).
--
-- seat_names: the names by seat (element 1 is seat 0), as players holds them; rewritten
-- from the players rows whenever a seat is written or renamed (creation writes the games
-- row first, then its seats in order; a join renames its seat after updating games), in
-- the same transaction. NULL for games stored before this migration that no list shows
-- (no seat bound to a person, 0015's inbox_bound); a join that binds a seat later
-- rewrites it.
ALTER TABLE games ADD COLUMN seat_names text[];

UPDATE games g SET seat_names = ARRAY(SELECT p.name FROM players p WHERE p.game_id = g.id
                                      ORDER BY p.seat)
 WHERE g.inbox_bound;

CREATE FUNCTION inbox_seat_names() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE games
       SET seat_names = ARRAY(SELECT p.name FROM players p WHERE p.game_id = NEW.game_id
                              ORDER BY p.seat)
     WHERE id = NEW.game_id;
    RETURN NULL;
END $$;
CREATE TRIGGER players_inbox_names AFTER INSERT OR UPDATE OF name ON players
    FOR EACH ROW EXECUTE FUNCTION inbox_seat_names();
