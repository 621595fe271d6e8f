-- 0028_webhook_formats_chat_deliveries.sql: webhooks in a chat app's format, chat messages
-- delivered to webhooks (issue 28, items 1 and 5; api/jobs/webhook.c, api/jobs/webhook_apps.c).

-- webhooks.format: what a delivery's body is. 'tilehall' (the signed JSON of docs/clients.md),
-- or an incoming webhook of a chat app, 'discord' or 'slack': a message a person reads, sent
-- only for the events a person wants to see (webhook_apps.c says which), the other events
-- counted as delivered without a request.
ALTER TABLE webhooks ADD COLUMN format text NOT NULL DEFAULT 'tilehall'
    CONSTRAINT webhooks_format CHECK (format IN ('tilehall', 'discord', 'slack'));
-- A player's webhook has its format too, copied to its rows as its URL and secret are.
ALTER TABLE people ADD COLUMN webhook_format text NOT NULL DEFAULT 'tilehall'
    CONSTRAINT people_webhook_format CHECK (webhook_format IN ('tilehall', 'discord', 'slack'));

-- webhook_deliveries.kind: what the seq numbers. 'event': the game's event (events.seq, as
-- before), 'chat': a message of the game's chat (chat_messages.seq, a numbering of its own).
-- The key becomes (webhook, kind, seq): a chat message and an event of the same number are
-- two deliveries, each kind in order per webhook. Rows there were are events.
ALTER TABLE webhook_deliveries ADD COLUMN kind text NOT NULL DEFAULT 'event'
    CONSTRAINT webhook_deliveries_kind CHECK (kind IN ('event', 'chat'));
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_pkey;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_pkey
    PRIMARY KEY (webhook_id, kind, seq);

-- A seat bound later gets the player's webhook row with its format (0012's trigger, the
-- format added).
CREATE OR REPLACE FUNCTION inbox_seat_webhook() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM people WHERE id = NEW.person_id FOR SHARE;
    INSERT INTO webhooks (game_id, owner, url, secret, format)
    SELECT NEW.game_id, 'person:' || p.id::text, p.webhook_url, p.webhook_secret,
           p.webhook_format
      FROM people p WHERE p.id = NEW.person_id AND p.webhook_url IS NOT NULL
    ON CONFLICT (game_id, owner) DO NOTHING;
    RETURN NULL;
END $$;

-- 0026's chat_post, which now also writes the message's deliveries in its statement (so a
-- message is delivered exactly once, whichever server posts it, and a server killed after
-- the commit leaves them in the outbox): to each seat's webhook but the sender's, to each
-- player's webhook but the sender's own, neither to a player who blocked the sender (nor to
-- the webhook of a seat bound to one), and to the creator's webhook only when the chat is
-- public (anyone reads it then). The notification "<game>:chat:<seq>" wakes the delivery
-- workers of every server (api/live.c's hook).
CREATE OR REPLACE FUNCTION chat_post(p_game uuid, p_seat integer, p_person uuid, p_name text,
                                     p_body text, max_n integer, window_ms integer)
    RETURNS TABLE (seq integer, retry_ms integer, sent_at text) LANGUAGE plpgsql AS $$
DECLARE
    oldest timestamptz;
    n      integer;
    ts     timestamptz;
    msg    integer;
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
    SELECT coalesce(max(c.seq), 0) + 1 INTO msg FROM chat_messages c WHERE c.game_id = p_game;
    INSERT INTO chat_messages (game_id, seq, seat, person_id, name, body, created_at)
        VALUES (p_game, msg, p_seat, p_person, p_name, p_body, ts);
    INSERT INTO webhook_deliveries (webhook_id, kind, seq)
    SELECT h.id, 'chat', msg FROM webhooks h
     WHERE h.game_id = p_game
       AND CASE
           WHEN h.owner = 'creator' THEN
               (SELECT g.chat_public FROM games g WHERE g.id = p_game)
           WHEN h.owner LIKE 'seat:%' THEN
               substr(h.owner, 6)::integer <> p_seat
               AND NOT EXISTS (SELECT 1 FROM players pl JOIN blocks b ON b.blocker = pl.person_id
                                WHERE pl.game_id = p_game
                                  AND pl.seat = substr(h.owner, 6)::integer
                                  AND b.blocked = p_person)
           ELSE
               substr(h.owner, 8)::uuid IS DISTINCT FROM p_person
               AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker = substr(h.owner, 8)::uuid
                                                        AND b.blocked = p_person)
           END;
    PERFORM pg_notify('tilehall_events', p_game::text || ':chat:' || msg);
    seq := msg;
    retry_ms := 0;
    sent_at := to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
    RETURN NEXT;
END $$;
