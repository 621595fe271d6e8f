/* webhook.h: delivering a game's events to its callback URLs: signing, retries, the workers.
 *
 * A game has at most one webhook per owner: the creator's (given at creation) and one per
 * seat (each set, read and removed with that seat's token only). Every event of the game
 * is POSTed to each of them, signed with that webhook's own secret, as
 *     {"game": "<id>", "timestamp": <unix seconds>, "event": {...the event...}}
 * with Content-Type application/json and the headers
 *     X-Tilehall-Signature: sha256=<hex of HMAC-SHA256(secret, body)>
 *     X-Tilehall-Event: <type>          X-Tilehall-Delivery: <game id>:<seq>
 *     X-Tilehall-Timestamp: <unix seconds, as in the body>   X-Tilehall-Attempt: <n>
 * and the Standard Webhooks headers (https://www.standardwebhooks.com/), so that receivers
 * can check deliveries with an off-the-shelf library:
 *     webhook-id: <game id>:<webhook id>:<seq>   (the same in every attempt of a message)
 *     webhook-timestamp: <unix seconds of this attempt, as in the body>
 *     webhook-signature: v1,<base64 of HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>
 * Both signatures use the same key: the bytes of the secret's text (43 base64url
 * characters, used as they are, not decoded). The libraries of Standard Webhooks take it as
 * "whsec_" + the standard base64 of those bytes (webhook_secret_std), answered next to it.
 * An answer 2xx delivers it; anything else (or no answer within WEBHOOK_TIMEOUT_MS) is
 * retried after WEBHOOK_BACKOFF_MS, doubling up to WEBHOOK_BACKOFF_MAX_MS, at most
 * WEBHOOK_MAX_ATTEMPTS times. A webhook gets its game's events in order, one at a time;
 * different webhooks' go out concurrently (up to WEBHOOK_IN_FLIGHT per thread,
 * WEBHOOK_PER_HOST of them to one host, a host that keeps failing skipped for a while: see
 * webhook.c). Deliveries
 * happen on worker threads from the outbox the commits fill, never during a request. What
 * a seat reads of a failed attempt of its webhook is generic (no host, address or port).
 * Chat messages are deliveries too (migrations/0028, written with the message): the body
 * {"game", "timestamp", "chat": {...}}, X-Tilehall-Event "chat", X-Tilehall-Delivery
 * "<game id>:chat:<seq>", webhook-id "<game id>:<webhook id>:chat:<seq>". A webhook whose
 * format is "discord" or "slack" gets that app's message instead (webhook_apps.h).
 */
#ifndef API_WEBHOOK_H
#define API_WEBHOOK_H

#include <stddef.h>

#include "cfg.h"
#include "nodiscard.h"

#define WEBHOOK_SECRET_LEN 43 /* characters of a secret: 32 random bytes in base64url */

/*
 * Checks a callback URL: http:// or https://, a host, at most STORE_URL_MAX bytes of
 * printable ASCII. Returns 0, or -1 with a sentence saying why in `why` (size `cap`).
 */
int webhook_url_check(const char *url, char *why, size_t cap) NODISCARD;

/* A new secret (WEBHOOK_SECRET_LEN characters + NUL). Returns 0 or -1. */
int webhook_secret_new(char out[WEBHOOK_SECRET_LEN + 1]) NODISCARD;

#define WEBHOOK_STD_SECRET_LEN 66 /* "whsec_" + 60 digits of standard base64 */
#define WEBHOOK_STD_SIG_LEN    47 /* "v1," + 44 digits of standard base64 */

/*
 * Writes `secret` (WEBHOOK_SECRET_LEN characters) as Standard Webhooks' libraries take it:
 * "whsec_" + the standard base64 (with padding) of the secret's bytes, NUL-terminated.
 * Returns 0, or -1 when `secret` is not WEBHOOK_SECRET_LEN long.
 */
int webhook_secret_std(const char *secret, char out[WEBHOOK_STD_SECRET_LEN + 1]) NODISCARD;

/*
 * Writes Standard Webhooks' signature of message `id` sent at `ts` (unix seconds) with
 * `body` (`len` bytes): "v1," + the standard base64 of HMAC-SHA256(secret's bytes,
 * "<id>.<ts>.<body>"), NUL-terminated. Returns 0 or -1.
 */
int webhook_sign_std(const char *secret, const char *id, long long ts, const char *body, size_t len,
                     char out[WEBHOOK_STD_SIG_LEN + 1]) NODISCARD;

/*
 * Writes "sha256=" and the lower-case hex of HMAC-SHA256(secret, body) into `out` (at
 * least 72 bytes). Returns 0 or -1.
 */
int webhook_sign(const char *secret, const char *body, size_t len, char out[72]) NODISCARD;

/* Starts cfg->webhook_workers delivery threads (none: 0), each with its own transfers,
 * limits and breakers. Returns 0 or -1 (logged). */
int webhook_start(const struct cfg *cfg) NODISCARD;

/* Wakes the workers to look for due deliveries (after a commit). Thread-safe, cheap. */
void webhook_kick(void);

/* Begins the drain (SIGTERM): the workers claim no more deliveries; those in flight go on
 * to their outcome (webhook_stop() puts back any left). Thread-safe. */
void webhook_drain(void);

/* Delivery attempts in flight on this server's workers. */
int webhook_in_flight(void);

/* Stops the workers and joins them: attempts in flight are cut short and put back in the
 * outbox unattempted, due at once for any server. */
void webhook_stop(void);

#endif
