/* store_webhook.c: a game's webhook and the outbox of its deliveries
 * (migrations/0003_webhooks.sql), through the statements of store_db.c. */
#include "store.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libpq-fe.h>

#include "log.h"
#include "store_db.h"

enum store_status store_webhook_set(const char *id, const char *url, const char *secret,
                                    const struct store_idem *idem)
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    const char *vals[3] = {id, url, secret};
    if (!idem) return db_run_cmd(&pg, ST_WEBHOOK_PUT, 3, vals, NULL, NULL);
    enum store_status s = db_begin(&pg);
    if (s == STORE_OK) s = db_run_cmd(&pg, ST_WEBHOOK_PUT, 3, vals, NULL, NULL);
    if (s == STORE_OK) s = db_idem_put(pg, idem);
    if (s == STORE_OK) s = db_exec(pg, "COMMIT", "commit");
    if (s != STORE_OK) db_rollback(pg);
    return s;
}

enum store_status store_webhook_delete(const char *id, int *deleted)
{
    *deleted = 0;
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    const char *vals[1] = {id};
    long n = 0;
    enum store_status s = db_run_cmd(&pg, ST_WEBHOOK_DELETE, 1, vals, NULL, &n);
    if (s == STORE_OK) *deleted = n > 0;
    return s;
}

/* Copies column `col` of row 0 of `res` into `dst` (size `cap`); "" when NULL. */
static void copy_text(const PGresult *res, int col, char *dst, size_t cap)
{
    snprintf(dst, cap, "%s", PQgetisnull(res, 0, col) ? "" : PQgetvalue(res, 0, col));
}

enum store_status store_webhook_get(const char *id, struct store_webhook_state *out)
{
    memset(out, 0, sizeof *out);
    const char *vals[1] = {id};
    PGresult *res;
    enum store_status s = db_run_row(ST_WEBHOOK_STATE, 1, vals, 0, &res);
    if (s != STORE_OK) return s;
    copy_text(res, 0, out->url, sizeof out->url);
    copy_text(res, 1, out->since, sizeof out->since);
    out->failed_attempts = db_long(res, 0, 2, 0);
    out->has_error = !PQgetisnull(res, 0, 3);
    copy_text(res, 3, out->last_error, sizeof out->last_error);
    out->last_error_seq = (int)db_long(res, 0, 4, -1);
    out->last_error_status = (int)db_long(res, 0, 5, -1);
    copy_text(res, 6, out->last_error_at, sizeof out->last_error_at);
    out->delivered = db_long(res, 0, 7, 0);
    out->pending = db_long(res, 0, 8, 0);
    out->gave_up = db_long(res, 0, 9, 0);
    out->delivered_up_to = (int)db_long(res, 0, 10, -1);
    PQclear(res);
    return STORE_OK;
}

enum store_status store_webhook_claim(int lease_ms, struct store_delivery *out, int max, int *n)
{
    *n = 0;
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char lease[16], limit[16];
    snprintf(lease, sizeof lease, "%d", lease_ms);
    snprintf(limit, sizeof limit, "%d", max);
    const char *vals[2] = {lease, limit};
    PGresult *res;
    enum store_status s = db_run(&pg, ST_WEBHOOK_CLAIM, 2, vals, NULL, &res);
    if (s != STORE_OK) return s;
    for (int i = 0; i < PQntuples(res) && *n < max; i++) {
        struct store_delivery *d = &out[*n];
        memset(d, 0, sizeof *d);
        snprintf(d->game, sizeof d->game, "%s", PQgetvalue(res, i, 0));
        d->seq = (int)db_long(res, i, 1, 0);
        d->attempt = (int)db_long(res, i, 2, 1);
        d->url = strdup(PQgetvalue(res, i, 3));
        d->secret = strdup(PQgetvalue(res, i, 4));
        d->payload = strdup(PQgetvalue(res, i, 5));
        if (!d->url || !d->secret || !d->payload) {
            /* Left leased: another attempt comes once the lease runs out. */
            store_delivery_free(d);
            continue;
        }
        (*n)++;
    }
    PQclear(res);
    return STORE_OK;
}

void store_delivery_free(struct store_delivery *d)
{
    if (!d) return;
    free(d->url);
    free(d->secret);
    free(d->payload);
    d->url = d->secret = d->payload = NULL;
}

enum store_status store_webhook_done(const char *game, int seq, int ok, int http_status,
                                     const char *error, int retry_ms, int gave_up)
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char sq[16], st[16], retry[16];
    snprintf(sq, sizeof sq, "%d", seq);
    snprintf(st, sizeof st, "%d", http_status);
    snprintf(retry, sizeof retry, "%d", retry_ms);
    const char *vals[7] = {game,  sq,    ok ? "true" : "false",     http_status > 0 ? st : NULL,
                           error, retry, gave_up ? "true" : "false"};
    return db_run_cmd(&pg, ST_WEBHOOK_DONE, 7, vals, NULL, NULL);
}
