/* router.h: maps a request's method and path to its handler (404, 405, 415 on the way),
 * driven by one table of routes (router.c). */
#ifndef API_ROUTER_H
#define API_ROUTER_H

#include "req.h"

#define API_ROUTE_MAX_SEGMENTS 8   /* a path of more segments has no route */
#define API_ROUTE_MAX_PATH     512 /* nor a path of this many bytes or more */

/*
 * One row of the route table: a method on a path pattern. A pattern is "/" followed by
 * segments separated by "/", each literal ("games") or a parameter ("{id}", at most one
 * per pattern), e.g. "/v1/games/{id}/placements". A path segment that one pattern has
 * literally and another as a parameter goes to the literal one ("/v1/players/me" before
 * "/v1/players/{id}"). The pattern is also the route's label in /metrics.
 */
struct api_route {
    const char *method;  /* "GET", "POST", "DELETE": compared exactly */
    const char *pattern; /* "/v1/games/{id}/events": what it matches, and its metrics label */
    /* Answers `req` into `resp`; `arg` is the path's parameter segment, NULL without one. */
    void (*handler)(const struct api_request *req, struct api_response *resp, const char *arg);
};

/* What api_route_find() found. */
enum api_route_status {
    API_ROUTE_FOUND = 0,       /* a row of the method and the path */
    API_ROUTE_NOT_FOUND = 404, /* no pattern has the path */
    API_ROUTE_NO_METHOD = 405  /* patterns have the path, none with the method */
};

/* The outcome of api_route_find(). */
struct api_route_match {
    const struct api_route *route; /* the row to run (API_ROUTE_FOUND), else NULL */
    const char *pattern;           /* the path's pattern, NULL on API_ROUTE_NOT_FOUND */
    const char *arg;               /* the path's parameter segment (in buf), or NULL */
    char allow[32];                /* the pattern's methods in table order: "GET, POST" */
    char buf[API_ROUTE_MAX_PATH];  /* the path split into segments (arg points in here) */
};

/*
 * Looks up `method` (NULL: none) on `path` (no query string; NULL finds nothing) in the
 * `n` rows of `table` and fills `m`: the path's pattern is the most literal one that
 * matches it, and its rows alone give the method and m->allow; a parameter that is a UUID
 * comes lower-cased in m->arg. Pure: no I/O, no allocation. Returns what it found.
 */
enum api_route_status api_route_find_in(const struct api_route *table, size_t n, const char *method,
                                        const char *path, struct api_route_match *m);

/* api_route_find_in() over the service's route table. */
enum api_route_status api_route_find(const char *method, const char *path,
                                     struct api_route_match *m);

/* The route table, *n rows (for tests and documentation). */
const struct api_route *api_routes(size_t *n);

/*
 * Answers `req` into `resp` (which starts zeroed): runs the handler of the path and
 * method, or answers 404 not_found / 405 method_not_allowed (with Allow) / 415 for a
 * body that is not JSON / 400 invalid_parameter for a query parameter given twice (on a
 * path and method of the table, before the handler). OPTIONS on a path of the table (that has no
 * OPTIONS row) is answered 204 with resp->preflight and resp->allow = the path's methods, without a
 * handler (a CORS preflight, cors.h); on any other path 404. Never fails: every outcome
 * is an answer.
 */
void api_handle(const struct api_request *req, struct api_response *resp);

/*
 * The route template of `path` ("/v1/games/{id}/events" ...), a static string, or
 * "other" for a path that no route has: a bounded label for metrics.
 */
const char *api_route_template(const char *path);

#endif
