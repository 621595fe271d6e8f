/* t_reconnect.c: PostgreSQL restarted again and again under a load of reads and whole
 * turns: once /readyz answers 200 after a restart, every request must succeed.
 *
 *   RECONNECT_RESTARTS (5)    restarts of PostgreSQL (`make test-reconnect`: 20, alone)
 *   RECONNECT_CLIENTS (4)     client threads, each playing games of its own
 *   RECONNECT_UP_MS (400)     load between /readyz's 200 and the next stop
 *
 * Each request notes the phase when it starts and when it ends: the phase is "up" from
 * /readyz's first 200 after a start until the next stop begins. A request that starts and
 * ends within one "up" phase must answer 2xx (each client owns its games, so no other
 * client's move makes it stale); 5xx, no answer and any other status are counted. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hard.h"
#include "tests.h"

#define RC_GAME          "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"seed\":%d}"
#define RC_MAX_CLIENTS   16
#define RC_READY_WAIT_MS 30000 /* /readyz must answer 200 this soon after a start */

/* The run: its phase and what the clients saw. */
struct rc_run {
    const struct server *srv; /* the server under test */
    atomic_int phase;         /* 2 x restarts, + 1 while "up" */
    atomic_int stop;          /* set to end the clients */
    pthread_mutex_t lock;     /* guards the counts */
    long counted;             /* requests within one "up" phase */
    long reads, writes;       /* of them: reads, and draws, placements and creations */
    long failed_5xx;          /* of them: answered 5xx */
    long failed_other;        /* of them: no answer, or a status other than 2xx and 5xx */
    long outside;             /* requests not counted (a stop came in between) */
    char first[300];          /* the first counted failure */
};

/* A client's state. */
struct rc_client {
    struct rc_run *run; /* the run */
    int id;             /* its number */
    int seed;           /* of its next game */
    struct game g;      /* its game, or g.id "" */
};

/* One request; notes its answer when it lay within one "up" phase. */
static void rc_request(struct rc_client *c, int write, const char *method, const char *path,
                       const char *body, const char *const *h, struct resp *r)
{
    struct rc_run *run = c->run;
    int p0 = atomic_load(&run->phase);
    hard_send(run->srv, VIA_DIRECT, method, path, body, body ? strlen(body) : 0, h, r);
    int p1 = atomic_load(&run->phase);
    pthread_mutex_lock(&run->lock);
    if (p0 != p1 || !(p0 & 1)) {
        run->outside++;
    } else {
        run->counted++;
        if (write)
            run->writes++;
        else
            run->reads++;
        int bad5 = r->status >= 500, bad = r->status < 200 || r->status > 299;
        if (bad5)
            run->failed_5xx++;
        else if (bad)
            run->failed_other++;
        if (bad && !run->first[0])
            snprintf(run->first, sizeof run->first, "%s %s (restart %d): %ld %.200s", method, path,
                     p0 / 2, r->status, r->body ? r->body : "");
    }
    pthread_mutex_unlock(&run->lock);
}

/* Creates the client's next game; 0 or -1. */
static int rc_new_game(struct rc_client *c)
{
    char body[128];
    snprintf(body, sizeof body, RC_GAME, c->seed++);
    struct resp r;
    const char *h[] = {"Content-Type: application/json", NULL};
    rc_request(c, 1, "POST", "/v1/games", body, h, &r);
    int ok = r.status == 201;
    if (ok) {
        memset(&c->g, 0, sizeof c->g);
        snprintf(c->g.id, sizeof c->g.id, "%s", jstr(r.json, "id"));
        const cJSON *players = jget(r.json, "players");
        c->g.nplayers = cJSON_GetArraySize(players);
        for (int s = 0; s < c->g.nplayers && s < 5; s++)
            snprintf(c->g.auth[s], sizeof c->g.auth[s], "Authorization: Bearer %s",
                     jstr(cJSON_GetArrayItem(players, s), "token"));
    }
    resp_free(&r);
    return ok ? 0 : -1;
}

/* One turn of the client's game (a read first, then draw and placement as needed); a
 * failed request ends it early: the next turn reads the game again. */
static void rc_turn(struct rc_client *c)
{
    if (!c->g.id[0] && rc_new_game(c)) {
        usleep(20000);
        return;
    }
    char path[192];
    struct resp r;
    snprintf(path, sizeof path, "/v1/games/%s", c->g.id);
    rc_request(c, 0, "GET", path, NULL, NULL, &r);
    if (r.status != 200) {
        resp_free(&r);
        usleep(20000);
        return;
    }
    int seat = (int)jnum(r.json, "turn.seat");
    int draw = strcmp(jstr(r.json, "turn.phase"), "draw") == 0;
    int finished = strcmp(jstr(r.json, "status"), "finished") == 0;
    resp_free(&r);
    if (finished || seat < 0 || seat >= c->g.nplayers) {
        c->g.id[0] = '\0';
        return;
    }
    const char *h[] = {c->g.auth[seat], NULL};
    if (draw) {
        snprintf(path, sizeof path, "/v1/games/%s/draw", c->g.id);
        rc_request(c, 1, "POST", path, NULL, h, &r);
        long st = r.status;
        finished = strcmp(jstr(r.json, "game.status"), "finished") == 0;
        resp_free(&r);
        if (st != 200 || finished) return;
    }
    snprintf(path, sizeof path, "/v1/games/%s/placements", c->g.id);
    rc_request(c, 0, "GET", path, NULL, NULL, &r);
    const cJSON *p = jget(r.json, "placements.0");
    char body[128] = "";
    if (r.status == 200 && p)
        snprintf(body, sizeof body, "{\"x\":%d,\"y\":%d,\"rotation\":%d}", (int)jnum(p, "x"),
                 (int)jnum(p, "y"), (int)jnum(p, "rotation"));
    resp_free(&r);
    if (!body[0]) return;
    const char *hp[] = {c->g.auth[seat], "Content-Type: application/json", NULL};
    rc_request(c, 1, "POST", path, body, hp, &r);
    resp_free(&r);
}

static void *rc_client_main(void *p)
{
    struct rc_client *c = p;
    while (!atomic_load(&c->run->stop)) rc_turn(c);
    return NULL;
}

ITEST_SOLO(test_reconnect, "PostgreSQL restarted under load: no failure after /readyz 200")
{
    (void)srv;
    const char *stop, *start;
    if (hard_pg_commands("reconnect", &stop, &start)) return;
    int restarts = (int)hard_knob("RECONNECT_RESTARTS", 5);
    int nclients = (int)hard_knob("RECONNECT_CLIENTS", 4);
    long up_ms = hard_knob("RECONNECT_UP_MS", 400);
    if (nclients < 1) nclients = 1;
    if (nclients > RC_MAX_CLIENTS) nclients = RC_MAX_CLIENTS;
    struct server x;
    CHECK(hard_server_start(&x, NULL, 0) == 0, "the server did not start");
    static struct rc_run run;
    memset(&run, 0, sizeof run);
    run.srv = &x;
    atomic_store(&run.phase, 1);
    pthread_mutex_init(&run.lock, NULL);
    static struct rc_client clients[RC_MAX_CLIENTS];
    pthread_t threads[RC_MAX_CLIENTS];
    int started = 0;
    for (int i = 0; i < nclients; i++) {
        memset(&clients[i], 0, sizeof clients[i]);
        clients[i].run = &run;
        clients[i].id = i;
        clients[i].seed = 5000 + 1000 * i;
        if (pthread_create(&threads[i], NULL, rc_client_main, &clients[i]) != 0) break;
        started++;
    }
    usleep((useconds_t)up_ms * 1000);
    int done = 0, pg_ok = 1, ready_ok = 1;
    long long ready_max = 0, ready_sum = 0, t_begin = hard_now_ms();
    for (; done < restarts && pg_ok && ready_ok; done++) {
        atomic_store(&run.phase, 2 * done + 2); /* down: nothing counts from here */
        pg_ok = system(stop) == 0 && system(start) == 0;
        long long t_up = hard_now_ms();
        int ready = 0;
        while (pg_ok && !ready && hard_now_ms() - t_up < RC_READY_WAIT_MS) {
            struct resp r;
            hard_send(&x, VIA_DIRECT, "GET", "/readyz", NULL, 0, NULL, &r);
            ready = r.status == 200;
            resp_free(&r);
            if (!ready) usleep(20000);
        }
        ready_ok = ready;
        long long took = hard_now_ms() - t_up;
        ready_sum += took;
        if (took > ready_max) ready_max = took;
        atomic_store(&run.phase, 2 * done + 3); /* up: every request must succeed */
        usleep((useconds_t)up_ms * 1000);
    }
    atomic_store(&run.stop, 1);
    for (int i = 0; i < started; i++) pthread_join(threads[i], NULL);
    long long total_ms = hard_now_ms() - t_begin;
    printf("  reconnect: %d restarts in %lld ms (/readyz 200 after %lld ms on average, %lld at "
           "most); after /readyz 200: %ld requests (%ld reads, %ld writes), %ld answered 5xx, "
           "%ld other failures; %ld requests around the restarts not counted\n",
           done, total_ms, done ? ready_sum / done : 0, ready_max, run.counted, run.reads,
           run.writes, run.failed_5xx, run.failed_other, run.outside);
    pthread_mutex_destroy(&run.lock);
    int code = hard_server_stop(&x);
    CHECK(started == nclients, "only %d client threads started", started);
    CHECK(pg_ok, "could not stop and start PostgreSQL (restart %d)", done);
    CHECK(ready_ok, "/readyz not 200 within %d ms after restart %d", RC_READY_WAIT_MS, done);
    CHECK(run.counted > 20L * done, "only %ld requests after /readyz 200", run.counted);
    CHECK(run.failed_5xx == 0 && run.failed_other == 0,
          "%ld 5xx and %ld other failures after /readyz 200; the first: %s", run.failed_5xx,
          run.failed_other, run.first);
    CHECK(code == 0, "the server exited with status %d", code);
}
