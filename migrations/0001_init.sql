-- 0001_init.sql: games, their players, the action log, the event log, idempotency keys.
-- Applied once at start-up by api/migrate.c (recorded in schema_migrations).

CREATE TABLE games (
    id          uuid PRIMARY KEY,
    ruleset     text        NOT NULL,
    options     jsonb       NOT NULL,               -- as created, with defaults filled in
    seed        numeric(20) NOT NULL,               -- 64-bit unsigned
    start_tile  text,                               -- the start tile asked for, or NULL
    custom_deck jsonb,                              -- the deck asked for, or NULL
    version     integer     NOT NULL,               -- grows by one per accepted action
    status      text        NOT NULL CHECK (status IN ('active', 'finished')),
    last_seq    integer     NOT NULL,               -- seq of the game's newest event
    snapshot    bytea       NOT NULL,               -- cc_game_encode() of the current state
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE players (
    game_id    uuid    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       integer NOT NULL CHECK (seat BETWEEN 0 AND 4),
    name       text    NOT NULL,
    token_hash bytea   NOT NULL CHECK (length(token_hash) = 32), -- SHA-256 of the token
    PRIMARY KEY (game_id, seat)
);

-- Every accepted action, enough to replay the game from its setup.
CREATE TABLE actions (
    game_id    uuid        NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version    integer     NOT NULL,                -- the version the action produced
    seat       integer     NOT NULL,
    kind       text        NOT NULL,                -- "draw" or "place"
    body       jsonb       NOT NULL,                -- the action as applied
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, version)
);

CREATE TABLE events (
    game_id    uuid        NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        integer     NOT NULL,                -- 1, 2, ... per game
    version    integer     NOT NULL,                -- the game version that caused it
    type       text        NOT NULL,
    payload    json        NOT NULL,                -- the event as the API shows it
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seq)
);

-- First answers to requests that carried an Idempotency-Key, kept 24 hours.
CREATE TABLE idempotency (
    scope        text        NOT NULL,              -- "create" or "<game id>/<seat>"
    key          text        NOT NULL,
    request_hash bytea       NOT NULL,              -- SHA-256 of method, path and body
    status       integer     NOT NULL,
    location     text,                              -- its Location header, or NULL
    etag         text,                              -- its ETag header, or NULL
    body         text        NOT NULL,              -- its body (tokens left out)
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_created_at ON idempotency (created_at);
