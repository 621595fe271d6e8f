-- 0016_inbox_names.sql: the seats' names of a listed game on its games row, so that a page
-- of "my games" (GET /v1/players/me/games, 0012) reads each listed game's row once and no
-- players rows but the person's own (measured with make bench-inbox's data: the join to
-- every seat of each listed game was about half of the page's PostgreSQL time: 51 more
-- index descents and twice the rows).
--
-- seat_names: the names by seat (element 1 is seat 0), as players holds them, or NULL (the
-- list then reads the players rows, api/store_db.c). Kept only for games in which a seat is
-- bound to a person (0015's inbox_bound: the only games any list shows), so that creating a
-- game nobody lists costs nothing more:
--   * a game created with a bound seat gets it at the end of the creating transaction (a
--     deferred trigger of that seat: by then every seat is written, api/store.c writes them
--     in one transaction);
--   * a seat bound later (a join) writes it when it makes the game listed (0015's trigger,
--     replaced below), and renaming a seat (a join; its transaction has updated the games
--     row first) writes it again from the players rows.
ALTER TABLE games ADD COLUMN seat_names text[];

UPDATE games g SET seat_names = ARRAY(SELECT p.name FROM players p WHERE p.game_id = g.id
                                      ORDER BY p.seat)
 WHERE g.inbox_bound;

-- (The games row is written only when the names differ: a game whose seats were all
-- written before its bound one has them already.)
CREATE FUNCTION inbox_seat_names() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    names text[] := ARRAY(SELECT p.name FROM players p WHERE p.game_id = NEW.game_id
                          ORDER BY p.seat);
BEGIN
    UPDATE games SET seat_names = names
     WHERE id = NEW.game_id AND inbox_bound AND seat_names IS DISTINCT FROM names;
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER players_inbox_names_new AFTER INSERT ON players
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (NEW.person_id IS NOT NULL) EXECUTE FUNCTION inbox_seat_names();
CREATE TRIGGER players_inbox_names AFTER UPDATE OF name ON players
    FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION inbox_seat_names();

-- 0015's binding trigger, now writing the names too when it makes the game listed.
CREATE OR REPLACE FUNCTION inbox_seat_bound() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE games
       SET inbox_bound = true,
           seat_names = ARRAY(SELECT p.name FROM players p WHERE p.game_id = NEW.game_id
                              ORDER BY p.seat)
     WHERE id = NEW.game_id AND NOT inbox_bound;
    RETURN NULL;
END $$;
