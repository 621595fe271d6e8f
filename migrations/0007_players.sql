-- 0007_players.sql: players as people, one identity across games (issue 11, step 1).
--
-- The table `players` (0001) holds the seats of each game (a name and a seat token per
-- seat); a person who takes part in many games is a row of `people`, created by
-- POST /v1/players. Their token (256 random bits, shown once) is stored only as its
-- SHA-256, unique, so that a request's token finds its row through the index
-- (api/store_player.c); replacing it (POST /v1/players/me/token) overwrites the hash, so
-- the old token stops working with that commit.
--
-- Left ready for the next steps: a seat bound to a person is a nullable column of
-- `players` referencing people (id), with an index on it for "my games".

CREATE TABLE people (
    id               uuid        PRIMARY KEY,
    name             text        NOT NULL,          -- as PlayerName allows (api/json_in.c)
    token_hash       bytea       NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    token_replaced   integer     NOT NULL DEFAULT 0, -- times the token was replaced
    created_at       timestamptz NOT NULL DEFAULT now(),
    token_changed_at timestamptz NOT NULL DEFAULT now() -- when the token was made
);
