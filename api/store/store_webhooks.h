/* store_webhooks.h: webhooks of games and seats, and their outbox of deliveries
 * (store_webhook.c). */
#ifndef API_STORE_WEBHOOKS_H
#define API_STORE_WEBHOOKS_H

#include "store_games.h"

/*
 * The webhooks of a game (migrations/0006_webhook_owners.sql): at most one per owner, the
 * creator's (given at creation, store_new_game.webhook_url) and one per seat (set with the
 * seat's token). Every event of the game is delivered to each of them. `seat` below is a
 * seat (0 ..): these functions never touch or read the creator's webhook.
 */

/*
 * Sets (or replaces) the webhook of seat `seat` of game `id` (which exists): its URL and
 * signing secret and its format (STORE_HOOK_FORMATS), with the idempotent answer `idem` (NULL for
 * none) in the same transaction. That webhook's deliveries still due go to the new URL.
 */
enum store_status store_webhook_set(const char *id, int seat, const char *url, const char *secret,
                                    const char *format, const struct store_idem *idem) NODISCARD;

/* Removes the webhook of seat `seat` of game `id` and its deliveries; *deleted says whether
 * there was one. */
enum store_status store_webhook_delete(const char *id, int seat, int *deleted) NODISCARD;

/* What a webhook's deliveries are (webhooks.format, 0028): "tilehall" (the signed JSON of
 * docs/clients.md), or a chat app's incoming webhook, "discord" or "slack"
 * (api/jobs/webhook_apps.c). */
#define STORE_HOOK_FORMATS                                                                         \
    {                                                                                              \
        "tilehall", "discord", "slack", NULL                                                       \
    }
#define STORE_HOOK_FORMAT_MAX 16 /* bytes of a format's name, its NUL included */

/* A webhook and how its deliveries stand (never its secret). */
struct store_webhook_state {
    char url[STORE_URL_MAX + 1];        /* the callback URL */
    char format[STORE_HOOK_FORMAT_MAX]; /* its format (STORE_HOOK_FORMATS) */
    char since[32];                     /* when it was set (RFC 3339, UTC) */
    long delivered;                     /* deliveries answered 2xx (events and chat messages) */
    long pending;           /* deliveries still to make (due or waiting to be retried) */
    long gave_up;           /* deliveries given up after the last attempt */
    int delivered_up_to;    /* the seq up to which every event is done, or -1 */
    long failed_attempts;   /* attempts that got no 2xx answer */
    int has_error;          /* 1 when some attempt failed: the last_error fields hold */
    char last_error[256];   /* what the last failed attempt got */
    int last_error_seq;     /* the event it was delivering, -1: a chat message */
    int last_error_status;  /* its HTTP status, or -1 when there was no answer */
    char last_error_at[32]; /* when (RFC 3339, UTC) */
};

/* The webhook of seat `seat` of game `id` into `out`: STORE_OK, STORE_NOT_FOUND when the
 * seat has none ... */
enum store_status store_webhook_get(const char *id, int seat,
                                    struct store_webhook_state *out) NODISCARD;

/* What a delivery is (webhook_deliveries.kind): a game's event, a message of its chat
 * (0028), or a tournament's event (0034). */
#define STORE_DELIVERY_EVENT      "event"
#define STORE_DELIVERY_CHAT       "chat"
#define STORE_DELIVERY_TOURNAMENT "tournament"

/* A claimed delivery: one event or chat message to POST to one webhook. Strings are
 * malloc'd (store_delivery_free). */
struct store_delivery {
    char hook[24];                /* the webhook's id (webhooks.id, decimal) */
    char game[AUTH_UUID_LEN + 1]; /* the game's id (the tournament's for a tournament's event) */
    char kind[12];                /* STORE_DELIVERY_EVENT, _CHAT or _TOURNAMENT */
    int seq;                      /* the event's seq, or the chat message's */
    int attempt;                  /* 1 for the first attempt */
    char *url;                    /* where to */
    char *secret;                 /* the signing key */
    char *payload;                /* the event (JSON), or the message as GET .../chat
                                     shows it */
    char *host;                   /* the URL's host, lower-case (webhooks.host): a key */
    char format[STORE_HOOK_FORMAT_MAX]; /* the webhook's format (STORE_HOOK_FORMATS) */
    char owner[48];                     /* "creator", "seat:<n>" or "person:<id>" */
    int version;                        /* an event's game version (0 for a message) */
    int last_of_version;                /* 1: the last event of its version */
    char *title;                        /* a tournament's name ("" for a game's delivery) */
};

/*
 * Claims up to `max` due deliveries (each the oldest undelivered event of its webhook; rows
 * other servers hold are skipped), leasing them for `lease_ms` (they are due again then
 * unless store_webhook_done() or store_webhook_defer() says otherwise). None whose host is
 * one of the `nskip` in `skip`, and at most `per_host` of one host. Fills out[0..*n).
 */
enum store_status store_webhook_claim(int lease_ms, const char *const *skip, int nskip,
                                      int per_host, struct store_delivery *out, int max,
                                      int *n) NODISCARD;

/*
 * Puts a claimed delivery (webhook `hook`, seq `seq` of kind `kind`, STORE_DELIVERY_*) back
 * unattempted: its attempt is not counted, and it is due again in `delay_ms` (for any
 * server).
 */
enum store_status store_webhook_defer(const char *hook, const char *kind, int seq,
                                      int delay_ms) NODISCARD;

/*
 * Reschedules every waiting delivery to `host` to `delay_ms` from now at the earliest (a
 * circuit breaker opened). Rows in flight keep their lease, only longer.
 */
enum store_status store_webhook_host_defer(const char *host, int delay_ms) NODISCARD;

/* Frees the strings of a delivery; NULL is fine. */
void store_delivery_free(struct store_delivery *d);

/*
 * Records an attempt of delivery (webhook `hook`, seq `seq` of kind `kind`, STORE_DELIVERY_*): `ok`
 * (answered 2xx, or nothing to send: a chat app's webhook and an event nobody reads), else its HTTP
 * status (0: no answer) and `error`, due again in `retry_ms`, or given up for good (`gave_up`).
 */
enum store_status store_webhook_done(const char *hook, const char *kind, int seq, int ok,
                                     int http_status, const char *error, int retry_ms,
                                     int gave_up) NODISCARD;

#endif
