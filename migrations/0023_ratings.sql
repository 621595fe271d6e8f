-- 0023_ratings.sql: ratings and leaderboards (issue 25; api/ratings/, api/store_ratings.c).
--
-- One Glicko-2 rating per rated subject per pool (the pools are the rulesets). A subject
-- is a person (subject = the person's id) or a computer player of one level and think class
-- (subject = 'bot:<level>:<class>', class 'fast' under 100 ms a move, 'normal' 100-999,
-- 'slow' 1,000 and more). A row is made at a subject's first rated game, in the game's
-- ending transaction, and updated there once per rated game (ratings_apply_game). The
-- deviation is stored as of the last rated game: readers age it to now (api/ratings/
-- glicko2.h, glicko2_aged), the leaderboard's "non-provisional" reads it as stored.
CREATE TABLE ratings (
    subject       text             NOT NULL,
    pool          text             NOT NULL,
    person_id     uuid             REFERENCES people (id) ON DELETE CASCADE, -- NULL: a bot
    bot           text,                               -- a computer player's level, or NULL
    think_class   text             CHECK (think_class IN ('fast', 'normal', 'slow')),
    rating        double precision NOT NULL,
    deviation     double precision NOT NULL CHECK (deviation > 0),
    volatility    double precision NOT NULL CHECK (volatility > 0),
    games         integer          NOT NULL DEFAULT 0, -- rated games played in the pool
    won           integer          NOT NULL DEFAULT 0, -- first alone
    drawn         integer          NOT NULL DEFAULT 0, -- first, shared
    lost          integer          NOT NULL DEFAULT 0, -- any other place
    last_rated_at timestamptz,                         -- its last rated game's end, NULL: none
    PRIMARY KEY (subject, pool),
    CHECK ((person_id IS NOT NULL AND bot IS NULL AND think_class IS NULL
            AND subject = person_id::text)
        OR (person_id IS NULL AND bot IS NOT NULL AND think_class IS NOT NULL
            AND subject = 'bot:' || bot || ':' || think_class))
);

-- The leaderboard: best first, then by subject (descending, so that (rating, subject) <
-- the cursor's pair walks the index), only ratings no longer provisional. Activity (a
-- rated game within 90 days) and people-only are filters on the rows the index yields;
-- computer players are a few rows per pool.
CREATE INDEX ratings_leaderboard ON ratings (pool, rating DESC, subject DESC)
    WHERE deviation <= 110;

-- One row per rated game per seat: the rating before and after. Kept when retention
-- deletes the game (no foreign key, as actions and events since 0002): it is the
-- subject's record. The primary key refuses a second update of the same game's seat, a
-- guard behind the game's version guard that makes the update exactly once.
CREATE TABLE rating_history (
    game_id           uuid             NOT NULL,
    seat              smallint         NOT NULL CHECK (seat BETWEEN 0 AND 5),
    subject           text             NOT NULL,
    pool              text             NOT NULL,
    seats             smallint         NOT NULL CHECK (seats BETWEEN 2 AND 6),
    place             smallint         NOT NULL CHECK (place BETWEEN 0 AND 5), -- 0 first
    rating_before     double precision NOT NULL,
    deviation_before  double precision NOT NULL, -- as stored before (not aged)
    volatility_before double precision NOT NULL,
    rating_after      double precision NOT NULL,
    deviation_after   double precision NOT NULL,
    volatility_after  double precision NOT NULL,
    rated_at          timestamptz      NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seat)
);
-- A subject's history in a pool, oldest first, paged by (rated_at, game_id).
CREATE INDEX rating_history_subject ON rating_history (subject, pool, rated_at, game_id);
