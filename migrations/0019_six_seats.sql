-- 0019_six_seats.sql: seats 0 to 5 (issue 23, item 2). The expansions of classic
-- (shared/rules/expansions.md) allow 6 players with any expansion; the engine still caps a
-- game at CC_MAX_PLAYERS (core/game.h, 5), so no row holds seat 5 until that is raised.
--
-- One statement: the old check goes and the wider one is checked in the same scan of
-- players (every row so far holds a seat in 0..4), under the lock the migration's
-- transaction takes anyway.
ALTER TABLE players
    DROP CONSTRAINT players_seat_check,
    ADD CONSTRAINT players_seat_check CHECK (seat BETWEEN 0 AND 5);
