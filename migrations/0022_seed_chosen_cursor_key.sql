-- 0022_seed_chosen_cursor_key.sql: whether a game's creator chose its seed (issue 29,
-- item 7), and the key that signs the cursors of "my games" (issue 29, item 14).
--
-- seed_chosen: a seed named at creation fixes the draw order (as does a deck, which the
-- engine's state keeps as custom_deck): the state and a join's answer show both, so that
-- whoever joins an open seat can tell. Games created before this column did not record it:
-- they count as chosen (true), since nobody can tell that they were not; every insert names
-- its value.
ALTER TABLE games ADD COLUMN seed_chosen boolean NOT NULL DEFAULT true;

-- server_keys: secrets every server of the service shares (so that what one signs, another
-- checks), made once here from PostgreSQL's strong random source (gen_random_uuid: 122
-- random bits each, three of them hashed to 256 bits) and never sent to a client.
-- inbox_cursor: the HMAC-SHA256 key of the cursors of GET /v1/players/me/games
-- (api/routes_inbox.c), so that a cursor the list did not give is refused. It lives and is
-- restored with the database (a restored database accepts the cursors it gave).
CREATE TABLE server_keys (
    name text PRIMARY KEY,
    key bytea NOT NULL CHECK (length(key) = 32)
);
INSERT INTO server_keys (name, key)
VALUES ('inbox_cursor', sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text ||
                                          gen_random_uuid()::text, 'UTF8')));
