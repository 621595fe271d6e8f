/* db.c: stored games read with libpq, and replayed with the engine. */
#include "db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <libpq-fe.h>

#include "game.h"

/* A connection to DATABASE_URL, or NULL (with `why`). */
static PGconn *connect_db(char *why, size_t cap)
{
    const char *url = getenv("DATABASE_URL");
    if (!url) {
        snprintf(why, cap, "DATABASE_URL is not set");
        return NULL;
    }
    PGconn *pg = PQconnectdb(url);
    if (PQstatus(pg) != CONNECTION_OK) {
        snprintf(why, cap, "cannot connect: %s", PQerrorMessage(pg));
        PQfinish(pg);
        return NULL;
    }
    return pg;
}

/* Runs `sql` with text parameters; NULL (with `why`) unless it returned rows. */
static PGresult *query(PGconn *pg, const char *sql, int n, const char *const *vals, int binary,
                       char *why, size_t cap)
{
    PGresult *r = PQexecParams(pg, sql, n, NULL, vals, NULL, NULL, binary);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        snprintf(why, cap, "query failed: %s", PQresultErrorMessage(r));
        PQclear(r);
        return NULL;
    }
    return r;
}

void db_game_free(struct db_game *g)
{
    free(g->snapshot);
    memset(g, 0, sizeof *g);
}

int db_game_read(const char *id, struct db_game *out, char *why, size_t cap)
{
    memset(out, 0, sizeof *out);
    PGconn *pg = connect_db(why, cap);
    if (!pg) return -1;
    const char *vals[1] = {id};
    /* Text results; the snapshot comes as bytea's hex text and is decoded. */
    PGresult *r = query(pg,
                        "SELECT version, last_seq, status, snapshot, "
                        "(SELECT count(*) FROM actions WHERE game_id = g.id), "
                        "(SELECT count(*) FROM events WHERE game_id = g.id), "
                        "(SELECT count(*) FROM players WHERE game_id = g.id) "
                        "FROM games g WHERE id = $1::uuid",
                        1, vals, 0, why, cap);
    int rc = -1;
    if (!r) goto out;
    rc = 0;
    if (PQntuples(r) != 1) goto out;
    out->found = 1;
    out->version = (int)strtol(PQgetvalue(r, 0, 0), NULL, 10);
    out->last_seq = (int)strtol(PQgetvalue(r, 0, 1), NULL, 10);
    snprintf(out->status, sizeof out->status, "%s", PQgetvalue(r, 0, 2));
    size_t len = 0;
    unsigned char *bytes = PQunescapeBytea((const unsigned char *)PQgetvalue(r, 0, 3), &len);
    if (bytes) {
        out->snapshot = malloc(len ? len : 1);
        if (out->snapshot) memcpy(out->snapshot, bytes, len);
        out->snapshot_len = len;
        PQfreemem(bytes);
    }
    out->actions = strtol(PQgetvalue(r, 0, 4), NULL, 10);
    out->events = strtol(PQgetvalue(r, 0, 5), NULL, 10);
    out->players = strtol(PQgetvalue(r, 0, 6), NULL, 10);
out:
    PQclear(r);
    PQfinish(pg);
    return rc;
}

int db_game_same(const struct db_game *a, const struct db_game *b)
{
    return a->found == b->found && a->version == b->version && a->last_seq == b->last_seq &&
           strcmp(a->status, b->status) == 0 && a->snapshot_len == b->snapshot_len &&
           (a->snapshot_len == 0 || memcmp(a->snapshot, b->snapshot, a->snapshot_len) == 0) &&
           a->actions == b->actions && a->events == b->events && a->players == b->players;
}

/* The tile type of id `s` in `ts`, or -1. */
static int tile_of(const struct cc_tileset *ts, const cJSON *s)
{
    return cJSON_IsString(s) && ts ? cc_tileset_find(ts, s->valuestring) : -1;
}

/* Decodes one stored action (actions.body) into `a`. 0 or -1. */
static int decode_action(const cJSON *j, const struct cc_tileset *ts, struct cc_action *a)
{
    memset(a, 0, sizeof *a);
    a->tile = CC_NO_TILE;
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(j, "kind");
    const cJSON *seat = cJSON_GetObjectItemCaseSensitive(j, "seat");
    if (!cJSON_IsString(kind) || !cJSON_IsNumber(seat)) return -1;
    a->seat = (uint8_t)seat->valueint;
    if (strcmp(kind->valuestring, "draw") == 0) {
        a->kind = CC_ACTION_DRAW;
        return 0;
    }
    if (strcmp(kind->valuestring, "resign") == 0) { /* POST .../resign (core/resign.c) */
        a->kind = CC_ACTION_RESIGN;
        return 0;
    }
    a->kind = CC_ACTION_PLACE;
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(j, "x");
    const cJSON *y = cJSON_GetObjectItemCaseSensitive(j, "y");
    const cJSON *rot = cJSON_GetObjectItemCaseSensitive(j, "rotation");
    if (!cJSON_IsNumber(x) || !cJSON_IsNumber(y) || !cJSON_IsNumber(rot)) return -1;
    a->x = (int16_t)x->valueint;
    a->y = (int16_t)y->valueint;
    a->rot = (uint8_t)(rot->valueint / 90);
    const cJSON *tile = cJSON_GetObjectItemCaseSensitive(j, "tile");
    if (tile) {
        int t = tile_of(ts, tile);
        if (t < 0) return -1;
        a->tile = (uint8_t)t;
    }
    const cJSON *fol = cJSON_GetObjectItemCaseSensitive(j, "follower");
    const cJSON *stable = cJSON_GetObjectItemCaseSensitive(j, "stable");
    const cJSON *hike = cJSON_GetObjectItemCaseSensitive(j, "hike");
    const cJSON *wd = cJSON_GetObjectItemCaseSensitive(j, "withdraw");
    if (fol || stable) {
        const cJSON *v = fol ? fol : stable;
        int l = cJSON_IsString(v) ? cc_location_parse(v->valuestring) : -1;
        if (l < 0) return -1;
        a->follow = fol ? CC_FOLLOW_FOLLOWER : CC_FOLLOW_STABLE;
        a->loc = (uint8_t)l;
        /* The expansions' figures by the API's names (the test's own list). */
        static const char *const figures[CC_PIECE_KIND_COUNT] = {[CC_PIECE_FOLLOWER] = "follower",
                                                                 [CC_PIECE_LARGE] = "large",
                                                                 [CC_PIECE_BUILDER] = "builder",
                                                                 [CC_PIECE_PIG] = "pig"};
        const cJSON *fig = cJSON_GetObjectItemCaseSensitive(j, "figure");
        if (fig) {
            int k = -1;
            for (int i = 0; i < CC_PIECE_KIND_COUNT && cJSON_IsString(fig); i++)
                if (figures[i] && strcmp(fig->valuestring, figures[i]) == 0) k = i;
            if (k < 0) return -1;
            a->figure = (uint8_t)k;
        }
    } else if (hike || wd) {
        const cJSON *v = hike ? hike : wd;
        const cJSON *fx = cJSON_GetObjectItemCaseSensitive(v, "x");
        const cJSON *fy = cJSON_GetObjectItemCaseSensitive(v, "y");
        const cJSON *where = cJSON_GetObjectItemCaseSensitive(v, hike ? "toward" : "location");
        if (!cJSON_IsNumber(fx) || !cJSON_IsNumber(fy) || !cJSON_IsString(where)) return -1;
        a->fx = (int16_t)fx->valueint;
        a->fy = (int16_t)fy->valueint;
        int l = -1;
        if (hike) {
            static const char *const sides[] = {"N", "E", "S", "W"};
            for (int s = 0; s < 4; s++)
                if (strcmp(where->valuestring, sides[s]) == 0) l = s;
        } else {
            l = cc_location_parse(where->valuestring);
        }
        if (l < 0) return -1;
        a->follow = hike ? CC_FOLLOW_HIKE : CC_FOLLOW_WITHDRAW;
        a->loc = (uint8_t)l;
    }
    return 0;
}

/* Fills `s` from the stored setup columns of row 0 of `r`. 0 or -1 (with why). */
static int decode_setup(PGresult *r, struct cc_setup *s, char *why, size_t cap)
{
    memset(s, 0, sizeof *s);
    int ruleset = cc_ruleset_parse(PQgetvalue(r, 0, 0));
    if (ruleset < 0) return snprintf(why, cap, "ruleset %s", PQgetvalue(r, 0, 0)), -1;
    s->ruleset = (uint8_t)ruleset;
    const struct cc_tileset *ts = cc_tileset_get((enum cc_ruleset)ruleset);
    cJSON *opt = cJSON_Parse(PQgetvalue(r, 0, 1));
    const cJSON *ed = cJSON_GetObjectItemCaseSensitive(opt, "edition");
    const cJSON *river = cJSON_GetObjectItemCaseSensitive(opt, "river");
    const cJSON *draw = cJSON_GetObjectItemCaseSensitive(opt, "draw");
    if (cJSON_IsString(ed) && strcmp(ed->valuestring, "original") == 0)
        s->options.edition = CC_EDITION_ORIGINAL;
    if (cJSON_IsTrue(river)) s->options.river = 1;
    if (cJSON_IsString(draw) && strcmp(draw->valuestring, "hand") == 0)
        s->options.draw = CC_DRAW_HAND;
    const cJSON *exp = cJSON_GetObjectItemCaseSensitive(opt, "expansions"), *e;
    cJSON_ArrayForEach(e, exp)
    {
        if (cJSON_IsString(e) && strcmp(e->valuestring, "inns") == 0)
            s->options.expansions |= CC_EXP_INNS;
        if (cJSON_IsString(e) && strcmp(e->valuestring, "traders") == 0)
            s->options.expansions |= CC_EXP_TRADERS;
    }
    const cJSON *inn = cJSON_GetObjectItemCaseSensitive(opt, "inn_cathedral_final");
    if (cJSON_IsString(inn) && strcmp(inn->valuestring, "ignore") == 0)
        s->options.inn_final = CC_INN_FINAL_IGNORE;
    cJSON_Delete(opt);
    s->seed = strtoull(PQgetvalue(r, 0, 2), NULL, 10);
    s->start = -1;
    if (!PQgetisnull(r, 0, 3)) {
        int t = ts ? cc_tileset_find(ts, PQgetvalue(r, 0, 3)) : -1;
        if (t < 0) return snprintf(why, cap, "start tile %s", PQgetvalue(r, 0, 3)), -1;
        s->start = (int16_t)t;
    }
    s->deck_len = -1;
    if (!PQgetisnull(r, 0, 4)) {
        cJSON *deck = cJSON_Parse(PQgetvalue(r, 0, 4));
        int n = 0, bad = !cJSON_IsArray(deck);
        const cJSON *d;
        cJSON_ArrayForEach(d, deck)
        {
            int t = tile_of(ts, d);
            if (t < 0 || n >= CC_MAX_DECK)
                bad = 1;
            else
                s->deck[n++] = (uint8_t)t;
        }
        cJSON_Delete(deck);
        if (bad) return snprintf(why, cap, "custom deck %.80s", PQgetvalue(r, 0, 4)), -1;
        s->deck_len = (int16_t)n;
    }
    s->nplayers = (uint8_t)strtol(PQgetvalue(r, 0, 5), NULL, 10);
    return 0;
}

/* The events `evs` of game `id` (seq, version, payload) must be numbered 1 to its last_seq,
 * each payload carrying its own seq, at versions the game has reached. 0, or -1 with `why`. */
static int events_numbered(const PGresult *evs, const char *id, const struct db_game *row,
                           char *why, size_t cap)
{
    int ne = PQntuples(evs);
    if (ne != row->last_seq)
        return snprintf(why, cap, "game %s: last_seq %d but %d events", id, row->last_seq, ne), -1;
    for (int i = 0; i < ne; i++) {
        int seq = (int)strtol(PQgetvalue(evs, i, 0), NULL, 10);
        int v = (int)strtol(PQgetvalue(evs, i, 1), NULL, 10);
        cJSON *p = cJSON_Parse(PQgetvalue(evs, i, 2));
        const cJSON *ps = cJSON_GetObjectItemCaseSensitive(p, "seq");
        int payload_seq = cJSON_IsNumber(ps) ? ps->valueint : -1;
        cJSON_Delete(p);
        if (seq != i + 1 || payload_seq != seq || v < 1 || v > row->version)
            return snprintf(why, cap, "game %s: event %d has seq %d (payload %d), version %d of %d",
                            id, i + 1, seq, payload_seq, v, row->version),
                   -1;
    }
    return 0;
}

int db_replay_check(const char *id, char *why, size_t cap)
{
    PGconn *pg = connect_db(why, cap);
    if (!pg) return -1;
    static __thread struct cc_game g;
    static __thread uint8_t buf[CC_SNAPSHOT_MAX];
    int rc = -1;
    PGresult *setup = NULL, *acts = NULL, *evs = NULL;
    struct db_game row = {0};
    const char *vals[1] = {id};
    setup = query(pg,
                  "SELECT ruleset, options::text, seed::text, start_tile, custom_deck::text, "
                  "(SELECT count(*) FROM players WHERE game_id = g.id) FROM games g "
                  "WHERE id = $1::uuid",
                  1, vals, 0, why, cap);
    if (!setup) goto out;
    if (PQntuples(setup) != 1) {
        snprintf(why, cap, "game %s is not stored", id);
        goto out;
    }
    if (db_game_read(id, &row, why, cap) || !row.found) goto out;
    struct cc_setup s;
    if (decode_setup(setup, &s, why, cap)) goto out;
    if (cc_game_new(&g, &s, NULL) != CC_OK) {
        snprintf(why, cap, "game %s: its stored setup is refused by the engine", id);
        goto out;
    }
    const struct cc_tileset *ts = cc_tileset_get((enum cc_ruleset)s.ruleset);
    /* Counted in the row's own statement: no action or event beyond the row's version. */
    if (row.actions != row.version - 1 || row.events != row.last_seq) {
        snprintf(why, cap, "game %s: version %d and last_seq %d, but %ld actions and %ld events",
                 id, row.version, row.last_seq, row.actions, row.events);
        goto out;
    }
    /* Only what the row read above had: a game still going on (a computer player's or a
     * clock's turn) commits more, each with its row, actions and events in one transaction. */
    char version[16], last_seq[16];
    snprintf(version, sizeof version, "%d", row.version);
    snprintf(last_seq, sizeof last_seq, "%d", row.last_seq);
    const char *upto_version[2] = {id, version}, *upto_seq[2] = {id, last_seq};
    acts = query(pg,
                 "SELECT version, body::text FROM actions WHERE game_id = $1::uuid AND version "
                 "<= $2::integer ORDER BY version",
                 2, upto_version, 0, why, cap);
    if (!acts) goto out;
    int n = PQntuples(acts);
    if (n != row.version - 1) {
        snprintf(why, cap, "game %s: version %d but %d actions", id, row.version, n);
        goto out;
    }
    for (int i = 0; i < n; i++) {
        int v = (int)strtol(PQgetvalue(acts, i, 0), NULL, 10);
        if (v != i + 2) {
            snprintf(why, cap, "game %s: action %d has version %d", id, i, v);
            goto out;
        }
        cJSON *j = cJSON_Parse(PQgetvalue(acts, i, 1));
        /* A join or an abort (0009) moves the version on, not the engine's state. */
        const char *kind = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "kind"));
        if (kind && (strcmp(kind, "join") == 0 || strcmp(kind, "abort") == 0)) {
            cJSON_Delete(j);
            continue;
        }
        struct cc_action a;
        int bad = !j || decode_action(j, ts, &a);
        cJSON_Delete(j);
        enum cc_status st = bad ? CC_ERR_CORRUPT : cc_game_apply(&g, &a, NULL);
        if (st != CC_OK) {
            snprintf(why, cap, "game %s: action of version %d (%.120s) replays as %s", id, v,
                     PQgetvalue(acts, i, 1), cc_status_name(st));
            goto out;
        }
    }
    size_t len = cc_game_encode(&g, buf, sizeof buf);
    if (len == 0 || len != row.snapshot_len || memcmp(buf, row.snapshot, len) != 0) {
        snprintf(why, cap,
                 "game %s: the replay of %d actions (%zu bytes) differs from the stored "
                 "snapshot (%zu bytes)",
                 id, n, len, row.snapshot_len);
        goto out;
    }
    evs = query(pg,
                "SELECT seq, version, payload::text FROM events WHERE game_id = $1::uuid AND seq "
                "<= $2::integer ORDER BY seq",
                2, upto_seq, 0, why, cap);
    if (evs) rc = events_numbered(evs, id, &row, why, cap);
out:
    PQclear(setup);
    PQclear(acts);
    PQclear(evs);
    db_game_free(&row);
    PQfinish(pg);
    return rc;
}

int db_log_sound(const char *id, char *why, size_t cap)
{
    if (db_replay_check(id, why, cap)) return -1;
    /* One statement, so that both counts see the same actions even while the game goes on. */
    long repeated = db_scalar_id("SELECT count(*) - count(DISTINCT (body->>'x', body->>'y')) "
                                 "FROM actions WHERE game_id = $1::uuid AND kind = 'place'",
                                 id);
    if (repeated != 0) {
        if (repeated < 0)
            snprintf(why, cap, "game %s: its placements could not be counted", id);
        else
            snprintf(why, cap, "game %s: %ld placements on a square already placed on", id,
                     repeated);
        return -1;
    }
    return 0;
}

int db_replay_all(int *checked, char *why, size_t cap)
{
    *checked = 0;
    PGconn *pg = connect_db(why, cap);
    if (!pg) return 1;
    PGresult *r = query(pg, "SELECT id::text FROM games ORDER BY created_at", 0, NULL, 0, why, cap);
    PQfinish(pg);
    if (!r) return 1;
    int failed = 0;
    char one[400];
    for (int i = 0; i < PQntuples(r); i++) {
        (*checked)++;
        if (db_replay_check(PQgetvalue(r, i, 0), one, sizeof one)) {
            if (!failed) snprintf(why, cap, "%s", one);
            failed++;
        }
    }
    PQclear(r);
    return failed;
}

int db_action_exists(const char *id, int version)
{
    char why[256], v[16];
    PGconn *pg = connect_db(why, sizeof why);
    if (!pg) return -1;
    snprintf(v, sizeof v, "%d", version);
    const char *vals[2] = {id, v};
    PGresult *r =
        query(pg, "SELECT 1 FROM actions WHERE game_id = $1::uuid AND version = $2::integer", 2,
              vals, 0, why, sizeof why);
    int rc = r ? PQntuples(r) == 1 : -1;
    PQclear(r);
    PQfinish(pg);
    return rc;
}

long db_scalar_params(const char *sql, int n, const char *const *vals)
{
    char why[256];
    PGconn *pg = connect_db(why, sizeof why);
    if (!pg) return -1;
    PGresult *r = query(pg, sql, n, vals, 0, why, sizeof why);
    long v =
        r && PQntuples(r) > 0 && !PQgetisnull(r, 0, 0) ? strtol(PQgetvalue(r, 0, 0), NULL, 10) : -1;
    PQclear(r);
    PQfinish(pg);
    return v;
}

long db_scalar_id(const char *sql, const char *id)
{
    const char *vals[1] = {id};
    return db_scalar_params(sql, 1, vals);
}

long db_job_lease(const char *id, const char *kind, int ms)
{
    char lease[16];
    snprintf(lease, sizeof lease, "%d", ms);
    const char *vals[3] = {id, kind, lease};
    return db_scalar_params("WITH u AS (UPDATE jobs SET due_at = now() + $3::integer * interval "
                            "'1 ms', claimed_until = now() + $3::integer * interval '1 ms', "
                            "attempts = 1 WHERE game_id = $1::uuid AND kind = $2 RETURNING 1) "
                            "SELECT count(*) FROM u",
                            3, vals);
}

long db_events_of(const char *id, const char *type)
{
    const char *vals[2] = {id, type};
    return db_scalar_params("SELECT count(*) FROM events WHERE game_id = $1::uuid AND type = $2", 2,
                            vals);
}

long db_seat_webhooks(const char *id, int seat)
{
    char owner[16];
    snprintf(owner, sizeof owner, "seat:%d", seat);
    const char *vals[2] = {id, owner};
    return db_scalar_params("SELECT count(*) FROM webhooks WHERE game_id = $1::uuid AND owner = $2",
                            2, vals);
}

long db_scalar(const char *sql)
{
    return db_scalar_params(sql, 0, NULL);
}
