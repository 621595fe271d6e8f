/* clocks.c: clocks of games, their deadlines and what happens at them -- see clocks.h. */
#include "clocks.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bots.h"
#include "games.h"
#include "jobs.h"
#include "log.h"
#include "routes.h"

#define DEADLINE_LEASE_MS 5000     /* a claim of a deadline holds it this long */
#define NEAR_MAX_MS       86400000 /* deadline_near at most this long before the deadline */
#define EARLY_WAIT_MS     2000     /* a deadline claimed this early is waited for */

long long clocks_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void clocks_rfc3339(long long ms, char out[32])
{
    time_t t = (time_t)(ms / 1000);
    struct tm tm;
    gmtime_r(&t, &tm);
    char s[24];
    strftime(s, sizeof s, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out, 32, "%s.%03dZ", s, (int)(ms % 1000));
}

/* The number member `key` of `o`, or `dflt`. */
static double num(const cJSON *o, const char *key, double dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

int clocks_decode(const char *txt, size_t len, struct store_clock *out)
{
    memset(out, 0, sizeof *out);
    cJSON *j = cJSON_ParseWithLength(txt, len);
    if (!cJSON_IsObject(j)) {
        cJSON_Delete(j);
        return -1;
    }
    out->turn_seconds = (int)num(j, "turn_seconds", 0);
    out->initial_seconds = (int)num(j, "initial_seconds", 0);
    out->increment_seconds = (int)num(j, "increment_seconds", 0);
    out->kind = out->turn_seconds > 0 ? STORE_CLOCK_TURN : STORE_CLOCK_BANK;
    const cJSON *ot = cJSON_GetObjectItemCaseSensitive(j, "on_timeout");
    out->resign = cJSON_IsString(ot) && strcmp(ot->valuestring, "resign") == 0;
    out->turn_start_ms = (long long)num(j, "turn_start_ms", 0);
    out->deadline_ms = (long long)num(j, "deadline_ms", 0);
    out->turn_seat = (int)num(j, "turn_seat", 0);
    out->turn_no = (int)num(j, "turn_no", 0);
    out->timed_out = (int)num(j, "timed_out", 0);
    out->near_sent = (int)num(j, "near_sent", 0);
    out->ended_by_timeout = (int)num(j, "ended_by_timeout", 0);
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(j, "bank_ms");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "timeouts");
    for (int s = 0; s < CC_MAX_PLAYERS; s++) {
        const cJSON *bv = cJSON_GetArrayItem(b, s), *tv = cJSON_GetArrayItem(t, s);
        out->bank_ms[s] = cJSON_IsNumber(bv) ? (long long)bv->valuedouble : 0;
        out->timeouts[s] = cJSON_IsNumber(tv) ? (int)tv->valuedouble : 0;
    }
    cJSON_Delete(j);
    return out->kind == STORE_CLOCK_BANK && out->initial_seconds <= 0 ? -1 : 0;
}

const char *clocks_encode(const struct store_clock *c, char *buf, size_t cap)
{
    size_t o = 0;
    int w;
#define PUT(...)                                                                                   \
    do {                                                                                           \
        w = snprintf(buf + o, o < cap ? cap - o : 0, __VA_ARGS__);                                 \
        if (w > 0) o += (size_t)w;                                                                 \
    } while (0)
    if (c->kind == STORE_CLOCK_TURN)
        PUT("{\"turn_seconds\":%d", c->turn_seconds);
    else
        PUT("{\"initial_seconds\":%d,\"increment_seconds\":%d", c->initial_seconds,
            c->increment_seconds);
    PUT(",\"on_timeout\":\"%s\",\"turn_start_ms\":%lld,\"deadline_ms\":%lld,\"turn_seat\":%d,"
        "\"turn_no\":%d,\"timed_out\":%d,\"near_sent\":%d,\"ended_by_timeout\":%d,\"bank_ms\":[",
        c->resign ? "resign" : "autoplay", c->turn_start_ms, c->deadline_ms, c->turn_seat,
        c->turn_no, c->timed_out, c->near_sent, c->ended_by_timeout);
    for (int s = 0; s < CC_MAX_PLAYERS; s++) PUT("%s%lld", s ? "," : "", c->bank_ms[s]);
    PUT("],\"timeouts\":[");
    for (int s = 0; s < CC_MAX_PLAYERS; s++) PUT("%s%d", s ? "," : "", c->timeouts[s]);
    PUT("]}");
#undef PUT
    if (o >= cap && cap) buf[cap - 1] = '\0';
    return buf;
}

/* Begins the turn of the seat to move of `g` at `now`: its deadline. */
static void turn_begin(struct store_clock *c, const struct cc_game *g, long long now)
{
    c->turn_seat = g->seat;
    c->turn_no = g->turn;
    c->turn_start_ms = now;
    c->timed_out = 0;
    c->near_sent = 0;
    if (g->phase == CC_PHASE_FINISHED)
        c->deadline_ms = 0;
    else if (c->kind == STORE_CLOCK_TURN)
        c->deadline_ms = now + (long long)c->turn_seconds * 1000;
    else
        c->deadline_ms = now + c->bank_ms[g->seat];
}

void clocks_begin(struct store_clock *c, const struct cc_game *g, long long now_ms)
{
    for (int s = 0; s < CC_MAX_PLAYERS; s++) {
        c->bank_ms[s] =
            c->kind == STORE_CLOCK_BANK && s < g->nplayers ? (long long)c->initial_seconds * 1000 : 0;
        c->timeouts[s] = 0;
    }
    c->ended_by_timeout = 0;
    turn_begin(c, g, now_ms);
}

const char *clocks_jobs(const struct store_clock *c, const struct cc_game *g, int new_turn,
                        long long now_ms, const char *base, char *buf, size_t cap)
{
    int finished = g->phase == CC_PHASE_FINISHED;
    if (!finished && !new_turn) return base;
    size_t o = 0;
    int w;
    if (base) {
        size_t bl = strlen(base);
        if (bl < 2 || bl >= cap) return base;
        memcpy(buf, base, bl - 1); /* without its ']' */
        o = bl - 1;
        buf[o++] = ',';
    } else {
        buf[o++] = '[';
    }
    if (finished) {
        w = snprintf(buf + o, cap - o,
                     "{\"kind\":\"deadline\",\"due_ms\":null},"
                     "{\"kind\":\"deadline_near\",\"due_ms\":null}]");
    } else {
        long long due = c->deadline_ms - now_ms, span = c->deadline_ms - c->turn_start_ms;
        long long ahead = span / 4 < NEAR_MAX_MS ? span / 4 : NEAR_MAX_MS;
        if (due < 0) due = 0;
        if (ahead > 0)
            w = snprintf(buf + o, cap - o,
                         "{\"kind\":\"deadline\",\"due_ms\":%lld,\"lease_ms\":%d},"
                         "{\"kind\":\"deadline_near\",\"due_ms\":%lld,\"lease_ms\":%d}]",
                         due, DEADLINE_LEASE_MS, due - ahead > 0 ? due - ahead : 0,
                         DEADLINE_LEASE_MS);
        else
            w = snprintf(buf + o, cap - o,
                         "{\"kind\":\"deadline\",\"due_ms\":%lld,\"lease_ms\":%d},"
                         "{\"kind\":\"deadline_near\",\"due_ms\":null}]",
                         due, DEADLINE_LEASE_MS);
    }
    if (w < 0 || (size_t)w >= cap - o) {
        log_kv(LOG_ERROR, "clock jobs too long", NULL);
        return base;
    }
    return buf;
}

void clocks_commit(struct api_game *ag, struct store_commit *c, char *clock_buf, char *deadline_buf,
                   char *jobs_buf)
{
    struct store_clock *cl = &ag->row.clock;
    const struct cc_game *g = &ag->g;
    long long now = clocks_now_ms();
    int prev = cl->turn_seat;
    if (ag->clock_auto && !cl->timed_out) {
        cl->timed_out = 1;
        cl->timeouts[prev]++;
    }
    int finished = g->phase == CC_PHASE_FINISHED;
    int new_turn = !finished && (g->seat != prev || g->turn != cl->turn_no);
    if (new_turn || finished) {
        if (cl->kind == STORE_CLOCK_BANK && cl->deadline_ms) {
            long long left = cl->bank_ms[prev] - (now - cl->turn_start_ms);
            if (left < 0) left = 0;
            cl->bank_ms[prev] = left + (long long)cl->increment_seconds * 1000;
        }
        if (!ag->clock_auto && c->seat == prev && c->kind && strcmp(c->kind, "resign") != 0)
            cl->timeouts[prev] = 0;
        if (finished && ag->clock_auto && cc_game_result(g) == CC_RESULT_RESIGNATION)
            cl->ended_by_timeout = 1;
        turn_begin(cl, g, now);
    }
    c->clock_json = clocks_encode(cl, clock_buf, STORE_CLOCK_JSON_MAX);
    if (cl->deadline_ms) {
        clocks_rfc3339(cl->deadline_ms, deadline_buf);
        c->deadline = deadline_buf;
    } else {
        c->deadline = NULL;
    }
    c->jobs_json = clocks_jobs(cl, g, new_turn, now, c->jobs_json, jobs_buf, JOBS_JSON_MAX);
}

long long clocks_bank_now(const struct store_clock *c, const struct cc_game *g, unsigned seat)
{
    long long b = c->bank_ms[seat];
    if (g->phase != CC_PHASE_FINISHED && (int)seat == c->turn_seat && c->deadline_ms)
        b -= clocks_now_ms() - c->turn_start_ms;
    return b < 0 ? 0 : b;
}

int clocks_expired(const struct store_clock *c, const struct cc_game *g)
{
    return c->kind && g->phase != CC_PHASE_FINISHED && c->deadline_ms &&
           clocks_now_ms() >= c->deadline_ms;
}

void clocks_json(struct json_out *o, const struct store_clock *c, const struct cc_game *g)
{
    if (!c || !c->kind) return;
    json_out_key(o, "clock");
    json_out_begin_object(o);
    if (c->kind == STORE_CLOCK_TURN) {
        json_out_kint(o, "turn_seconds", c->turn_seconds);
    } else {
        json_out_kint(o, "initial_seconds", c->initial_seconds);
        json_out_kint(o, "increment_seconds", c->increment_seconds);
    }
    json_out_kstring(o, "on_timeout", c->resign ? "resign" : "autoplay");
    json_out_end_object(o);
    json_out_key(o, "deadline");
    if (g->phase == CC_PHASE_FINISHED || !c->deadline_ms) {
        json_out_null(o);
    } else {
        char d[32];
        clocks_rfc3339(c->deadline_ms, d);
        json_out_string(o, d);
    }
}

/* ---- the job kinds ---- */

/* jobs_kind.plan: clocks write their jobs themselves (clocks_commit: the plan cannot see the
 * clock), so nothing here. */
static enum jobs_plan clock_plan(const struct cc_game *g, const struct store_player *seats,
                                 int *due_ms, int *lease_ms)
{
    (void)g;
    (void)seats;
    (void)due_ms;
    (void)lease_ms;
    return JOBS_PLAN_NONE;
}

/* Loads the game of job `j` for a clock's handler: NULL with *r set when there is nothing
 * to do (JOBS_DROP) or it failed (JOBS_RETRY). */
static struct api_game *load_for(const struct store_job *j, enum jobs_result *r)
{
    struct api_response resp;
    memset(&resp, 0, sizeof resp);
    struct api_game *ag = games_load(j->game, GAMES_DB, &resp);
    free(resp.body);
    if (!ag) {
        *r = resp.status == 404 ? JOBS_DROP : JOBS_RETRY;
        return NULL;
    }
    if (!ag->row.clock.kind || ag->g.phase == CC_PHASE_FINISHED) {
        games_free(ag);
        *r = JOBS_DROP;
        return NULL;
    }
    return ag;
}

/* Sleeps `ms` milliseconds. */
static void sleep_ms(long long ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* jobs_kind.run of "deadline": the turn of the seat to move is over. With autoplay its
 * whole turn is played (draw and placement) as greedy would, or on its third timeout in a
 * row, and with "resign" at once, it resigns; every action through the normal commit,
 * guarded by the version, so that two servers acting on one deadline act once. */
static enum jobs_result deadline_run(const struct store_job *j)
{
    enum jobs_result r = JOBS_DONE;
    struct api_game *ag = load_for(j, &r);
    if (!ag) return r;
    struct store_clock *cl = &ag->row.clock;
    long long early = cl->deadline_ms - clocks_now_ms();
    if (early > EARLY_WAIT_MS) goto out; /* claimed before its time: the lease brings it back */
    if (early > 0) sleep_ms(early);
    unsigned seat = ag->g.seat;
    int turn = ag->g.turn;
    int resign = cl->resign || cl->timeouts[seat] + (cl->timed_out ? 0 : 1) >= CLOCKS_TIMEOUTS_MAX;
    for (int step = 0; step < 4; step++) {
        struct cc_action a;
        memset(&a, 0, sizeof a);
        if (resign) {
            a.kind = CC_ACTION_RESIGN;
            a.tile = CC_NO_TILE;
        } else {
            const char *used = NULL;
            enum cc_status st =
                bots_play_turn(&ag->g, "greedy", 0, bots_seed(ag->id, &ag->g), &a, &used);
            if (st != CC_OK) {
                log_kv(LOG_ERROR, "no move for a timed-out seat", "game", ag->id, "status",
                       cc_status_name(st), NULL);
                r = JOBS_RETRY;
                goto out;
            }
        }
        a.seat = (uint8_t)seat;
        struct api_response resp;
        memset(&resp, 0, sizeof resp);
        ag->clock_auto = 1;
        routes_turn_play(ag, &a, &resp);
        ag->clock_auto = 0;
        int st = resp.status;
        free(resp.body);
        if (st == 409 || st == 412) goto out; /* another server acted: its commit moved on */
        if (st != 200 && st != 201) {
            r = JOBS_RETRY;
            goto out;
        }
        if (ag->g.phase == CC_PHASE_FINISHED || ag->g.seat != seat || ag->g.turn != turn) goto out;
    }
out:
    games_free(ag);
    return r;
}

/* jobs_kind.run of "deadline_near": a deadline_near event, once a turn, committed on its
 * own (no action; the version moves on as for every commit of events). */
static enum jobs_result near_run(const struct store_job *j)
{
    enum jobs_result r = JOBS_DONE;
    struct api_game *ag = load_for(j, &r);
    if (!ag) return r;
    struct store_clock *cl = &ag->row.clock;
    if (cl->near_sent || clocks_expired(cl, &ag->g)) {
        r = JOBS_DROP;
        goto out;
    }
    static _Thread_local uint8_t snap[CC_SNAPSHOT_MAX];
    size_t len = cc_game_encode(&ag->g, snap, sizeof snap);
    char d[32], events[256], plan[JOBS_JSON_MAX], jobs[JOBS_JSON_MAX];
    clocks_rfc3339(cl->deadline_ms, d);
    int seq = ag->row.last_seq + 1;
    snprintf(events, sizeof events,
             "[{\"seq\":%d,\"type\":\"deadline_near\",\"seat\":%d,\"turn\":%d,\"deadline\":\"%s\","
             "\"remaining_ms\":%lld}]",
             seq, cl->turn_seat, cl->turn_no, d, cl->deadline_ms - clocks_now_ms());
    cl->near_sent = 1;
    struct store_commit c = {
        .status = "active",
        .last_seq = seq,
        .snapshot = snap,
        .snapshot_len = len,
        .seat = cl->turn_seat,
        .kind = NULL, /* no action */
        .action_json = NULL,
        .events_json = events,
    };
    /* The other kinds' plan as every commit writes it, and this job removed. */
    const char *base = jobs_plan(&ag->g, ag->row.players, plan, sizeof plan);
    size_t bl = base ? strlen(base) : 0;
    int w = snprintf(jobs, sizeof jobs, "%.*s%s{\"kind\":\"deadline_near\",\"due_ms\":null}]",
                     (int)(bl ? bl - 1 : 0), base ? base : "", base ? "," : "[");
    if (w < 0 || (size_t)w >= sizeof jobs) {
        r = JOBS_RETRY;
        goto out;
    }
    c.jobs_json = jobs;
    enum store_status ss;
    if (!len) {
        r = JOBS_RETRY;
        goto out;
    }
    enum games_commit gc = games_commit(ag, &c, NULL, 0, &ss);
    if (gc != GAMES_COMMITTED && ss != STORE_CONFLICT) r = JOBS_RETRY;
out:
    games_free(ag);
    return r;
}

static const struct jobs_kind deadline_kind = {"deadline", clock_plan, deadline_run};
static const struct jobs_kind near_kind = {"deadline_near", clock_plan, near_run};

int clocks_init(void)
{
    return jobs_register(&deadline_kind) || jobs_register(&near_kind) ? -1 : 0;
}
