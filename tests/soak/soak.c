/* soak.c: a sustained mixed load against running servers, for a set time. Each client plays
 * its own games (every ruleset, 2 to 5 players) turn by turn, reads them (game, scores,
 * events, placements, rulesets), and now and then sends a request that must be refused
 * (bad JSON, a stale If-Match, a wrong token) or repeats one with its Idempotency-Key. At
 * the end it prints the requests made, the answers by status and problem code, the errors
 * by kind (an answer other than the one expected, a 5xx, no answer at all) and the latency
 * percentiles; it exits 1 when there was any error.
 *
 *   soak SECONDS CLIENTS URL [URL ...]     (client i uses URL i % count)
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <cjson/cJSON.h>
#include <curl/curl.h>

#include "resp.h"

#define MAX_KINDS 64

/* Answers counted by "status code" (e.g. "409 wrong_phase"). */
struct kinds {
    char name[MAX_KINDS][48]; /* the kind */
    long n[MAX_KINDS];        /* how many */
    int count;                /* kinds in use */
};

/* One client's state and tallies. */
struct client {
    int id;                /* its number */
    const char *base;      /* its server */
    unsigned long rng;     /* its random numbers */
    CURL *curl;            /* its connection (kept alive) */
    double *lat;           /* latencies, ms */
    size_t nlat, caplat;   /* used and allocated */
    struct kinds answers;  /* every answer by kind */
    struct kinds errors;   /* the errors by kind */
    char first_error[300]; /* the first error, described */
    long games, finished;  /* games created, played to the end */
    double slowest;        /* its slowest request, ms */
    char slowest_what[96]; /* which */
};

static atomic_int stop;
static atomic_long total_requests; /* so far, for the progress lines */
static atomic_long total_errors;   /* so far */

static unsigned long next(struct client *c)
{
    c->rng ^= c->rng << 13;
    c->rng ^= c->rng >> 7;
    c->rng ^= c->rng << 17;
    return c->rng;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static void count(struct kinds *k, const char *name)
{
    for (int i = 0; i < k->count; i++)
        if (strcmp(k->name[i], name) == 0) {
            k->n[i]++;
            return;
        }
    int i = k->count < MAX_KINDS ? k->count++ : MAX_KINDS - 1;
    snprintf(k->name[i], sizeof k->name[i], "%s", k->count < MAX_KINDS ? name : "other");
    k->n[i]++;
}

/*
 * One request; `want` is the status it must get (0: any 2xx, 409 or 412), `want_code` its
 * problem code (or NULL). Counts it; returns 1 when it got what it should.
 */
static int request(struct client *c, const char *method, const char *path, const char *body,
                   const char *const *headers, long want, const char *want_code, struct resp *a)
{
    memset(a, 0, sizeof *a);
    char url[512];
    snprintf(url, sizeof url, "%s%s", c->base, path);
    struct curl_slist *hl = resp_headers(headers, body != NULL);
    CURL *h = c->curl;
    curl_easy_reset(h);
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
    if (body) {
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
    } else if (strcmp(method, "POST") == 0) {
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, "");
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, 0L);
    }
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hl);
    resp_capture(h, resp_on_body, resp_on_header, a, 30000);
    double t0 = now_ms();
    CURLcode rc = resp_perform(h, a);
    double ms = now_ms() - t0;
    curl_slist_free_all(hl);
    resp_parse(a);
    if (c->nlat == c->caplat) {
        size_t cap = c->caplat ? 2 * c->caplat : 4096;
        double *nl = realloc(c->lat, cap * sizeof *nl);
        if (nl) c->lat = nl, c->caplat = cap;
    }
    if (c->nlat < c->caplat) c->lat[c->nlat++] = ms;
    atomic_fetch_add(&total_requests, 1);
    if (ms > c->slowest) {
        c->slowest = ms;
        snprintf(c->slowest_what, sizeof c->slowest_what, "%s %.60s -> %ld", method, path,
                 a->status);
    }
    char kind[48];
    snprintf(kind, sizeof kind, "%ld%s%.40s", a->status, a->status >= 400 ? " " : "",
             problem_code(a));
    count(&c->answers, a->status ? kind : "no answer");
    int ok = want ? a->status == want && (!want_code || strcmp(problem_code(a), want_code) == 0)
                  : (a->status >= 200 && a->status < 300);
    if (!ok) {
        char err[64];
        if (a->status == 0)
            snprintf(err, sizeof err, "no answer (%s)", curl_easy_strerror(rc));
        else if (a->status >= 500)
            snprintf(err, sizeof err, "%ld %.40s", a->status, problem_code(a));
        else
            snprintf(err, sizeof err, "unexpected %ld %.36s", a->status, problem_code(a));
        count(&c->errors, err);
        atomic_fetch_add(&total_errors, 1);
        if (!c->first_error[0])
            snprintf(c->first_error, sizeof c->first_error, "%s %s: %s: %.200s", method, path, err,
                     a->body ? a->body : "");
    }
    return ok;
}

/* The game a client plays. */
struct game {
    char id[48];
    int nplayers;
    char auth[5][128]; /* Authorization lines by seat */
};

static int create(struct client *c, struct game *g)
{
    static const char *const rulesets[] = {
        "\"ruleset\":\"classic\"", "\"ruleset\":\"classic\",\"options\":{\"river\":true}",
        "\"ruleset\":\"hills\"", "\"ruleset\":\"discovery\"",
        "\"ruleset\":\"discovery\",\"options\":{\"draw\":\"hand\"}"};
    int np = 2 + (int)(next(c) % 4);
    char body[512];
    size_t o = (size_t)snprintf(body, sizeof body, "{%s,\"seed\":%lu,\"players\":[",
                                rulesets[next(c) % 5], next(c) % 1000000);
    for (int i = 0; i < np; i++)
        o += (size_t)snprintf(body + o, sizeof body - o, "%s{\"name\":\"P%d\"}", i ? "," : "", i);
    snprintf(body + o, sizeof body - o, "]}");
    struct resp a;
    int ok = request(c, "POST", "/v1/games", body, NULL, 201, NULL, &a);
    if (ok) {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(a.json, "id");
        const cJSON *players = cJSON_GetObjectItemCaseSensitive(a.json, "players");
        snprintf(g->id, sizeof g->id, "%s", cJSON_IsString(id) ? id->valuestring : "");
        g->nplayers = cJSON_GetArraySize(players);
        for (int s = 0; s < g->nplayers && s < 5; s++) {
            const cJSON *t =
                cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(players, s), "token");
            snprintf(g->auth[s], sizeof g->auth[s], "Authorization: Bearer %s",
                     cJSON_IsString(t) ? t->valuestring : "");
        }
        c->games++;
    }
    resp_free(&a);
    return ok && g->id[0] ? 0 : -1;
}

/* One turn step of the game: a draw, or a placement. Returns 1 when the game is over. */
static int step(struct client *c, struct game *g)
{
    char path[160];
    struct resp a;
    snprintf(path, sizeof path, "/v1/games/%s", g->id);
    if (!request(c, "GET", path, NULL, NULL, 200, NULL, &a)) {
        resp_free(&a);
        return 1;
    }
    const cJSON *turn = cJSON_GetObjectItemCaseSensitive(a.json, "turn");
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(a.json, "status");
    const cJSON *ph = cJSON_GetObjectItemCaseSensitive(turn, "phase");
    const cJSON *seat = cJSON_GetObjectItemCaseSensitive(turn, "seat");
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(a.json, "version");
    int finished = cJSON_IsString(st) && strcmp(st->valuestring, "finished") == 0;
    int s = cJSON_IsNumber(seat) ? seat->valueint : 0;
    int version = cJSON_IsNumber(ver) ? ver->valueint : 0;
    int draw = cJSON_IsString(ph) && strcmp(ph->valuestring, "draw") == 0;
    resp_free(&a);
    if (finished) {
        c->finished++;
        return 1;
    }
    if (s < 0 || s >= g->nplayers) return 1;
    char im[48];
    snprintf(im, sizeof im, "If-Match: \"%d\"", version);
    unsigned long r = next(c);
    if (r % 20 == 0) {
        /* A stale If-Match: refused, nothing happens. */
        char stale[48];
        snprintf(stale, sizeof stale, "If-Match: \"%d\"", version - 1);
        const char *h[] = {g->auth[s], stale, NULL};
        snprintf(path, sizeof path, "/v1/games/%s/draw", g->id);
        request(c, "POST", path, NULL, h, 412, "version_mismatch", &a);
        resp_free(&a);
    } else if (r % 20 == 1 && g->nplayers > 1) {
        /* Another seat's token: not your turn. */
        const char *h[] = {g->auth[(s + 1) % g->nplayers], NULL};
        snprintf(path, sizeof path, "/v1/games/%s/draw", g->id);
        request(c, "POST", path, NULL, h, 403, "not_your_turn", &a);
        resp_free(&a);
    }
    if (draw) {
        char key[64];
        snprintf(key, sizeof key, "Idempotency-Key: soak-draw-%d",
                 version); /* scope: game and seat */
        const char *h[] = {g->auth[s], im, key, NULL};
        snprintf(path, sizeof path, "/v1/games/%s/draw", g->id);
        int ok = request(c, "POST", path, NULL, h, 200, NULL, &a);
        const cJSON *game = cJSON_GetObjectItemCaseSensitive(a.json, "game");
        const cJSON *gst = cJSON_GetObjectItemCaseSensitive(game, "status");
        int over = cJSON_IsString(gst) && strcmp(gst->valuestring, "finished") == 0;
        resp_free(&a);
        if (ok && r % 10 == 2) {
            /* The same request again: the first answer, nothing new. */
            request(c, "POST", path, NULL, h, 200, NULL, &a);
            resp_free(&a);
        }
        if (over) c->finished++;
        return !ok || over;
    }
    snprintf(path, sizeof path, "/v1/games/%s/placements", g->id);
    if (!request(c, "GET", path, NULL, NULL, 200, NULL, &a)) {
        resp_free(&a);
        return 1;
    }
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(a.json, "placements");
    int n = cJSON_GetArraySize(list);
    char body[200] = "";
    if (n > 0) {
        const cJSON *p = cJSON_GetArrayItem(list, (int)(next(c) % (unsigned long)n));
#define NUM(k) (cJSON_GetObjectItemCaseSensitive(p, k)->valueint)
        const cJSON *fol = cJSON_GetObjectItemCaseSensitive(p, "follower");
        const cJSON *tile = cJSON_GetObjectItemCaseSensitive(p, "tile");
        int nf = cJSON_GetArraySize(fol);
        char extra[80] = "";
        if (cJSON_IsString(tile))
            snprintf(extra, sizeof extra, ",\"tile\":\"%s\"", tile->valuestring);
        if (nf > 0 && next(c) % 2) {
            size_t l = strlen(extra);
            snprintf(extra + l, sizeof extra - l, ",\"follower\":\"%s\"",
                     cJSON_GetArrayItem(fol, (int)(next(c) % (unsigned long)nf))->valuestring);
        }
        snprintf(body, sizeof body, "{\"x\":%d,\"y\":%d,\"rotation\":%d%s}", NUM("x"), NUM("y"),
                 NUM("rotation"), extra);
#undef NUM
    }
    resp_free(&a);
    if (!body[0]) return 1;
    const char *h[] = {g->auth[s], im, NULL};
    int ok = request(c, "POST", path, body, h, 201, NULL, &a);
    const cJSON *evs = cJSON_GetObjectItemCaseSensitive(a.json, "events");
    const cJSON *last = cJSON_GetArrayItem(evs, cJSON_GetArraySize(evs) - 1);
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(last, "type");
    int over = cJSON_IsString(type) && strcmp(type->valuestring, "game_finished") == 0;
    resp_free(&a);
    if (over) c->finished++;
    return !ok || over;
}

/* A read or a refused request, now and then. */
static void aside(struct client *c, struct game *g)
{
    char path[192];
    struct resp a;
    unsigned long r = next(c) % 8;
    if (r == 0) {
        snprintf(path, sizeof path, "/v1/games/%s/scores", g->id);
        request(c, "GET", path, NULL, NULL, 200, NULL, &a);
    } else if (r == 1) {
        snprintf(path, sizeof path, "/v1/games/%s/events?after=%lu", g->id, next(c) % 20);
        request(c, "GET", path, NULL, NULL, 200, NULL, &a);
    } else if (r == 2) {
        request(c, "GET", "/v1/rulesets", NULL, NULL, 200, NULL, &a);
    } else if (r == 3) {
        request(c, "POST", "/v1/games", "{\"players\":[{\"name\":\"A\"}", NULL, 400, "invalid_json",
                &a);
    } else if (r == 4) {
        snprintf(path, sizeof path, "/v1/games/%s/draw", g->id);
        const char *h[] = {"Authorization: Bearer not-a-token", NULL};
        request(c, "POST", path, NULL, h, 401, "unknown_token", &a);
    } else {
        return;
    }
    resp_free(&a);
}

static void *client_main(void *p)
{
    struct client *c = p;
    c->curl = curl_easy_init();
    struct game g = {0};
    int have = 0;
    while (!atomic_load(&stop)) {
        if (!have) {
            have = create(c, &g) == 0;
            if (!have) continue;
        }
        if (step(c, &g)) have = 0;
        if (next(c) % 3 == 0 && have) aside(c, &g);
    }
    curl_easy_cleanup(c->curl);
    return NULL;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void merge(struct kinds *into, const struct kinds *k)
{
    for (int i = 0; i < k->count; i++)
        for (long n = 0; n < k->n[i]; n++) count(into, k->name[i]);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: soak SECONDS CLIENTS URL [URL ...]\n");
        return 2;
    }
    double seconds = strtod(argv[1], NULL);
    int nclients = (int)strtol(argv[2], NULL, 10);
    if (nclients < 1 || nclients > 1024 || seconds <= 0) return 2;
    curl_global_init(CURL_GLOBAL_ALL);
    struct client *cs = calloc((size_t)nclients, sizeof *cs);
    pthread_t *t = calloc((size_t)nclients, sizeof *t);
    if (!cs || !t) return 2;
    double t0 = now_ms();
    for (int i = 0; i < nclients; i++) {
        cs[i].id = i;
        cs[i].base = argv[3 + i % (argc - 3)];
        cs[i].rng = 0x9E3779B97F4A7C15ul ^ (unsigned long)(i + 1) * 0xBF58476D1CE4E5B9ul;
        pthread_create(&t[i], NULL, client_main, &cs[i]);
    }
    /* A progress line every tenth of the run (at least every 5 s): a load that slows down
     * or starts failing as the database grows shows here. */
    double every = seconds / 10 < 5 ? 5 : seconds / 10, next_line = every;
    long last_n = 0;
    while (now_ms() - t0 < seconds * 1000) {
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
        double at = (now_ms() - t0) / 1000;
        if (at >= next_line && at < seconds) {
            long n = atomic_load(&total_requests);
            printf("soak: %4.0f s: %ld requests/s, %ld errors so far\n", at,
                   (long)((n - last_n) / every), atomic_load(&total_errors));
            fflush(stdout);
            last_n = n;
            next_line += every;
        }
    }
    atomic_store(&stop, 1);
    for (int i = 0; i < nclients; i++) pthread_join(t[i], NULL);
    double took = (now_ms() - t0) / 1000.0;
    size_t n = 0;
    long games = 0, finished = 0;
    static struct kinds answers, errors;
    const char *first = "";
    for (int i = 0; i < nclients; i++) {
        n += cs[i].nlat;
        games += cs[i].games;
        finished += cs[i].finished;
        merge(&answers, &cs[i].answers);
        merge(&errors, &cs[i].errors);
        if (!first[0] && cs[i].first_error[0]) first = cs[i].first_error;
    }
    double *all = malloc((n ? n : 1) * sizeof *all);
    size_t o = 0;
    for (int i = 0; all && i < nclients; i++) {
        memcpy(all + o, cs[i].lat, cs[i].nlat * sizeof *all);
        o += cs[i].nlat;
    }
    if (all) qsort(all, n, sizeof *all, cmp);
#define PCT(p) (n && all ? all[(size_t)((double)(n - 1) * (p))] : 0.0)
    printf("soak: %.1f s, %d clients, %d server(s)\n", took, nclients, argc - 3);
    printf("soak: %zu requests (%.0f/s); %ld games created, %ld played to the end\n", n, n / took,
           games, finished);
    printf("soak: answers:");
    for (int i = 0; i < answers.count; i++) printf(" [%s] %ld", answers.name[i], answers.n[i]);
    printf("\n");
    long nerr = 0;
    for (int i = 0; i < errors.count; i++) nerr += errors.n[i];
    if (nerr == 0) {
        printf("soak: errors: none\n");
    } else {
        printf("soak: errors: %ld:", nerr);
        for (int i = 0; i < errors.count; i++) printf(" [%s] %ld", errors.name[i], errors.n[i]);
        printf("\nsoak: first error: %s\n", first);
    }
    printf("soak: latency ms: p50 %.2f  p90 %.2f  p99 %.2f  p99.9 %.2f  max %.2f\n", PCT(0.50),
           PCT(0.90), PCT(0.99), PCT(0.999), n ? all[n - 1] : 0.0);
    int worst = 0;
    for (int i = 1; i < nclients; i++)
        if (cs[i].slowest > cs[worst].slowest) worst = i;
    printf("soak: slowest: %s (%.0f ms)\n", cs[worst].slowest_what, cs[worst].slowest);
    for (int i = 0; i < nclients; i++) free(cs[i].lat);
    free(all);
    free(cs);
    free(t);
    curl_global_cleanup();
    return nerr ? 1 : 0;
}
