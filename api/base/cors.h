/* cors.h: the CORS headers of an answer (docs/clients.md "Browsers"), as a pure function of the
 * configured origins (CORS_ORIGINS), the request's path and Origin, and whether the answer
 * is a preflight. http.c's send_response() adds them to every answer. */
#ifndef API_CORS_H
#define API_CORS_H

#include <stddef.h>

#include "nodiscard.h"

#define CORS_MAX_ORIGINS 16  /* origins in CORS_ORIGINS at most */
#define CORS_ORIGIN_MAX  128 /* bytes of one origin, with its NUL */
#define CORS_MAX_HEADERS 6   /* headers cors_headers() gives at most */
#define CORS_MAX_AGE     "600"
#define CORS_ALLOW_HEADERS                                                                         \
    "Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key, "                      \
    "Last-Event-ID, X-Request-Id"
#define CORS_EXPOSE_HEADERS "ETag, Location, Retry-After, X-Request-Id"

/* The origins that may read answers: any ("*"), or a list of exact origins. */
struct cors_config {
    int any;                                         /* 1: every origin ("*") */
    size_t n;                                        /* origins listed (when not any) */
    char origins[CORS_MAX_ORIGINS][CORS_ORIGIN_MAX]; /* "https://play.example" ... */
};

/* One header to add: both strings live as long as the inputs of cors_headers(). */
struct cors_header {
    const char *name;  /* "Access-Control-Allow-Origin" ... */
    const char *value; /* static, or the request's Origin, or the preflight's methods */
};

/*
 * Parses `spec` (CORS_ORIGINS): "*", or origins separated by commas (spaces around them
 * are ignored), each "http://" or "https://" followed by a host and an optional port, no
 * path, no trailing slash, at most CORS_MAX_ORIGINS of them. Returns 0 with `c` filled,
 * or -1 after writing what is wrong to `err` (size `errlen`).
 */
int cors_parse(const char *spec, struct cors_config *c, char *err, size_t errlen) NODISCARD;

/*
 * 1 when answers to `path` carry CORS headers: the API (/v1 and below) and /openapi.yaml
 * (so that a documentation page elsewhere can load it); not the operators' paths
 * (/healthz, /readyz, /metrics).
 */
int cors_path(const char *path);

/*
 * The CORS headers of an answer to `path` for a request with `origin` (its Origin header,
 * or NULL) into `out`; `preflight` is the path's methods ("GET, POST") when the answer is
 * a preflight (OPTIONS), else NULL. With "*" every answer to a cors_path() gets
 * Allow-Origin "*"; with a list, every such answer gets "Vary: Origin", and only an
 * origin on the list gets Allow-Origin (itself) and the rest. Preflights add
 * Allow-Methods, Allow-Headers and Max-Age; other answers Expose-Headers. Pure. Returns
 * the number of headers (0 to CORS_MAX_HEADERS).
 */
size_t cors_headers(const struct cors_config *c, const char *path, const char *origin,
                    const char *preflight, struct cors_header out[CORS_MAX_HEADERS]);

#endif
