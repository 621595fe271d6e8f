/* req.h: a request and its answer as plain data, between the HTTP layer and the handlers. */
#ifndef API_REQ_H
#define API_REQ_H

#include <stddef.h>

#define API_MAX_BODY  (64 * 1024) /* request bodies above this are answered 413 */
#define API_MAX_QUERY 16          /* query parameters kept per request */

struct api_query {
    const char *name;  /* as decoded by the HTTP layer */
    const char *value; /* "" when the parameter has no value */
};

/* A request. The HTTP layer owns every pointer; they live until the answer is sent. */
struct api_request {
    const char *method;                    /* "GET", "POST" ... ("HEAD" is passed as "GET") */
    const char *path;                      /* without the query string */
    const char *body;                      /* the body, NUL-terminated; "" when there is none */
    size_t body_len;                       /* bytes in body */
    const char *content_type;              /* Content-Type or NULL */
    const char *authorization;             /* Authorization or NULL */
    const char *if_match;                  /* If-Match or NULL */
    const char *idempotency_key;           /* Idempotency-Key or NULL */
    const char *accept;                    /* Accept or NULL */
    size_t nquery;                         /* entries in query */
    struct api_query query[API_MAX_QUERY]; /* query parameters */
    int query_overflow;                    /* 1 when there were more than API_MAX_QUERY */
    long long started_ms; /* monotonic ms when the request arrived (stays on reruns) */
    int stopping;         /* 1 when the server is shutting down: do not wait */
};

/* An answer. Handlers fill it; the HTTP layer sends it and frees body. */
struct api_response {
    int status;               /* HTTP status */
    const char *content_type; /* static string */
    char *body;               /* heap (malloc), owned; NULL for an empty body */
    size_t len;               /* bytes in body */
    char etag[24];            /* ETag value with quotes, or "" */
    char location[96];        /* Location, or "" */
    char allow[32];           /* Allow (for 405), or "" */
    int retry_after;          /* Retry-After seconds, or 0 */
    int suspend;              /* 1: nothing to answer yet, run the request again shortly */
};

/* The value of query parameter `name`, or NULL. */
const char *api_query_get(const struct api_request *req, const char *name);

/* Takes `body` (malloc'd, NUL-terminated) as the answer's JSON body with `status`. */
void api_reply_take(struct api_response *resp, int status, const char *content_type, char *body);

/*
 * Answers `status` with a copy of `len` bytes of `data`. On allocation failure answers
 * 500 with no body.
 */
void api_reply_copy(struct api_response *resp, int status, const char *content_type,
                    const char *data, size_t len);

struct cJSON;

/*
 * Answers `o` (taken: deleted here) printed as application/json with `status`; 500 when
 * `o` is NULL or printing fails.
 */
void api_reply_json(struct api_response *resp, int status, struct cJSON *o);

/* Monotonic milliseconds. */
long long api_now_ms(void);

#endif
