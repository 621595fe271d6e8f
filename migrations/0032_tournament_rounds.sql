-- 0032_tournament_rounds.sql: tournaments after the start (issue 27; api/jobs/tourney_run.c,
-- api/store/store_tourney_rounds.c). A round is paired by a job of no game (0027), kind
-- 'tournament_round', subject '<tournament id>:<round>': planned by the start (POST /start,
-- or at creation for `starts_at`), and for the next round by the transaction that ends the
-- round's last game (the trigger below), so that with any number of servers each round is
-- planned once (the jobs' unique key makes a second plan a no-op) and paired once.

-- The round running (0: not started), when it started and ended.
ALTER TABLE tournaments ADD COLUMN round       integer NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN started_at  timestamptz;
ALTER TABLE tournaments ADD COLUMN finished_at timestamptz;
-- An entrant who left after the start: the round it left in (it forfeits the rounds after).
ALTER TABLE tournament_entrants ADD COLUMN left_round integer;
-- The seed fixed at the start (1 the top): rating in the tournament's pool best first (1500
-- for a player without one), then the earlier join, then the id. Pairings number the
-- entrants by it (api/game/pairing.h), so that ratings moving during the tournament
-- change nothing.
ALTER TABLE tournament_entrants ADD COLUMN seed integer;

-- The tables of each round: the entrants by seat (one: a bye) and the game created for
-- them. The key makes a pairing stored once; a game is bound to its table inside the
-- transaction that creates the game (store_game_create), only while the table has none, so
-- that every game belongs to one pairing.
CREATE TABLE tournament_tables (
    tournament_id uuid    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         integer NOT NULL CHECK (round >= 1),
    table_no      integer NOT NULL CHECK (table_no >= 0),
    seats         uuid[]  NOT NULL CHECK (cardinality(seats) BETWEEN 1 AND 4),
    game_id       uuid    UNIQUE REFERENCES games (id) ON DELETE SET NULL,
    PRIMARY KEY (tournament_id, round, table_no)
);

-- round_started and tournament_finished, numbered per tournament (GET .../events?after=).
CREATE TABLE tournament_events (
    tournament_id uuid        NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    seq           integer     NOT NULL,
    type          text        NOT NULL CHECK (type IN ('round_started', 'tournament_finished')),
    data          jsonb       NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tournament_id, seq)
);

-- Starts tournament `t` if it is open: the seeds fixed, status 'running', round 1's pairing
-- planned at once. Answers what it found: 'started', 'too_few' (fewer than two entrants:
-- nothing changed), or the status it has ('running', 'finished', 'cancelled'; NULL: none).
CREATE FUNCTION tournament_start(t uuid) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    s text;
BEGIN
    SELECT status INTO s FROM tournaments WHERE id = t FOR UPDATE;
    IF s IS DISTINCT FROM 'open' THEN
        RETURN s;
    END IF;
    IF (SELECT count(*) FROM tournament_entrants WHERE tournament_id = t) < 2 THEN
        RETURN 'too_few';
    END IF;
    UPDATE tournament_entrants e SET seed = o.seed
      FROM (SELECT x.person_id, row_number() OVER (ORDER BY coalesce(r.rating, 1500) DESC,
                   x.joined_at, x.person_id) AS seed
              FROM tournament_entrants x JOIN tournaments tt ON tt.id = x.tournament_id
              LEFT JOIN ratings r ON r.person_id = x.person_id AND r.pool = tt.ruleset
             WHERE x.tournament_id = t) o
     WHERE e.tournament_id = t AND e.person_id = o.person_id;
    UPDATE tournaments SET status = 'running', started_at = now() WHERE id = t;
    INSERT INTO jobs (game_id, kind, subject, version, due_at, lease_ms)
        VALUES (NULL, 'tournament_round', t::text || ':1', 0, now(), 10000)
        ON CONFLICT (game_id, kind, subject) DO UPDATE SET due_at = now(), claimed_until = NULL;
    PERFORM pg_notify('tilehall_jobs', '');
    RETURN 'started';
END $$;

-- Plans the pairing of the next round of tournament `t` when every game of its running
-- round has ended. The tournament's row is locked first: two games of a round ending at
-- once are serialised here, and the second sees the first committed (READ COMMITTED: each
-- statement of a VOLATILE function takes a new snapshot), so the last one plans the job.
CREATE FUNCTION tournament_round_check(t uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    r integer;
BEGIN
    SELECT round INTO r FROM tournaments WHERE id = t AND status = 'running' FOR UPDATE;
    IF r IS NULL OR r = 0 THEN
        RETURN;
    END IF;
    IF EXISTS (SELECT 1 FROM tournament_tables x LEFT JOIN games g ON g.id = x.game_id
                WHERE x.tournament_id = t AND x.round = r AND cardinality(x.seats) > 1
                  AND (x.game_id IS NULL OR g.status NOT IN ('finished', 'aborted'))) THEN
        RETURN;
    END IF;
    INSERT INTO jobs (game_id, kind, subject, version, due_at, lease_ms)
        VALUES (NULL, 'tournament_round', t::text || ':' || (r + 1), 0, now(), 10000)
        ON CONFLICT (game_id, kind, subject) DO NOTHING;
    PERFORM pg_notify('tilehall_jobs', '');
END $$;

-- A tournament game that ends: in its ending transaction, the next round planned if it was
-- the round's last.
CREATE FUNCTION tournament_game_ended() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    t uuid;
BEGIN
    SELECT tournament_id INTO t FROM tournament_tables WHERE game_id = NEW.id;
    IF t IS NOT NULL THEN
        PERFORM tournament_round_check(t);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER tournament_game_ended AFTER UPDATE OF status ON games
    FOR EACH ROW WHEN (NEW.status IN ('finished', 'aborted') AND OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION tournament_game_ended();
