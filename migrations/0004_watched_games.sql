-- 0004_watched_games.sql: notify only the commits that somebody waits for.
--
-- NOTIFY makes every commit that sends one queue behind a global lock, and wakes every
-- listening connection; for most moves nobody is waiting. A server that has an event
-- stream or a long poll open on a game sets the game's watched_until to a lease of a
-- minute and renews it while they last (api/live.c); a commit notifies only while the
-- lease runs. The lease is set on the games row itself, so that a commit racing with it
-- sees it: the commit's UPDATE waits for the lease's, or the lease's for the commit's
-- (then the waiter reads the events after it).
ALTER TABLE games ADD COLUMN watched_until timestamptz;
