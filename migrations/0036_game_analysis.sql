-- 0036: the analysis of a finished game (issue 31, item 3; GET /v1/games/{id}/analysis).
--
-- game_analysis: the review of every placement of a finished game, computed once by a job
-- of kind 'analysis' (0010's jobs, a game's job with subject ''), which the first GET writes
-- and whose run stores the body here and removes the job in one statement
-- (api/jobs/analysis_run.c). It goes with its game (retention deletes both).
-- `runs` counts the runs that finished it: more than 1 only when a lease ran out during a
-- run and another server ran it too (the first body stays).
CREATE TABLE game_analysis (
    game_id     uuid        PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    body        jsonb       NOT NULL,
    runs        integer     NOT NULL DEFAULT 1,
    cpu_ms      integer     NOT NULL,               -- the CPU time of the run that stored it
    created_at  timestamptz NOT NULL DEFAULT now()
);
