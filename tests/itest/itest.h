/* itest.h: the integration test runner: a real server, real PostgreSQL, HTTP via libcurl. */
#ifndef ITEST_H
#define ITEST_H

#include <stddef.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

/* An HTTP answer. */
struct resp {
    long status;          /* HTTP status, 0 when the request failed */
    char *body;           /* NUL-terminated, malloc'd */
    size_t len;           /* bytes in body */
    char etag[64];        /* ETag header or "" */
    char location[128];   /* Location header or "" */
    char allow[64];       /* Allow header or "" */
    char ctype[64];       /* Content-Type header or "" */
    char retry_after[16]; /* Retry-After header or "" */
    char www_auth[64];    /* WWW-Authenticate header or "" */
    char request_id[80];  /* X-Request-Id header or "" */
    char cache[64];       /* Cache-Control header or "" */
    cJSON *json;          /* body parsed, or NULL */
};

/* libcurl callbacks that fill a struct resp (`ud`): the body, and the headers it keeps. */
size_t resp_on_body(char *p, size_t size, size_t n, void *ud);
size_t resp_on_header(char *p, size_t size, size_t n, void *ud);

/* Keeps the header line `p` (`len` bytes) in `r` when it is one that struct resp has. */
void resp_take_header(const char *p, size_t len, struct resp *r);

/* A running server. */
struct server {
    pid_t pid;          /* its process */
    int port;           /* where it listens (kept across a restart) */
    char base[64];      /* where tests send requests: the server, or the spec proxy before it */
    char direct[64];    /* "http://127.0.0.1:PORT" */
    int proxy_port;     /* the validating spec proxy in front of it, or 0 */
    char proxy_pid[16]; /* its pid, or "" */
};

/*
 * Starts the server binary (on a free port the first time, on the same port after a
 * stop); waits until /healthz answers. With ITEST_SPEC_PROXY set and `proxied`, also
 * starts the validating spec proxy (scripts/spec-proxy.sh) in front of it once and sends
 * every test request through it. 0 or -1.
 */
int server_start_proxied(struct server *s, int proxied);
/* server_start_proxied(s, 0). */
int server_start(struct server *s);
/* SIGTERM, wait; returns the exit status (0 clean; nonzero e.g. on a leak). */
int server_stop(struct server *s);
/* Stops the spec proxy of `s`, if any. */
void proxy_stop(struct server *s);

/*
 * One request to `srv`: `method` `path`, optional body (sent as application/json unless
 * a "Content-Type:" header is among `headers`), NULL-terminated extra header lines.
 */
void http(const struct server *srv, const char *method, const char *path, const char *body,
          const char *const *headers, struct resp *r);
void resp_free(struct resp *r);

/* Failure bookkeeping: CHECK records the first failure of a test and returns from it. */
extern char itest_failure[512];
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            int n_ = snprintf(itest_failure, sizeof itest_failure, "%s:%d: ", __FILE__, __LINE__); \
            snprintf(itest_failure + n_, sizeof itest_failure - (size_t)n_, __VA_ARGS__);          \
            return;                                                                                \
        }                                                                                          \
    } while (0)

/* The number at `path` ("a.b.0.c") of `j`, or -999999 when missing. */
double jnum(const cJSON *j, const char *path);

/* Every event of game `id`, oldest first, read page by page (caller deletes), or NULL. */
cJSON *game_events(const struct server *srv, const char *id);
/* The string at `path`, or "" when missing. */
const char *jstr(const cJSON *j, const char *path);
/* The item at `path`, or NULL. */
const cJSON *jget(const cJSON *j, const char *path);

/* The problem `code` of an answer, or "". */
const char *problem_code(const struct resp *r);

#endif
