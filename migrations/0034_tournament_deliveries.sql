-- 0034_tournament_deliveries.sql: a tournament's round_started and tournament_finished
-- delivered to its entrants' player webhooks (issue 27, item 2; api/jobs/webhook.c,
-- api/jobs/webhook_apps.c).
--
-- A player's webhook gets one webhooks row (owner 'person:<id>') per tournament it is an
-- entrant of, as it has one per game (0012): the outbox, the claim, the order per webhook,
-- signing and retries are the games' own. The row is written with the tournament's first
-- delivery to the person, and kept in step with the person's URL by the statements that set
-- and remove it (api/store/store_db.c, ST_PERSON_HOOK_ROWS and ST_PERSON_HOOK_DROP).

-- A webhooks row belongs to a game or to a tournament, never both.
ALTER TABLE webhooks ALTER COLUMN game_id DROP NOT NULL;
ALTER TABLE webhooks ADD COLUMN tournament_id uuid REFERENCES tournaments (id) ON DELETE CASCADE;
ALTER TABLE webhooks ADD CONSTRAINT webhooks_one_subject
    CHECK ((game_id IS NULL) <> (tournament_id IS NULL));
ALTER TABLE webhooks ADD CONSTRAINT webhooks_tournament_owner UNIQUE (tournament_id, owner);

-- webhook_deliveries.kind 'tournament': seq numbers the tournament's events
-- (tournament_events.seq).
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_kind;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_kind
    CHECK (kind IN ('event', 'chat', 'tournament'));

-- Event `p_type` with `p_data` of tournament `t`, numbered after the last (the caller's
-- transaction holds the tournament's row, so events are numbered one at a time), and in the
-- same statement its deliveries: round_started to the player webhook of every entrant still
-- in, tournament_finished to every entrant's. So an event is delivered exactly once, whichever
-- server writes it, and a server killed after the commit leaves them in the outbox. The
-- recipients' people rows are locked first (FOR SHARE) and read by a statement of their own,
-- as 0012's trigger does: a webhook being set or removed at once is seen whole or sees these
-- rows. The notification "<tournament>:tournament:<seq>" wakes the delivery workers of every
-- server (api/jobs/live.c). Returns the event's seq.
CREATE FUNCTION tournament_event_put(t uuid, p_type text, p_data jsonb) RETURNS integer
    LANGUAGE plpgsql AS $$
DECLARE
    n integer;
BEGIN
    SELECT coalesce(max(seq), 0) + 1 INTO n FROM tournament_events WHERE tournament_id = t;
    INSERT INTO tournament_events (tournament_id, seq, type, data) VALUES (t, n, p_type, p_data);
    PERFORM 1 FROM people p JOIN tournament_entrants e ON e.person_id = p.id
     WHERE e.tournament_id = t AND p.webhook_url IS NOT NULL
     ORDER BY p.id FOR SHARE OF p;
    INSERT INTO webhooks (tournament_id, owner, url, secret, format)
    SELECT t, 'person:' || p.id::text, p.webhook_url, p.webhook_secret, p.webhook_format
      FROM tournament_entrants e JOIN people p ON p.id = e.person_id
     WHERE e.tournament_id = t AND p.webhook_url IS NOT NULL
       AND (p_type = 'tournament_finished' OR e.left_round IS NULL)
    ON CONFLICT (tournament_id, owner) DO NOTHING;
    INSERT INTO webhook_deliveries (webhook_id, kind, seq)
    SELECT h.id, 'tournament', n
      FROM tournament_entrants e JOIN webhooks h
           ON h.tournament_id = t AND h.owner = 'person:' || e.person_id::text
     WHERE e.tournament_id = t AND (p_type = 'tournament_finished' OR e.left_round IS NULL);
    PERFORM pg_notify('tilehall_events', t::text || ':tournament:' || n);
    RETURN n;
END $$;
