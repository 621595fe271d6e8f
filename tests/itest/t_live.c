/* t_live.c: live updates (server-sent events, long polls woken by NOTIFY from another
 * server), the /turn view, the board picture, /metrics and request ids. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <libpq-fe.h>

#include "db.h"
#include "hard.h"
#include "tests.h"

#define SSE_MAX 512 /* events an SSE client keeps */

/* A client of an event stream, reading on a thread of its own. */
struct sse {
    char url[512];           /* what it reads */
    char last_id[32];        /* Last-Event-ID to send, or "" */
    pthread_t thread;        /* the reader */
    pthread_mutex_t lock;    /* guards everything below */
    pthread_cond_t cond;     /* signalled on every event and at the end */
    atomic_int stop;         /* 1: go away (abort the transfer) */
    long status;             /* the answer's status */
    char ctype[64];          /* its Content-Type */
    char retry_after[16];    /* its Retry-After */
    int n;                   /* events received */
    int ids[SSE_MAX];        /* their ids */
    char types[SSE_MAX][32]; /* their event names */
    char *data[SSE_MAX];     /* their data (malloc'd) */
    long long at[SSE_MAX];   /* when each came (ms) */
    int heartbeats;          /* ": heartbeat" comments */
    int retry;               /* 1 once "retry:" came */
    int done;                /* 1 once the transfer is over */
    int ended;               /* 1 when the server ended it (not an abort, not an error) */
    struct resp_line line;   /* a line being received */
    int cur_id;              /* the event being received: id, type, data */
    char cur_type[32];
    char cur_data[8192];
};

static long long ms_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* One complete line of the stream (lock held). */
static void sse_line(void *ctx, const char *l)
{
    struct sse *c = ctx;
    if (!l[0]) {
        if (c->cur_data[0] && c->n < SSE_MAX) {
            c->ids[c->n] = c->cur_id;
            snprintf(c->types[c->n], sizeof c->types[c->n], "%s", c->cur_type);
            c->data[c->n] = strdup(c->cur_data);
            c->at[c->n] = ms_now();
            c->n++;
            pthread_cond_broadcast(&c->cond);
        }
        c->cur_id = -1;
        c->cur_type[0] = c->cur_data[0] = '\0';
    } else if (strncmp(l, "id: ", 4) == 0) {
        c->cur_id = (int)strtol(l + 4, NULL, 10);
    } else if (strncmp(l, "event: ", 7) == 0) {
        snprintf(c->cur_type, sizeof c->cur_type, "%s", l + 7);
    } else if (strncmp(l, "data: ", 6) == 0) {
        snprintf(c->cur_data, sizeof c->cur_data, "%s", l + 6);
    } else if (strcmp(l, ": heartbeat") == 0) {
        c->heartbeats++;
        pthread_cond_broadcast(&c->cond);
    } else if (strncmp(l, "retry: ", 7) == 0) {
        c->retry = 1;
    }
}

static size_t sse_body(char *p, size_t size, size_t nmemb, void *ud)
{
    struct sse *c = ud;
    size_t n = size * nmemb;
    pthread_mutex_lock(&c->lock);
    resp_lines(&c->line, p, n, sse_line, c);
    pthread_mutex_unlock(&c->lock);
    return n;
}

static size_t sse_header(char *p, size_t size, size_t nmemb, void *ud)
{
    struct sse *c = ud;
    size_t n = size * nmemb;
    pthread_mutex_lock(&c->lock);
    if (strncmp(p, "HTTP/", 5) == 0) {
        const char *sp = strchr(p, ' ');
        if (sp) c->status = strtol(sp + 1, NULL, 10);
    } else if (strncasecmp(p, "Content-Type:", 13) == 0) {
        snprintf(c->ctype, sizeof c->ctype, "%.*s", (int)strcspn(p + 14, "\r\n"), p + 14);
    } else if (strncasecmp(p, "Retry-After:", 12) == 0) {
        snprintf(c->retry_after, sizeof c->retry_after, "%.*s", (int)strcspn(p + 13, "\r\n"),
                 p + 13);
    }
    pthread_cond_broadcast(&c->cond);
    pthread_mutex_unlock(&c->lock);
    return n;
}

static void *sse_main(void *p)
{
    struct sse *c = p;
    CURL *h = curl_easy_init();
    struct curl_slist *hl = curl_slist_append(NULL, "Accept: text/event-stream");
    char lei[64];
    if (c->last_id[0]) {
        snprintf(lei, sizeof lei, "Last-Event-ID: %s", c->last_id);
        hl = curl_slist_append(hl, lei);
    }
    curl_easy_setopt(h, CURLOPT_URL, c->url);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hl);
    resp_capture(h, sse_body, sse_header, c, 60000);
    curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, resp_abort_when);
    curl_easy_setopt(h, CURLOPT_XFERINFODATA, &c->stop);
    CURLcode rc = curl_easy_perform(h);
    curl_slist_free_all(hl);
    curl_easy_cleanup(h);
    pthread_mutex_lock(&c->lock);
    c->done = 1;
    c->ended = rc == CURLE_OK;
    pthread_cond_broadcast(&c->cond);
    pthread_mutex_unlock(&c->lock);
    return NULL;
}

/* Opens a stream of `path` at `base` (Last-Event-ID `last_id` unless NULL). */
static struct sse *sse_open(const char *base, const char *path, const char *last_id)
{
    struct sse *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    snprintf(c->url, sizeof c->url, "%s%s", base, path);
    if (last_id) snprintf(c->last_id, sizeof c->last_id, "%s", last_id);
    c->cur_id = -1;
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->cond, NULL);
    if (pthread_create(&c->thread, NULL, sse_main, c) != 0) {
        free(c);
        return NULL;
    }
    return c;
}

/* Waits up to `ms` until `n` events (or `beats` heartbeats, or the end) came. 1 if so. */
static int sse_wait(struct sse *c, int n, int beats, long ms)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += ms / 1000;
    ts.tv_nsec += (ms % 1000) * 1000000L;
    if (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
    pthread_mutex_lock(&c->lock);
    while (c->n < n && c->heartbeats < beats && !c->done)
        if (pthread_cond_timedwait(&c->cond, &c->lock, &ts) != 0) break;
    int ok = c->n >= n || c->heartbeats >= beats;
    pthread_mutex_unlock(&c->lock);
    return ok;
}

/* Waits up to `ms` for the transfer's end; 1 if it ended. */
static int sse_wait_done(struct sse *c, long ms)
{
    for (long t = 0; t < ms; t += 20) {
        pthread_mutex_lock(&c->lock);
        int done = c->done;
        pthread_mutex_unlock(&c->lock);
        if (done) return 1;
        usleep(20000);
    }
    return 0;
}

/* Waits until the status line came (up to `ms`); returns it (0 if none). */
static long sse_status(struct sse *c, long ms)
{
    for (long t = 0; t < ms; t += 10) {
        pthread_mutex_lock(&c->lock);
        long st = c->status;
        int done = c->done;
        pthread_mutex_unlock(&c->lock);
        if (st || done) return st;
        usleep(10000);
    }
    return 0;
}

/* Goes away (if still reading) and frees the client. */
static void sse_close(struct sse *c)
{
    if (!c) return;
    atomic_store(&c->stop, 1);
    pthread_join(c->thread, NULL);
    for (int i = 0; i < c->n; i++) free(c->data[i]);
    pthread_mutex_destroy(&c->lock);
    pthread_cond_destroy(&c->cond);
    free(c);
}

#define LIVE_GAME                                                                                  \
    "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"start\":\"D\",\"deck\":[\"K\","        \
    "\"D\",\"E\",\"U\",\"V\",\"B\",\"A\",\"L\"]}"
#define SHORT_GAME                                                                                 \
    "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"start\":\"D\",\"deck\":[\"E\",\"U\"]}"

/* -1 unless the stream's events [from, c->n) are the game's events [first_seq, ...) exactly. */
static int same_events(struct sse *c, const cJSON *evs, int first_seq, char *why, size_t cap)
{
    pthread_mutex_lock(&c->lock);
    int rc = 0;
    for (int i = 0; i < c->n && rc == 0; i++) {
        const cJSON *e = cJSON_GetArrayItem(evs, first_seq - 1 + i);
        cJSON *got = cJSON_Parse(c->data[i]);
        if (!e || c->ids[i] != first_seq + i || jnum(e, "seq") != c->ids[i] ||
            strcmp(c->types[i], jstr(e, "type")) != 0 || !cJSON_Compare(e, got, 1)) {
            snprintf(why, cap, "event %d: id %d type %s data %.120s", i, c->ids[i], c->types[i],
                     c->data[i]);
            rc = -1;
        }
        cJSON_Delete(got);
    }
    pthread_mutex_unlock(&c->lock);
    return rc;
}

/*
 * A new game from `body` in *g and a stream of its events (path in `path`) at `base`; NULL
 * (with `why`) when either cannot be had.
 */
static struct sse *new_game_stream(const struct server *srv, const char *base, const char *body,
                                   struct game *g, char *path, size_t cap, char *why, size_t whycap)
{
    if (game_new(srv, body, g, why, whycap) != 0) return NULL;
    snprintf(path, cap, "/v1/games/%s/events", g->id);
    struct sse *c = sse_open(base, path, NULL);
    if (!c) snprintf(why, whycap, "no client");
    return c;
}

/* In a test: declares `c`, the stream of the events of a new game from `body` at the
 * runner's server (new_game_stream into `g` and `path`), or fails the test. */
#define NEW_GAME_STREAM(c, body, g, path)                                                          \
    struct sse *c;                                                                                 \
    do {                                                                                           \
        char why_[400];                                                                            \
        c = new_game_stream(srv, srv->base, body, g, path, sizeof path, why_, sizeof why_);        \
        CHECK(c, "%s", why_);                                                                      \
    } while (0)

/*
 * Plays up to `turns` turns of `g` on `srv`, after each waiting until its events (a draw
 * and a placement at least) came on stream `c`; the slowest first arrival (ms) raises
 * *slowest. Returns the turns done (`why` says why it stopped short).
 */
static int play_streamed(const struct server *srv, const struct game *g, struct sse *c, int turns,
                         long long *slowest, char *why, size_t cap)
{
    int done = 0;
    for (; done < turns; done++) {
        int before = c->n;
        long long t0 = ms_now();
        if (play_turn(srv, g, 1, why, cap) < 0) break;
        if (!sse_wait(c, before + 2, 1000, 5000)) {
            snprintf(why, cap, "the turn's events did not come");
            break;
        }
        if (c->at[before] - t0 > *slowest) *slowest = c->at[before] - t0;
    }
    return done;
}

/* 0 when a stream of `path` at `base` (Last-Event-ID `last_id` unless NULL) brings `n`
 * events soon, the game's events `evs` from seq `first_seq` exactly; else -1 with `why`. */
static int stream_brings(const char *base, const char *path, const char *last_id, int n,
                         const cJSON *evs, int first_seq, char *why, size_t cap)
{
    struct sse *c = sse_open(base, path, last_id);
    if (!c) {
        snprintf(why, cap, "no client");
        return -1;
    }
    int rc = -1;
    if (!sse_wait(c, n, 1000, 5000))
        snprintf(why, cap, "%d of %d events came", c->n, n);
    else
        rc = same_events(c, evs, first_seq, why, cap);
    sse_close(c);
    return rc;
}

/* The server's log (ITEST_SERVER_LOG) for reading, or NULL. */
static FILE *server_log(void)
{
    return fopen(itest_server_log(), "r");
}

ITEST(test_event_stream, "event stream: events as committed, Last-Event-ID, heartbeats")
{
    char why[400], path[160];
    struct game g;
    NEW_GAME_STREAM(c, LIVE_GAME, &g, path);
    int ok = sse_wait(c, 1, 1000, 5000);
    long st = c->status;
    char ctype[64];
    snprintf(ctype, sizeof ctype, "%s", c->ctype);
    int first = c->n ? c->ids[0] : -1;
    if (!ok || st != 200) sse_close(c);
    CHECK(ok && st == 200 && strncmp(ctype, "text/event-stream", 17) == 0 && first == 1,
          "stream: status %ld ctype %s first id %d", st, ctype, first);
    /* Each move's events arrive as they are committed, in order, quickly. */
    long long slowest = 0;
    int turns = play_streamed(srv, &g, c, 3, &slowest, why, sizeof why);
    cJSON *evs = game_events(srv, g.id);
    int n_all = cJSON_GetArraySize(evs);
    sse_wait(c, n_all, 1000, 3000);
    int same = same_events(c, evs, 1, why, sizeof why);
    int got = c->n, retry = c->retry;
    /* Idle: heartbeats (SSE_HEARTBEAT is 1 in the tests). */
    int beats = sse_wait(c, 1000, c->heartbeats + 2, 4000);
    sse_close(c);
    CHECK(turns == 3, "turn %d: %s", turns, why);
    CHECK(same == 0 && got == n_all, "%d of %d events: %s", got, n_all, why);
    CHECK(retry, "no retry: line");
    /* Timed from the start of the turn's requests; a sanitizer's server is slower. */
    long long bound = hard_san_ms(1000, 3000);
    CHECK(slowest < bound, "an event took %lld ms to arrive", slowest);
    CHECK(beats, "no heartbeats while idle");

    /* Last-Event-ID resumes after it; without it, `after` does. */
    char last[16];
    snprintf(last, sizeof last, "%d", n_all - 2);
    same = stream_brings(srv->base, path, last, 2, evs, n_all - 1, why, sizeof why);
    CHECK(same == 0, "Last-Event-ID %s: %s", last, why);
    char apath[192];
    snprintf(apath, sizeof apath, "%s?after=%d", path, n_all - 1);
    same = stream_brings(srv->base, apath, NULL, 1, evs, n_all, why, sizeof why);
    CHECK(same == 0, "after=%d: %s", n_all - 1, why);
    /* A Last-Event-ID that is no number is ignored (after counts). */
    c = sse_open(srv->base, apath, "x7");
    ok = sse_wait(c, 1, 1000, 5000);
    first = c->n ? c->ids[0] : -1;
    sse_close(c);
    cJSON_Delete(evs);
    CHECK(ok && first == n_all, "Last-Event-ID x7: first id %d", first);

    /* Errors are problems, as without the stream. */
    struct resp r;
    const char *h[] = {"Accept: text/event-stream", NULL};
    http(srv, "GET", "/v1/games/00000000-0000-4000-8000-000000000000/events", NULL, h, &r);
    CHECK(r.status == 404 && strcmp(problem_code(&r), "not_found") == 0, "unknown game: %ld",
          r.status);
    resp_free(&r);
    snprintf(apath, sizeof apath, "%s?after=-1", path);
    http(srv, "GET", apath, NULL, h, &r);
    CHECK(r.status == 400 && strcmp(problem_code(&r), "invalid_parameter") == 0, "after=-1: %ld",
          r.status);
    resp_free(&r);
}

/* A stream of a game played to its end stops after game_finished. */
ITEST(test_event_stream_end, "event stream: ends after game_finished")
{
    char why[400], path[160];
    struct game g;
    NEW_GAME_STREAM(c, SHORT_GAME, &g, path);
    int p = 0;
    for (int i = 0; i < 10 && p == 0; i++) p = play_turn(srv, &g, 0, why, sizeof why);
    for (int i = 0; i < 10 && p == 0; i++) p = play_turn(srv, &g, 0, why, sizeof why);
    int ended = sse_wait_done(c, 5000) && c->ended;
    int n = c->n;
    char last_type[32];
    snprintf(last_type, sizeof last_type, "%s", n ? c->types[n - 1] : "");
    sse_close(c);
    CHECK(p == 1, "the game did not finish: %s", why);
    CHECK(ended && strcmp(last_type, "game_finished") == 0, "ended %d after %d events, last %s",
          ended, n, last_type);
    /* Reopened with everything seen: it ends at once, with nothing. */
    char last[16];
    snprintf(last, sizeof last, "%d", n);
    c = sse_open(srv->base, path, last);
    ended = sse_wait_done(c, 3000) && c->ended;
    long st = c->status;
    n = c->n;
    sse_close(c);
    CHECK(ended && st == 200 && n == 0, "finished and seen: ended %d status %ld events %d", ended,
          st, n);
}

struct poll_arg {
    const struct server *srv; /* where */
    char path[256];           /* what */
    struct resp r;            /* the answer */
    long long ms;             /* when it came */
};

static void *poll_main(void *p)
{
    struct poll_arg *a = p;
    http(a->srv, "GET", a->path, NULL, NULL, &a->r);
    a->ms = ms_now();
    return NULL;
}

/* A second server whose fallback recheck is a minute away: only NOTIFY can wake its long
 * poll in time. */
ITEST(test_live_across_servers, "long poll woken by a commit on another server (NOTIFY)")
{
    /* REQUEST_TIMEOUT=1: a long poll woken after that is still answered (not 408). */
    HARD_SERVER(two, 0, "LIVE_FALLBACK_MS=60000", "REQUEST_TIMEOUT=1");
    char why[400];
    struct game g;
    int rc = game_new(srv, LIVE_GAME, &g, why, sizeof why);
    struct poll_arg a = {.srv = &two};
    pthread_t t;
    int started = 0, played = -1;
    long long t0 = 0;
    if (rc == 0) {
        snprintf(a.path, sizeof a.path, "/v1/games/%s/events?after=1&wait=30", g.id);
        started = pthread_create(&t, NULL, poll_main, &a) == 0;
        usleep(1500000); /* it waits now, longer than REQUEST_TIMEOUT */
        t0 = ms_now();
        played = play_turn(srv, &g, 1, why, sizeof why); /* on the first server */
    }
    if (started) pthread_join(t, NULL);
    int code = hard_server_stop(&two);
    long long poll_ms = a.ms - t0;
    int ok = a.r.status == 200 && jnum(a.r.json, "events.0.seq") == 2;
    char got[240];
    snprintf(got, sizeof got, "%ld %.200s", a.r.status, a.r.body ? a.r.body : "");
    resp_free(&a.r);
    CHECK(rc == 0 && played >= 0, "%s", why);
    CHECK(started && ok, "long poll: %s", got);
    /* Unwoken it would wait its 30 s; 5 s leaves a sanitizer's servers time for the turn. */
    CHECK(poll_ms < 5000, "the long poll on the other server answered after %lld ms", poll_ms);
    CHECK(code == 0, "the second server exited with %d", code);
}

/* Notifications of `game` that arrive on the listening connection `pg` within `ms`. */
static int notifications_of(PGconn *pg, const char *game, long ms)
{
    int n = 0;
    for (long t = 0; t <= ms; t += 20) {
        PQconsumeInput(pg);
        PGnotify *nt;
        while ((nt = PQnotifies(pg))) {
            if (strncasecmp(nt->extra, game, strlen(game)) == 0) n++;
            PQfreemem(nt);
        }
        usleep(20000);
    }
    return n;
}

/*
 * Commits notify only while somebody waits for the game's events (migrations/0004): none
 * for a game nobody watched; one per commit once a long poll took the game's lease, which
 * runs past the poll's deadline.
 */
ITEST(test_live_lease, "commits notify only while the game is watched (a lease)")
{
    char why[400] = "";
    struct game g;
    int rc = game_new(srv, LIVE_GAME, &g, why, sizeof why);
    PGconn *pg = PQconnectdb(getenv("DATABASE_URL"));
    int listening = 0;
    if (PQstatus(pg) == CONNECTION_OK) {
        PGresult *res = PQexec(pg, "LISTEN tilehall_events");
        listening = PQresultStatus(res) == PGRES_COMMAND_OK;
        PQclear(res);
    }
    int unwatched = -1, watched = -1, poll_status = 0;
    long lease_s = -1;
    if (rc == 0 && listening) {
        if (play_turn(srv, &g, 1, why, sizeof why) < 0) rc = -1;
        unwatched = notifications_of(pg, g.id, 300);
        char path[160];
        snprintf(path, sizeof path, "/v1/games/%s/events?after=999&wait=1", g.id);
        struct resp r;
        http(srv, "GET", path, NULL, NULL, &r);
        poll_status = (int)r.status;
        resp_free(&r);
        lease_s = db_scalar_id("SELECT extract(epoch FROM watched_until - now())::integer "
                               "FROM games WHERE id = $1::uuid",
                               g.id);
        if (rc == 0 && play_turn(srv, &g, 1, why, sizeof why) < 0) rc = -1;
        watched = notifications_of(pg, g.id, 500);
    }
    PQfinish(pg);
    CHECK(rc == 0, "%s", why);
    CHECK(listening, "cannot LISTEN on the test database");
    CHECK(unwatched == 0, "%d notifications of a game nobody watched", unwatched);
    CHECK(poll_status == 200, "the long poll answered %d", poll_status);
    CHECK(lease_s >= 55 && lease_s <= 70, "the lease runs %ld s more after the poll", lease_s);
    CHECK(watched == 2, "%d notifications of a watched game's two commits (draw, place)", watched);
}

/* Streams across servers with a real resume point. */
ITEST(test_stream_across_servers, "event stream fed by a commit on another server (NOTIFY)")
{
    HARD_SERVER(two, 0, "LIVE_FALLBACK_MS=60000", "SSE_HEARTBEAT=5");
    char why[400], path[160];
    struct game g;
    struct sse *c =
        new_game_stream(srv, two.direct, LIVE_GAME, &g, path, sizeof path, why, sizeof why);
    long long slowest = -1;
    int got = 0, turns = 0;
    if (c) {
        sse_status(c, 3000);
        usleep(200000);
        slowest = 0;
        turns = play_streamed(srv, &g, c, 3, &slowest, why, sizeof why);
        got = c->n;
    }
    sse_close(c);
    int code = hard_server_stop(&two);
    CHECK(c, "%s", why);
    CHECK(turns == 3, "turn %d on the first server: %d events on the second's stream (%s)", turns,
          got, why);
    long long bound = hard_san_ms(1000, 3000); /* a sanitizer's servers: slower */
    CHECK(slowest >= 0 && slowest < bound, "an event took %lld ms to reach the other server",
          slowest);
    CHECK(code == 0, "the second server exited with %d", code);
}

/* The value of metric line `name` (e.g. "tilehall_sse_streams") in /metrics, or -1. */
static double metric(const struct server *srv, const char *name)
{
    struct resp r;
    http(srv, "GET", "/metrics", NULL, NULL, &r);
    double v = -1;
    size_t n = strlen(name);
    for (const char *p = r.body; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (strncmp(p, name, n) == 0 && p[n] == ' ') {
            v = strtod(p + n + 1, NULL);
            break;
        }
    }
    resp_free(&r);
    return v;
}

/* The stream cap, a client that goes away, and a server that stops with streams open. */
ITEST(test_stream_limits, "event streams: the cap, a client gone, shutdown with streams open")
{
    HARD_SERVER(s, 1, "MAX_STREAMS=2", "SSE_HEARTBEAT=1");
    char why[400];
    struct game g;
    int rc = game_new(&s, LIVE_GAME, &g, why, sizeof why);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/events", g.id);
    struct sse *a = NULL, *b = NULL, *x = NULL, *d = NULL;
    long third = 0, fourth = 0;
    char ra[16] = "";
    double open2 = -1, open1 = -1;
    int a_ended = 0, d_ended = 0;
    if (rc == 0) {
        a = sse_open(s.direct, path, NULL);
        b = sse_open(s.direct, path, NULL);
        sse_wait(a, 1, 1000, 3000);
        sse_wait(b, 1, 1000, 3000);
        open2 = metric(&s, "tilehall_sse_streams");
        /* The third is refused, through the spec proxy (a problem with Retry-After). */
        x = sse_open(s.base, path, NULL);
        sse_wait_done(x, 3000);
        third = x->status;
        snprintf(ra, sizeof ra, "%s", x->retry_after);
        /* One goes away: the server notices at its next heartbeat and frees the slot. */
        sse_close(b);
        b = NULL;
        for (int i = 0; i < 50 && (open1 = metric(&s, "tilehall_sse_streams")) != 1; i++)
            usleep(100000);
        d = sse_open(s.direct, path, NULL);
        sse_wait(d, 1, 1000, 3000);
        fourth = d->status;
    }
    /* Stopping with two streams open: both end, the server exits cleanly. */
    int code = hard_server_stop(&s);
    if (a) a_ended = sse_wait_done(a, 3000) && a->ended;
    if (d) d_ended = sse_wait_done(d, 3000) && d->ended;
    sse_close(a);
    sse_close(b);
    sse_close(x);
    sse_close(d);
    CHECK(rc == 0, "%s", why);
    CHECK(open2 == 2, "tilehall_sse_streams %g with two open", open2);
    CHECK(third == 503 && strtol(ra, NULL, 10) > 0, "the third stream: %ld, Retry-After %s", third,
          ra);
    CHECK(open1 == 1, "tilehall_sse_streams %g after a client went away", open1);
    CHECK(fourth == 200, "a stream after one went away: %ld", fourth);
    CHECK(a_ended && d_ended, "streams at shutdown: ended %d %d", a_ended, d_ended);
    CHECK(code == 0, "the server exited with %d (leak or crash? see the server log)", code);
}

/* /turn: the seat to move, its tile and placements, in each phase. */
ITEST(test_turn_view, "/turn: seat, tile or hand, placements; 304")
{
    struct game g;
    NEW_GAME(&g, LIVE_GAME);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/turn", g.id);
    struct resp r;
    http(srv, "GET", path, NULL, NULL, &r);
    CHECK(r.status == 200 && strcmp(jstr(r.json, "phase"), "draw") == 0 &&
              jnum(r.json, "seat") == 0 && strcmp(jstr(r.json, "name"), "Ann") == 0 &&
              cJSON_IsNull(jget(r.json, "tile")) &&
              cJSON_GetArraySize(jget(r.json, "placements")) == 0 && strcmp(r.etag, "\"1\"") == 0 &&
              jnum(r.json, "version") == 1,
          "draw phase: %ld %s %.300s", r.status, r.etag, r.body);
    resp_free(&r);
    char draw[192];
    snprintf(draw, sizeof draw, "/v1/games/%s/draw", g.id);
    const char *auth[] = {g.auth[0], NULL};
    http(srv, "POST", draw, NULL, auth, &r);
    CHECK(r.status == 200, "draw: %ld", r.status);
    resp_free(&r);
    http(srv, "GET", path, NULL, NULL, &r);
    char place[192];
    snprintf(place, sizeof place, "/v1/games/%s/placements", g.id);
    struct resp pl;
    http(srv, "GET", place, NULL, NULL, &pl);
    int same = cJSON_Compare(jget(r.json, "placements"), jget(pl.json, "placements"), 1);
    int ok = r.status == 200 && strcmp(jstr(r.json, "phase"), "place") == 0 &&
             strcmp(jstr(r.json, "tile"), jstr(pl.json, "tile")) == 0 && same &&
             cJSON_GetArraySize(jget(r.json, "placements")) > 0 && strcmp(r.etag, "\"2\"") == 0;
    char etag[96];
    snprintf(etag, sizeof etag, "If-None-Match: %s", r.etag);
    resp_free(&pl);
    resp_free(&r);
    CHECK(ok, "place phase: /turn and /placements differ or wrong fields");
    const char *inm[] = {etag, NULL};
    http(srv, "GET", path, NULL, inm, &r);
    CHECK(r.status == 304 && r.len == 0 && strcmp(r.etag, "\"2\"") == 0, "If-None-Match: %ld",
          r.status);
    resp_free(&r);
    /* The hand-of-two variant lists the seat's hand; a finished game has no seat. */
    struct game h;
    NEW_GAME(&h, "{\"ruleset\":\"discovery\",\"options\":{\"draw\":\"hand\"},\"players\":[{"
                 "\"name\":\"A\"},{\"name\":\"B\"}],\"seed\":3}");
    snprintf(path, sizeof path, "/v1/games/%s/turn", h.id);
    http(srv, "GET", path, NULL, NULL, &r);
    CHECK(r.status == 200 && strcmp(jstr(r.json, "phase"), "place") == 0 &&
              cJSON_GetArraySize(jget(r.json, "hand")) == 2 &&
              strlen(jstr(r.json, "placements.0.tile")) > 0,
          "hand variant: %.300s", r.body);
    resp_free(&r);
    struct game f;
    NEW_GAME(&f, SHORT_GAME);
    char why[400];
    int p = 0;
    for (int i = 0; i < 10 && p == 0; i++) p = play_turn(srv, &f, 0, why, sizeof why);
    CHECK(p == 1, "the short game did not end: %s", why);
    snprintf(path, sizeof path, "/v1/games/%s/turn", f.id);
    http(srv, "GET", path, NULL, NULL, &r);
    CHECK(r.status == 200 && strcmp(jstr(r.json, "phase"), "finished") == 0 &&
              strcmp(jstr(r.json, "status"), "finished") == 0 &&
              cJSON_IsNull(jget(r.json, "seat")) &&
              cJSON_GetArraySize(jget(r.json, "placements")) == 0,
          "finished: %.300s", r.body);
    resp_free(&r);
    http(srv, "GET", "/v1/games/00000000-0000-4000-8000-000000000000/turn", NULL, NULL, &r);
    CHECK(r.status == 404 && strcmp(problem_code(&r), "not_found") == 0, "unknown: %ld", r.status);
    resp_free(&r);
    http(srv, "POST", path, "{}", NULL, &r);
    CHECK(r.status == 405 && strcmp(r.allow, "GET") == 0, "POST /turn: %ld", r.status);
    resp_free(&r);
}

/* board.svg: a picture of every ruleset's board, cached by version. */
ITEST(test_board_svg, "board.svg: every ruleset, ETag and 304")
{
    static const char *const setups[] = {
        LIVE_GAME,
        PICTURE_GAMES,
    };
    char why[400];
    for (size_t i = 0; i < sizeof setups / sizeof setups[0]; i++) {
        struct game g;
        CHECK(game_new(srv, setups[i], &g, why, sizeof why) == 0, "%s", why);
        for (int t = 0; t < 4; t++) CHECK(play_turn(srv, &g, 1, why, sizeof why) >= 0, "%s", why);
        char path[160];
        snprintf(path, sizeof path, "/v1/games/%s/board.svg", g.id);
        struct resp r;
        http(srv, "GET", path, NULL, NULL, &r);
        int v = game_version(srv, &g);
        char want[32];
        snprintf(want, sizeof want, "\"%d\"", v);
        CHECK(r.status == 200 && strcmp(r.ctype, "image/svg+xml") == 0 && strstr(r.body, "<svg") &&
                  strstr(r.body, "</svg>") && strcmp(r.etag, want) == 0 &&
                  strcmp(r.cache, "no-cache") == 0 && !strstr(r.body, "<B&>"),
              "%s: %ld %s %s %.80s", setups[i], r.status, r.ctype, r.etag, r.body);
        resp_free(&r);
        char inm[64];
        snprintf(inm, sizeof inm, "If-None-Match: W/%s, \"x\"", want);
        const char *h[] = {inm, NULL};
        http(srv, "GET", path, NULL, h, &r);
        CHECK(r.status == 304 && r.len == 0 && strcmp(r.etag, want) == 0, "304: %ld", r.status);
        resp_free(&r);
        /* A move later the picture is new. */
        CHECK(play_turn(srv, &g, 0, why, sizeof why) >= 0, "%s", why);
        http(srv, "GET", path, NULL, h, &r);
        CHECK(r.status == 200 && strcmp(r.etag, want) != 0, "after a move: %ld %s", r.status,
              r.etag);
        resp_free(&r);
    }
    expect_not_found(srv, "/v1/games/not-a-game/board.svg");
}

/* /metrics by route and status, histograms, games by status; X-Request-Id everywhere. */
ITEST(test_metrics_and_request_ids,
      "/metrics by route and status; X-Request-Id in answers and logs")
{
    HARD_SERVER(s, 1, "LOG_LEVEL=info");
    char why[400];
    struct game g;
    int rc = game_new(&s, LIVE_GAME, &g, why, sizeof why);
    char rid[64];
    snprintf(rid, sizeof rid, "itest-%ld-%d", (long)time(NULL), (int)getpid());
    char rid_h[96];
    snprintf(rid_h, sizeof rid_h, "X-Request-Id: %s", rid);
    struct resp r, bad, none, m;
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    const char *h1[] = {rid_h, NULL};
    http(&s, "GET", path, NULL, h1, &r);
    const char *h2[] = {"X-Request-Id: no spaces allowed", NULL};
    http(&s, "GET", "/v1/games/00000000-0000-4000-8000-000000000000", NULL, h2, &bad);
    http(&s, "GET", "/healthz", NULL, NULL, &none);
    http(&s, "GET", "/metrics", NULL, NULL, &m);
    int code = hard_server_stop(&s);
    /* The server's log line of the request carries the id. */
    FILE *f = server_log();
    char line[4096], needle[128];
    snprintf(needle, sizeof needle, "\"request_id\":\"%s\"", rid);
    int logged = 0;
    while (f && fgets(line, sizeof line, f))
        if (strstr(line, needle) && strstr(line, "\"msg\":\"request\"") && line[0] == '{')
            logged = 1;
    if (f) fclose(f);
    int echoed = strcmp(r.request_id, rid) == 0;
    int made = strlen(bad.request_id) >= 8 && !strchr(bad.request_id, ' ') &&
               strlen(none.request_id) >= 8 && strcmp(bad.request_id, none.request_id) != 0;
    int route_count = strstr(m.body, "tilehall_http_requests_total{route=\"/v1/games/{id}\","
                                     "status=\"200\"} 1") != NULL;
    int route_404 = strstr(m.body, "tilehall_http_requests_total{route=\"/v1/games/{id}\","
                                   "status=\"404\"} 1") != NULL;
    int created =
        strstr(m.body, "tilehall_http_requests_total{route=\"/v1/games\",status=\"201\"}") != NULL;
    int hist = strstr(m.body, "tilehall_http_request_duration_seconds_bucket{route=\"/v1/games/"
                              "{id}\",le=\"+Inf\"} 2") != NULL &&
               strstr(m.body, "# TYPE tilehall_http_request_duration_seconds histogram") != NULL;
    int games = strstr(m.body, "tilehall_games{status=\"active\"} ") != NULL &&
                strstr(m.body, "tilehall_db_errors_total{kind=\"connection\"} ") != NULL;
    int ctype = strncmp(m.ctype, "text/plain", 10) == 0;
    char excerpt[200];
    snprintf(excerpt, sizeof excerpt, "%.190s", m.body);
    resp_free(&r);
    resp_free(&bad);
    resp_free(&none);
    resp_free(&m);
    CHECK(rc == 0, "%s", why);
    CHECK(echoed, "a sane X-Request-Id is not echoed");
    CHECK(made, "no generated X-Request-Id");
    CHECK(logged, "the log has no request line with request_id %s", rid);
    CHECK(route_count && route_404 && created, "requests by route and status: %s", excerpt);
    CHECK(hist, "no latency histogram by route");
    CHECK(games, "no games by status or database errors");
    CHECK(ctype, "metrics content type");
    CHECK(code == 0, "the server exited with %d", code);
}

/*
 * SLOW_REQUEST_MS: a request answered slower than that is logged as a warning (with its
 * request id); a long poll's wait, being on purpose, is not; fast ones are not.
 */
ITEST(test_slow_request_log, "slow requests logged as warnings (SLOW_REQUEST_MS), long polls not")
{
    HARD_SERVER(s, 0, "LOG_LEVEL=warn", "SLOW_REQUEST_MS=150");
    char why[400] = "";
    struct game g;
    int rc = game_new(&s, LIVE_GAME, &g, why, sizeof why);
    char tag[48];
    snprintf(tag, sizeof tag, "%ld-%d", (long)time(NULL), (int)getpid());
    /* The body comes a byte every 100 ms: the request takes 300 ms or more. */
    char raw[512];
    int n = snprintf(raw, sizeof raw,
                     "POST /v1/games HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                     "Content-Length: 3\r\nX-Request-Id: slow-%s\r\nConnection: close\r\n\r\n",
                     tag);
    raw[n] = '\0';
    memcpy(raw + n + 1, "{}}", 3);
    struct resp slow, poll, fast;
    hard_send(&s, VIA_SLOW, NULL, NULL, raw, (size_t)n + 4, NULL, &slow);
    char path[160], h_poll[96], h_fast[96];
    snprintf(path, sizeof path, "/v1/games/%s/events?after=999&wait=1", g.id);
    snprintf(h_poll, sizeof h_poll, "X-Request-Id: poll-%s", tag);
    snprintf(h_fast, sizeof h_fast, "X-Request-Id: fast-%s", tag);
    const char *hp[] = {h_poll, NULL}, *hf[] = {h_fast, NULL};
    http(&s, "GET", path, NULL, hp, &poll);
    http(&s, "GET", "/healthz", NULL, hf, &fast);
    int code = hard_server_stop(&s);
    FILE *f = server_log();
    char line[4096], want_slow[96], want_poll[96], want_fast[96];
    snprintf(want_slow, sizeof want_slow, "\"request_id\":\"slow-%s\"", tag);
    snprintf(want_poll, sizeof want_poll, "\"request_id\":\"poll-%s\"", tag);
    snprintf(want_fast, sizeof want_fast, "\"request_id\":\"fast-%s\"", tag);
    int logged_slow = 0, logged_other = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (strstr(line, want_slow) && strstr(line, "\"msg\":\"slow request\"") &&
            strstr(line, "\"level\":\"warn\""))
            logged_slow = 1;
        if (strstr(line, want_poll) || strstr(line, want_fast)) logged_other = 1;
    }
    if (f) fclose(f);
    long st_slow = slow.status, st_poll = poll.status, st_fast = fast.status;
    resp_free(&slow);
    resp_free(&poll);
    resp_free(&fast);
    CHECK(rc == 0, "%s", why);
    CHECK(st_slow == 400 && st_poll == 200 && st_fast == 200, "answers %ld %ld %ld", st_slow,
          st_poll, st_fast);
    CHECK(logged_slow, "no warning for the slow request");
    CHECK(!logged_other, "the long poll or the fast request was logged at warn");
    CHECK(code == 0, "the server exited with %d", code);
}
