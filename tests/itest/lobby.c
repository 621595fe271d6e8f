/* lobby.c: what the lobby's tests share (lobby.h). */
#include "lobby.h"

#include <stdio.h>

#include "db.h"

/* POST /v1/games `body` (with header `h`, may be NULL) into `l`: the status. */
long lobby_new(const struct server *srv, const char *body, const char *h, struct lobby *l,
               struct resp *keep)
{
    const char *hs[] = {h, NULL};
    struct resp r;
    http(srv, "POST", "/v1/games", body, h ? hs : NULL, &r);
    memset(l, 0, sizeof *l);
    long st = r.status;
    if (st == 201) {
        snprintf(l->g.id, sizeof l->g.id, "%s", jstr(r.json, "id"));
        const cJSON *players = jget(r.json, "players");
        l->g.nplayers = cJSON_GetArraySize(players);
        for (int s = 0; s < l->g.nplayers && s < 5; s++) {
            const cJSON *p = cJSON_GetArrayItem(players, s);
            const char *tok = jstr(p, "token");
            snprintf(l->g.token[s], sizeof l->g.token[s], "%s", tok);
            if (tok[0])
                snprintf(l->g.auth[s], sizeof l->g.auth[s], "Authorization: Bearer %s", tok);
            snprintf(l->invite[s], sizeof l->invite[s], "%s", jstr(p, "invite"));
            snprintf(l->invite_url[s], sizeof l->invite_url[s], "%s", jstr(p, "invite_url"));
        }
    }
    if (keep)
        *keep = r;
    else
        resp_free(&r);
    return st;
}

/* POST `path` with `body` and header lines h1, h2 (NULL for none): status, code in `code`. */
long lobby_post(const struct server *srv, const char *path, const char *body, const char *h1,
                const char *h2, char *code, size_t cap, struct resp *keep)
{
    const char *h[3] = {h1, h2, NULL};
    if (!h1) h[0] = h2, h[1] = NULL;
    struct resp r;
    http(srv, "POST", path, body, h, &r);
    long st = r.status;
    snprintf(code, cap, "%s", st < 300 ? "" : problem_code(&r));
    if (keep)
        *keep = r;
    else
        resp_free(&r);
    return st;
}

/* POST /v1/games/{id}/join {<field>, "name"?} (name NULL: none) with header `h`: `field`
 * is the join's own member ("\"invite\":\"...\"" or "\"seat\":N"). */
static long join_with(const struct server *srv, const struct lobby *l, const char *field,
                      const char *name, const char *h, char *code, size_t cap, struct resp *keep)
{
    char path[160], body[256];
    snprintf(path, sizeof path, "/v1/games/%s/join", l->g.id);
    snprintf(body, sizeof body, "{%s%s%s%s}", field, name ? ",\"name\":\"" : "", name ? name : "",
             name ? "\"" : "");
    return lobby_post(srv, path, body, h, NULL, code, cap, keep);
}

long lobby_join(const struct server *srv, const struct lobby *l, const char *invite,
                const char *name, const char *h, char *code, size_t cap, struct resp *keep)
{
    char field[128];
    snprintf(field, sizeof field, "\"invite\":\"%s\"", invite);
    return join_with(srv, l, field, name, h, code, cap, keep);
}

long lobby_join_seat(const struct server *srv, const struct lobby *l, int seat, const char *name,
                     const char *h, char *code, size_t cap, struct resp *keep)
{
    char field[32];
    snprintf(field, sizeof field, "\"seat\":%d", seat);
    return join_with(srv, l, field, name, h, code, cap, keep);
}

/* The game's GET body (malloc'd) and, in the database, its version, events and seats as
 * one text: what a refusal must leave as it was. */
char *lobby_snapshot(const struct server *srv, const struct lobby *l)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s", l->g.id);
    struct resp r;
    http(srv, "GET", path, NULL, NULL, &r);
    const char *v[] = {l->g.id};
    long version = db_scalar_params("SELECT version FROM games WHERE id = $1::uuid", 1, v);
    long events = db_scalar_params("SELECT count(*) FROM events WHERE game_id = $1::uuid", 1, v);
    long open = db_scalar_params(
        "SELECT count(*) FROM players WHERE game_id = $1::uuid AND invite_hash IS NOT NULL", 1, v);
    long seats = db_scalar_params(
        "SELECT sum(hashtext(name || encode(token_hash, 'hex') || coalesce(person_id::text, '')))"
        " FROM players WHERE game_id = $1::uuid",
        1, v);
    size_t n = r.len + 128;
    char *out = malloc(n);
    if (out)
        snprintf(out, n, "%ld %s|v%ld e%ld o%ld s%ld", r.status, r.body ? r.body : "", version,
                 events, open, seats);
    resp_free(&r);
    return out;
}

void *lobby_racer_run(void *arg)
{
    struct lobby_racer *r = arg;
    pthread_barrier_wait(r->go);
    const char *name = r->auth ? NULL : r->name;
    r->status =
        r->invite
            ? lobby_join(r->srv, r->l, r->invite, name, r->auth, r->code, sizeof r->code, NULL)
            : lobby_join_seat(r->srv, r->l, r->seat, name, r->auth, r->code, sizeof r->code, NULL);
    return NULL;
}

int lobby_race(struct lobby_racer *rs, int n, long lost_status, const char *lost_code, int *lost)
{
    pthread_barrier_t go;
    pthread_barrier_init(&go, NULL, (unsigned)n);
    pthread_t th[LOBBY_RACERS_MAX];
    for (int i = 0; i < n; i++) {
        rs[i].go = &go;
        pthread_create(&th[i], NULL, lobby_racer_run, &rs[i]);
    }
    for (int i = 0; i < n; i++) pthread_join(th[i], NULL);
    pthread_barrier_destroy(&go);
    int won = 0, winner = -1;
    *lost = 0;
    for (int i = 0; i < n; i++) {
        if (rs[i].status == 200) won++, winner = i;
        if (rs[i].status == lost_status && strcmp(rs[i].code, lost_code) == 0) ++*lost;
    }
    return won == 1 ? winner : -1;
}

int lobby_won_by(const struct server *srv, const struct lobby *l, const char *name)
{
    cJSON *j = game_get(srv, &l->g);
    int ok = j && strcmp(jstr(j, "status"), "active") == 0 &&
             strcmp(jstr(j, "players.1.name"), name) == 0;
    cJSON_Delete(j);
    return ok && db_events_of(l->g.id, "game_started") == 1 &&
           db_scalar_id("SELECT version FROM games WHERE id = $1::uuid", l->g.id) == 2;
}
