/* store_webhook.c: a game's webhooks (one per owner: the creator's, one per seat) and the
 * outbox of their deliveries (migrations/0003_webhooks.sql, 0005_webhook_hosts.sql,
 * 0006_webhook_owners.sql), through the statements of store_db.c. */
#include "store.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libpq-fe.h>

#include "log.h"
#include "store_db.h"
#include "store_games.h"
#include "store_webhooks.h"

/* The owner of seat `seat`'s webhook (webhooks.owner): "seat:<n>". */
static void seat_owner(int seat, char out[24])
{
    snprintf(out, 24, "seat:%d", seat);
}

enum store_status store_webhook_set(const char *id, int seat, const char *url, const char *secret,
                                    const char *format, const struct store_idem *idem)
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char owner[24];
    seat_owner(seat, owner);
    const char *vals[5] = {id, url, secret, owner, format};
    if (!idem) return db_run_cmd(&pg, ST_WEBHOOK_PUT, 5, vals, NULL, NULL);
    enum store_status s = db_begin(&pg);
    if (s == STORE_OK) s = db_run_cmd(&pg, ST_WEBHOOK_PUT, 5, vals, NULL, NULL);
    if (s == STORE_OK) s = db_idem_put(pg, idem);
    if (s == STORE_OK) s = db_exec(pg, "COMMIT", "commit");
    if (s != STORE_OK) db_rollback(pg);
    return s;
}

enum store_status store_webhook_delete(const char *id, int seat, int *deleted)
{
    *deleted = 0;
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char owner[24];
    seat_owner(seat, owner);
    const char *vals[2] = {id, owner};
    long n = 0;
    enum store_status s = db_run_cmd(&pg, ST_WEBHOOK_DELETE, 2, vals, NULL, &n);
    if (s == STORE_OK) *deleted = n > 0;
    return s;
}

enum store_status store_webhook_get(const char *id, int seat, struct store_webhook_state *out)
{
    memset(out, 0, sizeof *out);
    char owner[24];
    seat_owner(seat, owner);
    const char *vals[2] = {id, owner};
    PGresult *res;
    enum store_status s = db_run_row(ST_WEBHOOK_STATE, 2, vals, 0, &res);
    if (s != STORE_OK) return s;
    db_copy_text(res, 0, out->url, sizeof out->url);
    db_copy_text(res, 1, out->since, sizeof out->since);
    out->failed_attempts = db_long(res, 0, 2, 0);
    out->has_error = !PQgetisnull(res, 0, 3);
    db_copy_text(res, 3, out->last_error, sizeof out->last_error);
    out->last_error_seq = (int)db_long(res, 0, 4, -1);
    out->last_error_status = (int)db_long(res, 0, 5, -1);
    db_copy_text(res, 6, out->last_error_at, sizeof out->last_error_at);
    out->delivered = db_long(res, 0, 7, 0);
    out->pending = db_long(res, 0, 8, 0);
    out->gave_up = db_long(res, 0, 9, 0);
    out->delivered_up_to = (int)db_long(res, 0, 10, -1);
    db_copy_text(res, 11, out->format, sizeof out->format);
    PQclear(res);
    return STORE_OK;
}

/* `hosts` as a PostgreSQL array literal {"a","b"} (malloc'd), or NULL without memory. */
static char *text_array(const char *const *hosts, int n)
{
    size_t cap = 3;
    for (int i = 0; i < n; i++) cap += 2 * strlen(hosts[i]) + 3;
    char *out = malloc(cap);
    if (!out) return NULL;
    size_t o = 0;
    out[o++] = '{';
    for (int i = 0; i < n; i++) {
        if (i) out[o++] = ',';
        out[o++] = '"';
        for (const char *p = hosts[i]; *p; p++) {
            if (*p == '"' || *p == '\\') out[o++] = '\\';
            out[o++] = *p;
        }
        out[o++] = '"';
    }
    out[o++] = '}';
    out[o] = '\0';
    return out;
}

enum store_status store_webhook_claim(int lease_ms, const char *const *skip, int nskip,
                                      int per_host, struct store_delivery *out, int max, int *n)
{
    *n = 0;
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char lease[16], limit[16], each[16];
    snprintf(lease, sizeof lease, "%d", lease_ms);
    snprintf(limit, sizeof limit, "%d", max);
    snprintf(each, sizeof each, "%d", per_host);
    char *skip_a = text_array(skip, nskip);
    if (!skip_a) return STORE_ERROR;
    const char *vals[4] = {lease, limit, skip_a, each};
    PGresult *res;
    enum store_status s = db_run(&pg, ST_WEBHOOK_CLAIM, 4, vals, NULL, &res);
    free(skip_a);
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
        d->host = strdup(PQgetvalue(res, i, 6));
        snprintf(d->hook, sizeof d->hook, "%s", PQgetvalue(res, i, 7));
        snprintf(d->kind, sizeof d->kind, "%s", PQgetvalue(res, i, 8));
        snprintf(d->format, sizeof d->format, "%s", PQgetvalue(res, i, 9));
        snprintf(d->owner, sizeof d->owner, "%s", PQgetvalue(res, i, 10));
        d->version = (int)db_long(res, i, 11, 0);
        d->last_of_version = PQgetvalue(res, i, 12)[0] == 't';
        d->title = strdup(PQgetvalue(res, i, 13));
        if (!d->url || !d->secret || !d->payload || !d->host || !d->title) {
            /* Left leased: another attempt comes once the lease runs out. */
            store_delivery_free(d);
            continue;
        }
        (*n)++;
    }
    PQclear(res);
    return STORE_OK;
}

/* Runs the command `st` with its `n` text parameters on the calling thread's connection. */
static enum store_status run_cmd(enum stmt st, int n, const char *const *vals)
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    return db_run_cmd(&pg, st, n, vals, NULL, NULL);
}

enum store_status store_webhook_defer(const char *hook, const char *kind, int seq, int delay_ms)
{
    char sq[16], delay[16];
    snprintf(sq, sizeof sq, "%d", seq);
    snprintf(delay, sizeof delay, "%d", delay_ms);
    const char *vals[4] = {hook, sq, delay, kind};
    return run_cmd(ST_WEBHOOK_DEFER, 4, vals);
}

enum store_status store_webhook_host_defer(const char *host, int delay_ms)
{
    char delay[16];
    snprintf(delay, sizeof delay, "%d", delay_ms);
    const char *vals[2] = {host, delay};
    return run_cmd(ST_WEBHOOK_HOST_DEFER, 2, vals);
}

void store_delivery_free(struct store_delivery *d)
{
    if (!d) return;
    free(d->url);
    free(d->secret);
    free(d->payload);
    free(d->host);
    free(d->title);
    d->url = d->secret = d->payload = d->host = d->title = NULL;
}

enum store_status store_webhook_done(const char *hook, const char *kind, int seq, int ok,
                                     int http_status, const char *error, int retry_ms, int gave_up)
{
    char sq[16], st[16], retry[16];
    snprintf(sq, sizeof sq, "%d", seq);
    snprintf(st, sizeof st, "%d", http_status);
    snprintf(retry, sizeof retry, "%d", retry_ms);
    const char *vals[8] = {hook,  sq,    ok ? "true" : "false",      http_status > 0 ? st : NULL,
                           error, retry, gave_up ? "true" : "false", kind};
    return run_cmd(ST_WEBHOOK_DONE, 8, vals);
}
