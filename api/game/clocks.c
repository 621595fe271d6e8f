/* clocks.c: clocks of games: their stored form, how commits move them on, their jobs' due
 * times and their JSON -- see clocks.h (the jobs' handlers are clocks_run.c). */
#include "clocks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "job_kinds.h"
#include "log.h"
#include "store_games.h"

#define DEADLINE_LEASE_MS 5000     /* a claim of a deadline holds it this long */
#define NEAR_MAX_MS       86400000 /* deadline_near at most this long before the deadline */

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
        c->bank_ms[s] = c->kind == STORE_CLOCK_BANK && s < g->nplayers
                            ? (long long)c->initial_seconds * 1000
                            : 0;
        c->timeouts[s] = 0;
    }
    c->ended_by_timeout = 0;
    turn_begin(c, g, now_ms);
}

void clocks_jobs(const struct store_clock *c, const struct cc_game *g, int new_turn,
                 long long now_ms, struct store_jobs *plan)
{
    if (g->phase == CC_PHASE_FINISHED) {
        store_jobs_add(plan, (struct store_job_plan){.kind = "deadline", .remove = 1});
        store_jobs_add(plan, (struct store_job_plan){.kind = "deadline_near", .remove = 1});
        return;
    }
    if (!new_turn) return;
    long long due = c->deadline_ms - now_ms, span = c->deadline_ms - c->turn_start_ms;
    long long ahead = span / 4 < NEAR_MAX_MS ? span / 4 : NEAR_MAX_MS;
    if (due < 0) due = 0;
    store_jobs_add(plan, (struct store_job_plan){
                             .kind = "deadline", .due_ms = due, .lease_ms = DEADLINE_LEASE_MS});
    if (ahead > 0)
        store_jobs_add(plan, (struct store_job_plan){.kind = "deadline_near",
                                                     .due_ms = due - ahead > 0 ? due - ahead : 0,
                                                     .lease_ms = DEADLINE_LEASE_MS});
    else
        store_jobs_add(plan, (struct store_job_plan){.kind = "deadline_near", .remove = 1});
}

void clocks_commit(struct store_clock *cl, const struct cc_game *g, struct store_commit *c,
                   int by_clock, char *clock_buf, char *deadline_buf, struct store_jobs *plan)
{
    long long now = clocks_now_ms();
    int prev = cl->turn_seat;
    if (by_clock && !cl->timed_out) {
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
        if (!by_clock && c->seat == prev && c->kind && strcmp(c->kind, "resign") != 0)
            cl->timeouts[prev] = 0;
        /* The game's ending (game_end) says a timeout ended it. */
        if (finished && c->result && strcmp(c->result, "timeout") == 0) cl->ended_by_timeout = 1;
        turn_begin(cl, g, now);
    }
    c->clock_json = store_clock_encode(cl, clock_buf, STORE_CLOCK_JSON_MAX);
    if (cl->deadline_ms) {
        clocks_rfc3339(cl->deadline_ms, deadline_buf);
        c->deadline = deadline_buf;
    } else {
        c->deadline = NULL;
    }
    clocks_jobs(cl, g, new_turn, now, plan);
}

void clocks_json_timed_out(struct json_out *w, const struct store_clock *cl, int resign, int seq)
{
    char d[32];
    clocks_rfc3339(cl->deadline_ms, d);
    json_out_begin_object(w);
    json_out_kint(w, "seq", seq);
    json_out_kstring(w, "type", "turn_timed_out");
    json_out_kint(w, "seat", cl->turn_seat);
    json_out_kint(w, "turn", cl->turn_no);
    json_out_kstring(w, "deadline", d);
    json_out_kint(w, "late_ms", clocks_now_ms() - cl->deadline_ms);
    json_out_kint(w, "timeouts_in_a_row", cl->timeouts[cl->turn_seat] + 1);
    json_out_kstring(w, "action", resign ? "resign" : "autoplay");
    json_out_end_object(w);
}

int clocks_json_near(const struct store_clock *cl, int seq, char *buf, size_t cap)
{
    char d[32];
    clocks_rfc3339(cl->deadline_ms, d);
    int w = snprintf(buf, cap,
                     "[{\"seq\":%d,\"type\":\"deadline_near\",\"seat\":%d,\"turn\":%d,"
                     "\"deadline\":\"%s\",\"remaining_ms\":%lld}]",
                     seq, cl->turn_seat, cl->turn_no, d, cl->deadline_ms - clocks_now_ms());
    return w > 0 && (size_t)w < cap ? 0 : -1;
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

void clocks_settings_json(struct json_out *o, const struct store_clock *c)
{
    json_out_begin_object(o);
    if (c->kind == STORE_CLOCK_TURN) {
        json_out_kint(o, "turn_seconds", c->turn_seconds);
    } else {
        json_out_kint(o, "initial_seconds", c->initial_seconds);
        json_out_kint(o, "increment_seconds", c->increment_seconds);
    }
    json_out_kstring(o, "on_timeout", c->resign ? "resign" : "autoplay");
    json_out_end_object(o);
}

void clocks_json(struct json_out *o, const struct store_clock *c, const struct cc_game *g)
{
    if (!c || !c->kind) return;
    json_out_key(o, "clock");
    clocks_settings_json(o, c);
    json_out_key(o, "deadline");
    if (g->phase == CC_PHASE_FINISHED || !c->deadline_ms) {
        json_out_null(o);
    } else {
        char d[32];
        clocks_rfc3339(c->deadline_ms, d);
        json_out_string(o, d);
    }
}
