/* itest.h: the integration test runner: a real server, real PostgreSQL, HTTP via libcurl. */
#ifndef ITEST_H
#define ITEST_H

#include <stddef.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

#include "resp.h"

/* A running server. */
struct server {
    pid_t pid;          /* its process */
    int port;           /* where it listens (kept across a restart) */
    char base[64];      /* where tests send requests: the server, or the spec proxy before it */
    char direct[64];    /* "http://127.0.0.1:PORT" */
    int proxy_port;     /* the validating spec proxy in front of it, or 0 */
    char proxy_pid[16]; /* its pid, or "" */
    char log[256];      /* the file its output goes to (shared with other servers) */
};

/*
 * Starts the server binary (on a port the kernel gives it the first time, on the same port
 * after a stop); waits until /healthz answers. With ITEST_SPEC_PROXY set (not empty) and `proxied`,
 * also starts the validating spec proxy (scripts/spec-proxy.sh) in front of it once and sends every
 * test request through it. 0 or -1.
 */
int server_start_proxied(struct server *s, int proxied);
/*
 * Starts the server binary (TILEHALL_BIN, else build/tilehall) as a child, its output
 * appended to `log`, with THREADS 4 and LOG_LEVEL warn unless set, and the NAME=VALUE
 * strings of the NULL-terminated `env` (may be NULL; kept by the child) on top. *port 0:
 * the server binds a port the kernel picks and writes it to its PORT_FILE, read back into
 * *port (no port is ever picked here and released, which another program could take
 * first); a port given (a restart): tried again while something else holds it (up to 5
 * s). Returns the child's pid once the server listens, or -1 (nothing left running).
 */
pid_t itest_spawn_server(int *port, const char *log, const char *const *env);
/* Asks GET `base``path` every `poll_us` until it answers 200 (0), the child `pid` exits
 * (-1; it is reaped) or `tries` asks went unanswered (-2). */
int itest_wait_answer(const char *base, const char *path, pid_t pid, int tries, long poll_us);
/* server_start_proxied(s, 0). */
int server_start(struct server *s);
/* SIGTERM to `pid`, then waits up to `limit_ms` for its exit, looking every `poll_us`, and
 * kills it (SIGKILL) after that: its exit status (128 + the signal when one ended it, 255
 * when it had to be killed). */
int itest_terminate(pid_t pid, long limit_ms, long poll_us);
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
/* Where this worker's servers log (ITEST_SERVER_LOG, set per worker by main; else
 * build/itest-server.log). */
const char *itest_server_log(void);
/* The string at `path`, or "" when missing. */
const char *jstr(const cJSON *j, const char *path);
/* The item at `path`, or NULL. */
const cJSON *jget(const cJSON *j, const char *path);

#endif
