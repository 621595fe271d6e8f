/* analysis_run.c: the job kind "analysis" -- see analysis_run.h. A run reads the game's
 * setup and stored actions, replays them through the engine, reviews each placement from
 * the position before it (cc_analyse_move: what the mover saw, seeded by the game's id and
 * turn, a fixed budget: the same game gives the same analysis on any server), and stores
 * the body and removes the job in one statement, so a game is analysed once however many
 * servers ask (a lease that ran out during a run is the one way to a second run, whose
 * body is not kept). */
#include "analysis_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "bot_analysis.h"
#include "bots.h"
#include "job_kinds.h"
#include "jobs.h"
#include "json_analysis.h"
#include "json_export.h"
#include "log.h"
#include "store_analysis.h"
#include "store_history.h"

static struct cc_analysis_budget budget = {CC_ANALYSIS_DEFAULT_ITERATIONS,
                                           CC_ANALYSIS_DEFAULT_DEALS};
static int lease_ms = 120000;

int analysis_lease_ms(void)
{
    return lease_ms;
}

/* What one run holds (large: allocated). */
struct run {
    struct json_new_game in;
    struct cc_game created, game;
    struct cc_bot_scratch scratch;
    struct json_export_action actions[JSON_EXPORT_MAX_ACTIONS];
    struct json_review moves[JSON_EXPORT_MAX_ACTIONS];
};

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1000 + (double)ts.tv_nsec / 1e6;
}

#define REVIEW_STOPPED (-2) /* review(): the server drains: the job goes back */

/* Replays x's actions from its setup, reviewing each placement, into r->moves. Returns the
 * number reviewed, -1 (logged) when the stored game does not replay, or REVIEW_STOPPED when
 * the server began to drain or stop meanwhile (looked at before each placement). */
static int review(const char *id, const struct store_export *x, struct run *r)
{
    struct json_err err = {.code = "", .detail = "the engine refuses the setup"};
    cJSON *stored = NULL;
    int n = 0, index, reviewed = -1;
    if (json_in_new_game(x->setup, strlen(x->setup), &r->in, &err) ||
        cc_game_new(&r->created, &r->in.setup, NULL) != CC_OK)
        goto out;
    stored = cJSON_Parse(x->actions);
    if (!cJSON_IsArray(stored) ||
        json_export_read_actions(stored, (enum cc_ruleset)r->created.ruleset, r->created.nplayers,
                                 r->actions, JSON_EXPORT_MAX_ACTIONS, &n, &err, &index))
        goto out;
    memcpy(&r->game, &r->created, sizeof r->game);
    int k = 0;
    for (int i = 0; i < n; i++) {
        const struct cc_action *a = &r->actions[i].a;
        if (r->actions[i].join) continue;
        if (a->kind == CC_ACTION_PLACE && r->game.phase == CC_PHASE_PLACE) {
            if (jobs_draining()) {
                cJSON_Delete(stored);
                return REVIEW_STOPPED;
            }
            struct json_review *m = &r->moves[k];
            if (cc_analyse_move(&r->game, a, &budget, bots_seed(id, &r->game), &r->scratch,
                                &m->r) != CC_OK)
                goto out;
            m->turn = r->game.turn;
            m->x = a->x;
            m->y = a->y;
            k++;
        }
        if (cc_game_apply(&r->game, a, NULL) != CC_OK) goto out;
    }
    reviewed = k;
out:
    if (reviewed < 0)
        log_kv(LOG_ERROR, "stored game does not replay for its analysis", "game", id, "why",
               err.detail, NULL);
    cJSON_Delete(stored);
    return reviewed;
}

static enum jobs_result analysis_run(const struct store_job *j)
{
    int done = 0;
    enum store_status s = store_analysis_done(j->game, &done);
    if (s == STORE_NOT_FOUND) return JOBS_DROP;
    if (s != STORE_OK) return JOBS_RETRY;
    if (done) return JOBS_DROP; /* stored by another run meanwhile */
    struct store_export x;
    s = store_game_export(j->game, &x);
    if (s != STORE_OK || strcmp(x.status, "finished") != 0) {
        store_export_free(&x);
        return s == STORE_OK || s == STORE_NOT_FOUND ? JOBS_DROP : JOBS_RETRY;
    }
    struct run *r = calloc(1, sizeof *r);
    enum jobs_result res = JOBS_RETRY;
    if (!r) goto out;
    double t0 = cpu_ms();
    int n = review(j->game, &x, r);
    if (n < 0) {
        /* A game that does not replay will not replay next time either; a drain gives the
         * job back, due again for any server. */
        res = n == REVIEW_STOPPED ? JOBS_RETRY : JOBS_DROP;
        goto out;
    }
    struct json_out w;
    json_out_init(&w);
    json_analysis_write(&w, &(struct json_analysis_src){.id = j->game,
                                                        .created = &r->created,
                                                        .nplayers = r->created.nplayers,
                                                        .moves = r->moves,
                                                        .nmoves = n,
                                                        .budget = budget});
    size_t len;
    char *body = json_out_take(&w, &len);
    long ms = (long)(cpu_ms() - t0);
    s = body ? store_analysis_put(j, body, ms) : STORE_ERROR;
    free(body);
    if (s == STORE_OK) {
        res = JOBS_DONE;
        char moves[16], cpu[24];
        snprintf(moves, sizeof moves, "%d", n);
        snprintf(cpu, sizeof cpu, "%ld", ms);
        log_kv(LOG_INFO, "game analysed", "game", j->game, "placements", moves, "cpu_ms", cpu,
               NULL);
    }
out:
    free(r);
    store_export_free(&x);
    return res;
}

static const struct jobs_kind analysis_kind = {"analysis", NULL, analysis_run, JOBS_LANE_ANALYSIS};

int analysis_run_init(const struct cfg *cfg)
{
    budget.iterations = (uint32_t)cfg->analysis_iterations;
    budget.deals = (uint32_t)cfg->analysis_deals;
    lease_ms = cfg->analysis_lease_ms;
    return jobs_register(&analysis_kind);
}
