/* hard.h: helpers of the hardening tests: requests with full control over their bytes
 * (binary bodies, chunked uploads, raw sockets, slow senders), servers started with extra
 * settings, and knobs read from the environment. */
#ifndef ITEST_HARD_H
#define ITEST_HARD_H

#include <pthread.h>
#include <stddef.h>

#include "itest.h"

/* How a request is sent. */
enum hard_via {
    VIA_PROXY = 0, /* curl, through the spec proxy when there is one (srv->base) */
    VIA_DIRECT,    /* curl, straight to the server: bytes the proxy would alter or refuse */
    VIA_CHUNKED,   /* curl, straight to the server, the body with Transfer-Encoding: chunked */
    VIA_RAW,       /* the body is the whole request, written to a socket as it is */
    VIA_SLOW       /* like VIA_RAW, the part after a NUL byte written a byte every 100 ms */
};

/*
 * Sends one request and fills `r` (status 0 when no answer came). `body` may hold NUL
 * bytes (`len` bytes; NULL for none); `headers` are extra header lines (a line "Name:"
 * removes curl's own). For VIA_RAW and VIA_SLOW, `method`, `path` and `headers` are unused;
 * VIA_SLOW sends the bytes up to the first NUL at once (the NUL is not sent) and the rest
 * slowly, reading the answer meanwhile.
 */
void hard_send(const struct server *srv, enum hard_via via, const char *method, const char *path,
               const char *body, size_t len, const char *const *headers, struct resp *r);

/* A POST sent on its own thread and released at once with the others (hard_together). */
struct hard_racer {
    const struct server *srv; /* where it goes */
    enum hard_via via;        /* VIA_PROXY (0: as http() sends it) or VIA_DIRECT (hard_send) */
    char path[160];           /* the POST path */
    const char *body;         /* its body, or NULL */
    const char *h[4];         /* its header lines, NULL-terminated */
    struct resp r;            /* its answer (the caller frees it) */
    pthread_barrier_t *go;    /* set by hard_together */
};

/* Sends the `n` POSTs of `a` (at most 64) together, each from a thread of its own released
 * by one barrier; returns once every one is answered. */
void hard_together(struct hard_racer *a, int n);

/*
 * An Idempotency-Key raced: the POST of `body` to `path` as header line `auth` with header
 * line `key`, sent `n` times at once (at most 16), in turn to `a` and to a second server
 * started for it. 1 when every answer is the same 201 (same body); else 0, with the first
 * that differs (or why the race did not run) in why[cap].
 */
int hard_race_key(const struct server *a, const char *path, const char *body, const char *auth,
                  const char *key, int n, char *why, size_t cap);

/* POST `path` (no body) as `auth` with Idempotency-Key `key` twice: 1 when both answers
 * are `status` with the same body (none for 204); else 0 with why[cap]. */
int hard_keyed_twice(const struct server *srv, const char *path, const char *auth, const char *key,
                     long status, char *why, size_t cap);

/* A connection accepted on the listening socket `fd` within `ms`, or -1 (none came). */
int hard_accept(int fd, int ms);

/* A TCP connection straight to the server's port (no proxy): the socket, or -1. */
int hard_connect(const struct server *srv);

/*
 * Starts a server of its own with the settings `env` ("NAME=value" strings, NULL-terminated)
 * added to the environment for it only; with `proxied`, behind a spec proxy of its own
 * (when the run has one). 0 or -1. Stop it with hard_server_stop.
 */
int hard_server_start(struct server *s, const char *const *env, int proxied);

/*
 * In a test: declares `struct server name` and starts it with hard_server_start, the
 * settings being the strings after `proxied` (at least one); the test fails (CHECK) when it
 * does not start, naming the first setting. The preamble of every test on a server of its own
 * (the runner's server `srv` may then go unused).
 */
#define HARD_SERVER(name, proxied, ...)                                                            \
    struct server name;                                                                            \
    (void)srv;                                                                                     \
    do {                                                                                           \
        const char *const env_[] = {__VA_ARGS__, NULL};                                            \
        CHECK(hard_server_start(&name, env_, proxied) == 0,                                        \
              "the server " #name " with %s did not start", env_[0]);                              \
    } while (0)

/* hard_server_start on the database `db` (a DATABASE_URL): at most 14 settings in `env`. */
int hard_server_on_db(struct server *s, const char *db, const char *const *env, int proxied);

/*
 * hard_server_on_db on a fresh database `name` of the test cluster, its DATABASE_URL put
 * into `db` (`cap` bytes; "" when there is none) for the test's own reads and restarts: for
 * a test whose server must not share its work (webhook deliveries, jobs) with the runner's
 * server, or that changes the schema. 0 or -1.
 */
int hard_server_own_db(struct server *s, const char *name, const char *const *env, int proxied,
                       char *db, size_t cap);

/* Stops its proxy (if any) and the server; returns the server's exit status. */
int hard_server_stop(struct server *s);

/* A TCP connection from address `from` (NULL: the kernel's choice) to the server `s` on
 * 127.0.0.1, or -1: how the tests come from other addresses than the bystanders'. */
int hard_dial(const struct server *s, const char *from);

/* Kills the server with SIGKILL (as `kill -9`) and waits for it; its proxy, if any, stays.
 * It can be started again on its port with server_start. */
void hard_server_kill(struct server *s);

/* Sets how long hard_send() waits for an answer (default 30000 ms). Not thread-safe: set it
 * while no other thread sends. */
void hard_set_timeout(long ms);

/* An integer knob from the environment (default `def` when unset or not a number). */
long hard_knob(const char *name, long def);

/* The commands that stop and start the test PostgreSQL (TILEHALL_PG_STOP and
 * TILEHALL_PG_START) into *stop and *start: 0, or -1 when either is not set, after printing
 * that the test `name` is skipped. */
int hard_pg_commands(const char *name, const char **stop, const char **start);

/* Milliseconds on the monotonic clock. */
long long hard_now_ms(void);

/* The server's metric `name` without labels (e.g. "tilehall_jobs_running") from /metrics,
 * or -1 when it is not there. */
long hard_metric(const struct server *srv, const char *name);

/* Sleeps until hard_now_ms() reaches `at_ms` (at once when it has). */
void hard_sleep_until(long long at_ms);

/* A time bound: `sanitized` when the servers run under a sanitizer (TILEHALL_SAN: several
 * times slower), else `plain`. */
long long hard_san_ms(long long plain, long long sanitized);

#endif
