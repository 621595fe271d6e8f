-- 0011_clocks.sql: clocks of games, turn deadlines and banks (issue 12).
--
-- clock: NULL for a game without a clock (nothing else changes for it). Else the clock as
-- created and where it stands (api/clocks.c writes and reads it; every commit of the game
-- rewrites it): {"turn_seconds": N} or {"initial_seconds", "increment_seconds"},
-- "on_timeout" ("autoplay" | "resign"), and the state: "turn_start_ms" (when the turn
-- began, by the clock of the server that committed the action that began it, ms since
-- 1970), "turn_seat"/"turn_no" (which turn that is), "deadline_ms", "bank_ms" (by seat),
-- "timeouts" (timeouts in a row by seat, reset by the seat's own move), "timed_out" (the
-- current turn's timeout was handled), "near_sent", "ended_by_timeout".
-- deadline: when the turn to move must be finished (NULL: no clock, or finished), for the
-- lists of games (GET /v1/players/me/games). The due times themselves are rows of jobs
-- (0010, kinds "deadline" and "deadline_near"), indexed there (jobs_due).
ALTER TABLE games ADD COLUMN clock jsonb;
ALTER TABLE games ADD COLUMN deadline timestamptz;
