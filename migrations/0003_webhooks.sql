-- 0003_webhooks.sql: a game's callback URL (webhook) and the outbox of its deliveries.
--
-- The transaction that commits an action (api/store.c) inserts one delivery per new event
-- of a game that has a webhook, and notifies channel tilehall_events ("<game id>:<seq>"),
-- so that every server's event streams, long polls and delivery workers wake at once.
-- The delivery workers of all servers share the outbox: each claims due rows with
-- SELECT ... FOR UPDATE SKIP LOCKED, leases them (next_attempt_at moves on while the
-- POST is in flight), and records the outcome. A game's events go out in seq order.

CREATE TABLE webhooks (
    game_id          uuid        PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    url              text        NOT NULL,            -- http:// or https://
    secret           text        NOT NULL,            -- the HMAC-SHA256 key (base64url)
    failed_attempts  integer     NOT NULL DEFAULT 0,  -- attempts that got no 2xx answer
    last_error       text,                            -- what the last failed attempt got
    last_error_seq   integer,                         -- the event it was delivering
    last_error_status integer,                        -- its HTTP status, NULL: no answer
    last_error_at    timestamptz,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now() -- when the URL was last set
);

CREATE TABLE webhook_deliveries (
    game_id         uuid        NOT NULL REFERENCES webhooks (game_id) ON DELETE CASCADE,
    seq             integer     NOT NULL,              -- the event (events.seq)
    attempts        integer     NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(), -- due (or leased until) then
    last_status     integer,                           -- HTTP status of the last attempt
    delivered_at    timestamptz,                       -- answered 2xx then
    gave_up         boolean     NOT NULL DEFAULT false, -- after the last attempt failed
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seq)
);
-- The workers' claim: due rows that are neither delivered nor given up.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
    WHERE delivered_at IS NULL AND NOT gave_up;
