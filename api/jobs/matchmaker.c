/* matchmaker.c: pairs compatible seeks into games -- see matchmaker.h. */
#include "matchmaker.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "auth.h"
#include "bots.h"
#include "game/service.h"
#include "jobs.h"
#include "json_game.h"
#include "json_in.h"
#include "json_out.h"
#include "json_seek.h"
#include "log.h"
#include "mono.h"
#include "ratings.h"
#include "seated_game.h"
#include "store_chat.h"
#include "store_jobs.h"
#include "store_ratings.h"
#include "store_seeks.h"

#define READ_MAX      2000 /* waiting seeks one run reads at most */
#define BOT_THINK_MS  250
#define SEAT_JSON_MAX (STORE_NAME_MAX * 6 + 64)

/* A seek's rating range after `age_ms` of waiting: [*lo, *hi] (infinite without a range). */
static void range_of(const struct store_seek *s, double *lo, double *hi)
{
    if (!s->has_range) {
        *lo = -INFINITY;
        *hi = INFINITY;
        return;
    }
    double widen = MATCHMAKER_WIDEN * (double)(s->age_ms / MATCHMAKER_WIDEN_MS);
    *lo = s->rating_min - widen;
    *hi = s->rating_max + widen;
}

/* 1 when seek `a`'s range (widened) holds `b`'s owner's rating. */
static int accepts(const struct store_seek *a, const struct store_seek *b)
{
    double lo, hi;
    range_of(a, &lo, &hi);
    return b->rating >= lo && b->rating <= hi;
}

/* What one run knows: the blocks among the waiting seekers (read once a run). */
struct run {
    const struct store_block *blocks;
    int nblocks;
    int games, taken;     /* tables made, tables lost to another pairing (the run's log) */
    long long started_ms; /* mono_ms() at the run's start */
    int cut;              /* 1: tables were left for the next run (MATCHMAKER_RUN_MS) */
};

/* 1 when one of persons `a` and `b` blocked the other. */
static int blocked(const struct run *r, const char *a, const char *b)
{
    for (int i = 0; i < r->nblocks; i++) {
        const struct store_block *k = &r->blocks[i];
        if ((strcmp(k->blocker, a) == 0 && strcmp(k->blocked, b) == 0) ||
            (strcmp(k->blocker, b) == 0 && strcmp(k->blocked, a) == 0))
            return 1;
    }
    return 0;
}

/* 1 when `a` and `b` may sit at one table: other players, each in the other's range, and
 * neither blocked the other. */
static int pair_ok(const struct run *r, const struct store_seek *a, const struct store_seek *b)
{
    if (strcmp(a->person_id, b->person_id) == 0) return 0; /* never with themself */
    if (!accepts(a, b) || !accepts(b, a)) return 0;
    return !blocked(r, a->person_id, b->person_id);
}

/* A computer player to seat: its level and time a move. */
struct bot_pick {
    char level[RATINGS_SUBJECT_MAX];
    int think_ms;
};

/* Computer players when too few are rated in the pool: each of another level or think
 * class, so that each has a rating of its own at a rated table (routes_games.c). */
static const struct bot_pick fallback[] = {{"greedy", 250}, {"random", 250}, {"greedy", 50},
                                           {"random", 50},  {"mcts", 250},   {"mcts", 1000},
                                           {"hard", 250},   {"hard", 1000}};

/* 1 when `b` is one of out[0..n) (the same level and think class: one rating). */
static int picked(const struct bot_pick *out, int n, const char *level, int think_ms)
{
    for (int i = 0; i < n; i++)
        if (strcmp(out[i].level, level) == 0 &&
            strcmp(ratings_think_class(out[i].think_ms), ratings_think_class(think_ms)) == 0)
            return 1;
    return 0;
}

/* The `n` computer players for a table of mean rating `rating` in pool `ruleset`: the rated
 * levels and think classes nearest to it (GET /v1/bots), each once, then the fallback's. */
static void bots_for(const char *ruleset, double rating, int n, struct bot_pick *out)
{
    int got = 0;
    struct store_rating_list l = {0};
    if (store_bot_ratings(&l) == STORE_OK) {
        while (got < n) {
            int best = -1;
            double bd = INFINITY;
            for (int i = 0; i < l.n; i++) {
                const struct store_rating *r = &l.rows[i];
                int ms = strcmp(r->think_class, "fast") == 0   ? 50
                         : strcmp(r->think_class, "slow") == 0 ? 1000
                                                               : BOT_THINK_MS;
                double d = fabs(r->rating.rating - rating);
                if (strcmp(r->pool, ruleset) != 0 || d >= bd || picked(out, got, r->bot, ms))
                    continue;
                best = i;
                bd = d;
            }
            if (best < 0) break;
            const struct store_rating *r = &l.rows[best];
            snprintf(out[got].level, sizeof out[got].level, "%s", r->bot);
            out[got].think_ms = strcmp(r->think_class, "fast") == 0   ? 50
                                : strcmp(r->think_class, "slow") == 0 ? 1000
                                                                      : BOT_THINK_MS;
            got++;
        }
        store_ratings_free(&l);
    }
    for (size_t k = 0; got < n && k < sizeof fallback / sizeof fallback[0]; k++)
        if (!picked(out, got, fallback[k].level, fallback[k].think_ms)) out[got++] = fallback[k];
}

/* A random permutation of 0..n-1 into order[] (Fisher-Yates). Returns 0 or -1. */
static int shuffle(int *order, int n)
{
    for (int i = 0; i < n; i++) order[i] = i;
    for (int i = n - 1; i > 0; i--) {
        uint64_t r;
        if (auth_random_u64(&r)) return -1;
        int k = (int)(r % (uint64_t)(i + 1));
        int t = order[i];
        order[i] = order[k];
        order[k] = t;
    }
    return 0;
}

/* A table ready to be created: its game's body, persons and seeks (a seated_game's). */
struct made_table {
    char *body; /* malloc'd */
    const char *persons[CC_MAX_PLAYERS];
    char ids[CC_MAX_PLAYERS * (AUTH_UUID_LEN + 1) + 3], seat_of[CC_MAX_PLAYERS * 3 + 3];
    struct seated_game sg;
};

/*
 * Prepares the game of the seeks `group` (ngroup of them, one pool) with `nbots` computer
 * players (`bots`, one rating each) in the missing seats, seats in random order, into *m
 * (free m->body). Returns GAME_COMMITTED (ready), or GAME_NO_MEMORY.
 */
static enum game_outcome table_make(const struct store_seek *const *group, int ngroup, int nbots,
                                    const struct bot_pick *bots, struct made_table *m)
{
    int nseats = ngroup + nbots, order[CC_MAX_PLAYERS];
    char seat_txt[CC_MAX_PLAYERS][SEAT_JSON_MAX];
    const char *seats[CC_MAX_PLAYERS];
    memset(m, 0, sizeof *m);
    if (nseats > CC_MAX_PLAYERS || shuffle(order, nseats)) return GAME_NO_MEMORY;
    /* order[s]: who sits at seat s (below ngroup a seek, else a computer player). */
    for (int s = 0; s < nseats; s++) {
        int who = order[s];
        if (who < ngroup) {
            cJSON *o = cJSON_CreateObject();
            char *t = o && cJSON_AddStringToObject(o, "name", group[who]->person_name)
                          ? cJSON_PrintUnformatted(o)
                          : NULL;
            cJSON_Delete(o);
            if (!t) return GAME_NO_MEMORY;
            snprintf(seat_txt[s], sizeof seat_txt[s], "%s", t);
            free(t);
        } else {
            snprintf(seat_txt[s], sizeof seat_txt[s], "{\"bot\":\"%s\",\"think_ms\":%d}",
                     bots[who - ngroup].level, bots[who - ngroup].think_ms);
        }
        seats[s] = seat_txt[s];
    }
    size_t io = 0, so = 0;
    m->ids[io++] = '{';
    m->seat_of[so++] = '{';
    for (int s = 0, k = 0; s < nseats; s++) {
        if (order[s] >= ngroup) continue;
        m->persons[s] = group[order[s]]->person_id;
        io += (size_t)snprintf(m->ids + io, sizeof m->ids - io, "%s%s", k ? "," : "",
                               group[order[s]]->id);
        so += (size_t)snprintf(m->seat_of + so, sizeof m->seat_of - so, "%s%d", k ? "," : "", s);
        k++;
    }
    snprintf(m->ids + io, sizeof m->ids - io, "}");
    snprintf(m->seat_of + so, sizeof m->seat_of - so, "}");
    m->body = json_seek_game_body(group[0]->pool, seats, nseats);
    if (!m->body) return GAME_NO_MEMORY;
    /* The seekers' POSTs were counted against the creation limit (routes_seeks.c). */
    m->sg = (struct seated_game){.body = m->body,
                                 .person_ids = m->persons,
                                 .nseeks = ngroup,
                                 .seek_ids = m->ids,
                                 .seek_seats = m->seat_of};
    return GAME_COMMITTED;
}

/* The next run's delay while `s` waits: its computer players' time, else the idle look. */
static long long next_for(const struct store_seek *s, long long next)
{
    if (s->bot_after_s) {
        long long due = (long long)s->bot_after_s * 1000 - s->age_ms;
        if (due < next) next = due;
    }
    return next;
}

/* A table a run makes: its seeks (indexes into the run's array), its computer players. */
struct table {
    int member[CC_MAX_PLAYERS];
    int n, nbots;
    long long ready_ms; /* how long its youngest seek has waited */
};

/* Gathers the tables of one pool, seeks[from..to) (oldest first), into tables[*ntables...],
 * their seeks marked in used[]. *next gets the next run's delay for the seeks left waiting. */
static void pool_plan(const struct run *r, const struct store_seek *seeks, int from, int to,
                      char *used, long long *next, struct table *tables, int *ntables)
{
    const struct store_seek *group[CC_MAX_PLAYERS];
    for (int i = from; i < to; i++) {
        if (used[i]) continue;
        const struct store_seek *a = &seeks[i];
        int need = a->players, n = 1,
            bot_due = a->bot_after_s && a->age_ms >= a->bot_after_s * 1000LL;
        group[0] = a;
        struct table *t = &tables[*ntables];
        t->member[0] = i;
        for (int j = i + 1; j < to && n < need; j++) {
            if (used[j]) continue;
            /* A table filled by computer players takes only seeks that accept them. */
            int ok = 1;
            for (int k = 0; k < n && ok; k++) ok = pair_ok(r, group[k], &seeks[j]);
            if (!ok) continue;
            t->member[n] = j;
            group[n++] = &seeks[j];
        }
        t->nbots = 0;
        if (n < need) {
            if (!bot_due) {
                *next = next_for(a, *next);
                continue;
            }
            /* Only the seeks that accept computer players sit with them. */
            int m = 1;
            for (int k = 1; k < n; k++)
                if (group[k]->bot_after_s) t->member[m++] = t->member[k];
            n = m;
            t->nbots = need - n;
        }
        t->n = n;
        t->ready_ms = a->age_ms;
        for (int k = 0; k < n; k++) {
            used[t->member[k]] = 1;
            if (seeks[t->member[k]].age_ms < t->ready_ms) t->ready_ms = seeks[t->member[k]].age_ms;
        }
        (*ntables)++;
    }
}

/* qsort: the table whose last seek came first goes first (it has waited longest whole). */
static int ready_first(const void *x, const void *y)
{
    const struct table *a = x, *b = y;
    return a->ready_ms > b->ready_ms ? -1 : a->ready_ms < b->ready_ms;
}

/* What became of tables[0..n) (made into m[0..n)) created together, outcome `rc`: counted
 * in r; a table not made for another reason than the store leaves its seeks waiting. When
 * the batch found a seek taken (another pairing, a cancel or a lapse took it first), each
 * table is created alone, so that the others are not lost with it. Returns -1 when the
 * store failed, else 0. */
static int batch_done(struct run *r, const struct table *tables, struct made_table *m, int n,
                      enum game_outcome rc, char *used)
{
    for (int i = 0; i < n; i++) {
        enum game_outcome one = rc == GAME_SEEKS_TAKEN ? seated_game_create(&m[i].sg) : rc;
        r->games += one == GAME_COMMITTED;
        r->taken += one == GAME_SEEKS_TAKEN; /* its seeks are read again next run */
        if (one == GAME_COMMITTED) {
            char seated[16];
            snprintf(seated, sizeof seated, "%d", tables[i].n + tables[i].nbots);
            log_kv(LOG_INFO, "seeks paired", "game", m[i].sg.id, "seats", seated, NULL);
        }
        if (one == GAME_COMMITTED || one == GAME_SEEKS_TAKEN) continue;
        log_kv(LOG_WARN, "seeks not paired", "outcome", game_outcome_name(one), NULL);
        if (game_outcome_failed(one)) return -1;
        for (int k = 0; k < tables[i].n; k++) used[tables[i].member[k]] = 0;
    }
    return 0;
}

/* Creates the tables[0..n) of a run, the longest ready first, MATCHMAKER_BATCH in one
 * transaction (one commit, its statements in one round trip: store_pipe.h). Returns -1
 * when the store failed, else 0. */
static int tables_create(struct run *r, const struct store_seek *seeks, struct table *tables, int n,
                         char *used)
{
    qsort(tables, (size_t)n, sizeof *tables, ready_first);
    struct made_table *m = calloc(MATCHMAKER_BATCH, sizeof *m);
    struct seated_game *sgs = calloc(MATCHMAKER_BATCH, sizeof *sgs);
    int failed = !m || !sgs;
    for (int i = 0; i < n && !failed;) {
        if (mono_ms() - r->started_ms > MATCHMAKER_RUN_MS) {
            /* Within the lease, or another run would make the same tables: the rest wait
             * for the next run, at once. */
            for (; i < n; i++)
                for (int k = 0; k < tables[i].n; k++) used[tables[i].member[k]] = 0;
            r->cut = 1;
            break;
        }
        int count = n - i < MATCHMAKER_BATCH ? n - i : MATCHMAKER_BATCH;
        enum game_outcome rc = GAME_COMMITTED;
        int made = 0;
        for (; made < count && rc == GAME_COMMITTED; made++) {
            const struct table *t = &tables[i + made];
            const struct store_seek *group[CC_MAX_PLAYERS];
            double sum = 0;
            for (int k = 0; k < t->n; k++) {
                group[k] = &seeks[t->member[k]];
                sum += group[k]->rating;
            }
            struct bot_pick bots[CC_MAX_PLAYERS];
            if (t->nbots) bots_for(group[0]->ruleset, sum / t->n, t->nbots, bots);
            rc = table_make(group, t->n, t->nbots, bots, &m[made]);
            sgs[made] = m[made].sg;
        }
        if (rc == GAME_COMMITTED) rc = seated_games_create(sgs, count);
        for (int k = 0; k < made; k++) memcpy(m[k].sg.id, sgs[k].id, sizeof m[k].sg.id);
        failed = batch_done(r, &tables[i], m, made, rc, used) != 0;
        for (int k = 0; k < made; k++) free(m[k].body);
        i += made;
    }
    free(m);
    free(sgs);
    return failed ? -1 : 0;
}

/* The blocks among the owners of seeks[0..n) into r (free r->blocks). Returns 0 or -1. */
static int blocks_read(struct run *r, const struct store_seek *seeks, int n)
{
    struct store_block *blocks = NULL;
    size_t cap = (size_t)n * (AUTH_UUID_LEN + 1) + 3, o = 0;
    char *persons = malloc(cap);
    if (!persons) return -1;
    persons[o++] = '{';
    for (int i = 0; i < n; i++)
        o += (size_t)snprintf(persons + o, cap - o, "%s%s", i ? "," : "", seeks[i].person_id);
    snprintf(persons + o, cap - o, "}");
    enum store_status s = store_blocks_among(persons, &blocks, &r->nblocks);
    free(persons);
    r->blocks = blocks;
    return s == STORE_OK ? 0 : -1;
}

/* jobs_kind.run: one look at every waiting seek. */
static enum jobs_result matchmaker_run(const struct store_job *j)
{
    if (j->game[0]) return JOBS_DROP; /* a job of no game (0027) */
    struct store_seek *seeks = NULL;
    int n = 0;
    long expired = 0;
    if (store_seeks_open(READ_MAX, &expired, &seeks, &n) != STORE_OK) return JOBS_RETRY;
    struct run r = {.started_ms = mono_ms()};
    char *used = calloc((size_t)n + 1, 1);
    struct table *tables = calloc((size_t)n + 1, sizeof *tables);
    if (!used || !tables || blocks_read(&r, seeks, n)) {
        free(used);
        free(tables);
        free((void *)r.blocks);
        store_seeks_free(seeks, n);
        return JOBS_RETRY;
    }
    long long next = MATCHMAKER_IDLE_MS;
    /* Every pool paired in memory first; then the tables are made, whichever pool they are
     * of, in the order their seekers have been waiting for them. */
    int ntables = 0;
    for (int from = 0; from < n;) {
        int to = from + 1;
        while (to < n && strcmp(seeks[to].pool, seeks[from].pool) == 0) to++;
        pool_plan(&r, seeks, from, to, used, &next, tables, &ntables);
        from = to;
    }
    int failed = tables_create(&r, seeks, tables, ntables, used) != 0;
    free(tables);
    int left = 0;
    for (int i = 0; i < n; i++) left += !used[i];
    free(used);
    free((void *)r.blocks);
    store_seeks_free(seeks, n);
    char nread[16], games[16], taken[16], ms[24];
    snprintf(nread, sizeof nread, "%d", n);
    snprintf(games, sizeof games, "%d", r.games);
    snprintf(taken, sizeof taken, "%d", r.taken);
    snprintf(ms, sizeof ms, "%lld", mono_ms() - r.started_ms);
    if (n)
        log_kv(LOG_INFO, "matchmaker run", "seeks", nread, "games", games, "taken", taken, "ms", ms,
               NULL);
    if (failed) return JOBS_RETRY;
    /* A full read, or a run cut short, may have left more: look again at once. */
    if (n == READ_MAX || r.cut) next = 0;
    if (!left && n < READ_MAX) {
        /* Nothing waits: the job ends, unless a seek was posted during the run. */
        return store_job_drop_free(j) == STORE_OK ? JOBS_DONE : JOBS_RETRY;
    }
    if (next < 50) next = 50;
    if (store_job_plan_free(MATCHMAKER_KIND, "", (int)next, MATCHMAKER_LEASE_MS, j) != STORE_OK)
        return JOBS_RETRY;
    return JOBS_DONE;
}

/* The slow lane: a run creates games, which takes more than a deadline's moment. */
static const struct jobs_kind matchmaker_kind = {MATCHMAKER_KIND, NULL, matchmaker_run,
                                                 JOBS_LANE_SLOW};

int matchmaker_init(void)
{
    return jobs_register(&matchmaker_kind);
}

int matchmaker_kick(void)
{
    return store_job_plan_free(MATCHMAKER_KIND, "", 0, MATCHMAKER_LEASE_MS, NULL) == STORE_OK ? 0
                                                                                              : -1;
}
