-- 0031_tournaments.sql: tournaments and their entrants (issue 27; api/store/store_tournaments.c,
-- api/routes/routes_tournaments.c). A tournament is created open by its organiser (a player,
-- an entrant only by joining); players join and leave while it is open. Its settings are
-- kept as the request gave them after checking: `options` and `clock` are the request's
-- JSON objects, for the games the rounds will create.
CREATE TABLE tournaments (
    id               uuid        PRIMARY KEY,
    name             text        NOT NULL,
    organiser        uuid        NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    format           text        NOT NULL CHECK (format IN ('swiss', 'round_robin', 'knockout')),
    ruleset          text        NOT NULL,
    options          jsonb       NOT NULL DEFAULT '{}',
    players_per_game integer     NOT NULL CHECK (players_per_game BETWEEN 2 AND 4),
    rounds           integer     CHECK (rounds BETWEEN 1 AND 64), -- swiss only, else NULL
    clock            jsonb,                                         -- NULL: games without one
    rated            boolean     NOT NULL DEFAULT false,
    max_players      integer     NOT NULL CHECK (max_players BETWEEN 2 AND 256),
    starts_at        timestamptz,                                   -- announced start, or NULL
    status           text        NOT NULL DEFAULT 'open'
                     CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    created_at       timestamptz NOT NULL DEFAULT now(),
    CHECK ((format = 'swiss') = (rounds IS NOT NULL))
);
-- GET /v1/tournaments?status=: newest first.
CREATE INDEX tournaments_status ON tournaments (status, created_at DESC, id);

-- The entrants, in joining order (the seed's last tie rule).
CREATE TABLE tournament_entrants (
    tournament_id uuid        NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    person_id     uuid        NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    joined_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (tournament_id, person_id)
);
CREATE INDEX tournament_entrants_person ON tournament_entrants (person_id);
