/* json_bench.c: what the body decoder (api/json/json_in.c) costs on the worst bodies a client
 * may send before it is authenticated: 64 KiB objects of as many keys as fit (unique, or
 * with a duplicate at the end), objects and arrays nested as deep as cJSON allows, long
 * strings of multi-byte characters, long arrays. Prints, per body, its size, the code it
 * is answered with and the CPU time of one decode (median and max of the runs), and whether the
 * worst is under the goal of 2 ms.
 * Usage: bench-json [runs per body, default 200] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "json_in.h"

#define BODY_MAX (64 * 1024) /* API_MAX_BODY: larger bodies are refused with 413 unread */
#define GOAL_MS  2.0

/* A body under test. */
struct body {
    const char *name; /* what it is */
    char *text;       /* NUL-terminated, malloc'd */
    size_t len;       /* bytes (without the NUL) */
    int decoder;      /* 0: POST /v1/games, 1: a placement */
};

/* CPU time of this thread: what a decode costs the server, whatever else the machine runs. */
static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Writes the `i`-th shortest key (base 62: "0".."z", then "00" ...) into `out`. */
static size_t key_name(size_t i, char *out)
{
    static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    size_t width = 1, span = 62;
    while (i >= span) {
        i -= span;
        width++;
        span *= 62;
    }
    for (size_t k = width; k-- > 0;) {
        out[k] = digits[i % 62];
        i /= 62;
    }
    return width;
}

/* A 64 KiB object of as many keys "k":0 as fit (at most `max`), `prefix` first (it opens
 * an object of its own when not ""), then with `dup` the last key once more. Keys of
 * `pad` bytes or more begin with 'k's (long common beginnings: slow to compare). Sets
 * *nkeys. */
static char *many_keys(const char *prefix, int dup, size_t pad, size_t max, size_t *len,
                       size_t *nkeys)
{
    char *b = malloc(BODY_MAX + 1);
    if (!b) return NULL;
    size_t o = (size_t)snprintf(b, BODY_MAX, "{%s", prefix);
    size_t closing = prefix[0] ? 2 : 1, n = 0, k = 0;
    char key[80];
    for (; n < max; n++) {
        char tail[16];
        size_t t = key_name(n, tail);
        size_t fill = pad > t ? pad - t : 0;
        memset(key, 'k', fill);
        memcpy(key + fill, tail, t);
        k = fill + t;
        size_t need = (n ? 1 : 0) + k + 4 + closing + (dup ? k + 5 : 0);
        if (o + need > BODY_MAX) break;
        if (n) b[o++] = ',';
        b[o++] = '"';
        memcpy(b + o, key, k);
        o += k;
        memcpy(b + o, "\":0", 3);
        o += 3;
    }
    if (dup) { /* the last key again: a check of every pair compares all the others first */
        char tail[16];
        size_t t = key_name(n - 1, tail);
        size_t fill = pad > t ? pad - t : 0;
        o += (size_t)snprintf(b + o, BODY_MAX + 1 - o, ",\"%.*s%.*s\":0", (int)fill,
                              "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk",
                              (int)t, tail);
    }
    if (prefix[0]) b[o++] = '}';
    b[o++] = '}';
    b[o] = '\0';
    *len = o;
    *nkeys = n + (dup ? 1 : 0);
    return b;
}

/* {"0":0,"1":0, ... } of hexadecimal keys filling 64 KiB (7,767 of them: the body of the
 * report, 0.2 s of CPU with a check of every pair). Sets *nkeys. */
static char *hex_keys(size_t *len, size_t *nkeys)
{
    char *b = malloc(BODY_MAX + 1);
    if (!b) return NULL;
    size_t o = 0, i = 0;
    b[o++] = '{';
    for (;; i++) {
        char key[32];
        int k = snprintf(key, sizeof key, "%s\"%zx\":0", i ? "," : "", i);
        if (o + (size_t)k + 1 > BODY_MAX) break;
        memcpy(b + o, key, (size_t)k);
        o += (size_t)k;
    }
    b[o++] = '}';
    b[o] = '\0';
    *len = o;
    *nkeys = i;
    return b;
}

/* {"x": [[[ ... ]]]} (or {"a":{"a":{ ... }}} with `objects`) nested `depth` deep. */
static char *nested(int depth, int objects, size_t *len)
{
    char *b = malloc(BODY_MAX + 1);
    if (!b) return NULL;
    size_t o = (size_t)snprintf(b, BODY_MAX, "{\"x\":");
    const char *open = objects ? "{\"a\":" : "[";
    size_t k = strlen(open);
    for (int i = 0; i < depth; i++) {
        memcpy(b + o, open, k);
        o += k;
    }
    if (objects) b[o++] = '0';
    for (int i = 0; i < depth; i++) b[o++] = objects ? '}' : ']';
    b[o++] = '}';
    b[o] = '\0';
    *len = o;
    return b;
}

/* A body of two players and a "ruleset" string filling 64 KiB with `unit` repeated. */
static char *long_string(const char *unit, size_t *len)
{
    char *b = malloc(BODY_MAX + 1);
    if (!b) return NULL;
    size_t o = (size_t)snprintf(b, BODY_MAX,
                                "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"ruleset\":\"");
    size_t u = strlen(unit);
    while (o + u + 2 <= BODY_MAX) {
        memcpy(b + o, unit, u);
        o += u;
    }
    memcpy(b + o, "\"}", 3);
    *len = o + 2;
    return b;
}

/* {"players":[...],"deck":[e,e, ... ]}: an array of as many elements `e` as fit, at most
 * `max`. */
static char *long_array(const char *e, size_t max, size_t *len)
{
    char *b = malloc(BODY_MAX + 1);
    if (!b) return NULL;
    size_t o = (size_t)snprintf(b, BODY_MAX,
                                "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],"
                                "\"deck\":[");
    size_t el = strlen(e);
    for (size_t n = 0; n < max && o + el + 3 <= BODY_MAX; n++) {
        if (n) b[o++] = ',';
        memcpy(b + o, e, el);
        o += el;
    }
    memcpy(b + o, "]}", 3);
    *len = o + 2;
    return b;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int runs = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 200;
    if (runs < 1) runs = 1;
    size_t nkeys = 0, n_all = 0, n_long = 0;
    struct body bodies[20];
    size_t nb = 0;
    char pad[64];
    memset(pad, 'x', 60);
    pad[60] = '\0';
    char long_el[80];
    snprintf(long_el, sizeof long_el, "\"%s\"", pad);
#define ADD(label, dec, expr)                                                                      \
    do {                                                                                           \
        bodies[nb] = (struct body){label, NULL, 0, dec};                                           \
        bodies[nb].text = expr;                                                                    \
        nb++;                                                                                      \
    } while (0)
    /* Past the limit of values: refused before cJSON reads them. */
    ADD("64 KiB object, 7,767 hex keys (issue 17)", 0, hex_keys(&bodies[nb].len, &nkeys));
    ADD("64 KiB object, all the keys that fit", 0,
        many_keys("", 0, 0, SIZE_MAX, &bodies[nb].len, &n_all));
    ADD("64 KiB object, ... and a key twice", 0,
        many_keys("", 1, 0, SIZE_MAX, &bodies[nb].len, &nkeys));
    ADD("64 KiB placement, all the keys", 1,
        many_keys("", 0, 0, SIZE_MAX, &bodies[nb].len, &nkeys));
    ADD("64 KiB array of numbers", 0, long_array("0", SIZE_MAX, &bodies[nb].len));
    /* The most a body may hold. */
    ADD("999 keys of 60 bytes, unique", 0, many_keys("", 0, 60, 999, &bodies[nb].len, &n_long));
    ADD("998 keys of 60 bytes and one twice", 0,
        many_keys("", 1, 60, 998, &bodies[nb].len, &nkeys));
    ADD("998 keys of 60 bytes in options", 0,
        many_keys("\"options\":{", 0, 60, 998, &bodies[nb].len, &nkeys));
    ADD("998 keys of 60 bytes, placement", 1, many_keys("", 0, 60, 998, &bodies[nb].len, &nkeys));
    ADD("arrays nested 997 deep", 0, nested(997, 0, &bodies[nb].len));
    ADD("objects nested 997 deep", 0, nested(997, 1, &bodies[nb].len));
    ADD("deck of 990 strings of 60 bytes", 0, long_array(long_el, 990, &bodies[nb].len));
    ADD("deck of 990 numbers", 0, long_array("1e308", 990, &bodies[nb].len));
    ADD("64 KiB string of ASCII", 0, long_string("a", &bodies[nb].len));
    ADD("64 KiB string of 4-byte UTF-8", 0, long_string("\xF0\x9F\x98\x80", &bodies[nb].len));
    ADD("64 KiB string of \\u escapes", 0, long_string("\\ud83d\\ude00", &bodies[nb].len));
#undef ADD
    double *t = malloc(sizeof *t * (size_t)runs);
    if (!t) return 1;
    printf("json_in decode, CPU time of one, %d runs per body (a 64 KiB object holds %zu keys; "
           "%zu of 60 bytes)\n",
           runs, n_all, n_long);
    printf("%-40s %7s %-16s %10s %10s\n", "body", "bytes", "answer", "median ms", "max ms");
    double worst = 0;
    for (size_t i = 0; i < nb; i++) {
        struct body *b = &bodies[i];
        if (!b->text) return 1;
        struct json_err err;
        const char *code = "accepted";
        for (int r = 0; r < runs; r++) {
            static struct json_new_game ng;
            struct cc_action a;
            memset(&err, 0, sizeof err);
            double t0 = now_ms();
            int rc = b->decoder == 0
                         ? json_in_new_game(b->text, b->len, &ng, &err)
                         : json_in_placement(b->text, b->len, CC_RULESET_CLASSIC, &a, &err);
            t[r] = now_ms() - t0;
            code = rc ? err.code : "accepted";
        }
        qsort(t, (size_t)runs, sizeof *t, cmp_double);
        double med = t[runs / 2], max = t[runs - 1];
        if (med > worst) worst = med;
        printf("%-40s %7zu %-16s %10.3f %10.3f\n", b->name, b->len, code, med, max);
    }
    printf("worst median %.3f ms: %s the goal of %.0f ms\n", worst,
           worst < GOAL_MS ? "under" : "OVER", GOAL_MS);
    for (size_t i = 0; i < nb; i++) free(bodies[i].text);
    free(t);
    return 0;
}
