/* t_cors.c: CORS (docs/clients.md "Browsers"): a preflight on every route answers 204 with the
 * methods of its path, without a token; every /v1 answer (errors, 304, a long poll, an
 * event stream) carries Access-Control-Allow-Origin and the exposed headers; the
 * operators' paths carry none; and, on servers of their own, a CORS_ORIGINS list (the
 * listed origin echoed with Vary: Origin, an unlisted one gets nothing) and preflights
 * that a rate limit does not refuse, while the 429 after them is readable by the page.
 * And the browser security headers (README "Limits and security"): every answer carries
 * X-Content-Type-Options: nosniff, Referrer-Policy: no-referrer, X-Frame-Options: DENY and a
 * Content-Security-Policy that loads nothing and forbids framing, but the web client's page, whose
 * policy allows its own files and requests to its own origin and WEB_API_ORIGINS's only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "hard.h"
#include "tests.h"

#define PAGE "http://page.example:8000"
/* The Content-Security-Policy of every answer but the web client's page. */
#define CSP_NONE "default-src 'none'; frame-ancestors 'none'"
/* The page's, with the further API origins `o` (" https://a.example", or ""). */
#define CSP_PAGE(o)                                                                                \
    "default-src 'self'; connect-src 'self'" o "; img-src 'self' data:; object-src 'none'; "       \
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
#define NOBODY_ID "/v1/games/00000000-0000-4000-8000-000000000000"
#define GAME2                                                                                      \
    "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"start\":\"D\",\"deck\":[\"K\","        \
    "\"D\",\"E\",\"U\",\"V\",\"B\",\"A\",\"L\"]}"

/* An answer with all its header lines. */
struct cresp {
    long status;     /* 0 when no answer came */
    char head[8192]; /* the header lines as received */
    size_t hlen;     /* bytes in head */
    char body[4096]; /* the body's start */
    size_t blen;     /* bytes in body */
    int first_chunk; /* 1: stop after the body's first bytes (an event stream) */
};

static size_t on_head(char *p, size_t size, size_t n, void *ud)
{
    struct cresp *r = ud;
    size_t len = size * n;
    if (r->hlen + len < sizeof r->head) {
        memcpy(r->head + r->hlen, p, len);
        r->hlen += len;
        r->head[r->hlen] = '\0';
    }
    return len;
}

static size_t on_body(char *p, size_t size, size_t n, void *ud)
{
    struct cresp *r = ud;
    size_t len = size * n;
    size_t take = len < sizeof r->body - 1 - r->blen ? len : sizeof r->body - 1 - r->blen;
    memcpy(r->body + r->blen, p, take);
    r->blen += take;
    r->body[r->blen] = '\0';
    return r->first_chunk ? 0 : len; /* 0 ends the transfer */
}

/* One request to `base` with the NULL-terminated header lines `h`; `body` as JSON. */
static void creq(const char *base, const char *method, const char *path, const char *body,
                 const char *const *h, int first_chunk, struct cresp *r)
{
    memset(r, 0, sizeof *r);
    r->first_chunk = first_chunk;
    CURL *c = curl_easy_init();
    if (!c) return;
    char url[512];
    snprintf(url, sizeof url, "%s%s", base, path);
    struct curl_slist *hl = resp_headers(h, body != NULL);
    resp_request(c, url, method, body, hl);
    resp_capture(c, on_body, on_head, r, 20000);
    curl_easy_perform(c);
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r->status);
    curl_slist_free_all(hl);
    curl_easy_cleanup(c);
}

/* The value of header `name` of `r` into `out` ("" when missing; "\n"-joined when repeated). */
static const char *hget(const struct cresp *r, const char *name, char *out, size_t cap)
{
    size_t nlen = strlen(name), o = 0;
    out[0] = '\0';
    for (const char *l = r->head; *l;) {
        size_t len = strcspn(l, "\r\n");
        if (len > nlen && strncasecmp(l, name, nlen) == 0 && l[nlen] == ':') {
            const char *v = l + nlen + 1;
            while (*v == ' ') v++;
            int w = snprintf(out + o, cap - o, "%s%.*s", o ? "\n" : "",
                             (int)(len - (size_t)(v - l)), v);
            if (w > 0) o += (size_t)w;
            if (o >= cap) o = cap - 1;
        }
        l += len;
        while (*l == '\r' || *l == '\n') l++;
    }
    return out;
}

/* 1 when `r` carries the CORS headers of an answer (not a preflight) for `origin`. */
static int has_cors(const struct cresp *r, const char *origin, char *why, size_t cap)
{
    char v[256];
    if (strcmp(hget(r, "Access-Control-Allow-Origin", v, sizeof v), origin) != 0) {
        snprintf(why, cap, "Access-Control-Allow-Origin \"%s\", not \"%s\"", v, origin);
        return 0;
    }
    if (strcmp(hget(r, "Access-Control-Expose-Headers", v, sizeof v),
               "ETag, Location, Retry-After, X-Request-Id") != 0) {
        snprintf(why, cap, "Access-Control-Expose-Headers \"%s\"", v);
        return 0;
    }
    return 1;
}

/* 1 when `r` carries no Access-Control-* header. */
static int no_cors(const struct cresp *r)
{
    for (const char *l = r->head; (l = strstr(l, "\n")) != NULL; l++)
        if (strncasecmp(l + 1, "Access-Control-", 15) == 0) return 0;
    return 1;
}

/* A preflight of `method` on `path` from `origin` ("*": from PAGE, on a server that allows
 * any): checks a 204 allowing `methods` to `origin`. */
static int preflight_ok(const char *base, const char *path, const char *method, const char *methods,
                        const char *origin, char *why, size_t cap)
{
    char rm[64], oh[160], v[256];
    snprintf(rm, sizeof rm, "Access-Control-Request-Method: %s", method);
    snprintf(oh, sizeof oh, "Origin: %s", strcmp(origin, "*") == 0 ? PAGE : origin);
    const char *h[] = {oh, rm,
                       "Access-Control-Request-Headers: authorization, content-type, if-match, "
                       "idempotency-key",
                       NULL};
    struct cresp r;
    creq(base, "OPTIONS", path, NULL, h, 0, &r);
    if (r.status != 204 || r.blen != 0) {
        snprintf(why, cap, "OPTIONS %s: %ld with %zu body bytes", path, r.status, r.blen);
        return 0;
    }
    static const char *const want[][2] = {
        {"Access-Control-Allow-Headers", "Authorization, Content-Type, If-Match, If-None-Match, "
                                         "Idempotency-Key, Last-Event-ID, X-Request-Id"},
        {"Access-Control-Max-Age", "600"},
    };
    if (strcmp(hget(&r, "Access-Control-Allow-Origin", v, sizeof v), origin) != 0 ||
        strcmp(hget(&r, "Access-Control-Allow-Methods", v, sizeof v), methods) != 0 ||
        strcmp(hget(&r, "Allow", v, sizeof v), methods) != 0) {
        snprintf(why, cap, "OPTIONS %s (%s): headers\n%s", path, method, r.head);
        return 0;
    }
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (strcmp(hget(&r, want[i][0], v, sizeof v), want[i][1]) != 0) {
            snprintf(why, cap, "OPTIONS %s: %s \"%s\"", path, want[i][0], v);
            return 0;
        }
    return 1;
}

ITEST(test_cors_preflights, "cors: a preflight on every route, with its methods, no token")
{
    /* Every route of api/routes/router.c's table, by path, with the methods of that path. */
    static const char *const routes[][2] = {
        {"/v1/rulesets", "GET"},
        {"/v1/rulesets/classic/tiles", "GET"},
        {"/v1/games", "POST"},
        {NOBODY_ID, "GET"},
        {NOBODY_ID "/draw", "POST"},
        {NOBODY_ID "/placements", "GET, POST"},
        {NOBODY_ID "/scores", "GET"},
        {NOBODY_ID "/events", "GET"},
        {NOBODY_ID "/turn", "GET"},
        {NOBODY_ID "/board.svg", "GET"},
        {NOBODY_ID "/board.png", "GET"},
        {NOBODY_ID "/webhook", "GET, POST, DELETE"},
        {"/v1/players", "POST"},
        {"/v1/players/me", "GET"},
        {"/v1/players/me/token", "POST"},
        {"/v1/players/me/games", "GET"},
        {"/v1/players/me/webhook", "GET, POST, DELETE"},
    };
    char why[9000];
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
        /* A preflight for each method of the path (no token, a game that does not exist). */
        char methods[64];
        snprintf(methods, sizeof methods, "%s", routes[i][1]);
        for (char *m = methods, *next; m; m = next) {
            next = strstr(m, ", ");
            if (next) *next = '\0', next += 2;
            CHECK(preflight_ok(srv->base, routes[i][0], m, routes[i][1], "*", why, sizeof why),
                  "%.150s", why);
        }
    }
    /* Without an Origin (not from a browser) OPTIONS is answered alike. */
    struct cresp r;
    char v[256];
    creq(srv->base, "OPTIONS", "/v1/games", NULL, NULL, 0, &r);
    CHECK(r.status == 204 && strcmp(hget(&r, "Allow", v, sizeof v), "POST") == 0,
          "OPTIONS without Origin: %ld Allow %.150s", r.status, v);
    /* An unknown path stays 404, with the CORS headers (the page may read the problem). */
    const char *h[] = {"Origin: " PAGE, "Access-Control-Request-Method: GET", NULL};
    creq(srv->base, "OPTIONS", "/v1/nope", NULL, h, 0, &r);
    CHECK(r.status == 404 && has_cors(&r, "*", why, sizeof why), "OPTIONS /v1/nope: %ld %.150s",
          r.status, r.status == 404 ? why : "");
    creq(srv->base, "OPTIONS", NOBODY_ID "/nope", NULL, h, 0, &r);
    CHECK(r.status == 404, "OPTIONS .../nope: %ld", r.status);
    /* The operators' paths answer OPTIONS, without CORS headers. */
    creq(srv->base, "OPTIONS", "/healthz", NULL, h, 0, &r);
    CHECK(r.status == 204 && no_cors(&r), "OPTIONS /healthz: %ld\n%.150s", r.status, r.head);
}

ITEST(test_cors_answers,
      "cors: headers on every answer (errors, 304, long poll, stream), not on ops")
{
    char why[600], v[256], path[160];
    struct cresp r;
    const char *o[] = {"Origin: " PAGE, NULL};
    /* 201 with Location. */
    creq(srv->base, "POST", "/v1/games", GAME2, o, 0, &r);
    CHECK(r.status == 201 && has_cors(&r, "*", why, sizeof why), "create: %ld %.150s", r.status,
          why);
    struct game g;
    NEW_GAME(&g, GAME2);
    /* 200 with ETag, then 304. */
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    creq(srv->base, "GET", path, NULL, o, 0, &r);
    CHECK(r.status == 200 && has_cors(&r, "*", why, sizeof why), "get: %ld %.150s", r.status, why);
    char inm[96];
    snprintf(inm, sizeof inm, "If-None-Match: %s", hget(&r, "ETag", v, sizeof v));
    const char *h304[] = {"Origin: " PAGE, inm, NULL};
    creq(srv->base, "GET", path, NULL, h304, 0, &r);
    CHECK(r.status == 304 && has_cors(&r, "*", why, sizeof why), "304: %ld %.150s", r.status, why);
    /* Errors: 400, 401, 404, 405, 415. */
    static const struct {
        const char *method, *path, *body, *ctype;
        long status;
    } errs[] = {
        {"POST", "/v1/games", "{", NULL, 400},
        {"POST", "/v1/games", "x", "Content-Type: text/plain", 415},
        {"GET", NOBODY_ID, NULL, NULL, 404},
        {"GET", "/v1/nope", NULL, NULL, 404},
        {"DELETE", "/v1/games", NULL, NULL, 405},
        {"GET", "/v1/players/me", NULL, NULL, 401},
    };
    for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++) {
        const char *h[] = {"Origin: " PAGE, errs[i].ctype, NULL};
        creq(srv->base, errs[i].method, errs[i].path, errs[i].body, h, 0, &r);
        CHECK(r.status == errs[i].status && has_cors(&r, "*", why, sizeof why),
              "%.150s %.150s: %ld %.150s", errs[i].method, errs[i].path, r.status, why);
    }
    /* 401 on a draw without a token. */
    snprintf(path, sizeof path, "/v1/games/%s/draw", g.id);
    creq(srv->base, "POST", path, NULL, o, 0, &r);
    CHECK(r.status == 401 && has_cors(&r, "*", why, sizeof why), "draw: %ld %.150s", r.status, why);
    /* A long poll that waits and answers. */
    snprintf(path, sizeof path, "/v1/games/%s/events?after=1000&wait=1", g.id);
    creq(srv->base, "GET", path, NULL, o, 0, &r);
    CHECK(r.status == 200 && has_cors(&r, "*", why, sizeof why), "long poll: %ld %.150s", r.status,
          why);
    /* An event stream: its headers come before its first event. */
    snprintf(path, sizeof path, "/v1/games/%s/events", g.id);
    const char *sse[] = {"Origin: " PAGE, "Accept: text/event-stream", NULL};
    creq(srv->base, "GET", path, NULL, sse, 1, &r);
    CHECK(r.status == 200 && strstr(r.head, "text/event-stream") &&
              has_cors(&r, "*", why, sizeof why),
          "stream: %ld %.150s\n%.150s", r.status, why, r.head);
    /* No Origin: the same headers ("*" does not vary). */
    creq(srv->base, "GET", "/v1/rulesets", NULL, NULL, 0, &r);
    CHECK(r.status == 200 && has_cors(&r, "*", why, sizeof why), "no Origin: %.150s", why);
    CHECK(!strstr(r.head, "Vary:"), "Vary with *:\n%.150s", r.head);
    /* The spec, for documentation pages elsewhere; not the operators' paths. */
    creq(srv->base, "GET", "/openapi.yaml", NULL, o, 0, &r);
    CHECK(r.status == 200 && has_cors(&r, "*", why, sizeof why), "openapi.yaml: %.150s", why);
    static const char *const ops[] = {"/healthz", "/readyz", "/metrics"};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        creq(srv->base, "GET", ops[i], NULL, o, 0, &r);
        CHECK(r.status == 200 && no_cors(&r), "%.150s: %ld\n%.150s", ops[i], r.status, r.head);
    }
}

/* The body of test_cors_origins on its server `z`. */
static const char *origins_on(struct server *z, char *why, size_t cap)
{
    struct cresp r;
    char v[256];
    static const char *const listed[] = {PAGE, "https://b.example"};
    for (size_t i = 0; i < 2; i++) {
        char oh[96];
        snprintf(oh, sizeof oh, "Origin: %s", listed[i]);
        const char *h[] = {oh, NULL};
        creq(z->base, "GET", "/v1/rulesets", NULL, h, 0, &r);
        if (r.status != 200 || !has_cors(&r, listed[i], why, cap)) return why;
        if (strcmp(hget(&r, "Vary", v, sizeof v), "Origin") != 0) return "no Vary: Origin";
        if (!preflight_ok(z->base, "/v1/games", "POST", "POST", listed[i], why, cap)) return why;
        creq(z->base, "GET", NOBODY_ID, NULL, h, 0, &r);
        if (r.status != 404 || !has_cors(&r, listed[i], why, cap)) return "404 without CORS";
    }
    /* Unlisted, near misses, none: no CORS headers, but Vary. */
    static const char *const other[] = {"Origin: https://evil.example", "Origin: " PAGE "/",
                                        "Origin: https://page.example:8000", "Origin: null", NULL};
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        const char *h[] = {other[i], "Access-Control-Request-Method: POST", NULL};
        creq(z->base, "GET", "/v1/rulesets", NULL, h, 0, &r);
        if (r.status != 200 || !no_cors(&r) || strcmp(hget(&r, "Vary", v, sizeof v), "Origin"))
            return snprintf(why, cap, "%s: %ld\n%s", other[i] ? other[i] : "no Origin", r.status,
                            r.head),
                   why;
        creq(z->base, "OPTIONS", "/v1/games", NULL, h, 0, &r);
        if (r.status != 204 || !no_cors(&r))
            return snprintf(why, cap, "preflight %s: %ld\n%s", other[i] ? other[i] : "", r.status,
                            r.head),
                   why;
    }
    /* RATE_LIMIT=1, RATE_BURST=30: preflights take no token, the 429 after them is readable. */
    for (int i = 0; i < 60; i++)
        if (!preflight_ok(z->base, "/v1/rulesets", "GET", "GET", PAGE, why, cap)) return why;
    const char *h[] = {"Origin: " PAGE, NULL};
    for (int i = 0; i < 60; i++) {
        creq(z->base, "GET", "/v1/rulesets", NULL, h, 0, &r);
        if (r.status == 429) break;
    }
    if (r.status != 429) return "no 429 after 60 requests";
    if (!has_cors(&r, PAGE, why, cap)) return why;
    if (!hget(&r, "Retry-After", v, sizeof v)[0]) return "429 without Retry-After";
    return NULL;
}

/* Runs `check` (NULL when all is well, else what went wrong, in `why`) against a server of
 * its own with the settings `env`; records a failure when it found one, or when the server
 * did not start or exit cleanly. */
static void check_on_server(const char *const *env,
                            const char *(*check)(struct server *z, char *why, size_t cap))
{
    struct server z;
    CHECK(hard_server_start(&z, env, 1) == 0, "the server did not start");
    static char why[9000];
    const char *bad = check(&z, why, sizeof why);
    int st = hard_server_stop(&z);
    CHECK(!bad, "%.400s", bad);
    CHECK(st == 0, "server exit %d", st);
}

ITEST(test_cors_origins, "cors: CORS_ORIGINS list (listed, unlisted), preflights not rate-limited")
{
    (void)srv;
    const char *env[] = {"CORS_ORIGINS=" PAGE ", https://b.example", "RATE_LIMIT=1",
                         "RATE_BURST=30", NULL};
    check_on_server(env, origins_on);
    if (itest_failure[0]) return;
    /* A bad list: the server does not start. */
    const char *worse[] = {"CORS_ORIGINS=https://a.example/app", NULL};
    struct server z;
    int started = hard_server_start(&z, worse, 0) == 0;
    if (started) hard_server_stop(&z); /* (after a failed start there is nothing to stop) */
    CHECK(!started, "started with a path in CORS_ORIGINS");
}

/* The raw answer (at most `cap` - 1 bytes) of a request that stops half way, on `s`:
 * read until the server closes, at most 5 s. Returns the bytes read, or -1. */
static long half_request(const struct server *s, char *out, size_t cap)
{
    int fd = hard_connect(s);
    if (fd < 0) return -1;
    static const char part[] = "GET /v1/games HTTP/1.1\r\nHost: x\r\nOrigin: " PAGE "\r\nX-Half: ";
    long n = 0;
    if (send(fd, part, sizeof part - 1, MSG_NOSIGNAL) == (ssize_t)(sizeof part - 1)) {
        struct timeval tv = {.tv_sec = 5};
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        ssize_t k;
        while ((size_t)n + 1 < cap && (k = recv(fd, out + n, cap - 1 - (size_t)n, 0)) > 0) n += k;
    }
    out[n] = '\0';
    close(fd);
    return n;
}

/* A header line `line` ("Name: value") in the raw answer `a`, case-insensitively by name. */
static int has_line(const char *a, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = a; (p = strstr(p, "\r\n")); p += 2)
        if (strncasecmp(p + 2, line, n) == 0 && (p[2 + n] == '\r')) return 1;
    return 0;
}

/* The connection guard's 408 (a request that does not arrive within REQUEST_TIMEOUT) can
 * be read by a page: with CORS_ORIGINS `*` it carries Access-Control-Allow-Origin `*` and
 * the exposed headers; with a list (the guard knows no origin) only Vary: Origin. */
ITEST(test_cors_timeout,
      "cors: the connection guard's 408 readable by a page (CORS_ORIGINS * and a list)")
{
    (void)srv;
    struct server z;
    char a[4096];
    const char *any[] = {"REQUEST_TIMEOUT=1", NULL};
    CHECK(hard_server_start(&z, any, 0) == 0, "the server did not start");
    long n = half_request(&z, a, sizeof a);
    int st = hard_server_stop(&z);
    CHECK(n > 12 && strncmp(a, "HTTP/1.1 408", 12) == 0, "not a 408: %.80s", a);
    CHECK(has_line(a, "Access-Control-Allow-Origin: *"), "no Access-Control-Allow-Origin: %.400s",
          a);
    CHECK(has_line(a, "Access-Control-Expose-Headers: ETag, Location, Retry-After, X-Request-Id"),
          "no exposed headers: %.400s", a);
    CHECK(strstr(a, "\"code\":\"request_timeout\""), "not request_timeout: %.400s", a);
    CHECK(has_line(a, "X-Content-Type-Options: nosniff") &&
              has_line(a, "Referrer-Policy: no-referrer") && has_line(a, "X-Frame-Options: DENY") &&
              has_line(a, "Content-Security-Policy: " CSP_NONE),
          "the 408 without the security headers: %.400s", a);
    CHECK(st == 0, "server exit %d", st);
    const char *list[] = {"REQUEST_TIMEOUT=1", "CORS_ORIGINS=" PAGE, NULL};
    CHECK(hard_server_start(&z, list, 0) == 0, "the server did not start (a list)");
    n = half_request(&z, a, sizeof a);
    st = hard_server_stop(&z);
    CHECK(n > 12 && strncmp(a, "HTTP/1.1 408", 12) == 0, "a list: not a 408: %.80s", a);
    int acao = 0;
    for (const char *p = a; *p && !acao; p++)
        acao = strncasecmp(p, "Access-Control-Allow-Origin", 27) == 0;
    CHECK(has_line(a, "Vary: Origin") && !acao, "a list: %.400s", a);
    CHECK(st == 0, "server exit %d (a list)", st);
}

/* NULL when `r` carries each security header once, with the CSP `csp`; else what is wrong. */
static const char *secure(const struct cresp *r, const char *csp, char *why, size_t cap)
{
    char v[512];
    if (strcmp(hget(r, "X-Content-Type-Options", v, sizeof v), "nosniff") != 0)
        return snprintf(why, cap, "X-Content-Type-Options \"%s\"", v), why;
    if (strcmp(hget(r, "Referrer-Policy", v, sizeof v), "no-referrer") != 0)
        return snprintf(why, cap, "Referrer-Policy \"%s\"", v), why;
    if (strcmp(hget(r, "X-Frame-Options", v, sizeof v), "DENY") != 0)
        return snprintf(why, cap, "X-Frame-Options \"%s\"", v), why;
    if (strcmp(hget(r, "Content-Security-Policy", v, sizeof v), csp) != 0)
        return snprintf(why, cap, "Content-Security-Policy \"%s\", not \"%s\"", v, csp), why;
    return NULL;
}

/* Every kind of answer (JSON, errors, 304, a preflight, a long poll, an event stream, the
 * operators' paths, the spec, the web client's files, the pictures) carries the security
 * headers; the page its own CSP, every other answer CSP_NONE (board.svg included). */
ITEST(test_security_headers,
      "security headers: nosniff, no-referrer, DENY and a CSP on every answer, the page's own")
{
    struct game g;
    NEW_GAME(&g, GAME2);
    char svg[160], png[160], game[160], poll[160], stream[160], why[700], v[128];
    snprintf(game, sizeof game, "/v1/games/%s", g.id);
    snprintf(svg, sizeof svg, "/v1/games/%s/board.svg", g.id);
    snprintf(png, sizeof png, "/v1/games/%s/board.png?width=64", g.id);
    snprintf(poll, sizeof poll, "/v1/games/%s/events?after=1000&wait=1", g.id);
    snprintf(stream, sizeof stream, "/v1/games/%s/events", g.id);
    static const char *const o[] = {"Origin: " PAGE, NULL};
    static const char *const sse[] = {"Accept: text/event-stream", NULL};
    static const char *const text[] = {"Content-Type: text/plain", NULL};
    static const char *const pre[] = {"Origin: " PAGE, "Access-Control-Request-Method: POST", NULL};
    const struct {
        const char *method, *path, *body;
        const char *const *h;
        long status;
        int etag_again; /* 1: ask again with the answer's ETag: a 304 with them too */
    } asks[] = {
        {"GET", "/v1/rulesets", NULL, o, 200, 0},
        {"POST", "/v1/games", GAME2, o, 201, 0},
        {"GET", game, NULL, o, 200, 1},
        {"POST", "/v1/games", "{", NULL, 400, 0},
        {"POST", "/v1/games", "x", text, 415, 0},
        {"GET", NOBODY_ID, NULL, NULL, 404, 0},
        {"GET", "/v1/nope", NULL, NULL, 404, 0},
        {"DELETE", "/v1/games", NULL, NULL, 405, 0},
        {"GET", "/v1/players/me", NULL, NULL, 401, 0},
        {"OPTIONS", "/v1/games", NULL, pre, 204, 0},
        {"GET", poll, NULL, NULL, 200, 0},
        {"GET", stream, NULL, sse, 200, 0},
        {"GET", svg, NULL, NULL, 200, 1},
        {"GET", png, NULL, NULL, 200, 0},
        {"GET", "/healthz", NULL, NULL, 200, 0},
        {"GET", "/readyz", NULL, NULL, 200, 0},
        {"GET", "/metrics", NULL, NULL, 200, 0},
        {"GET", "/openapi.yaml", NULL, NULL, 200, 0},
        {"GET", "/web/app.js", NULL, NULL, 200, 1},
        {"GET", "/web/nope.js", NULL, NULL, 404, 0},
        {"GET", "/", NULL, NULL, 200, 1},
        {"GET", "/web/index.html", NULL, NULL, 200, 0},
    };
    struct cresp r;
    for (size_t i = 0; i < sizeof asks / sizeof asks[0]; i++) {
        int page = strcmp(asks[i].path, "/") == 0 || strcmp(asks[i].path, "/web/index.html") == 0;
        const char *csp = page ? CSP_PAGE("") : CSP_NONE;
        creq(srv->base, asks[i].method, asks[i].path, asks[i].body, asks[i].h, asks[i].h == sse,
             &r);
        const char *bad = secure(&r, csp, why, sizeof why);
        CHECK(r.status == asks[i].status && !bad, "%s %.100s: %ld, %s", asks[i].method,
              asks[i].path, r.status, bad ? bad : "");
        if (!asks[i].etag_again) continue;
        char inm[96];
        snprintf(inm, sizeof inm, "If-None-Match: %s", hget(&r, "ETag", v, sizeof v));
        const char *h304[] = {inm, NULL};
        creq(srv->base, "GET", asks[i].path, NULL, h304, 0, &r);
        bad = secure(&r, csp, why, sizeof why);
        CHECK(r.status == 304 && !bad, "%.100s again: %ld, %s", asks[i].path, r.status,
              bad ? bad : "");
    }
}

/* The body of test_security_page_origins on its server `z`. */
static const char *page_origins_on(struct server *z, char *why, size_t cap)
{
    struct cresp r;
    char v[128];
    creq(z->base, "GET", "/", NULL, NULL, 0, &r);
    const char *bad = secure(&r, CSP_PAGE(" http://a.example:8000 https://b.example"), why, cap);
    if (r.status != 200 || bad) return bad ? bad : "GET / not 200";
    if (!strstr(r.body, "<meta name=\"tilehall-api-origins\" "
                        "content=\"http://a.example:8000 https://b.example\">"))
        return snprintf(why, cap, "the page's meta does not list them: %.300s", r.body), why;
    char inm[96];
    snprintf(inm, sizeof inm, "If-None-Match: %s", hget(&r, "ETag", v, sizeof v));
    const char *h[] = {inm, NULL};
    creq(z->base, "GET", "/", NULL, h, 0, &r);
    if (r.status != 304) return "the page's own ETag: not 304";
    creq(z->base, "GET", "/v1/rulesets", NULL, NULL, 0, &r);
    return secure(&r, CSP_NONE, why, cap);
}

/* WEB_API_ORIGINS: the page's CSP allows requests to the listed origins and its meta lists
 * them (web/api.js follows ?api= to those only); "*", a path, another scheme or a quote
 * stop the server at start-up. */
ITEST(test_security_page_origins,
      "security headers: WEB_API_ORIGINS in the page's CSP and meta; bad lists refused")
{
    (void)srv;
    const char *env[] = {"WEB_API_ORIGINS=http://a.example:8000, https://b.example", NULL};
    check_on_server(env, page_origins_on);
    if (itest_failure[0]) return;
    static const char *const worse[] = {
        "WEB_API_ORIGINS=*", "WEB_API_ORIGINS=https://a.example/app",
        "WEB_API_ORIGINS=javascript:alert(1)", "WEB_API_ORIGINS=https://a.example\">", NULL};
    for (size_t i = 0; worse[i]; i++) {
        const char *e[] = {worse[i], NULL};
        struct server z;
        int started = hard_server_start(&z, e, 0) == 0;
        if (started) hard_server_stop(&z);
        CHECK(!started, "started with %s", worse[i]);
    }
}
