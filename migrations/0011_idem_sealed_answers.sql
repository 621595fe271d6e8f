-- 0011_idem_sealed_answers.sql: idempotent answers kept whole, tokens included, sealed
-- (issue 11, item 7).
--
-- A repeat of a request with its Idempotency-Key gets exactly the first answer, tokens
-- included, yet no token may be readable from the database alone. So a row no longer
-- holds the key: it is found by key_hash, SHA-256 over a label, the scope and the key
-- (api/seal.c, seal_lookup), and the answer's body is in `sealed`: AES-256-GCM under a key
-- that HKDF-SHA256 derives from the Idempotency-Key (with the scope as context and the
-- caller's own token, when the request carries one, as salt), which the server never
-- stores. Layout of `sealed`: one version byte (1), the 12-byte nonce, the ciphertext, the
-- 16-byte tag; the scope is its associated data.
--
-- Rows from before (at most 24 hours old; their bodies were stored without tokens) are
-- kept, so that a repeat sent across the upgrade still does not act twice: their key is
-- turned into its key_hash here (the same function, in SQL), the key itself is dropped, and
-- `body` keeps their answer without tokens, as it was; their request_hash (of the body's
-- bytes, not yet of its canonical JSON) is compared both ways (api/idem.c). New rows leave
-- `body` NULL.

ALTER TABLE idempotency ADD COLUMN key_hash bytea;
UPDATE idempotency
   SET key_hash = sha256(convert_to('tilehall idempotency lookup v1', 'UTF8') || '\x00'::bytea
                         || convert_to(scope, 'UTF8') || '\x00'::bytea
                         || convert_to(key, 'UTF8') || '\x00'::bytea);
ALTER TABLE idempotency ALTER COLUMN key_hash SET NOT NULL;
ALTER TABLE idempotency DROP CONSTRAINT idempotency_pkey;
ALTER TABLE idempotency DROP COLUMN key;
ALTER TABLE idempotency ADD PRIMARY KEY (scope, key_hash);

ALTER TABLE idempotency ADD COLUMN sealed bytea;
ALTER TABLE idempotency ALTER COLUMN body DROP NOT NULL;
ALTER TABLE idempotency ADD CONSTRAINT idempotency_one_answer
    CHECK ((sealed IS NULL) <> (body IS NULL));
