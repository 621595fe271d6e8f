-- 0010_bots_jobs.sql: background jobs (an outbox of due work per game), computer players'
-- seats, and the hints switch (issue 13, items 2 and 3).
--
-- jobs: work that must happen later or on some server, at most one row per game and kind
-- (api/jobs.c names the kinds: "bot" today; clocks and retention add theirs). A commit
-- writes or removes its game's rows in its own transaction (the row says the state it was
-- written for: `version`), so that no due work is lost between the action and the job.
-- Workers of any server claim due rows with FOR UPDATE SKIP LOCKED and a lease
-- (claimed_until, lease_ms from now): a server killed while it holds one leaves the row to
-- be claimed again once the lease has run out. What a job does to a game (a bot's move) is
-- committed with the game's version guard by the same transaction that rewrites or removes
-- the row, so a job run twice cannot act twice.
CREATE TABLE jobs (
    game_id       uuid        NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind          text        NOT NULL,
    version       integer     NOT NULL,               -- the game's version it was due for
    due_at        timestamptz NOT NULL DEFAULT now(),
    lease_ms      integer     NOT NULL DEFAULT 10000, -- how long one claim holds it
    claimed_until timestamptz,                        -- NULL, or held by a worker until then
    attempts      integer     NOT NULL DEFAULT 0,     -- claims since it was written
    PRIMARY KEY (game_id, kind)
);
-- The claim's order: due rows first (a claimed row's due time is its lease's end).
CREATE INDEX jobs_due ON jobs (due_at);

-- A computer player's seat: its level ("random", "greedy", "mcts") and time a move, NULL
-- for a person's seat. Its token_hash is the hash of a token thrown away unseen (as 0008).
ALTER TABLE players ADD COLUMN bot text CHECK (bot IN ('random', 'greedy', 'mcts'));
ALTER TABLE players ADD COLUMN think_ms integer CHECK (think_ms BETWEEN 10 AND 10000);

-- GET /v1/games/{id}/hint answers only while this is true ("hints": false at creation).
ALTER TABLE games ADD COLUMN hints boolean NOT NULL DEFAULT true;
