-- 0006_webhook_owners.sql: several webhooks per game, each with its owner, so that a seat
-- changes only the webhook it set (issue 17, item 9).
--
-- A game has at most one webhook per owner: 'creator' (the one given in POST /v1/games,
-- which no seat's token may replace, delete or read) and 'seat:<n>' (the one seat n set
-- with POST /v1/games/{id}/webhook: that seat's token alone reads, replaces or deletes it).
-- Every event of the game goes to every webhook of the game, each with its own secret and
-- its own delivery row (webhook_deliveries, keyed by the webhook's id and the event's seq),
-- each webhook's events in seq order.
--
-- The webhooks there were (one per game, which any seat could replace) become the
-- creator's, with their secrets, their error state and their deliveries (delivered, given
-- up and still due): the game keeps getting its deliveries as before.

ALTER TABLE webhooks ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE webhooks ADD COLUMN owner text NOT NULL DEFAULT 'creator'
    CONSTRAINT webhooks_owner_form CHECK (owner ~ '^(creator|seat:[0-9]+)$');
ALTER TABLE webhooks ALTER COLUMN owner DROP DEFAULT;

ALTER TABLE webhook_deliveries ADD COLUMN webhook_id bigint;
UPDATE webhook_deliveries d SET webhook_id = w.id FROM webhooks w WHERE w.game_id = d.game_id;

ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_game_id_fkey;
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_pkey;
ALTER TABLE webhooks DROP CONSTRAINT webhooks_pkey;
ALTER TABLE webhooks ADD CONSTRAINT webhooks_pkey PRIMARY KEY (id);
-- One webhook per owner of a game; also the index of the commits' "every webhook of game".
ALTER TABLE webhooks ADD CONSTRAINT webhooks_game_owner UNIQUE (game_id, owner);

ALTER TABLE webhook_deliveries ALTER COLUMN webhook_id SET NOT NULL;
ALTER TABLE webhook_deliveries DROP COLUMN game_id;
-- A webhook's events in order: the claim looks for an earlier undelivered one by this key.
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_pkey
    PRIMARY KEY (webhook_id, seq);
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_webhook_id_fkey
    FOREIGN KEY (webhook_id) REFERENCES webhooks (id) ON DELETE CASCADE;
