/* cors.c: the CORS headers of an answer, from the configured origins. */
#include "cors.h"

#include <stdio.h>
#include <string.h>

/* 1 when the `len` bytes at `s` are an origin: scheme "://" host [":" port], no path. */
static int valid_origin(const char *s, size_t len)
{
    size_t skip;
    if (len > 7 && strncmp(s, "http://", 7) == 0)
        skip = 7;
    else if (len > 8 && strncmp(s, "https://", 8) == 0)
        skip = 8;
    else
        return 0;
    if (s[skip] == ':') return 0; /* no host */
    for (size_t i = skip; i < len; i++) {
        char ch = s[i];
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                 ch == '-' || ch == '.' || ch == ':' || ch == '[' || ch == ']';
        if (!ok) return 0;
    }
    return 1;
}

int cors_parse(const char *spec, struct cors_config *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    const char *p = spec ? spec : "";
    for (;;) {
        while (*p == ' ') p++;
        size_t len = strcspn(p, ",");
        size_t end = len;
        while (end > 0 && p[end - 1] == ' ') end--;
        if (end == 1 && p[0] == '*') {
            c->any = 1;
        } else if (end == 0) {
            snprintf(err, errlen, "CORS_ORIGINS has an empty entry: \"%s\"", spec ? spec : "");
            return -1;
        } else if (end >= CORS_ORIGIN_MAX || !valid_origin(p, end)) {
            snprintf(err, errlen,
                     "CORS_ORIGINS: \"%.*s\" is not an origin like https://example.org:8443 "
                     "(scheme, host, optional port, no path)",
                     (int)(end > 200 ? 200 : end), p);
            return -1;
        } else if (c->n == CORS_MAX_ORIGINS) {
            snprintf(err, errlen, "CORS_ORIGINS lists more than %d origins", CORS_MAX_ORIGINS);
            return -1;
        } else {
            memcpy(c->origins[c->n], p, end);
            c->origins[c->n][end] = '\0';
            c->n++;
        }
        if (p[len] == '\0') break;
        p += len + 1;
    }
    if (c->any && c->n > 0) {
        snprintf(err, errlen, "CORS_ORIGINS is either * or a list of origins, not both");
        return -1;
    }
    return 0;
}

int cors_path(const char *path)
{
    if (!path) return 0;
    return strcmp(path, "/v1") == 0 || strncmp(path, "/v1/", 4) == 0 ||
           strcmp(path, "/openapi.yaml") == 0;
}

/* 1 when `origin` is on the list of `c`. */
static int listed(const struct cors_config *c, const char *origin)
{
    for (size_t i = 0; origin && i < c->n; i++)
        if (strcmp(c->origins[i], origin) == 0) return 1;
    return 0;
}

size_t cors_headers(const struct cors_config *c, const char *path, const char *origin,
                    const char *preflight, struct cors_header out[CORS_MAX_HEADERS])
{
    size_t n = 0;
    if (!cors_path(path)) return 0;
    if (c->any) {
        out[n++] = (struct cors_header){"Access-Control-Allow-Origin", "*"};
    } else {
        out[n++] = (struct cors_header){"Vary", "Origin"};
        if (!listed(c, origin)) return n;
        out[n++] = (struct cors_header){"Access-Control-Allow-Origin", origin};
    }
    if (preflight) {
        out[n++] = (struct cors_header){"Access-Control-Allow-Methods", preflight};
        out[n++] = (struct cors_header){"Access-Control-Allow-Headers", CORS_ALLOW_HEADERS};
        out[n++] = (struct cors_header){"Access-Control-Max-Age", CORS_MAX_AGE};
    } else {
        out[n++] = (struct cors_header){"Access-Control-Expose-Headers", CORS_EXPOSE_HEADERS};
    }
    return n;
}
