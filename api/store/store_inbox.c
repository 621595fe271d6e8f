/* store_inbox.c: a person's games and a person's webhook (migrations/0012): the list page by
 * page in its order (one statement on the index players_inbox that also finds the person by
 * its token hash; results in binary), and the webhook that follows every game of the
 * person, through the statements of store_db.c. */
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "store_db.h"
#include "store_games.h"
#include "store_people.h"
#include "store_webhooks.h"

/* Text column `col` of row `r` (binary results: its bytes) into `dst` (size `cap`, cut to
 * fit); "" when NULL. */
static void copy_col(const PGresult *res, int r, int col, char *dst, size_t cap)
{
    size_t n = PQgetisnull(res, r, col) ? 0 : (size_t)PQgetlength(res, r, col);
    if (n >= cap) n = cap - 1;
    memcpy(dst, PQgetvalue(res, r, col), n);
    dst[n] = '\0';
}

/* The big-endian integer of `n` bytes (at most 8) at `p`, sign-extended. */
static long long be_int(const unsigned char *p, int n)
{
    unsigned long long v = 0;
    for (int i = 0; i < n; i++) v = v << 8 | p[i];
    if (n < 8 && n > 0 && (p[0] & 0x80)) v |= ~0ULL << (8 * n);
    return (long long)v;
}

/* Integer column `col` of row `r` (binary: int4 or int8), or `null_value` when NULL. */
static long long col_ll(const PGresult *res, int r, int col, long long null_value)
{
    int n = PQgetlength(res, r, col);
    if (PQgetisnull(res, r, col) || (n != 4 && n != 8)) return null_value;
    return be_int((const unsigned char *)PQgetvalue(res, r, col), n);
}

/* A one-dimensional array in PostgreSQL's binary format (`len` bytes at `p`): its
 * elements' count (at most `max`) into *n, each element's bytes and length (-1: NULL)
 * into el[] and el_len[]. 0, or -1 when it is not such an array. */
static int array_elements(const unsigned char *p, int len, int max, const unsigned char **el,
                          int *el_len, int *n)
{
    *n = 0;
    if (len < 12) return -1;
    long long ndim = be_int(p, 4);
    if (ndim == 0) return 0;
    if (ndim != 1 || len < 20) return -1;
    long long count = be_int(p + 12, 4);
    int o = 20;
    for (long long i = 0; i < count && *n < max; i++) {
        if (o + 4 > len) return -1;
        long long l = be_int(p + o, 4);
        o += 4;
        if (l > len - o) return -1;
        el[*n] = p + o;
        el_len[*n] = l < 0 ? -1 : (int)l;
        (*n)++;
        if (l > 0) o += (int)l;
    }
    return 0;
}

/* The seats of entry `e` from the names (text[]) in column `names` and the scores (int4[])
 * in column `scores` of row `r`: element i is seat i. */
static void take_seats(const PGresult *res, int r, int names, int scores,
                       struct store_inbox_entry *e)
{
    const unsigned char *el[CC_MAX_PLAYERS], *sc[CC_MAX_PLAYERS];
    int el_len[CC_MAX_PLAYERS], sc_len[CC_MAX_PLAYERS], n = 0, ns = 0;
    if (PQgetisnull(res, r, names) ||
        array_elements((const unsigned char *)PQgetvalue(res, r, names), PQgetlength(res, r, names),
                       CC_MAX_PLAYERS, el, el_len, &n))
        n = 0;
    if (PQgetisnull(res, r, scores) ||
        array_elements((const unsigned char *)PQgetvalue(res, r, scores),
                       PQgetlength(res, r, scores), CC_MAX_PLAYERS, sc, sc_len, &ns))
        ns = 0;
    e->nseats = n;
    for (int i = 0; i < n; i++) {
        struct store_inbox_seat *st = &e->seats[i];
        size_t l = el_len[i] < 0 ? 0 : (size_t)el_len[i];
        if (l > sizeof st->name - 1) l = sizeof st->name - 1;
        st->seat = i;
        memcpy(st->name, el[i], l);
        st->name[l] = '\0';
        st->has_score = i < ns && sc_len[i] == 4;
        st->score = st->has_score ? (int)be_int(sc[i], 4) : 0;
    }
}

/* The ratings of the seats of entry `e` (0025) from the int4[] columns `before` and `after`
 * of row `r` (NULL: not rated). */
static void take_ratings(const PGresult *res, int r, int before, int after,
                         struct store_inbox_entry *e)
{
    const unsigned char *b[CC_MAX_PLAYERS], *a[CC_MAX_PLAYERS];
    int b_len[CC_MAX_PLAYERS], a_len[CC_MAX_PLAYERS], nb = 0, na = 0;
    if (PQgetisnull(res, r, before) || PQgetisnull(res, r, after) ||
        array_elements((const unsigned char *)PQgetvalue(res, r, before),
                       PQgetlength(res, r, before), CC_MAX_PLAYERS, b, b_len, &nb) ||
        array_elements((const unsigned char *)PQgetvalue(res, r, after), PQgetlength(res, r, after),
                       CC_MAX_PLAYERS, a, a_len, &na))
        return;
    for (int i = 0; i < e->nseats && i < nb && i < na; i++) {
        struct store_inbox_seat *st = &e->seats[i];
        st->has_rating = b_len[i] == 4 && a_len[i] == 4;
        if (!st->has_rating) continue;
        st->rating_before = (int)be_int(b[i], 4);
        st->rating_after = (int)be_int(a[i], 4);
    }
}

/* A page of statement `st` for the person found by its first parameter `key` (`key_len`
 * bytes, binary; 0: text): store_inbox_page() and store_player_games_page(). */
static enum store_status inbox_page(enum stmt st, const char *key, int key_len,
                                    const struct store_inbox_query *q, struct store_person *who,
                                    struct store_inbox_page *out)
{
    memset(out, 0, sizeof *out);
    memset(who, 0, sizeof *who);
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
    const char *vals[9] = {key, lo, hi, rank, deadline, recency, game, limit, q->status};
    /* The hash in binary; the other parameters as text (lens 0). */
    int lens[9] = {key_len};
    PGresult *res;
    enum store_status s = db_run_fmt(&pg, st, q->status ? 9 : 8, vals, lens, 1, &res);
    if (s != STORE_OK) return s;
    int rows = PQntuples(res);
    if (rows < 1) {
        PQclear(res);
        return STORE_NOT_FOUND;
    }
    /* The person found: none when it is no person's hash or id. */
    if (PQgetisnull(res, 0, 0)) {
        PQclear(res);
        return STORE_NOT_FOUND;
    }
    size_t il = (size_t)PQgetlength(res, 0, 0), nl = (size_t)PQgetlength(res, 0, 1);
    if (il != AUTH_UUID_LEN || nl > STORE_NAME_MAX || PQgetlength(res, 0, 2) != AUTH_HASH_LEN) {
        PQclear(res);
        return STORE_ERROR;
    }
    copy_col(res, 0, 0, who->id, sizeof who->id);
    copy_col(res, 0, 1, who->name, sizeof who->name);
    memcpy(who->token_hash, PQgetvalue(res, 0, 2), AUTH_HASH_LEN);
    who->suspended = col_ll(res, 0, 20, 0) != 0; /* 0026 */
    out->my_turn_count = (long)col_ll(res, 0, 3, 0);
    if (PQgetisnull(res, 0, 4)) {
        PQclear(res);
        return STORE_OK;
    }
    out->entries = calloc((size_t)q->limit + 1, sizeof *out->entries);
    if (!out->entries) {
        PQclear(res);
        return STORE_ERROR;
    }
    int n = 0;
    for (int r = 0; r < rows && n < q->limit + 1; r++) {
        struct store_inbox_entry *e = &out->entries[n++];
        copy_col(res, r, 4, e->key.game, sizeof e->key.game);
        e->seat = (int)col_ll(res, r, 5, 0);
        e->key.rank = (int)col_ll(res, r, 6, 1);
        e->key.deadline = col_ll(res, r, 7, 0);
        e->key.recency = col_ll(res, r, 8, 0);
        copy_col(res, r, 9, e->ruleset, sizeof e->ruleset);
        copy_col(res, r, 10, e->status, sizeof e->status);
        e->version = (int)col_ll(res, r, 11, 0);
        e->turn_number = (int)col_ll(res, r, 12, -1);
        e->turn_seat = (int)col_ll(res, r, 13, -1);
        copy_col(res, r, 14, e->turn_phase, sizeof e->turn_phase);
        take_seats(res, r, 15, 16, e);
        e->rated = col_ll(res, r, 17, 0) == 1;
        take_ratings(res, r, 18, 19, e);
    }
    PQclear(res);
    out->more = n > q->limit;
    out->n = out->more ? q->limit : n;
    return STORE_OK;
}

enum store_status store_inbox_page(const uint8_t token_hash[AUTH_HASH_LEN],
                                   const struct store_inbox_query *q, struct store_person *who,
                                   struct store_inbox_page *out)
{
    return inbox_page(q->status ? ST_INBOX_PAGE_STATUS : ST_INBOX_PAGE, (const char *)token_hash,
                      AUTH_HASH_LEN, q, who, out);
}

enum store_status store_player_games_page(const char *person_id, const struct store_inbox_query *q,
                                          struct store_person *who, struct store_inbox_page *out)
{
    if (!q->status) {
        memset(out, 0, sizeof *out);
        return STORE_ERROR;
    }
    return inbox_page(ST_PLAYER_GAMES_PAGE, person_id, 0, q, who, out);
}

enum store_status store_server_key(const char *name, uint8_t out[STORE_SERVER_KEY_LEN])
{
    PGresult *res;
    enum store_status s = db_row_of(ST_SERVER_KEY, name, 1, &res);
    if (s != STORE_OK) return s;
    if (PQgetlength(res, 0, 0) == STORE_SERVER_KEY_LEN)
        memcpy(out, PQgetvalue(res, 0, 0), STORE_SERVER_KEY_LEN);
    else
        s = STORE_NOT_FOUND;
    PQclear(res);
    return s;
}

void store_inbox_free(struct store_inbox_page *p)
{
    free(p->entries);
    p->entries = NULL;
    p->n = 0;
}

enum store_status store_person_hook_set(const char *person, const char *url, const char *secret,
                                        const char *format, const struct store_idem *idem)
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    const char *vals[4] = {person, url, secret, format};
    long n = 0;
    enum store_status s = db_begin(&pg);
    if (s == STORE_OK) s = db_run_cmd(&pg, ST_PERSON_HOOK_PUT, 4, vals, NULL, &n);
    if (s == STORE_OK && n != 1) s = STORE_NOT_FOUND;
    if (s == STORE_OK) s = db_run_cmd(&pg, ST_PERSON_HOOK_ROWS, 4, vals, NULL, NULL);
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

enum store_status store_person_hook_get(const char *person, struct store_person_hook_state *out)
{
    memset(out, 0, sizeof *out);
    PGresult *res;
    enum store_status s = db_row_of(ST_PERSON_HOOK_STATE, person, 0, &res);
    if (s != STORE_OK) return s;
    struct store_webhook_state *w = &out->w;
    db_copy_text(res, 0, w->url, sizeof w->url);
    db_copy_text(res, 1, w->since, sizeof w->since);
    out->games = db_long(res, 0, 2, 0);
    w->failed_attempts = db_long(res, 0, 3, 0);
    w->delivered = db_long(res, 0, 4, 0);
    w->pending = db_long(res, 0, 5, 0);
    w->gave_up = db_long(res, 0, 6, 0);
    w->delivered_up_to = -1;
    w->has_error = !PQgetisnull(res, 0, 7);
    db_copy_text(res, 7, out->error_game, sizeof out->error_game);
    db_copy_text(res, 8, w->last_error, sizeof w->last_error);
    w->last_error_seq = (int)db_long(res, 0, 9, -1);
    w->last_error_status = (int)db_long(res, 0, 10, -1);
    db_copy_text(res, 11, w->last_error_at, sizeof w->last_error_at);
    db_copy_text(res, 12, w->format, sizeof w->format);
    PQclear(res);
    return STORE_OK;
}
