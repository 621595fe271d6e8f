-- 0009_resign_result_rematch.sql: how a game ended, and rematches (issue 11, item 4).
--
-- result: how a finished game ended, NULL while it runs: 'completed' (its last tile),
-- 'resignation' (one seat left in: core/resign.c) or 'timeout' (clocks, to come). Games
-- finished before this migration all ended by their last tile.
--
-- rematch_of: the finished game a rematch follows (POST /v1/games/{id}/rematch). Unique, so
-- that one game has at most one next game: of several seats asking at the same moment, on
-- any servers, exactly one INSERT succeeds and the others find its row (api/store.c).
--
-- players.token_unclaimed: a named seat of a rematch whose token was not handed out yet.
-- Its token_hash is then the hash of a random token thrown away; the first time the seat
-- asks for the rematch a fresh token is drawn and its hash set, in one UPDATE guarded by
-- this flag, so that exactly one asker gets it and tokens are stored only as hashes.

ALTER TABLE games ADD COLUMN result text
    CHECK (result IN ('completed', 'resignation', 'timeout'));
UPDATE games SET result = 'completed' WHERE status = 'finished';

ALTER TABLE games ADD COLUMN rematch_of uuid UNIQUE REFERENCES games (id) ON DELETE SET NULL;

ALTER TABLE players ADD COLUMN token_unclaimed boolean NOT NULL DEFAULT false;
