/* load.c: many clients on many games, and the check of what they were told. */
#include "load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "db.h"
#include "hard.h"

int load_games(struct load *l, int n, const char *body_fmt, char *why, size_t cap)
{
    if (n > LOAD_MAX_GAMES) n = LOAD_MAX_GAMES;
    for (int i = 0; i < n; i++) {
        char body[512];
        snprintf(body, sizeof body, body_fmt, 1000 + i);
        if (game_new(l->servers[0], body, &l->games[i], why, cap)) return -1;
    }
    l->ngames = n;
    return 0;
}

/* A client's argument. */
struct client {
    struct load *l; /* the load */
    int id;         /* its number */
};

/* Records one answer. */
static void note(struct load *l, const struct resp *r, long long ms, int game, const char *what)
{
    pthread_mutex_lock(&l->lock);
    l->requests++;
    long st = r->status >= 0 && r->status < 600 ? r->status : 599;
    l->by_status[st]++;
    if ((st == 503 || st == 429) && !r->retry_after[0]) l->retry_after_missing++;
    long long now = hard_now_ms();
    if (now - ms > l->max_ms) l->max_ms = now - ms;
    int expected = st == 200 || st == 201 || st == 403 || st == 409 || st == 412 || st == 503 ||
                   (st == 0 && l->cutoffs_ok);
    if (!expected && !l->first_odd[0])
        snprintf(l->first_odd, sizeof l->first_odd, "%s on game %d: %ld %.200s", what, game, st,
                 r->body ? r->body : "");
    if (st == 200 || st == 201) l->last_2xx_ms = now;
    pthread_mutex_unlock(&l->lock);
}

/* Remembers an action answered 2xx. */
static void win(struct load *l, int game, const struct resp *r)
{
    const cJSON *evs = jget(r->json, "events");
    char *text = evs ? cJSON_PrintUnformatted(evs) : NULL;
    int version = (int)strtol(r->etag + (r->etag[0] == '"'), NULL, 10);
    pthread_mutex_lock(&l->lock);
    if (l->nwins == l->capwins) {
        int cap = l->capwins ? 2 * l->capwins : 256;
        struct load_win *nw = realloc(l->wins, (size_t)cap * sizeof *nw);
        if (nw) l->wins = nw, l->capwins = cap;
    }
    if (l->nwins < l->capwins)
        l->wins[l->nwins++] = (struct load_win){game, version, text};
    else
        free(text);
    pthread_mutex_unlock(&l->lock);
}

/* One request of a client, noted. */
static void request(struct load *l, const struct server *srv, int game, const char *method,
                    const char *path, const char *body, const char *const *h, struct resp *r,
                    const char *what)
{
    long long t0 = hard_now_ms();
    hard_send(srv, VIA_DIRECT, method, path, body, body ? strlen(body) : 0, h, r);
    note(l, r, t0, game, what);
}

static void *client_main(void *p)
{
    struct client *c = p;
    struct load *l = c->l;
    const struct server *srv = l->servers[c->id % l->nservers];
    unsigned n = 0;
    while (!atomic_load(&l->stop)) {
        int gi =
            (c->id + (int)(n / 64) * 7) % l->ngames; /* mostly one game, now and then another */
        const struct game *g = &l->games[gi];
        n++;
        char path[192], im[48];
        struct resp r;
        snprintf(path, sizeof path, "/v1/games/%s", g->id);
        request(l, srv, gi, "GET", path, NULL, NULL, &r, "GET game");
        if (r.status != 200) {
            resp_free(&r);
            usleep(50000);
            continue;
        }
        int version = (int)jnum(r.json, "version"), seat = (int)jnum(r.json, "turn.seat");
        int draw = strcmp(jstr(r.json, "turn.phase"), "draw") == 0;
        int finished = strcmp(jstr(r.json, "status"), "finished") == 0;
        resp_free(&r);
        if (finished || (l->target_version && version >= l->target_version)) {
            n += 63 - (n - 1) % 64; /* on to the next game */
            usleep(5000);
            continue;
        }
        if (l->mixed_reads) {
            const char *what[] = {"scores", "events?after=1", "placements"};
            char rp[224];
            snprintf(rp, sizeof rp, "/v1/games/%s/%s", g->id, what[n % 3]);
            request(l, srv, gi, "GET", rp, NULL, NULL, &r, what[n % 3]);
            resp_free(&r);
        }
        snprintf(im, sizeof im, "If-Match: \"%d\"", version);
        const char *h[] = {g->auth[seat],
                           (l->if_match_every && n % l->if_match_every == 0) ? NULL : im, NULL};
        char body[160] = "";
        if (!draw) {
            snprintf(path, sizeof path, "/v1/games/%s/placements", g->id);
            request(l, srv, gi, "GET", path, NULL, NULL, &r, "GET placements");
            int np = cJSON_GetArraySize(jget(r.json, "placements"));
            const cJSON *pl = np > 0 ? cJSON_GetArrayItem(jget(r.json, "placements"),
                                                          (int)((n * 2654435761u) % (unsigned)np))
                                     : NULL;
            if (pl) {
                const cJSON *fol = jget(pl, "follower");
                int nf = cJSON_GetArraySize(fol);
                if (nf > 0 && n % 2)
                    snprintf(body, sizeof body,
                             "{\"x\":%d,\"y\":%d,\"rotation\":%d,\"follower\":\"%s\"}",
                             (int)jnum(pl, "x"), (int)jnum(pl, "y"), (int)jnum(pl, "rotation"),
                             cJSON_GetArrayItem(fol, (int)(n % (unsigned)nf))->valuestring);
                else
                    snprintf(body, sizeof body, "{\"x\":%d,\"y\":%d,\"rotation\":%d}",
                             (int)jnum(pl, "x"), (int)jnum(pl, "y"), (int)jnum(pl, "rotation"));
            }
            resp_free(&r);
            if (!body[0]) continue; /* moved on meanwhile */
        }
        const char *hc[] = {h[0], h[1], body[0] ? "Content-Type: application/json" : NULL, NULL};
        if (!hc[1]) hc[1] = hc[2], hc[2] = NULL;
        snprintf(path, sizeof path, "/v1/games/%s/%s", g->id, draw ? "draw" : "placements");
        request(l, srv, gi, "POST", path, body[0] ? body : NULL, hc, &r, draw ? "draw" : "place");
        if (r.status == 200 || r.status == 201) win(l, gi, &r);
        resp_free(&r);
    }
    free(c);
    return NULL;
}

int load_start(struct load *l)
{
    if (!l->lock_ready) pthread_mutex_init(&l->lock, NULL);
    l->lock_ready = 1;
    atomic_store(&l->stop, 0);
    if (l->clients > 256) l->clients = 256;
    for (int i = 0; i < l->clients; i++) {
        struct client *c = malloc(sizeof *c);
        if (!c) return -1;
        c->l = l;
        c->id = i;
        if (pthread_create(&l->threads[i], NULL, client_main, c) != 0) {
            free(c);
            return -1;
        }
        l->running = i + 1;
    }
    return 0;
}

void load_stop(struct load *l)
{
    atomic_store(&l->stop, 1);
    for (int i = 0; i < l->running; i++) pthread_join(l->threads[i], NULL);
    l->running = 0;
}

void load_free(struct load *l)
{
    for (int i = 0; i < l->nwins; i++) free(l->wins[i].events);
    free(l->wins);
    l->wins = NULL;
    l->nwins = l->capwins = 0;
    if (l->lock_ready) pthread_mutex_destroy(&l->lock);
    l->lock_ready = 0;
}

/* Events seq -> payload text of game `id`, as stored; NULL on failure. */
static PGresult *stored_events(PGconn *pg, const char *id)
{
    const char *vals[1] = {id};
    PGresult *r = PQexecParams(pg,
                               "SELECT seq, payload::text FROM events WHERE game_id = $1::uuid "
                               "ORDER BY seq",
                               1, NULL, vals, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        PQclear(r);
        return NULL;
    }
    return r;
}

int load_verify(struct load *l, int exact, char *why, size_t cap)
{
    PGconn *pg = PQconnectdb(getenv("DATABASE_URL"));
    if (PQstatus(pg) != CONNECTION_OK) {
        snprintf(why, cap, "cannot connect: %s", PQerrorMessage(pg));
        PQfinish(pg);
        return -1;
    }
    int rc = -1;
    for (int gi = 0; gi < l->ngames; gi++) {
        const char *id = l->games[gi].id;
        if (db_replay_check(id, why, cap)) goto out;
        struct db_game row;
        if (db_game_read(id, &row, why, cap)) goto out;
        int version = row.version;
        db_game_free(&row);
        char *seen = calloc((size_t)version + 2, 1);
        int answered = 0;
        PGresult *evs = stored_events(pg, id);
        /* The versions in the action log. */
        char *stored = calloc((size_t)version + 2, 1);
        const char *vals[1] = {id};
        PGresult *acts = PQexecParams(pg, "SELECT version FROM actions WHERE game_id = $1::uuid", 1,
                                      NULL, vals, NULL, NULL, 0);
        for (int i = 0; stored && PQresultStatus(acts) == PGRES_TUPLES_OK && i < PQntuples(acts);
             i++) {
            long v = strtol(PQgetvalue(acts, i, 0), NULL, 10);
            if (v >= 0 && v <= version) stored[v] = 1;
        }
        int bad = !seen || !evs || !stored || PQresultStatus(acts) != PGRES_TUPLES_OK;
        PQclear(acts);
        if (bad) snprintf(why, cap, "game %d: cannot read its events", gi);
        for (int w = 0; !bad && w < l->nwins; w++) {
            const struct load_win *x = &l->wins[w];
            if (x->game != gi) continue;
            answered++;
            if (x->version < 2 || x->version > version) {
                snprintf(why, cap, "game %d: an action answered 2xx as version %d, stored %d", gi,
                         x->version, version);
                bad = 1;
            } else if (seen[x->version]++) {
                snprintf(why, cap, "game %d: version %d was answered 2xx twice", gi, x->version);
                bad = 1;
            } else if (!stored[x->version]) {
                snprintf(why, cap, "game %d: version %d was answered 2xx but is not stored", gi,
                         x->version);
                bad = 1;
            }
            cJSON *list = cJSON_Parse(x->events ? x->events : "null");
            const cJSON *e;
            cJSON_ArrayForEach(e, list)
            {
                int seq = (int)jnum(e, "seq");
                cJSON *kept = seq >= 1 && seq <= PQntuples(evs)
                                  ? cJSON_Parse(PQgetvalue(evs, seq - 1, 1))
                                  : NULL;
                if (!bad && (!kept || !cJSON_Compare(kept, e, 1))) {
                    snprintf(why, cap,
                             "game %d: event %d of version %d answered but stored "
                             "differently or not at all",
                             gi, seq, x->version);
                    bad = 1;
                }
                cJSON_Delete(kept);
            }
            if (!bad && !cJSON_IsArray(list)) {
                snprintf(why, cap, "game %d: a 2xx answer without events", gi);
                bad = 1;
            }
            cJSON_Delete(list);
        }
        if (!bad && exact && answered != version - 1) {
            snprintf(why, cap, "game %d: %d actions stored, %d answered 2xx", gi, version - 1,
                     answered);
            bad = 1;
        }
        free(seen);
        free(stored);
        PQclear(evs);
        if (bad) goto out;
    }
    rc = 0;
out:
    PQfinish(pg);
    return rc;
}
