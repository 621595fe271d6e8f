-- 0009_lobby_invites.sql: open seats with invites, waiting and aborted games (issue 11,
-- item 2 and the abort of item 4).
--
-- A game created with open seats ({"open": true}) is 'waiting' until the last of them is
-- taken (POST /v1/games/{id}/join), then 'active'; POST /v1/games/{id}/abort makes a game
-- 'aborted' (nobody wins, nothing more can be played).
--
-- An open seat is a row of players like any other (its name the placeholder, its
-- token_hash that of a token drawn and thrown away, as for a bound seat in 0008) with
-- invite_hash: the SHA-256 of its invite (256 random bits, shown once in the create
-- answer). Joining sets the seat's name, token hash or person, and clears invite_hash in
-- the transaction that moves the game's version on (api/store.c, store_game_join): a used invite
-- matches no row any more.

ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
    CHECK (status IN ('waiting', 'active', 'finished', 'aborted'));

ALTER TABLE players ADD COLUMN invite_hash bytea CHECK (length(invite_hash) = 32);
