/* tourney_run.c: the pairing of tournament rounds -- see tourney_run.h. */
#include "tourney_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "jobs.h"
#include "json_out.h"
#include "log.h"
#include "mono.h"
#include "seated_game.h"
#include "store_jobs.h"
#include "tourney.h"

/* The POST /v1/games body of a table of `t`: its ruleset, options, clock and rated flag,
 * the entrants `seat[nseats]` by name. malloc'd, or NULL. */
static char *table_body(const struct store_tourney *t, const int *seat, int nseats)
{
    cJSON *o = cJSON_CreateObject(), *players = cJSON_CreateArray();
    char *body = NULL;
    if (!o || !players) goto out;
    cJSON_AddItemToObject(o, "players", players);
    for (int s = 0; s < nseats; s++) {
        cJSON *p = cJSON_CreateObject();
        if (!p || !cJSON_AddStringToObject(p, "name", t->entrants[seat[s]].name)) {
            cJSON_Delete(p);
            goto out;
        }
        cJSON_AddItemToArray(players, p);
    }
    players = NULL;
    if (!cJSON_AddStringToObject(o, "ruleset", t->ruleset)) goto out;
    if (t->options_json) cJSON_AddItemToObject(o, "options", cJSON_Parse(t->options_json));
    if (t->clock_json) cJSON_AddItemToObject(o, "clock", cJSON_Parse(t->clock_json));
    if (t->rated) cJSON_AddBoolToObject(o, "rated", 1);
    body = cJSON_PrintUnformatted(o);
out:
    if (players)
        cJSON_Delete(players);
    else
        cJSON_Delete(o);
    return body;
}

/* The tables of round `round` of `t` as JSON: [[entrant id, ...], ...]; with `games`,
 * [{"table", "players", "game"}, ...]. malloc'd, or NULL. */
static char *round_json(const struct store_tourney *t, const struct tourney_round *r, int round,
                        int games)
{
    struct json_out w;
    json_out_init(&w);
    if (games) {
        json_out_begin_object(&w);
        json_out_kint(&w, "round", round);
        json_out_key(&w, "tables");
    }
    json_out_begin_array(&w);
    for (int i = 0; i < t->ntables && games; i++) {
        const struct store_tourney_table *x = &t->tables[i];
        if (x->round != round) continue;
        json_out_begin_object(&w);
        json_out_kint(&w, "table", x->table_no);
        json_out_key(&w, "players");
        json_out_begin_array(&w);
        for (int s = 0; s < x->nseats; s++) json_out_string(&w, t->entrants[x->seat[s]].id);
        json_out_end_array(&w);
        json_out_kstring(&w, "game", x->game[0] ? x->game : NULL);
        json_out_end_object(&w);
    }
    for (int i = 0; r && i < r->ngames; i++) {
        json_out_begin_array(&w);
        for (int s = 0; s < r->game[i].nseats; s++)
            json_out_string(&w, t->entrants[r->game[i].player[s]].id);
        json_out_end_array(&w);
    }
    json_out_end_array(&w);
    if (games) json_out_end_object(&w);
    char *json = json_out_take(&w, NULL);
    json_out_free(&w);
    return json;
}

/* 1 when round `round` of `t` has its tables stored. */
static int paired(const struct store_tourney *t, int round)
{
    for (int i = 0; i < t->ntables; i++)
        if (t->tables[i].round == round) return 1;
    return 0;
}

/* A game to create: table x's, its body and its persons by seat. */
struct pending {
    struct seated_game sg;
    char *body;
    const char *persons[STORE_TOURNEY_SEATS];
};

/* The games of round `round`'s tables that have none into p[] (room for t->ntables): how
 * many, or -1 (no memory; the bodies made so far are in p[] up to the first NULL). */
static int pending_games(const char *id, const struct store_tourney *t, int round,
                         struct pending *p)
{
    int n = 0;
    for (int i = 0; i < t->ntables; i++) {
        const struct store_tourney_table *x = &t->tables[i];
        if (x->round != round || x->nseats < 2 || x->game[0]) continue;
        struct pending *g = &p[n++];
        g->body = table_body(t, x->seat, x->nseats);
        if (!g->body) return -1;
        for (int s = 0; s < x->nseats; s++) g->persons[s] = t->entrants[x->seat[s]].id;
        g->sg = (struct seated_game){.body = g->body,
                                     .person_ids = g->persons,
                                     .tourney_id = id,
                                     .tourney_round = round,
                                     .tourney_table = x->table_no};
    }
    return n;
}

/* Creates the games p[0..n): all in one transaction (a round's change is one commit, not
 * one a game); when that finds a table taken (a run before this one created some of them
 * and died), one at a time, a taken table skipped. Returns -1 when one failed for a reason
 * worth a retry, else 0. */
static int create_all(const char *id, struct pending *p, int n)
{
    struct seated_game *sgs = calloc((size_t)n + 1, sizeof *sgs);
    if (!sgs) return -1;
    for (int i = 0; i < n; i++) sgs[i] = p[i].sg;
    enum game_outcome rc = n ? seated_games_create(sgs, n) : GAME_COMMITTED;
    free(sgs);
    for (int i = 0; rc == GAME_SEEKS_TAKEN && i < n; i++) {
        enum game_outcome one = seated_game_create(&p[i].sg);
        /* GAME_SEEKS_TAKEN: another run created this table's game first. */
        if (one != GAME_COMMITTED && one != GAME_SEEKS_TAKEN) rc = one;
    }
    if (rc != GAME_COMMITTED && rc != GAME_SEEKS_TAKEN) {
        log_kv(LOG_WARN, "tournament game not created", "tournament", id, "outcome",
               game_outcome_name(rc), NULL);
        return -1;
    }
    return 0;
}

/* Creates the games of round `round`'s tables that have none. Returns -1 when one failed
 * for a reason worth a retry, else 0. */
static int create_games(const char *id, const struct store_tourney *t, int round)
{
    struct pending *p = calloc((size_t)t->ntables + 1, sizeof *p);
    if (!p) return -1;
    int n = pending_games(id, t, round, p);
    int rc = n < 0 ? -1 : create_all(id, p, n);
    for (int i = 0; i < t->ntables; i++) free(p[i].body);
    free(p);
    return rc;
}

/* Finishes `t`: tournament_finished with the final standings, the job removed. */
static enum jobs_result finish(const char *id, const struct store_tourney *t, long long job)
{
    char *standings = tourney_standings_json(t);
    if (!standings) return JOBS_RETRY;
    size_t len = strlen(standings) + 32;
    char *data = malloc(len);
    if (data) snprintf(data, len, "{\"standings\":%s}", standings);
    free(standings);
    int done = 0;
    enum store_status s =
        data ? store_tourney_advance(id, 0, "tournament_finished", data, job, &done) : STORE_ERROR;
    free(data);
    if (s != STORE_OK) return JOBS_RETRY;
    if (done) log_kv(LOG_INFO, "tournament finished", "tournament", id, NULL);
    return JOBS_DONE;
}

/* Round `round` of tournament `id`, for job `j`. */
static enum jobs_result run_round(const char *id, int round, const struct store_job *j)
{
    struct store_tourney t;
    struct tourney_round *r = NULL;
    char *json = NULL;
    enum jobs_result res = JOBS_RETRY;
    long long began = mono_ms(), paired_at = began;
    enum store_status s = store_tourney_load(id, &t);
    if (s == STORE_NOT_FOUND) res = JOBS_DROP;
    if (s != STORE_OK) goto out;
    if (round == 1 && strcmp(t.status, "open") == 0) { /* the announced start */
        char found[16];
        if (store_tourney_start(id, found, sizeof found, NULL, NULL) != STORE_OK) goto out;
        if (strcmp(found, "too_few") == 0) {
            res = store_tourney_cancel(id) == STORE_OK ? JOBS_DROP : JOBS_RETRY;
            if (res == JOBS_DROP) log_kv(LOG_INFO, "tournament called off", "tournament", id, NULL);
            goto out;
        }
        store_tourney_free(&t);
        if (store_tourney_load(id, &t) != STORE_OK) goto out;
    }
    res = JOBS_DROP; /* finished, called off, or this round begun already */
    if (strcmp(t.status, "running") != 0 || t.round != round - 1) goto out;
    res = JOBS_RETRY;
    if (!paired(&t, round)) {
        r = malloc(sizeof *r);
        if (!r) goto out;
        int rc = tourney_pair(&t, round, r);
        if (rc < 0) {
            log_kv(LOG_ERROR, "tournament round not paired", "tournament", id, NULL);
            goto out;
        }
        if (rc == 1) {
            res = finish(id, &t, j->id);
            goto out;
        }
        json = round_json(&t, r, round, 0);
        if (!json || store_tourney_pairing_put(id, round, json) != STORE_OK) goto out;
        free(json);
        json = NULL;
        store_tourney_free(&t);
        if (store_tourney_load(id, &t) != STORE_OK) goto out;
    }
    paired_at = mono_ms();
    if (create_games(id, &t, round)) goto out;
    store_tourney_free(&t);
    if (store_tourney_load(id, &t) != STORE_OK) goto out;
    json = round_json(&t, NULL, round, 1);
    int done = 0;
    if (!json || store_tourney_advance(id, round, "round_started", json, j->id, &done) != STORE_OK)
        goto out;
    if (done) { /* how long the pairing and the games' creation took */
        char rs[12], pms[24], cms[24];
        snprintf(rs, sizeof rs, "%d", round);
        snprintf(pms, sizeof pms, "%lld", paired_at - began);
        snprintf(cms, sizeof cms, "%lld", mono_ms() - paired_at);
        log_kv(LOG_INFO, "tournament round started", "tournament", id, "round", rs, "pairing_ms",
               pms, "games_ms", cms, NULL);
    }
    res = JOBS_DONE;
out:
    free(json);
    free(r);
    store_tourney_free(&t);
    return res;
}

/* jobs_kind.run: the round its subject names. */
static enum jobs_result tourney_run(const struct store_job *j)
{
    char id[AUTH_UUID_LEN + 1];
    const char *colon = strchr(j->subject, ':');
    if (j->game[0] || !colon || colon - j->subject != AUTH_UUID_LEN) return JOBS_DROP;
    memcpy(id, j->subject, AUTH_UUID_LEN);
    id[AUTH_UUID_LEN] = '\0';
    char *end;
    long round = strtol(colon + 1, &end, 10);
    if (*end || round < 1 || round > 10000) return JOBS_DROP;
    return run_round(id, (int)round, j);
}

/* The slow lane: a run creates games. */
static const struct jobs_kind tourney_kind = {TOURNEY_RUN_KIND, NULL, tourney_run, JOBS_LANE_SLOW};

int tourney_run_init(void)
{
    return jobs_register(&tourney_kind);
}
