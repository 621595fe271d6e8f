/* fuzz_params.c: libFuzzer harness for query strings and request headers: the query
 * parameters `after` and `wait` (found with api_query_get() in a query string split as the
 * HTTP layer does), If-Match, Idempotency-Key and the bearer token of Authorization. The
 * input is five fields separated by newlines: query string, If-Match, Idempotency-Key,
 * Authorization, and a spare one tried as every kind. Nothing may crash, and every value
 * accepted must be in range and mean what its text says. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "params.h"
#include "req.h"

/* Checks params_uint() on `v` against its own reading of the text. */
static void check_uint(const char *v, long max)
{
    long x = -1;
    int rc = params_uint(v, max, &x);
    if (!v) {
        if (rc != 0 || x != 0) abort();
        return;
    }
    size_t n = strlen(v);
    int digits = n >= 1 && n <= 18 && strspn(v, "0123456789") == n;
    long want = digits ? strtol(v, NULL, 10) : -1;
    int ok = digits && want <= max;
    if (ok ? (rc != 0 || x != want) : (rc != -1 || x != 0)) abort();
}

static void check_if_match(const char *h)
{
    long v = -1;
    enum params_match m = params_if_match(h, &v);
    if (m == PARAMS_MATCH_VERSION && (v < 0 || v > INT_MAX)) abort();
    if (m == PARAMS_MATCH_VERSION) {
        /* The quoted form of the version reads back as the same version. */
        char etag[24];
        long again = -1;
        snprintf(etag, sizeof etag, "\"%ld\"", v);
        if (params_if_match(etag, &again) != PARAMS_MATCH_VERSION || again != v) abort();
        if (!strpbrk(h, "0123456789")) abort();
    }
    if (!h && m != PARAMS_MATCH_NONE) abort();
    if (h && m == PARAMS_MATCH_NONE) abort();
}

static void check_key(const char *k)
{
    int ok = params_idem_key_ok(k);
    size_t n = strlen(k);
    if (ok && (n < 1 || n > PARAMS_IDEM_KEY_MAX)) abort();
    for (size_t i = 0; ok && i < n; i++)
        if ((unsigned char)k[i] < 0x20 || (unsigned char)k[i] > 0x7E) abort();
}

static void check_bearer(const char *h)
{
    const char *t = auth_bearer(h);
    if (!t) return;
    size_t n = strlen(h);
    if (t < h + 7 || t >= h + n || *t == '\0' || *t == ' ') abort();
}

/* Splits `qs` (modified) at '&' and '=' into req's query as the HTTP layer would. */
static void split_query(char *qs, struct api_request *req)
{
    req->nquery = 0;
    for (char *p = qs; p && *p;) {
        char *amp = strchr(p, '&');
        if (amp) *amp = '\0';
        char *eq = strchr(p, '=');
        if (eq) *eq = '\0';
        if (req->nquery == API_MAX_QUERY) {
            req->query_overflow = 1;
            break;
        }
        req->query[req->nquery].name = p;
        req->query[req->nquery].value = eq ? eq + 1 : "";
        req->nquery++;
        p = amp ? amp + 1 : NULL;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1);
    if (!buf) return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    char *field[5] = {NULL};
    char *p = buf;
    for (int i = 0; i < 5; i++) {
        field[i] = p;
        char *nl = p ? strchr(p, '\n') : NULL;
        if (nl) *nl = '\0';
        p = nl ? nl + 1 : NULL;
    }
    static struct api_request req;
    memset(&req, 0, sizeof req);
    if (field[0]) {
        split_query(field[0], &req);
        check_uint(api_query_get(&req, "after"), INT_MAX);
        check_uint(api_query_get(&req, "wait"), 60);
    }
    check_if_match(field[1]);
    if (field[2]) check_key(field[2]);
    check_bearer(field[3]);
    if (field[4]) {
        check_uint(field[4], INT_MAX);
        check_uint(field[4], 60);
        check_if_match(field[4]);
        check_key(field[4]);
        check_bearer(field[4]);
    }
    free(buf);
    return 0;
}
