/* hard.c: requests byte for byte, servers with extra settings, knobs. */
#include "hard.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

static long timeout_ms = 30000; /* hard_set_timeout() */

void hard_set_timeout(long ms)
{
    timeout_ms = ms;
}

long long hard_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void hard_sleep_until(long long at_ms)
{
    long long left = at_ms - hard_now_ms();
    if (left > 0) usleep((useconds_t)left * 1000);
}

long long hard_san_ms(long long plain, long long sanitized)
{
    return getenv("TILEHALL_SAN") ? sanitized : plain;
}

long hard_knob(const char *name, long def)
{
    const char *v = getenv(name);
    if (!v || !*v) return def;
    char *end;
    long x = strtol(v, &end, 10);
    return *end ? def : x;
}

int hard_pg_commands(const char *name, const char **stop, const char **start)
{
    *stop = getenv("TILEHALL_PG_STOP");
    *start = getenv("TILEHALL_PG_START");
    if (*stop && *start) return 0;
    printf("  %s: skipped (TILEHALL_PG_STOP/START not set)\n", name);
    return -1;
}

/* The body being uploaded chunked. */
struct upload {
    const char *data; /* what is left */
    size_t left;      /* bytes left */
};

static size_t on_read(char *buf, size_t size, size_t n, void *ud)
{
    struct upload *u = ud;
    size_t k = size * n;
    if (k > u->left) k = u->left;
    if (k > 4096) k = 4096; /* several chunks */
    memcpy(buf, u->data, k);
    u->data += k;
    u->left -= k;
    return k;
}

/* Sends with curl. */
static void send_curl(const struct server *srv, enum hard_via via, const char *method,
                      const char *path, const char *body, size_t len, const char *const *headers,
                      struct resp *r)
{
    CURL *c = curl_easy_init();
    if (!c) return;
    char url[1024];
    snprintf(url, sizeof url, "%s%s", via == VIA_PROXY ? srv->base : srv->direct, path);
    struct curl_slist *hl = resp_headers(headers, 0);
    struct upload up = {body, len};
    curl_easy_setopt(c, CURLOPT_URL, url);
    if (via == VIA_CHUNKED) {
        hl = curl_slist_append(hl, "Transfer-Encoding: chunked");
        curl_easy_setopt(c, CURLOPT_POST, 1L);
        curl_easy_setopt(c, CURLOPT_READFUNCTION, on_read);
        curl_easy_setopt(c, CURLOPT_READDATA, &up);
    } else if (body) {
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)len);
    }
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, hl);
    resp_capture(c, resp_on_body, resp_on_header, r, timeout_ms);
    resp_perform(c, r);
    curl_slist_free_all(hl);
    curl_easy_cleanup(c);
}

int hard_connect(const struct server *srv)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)srv->port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        if (fd >= 0) close(fd);
        return -1;
    }
    return fd;
}

/* Parses a raw HTTP answer (`n` bytes at `buf`) into `r`. */
static void parse_raw(const char *buf, size_t n, struct resp *r)
{
    if (n < 12 || strncmp(buf, "HTTP/1.", 7) != 0) return;
    r->status = strtol(buf + 9, NULL, 10);
    const char *p = buf, *end = buf + n;
    for (;;) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol) return;
        size_t ll = (size_t)(eol - p);
        if (ll <= 1) {
            p = eol + 1;
            break;
        }
        resp_take_header(p, ll, r);
        p = eol + 1;
    }
    r->len = (size_t)(end - p);
    r->body = malloc(r->len + 1);
    if (r->body) {
        memcpy(r->body, p, r->len);
        r->body[r->len] = '\0';
    }
}

/* Writes `req` to the server's port (with `slow`, the part after its first NUL a byte
 * every 100 ms) and reads the answer until the server closes (at most 30 s). */
static void send_raw(const struct server *srv, const char *req, size_t len, int slow,
                     struct resp *r)
{
    size_t fast = len;
    if (slow) {
        const char *nul = memchr(req, '\0', len);
        fast = nul ? (size_t)(nul - req) : 0;
    }
    int fd = hard_connect(srv);
    if (fd < 0) return;
    size_t cap = 1 << 16, got = 0;
    char *buf = malloc(cap + 1);
    long long deadline = hard_now_ms() + 30000;
    size_t sent = 0;
    while (buf && hard_now_ms() < deadline) {
        if (sent == fast && fast < len) sent++; /* the NUL that marks the slow part */
        if (sent < len) {
            size_t k = sent < fast ? fast - sent : slow ? 1 : len - sent;
            ssize_t w = send(fd, req + sent, k, MSG_NOSIGNAL);
            if (w <= 0) {
                sent = len; /* the server closed: read what it said */
            } else {
                sent += (size_t)w;
            }
        }
        struct pollfd pf = {fd, POLLIN, 0};
        int timeout = sent < len ? (slow ? 100 : 0) : 1000;
        if (poll(&pf, 1, timeout) > 0) {
            if (got == cap) break;
            ssize_t k = recv(fd, buf + got, cap - got, 0);
            if (k <= 0) break;
            got += (size_t)k;
        }
    }
    close(fd);
    if (buf) parse_raw(buf, got, r);
    free(buf);
}

void hard_send(const struct server *srv, enum hard_via via, const char *method, const char *path,
               const char *body, size_t len, const char *const *headers, struct resp *r)
{
    memset(r, 0, sizeof *r);
    if (via == VIA_RAW || via == VIA_SLOW)
        send_raw(srv, body, len, via == VIA_SLOW, r);
    else
        send_curl(srv, via, method, path, body, len, headers, r);
    resp_parse(r);
}

int hard_server_start(struct server *s, const char *const *env, int proxied)
{
    char saved[16][256];
    int had[16] = {0};
    size_t n = 0;
    for (; env && env[n] && n < 16; n++) {
        const char *eq = strchr(env[n], '=');
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(eq - env[n]), env[n]);
        const char *old = getenv(name);
        had[n] = old != NULL;
        if (old) snprintf(saved[n], sizeof saved[n], "%s", old);
        setenv(name, eq + 1, 1);
    }
    memset(s, 0, sizeof *s);
    int rc = server_start_proxied(s, proxied);
    for (size_t i = 0; i < n; i++) {
        const char *eq = strchr(env[i], '=');
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(eq - env[i]), env[i]);
        if (had[i])
            setenv(name, saved[i], 1);
        else
            unsetenv(name);
    }
    return rc;
}

/* The DATABASE_URL of a fresh database `name` of the test cluster, or "" (scripts/pg-start.sh). */
static void fresh_database(const char *name, char *url, size_t cap)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "scripts/pg-start.sh --fast --fresh %s 2>/dev/null", name);
    url[0] = '\0';
    FILE *p = popen(cmd, "r");
    if (!p) return;
    if (!fgets(url, (int)cap, p)) url[0] = '\0';
    if (pclose(p) != 0) url[0] = '\0';
    url[strcspn(url, "\n")] = '\0';
}

int hard_server_on_db(struct server *s, const char *db, const char *const *env, int proxied)
{
    char dbenv[600];
    snprintf(dbenv, sizeof dbenv, "DATABASE_URL=%s", db);
    const char *all[16];
    size_t n = 0;
    for (; env && env[n] && n < 14; n++) all[n] = env[n];
    all[n++] = dbenv;
    all[n] = NULL;
    return hard_server_start(s, all, proxied);
}

int hard_server_own_db(struct server *s, const char *name, const char *const *env, int proxied,
                       char *db, size_t cap)
{
    memset(s, 0, sizeof *s);
    fresh_database(name, db, cap);
    return db[0] ? hard_server_on_db(s, db, env, proxied) : -1;
}

int hard_server_stop(struct server *s)
{
    proxy_stop(s);
    return server_stop(s);
}

void hard_server_kill(struct server *s)
{
    if (s->pid <= 0) return;
    kill(s->pid, SIGKILL);
    int status;
    waitpid(s->pid, &status, 0);
    s->pid = 0;
}

static void *racer_main(void *p)
{
    struct hard_racer *a = p;
    pthread_barrier_wait(a->go);
    if (a->via == VIA_PROXY)
        http(a->srv, "POST", a->path, a->body, a->h, &a->r);
    else
        hard_send(a->srv, a->via, "POST", a->path, a->body, a->body ? strlen(a->body) : 0, a->h,
                  &a->r);
    return NULL;
}

void hard_together(struct hard_racer *a, int n)
{
    pthread_t t[64];
    pthread_barrier_t go;
    if (n > 64) n = 64;
    pthread_barrier_init(&go, NULL, (unsigned)n);
    for (int i = 0; i < n; i++) {
        a[i].go = &go;
        pthread_create(&t[i], NULL, racer_main, &a[i]);
    }
    for (int i = 0; i < n; i++) pthread_join(t[i], NULL);
    pthread_barrier_destroy(&go);
}

int hard_race_key(const struct server *a, const char *path, const char *body, const char *auth,
                  const char *key, int n, char *why, size_t cap)
{
    static struct hard_racer racers[16];
    struct server y = {0};
    if (n > 16) n = 16;
    why[0] = '\0';
    if (hard_server_start(&y, NULL, 0)) {
        snprintf(why, cap, "the second server did not start");
        return 0;
    }
    for (int i = 0; i < n; i++) {
        memset(&racers[i], 0, sizeof racers[i]);
        racers[i].srv = i % 2 ? &y : a;
        snprintf(racers[i].path, sizeof racers[i].path, "%s", path);
        racers[i].body = body;
        racers[i].h[0] = auth;
        racers[i].h[1] = key;
    }
    hard_together(racers, n);
    (void)hard_server_stop(&y);
    int agree = 1;
    for (int i = 0; i < n; i++) {
        const struct resp *r = &racers[i].r, *r0 = &racers[0].r;
        int same = r->status == 201 && r->body && r0->body && strcmp(r->body, r0->body) == 0;
        if (!same && agree)
            snprintf(why, cap, "%d: %ld %.150s", i, r->status, r->body ? r->body : "");
        agree &= same;
    }
    for (int i = 0; i < n; i++) resp_free(&racers[i].r);
    return agree;
}

int hard_accept(int fd, int ms)
{
    struct pollfd pf = {fd, POLLIN, 0};
    return poll(&pf, 1, ms) > 0 ? accept(fd, NULL, NULL) : -1;
}

int hard_dial(const struct server *s, const char *from)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    if (from) {
        inet_pton(AF_INET, from, &a.sin_addr);
        if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0) {
            close(fd);
            return -1;
        }
    }
    a.sin_port = htons((uint16_t)s->port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

int hard_keyed_twice(const struct server *srv, const char *path, const char *auth, const char *key,
                     long status, char *why, size_t cap)
{
    char kh[96];
    snprintf(kh, sizeof kh, "Idempotency-Key: %s", key);
    const char *h[3] = {auth, kh, NULL};
    struct resp r1, r2;
    http(srv, "POST", path, NULL, h, &r1);
    http(srv, "POST", path, NULL, h, &r2);
    int ok = r1.status == status && r2.status == status &&
             (status == 204 || (r1.body && r2.body && strcmp(r1.body, r2.body) == 0));
    if (!ok)
        snprintf(why, cap, "%s: %ld then %ld %.120s", path, r1.status, r2.status,
                 r2.body ? r2.body : "");
    resp_free(&r1);
    resp_free(&r2);
    return ok;
}

long hard_metric(const struct server *srv, const char *name)
{
    struct resp r;
    http(srv, "GET", "/metrics", NULL, NULL, &r);
    char want[80];
    snprintf(want, sizeof want, "\n%s ", name);
    const char *p = r.status == 200 && r.body ? strstr(r.body, want) : NULL;
    long v = p ? strtol(p + strlen(want), NULL, 10) : -1;
    resp_free(&r);
    return v;
}
