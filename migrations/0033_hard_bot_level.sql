-- 0033: the `hard` computer player (issue 31): a seat's level may be "hard" too.
-- 0010 named the levels in the column's CHECK (PostgreSQL's name for it: players_bot_check).
ALTER TABLE players DROP CONSTRAINT players_bot_check;
ALTER TABLE players ADD CONSTRAINT players_bot_check
    CHECK (bot IN ('random', 'greedy', 'mcts', 'hard'));
