/* store_batch.c: the commits of several games in one statement (the group commit of
 * batcher.c): each commit's row kept as a copy, and the batch sent as binary arrays. */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libpq-fe.h>

#include "store_db.h"
#include "store_games.h"

/* The parameters of ST_GAME_COMMIT_ROWS, in its order: an array of each, an element a
 * commit. */
enum row_param {
    RP_ID,
    RP_VERSION,
    RP_STATUS,
    RP_LAST_SEQ,
    RP_SNAPSHOT,
    RP_SEAT,
    RP_KIND,
    RP_ACTION,
    RP_EVENTS,
    RP_RESULT,
    RP_TURN_NUMBER,
    RP_TURN_SEAT,
    RP_TURN_PHASE,
    RP_SCORES,
    RP_CLOCK,
    RP_DEADLINE,
    RP_COUNT
};

#define OID_BYTEA 17
#define OID_INT4  23
#define OID_TEXT  25
#define OID_UUID  2950

/* The element type of each parameter. */
static const int32_t param_oid[RP_COUNT] = {
    [RP_ID] = OID_UUID,         [RP_VERSION] = OID_INT4,     [RP_STATUS] = OID_TEXT,
    [RP_LAST_SEQ] = OID_INT4,   [RP_SNAPSHOT] = OID_BYTEA,   [RP_SEAT] = OID_INT4,
    [RP_KIND] = OID_TEXT,       [RP_ACTION] = OID_TEXT,      [RP_EVENTS] = OID_TEXT,
    [RP_RESULT] = OID_TEXT,     [RP_TURN_NUMBER] = OID_INT4, [RP_TURN_SEAT] = OID_INT4,
    [RP_TURN_PHASE] = OID_TEXT, [RP_SCORES] = OID_TEXT,      [RP_CLOCK] = OID_TEXT,
    [RP_DEADLINE] = OID_TEXT,
};

/* A commit as the batch sends it: what store_commit points at, copied (one allocation),
 * each parameter's element by its index: an integer, or bytes (NULL: null). */
struct store_row {
    char id[AUTH_UUID_LEN + 1];  /* RP_ID, as text */
    int32_t num[RP_COUNT];       /* the integers */
    const char *bytes[RP_COUNT]; /* the texts and the snapshot (into data), NULL: null */
    size_t len[RP_COUNT];        /* their bytes */
    char data[];                 /* the snapshot, then the texts */
};

int store_commit_batchable(const struct store_commit *c)
{
    return !c->idem && !c->rate && !(c->jobs && c->jobs->n);
}

struct store_row *store_commit_row(const struct store_commit *c)
{
    char scores[16 * CC_MAX_PLAYERS + 3];
    size_t o = 0;
    scores[o++] = '{';
    for (int i = 0; c->turn.phase && i < c->turn.nscores && i < CC_MAX_PLAYERS; i++)
        o += (size_t)snprintf(scores + o, sizeof scores - o, "%s%d", i ? "," : "",
                              c->turn.scores[i]);
    scores[o++] = '}';
    scores[o] = '\0';
    const char *bytes[RP_COUNT] = {
        [RP_STATUS] = c->status,
        [RP_SNAPSHOT] = (const char *)c->snapshot,
        [RP_KIND] = c->kind,
        [RP_ACTION] = c->kind ? c->action_json : NULL,
        [RP_EVENTS] = c->events_json,
        [RP_RESULT] = c->result,
        [RP_TURN_PHASE] = c->turn.phase,
        [RP_SCORES] = c->turn.phase ? scores : NULL,
        [RP_CLOCK] = c->clock_json,
        [RP_DEADLINE] = c->clock_json ? c->deadline : NULL,
    };
    size_t len[RP_COUNT] = {0}, size = 0;
    for (int p = 0; p < RP_COUNT; p++) {
        if (bytes[p]) len[p] = p == RP_SNAPSHOT ? c->snapshot_len : strlen(bytes[p]);
        size += len[p];
    }
    struct store_row *r = malloc(sizeof *r + size);
    if (!r) return NULL;
    snprintf(r->id, sizeof r->id, "%s", c->id);
    int has_seat = c->turn.phase && c->turn.seat >= 0;
    const int32_t num[RP_COUNT] = {
        [RP_VERSION] = c->version,
        [RP_LAST_SEQ] = c->last_seq,
        [RP_SEAT] = c->seat,
        [RP_TURN_NUMBER] = c->turn.number,
        [RP_TURN_SEAT] = has_seat ? c->turn.seat : 0,
    };
    memcpy(r->num, num, sizeof num);
    char *at = r->data;
    for (int p = 0; p < RP_COUNT; p++) {
        r->bytes[p] = bytes[p] ? at : NULL;
        r->len[p] = len[p];
        if (bytes[p]) memcpy(at, bytes[p], len[p]);
        at += len[p];
    }
    /* The one integer that may be null: no seat to move (the game over). */
    r->bytes[RP_TURN_SEAT] = has_seat ? "" : NULL;
    return r;
}

/*
 * A one-dimensional array in PostgreSQL's binary form (array_recv): its header (dimensions,
 * whether it has NULLs, the element type, the length and lower bound), then each element's
 * length (-1: NULL) and bytes in the element type's binary form.
 */
struct array {
    uint8_t *p; /* the bytes, malloc'd */
    size_t len; /* in use */
    size_t cap; /* allocated */
    int failed; /* 1: memory ran out */
};

/* Appends `n` bytes of `b` to `a`. */
static void put(struct array *a, const void *b, size_t n)
{
    if (a->failed) return;
    if (a->len + n > a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 256;
        while (cap < a->len + n) cap *= 2;
        uint8_t *p = realloc(a->p, cap);
        if (!p) {
            a->failed = 1;
            return;
        }
        a->p = p;
        a->cap = cap;
    }
    memcpy(a->p + a->len, b, n);
    a->len += n;
}

/* Appends a 32-bit integer in network order. */
static void put32(struct array *a, int32_t v)
{
    uint32_t be = htonl((uint32_t)v);
    put(a, &be, sizeof be);
}

/* Starts array `a` of `n` elements of type `oid` (any may be NULL). */
static void array_begin(struct array *a, int32_t oid, int32_t n)
{
    memset(a, 0, sizeof *a);
    put32(a, 1);   /* dimensions */
    put32(a, 1);   /* may have NULLs (array_recv finds them by their length) */
    put32(a, oid); /* element type */
    put32(a, n);   /* length */
    put32(a, 1);   /* lower bound */
}

/* An element of `len` bytes at `b`, or NULL (b NULL). */
static void array_bytes(struct array *a, const void *b, size_t len)
{
    if (!b) {
        put32(a, -1);
        return;
    }
    put32(a, (int32_t)len);
    put(a, b, len);
}

static void array_int(struct array *a, int32_t v)
{
    put32(a, 4);
    put32(a, v);
}

/* A UUID's 16 bytes from its text (hex digits, dashes passed over). */
static void array_uuid(struct array *a, const char *id)
{
    uint8_t b[16] = {0};
    size_t n = 0;
    for (const char *p = id; *p && n < 32; p++) {
        int v = *p >= '0' && *p <= '9'   ? *p - '0'
                : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
                : *p >= 'A' && *p <= 'F' ? *p - 'A' + 10
                                         : -1;
        if (v < 0) continue;
        b[n / 2] = (uint8_t)(b[n / 2] | v << (n % 2 ? 0 : 4));
        n++;
    }
    array_bytes(a, b, sizeof b);
}

/* Appends row `r`'s element of parameter `p` to `a`. */
static void row_element(struct array *a, int p, const struct store_row *r)
{
    switch (param_oid[p]) {
    case OID_UUID:
        array_uuid(a, r->id);
        break;
    case OID_INT4:
        if (p == RP_TURN_SEAT && !r->bytes[p])
            array_bytes(a, NULL, 0);
        else
            array_int(a, r->num[p]);
        break;
    default:
        array_bytes(a, r->bytes[p], r->len[p]);
    }
}

/* Commits rows[i] of the `which` (n of them) in one statement: st of each; returns how the
 * statement went (STORE_OK: each st is STORE_OK or STORE_CONFLICT). */
static enum store_status commit_rows(PGconn **pgp, const struct store_row *const *rows,
                                     const size_t *which, size_t n, enum store_status *st)
{
    struct array params[RP_COUNT];
    const char *vals[RP_COUNT];
    int lens[RP_COUNT], failed = 0;
    for (int p = 0; p < RP_COUNT; p++) {
        array_begin(&params[p], param_oid[p], (int32_t)n);
        for (size_t k = 0; k < n; k++) row_element(&params[p], p, rows[which[k]]);
        vals[p] = (const char *)params[p].p;
        lens[p] = (int)params[p].len; /* nonzero: sent in binary */
        failed |= params[p].failed;
    }
    PGresult *res = NULL;
    enum store_status s =
        failed ? STORE_ERROR : db_run(pgp, ST_GAME_COMMIT_ROWS, RP_COUNT, vals, lens, &res);
    for (int p = 0; p < RP_COUNT; p++) free(params[p].p);
    /* Alone, as store_game_commit(): a version that moved on shows as a duplicate action
     * or event key too. */
    for (size_t k = 0; k < n; k++)
        st[which[k]] = s == STORE_OK || s == STORE_DUPLICATE ? STORE_CONFLICT : s;
    if (s != STORE_OK) return s;
    long deliveries = 0;
    for (int r = 0; r < PQntuples(res); r++) {
        const char *id = PQgetvalue(res, r, 0);
        for (size_t k = 0; k < n; k++)
            if (strcasecmp(rows[which[k]]->id, id) == 0) st[which[k]] = STORE_OK;
        deliveries = db_long(res, r, 1, 0);
    }
    PQclear(res);
    store_wake(deliveries, 0);
    return STORE_OK;
}

void store_game_commit_rows(const struct store_row *const *rows, const unsigned *epochs, size_t n,
                            enum store_status *st)
{
    PGconn *pg = db_conn();
    size_t which[STORE_COMMIT_ROWS_MAX], m = 0;
    for (size_t i = 0; i < n; i++) {
        st[i] = STORE_UNAVAILABLE;
        /* As store_game_commit(): not on top of a state read from a primary gone since. */
        if (pg && m < STORE_COMMIT_ROWS_MAX &&
            !(epochs[i] && store_epoch() && epochs[i] != store_epoch()))
            which[m++] = i;
    }
    if (!m) return;
    enum store_status s = commit_rows(&pg, rows, which, m, st);
    /* The statement failed, perhaps for one commit's sake (a key taken, a deadlock, an
     * error), and wrote nothing: each alone, with its own outcome. A lost connection is not
     * repeated (the statement may have been committed), as store_game_commit() does not. */
    if (m == 1 || s == STORE_OK || s == STORE_UNAVAILABLE) return;
    for (size_t k = 0; k < m; k++) (void)commit_rows(&pg, rows, which + k, 1, st);
}
