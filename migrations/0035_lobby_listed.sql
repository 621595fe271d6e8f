-- 0035: the lobby (issue 30, item 6): a game created with "listed": true is shown to
-- everyone, as an open table while it waits for seats and as a game to watch while it is
-- played. Existing games stay unlisted (private), as they were created.
--
-- The column is written once, at creation: no commit of a move changes it, so neither the
-- UPDATE of every move nor the "my games" trigger (0024: AFTER UPDATE OF status, turn_seat,
-- deadline, updated_at) does any more work than before.
ALTER TABLE games ADD COLUMN listed boolean NOT NULL DEFAULT false;

-- Both lists in one partial index: the listed games by status (waiting: open tables,
-- active: games to watch), newest first, the id breaking ties (the cursor's order). A
-- finished or aborted game stays in it until the retention sweep removes it, but a list
-- reads only its own status's range. Unlisted games (the most) are not in it at all.
CREATE INDEX games_listed ON games (status, created_at DESC, id DESC) WHERE listed;
