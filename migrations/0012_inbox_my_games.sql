-- 0012_inbox_my_games.sql: "my games" (GET /v1/players/me/games) and player webhooks
-- (POST|GET|DELETE /v1/players/me/webhook), issue 11, items 5 and 6.
--
-- What a game's list entry shows without decoding its snapshot: the turn (number, the seat
-- to move, the phase) and the seats' scores, written with every commit (api/store.c, from
-- the state the action produced), and a deadline (NULL: no clock; clocks fill it). NULL in
-- games stored before this migration until their next commit.
ALTER TABLE games ADD COLUMN turn_number integer;   -- the turn (1, 2, ...), or NULL
ALTER TABLE games ADD COLUMN turn_seat   integer;   -- the seat to move, or NULL (finished)
ALTER TABLE games ADD COLUMN turn_phase  text;      -- "draw", "place" or "finished"
ALTER TABLE games ADD COLUMN scores      integer[]; -- by seat
ALTER TABLE games ADD COLUMN deadline    timestamptz; -- the current turn's deadline, or NULL

-- The list's order, denormalised onto each seat bound to a person (0008), so that one
-- index serves the list in order with keyset paging: the person's turn first (rank 0),
-- then the nearest deadline (none: last), then the most recently changed, then the game's
-- id. All four ascend: inbox_deadline is the deadline in microseconds since 1970 (bigint
-- max when none), inbox_recency minus updated_at in microseconds. game_status (the stored
-- status text, whatever it is) serves the status filter. The triggers below keep these
-- columns in step with games in the transaction that changes either row, whichever code
-- path writes it (commits, joins, resignations, clocks): a commit's UPDATE of games
-- updates the bound seats of that game (one index lookup by game_id), and a seat bound
-- to a person (created so, or joined later) takes its game's values.
ALTER TABLE players ADD COLUMN inbox_rank     smallint NOT NULL DEFAULT 1; -- 0: its turn
ALTER TABLE players ADD COLUMN inbox_deadline bigint   NOT NULL DEFAULT 9223372036854775807;
ALTER TABLE players ADD COLUMN inbox_recency  bigint   NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN game_status    text;

CREATE FUNCTION inbox_deadline_key(d timestamptz) RETURNS bigint
    LANGUAGE sql IMMUTABLE AS
    $$ SELECT coalesce((extract(epoch FROM d) * 1000000)::bigint, 9223372036854775807) $$;

CREATE FUNCTION inbox_recency_key(t timestamptz) RETURNS bigint
    LANGUAGE sql IMMUTABLE AS $$ SELECT -(extract(epoch FROM t) * 1000000)::bigint $$;

-- A seat bound to a person takes its game's keys (the games row is written first).
CREATE FUNCTION inbox_seat_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT CASE WHEN g.status = 'active' AND g.turn_seat = NEW.seat THEN 0 ELSE 1 END,
           inbox_deadline_key(g.deadline), inbox_recency_key(g.updated_at), g.status
      INTO NEW.inbox_rank, NEW.inbox_deadline, NEW.inbox_recency, NEW.game_status
      FROM games g WHERE g.id = NEW.game_id;
    RETURN NEW;
END $$;
CREATE TRIGGER players_inbox_keys BEFORE INSERT OR UPDATE OF person_id ON players
    FOR EACH ROW WHEN (NEW.person_id IS NOT NULL) EXECUTE FUNCTION inbox_seat_keys();

-- A game that changed moves its bound seats in their lists.
CREATE FUNCTION inbox_game_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE players
       SET inbox_rank = CASE WHEN NEW.status = 'active' AND NEW.turn_seat = seat THEN 0 ELSE 1 END,
           inbox_deadline = inbox_deadline_key(NEW.deadline),
           inbox_recency = inbox_recency_key(NEW.updated_at),
           game_status = NEW.status
     WHERE game_id = NEW.id AND person_id IS NOT NULL;
    RETURN NULL;
END $$;
CREATE TRIGGER games_inbox_keys AFTER UPDATE OF status, turn_seat, deadline, updated_at ON games
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status
                       OR OLD.turn_seat IS DISTINCT FROM NEW.turn_seat
                       OR OLD.deadline IS DISTINCT FROM NEW.deadline
                       OR OLD.updated_at IS DISTINCT FROM NEW.updated_at)
    EXECUTE FUNCTION inbox_game_keys();

-- The seats bound before this migration (their turn unknown until the next commit).
UPDATE players p SET inbox_recency = inbox_recency_key(g.updated_at), game_status = g.status
  FROM games g WHERE g.id = p.game_id AND p.person_id IS NOT NULL;

-- The list in order (keyset: a row comparison on the last four columns), and the same per
-- status for the status filter. Partial: only bound seats are listed.
CREATE INDEX players_inbox ON players
    (person_id, inbox_rank, inbox_deadline, inbox_recency, game_id) WHERE person_id IS NOT NULL;
CREATE INDEX players_inbox_status ON players
    (person_id, game_status, inbox_rank, inbox_deadline, inbox_recency, game_id)
    WHERE person_id IS NOT NULL;

-- A player's webhook: its URL and secret on the person, and one webhooks row (owner
-- 'person:<id>') per game in which the person holds a seat, so that the
-- outbox, the claim, the order per webhook, signing and retries are the game webhooks'
-- own (0003, 0006). Setting it writes a row for every game of the person; a seat bound
-- later (a new game, a join) gets its row from the trigger below; removing it deletes the
-- rows (and their deliveries).
ALTER TABLE people ADD COLUMN webhook_url    text;        -- http:// or https://, or NULL
ALTER TABLE people ADD COLUMN webhook_secret text;        -- its HMAC-SHA256 key (base64url)
ALTER TABLE people ADD COLUMN webhook_since  timestamptz; -- when the URL was last set

ALTER TABLE webhooks DROP CONSTRAINT webhooks_owner_form;
ALTER TABLE webhooks ADD CONSTRAINT webhooks_owner_form
    CHECK (owner ~ '^(creator|seat:[0-9]+|person:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$');
-- A person's webhooks rows, found by their owner.
CREATE INDEX webhooks_owner ON webhooks (owner);

-- The person's row is locked first (FOR SHARE), then read by a statement of its own: a
-- webhook being set or removed at the same moment (which updates that row first, then the
-- webhooks rows, api/store_inbox.c) either is seen whole here or sees this seat.
CREATE FUNCTION inbox_seat_webhook() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM people WHERE id = NEW.person_id FOR SHARE;
    INSERT INTO webhooks (game_id, owner, url, secret)
    SELECT NEW.game_id, 'person:' || p.id::text, p.webhook_url, p.webhook_secret
      FROM people p WHERE p.id = NEW.person_id AND p.webhook_url IS NOT NULL
    ON CONFLICT (game_id, owner) DO NOTHING;
    RETURN NULL;
END $$;
CREATE TRIGGER players_inbox_webhook AFTER INSERT OR UPDATE OF person_id ON players
    FOR EACH ROW WHEN (NEW.person_id IS NOT NULL) EXECUTE FUNCTION inbox_seat_webhook();
