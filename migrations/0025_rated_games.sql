-- 0025_rated_games.sql: rated games (issue 25; api.md "Ratings and leaderboards").
--
-- rated: the game was created with "rated": true (or is the rematch of one): its end
-- updates the ratings of its seats in the transaction that ends it (api/game/commit.c,
-- ratings_apply_game in api/store_ratings.c), once: rating_history's primary key (game,
-- seat) refuses a second update of the same game. Games before this column are unrated.
ALTER TABLE games ADD COLUMN rated boolean NOT NULL DEFAULT false;
