/* t_attack.c: one client cannot take the server away from the others (issue 17, items 1,
 * 4 and 7): connection floods, slow senders, oversized queries, request smuggling and
 * paths that hide their shape. Every attack runs from 127.0.0.1 while "other clients"
 * come from 127.0.0.2 (all of 127.0.0.0/8 is this machine's loopback), and each test
 * checks that /healthz and a game read stay answered within 100 ms meanwhile. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "hard.h"
#include "tests.h"

#define OTHER_CLIENT  "127.0.0.2" /* the address the bystanders come from */
#define SERVED_MS     100         /* what "still served" means for them (the plain build) */
#define SERVED_SAN_MS 500         /* ... for a server under ASan or TSan, several times slower */

/* A TCP connection from `from` (NULL: the kernel's choice) to the server, or -1. */
static int dial(const struct server *s, const char *from)
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

/* Reads from `fd` into buf (cap bytes; more are read and dropped) until the peer closes or
 * `ms` pass; the bytes kept. *closed is 1 when the peer closed (or reset) the connection. */
static size_t read_until_close(int fd, char *buf, size_t cap, long ms, int *closed)
{
    size_t got = 0;
    long long end = hard_now_ms() + ms;
    *closed = 0;
    for (;;) { /* at least one look, for ms = 0 */
        struct pollfd pf = {fd, POLLIN, 0};
        long left = (long)(end - hard_now_ms());
        if (poll(&pf, 1, left > 0 ? (int)left : 0) <= 0) {
            if (hard_now_ms() >= end) break;
            continue;
        }
        /* Bytes past `cap` are read and dropped, so that a close after a long answer is
         * still seen. */
        char rest[512];
        ssize_t k =
            got < cap - 1 ? recv(fd, buf + got, cap - 1 - got, 0) : recv(fd, rest, sizeof rest, 0);
        if (k <= 0) {
            *closed = 1;
            break;
        }
        if (got < cap - 1) got += (size_t)k;
    }
    buf[got] = '\0';
    return got;
}

/* The status of one GET of `path` from `from`, its time in *ms; 0 when no answer came in 2 s. */
static int get_from(const struct server *s, const char *from, const char *path, long long *ms)
{
    long long t0 = hard_now_ms();
    int fd = dial(s, from);
    int status = 0;
    if (fd >= 0) {
        char req[512], buf[8192];
        int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                         path);
        int closed;
        if (send(fd, req, (size_t)n, MSG_NOSIGNAL) == n &&
            read_until_close(fd, buf, sizeof buf, 2000, &closed) > 12)
            status = (int)strtol(buf + 9, NULL, 10);
        close(fd);
    }
    *ms = hard_now_ms() - t0;
    return status;
}

/* Checks that another client gets /healthz and the game `path` answered 200 within
 * SERVED_MS; records a failure naming `during` otherwise. *worst becomes the slower time
 * when that is larger. */
static void check_served(const struct server *s, const char *game_path, const char *during,
                         long long *worst)
{
    long long t1, t2;
    int h = get_from(s, OTHER_CLIENT, "/healthz", &t1);
    int g = get_from(s, OTHER_CLIENT, game_path, &t2);
    if (t1 > *worst) *worst = t1;
    if (t2 > *worst) *worst = t2;
    long long bound = getenv("TILEHALL_SAN") ? SERVED_SAN_MS : SERVED_MS;
    CHECK(h == 200 && t1 <= bound, "%s: /healthz from another address: %d in %lld ms", during, h,
          t1);
    CHECK(g == 200 && t2 <= bound, "%s: a game read from another address: %d in %lld ms", during, g,
          t2);
}

/* Reads /healthz and the game once, unchecked: the first reads of a new server are slower
 * (its database connections prepare their statements), and that is not the attack's doing. */
static void warm_up(const struct server *s, const char *game_path)
{
    long long ms;
    (void)get_from(s, OTHER_CLIENT, "/healthz", &ms);
    (void)get_from(s, OTHER_CLIENT, game_path, &ms);
}

/* Creates a game on `s` and writes its path ("/v1/games/<id>") into `path`. 0 or -1. */
static int game_path(const struct server *s, char *path, size_t cap)
{
    struct game g;
    char why[256];
    if (game_new(s, "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}]}", &g, why, sizeof why))
        return -1;
    snprintf(path, cap, "/v1/games/%s", g.id);
    return 0;
}

/* Starts `z` with the defaults but for REQUEST_TIMEOUT: 2 s instead of 10 keeps the tests
 * short; makes a game on it, its path into `path`. NULL, or what failed. */
static const char *short_timeout_server(struct server *z, char *path, size_t cap)
{
    /* MAX_CONNECTIONS_PER_IP empty: the server's default (the suite's servers have none). */
    const char *env[] = {"REQUEST_TIMEOUT=2", "MAX_CONNECTIONS_PER_IP=", NULL};
    if (hard_server_start(z, env, 0) != 0) return "the server did not start";
    if (game_path(z, path, cap) != 0) return "no game";
    return NULL;
}

/* short_timeout_server() in a test, which fails when it does; `path` is an array. */
#define SHORT_TIMEOUT_SERVER(z, path)                                                              \
    do {                                                                                           \
        const char *why_ = short_timeout_server(z, path, sizeof path);                             \
        CHECK(!why_, "%s", why_);                                                                  \
    } while (0)

enum { FLOOD = 1100 /* the idle connections of the flood */, SLOW = 40 /* the slow senders */ };

/* 1,100 idle connections from one address, against the defaults: the address keeps at
 * most MAX_CONNECTIONS_PER_IP (64) of them, the rest are closed at once, everyone else is
 * served, and those it keeps are answered 408 and closed at REQUEST_TIMEOUT. */
void test_attack_connection_flood(struct server *srv)
{
    (void)srv;
    struct server z;
    char path[128];
    SHORT_TIMEOUT_SERVER(&z, path);
    usleep(200000); /* the start-up's own connections are gone */
    warm_up(&z, path);
    long long worst = 0;
    static int fds[FLOOD];
    int opened = 0;
    for (; opened < FLOOD; opened++)
        if ((fds[opened] = dial(&z, NULL)) < 0) break;
    usleep(300000);
    check_served(&z, path, "1,100 idle connections from one address", &worst);
    /* How many of the flood the server still holds. */
    int kept = 0;
    for (int i = 0; i < opened; i++) {
        char c;
        ssize_t k = recv(fds[i], &c, 1, MSG_DONTWAIT);
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) kept++;
    }
    /* Past REQUEST_TIMEOUT every one it kept has been answered 408 and closed. */
    usleep(2600000);
    int late = 0, answered = 0;
    for (int i = 0; i < opened; i++) {
        char buf[512];
        int closed;
        size_t n = read_until_close(fds[i], buf, sizeof buf, 50, &closed);
        if (!closed) late++;
        if (n > 12 && strncmp(buf, "HTTP/1.1 408", 12) == 0) answered++;
        close(fds[i]);
    }
    printf("  flood: %d connections opened, %d kept by the server (limit 64), %d answered 408 "
           "at REQUEST_TIMEOUT, %d still open; other clients served in %lld ms at worst\n",
           opened, kept, answered, late, worst);
    CHECK(opened == FLOOD, "only %d connections could be opened", opened);
    CHECK(kept <= 64, "the server kept %d connections of one address", kept);
    CHECK(late == 0, "%d connections still open past REQUEST_TIMEOUT", late);
    CHECK(answered == kept, "%d of the %d kept connections were answered 408", answered, kept);
    check_served(&z, path, "after the flood", &worst);
    CHECK(hard_server_stop(&z) == 0, "the server did not exit cleanly");
}

/* Slow senders (slowloris): a request line or header byte every 500 ms. Each is answered
 * 408 at REQUEST_TIMEOUT counted from its connection, not from its last byte. */
void test_attack_slowloris(struct server *srv)
{
    (void)srv;
    struct server z;
    char path[128];
    SHORT_TIMEOUT_SERVER(&z, path);
    warm_up(&z, path);
    long long worst = 0;
    static const char head[] = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ";
    int fds[SLOW];
    long long t0 = hard_now_ms();
    for (int i = 0; i < SLOW; i++) {
        fds[i] = dial(&z, NULL);
        CHECK(fds[i] >= 0, "connection %d failed", i);
        /* Half of them stop inside the request line, half inside the headers. */
        size_t n = i % 2 ? sizeof head - 1 : 6;
        CHECK(send(fds[i], head, n, MSG_NOSIGNAL) == (ssize_t)n, "send failed");
    }
    int open_fds = SLOW, timed_out = 0;
    long long last_close = 0;
    char answered[SLOW] = {0};
    while (open_fds > 0 && hard_now_ms() - t0 < 6000) {
        for (int i = 0; i < SLOW; i++) {
            if (answered[i]) continue;
            (void)!send(fds[i], "a", 1, MSG_NOSIGNAL);
            char buf[512];
            int closed;
            size_t n = read_until_close(fds[i], buf, sizeof buf, 0, &closed);
            if (n > 12 && strncmp(buf, "HTTP/1.1 408", 12) == 0) timed_out++;
            if (closed || n > 0) {
                answered[i] = 1;
                open_fds--;
                last_close = hard_now_ms() - t0;
            }
        }
        check_served(&z, path, "40 slow senders", &worst);
        usleep(500000);
    }
    for (int i = 0; i < SLOW; i++) close(fds[i]);
    printf("  slowloris: %d slow senders, %d answered 408, the last closed %lld ms after they "
           "began (REQUEST_TIMEOUT=2 s); other clients served in %lld ms at worst\n",
           SLOW, timed_out, last_close, worst);
    CHECK(open_fds == 0, "%d slow senders still connected after 6 s", open_fds);
    CHECK(timed_out == SLOW, "%d of %d answered 408", timed_out, SLOW);
    CHECK(last_close <= 3000, "the last slow sender was closed after %lld ms", last_close);
    CHECK(hard_server_stop(&z) == 0, "the server did not exit cleanly");
}

/* Writes `req` raw, reads until the server closes (at most 2 s); the status, and whether it
 * closed, into *status and *closed; the body into body (cap bytes). */
static void raw_exchange(const struct server *s, const char *req, int *status, int *closed,
                         char *body, size_t cap)
{
    *status = 0;
    *closed = 0;
    body[0] = '\0';
    int fd = dial(s, NULL);
    if (fd < 0) return;
    size_t len = strlen(req);
    static char buf[65536];
    if (send(fd, req, len, MSG_NOSIGNAL) == (ssize_t)len) {
        size_t n = read_until_close(fd, buf, sizeof buf, 2000, closed);
        if (n > 12) *status = (int)strtol(buf + 9, NULL, 10);
        const char *b = strstr(buf, "\r\n\r\n");
        snprintf(body, cap, "%s", b ? b + 4 : "");
    }
    close(fd);
}

/* A query of 1,000 parameters (7 KiB) and a target over 8 KiB: answered 414 and closed at
 * once (libmicrohttpd's pool used to overflow: no answer, the socket held 90 s, the
 * request's state leaked); request smuggling and hidden paths: 400 and closed. */
void test_attack_framing(struct server *srv)
{
    (void)srv;
    struct server z;
    const char *env[] = {"MAX_CONNECTIONS_PER_IP=", NULL}; /* the default */
    CHECK(hard_server_start(&z, env, 0) == 0, "the server did not start");
    char path[128];
    CHECK(game_path(&z, path, sizeof path) == 0, "no game");
    warm_up(&z, path);
    static char many[16384], longt[12000];
    int o = snprintf(many, sizeof many, "GET /healthz?");
    for (int i = 0; i < 1000; i++)
        o += snprintf(many + o, sizeof many - (size_t)o, "%sa%d=1", i ? "&" : "", i);
    snprintf(many + o, sizeof many - (size_t)o, " HTTP/1.1\r\nHost: x\r\n\r\n");
    o = snprintf(longt, sizeof longt, "GET /v1/games/");
    memset(longt + o, 'f', 9000);
    snprintf(longt + o + 9000, sizeof longt - (size_t)o - 9000, " HTTP/1.1\r\nHost: x\r\n\r\n");
    char id_path[256], hidden[300];
    snprintf(id_path, sizeof id_path, "%s", path + strlen("/v1/games/"));
    snprintf(hidden, sizeof hidden, "GET /v1%%2fgames%%2f%.64s%%2fturn HTTP/1.1\r\nHost: x\r\n\r\n",
             id_path);
    struct {
        const char *kind;
        const char *req;
        int status;
        const char *code;
        int must_close;
    } cases[] = {
        {"a query of 1,000 parameters", many, 414, "uri_too_long", 1},
        {"a request target over 8 KiB", longt, 414, "uri_too_long", 1},
        {"%00 in the path", "GET /healthz%00junk HTTP/1.1\r\nHost: x\r\n\r\n", 400, "invalid_path",
         0},
        {"encoded slashes in the path", hidden, 400, "invalid_path", 0},
        {"%00 in a query value", "GET /healthz?a=%00 HTTP/1.1\r\nHost: x\r\n\r\n", 400,
         "invalid_parameter", 0},
        {"Content-Length with Transfer-Encoding: chunked",
         "POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
         "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
         400, "invalid_framing", 1},
        {"two different Content-Length fields",
         "POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
         "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}x",
         400, "invalid_framing", 1},
        {"a Transfer-Encoding other than chunked",
         "POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
         "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
         400, "invalid_framing", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int status, closed;
        char body[1024];
        long long t0 = hard_now_ms();
        raw_exchange(&z, cases[i].req, &status, &closed, body, sizeof body);
        long long took = hard_now_ms() - t0;
        char want[80];
        snprintf(want, sizeof want, "\"code\":\"%s\"", cases[i].code);
        CHECK(status == cases[i].status && strstr(body, want),
              "%s: answered %d %.200s (want %d %s)", cases[i].kind, status, body, cases[i].status,
              cases[i].code);
        CHECK(!cases[i].must_close || (closed && took < 1000),
              "%s: the connection was %s after %lld ms", cases[i].kind,
              closed ? "closed" : "still open", took);
        long long worst = 0;
        check_served(&z, path, cases[i].kind, &worst);
    }
    /* The same targets, sent sanely, still work: escapes that are not slashes are decoded. */
    long long ms;
    CHECK(get_from(&z, OTHER_CLIENT, "/v1/g%61mes/nothing", &ms) == 404, "an escaped letter");
    CHECK(get_from(&z, OTHER_CLIENT, "/healthz?a=1&b=%20", &ms) == 200, "a sane query");
    /* The server, under ASan, exits clean: the request state of each is freed. */
    CHECK(hard_server_stop(&z) == 0, "the server did not exit cleanly (a leak report?)");
}

/* Sends `parts` (NULL-terminated) on one new connection, `gap_ms` apart, and reads until the
 * server closes (at most 2 s) into buf (cap bytes): the bytes read; *closed as in
 * read_until_close(). */
static size_t raw_parts(const struct server *s, const char *const *parts, int gap_ms, char *buf,
                        size_t cap, int *closed)
{
    *closed = 0;
    buf[0] = '\0';
    int fd = dial(s, NULL);
    if (fd < 0) return 0;
    for (size_t i = 0; parts[i]; i++) {
        if (i && gap_ms) usleep((useconds_t)gap_ms * 1000);
        size_t len = strlen(parts[i]);
        if (send(fd, parts[i], len, MSG_NOSIGNAL) != (ssize_t)len) break;
    }
    size_t n = read_until_close(fd, buf, cap, 2000, closed);
    close(fd);
    return n;
}

/* Occurrences of `needle` in `hay`. */
static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle)) n++;
    return n;
}

/* Issue 29, item 12: a malformed Content-Length (a sign, a list, spaces, a value above
 * 2^64-1, none) is answered with one `400 invalid_framing` problem and the connection
 * closed, where libmicrohttpd answered two 400 header blocks and an HTML body of its own:
 * on a new connection, after a first request on a kept one, and with the headers sent in
 * two parts; a sane Content-Length still creates a game. */
void test_attack_content_length(struct server *srv)
{
    static const char *const values[] = {
        "+39",
        "39,39",
        "3 9",
        "39 ",
        " 39x",
        "-1",
        "0x27",
        "99999999999999999999999",
        "18446744073709551616",
        "",
    };
    static const char body[] = "{\"players\":[{\"name\":\"a\"},{\"name\":\"b\"}]}";
    static char out[16384];
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        char head[512], first[256];
        snprintf(head, sizeof head,
                 "POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 "Content-Length: %s\r\n\r\n%s",
                 values[i], body);
        snprintf(first, sizeof first, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
        const char *alone[] = {head, NULL};
        const char *kept[] = {first, head, NULL};
        char line[64];
        snprintf(line, sizeof line, "POST /v1/games HTTP/1.1\r\n");
        const char *split[] = {line, head + strlen(line), NULL};
        const char *const *ways[] = {alone, kept, split};
        static const char *const way_names[] = {"alone", "after a first request", "in two parts"};
        for (int w = 0; w < 3; w++) {
            int closed;
            long long t0 = hard_now_ms();
            raw_parts(srv, ways[w], w ? 100 : 0, out, sizeof out, &closed);
            long long took = hard_now_ms() - t0;
            const char *answer = out;
            if (w == 1) { /* the first request's own answer comes first */
                const char *second = strstr(out + 1, "HTTP/1.1 ");
                CHECK(strncmp(out, "HTTP/1.1 200", 12) == 0 && second,
                      "Content-Length \"%s\" %s: %.300s", values[i], way_names[w], out);
                answer = second;
            }
            CHECK(strncmp(answer, "HTTP/1.1 400 ", 13) == 0 && count_of(answer, "HTTP/1.1 ") == 1 &&
                      strstr(answer, "Content-Type: application/problem+json\r\n") &&
                      strstr(answer, "\"code\":\"invalid_framing\"") && !strstr(answer, "<html"),
                  "Content-Length \"%s\" %s: not one 400 invalid_framing problem: %.400s",
                  values[i], way_names[w], answer);
            CHECK(closed && took < 1500,
                  "Content-Length \"%s\" %s: the connection %s after %lld ms", values[i],
                  way_names[w], closed ? "closed" : "stayed open", took);
        }
    }
    /* The same request with a sane Content-Length creates its game. */
    char sane[512];
    snprintf(sane, sizeof sane,
             "POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
             "Content-Length: 0%zu\r\nConnection: close\r\n\r\n%s",
             strlen(body), body);
    const char *one[] = {sane, NULL};
    int closed;
    raw_parts(srv, one, 0, out, sizeof out, &closed);
    CHECK(strncmp(out, "HTTP/1.1 201", 12) == 0, "a sane Content-Length: %.300s", out);
}
