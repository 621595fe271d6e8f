/* store_ratings.c: ratings in PostgreSQL (migrations/0023): a rated game's update inside
 * its ending transaction, and the readings of the rating tables. */
#include "store_ratings.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "log.h"
#include "store_db.h"

#define RATINGS_JSON_MAX 4096 /* bytes of one statement's JSON parameter (6 seats fit) */

/* Appends printf-style text to buf (size RATINGS_JSON_MAX) at *len; -1 when it is full. */
static int put(char *buf, size_t *len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int put(char *buf, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *len, RATINGS_JSON_MAX - *len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= RATINGS_JSON_MAX - *len) return -1;
    *len += (size_t)n;
    return 0;
}

/* A "name": "value" pair of JSON, or "name": null when value is NULL (values are plain:
 * ratings_subject checked them). */
static int put_str(char *buf, size_t *len, const char *name, const char *value)
{
    return value ? put(buf, len, "\"%s\":\"%s\"", name, value) : put(buf, len, "\"%s\":null", name);
}

/* The index of the seat of `g` whose subject is `subject`, or -1. */
static int seat_of(const struct ratings_change *out, int n, const char *subject)
{
    for (int i = 0; i < n; i++)
        if (strcmp(out[i].subject, subject) == 0) return i;
    return -1;
}

/* Makes the rows of first-time subjects and locks all of them: fills seats[] (ratings,
 * last rated) and *now_ms from the rows. */
static enum store_status lock_rows(PGconn **pgp, const struct ratings_game *g,
                                   struct ratings_change out[], struct ratings_seat seats[],
                                   long long *now_ms)
{
    char ensure[RATINGS_JSON_MAX], names[RATINGS_JSON_MAX];
    size_t el = 0, nl = 0;
    int bad = put(ensure, &el, "[") || put(names, &nl, "[");
    for (int i = 0; i < g->nseats && !bad; i++) {
        const struct ratings_game_seat *s = &g->seats[i];
        int person = s->person_id && *s->person_id;
        bad = put(ensure, &el, "%s{", i ? "," : "") || put_str(ensure, &el, "s", out[i].subject) ||
              put(ensure, &el, ",") || put_str(ensure, &el, "p", person ? s->person_id : NULL) ||
              put(ensure, &el, ",") || put_str(ensure, &el, "b", person ? NULL : s->bot) ||
              put(ensure, &el, ",") ||
              put_str(ensure, &el, "c", person ? NULL : ratings_think_class(s->think_ms)) ||
              put(ensure, &el, "}") || put(names, &nl, "%s\"%s\"", i ? "," : "", out[i].subject);
    }
    if (bad || put(ensure, &el, "]") || put(names, &nl, "]")) return STORE_ERROR;
    char r0[32], d0[32], v0[32];
    snprintf(r0, sizeof r0, "%.17g", GLICKO2_INITIAL_RATING);
    snprintf(d0, sizeof d0, "%.17g", GLICKO2_INITIAL_DEVIATION);
    snprintf(v0, sizeof v0, "%.17g", GLICKO2_INITIAL_VOLATILITY);
    const char *ev[5] = {g->pool, ensure, r0, d0, v0};
    enum store_status st = db_run_cmd(pgp, ST_RATINGS_ENSURE, 5, ev, NULL, NULL);
    if (st != STORE_OK) return st;
    const char *lv[2] = {g->pool, names};
    PGresult *res;
    st = db_run(pgp, ST_RATINGS_LOCK, 2, lv, NULL, &res);
    if (st != STORE_OK) return st;
    int rows = PQntuples(res);
    if (rows != g->nseats) st = STORE_ERROR;
    for (int r = 0; r < rows && st == STORE_OK; r++) {
        int i = seat_of(out, g->nseats, PQgetvalue(res, r, 0));
        if (i < 0) {
            st = STORE_ERROR;
            break;
        }
        seats[i].rating.rating = strtod(PQgetvalue(res, r, 1), NULL);
        seats[i].rating.deviation = strtod(PQgetvalue(res, r, 2), NULL);
        seats[i].rating.volatility = strtod(PQgetvalue(res, r, 3), NULL);
        out[i].games = (int)db_long(res, r, 4, 0) + 1;
        seats[i].last_rated_ms = db_long(res, r, 5, 0);
        *now_ms = db_long(res, r, 6, 0);
    }
    PQclear(res);
    /* What each seat brought to the game: its deviation aged to the database's now, as the
     * update used it (the history keeps the stored value: each point's before is the point
     * before's after). */
    for (int i = 0; i < g->nseats && st == STORE_OK; i++)
        out[i].before = ratings_seat_now(&seats[i], *now_ms);
    return st;
}

enum store_status ratings_apply_game(struct pg_conn **pgp, const struct ratings_game *g,
                                     struct ratings_change out[])
{
    if (g->nseats < 2 || g->nseats > RATINGS_MAX_SEATS) return STORE_ERROR;
    /* The pool goes into no JSON here, but a name that is not plain is no ruleset: the
     * same check as a level's (letters, digits, '-', '_'). */
    char pool_check[RATINGS_SUBJECT_MAX];
    if (ratings_subject(NULL, g->pool, 0, pool_check) != 0) return STORE_ERROR;
    memset(out, 0, sizeof *out * (size_t)g->nseats);
    struct ratings_seat_end ends[RATINGS_MAX_SEATS];
    int places[RATINGS_MAX_SEATS];
    for (int i = 0; i < g->nseats; i++) {
        const struct ratings_game_seat *s = &g->seats[i];
        if (ratings_subject(s->person_id, s->bot, s->think_ms, out[i].subject) != 0)
            return STORE_ERROR;
        ends[i].score = s->score;
        ends[i].out_at = s->out_at;
    }
    if (ratings_finishing_order(g->nseats, ends, places) != 0) return STORE_ERROR;
    for (int i = 0; i < g->nseats; i++) {
        out[i].place = places[i];
        if (seat_of(out, i, out[i].subject) >= 0) {
            log_kv(LOG_INFO, "rated game seats one rating twice: left unrated", "game", g->game_id,
                   (const char *)NULL);
            for (int j = 0; j < g->nseats; j++) out[j].rated = 0;
            return STORE_OK;
        }
    }
    struct ratings_seat seats[RATINGS_MAX_SEATS];
    long long now_ms = 0;
    enum store_status st = lock_rows((PGconn **)pgp, g, out, seats, &now_ms);
    if (st != STORE_OK) return st;
    for (int i = 0; i < g->nseats; i++) seats[i].place = places[i];
    struct glicko2_rating next[RATINGS_MAX_SEATS];
    struct glicko2_params params = glicko2_production();
    if (ratings_update_game(g->nseats, seats, now_ms, &params, next) != GLICKO2_OK) {
        log_kv(LOG_ERROR, "rating update refused the stored ratings", "game", g->game_id,
               (const char *)NULL);
        return STORE_ERROR;
    }
    char json[RATINGS_JSON_MAX];
    size_t len = 0;
    int bad = put(json, &len, "[");
    for (int i = 0; i < g->nseats && !bad; i++) {
        enum ratings_outcome o = ratings_outcome_of(g->nseats, places, i);
        bad =
            put(json, &len,
                "%s{\"seat\":%d,\"s\":\"%s\",\"place\":%d,\"w\":%d,\"d\":%d,\"l\":%d,"
                "\"rb\":%.17g,\"db\":%.17g,\"vb\":%.17g,\"ra\":%.17g,\"da\":%.17g,\"va\":%.17g}",
                i ? "," : "", i, out[i].subject, places[i], o == RATINGS_WON, o == RATINGS_DRAWN,
                o == RATINGS_LOST, seats[i].rating.rating, seats[i].rating.deviation,
                seats[i].rating.volatility, next[i].rating, next[i].deviation, next[i].volatility);
    }
    if (bad || put(json, &len, "]")) return STORE_ERROR;
    char nseats[8];
    snprintf(nseats, sizeof nseats, "%d", g->nseats);
    const char *wv[4] = {g->pool, g->game_id, nseats, json};
    PGresult *res;
    st = db_run((PGconn **)pgp, ST_RATINGS_WRITE, 4, wv, NULL, &res);
    if (st != STORE_OK) return st;
    if (PQntuples(res) != 1 || db_long(res, 0, 0, -1) != g->nseats ||
        db_long(res, 0, 1, -1) != g->nseats)
        st = STORE_ERROR;
    PQclear(res);
    if (st != STORE_OK) return st;
    for (int i = 0; i < g->nseats; i++) {
        out[i].rated = 1;
        out[i].after = next[i];
    }
    return STORE_OK;
}

int ratings_changes_json(const struct ratings_game *g, const struct ratings_change ch[], char *buf,
                         size_t cap)
{
    size_t len = 0;
    char out[RATINGS_JSON_MAX]; /* put()'s bound */
    int bad = put(out, &len, "[");
    for (int i = 0; i < g->nseats && !bad; i++) {
        const struct ratings_game_seat *s = &g->seats[i];
        int person = s->person_id && *s->person_id;
        bad = put(out, &len, "%s{\"seat\":%d,", i ? "," : "", i) ||
              put_str(out, &len, "player_id", person ? s->person_id : NULL) ||
              put(out, &len, ",") || put_str(out, &len, "bot", person ? NULL : s->bot) ||
              put(out, &len, ",") ||
              put_str(out, &len, "think_class", person ? NULL : ratings_think_class(s->think_ms)) ||
              put(out, &len,
                  ",\"place\":%d,\"before\":{\"rating\":%lld,\"deviation\":%lld},"
                  "\"after\":{\"rating\":%lld,\"deviation\":%lld}}",
                  ch[i].place + 1, llround(ch[i].before.rating), llround(ch[i].before.deviation),
                  llround(ch[i].after.rating), llround(ch[i].after.deviation));
    }
    if (bad || put(out, &len, "]") || len >= cap) return -1;
    memcpy(buf, out, len + 1);
    return 0;
}

enum store_status store_ratings_apply(const struct ratings_game *g, struct ratings_change out[])
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    enum store_status s = db_begin(&pg);
    if (s == STORE_OK) s = ratings_apply_game((struct pg_conn **)&pg, g, out);
    if (s == STORE_OK) s = db_exec(pg, "COMMIT", "commit");
    if (s != STORE_OK) db_rollback(pg);
    return s;
}

void store_ratings_free(struct store_rating_list *l)
{
    free(l->rows);
    free(l->points);
    *l = (struct store_rating_list){0};
}

/* Reads rows of RATING_COLUMNS (from column 1 on) of `res` into out->rows; rows whose
 * subject is NULL (a person without ratings) are skipped. */
static enum store_status take_ratings(const PGresult *res, struct store_rating_list *out)
{
    int rows = PQntuples(res);
    out->n = 0;
    out->rows = calloc(rows ? (size_t)rows : 1, sizeof *out->rows);
    if (!out->rows) return STORE_ERROR;
    for (int r = 0; r < rows; r++) {
        out->now_ms = db_long(res, r, 14, 0);
        if (PQgetisnull(res, r, 1)) continue;
        struct store_rating *x = &out->rows[out->n];
        if (db_take_text(res, r, 1, x->subject, sizeof x->subject) ||
            db_take_text(res, r, 2, x->pool, sizeof x->pool) ||
            db_take_text(res, r, 3, x->name, sizeof x->name) ||
            db_take_text(res, r, 4, x->bot, sizeof x->bot) ||
            db_take_text(res, r, 5, x->think_class, sizeof x->think_class))
            return STORE_ERROR;
        x->rating.rating = strtod(PQgetvalue(res, r, 6), NULL);
        x->rating.deviation = strtod(PQgetvalue(res, r, 7), NULL);
        x->rating.volatility = strtod(PQgetvalue(res, r, 8), NULL);
        x->games = (int)db_long(res, r, 9, 0);
        x->won = (int)db_long(res, r, 10, 0);
        x->drawn = (int)db_long(res, r, 11, 0);
        x->lost = (int)db_long(res, r, 12, 0);
        x->last_rated_ms = db_long(res, r, 13, 0);
        out->n++;
    }
    return STORE_OK;
}

/* Runs `st` and reads its ratings into *out (freed again on failure). */
static enum store_status read_ratings(enum stmt st, int n, const char *const *vals, PGresult **keep,
                                      struct store_rating_list *out)
{
    memset(out, 0, sizeof *out);
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    PGresult *res;
    enum store_status s = db_run(&pg, st, n, vals, NULL, &res);
    if (s != STORE_OK) return s;
    s = take_ratings(res, out);
    if (s != STORE_OK) store_ratings_free(out);
    if (s == STORE_OK && keep)
        *keep = res;
    else
        PQclear(res);
    return s;
}

enum store_status store_ratings_of_person(const char *person_id, char *name,
                                          struct store_rating_list *out)
{
    const char *vals[1] = {person_id};
    PGresult *res = NULL;
    enum store_status s = read_ratings(ST_RATINGS_PERSON, 1, vals, &res, out);
    if (s != STORE_OK) return s;
    if (PQntuples(res) == 0) s = STORE_NOT_FOUND;
    if (s == STORE_OK && db_take_text(res, 0, 0, name, STORE_NAME_MAX + 1)) s = STORE_ERROR;
    PQclear(res);
    if (s != STORE_OK) store_ratings_free(out);
    return s;
}

enum store_status store_rating_history(const char *subject, const char *pool, int limit,
                                       struct store_rating_list *out)
{
    memset(out, 0, sizeof *out);
    if (limit < 1 || limit > 1000) return STORE_ERROR;
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char lim[16];
    snprintf(lim, sizeof lim, "%d", limit);
    const char *vals[3] = {subject, pool, lim};
    PGresult *res;
    enum store_status s = db_run(&pg, ST_RATINGS_HISTORY, 3, vals, NULL, &res);
    if (s != STORE_OK) return s;
    int rows = PQntuples(res);
    out->points = calloc(rows ? (size_t)rows : 1, sizeof *out->points);
    if (!out->points) s = STORE_ERROR;
    for (int r = 0; r < rows && s == STORE_OK; r++) {
        /* Newest first from the index: stored oldest first. */
        struct store_rating_point *p = &out->points[rows - 1 - r];
        if (db_take_text(res, r, 0, p->game_id, sizeof p->game_id)) s = STORE_ERROR;
        p->seats = (int)db_long(res, r, 1, 0);
        p->place = (int)db_long(res, r, 2, 0);
        p->before.rating = strtod(PQgetvalue(res, r, 3), NULL);
        p->before.deviation = strtod(PQgetvalue(res, r, 4), NULL);
        p->before.volatility = strtod(PQgetvalue(res, r, 5), NULL);
        p->after.rating = strtod(PQgetvalue(res, r, 6), NULL);
        p->after.deviation = strtod(PQgetvalue(res, r, 7), NULL);
        p->after.volatility = strtod(PQgetvalue(res, r, 8), NULL);
        p->rated_ms = db_long(res, r, 9, 0);
    }
    PQclear(res);
    if (s == STORE_OK)
        out->n = rows;
    else
        store_ratings_free(out);
    return s;
}

enum store_status store_leaderboard(const char *pool, int bots, int limit,
                                    const struct store_board_after *after,
                                    struct store_rating_list *out)
{
    memset(out, 0, sizeof *out);
    if (limit < 1 || limit > 100) return STORE_ERROR;
    char rating[32], lim[16];
    snprintf(rating, sizeof rating, "%.17g", after->rating);
    if (isinf(after->rating)) snprintf(rating, sizeof rating, "Infinity");
    snprintf(lim, sizeof lim, "%d", limit);
    /* Not provisional as shown (json_rating_members): glicko2.h's bound, periods, scale. */
    char bound[32], per_day[32], scale[32];
    snprintf(bound, sizeof bound, "%.17g", GLICKO2_PROVISIONAL_ABOVE);
    snprintf(per_day, sizeof per_day, "%.17g", GLICKO2_PERIODS_PER_DAY);
    snprintf(scale, sizeof scale, "%.17g", GLICKO2_SCALE);
    const char *vals[8] = {
        pool, bots ? "true" : "false", rating, after->subject, lim, bound, per_day, scale};
    enum store_status s = read_ratings(ST_RATINGS_BOARD, 8, vals, NULL, out);
    if (s == STORE_OK && out->n > limit) {
        out->n = limit;
        out->more = 1;
    }
    return s;
}

enum store_status store_bot_ratings(struct store_rating_list *out)
{
    return read_ratings(ST_RATINGS_BOTS, 0, NULL, NULL, out);
}
