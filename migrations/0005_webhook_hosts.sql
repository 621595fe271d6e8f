-- 0005_webhook_hosts.sql: the receiver host of each webhook, for the delivery workers'
-- limits (api/webhook.c): at most WEBHOOK_PER_HOST transfers in flight per host, and a
-- circuit breaker that skips a host whose deliveries keep failing (its waiting deliveries
-- are rescheduled, see ST_WEBHOOK_HOST_DEFER in api/store_db.c).
--
-- The host is the URL's authority without user info and port, lower-cased: a key, not an
-- address (names are resolved at each connection, where api/netaddr.c checks them).

ALTER TABLE webhooks ADD COLUMN host text GENERATED ALWAYS AS
    (lower(substring(url FROM '^[A-Za-z]+://(?:[^/?#]*@)?(\[[^]/?#]*\]|[^:/?#]*)'))) STORED;
CREATE INDEX webhooks_host ON webhooks (host);

-- Delivery errors shown to the players are generic from now on (timeout, refused, HTTP
-- 500 ...): the detail libcurl gave (host names, addresses, ports) stays in the server log.
-- Older rows may hold such detail; they become the generic "connection failed".
UPDATE webhooks SET last_error = 'connection failed'
    WHERE last_error IS NOT NULL AND last_error !~ '^HTTP [0-9]{3}$';
