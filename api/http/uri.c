/* uri.c: request targets (see uri.h). */
#include "uri.h"

#include <string.h>

/* The value of hex digit `c`, or -1. */
static int hex(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/*
 * Decodes `len` bytes of `in` into `out` (room for len + 1), NUL-terminated: '+' as a
 * space when `plus`. Returns the decoded length, or -1 for an escaped NUL or, with
 * `no_slash`, an escaped '/'.
 */
static long decode(const char *in, size_t len, char *out, int plus, int no_slash)
{
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        char c = in[i];
        if (c == '+' && plus) {
            c = ' ';
        } else if (c == '%' && i + 2 < len && hex(in[i + 1]) >= 0 && hex(in[i + 2]) >= 0) {
            c = (char)(hex(in[i + 1]) * 16 + hex(in[i + 2]));
            if (c == '\0' || (no_slash && c == '/')) return -1;
            i += 2;
        }
        out[o++] = c;
    }
    out[o] = '\0';
    return (long)o;
}

enum uri_status uri_path_decode(const char *raw, size_t len, char *out, size_t cap)
{
    if (cap < len + 1) return URI_BAD;
    return decode(raw, len, out, 0, 1) < 0 ? URI_BAD : URI_OK;
}

enum uri_status uri_query_split(char *q, struct api_query *out, size_t max, size_t *n, int *more)
{
    *n = 0;
    *more = 0;
    size_t seen = 0;
    char *p = q;
    while (*p) {
        char *end = strchr(p, '&');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > 0) {
            if (++seen > URI_MAX_PARAMS) return URI_TOO_MANY;
            char *eq = memchr(p, '=', len);
            size_t nlen = eq ? (size_t)(eq - p) : len;
            /* Decoding only shrinks: each part is decoded where it stands. */
            char *name = p, *value = eq ? eq + 1 : p + len;
            size_t vlen = eq ? len - nlen - 1 : 0;
            int last = end == NULL;
            long vn = 0;
            if (eq) vn = decode(value, vlen, value, 1, 0);
            long nn = decode(name, nlen, name, 1, 0);
            if (nn < 0 || vn < 0) return URI_BAD;
            if (*n < max) {
                out[*n].name = name;
                out[*n].value = eq ? value : "";
                (*n)++;
            } else {
                *more = 1;
            }
            if (last) break;
            p = end + 1;
            continue;
        }
        if (!end) break;
        p = end + 1;
    }
    return URI_OK;
}
