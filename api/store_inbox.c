/* store_inbox.c: a person's games and a person's webhook (migrations/0012): the list page by
 * page in its order (one statement on the index players_inbox), and the webhook that follows
 * every game of the person, through the statements of store_db.c. */
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "store_db.h"

/* Copies text column `col` of row `r` into `dst` (size `cap`); "" when NULL. */
static void copy_col(const PGresult *res, int r, int col, char *dst, size_t cap)
{
    snprintf(dst, cap, "%s", PQgetisnull(res, r, col) ? "" : PQgetvalue(res, r, col));
}

/* Column `col` of row `r` as a long long, or `null_value` when NULL. */
static long long col_ll(const PGresult *res, int r, int col, long long null_value)
{
    if (PQgetisnull(res, r, col)) return null_value;
    return strtoll(PQgetvalue(res, r, col), NULL, 10);
}

enum store_status store_inbox_page(const struct store_inbox_query *q, struct store_inbox_page *out)
{
    memset(out, 0, sizeof *out);
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char lo[8], hi[8], rank[8], deadline[24], recency[24], limit[16];
    snprintf(lo, sizeof lo, "%d", q->my_turn == 0 ? 1 : 0);
    snprintf(hi, sizeof hi, "%d", q->my_turn == 1 ? 0 : 1);
    /* From the start: keys below every entry's. */
    snprintf(rank, sizeof rank, "%d", q->after ? q->after->rank : -1);
    snprintf(deadline, sizeof deadline, "%lld", q->after ? q->after->deadline : -1);
    snprintf(recency, sizeof recency, "%lld",
             q->after ? q->after->recency : -9223372036854775807LL);
    snprintf(limit, sizeof limit, "%d", q->limit);
    const char *game = q->after ? q->after->game : "00000000-0000-0000-0000-000000000000";
    const char *vals[9] = {q->person, lo, hi, rank, deadline, recency, game, limit, q->status};
    PGresult *res;
    enum store_status s = db_run(&pg, q->status ? ST_INBOX_PAGE_STATUS : ST_INBOX_PAGE,
                                 q->status ? 9 : 8, vals, NULL, &res);
    if (s != STORE_OK) return s;
    int rows = PQntuples(res);
    if (rows < 1) {
        PQclear(res);
        return STORE_ERROR;
    }
    out->my_turn_count = db_long(res, 0, 0, 0);
    if (PQgetisnull(res, 0, 1)) {
        PQclear(res);
        return STORE_OK;
    }
    out->entries = calloc((size_t)q->limit + 1, sizeof *out->entries);
    if (!out->entries) {
        PQclear(res);
        return STORE_ERROR;
    }
    struct store_inbox_entry *e = NULL;
    int n = 0;
    for (int r = 0; r < rows; r++) {
        const char *id = PQgetvalue(res, r, 1);
        if (!e || strcmp(e->key.game, id) != 0) {
            if (n == q->limit + 1) break;
            e = &out->entries[n++];
            copy_col(res, r, 1, e->key.game, sizeof e->key.game);
            e->seat = (int)col_ll(res, r, 2, 0);
            e->key.rank = (int)col_ll(res, r, 3, 1);
            e->key.deadline = col_ll(res, r, 4, 0);
            e->key.recency = col_ll(res, r, 5, 0);
            copy_col(res, r, 6, e->ruleset, sizeof e->ruleset);
            copy_col(res, r, 7, e->status, sizeof e->status);
            e->version = (int)col_ll(res, r, 8, 0);
            e->turn_number = (int)col_ll(res, r, 9, -1);
            e->turn_seat = (int)col_ll(res, r, 10, -1);
            copy_col(res, r, 11, e->turn_phase, sizeof e->turn_phase);
        }
        if (e->nseats == CC_MAX_PLAYERS) continue;
        struct store_inbox_seat *st = &e->seats[e->nseats++];
        st->seat = (int)col_ll(res, r, 12, 0);
        copy_col(res, r, 13, st->name, sizeof st->name);
        st->has_score = !PQgetisnull(res, r, 14);
        st->score = (int)col_ll(res, r, 14, 0);
    }
    PQclear(res);
    out->more = n > q->limit;
    out->n = out->more ? q->limit : n;
    return STORE_OK;
}

void store_inbox_free(struct store_inbox_page *p)
{
    free(p->entries);
    p->entries = NULL;
    p->n = 0;
}

enum store_status store_person_hook_set(const char *person, const char *url, const char *secret,
                                        const struct store_idem *idem)
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    const char *vals[3] = {person, url, secret};
    long n = 0;
    enum store_status s = db_begin(&pg);
    if (s == STORE_OK) s = db_run_cmd(&pg, ST_PERSON_HOOK_PUT, 3, vals, NULL, &n);
    if (s == STORE_OK && n != 1) s = STORE_NOT_FOUND;
    if (s == STORE_OK) s = db_run_cmd(&pg, ST_PERSON_HOOK_ROWS, 3, vals, NULL, NULL);
    if (s == STORE_OK && idem) s = db_idem_put(pg, idem);
    if (s == STORE_OK) s = db_exec(pg, "COMMIT", "commit");
    if (s != STORE_OK) db_rollback(pg);
    return s;
}

enum store_status store_person_hook_delete(const char *person, int *deleted)
{
    *deleted = 0;
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    const char *vals[1] = {person};
    long n = 0;
    enum store_status s = db_begin(&pg);
    if (s == STORE_OK) s = db_run_cmd(&pg, ST_PERSON_HOOK_CLEAR, 1, vals, NULL, &n);
    if (s == STORE_OK) s = db_run_cmd(&pg, ST_PERSON_HOOK_DROP, 1, vals, NULL, NULL);
    if (s == STORE_OK) s = db_exec(pg, "COMMIT", "commit");
    if (s != STORE_OK) db_rollback(pg);
    if (s == STORE_OK) *deleted = n > 0;
    return s;
}

/* Copies column `col` of row 0 of `res` into `dst` (size `cap`); "" when NULL. */
static void copy_text(const PGresult *res, int col, char *dst, size_t cap)
{
    snprintf(dst, cap, "%s", PQgetisnull(res, 0, col) ? "" : PQgetvalue(res, 0, col));
}

enum store_status store_person_hook_get(const char *person, struct store_person_hook_state *out)
{
    memset(out, 0, sizeof *out);
    const char *vals[1] = {person};
    PGresult *res;
    enum store_status s = db_run_row(ST_PERSON_HOOK_STATE, 1, vals, 0, &res);
    if (s != STORE_OK) return s;
    struct store_webhook_state *w = &out->w;
    copy_text(res, 0, w->url, sizeof w->url);
    copy_text(res, 1, w->since, sizeof w->since);
    out->games = db_long(res, 0, 2, 0);
    w->failed_attempts = db_long(res, 0, 3, 0);
    w->delivered = db_long(res, 0, 4, 0);
    w->pending = db_long(res, 0, 5, 0);
    w->gave_up = db_long(res, 0, 6, 0);
    w->delivered_up_to = -1;
    w->has_error = !PQgetisnull(res, 0, 7);
    copy_text(res, 7, out->error_game, sizeof out->error_game);
    copy_text(res, 8, w->last_error, sizeof w->last_error);
    w->last_error_seq = (int)db_long(res, 0, 9, -1);
    w->last_error_status = (int)db_long(res, 0, 10, -1);
    copy_text(res, 11, w->last_error_at, sizeof w->last_error_at);
    PQclear(res);
    return STORE_OK;
}
