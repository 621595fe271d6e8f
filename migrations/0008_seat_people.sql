-- 0008_seat_people.sql: seats bound to a person (issue 11, step 2: {"player": "me"}).
--
-- A seat created as {"player": "me"} belongs to the person whose player token the create
-- request carried: person_id names that row of people (0007), NULL for a named seat. The
-- seat has no token of its own to hand out; its token_hash (NOT NULL since 0001) is the
-- hash of a random token drawn and thrown away at once, so that no seat token reaches
-- it: the person's token acts for it (api/games.c, games_seat), and replacing that token
-- needs no change here.
--
-- One seat per person and game (the create request takes at most one "me" seat): the
-- unique index says so, and with person_id first it serves the "my games" list to come.

ALTER TABLE players ADD COLUMN person_id uuid REFERENCES people (id);

CREATE UNIQUE INDEX players_person_game ON players (person_id, game_id)
    WHERE person_id IS NOT NULL;
