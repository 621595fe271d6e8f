/* t_drain.c: rolling restarts (issue 16, item 2). Two servers of their own on the test
 * database, clients under load, each server in turn sent SIGTERM, waited for and started
 * again; no request may fail.
 *
 * The clients do what docs/operations.md tells clients to do: a connect that is refused
 * (ECONNREFUSED: the server is draining or down) is sent again to the other server at
 * once; every POST carries an Idempotency-Key, so a request whose connection was reset
 * before any byte of an answer could be sent again as well; an event stream that ends is
 * opened again (on either server) with Last-Event-ID. The load: players of games of two
 * persons (whole turns: the draw and the placement, each with its own Idempotency-Key, and
 * a new game with an anonymous key when one is over), persons playing against a computer
 * player (mcts, thinking DRAIN_THINK_MS: a computer player's turn is in progress most of
 * the time) and waiting for their turn with long polls (events?wait=), readers of games
 * and of /turn, and one event-stream follower per game.
 *
 * A FAILED request (the test asserts there is none) is one that, after being sent:
 *   - was answered with a 5xx status, or
 *   - was answered with a status the client's protocol does not allow (a turn's draw or
 *     placement refused, a read of an existing game not 200, a long poll not 200, an
 *     event stream not 200), or
 *   - got an answer cut short (its status line came, then the connection failed), or
 *   - got no answer within DRAIN_REQ_TIMEOUT_MS, or
 *   - had its connection closed or reset before any byte of an answer (docs/clients.md lets a
 *     client retry that, but a draining server must not cause it: counted as a failure;
 *     a connection the kernel completed the moment before the listening socket was shut
 *     would be one), or
 *   - found no server accepting its connection for DRAIN_GIVE_UP_MS.
 * An event stream FAILS when it is cut short (not ended by the server's last chunk), or
 * when a follower, across its reconnections, sees an event twice or misses one.
 * Not failures: a refused connect (the client goes to the other server; counted as
 * "refused"), and a stream the server ends cleanly (the follower reconnects).
 *
 * Also checked: each server exits with status 0 within DRAIN_TIMEOUT (the figures are
 * printed); SIGTERM comes while the server plays a computer player's turn (its
 * /metrics tilehall_jobs_running is 1: its "draining" log line shows it; a drain that
 * missed the job, on a stalled machine, is checked too and followed by another), which the
 * drained server finished (its "drained" line: ended by "done", nothing left); every game advanced
 * across each restart and its stored log replays to its state with no placement twice (a turn
 * played exactly once).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "db.h"
#include "hard.h"
#include "hook.h"
#include "tests.h"

#define NSRV        2
#define NPAIR       2 /* games of two persons, each played by one client thread */
#define NBOT        4 /* games of a person against a computer player */
#define NREAD       2 /* reader threads */
#define NFOLLOW     (NPAIR + NBOT)
#define DRAIN_TRIES 3     /* SIGTERMs per server at most, until one comes during a job */
#define REQ_TIMEOUT 15000 /* DRAIN_REQ_TIMEOUT_MS: an answer must come within this */
#define GIVE_UP_MS  20000 /* DRAIN_GIVE_UP_MS: no server accepting for this long */

static int ports[NSRV];       /* the servers' ports (fixed across restarts) */
static atomic_int running;    /* 1 while the clients run */
static atomic_long n_sent;    /* requests sent (retries each counted once more) */
static atomic_long n_ok;      /* answered as the protocol allows */
static atomic_long n_fail;    /* failed (see the header comment) */
static atomic_long n_refused; /* connects refused (then sent to the other server) */
static atomic_long n_resets;  /* connections closed before an answer (failures too) */
static atomic_long n_turns;   /* whole turns played by persons */
static atomic_long n_polls;   /* long polls answered */
static pthread_mutex_t why_lock = PTHREAD_MUTEX_INITIALIZER;
static char first_why[400]; /* the first failure (why_lock) */

static void failed(const char *fmt, const char *a, long b, int rc)
{
    atomic_fetch_add(&n_fail, 1);
    pthread_mutex_lock(&why_lock);
    if (!first_why[0]) snprintf(first_why, sizeof first_why, fmt, a, b, rc);
    pthread_mutex_unlock(&why_lock);
}

/*
 * One request as docs/operations.md says, to server *srv (switched to the other one when a
 * connect is refused). `ok_status` is the status the protocol expects (0: any below 500).
 * Returns the answer's status with `r` filled in, or 0 (a failure, counted).
 */
static long dreq(int *srv, const char *method, const char *path, const char *body,
                 const char *const *headers, long ok_status, struct resp *r)
{
    long long give_up = hard_now_ms() + GIVE_UP_MS;
    for (;;) {
        memset(r, 0, sizeof *r);
        CURL *c = curl_easy_init();
        if (!c) return 0;
        char url[512];
        snprintf(url, sizeof url, "http://127.0.0.1:%d%s", ports[*srv], path);
        struct curl_slist *hl = resp_headers(headers, body != NULL);
        resp_request(c, url, method, body, hl);
        resp_capture(c, resp_on_body, resp_on_header, r, REQ_TIMEOUT);
        atomic_fetch_add(&n_sent, 1);
        CURLcode rc = resp_perform(c, r);
        long got = 0;
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &got);
        curl_slist_free_all(hl);
        curl_easy_cleanup(c);
        resp_parse(r);
        if (rc == CURLE_OK) {
            if (r->status >= 500 || (ok_status && r->status != ok_status)) {
                char what[300];
                snprintf(what, sizeof what, "%s %s: %ld %.150s", method, path, r->status, r->body);
                failed("%s (%ld, %d)", what, r->status, 0);
                return 0;
            }
            atomic_fetch_add(&n_ok, 1);
            return r->status;
        }
        if (got > 0 || rc == CURLE_OPERATION_TIMEDOUT) {
            failed(got ? "%s: answer %ld cut short (curl %d)" : "%s: no answer in time (%ld, %d)",
                   path, got, (int)rc);
            resp_free(r);
            return 0;
        }
        if (rc == CURLE_COULDNT_CONNECT) {
            atomic_fetch_add(&n_refused, 1);
        } else {
            atomic_fetch_add(&n_resets, 1);
            failed("%s: connection closed before an answer (%ld, curl %d)", path, 0, (int)rc);
        }
        resp_free(r);
        *srv = (*srv + 1) % NSRV;
        if (hard_now_ms() > give_up) {
            failed("%s: no server accepted a connection for %ld ms (%d)", path, GIVE_UP_MS, 0);
            return 0;
        }
        usleep(5000);
    }
}

/* A header line "Idempotency-Key: ..." of 48 characters, new on every call. */
static void new_key(char *out, size_t cap)
{
    static atomic_ulong n;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    snprintf(out, cap, "Idempotency-Key: drain%08x%012lx%011lx%012lx", (unsigned)getpid(),
             (unsigned long)atomic_fetch_add(&n, 1), (unsigned long)ts.tv_nsec,
             (unsigned long)ts.tv_sec);
}

/*
 * One whole turn of the seat to move in `g` (read from j), through dreq. Returns 1 when the
 * game is finished afterwards, 0 when it goes on, -1 on a failure (counted).
 */
static int turn(int *srv, const struct game *g, const cJSON *j)
{
    int seat = (int)jnum(j, "turn.seat");
    char path[160], key[80];
    struct resp r;
    if (strcmp(jstr(j, "turn.phase"), "draw") == 0) {
        snprintf(path, sizeof path, "/v1/games/%s/draw", g->id);
        new_key(key, sizeof key);
        const char *h[] = {g->auth[seat], key, NULL};
        if (!dreq(srv, "POST", path, NULL, h, 200, &r)) return -1;
        int fin = strcmp(jstr(r.json, "game.status"), "finished") == 0;
        resp_free(&r);
        if (fin) return 1;
    }
    snprintf(path, sizeof path, "/v1/games/%s/placements", g->id);
    if (!dreq(srv, "GET", path, NULL, NULL, 200, &r)) return -1;
    const cJSON *p = jget(r.json, "placements.0");
    char body[160];
    snprintf(body, sizeof body, "{\"x\":%d,\"y\":%d,\"rotation\":%d}", (int)jnum(p, "x"),
             (int)jnum(p, "y"), (int)jnum(p, "rotation"));
    resp_free(&r);
    new_key(key, sizeof key);
    const char *h[] = {g->auth[seat], key, NULL};
    if (!dreq(srv, "POST", path, body, h, 201, &r)) return -1;
    const cJSON *evs = jget(r.json, "events");
    const cJSON *last = cJSON_GetArrayItem(evs, cJSON_GetArraySize(evs) - 1);
    int fin = strcmp(jstr(last, "type"), "game_finished") == 0;
    resp_free(&r);
    atomic_fetch_add(&n_turns, 1);
    return fin;
}

/* The game's JSON through dreq (caller deletes), or NULL (a failure, counted). */
static cJSON *dget(int *srv, const char *id)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s", id);
    struct resp r;
    if (!dreq(srv, "GET", path, NULL, NULL, 200, &r)) return NULL;
    cJSON *j = r.json;
    r.json = NULL;
    resp_free(&r);
    return j;
}

#define PAIR_GAME "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}]}"
#define BOT_GAME  "{\"players\":[{\"name\":\"Ann\"},{\"bot\":\"mcts\",\"think_ms\":" THINK_S "}]}"
#define THINK_S   "700" /* DRAIN_THINK_MS: the computer player's thinking time */

/* A client thread: its games and its server. */
struct client {
    pthread_t thread;
    int srv;          /* the server it sends to now */
    struct game g;    /* its game (a player: replaced when over) */
    struct game *all; /* readers: the games to read */
    int nall;         /* entries in all */
    int games_played; /* players: games finished */
};

/* A player of games of two persons: plays both seats, a new game when one is over. */
static void *pair_main(void *p)
{
    struct client *c = p;
    while (atomic_load(&running)) {
        cJSON *j = dget(&c->srv, c->g.id);
        if (!j) {
            usleep(50000);
            continue;
        }
        int fin = strcmp(jstr(j, "status"), "finished") == 0 ? 1 : turn(&c->srv, &c->g, j);
        cJSON_Delete(j);
        if (fin == 1) {
            c->games_played++;
            char key[80];
            new_key(key, sizeof key);
            const char *h[] = {key, NULL};
            struct resp r;
            if (!dreq(&c->srv, "POST", "/v1/games", PAIR_GAME, h, 201, &r)) continue;
            struct game ng = {0};
            snprintf(ng.id, sizeof ng.id, "%s", jstr(r.json, "id"));
            ng.nplayers = 2;
            for (int s = 0; s < 2; s++) {
                char t[16];
                snprintf(t, sizeof t, "players.%d", s);
                snprintf(ng.token[s], sizeof ng.token[s], "%s", jstr(jget(r.json, t), "token"));
                snprintf(ng.auth[s], sizeof ng.auth[s], "Authorization: Bearer %s", ng.token[s]);
            }
            resp_free(&r);
            c->g = ng;
        } else if (fin < 0) {
            usleep(50000);
        }
    }
    return NULL;
}

/* A person against a computer player: plays seat 0, waits for its turn with long polls. */
static void *person_main(void *p)
{
    struct client *c = p;
    int after = 0;
    while (atomic_load(&running)) {
        cJSON *j = dget(&c->srv, c->g.id);
        if (!j) {
            usleep(50000);
            continue;
        }
        int mine = jnum(j, "turn.seat") == 0 && strcmp(jstr(j, "status"), "active") == 0;
        int fin = strcmp(jstr(j, "status"), "finished") == 0;
        if (mine) turn(&c->srv, &c->g, j);
        cJSON_Delete(j);
        if (mine) continue;
        if (fin) break;
        char path[200];
        snprintf(path, sizeof path, "/v1/games/%s/events?after=%d&wait=5", c->g.id, after);
        struct resp r;
        if (dreq(&c->srv, "GET", path, NULL, NULL, 200, &r)) {
            const cJSON *evs = jget(r.json, "events");
            int n = cJSON_GetArraySize(evs);
            if (n > 0) after = (int)jnum(cJSON_GetArrayItem(evs, n - 1), "seq");
            atomic_fetch_add(&n_polls, 1);
        }
        resp_free(&r);
    }
    return NULL;
}

/* A reader: each game's state and /turn in turn. */
static void *reader_main(void *p)
{
    struct client *c = p;
    for (int i = 0; atomic_load(&running); i++) {
        const struct game *g = &c->all[i % c->nall];
        char path[160];
        snprintf(path, sizeof path, i % 2 ? "/v1/games/%s/turn" : "/v1/games/%s", g->id);
        struct resp r;
        dreq(&c->srv, "GET", path, NULL, NULL, 200, &r);
        resp_free(&r);
        usleep(2000);
    }
    return NULL;
}

/* An event-stream follower of one game, reconnecting with Last-Event-ID. */
struct follower {
    pthread_t thread;
    char game[64];         /* the game followed */
    int srv;               /* the server it reads from now */
    atomic_int stop;       /* 1: go away */
    atomic_int last;       /* the last event's id seen */
    atomic_int done;       /* 1 once the thread ended */
    int finished;          /* 1 once game_finished came */
    int twice, missed;     /* events seen twice, ids skipped */
    int streams;           /* streams the server ended cleanly */
    int cut;               /* streams cut short (failures) */
    int refused;           /* connects refused */
    int resets;            /* closed before an answer (failures) */
    int bad_status;        /* answered other than 200 (failures) */
    struct resp_line line; /* the line being received */
    int cur_id;            /* the event being received */
    int cur_data;          /* 1 once its data came */
    int cur_final;         /* 1: it is game_finished */
};

static void follower_line(void *ctx, const char *l)
{
    struct follower *f = ctx;
    if (!l[0]) {
        if (f->cur_data && f->cur_id > 0) {
            int last = atomic_load(&f->last);
            if (f->cur_id <= last)
                f->twice++;
            else {
                if (f->cur_id != last + 1) f->missed += f->cur_id - last - 1;
                atomic_store(&f->last, f->cur_id);
            }
            if (f->cur_final) f->finished = 1;
        }
        f->cur_id = -1;
        f->cur_data = f->cur_final = 0;
    } else if (strncmp(l, "id: ", 4) == 0) {
        f->cur_id = (int)strtol(l + 4, NULL, 10);
    } else if (strncmp(l, "data: ", 6) == 0) {
        f->cur_data = 1;
    } else if (strcmp(l, "event: game_finished") == 0) {
        f->cur_final = 1;
    }
}

static size_t follower_body(char *p, size_t size, size_t nmemb, void *ud)
{
    struct follower *f = ud;
    size_t n = size * nmemb;
    resp_lines(&f->line, p, n, follower_line, f);
    return n;
}

static void *follower_main(void *p)
{
    struct follower *f = p;
    while (!atomic_load(&f->stop) && !f->finished) {
        CURL *h = curl_easy_init();
        if (!h) break;
        char url[256], lei[64];
        snprintf(url, sizeof url, "http://127.0.0.1:%d/v1/games/%s/events", ports[f->srv], f->game);
        snprintf(lei, sizeof lei, "Last-Event-ID: %d", atomic_load(&f->last));
        struct curl_slist *hl = curl_slist_append(NULL, "Accept: text/event-stream");
        hl = curl_slist_append(hl, lei);
        curl_easy_setopt(h, CURLOPT_URL, url);
        curl_easy_setopt(h, CURLOPT_HTTPHEADER, hl);
        curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, follower_body);
        curl_easy_setopt(h, CURLOPT_WRITEDATA, f);
        curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
        curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, resp_abort_when);
        curl_easy_setopt(h, CURLOPT_XFERINFODATA, &f->stop);
        f->line.len = 0;
        f->cur_id = -1;
        f->cur_data = f->cur_final = 0;
        atomic_fetch_add(&n_sent, 1);
        CURLcode rc = curl_easy_perform(h);
        long got = 0;
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &got);
        curl_slist_free_all(hl);
        curl_easy_cleanup(h);
        if (rc == CURLE_ABORTED_BY_CALLBACK && atomic_load(&f->stop)) break;
        if (rc == CURLE_OK && got == 200) {
            f->streams++;
            atomic_fetch_add(&n_ok, 1);
            usleep(20000); /* the stream's retry: asks for 250 ms; the test is quicker */
        } else if (rc == CURLE_OK) {
            f->bad_status++;
            failed("stream of %s: %ld (%d)", f->game, got, 0);
            usleep(100000);
        } else if (got > 0) {
            f->cut++;
            failed("stream of %s cut short (%ld, curl %d)", f->game, got, (int)rc);
        } else if (rc == CURLE_COULDNT_CONNECT) {
            f->refused++;
            atomic_fetch_add(&n_refused, 1);
            f->srv = (f->srv + 1) % NSRV;
            usleep(5000);
        } else {
            f->resets++;
            atomic_fetch_add(&n_resets, 1);
            failed("stream of %s: closed before an answer (%ld, curl %d)", f->game, 0, (int)rc);
            f->srv = (f->srv + 1) % NSRV;
        }
    }
    atomic_store(&f->done, 1);
    return NULL;
}

/* A server of this test: its own log (where its drain lines are read). */
struct dsrv {
    pid_t pid;     /* its process, 0 when stopped */
    int port;      /* its port */
    char log[256]; /* its log file */
};

/* Starts `d` (on d->port; 0: a port the kernel gives it, kept in d->port) with
 * LOG_LEVEL=info; waits for /readyz. 0 or -1. */
static int dsrv_start(struct dsrv *d)
{
    static const char *const env[] = {"THREADS=4", "LOG_LEVEL=info", "BOT_WORKERS=1",
                                      "DRAIN_TIMEOUT=20", NULL};
    d->pid = itest_spawn_server(&d->port, d->log, env);
    if (d->pid < 0) {
        d->pid = 0;
        return -1;
    }
    char base[64];
    snprintf(base, sizeof base, "http://127.0.0.1:%d", d->port);
    int rc = itest_wait_answer(base, "/readyz", d->pid, 400, 20000);
    if (rc == -1) d->pid = 0; /* it exited */
    return rc ? -1 : 0;
}

/* SIGTERM, then waits up to `limit_ms` for the exit: its status (255 when it had to be
 * killed), the milliseconds it took in *ms. */
static int dsrv_stop(struct dsrv *d, long limit_ms, long long *ms)
{
    long long t0 = hard_now_ms();
    *ms = 0;
    if (d->pid <= 0) return -1;
    int status = itest_terminate(d->pid, limit_ms, 2000);
    *ms = hard_now_ms() - t0;
    d->pid = 0;
    return status;
}

/* The value of "name":"..." in the last line of file `path` holding `msg`, into out. */
static void log_field(const char *path, const char *msg, const char *name, char *out, size_t cap)
{
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[2048], want[64], key[64];
    snprintf(want, sizeof want, "\"msg\":\"%s\"", msg);
    snprintf(key, sizeof key, "\"%s\":\"", name);
    while (fgets(line, sizeof line, f)) {
        if (!strstr(line, want)) continue;
        const char *v = strstr(line, key);
        if (!v) continue;
        v += strlen(key);
        snprintf(out, cap, "%.*s", (int)strcspn(v, "\""), v);
    }
    fclose(f);
}

/* Waits up to 6 s for a job to start on `srv` (its gauge seen at 0, then 1); failing
 * that, for the gauge to be at least 1 (a job already running when first seen). */
static void wait_job_start(const struct server *srv)
{
    long long until = hard_now_ms() + 6000;
    int seen_idle = 0;
    while (hard_now_ms() < until) {
        long jobs = hard_metric(srv, "tilehall_jobs_running");
        if (jobs == 0) seen_idle = 1;
        if (jobs >= 1 && seen_idle) return;
        usleep(5000);
    }
    until = hard_now_ms() + 6000;
    while (hard_metric(srv, "tilehall_jobs_running") < 1 && hard_now_ms() < until) usleep(5000);
}

/* The game's stored version (-1 unknown). */
static int stored_version(const char *id)
{
    return (int)db_scalar_id("SELECT version FROM games WHERE id = $1::uuid", id);
}

ITEST(test_drain, "drain: two servers restarted in turn under load (SIGTERM), no request failed")
{
    atomic_store(&n_sent, 0);
    atomic_store(&n_ok, 0);
    atomic_store(&n_fail, 0);
    atomic_store(&n_refused, 0);
    atomic_store(&n_resets, 0);
    atomic_store(&n_turns, 0);
    atomic_store(&n_polls, 0);
    first_why[0] = '\0';
    const char *base_log = itest_server_log();
    struct dsrv d[NSRV];
    memset(d, 0, sizeof d);
    int started = 1;
    for (int i = 0; i < NSRV; i++) {
        snprintf(d[i].log, sizeof d[i].log, "%s.drain%d", base_log, i + 1);
        FILE *f = fopen(d[i].log, "w");
        if (f) fclose(f);
        if (dsrv_start(&d[i])) started = 0;
        ports[i] = d[i].port;
    }
    struct server direct[NSRV];
    memset(direct, 0, sizeof direct);
    for (int i = 0; i < NSRV; i++)
        snprintf(direct[i].base, sizeof direct[i].base, "http://127.0.0.1:%d", ports[i]);
    struct client pairs[NPAIR], persons[NBOT], readers[NREAD];
    struct follower *fol = calloc(NFOLLOW, sizeof *fol);
    struct game all[NPAIR + NBOT];
    memset(pairs, 0, sizeof pairs);
    memset(persons, 0, sizeof persons);
    memset(readers, 0, sizeof readers);
    char why[400] = "";
    int created = started && fol;
    for (int i = 0; created && i < NPAIR; i++)
        created = game_new(&direct[i % NSRV], PAIR_GAME, &pairs[i].g, why, sizeof why) == 0;
    for (int i = 0; created && i < NBOT; i++)
        created = game_new(&direct[i % NSRV], BOT_GAME, &persons[i].g, why, sizeof why) == 0;
    int threads = 0, nfol = 0;
    long long drain_ms[NSRV] = {0}, start_ms[NSRV] = {0};
    int code[NSRV] = {-1, -1}, restarted[NSRV] = {0};
    char in_jobs[NSRV][16], in_reqs[NSRV][16], ended_by[NSRV][32], jobs_left[NSRV][16];
    memset(in_jobs, 0, sizeof in_jobs);
    memset(in_reqs, 0, sizeof in_reqs);
    memset(ended_by, 0, sizeof ended_by);
    memset(jobs_left, 0, sizeof jobs_left);
    int advanced[NSRV] = {1, 1}, drains[NSRV] = {0};
    if (created) {
        atomic_store(&running, 1);
        for (int i = 0; i < NPAIR; i++) {
            all[i] = pairs[i].g;
            pairs[i].srv = i % NSRV;
            pthread_create(&pairs[i].thread, NULL, pair_main, &pairs[i]);
        }
        for (int i = 0; i < NBOT; i++) {
            all[NPAIR + i] = persons[i].g;
            persons[i].srv = (i + 1) % NSRV;
            pthread_create(&persons[i].thread, NULL, person_main, &persons[i]);
        }
        for (int i = 0; i < NREAD; i++) {
            readers[i].srv = i % NSRV;
            readers[i].all = all;
            readers[i].nall = NPAIR + NBOT;
            pthread_create(&readers[i].thread, NULL, reader_main, &readers[i]);
        }
        for (int i = 0; i < NFOLLOW; i++) {
            snprintf(fol[i].game, sizeof fol[i].game, "%.63s", all[i].id);
            fol[i].srv = i % NSRV;
            pthread_create(&fol[i].thread, NULL, follower_main, &fol[i]);
            nfol++;
        }
        threads = 1;
        usleep(2000000);
        for (int k = 0; k < NSRV; k++) {
            int before[NBOT];
            for (int i = 0; i < NBOT; i++) before[i] = stored_version(persons[i].g.id);
            /* SIGTERM while this server plays a computer player's turn: just after a job
             * started. A bot's turn is two jobs: the draw, done in a few ms and rarely
             * seen by a poll, then the placement, whose 700 ms of thinking are then
             * nearly all ahead. A job may still have ended before the signal (a draw, a
             * stalled machine), so up to DRAIN_TRIES drains: every one is checked, and one
             * must have had the job. */
            for (int attempt = 0; attempt < DRAIN_TRIES; attempt++) {
                wait_job_start(&direct[k]);
                long long ms;
                int c = dsrv_stop(&d[k], 40000, &ms);
                if (code[k] <= 0) code[k] = c;
                if (ms > drain_ms[k]) drain_ms[k] = ms;
                char jobs[16], by[32], left[16];
                log_field(d[k].log, "draining", "jobs", jobs, sizeof jobs);
                log_field(d[k].log, "draining", "requests", in_reqs[k], sizeof in_reqs[k]);
                log_field(d[k].log, "drained", "ended_by", by, sizeof by);
                log_field(d[k].log, "drained", "jobs_left", left, sizeof left);
                if (attempt == 0 || strtol(jobs, NULL, 10) > 0)
                    memcpy(in_jobs[k], jobs, sizeof jobs);
                if (attempt == 0 || strcmp(by, "done") != 0) memcpy(ended_by[k], by, sizeof by);
                if (attempt == 0 || strcmp(left, "0") != 0) memcpy(jobs_left[k], left, sizeof left);
                drains[k]++;
                long long t0 = hard_now_ms();
                restarted[k] = dsrv_start(&d[k]) == 0;
                start_ms[k] = hard_now_ms() - t0;
                if (!restarted[k] || strtol(in_jobs[k], NULL, 10) > 0) break;
            }
            /* Every game of a computer player moved on across the restart: looked at until
             * each has (the load going on meanwhile, half a second at the least), for up to
             * 10 s. */
            usleep(500000);
            long long until = hard_now_ms() + 10000;
            do {
                advanced[k] = 1;
                for (int i = 0; i < NBOT; i++)
                    if (stored_version(persons[i].g.id) <= before[i]) advanced[k] = 0;
            } while (!advanced[k] && hard_now_ms() < until && (usleep(100000), 1));
        }
        atomic_store(&running, 0);
    }
    for (int i = 0; threads && i < NPAIR; i++) pthread_join(pairs[i].thread, NULL);
    for (int i = 0; threads && i < NBOT; i++) pthread_join(persons[i].thread, NULL);
    for (int i = 0; threads && i < NREAD; i++) pthread_join(readers[i].thread, NULL);
    /* The followers catch up with every game's last event, then go. */
    int behind = 0;
    for (int i = 0; i < nfol; i++) {
        long last = db_scalar_id("SELECT last_seq FROM games WHERE id = $1::uuid", fol[i].game);
        long long end = hard_now_ms() + 5000;
        while (atomic_load(&fol[i].last) < last && !atomic_load(&fol[i].done) &&
               hard_now_ms() < end)
            usleep(10000);
        if (atomic_load(&fol[i].last) != last) behind++;
        atomic_store(&fol[i].stop, 1);
    }
    int twice = 0, missed = 0, cut = 0, streams = 0, fresets = 0, fbad = 0;
    for (int i = 0; i < nfol; i++) {
        pthread_join(fol[i].thread, NULL);
        twice += fol[i].twice;
        missed += fol[i].missed;
        cut += fol[i].cut;
        streams += fol[i].streams;
        fresets += fol[i].resets;
        fbad += fol[i].bad_status;
    }
    free(fol);
    long long end_code[NSRV];
    int final_code[NSRV];
    for (int i = 0; i < NSRV; i++) final_code[i] = dsrv_stop(&d[i], 40000, &end_code[i]);
    /* Every game's stored log is sound (a computer player's turn played exactly once). The
     * run's own server shares the database and may still play computer players' turns, so
     * the check reads each game consistently while it goes on (db_replay_check, db_log_sound:
     * once, two separate counts saw 9 placements, then 10 squares, in a CI run). */
    int sound = 1;
    char swhy[400] = "";
    for (int i = 0; created && sound && i < NPAIR + NBOT; i++)
        sound = db_log_sound(all[i].id, swhy, sizeof swhy) == 0;
    for (int i = 0; created && sound && i < NPAIR; i++)
        sound = db_log_sound(pairs[i].g.id, swhy, sizeof swhy) == 0;
    (void)srv;
    int with_job = 1;
    for (int k = 0; k < NSRV; k++) with_job &= strtol(in_jobs[k], NULL, 10) > 0;
    printf("  drain: server 1 exited %d in %lld ms (in progress: %s requests, %s jobs; %s, %s "
           "jobs left), server 2 %d in %lld ms (%s requests, %s jobs; %s, %s left); %d and %d "
           "drains until one had a job; restarts took %lld and %lld ms\n",
           code[0], drain_ms[0], in_reqs[0], in_jobs[0], ended_by[0], jobs_left[0], code[1],
           drain_ms[1], in_reqs[1], in_jobs[1], ended_by[1], jobs_left[1], drains[0], drains[1],
           start_ms[0], start_ms[1]);
    printf("  drain: %ld requests, %ld answered, %ld failed, %ld refused connects (retried on the "
           "other server), %ld closed before an answer; %ld turns, %ld long polls; %d streams "
           "ended cleanly and reopened, %d cut, %d events twice, %d missed\n",
           atomic_load(&n_sent), atomic_load(&n_ok), atomic_load(&n_fail), atomic_load(&n_refused),
           atomic_load(&n_resets), atomic_load(&n_turns), atomic_load(&n_polls), streams, cut,
           twice, missed);
    CHECK(started, "the two servers did not start");
    CHECK(created, "%s", why);
    CHECK(atomic_load(&n_fail) == 0, "%ld failed requests; the first: %s", atomic_load(&n_fail),
          first_why);
    CHECK(cut == 0 && fresets == 0 && fbad == 0, "event streams: %d cut, %d reset, %d refused", cut,
          fresets, fbad);
    CHECK(twice == 0 && missed == 0, "event streams: %d events seen twice, %d missed", twice,
          missed);
    CHECK(behind == 0, "%d followers did not catch up with their game", behind);
    CHECK(code[0] == 0 && code[1] == 0, "exit status after SIGTERM: %d and %d", code[0], code[1]);
    CHECK(drain_ms[0] < 20000 && drain_ms[1] < 20000, "drains took %lld and %lld ms", drain_ms[0],
          drain_ms[1]);
    CHECK(strcmp(ended_by[0], "done") == 0 && strcmp(ended_by[1], "done") == 0,
          "drains ended by %s and %s", ended_by[0], ended_by[1]);
    CHECK(strcmp(jobs_left[0], "0") == 0 && strcmp(jobs_left[1], "0") == 0,
          "jobs left after the drains: %s and %s", jobs_left[0], jobs_left[1]);
    CHECK(with_job, "a drain had no computer player's job in progress (%s, %s)", in_jobs[0],
          in_jobs[1]);
    CHECK(restarted[0] && restarted[1], "a server did not start again");
    CHECK(advanced[0] && advanced[1], "a game of a computer player did not move on across a "
                                      "restart");
    CHECK(atomic_load(&n_turns) > 0 && atomic_load(&n_polls) > 0 && streams >= NFOLLOW,
          "too little load: %ld turns, %ld polls, %d streams", atomic_load(&n_turns),
          atomic_load(&n_polls), streams);
    CHECK(sound, "%s", swhy);
    CHECK(final_code[0] == 0 && final_code[1] == 0, "final exit status %d and %d", final_code[0],
          final_code[1]);
}

/* The first place of `needle` in `hay`, letters' case ignored, or NULL. */
static const char *find_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0) return hay;
    return NULL;
}

/* Writes `req` to `fd` and reads one answer (headers and Content-Length bytes, or up to
 * the close) into `out` within 3 s. Returns the bytes read (-1 when nothing could be). */
static long raw_exchange(int fd, const char *req, char *out, size_t cap)
{
    size_t n = strlen(req), got = 0;
    if (n && write(fd, req, n) != (ssize_t)n) return -1;
    long long end = hard_now_ms() + 3000;
    out[0] = '\0';
    while (got + 1 < cap && hard_now_ms() < end) {
        struct pollfd pf = {fd, POLLIN, 0};
        if (poll(&pf, 1, 100) <= 0) continue;
        ssize_t r = read(fd, out + got, cap - 1 - got);
        if (r <= 0) break;
        got += (size_t)r;
        out[got] = '\0';
        const char *body = strstr(out, "\r\n\r\n");
        const char *cl = find_ci(out, "Content-Length:");
        if (body && cl && cl < body && got >= (size_t)(body + 4 - out) + strtoul(cl + 15, NULL, 10))
            break;
    }
    return got ? (long)got : -1;
}

/* A curl request on a thread of its own (a long poll, an event stream). */
struct bg {
    pthread_t thread;
    char url[256];
    int sse;        /* 1: Accept: text/event-stream */
    CURLcode rc;    /* how it ended */
    long status;    /* its status */
    long long took; /* ms from the start to its end */
    struct resp r;  /* its answer */
};

static void *bg_main(void *p)
{
    struct bg *b = p;
    long long t0 = hard_now_ms();
    CURL *c = curl_easy_init();
    struct curl_slist *hl = b->sse ? curl_slist_append(NULL, "Accept: text/event-stream") : NULL;
    curl_easy_setopt(c, CURLOPT_URL, b->url);
    if (hl) curl_easy_setopt(c, CURLOPT_HTTPHEADER, hl);
    resp_capture(c, resp_on_body, resp_on_header, &b->r, 20000);
    b->rc = resp_perform(c, &b->r);
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &b->status);
    curl_slist_free_all(hl);
    curl_easy_cleanup(c);
    resp_parse(&b->r);
    b->took = hard_now_ms() - t0;
    return NULL;
}

/* Waits up to `ms` for process `pid` to exit: its exit status, or -1 when it still runs. */
static int wait_exit(pid_t pid, long ms)
{
    long long end = hard_now_ms() + ms;
    int status = 0;
    do {
        if (waitpid(pid, &status, WNOHANG) == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        usleep(2000);
    } while (hard_now_ms() < end);
    return -1;
}

/* A connect to `port` on 127.0.0.1: 0 when accepted, else the errno. */
static int try_connect(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int rc = fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) == 0 ? 0 : errno;
    if (fd >= 0) close(fd);
    return rc;
}

/*
 * The drain step by step, on one server: after SIGTERM a connect is refused at once, a
 * kept-alive connection is answered (/readyz 503 draining, Connection: close), a waiting
 * long poll answers at once, an event stream ends cleanly after `retry: 250`, and a
 * request still arriving holds the exit until it is answered; then exit 0. A second server
 * with DRAIN_TIMEOUT=2 and a request that never arrives whole exits 0 after about 2 s.
 */
ITEST(test_drain_steps,
      "drain: step by step (refused, readyz 503, long poll, stream end, DRAIN_TIMEOUT)")
{
    HARD_SERVER(s, 0, "DRAIN_TIMEOUT=10", "LOG_LEVEL=info");
    char why[300] = "";
    struct game g;
    int rc = game_new(&s, PAIR_GAME, &g, why, sizeof why);
    char ready1[2048] = "", ready2[2048] = "", late[2048] = "";
    int keep = rc == 0 ? hard_connect(&s) : -1, part = -1;
    if (keep >= 0)
        raw_exchange(keep, "GET /readyz HTTP/1.1\r\nHost: t\r\n\r\n", ready1, sizeof ready1);
    part = rc == 0 ? hard_connect(&s) : -1;
    if (part >= 0 && write(part, "GET /healthz HTTP/1.1\r\nHost: t\r\n", 32) != 32) {
        close(part);
        part = -1;
    }
    struct bg poll_ = {0}, sse = {0};
    snprintf(poll_.url, sizeof poll_.url, "%s/v1/games/%s/events?after=1&wait=30", s.direct, g.id);
    snprintf(sse.url, sizeof sse.url, "%s/v1/games/%s/events", s.direct, g.id);
    sse.sse = 1;
    int bgs = rc == 0;
    if (bgs) {
        pthread_create(&poll_.thread, NULL, bg_main, &poll_);
        pthread_create(&sse.thread, NULL, bg_main, &sse);
        /* Both are under way (then a moment for the stream's first read) before SIGTERM. */
        long long until = hard_now_ms() + 5000;
        while ((hard_metric(&s, "tilehall_sse_streams") < 1 ||
                hard_metric(&s, "tilehall_long_polls") < 1) &&
               hard_now_ms() < until)
            usleep(10000);
        usleep(300000);
    }
    kill(s.pid, SIGTERM);
    /* Refused once the signal is handled: a SYN that comes in the drain's first 200 ms
     * (http.c: DRAIN_HANDSHAKE_MS) is dropped and refused on its retransmission about 1 s
     * later; up to 2 s for a sanitizer's server on a busy machine (a connect accepted
     * before is served and closed). */
    usleep(100000);
    int refused = try_connect(s.port);
    for (int i = 0; i < 19 && refused != ECONNREFUSED; i++) {
        usleep(100000);
        refused = try_connect(s.port);
    }
    if (keep >= 0)
        raw_exchange(keep, "GET /readyz HTTP/1.1\r\nHost: t\r\n\r\n", ready2, sizeof ready2);
    if (bgs) {
        pthread_join(poll_.thread, NULL);
        pthread_join(sse.thread, NULL);
    }
    int alive = wait_exit(s.pid, 300) < 0; /* the request still arriving holds it */
    long long t1 = hard_now_ms();
    if (part >= 0) raw_exchange(part, "\r\n", late, sizeof late);
    int code = wait_exit(s.pid, 15000);
    long long exit_ms = hard_now_ms() - t1;
    s.pid = 0;
    if (keep >= 0) close(keep);
    if (part >= 0) close(part);
    int sse_ok = sse.rc == CURLE_OK && sse.status == 200 && sse.r.body &&
                 strstr(sse.r.body, "retry: 250") && strstr(sse.r.body, "id: 1\n");
    /* Unanswered by the drain it would wait its 30 s (the time counts from before the
     * wait for the gauges, up to 5 s). */
    int poll_ok = poll_.rc == CURLE_OK && poll_.status == 200 && poll_.took < 12000;
    resp_free(&poll_.r);
    resp_free(&sse.r);

    /* DRAIN_TIMEOUT bounds a drain that would not end. */
    const char *env2[] = {"DRAIN_TIMEOUT=2", "REQUEST_TIMEOUT=60", NULL};
    struct server s2;
    int started2 = hard_server_start(&s2, env2, 0) == 0;
    int part2 = started2 ? hard_connect(&s2) : -1;
    if (part2 >= 0 && write(part2, "GET /healthz HTTP/1.1\r\n", 23) != 23) {
        close(part2);
        part2 = -1;
    }
    usleep(100000);
    long long t2 = hard_now_ms();
    if (started2) kill(s2.pid, SIGTERM);
    int code2 = started2 ? wait_exit(s2.pid, 15000) : -1;
    long long bound_ms = hard_now_ms() - t2;
    s2.pid = 0;
    if (part2 >= 0) close(part2);
    printf("  drain steps: a request still arriving answered, then exit in %lld ms; with "
           "DRAIN_TIMEOUT=2 and a request never arriving, exit in %lld ms\n",
           exit_ms, bound_ms);
    CHECK(rc == 0, "%s", why);
    CHECK(strstr(ready1, " 200 "), "/readyz before: %.200s", ready1);
    CHECK(refused == ECONNREFUSED, "a connect after SIGTERM: errno %d (%s)", refused,
          refused ? strerror(refused) : "accepted");
    CHECK(strstr(ready2, " 503 ") && strstr(ready2, "draining") &&
              find_ci(ready2, "Connection: close"),
          "/readyz while draining: %.300s", ready2);
    CHECK(poll_ok, "the long poll: curl %d, %ld after %lld ms", (int)poll_.rc, poll_.status,
          poll_.took);
    CHECK(sse_ok, "the event stream: curl %d, %ld", (int)sse.rc, sse.status);
    CHECK(alive, "the server exited with a request still arriving");
    CHECK(strstr(late, " 200 "), "the request that arrived while draining: %.200s", late);
    /* A sanitizer's exit checks for leaks first: slower. */
    CHECK(code == 0 && exit_ms < hard_san_ms(3000, 8000), "exit %d, %lld ms after the last answer",
          code, exit_ms);
    CHECK(started2, "the second server did not start");
    CHECK(code2 == 0 && bound_ms >= 1900 && bound_ms < hard_san_ms(6000, 10000),
          "with DRAIN_TIMEOUT=2: exit %d after %lld ms", code2, bound_ms);
}

/* A webhook receiver that holds every delivery `hold_ms` before answering 200. */
struct holder {
    int fd;              /* its listening socket */
    int port;            /* its port */
    int hold_ms;         /* how long it holds each */
    pthread_t thread;    /* its accept loop */
    atomic_int stop;     /* 1: end the loop */
    atomic_int arrived;  /* deliveries whose request came whole */
    atomic_int answered; /* deliveries answered 200 */
};

static void *holder_main(void *p)
{
    struct holder *h = p;
    while (!atomic_load(&h->stop)) {
        int c = hard_accept(h->fd, 50);
        if (c < 0) continue;
        char buf[16384], *body;
        if (hook_read_request(c, buf, sizeof buf, 3000, &body) >= 0) {
            atomic_fetch_add(&h->arrived, 1);
            usleep((useconds_t)h->hold_ms * 1000);
            static const char ok[] =
                "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
            if (write(c, ok, sizeof ok - 1) == (ssize_t)(sizeof ok - 1))
                atomic_fetch_add(&h->answered, 1);
        }
        close(c);
    }
    return NULL;
}

/*
 * A webhook delivery in flight at SIGTERM (the receiver holds it 1.5 s): the drain waits
 * for its answer, which is recorded (delivered once, one attempt, not put back), and the
 * server exits 0 after it.
 */
ITEST(test_drain_webhook, "drain: a webhook delivery in flight at SIGTERM finished and recorded")
{
    (void)srv;
    struct holder h = {.fd = socket(AF_INET, SOCK_STREAM, 0), .hold_ms = 1500};
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    CHECK(h.fd >= 0 && bind(h.fd, (struct sockaddr *)&a, sizeof a) == 0 && listen(h.fd, 16) == 0 &&
              getsockname(h.fd, (struct sockaddr *)&a, &len) == 0,
          "the receiver could not listen");
    h.port = ntohs(a.sin_port);
    pthread_create(&h.thread, NULL, holder_main, &h);
    /* A database of its own: the runner's server would deliver a part of the events. */
    char db[512];
    const char *env[] = {"DRAIN_TIMEOUT=10", "WEBHOOK_TIMEOUT_MS=5000", NULL};
    struct server s;
    int started = hard_server_own_db(&s, "tilehall_itest_drainhook", env, 0, db, sizeof db) == 0;
    char body[300], id[64] = "";
    snprintf(body, sizeof body,
             "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"webhook\":{\"url\":"
             "\"http://127.0.0.1:%d/hook\"}}",
             h.port);
    struct resp r = {0};
    if (started) http(&s, "POST", "/v1/games", body, NULL, &r);
    long created = r.status;
    snprintf(id, sizeof id, "%s", jstr(r.json, "id"));
    resp_free(&r);
    long long end = hard_now_ms() + 5000;
    while (created == 201 && atomic_load(&h.arrived) < 1 && hard_now_ms() < end) usleep(5000);
    int in_flight = atomic_load(&h.arrived) == 1 && atomic_load(&h.answered) == 0;
    long long t0 = hard_now_ms();
    int code = -1;
    if (started) {
        kill(s.pid, SIGTERM);
        code = wait_exit(s.pid, 15000);
        s.pid = 0;
    }
    long long took = hard_now_ms() - t0;
    /* The id is a UUID the server made (checked: no quote can be in it). */
    long delivered = -1;
    char cmd[1200];
    if (strspn(id, "0123456789abcdef-") == strlen(id) && strlen(id) == 36) {
        snprintf(cmd, sizeof cmd,
                 "psql -X -q -t -A \"%s\" -c \"SELECT count(*) FROM webhook_deliveries d JOIN "
                 "webhooks w ON w.id = d.webhook_id WHERE w.game_id = '%s' AND d.seq = 1 AND "
                 "d.delivered_at IS NOT NULL AND d.attempts = 1\"",
                 db, id);
        FILE *p = popen(cmd, "r");
        char line[32] = "";
        if (p && fgets(line, sizeof line, p)) delivered = strtol(line, NULL, 10);
        if (p) pclose(p);
    }
    int answered = atomic_load(&h.answered);
    atomic_store(&h.stop, 1);
    pthread_join(h.thread, NULL);
    close(h.fd);
    printf("  drain: a webhook delivery in flight (held 1500 ms) answered, then exit after %lld "
           "ms\n",
           took);
    CHECK(started, "the server did not start");
    CHECK(created == 201, "create: %ld", created);
    CHECK(in_flight, "no delivery in flight at SIGTERM");
    CHECK(code == 0, "exit status %d", code);
    CHECK(answered == 1 && took >= 1000 && took < 8000,
          "the delivery: %d answered, the exit %lld ms after SIGTERM", answered, took);
    CHECK(delivered == 1, "the delivery is not recorded as delivered by its one attempt (%ld)",
          delivered);
}
