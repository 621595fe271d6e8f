-- 0027_seeks.sql: background jobs that belong to no game (issue 23, item 1), and play now:
-- seeks and the matchmaker (issue 26; api/routes/routes_seeks.c, api/jobs/matchmaker.c).
--
-- jobs (0010) was keyed by (game_id, kind): one row per game and kind. Work that is no
-- game's (the retention sweep, the matchmaker) had to borrow a game id (the nil uuid of
-- 0017). Now a job has an id of its own, game_id may be NULL, and `subject` tells apart
-- several no-game jobs of one kind (the matchmaker's pool of seeks, say); the one row per
-- (game, kind, subject) is a unique key whose NULLs are equal (PostgreSQL 15), so that a
-- no-game job is written with INSERT ... ON CONFLICT as a game's is. Game jobs keep subject
-- ''. The claim, a drop and a retry name a job by id (with its version as before).
ALTER TABLE jobs ADD COLUMN subject text NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE jobs DROP CONSTRAINT jobs_pkey;
ALTER TABLE jobs ALTER COLUMN game_id DROP NOT NULL;
ALTER TABLE jobs ADD PRIMARY KEY (id);
ALTER TABLE jobs ADD CONSTRAINT jobs_key UNIQUE NULLS NOT DISTINCT (game_id, kind, subject);
-- The sweep's row is no game's now.
UPDATE jobs SET game_id = NULL WHERE game_id = '00000000-0000-0000-0000-000000000000';

-- 0026's trigger wrote its job ON CONFLICT (game_id, kind), a key that is gone.
CREATE OR REPLACE FUNCTION suspension_turn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM players p JOIN people pe ON pe.id = p.person_id
                WHERE p.game_id = NEW.id AND p.seat = NEW.turn_seat
                  AND pe.suspended_at IS NOT NULL) THEN
        INSERT INTO jobs (game_id, kind, version, due_at, lease_ms)
            VALUES (NEW.id, 'suspension', NEW.version, now(), 10000)
            ON CONFLICT (game_id, kind, subject) DO UPDATE SET version = EXCLUDED.version,
               due_at = EXCLUDED.due_at, claimed_until = NULL, attempts = 0;
        PERFORM pg_notify('tilehall_jobs', '');
    END IF;
    RETURN NULL;
END $$;

-- seeks: a player's wish to play now (POST /v1/seeks). `pool` is what must be equal for two
-- seeks to be paired (the ruleset, the options after defaults, the player count, the clock's
-- kind and values, the rated flag: api/routes/routes_seeks.c writes it as canonical text);
-- the rating range is [rating_min, rating_max] (NULL: anyone), widened as the seek waits.
-- A live seek (bank clock) lapses 30 s after its owner last polled it (polled_at); any
-- seek ends at expires_at (7 days after it was posted). The matchmaker (a job of no game, kind 'matchmaker')
-- binds seeks to a new game in the transaction that creates the game: status 'matched',
-- game_id and seat set, so that a seek joins exactly one game.
CREATE TABLE seeks (
    id              uuid        PRIMARY KEY,
    person_id       uuid        NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    pool            text        NOT NULL,
    players         integer     NOT NULL CHECK (players BETWEEN 2 AND 6),
    live            boolean     NOT NULL,   -- a bank clock: lapses when not polled
    rating          double precision NOT NULL, -- the owner's rating in the pool when posted
    rating_min      double precision,
    rating_max      double precision,
    bot_after_s     integer     CHECK (bot_after_s BETWEEN 5 AND 600),
    status          text        NOT NULL DEFAULT 'waiting'
                    CHECK (status IN ('waiting', 'matched', 'cancelled', 'expired')),
    created_at      timestamptz NOT NULL DEFAULT now(),
    polled_at       timestamptz NOT NULL DEFAULT now(),
    expires_at      timestamptz NOT NULL,
    ended_at        timestamptz,
    game_id         uuid,
    seat            integer
);
CREATE INDEX seeks_waiting ON seeks (pool, created_at) WHERE status = 'waiting';
CREATE INDEX seeks_person_waiting ON seeks (person_id) WHERE status = 'waiting';
CREATE INDEX seeks_ended ON seeks (ended_at) WHERE ended_at IS NOT NULL;
