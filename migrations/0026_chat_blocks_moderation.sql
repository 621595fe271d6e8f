-- 0026_chat_blocks_moderation.sql: a chat per game, blocks between players, reports and the
-- operator's suspensions (issue 28; api/store_chat.c, api/routes_chat.c, api/routes_admin.c).

-- games.chat_public: created with "chat": "public" (anyone may read the chat), else only the
-- seats read it.
ALTER TABLE games ADD COLUMN chat_public boolean NOT NULL DEFAULT false;

-- The messages of a game's chat, numbered from 1 per game (their own numbering: a message
-- is no event and never moves the game's version). Kept with the game: deleting the game
-- (the retention sweep, ST_RETENTION_DELETE) deletes them and their reports by the foreign
-- keys' cascade; its export includes them. `hidden`: by the
-- operator, for everyone, the text kept for the record.
CREATE TABLE chat_messages (
    game_id    uuid        NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        integer     NOT NULL CHECK (seq > 0),
    seat       integer     NOT NULL CHECK (seat BETWEEN 0 AND 5),
    person_id  uuid,                                -- the player bound to the seat, or NULL
    name       text        NOT NULL,                -- the seat's name when it was sent
    body       text        NOT NULL,                -- the text (api/json_chat.c's rules)
    hidden     boolean     NOT NULL DEFAULT false,  -- hidden by the operator
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seq)
);
-- The rate limit: a seat's messages of the last seconds.
CREATE INDEX chat_messages_seat ON chat_messages (game_id, seat, created_at);

-- Blocks: `blocker` sees no message of `blocked`, and the matchmaker never pairs the two
-- (store_blocks_between()).
CREATE TABLE blocks (
    blocker    uuid        NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    blocked    uuid        NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (blocker, blocked),
    CHECK (blocker <> blocked)
);
CREATE INDEX blocks_blocked ON blocks (blocked, blocker);

-- Reports of messages, one per reporting seat and message, open until the operator hides
-- the message (resolved_at). Deleted with the game.
CREATE TABLE chat_reports (
    game_id     uuid        NOT NULL,
    seq         integer     NOT NULL,
    seat        integer     NOT NULL,             -- the reporting seat
    person_id   uuid,                             -- the player bound to it, or NULL
    created_at  timestamptz NOT NULL DEFAULT now(),
    resolved_at timestamptz,                      -- the message was hidden then
    PRIMARY KEY (game_id, seq, seat),
    FOREIGN KEY (game_id, seq) REFERENCES chat_messages (game_id, seq) ON DELETE CASCADE
);
CREATE INDEX chat_reports_open ON chat_reports (created_at) WHERE resolved_at IS NULL;

-- A suspended player's tokens are refused (403 player_suspended) until reinstated.
ALTER TABLE people ADD COLUMN suspended_at timestamptz;
CREATE INDEX people_suspended ON people (id) WHERE suspended_at IS NOT NULL;

-- Posts a message in one statement (one round trip), so that the limit holds across
-- servers: the game's messages are numbered under a lock of the game's chat (an advisory
-- lock for the transaction; nothing else takes it), and a seat that sent `max_n` messages
-- within `window_ms` gets no row but the milliseconds until the oldest of them leaves the
-- window. A posted message notifies the live hubs ("<game>:chat:<seq>", api/live.c).
CREATE FUNCTION chat_post(p_game uuid, p_seat integer, p_person uuid, p_name text, p_body text,
                          max_n integer, window_ms integer)
    RETURNS TABLE (seq integer, retry_ms integer, sent_at text) LANGUAGE plpgsql AS $$
DECLARE
    oldest timestamptz;
    n      integer;
    ts     timestamptz;
BEGIN
    PERFORM pg_advisory_xact_lock(28, hashtext(p_game::text));
    ts := clock_timestamp();
    SELECT count(*), min(m.created_at) INTO n, oldest FROM (
        SELECT c.created_at FROM chat_messages c
         WHERE c.game_id = p_game AND c.seat = p_seat
           AND c.created_at > ts - window_ms * interval '1 millisecond'
         ORDER BY c.created_at DESC LIMIT max_n) m;
    IF n >= max_n THEN
        seq := NULL;
        retry_ms := greatest(1, ceil(extract(epoch FROM (oldest + window_ms * interval
                    '1 millisecond' - ts)) * 1000)::integer);
        RETURN NEXT;
        RETURN;
    END IF;
    SELECT coalesce(max(c.seq), 0) + 1 INTO seq FROM chat_messages c WHERE c.game_id = p_game;
    INSERT INTO chat_messages (game_id, seq, seat, person_id, name, body, created_at)
        VALUES (p_game, seq, p_seat, p_person, p_name, p_body, ts);
    PERFORM pg_notify('tilehall_events', p_game::text || ':chat:' || seq);
    retry_ms := 0;
    sent_at := to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
    RETURN NEXT;
END $$;

-- A clocked game whose seat to move belongs to a suspended player gets a "suspension" job
-- due at once (api/suspension.c plays that seat's turn by the clock's timeout rule). Only
-- for games with a bound seat and a clock, so other commits pay nothing.
CREATE FUNCTION suspension_turn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM players p JOIN people pe ON pe.id = p.person_id
                WHERE p.game_id = NEW.id AND p.seat = NEW.turn_seat
                  AND pe.suspended_at IS NOT NULL) THEN
        INSERT INTO jobs (game_id, kind, version, due_at, lease_ms)
            VALUES (NEW.id, 'suspension', NEW.version, now(), 10000)
            ON CONFLICT (game_id, kind) DO UPDATE SET version = EXCLUDED.version,
               due_at = EXCLUDED.due_at, claimed_until = NULL, attempts = 0;
        PERFORM pg_notify('tilehall_jobs', '');
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER games_suspension_turn AFTER UPDATE OF version ON games
    FOR EACH ROW WHEN (NEW.inbox_bound AND NEW.clock IS NOT NULL AND NEW.status = 'active'
                       AND OLD.version IS DISTINCT FROM NEW.version)
    EXECUTE FUNCTION suspension_turn();
