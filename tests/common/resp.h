/* resp.h: an HTTP answer as the integration tests (tests/itest) and the soak client
 * (tests/soak) read it with libcurl: its status, the body, the headers they look at and
 * the body parsed as JSON; and the libcurl settings every one of their requests shares. */
#ifndef TESTS_RESP_H
#define TESTS_RESP_H

#include <stddef.h>

#include <cjson/cJSON.h>
#include <curl/curl.h>

/* An HTTP answer. */
struct resp {
    long status;          /* HTTP status, 0 when the request failed */
    char *body;           /* NUL-terminated, malloc'd */
    size_t len;           /* bytes in body */
    char etag[64];        /* ETag header or "" */
    char location[128];   /* Location header or "" */
    char allow[64];       /* Allow header or "" */
    char ctype[64];       /* Content-Type header or "" */
    char retry_after[16]; /* Retry-After header or "" */
    char www_auth[64];    /* WWW-Authenticate header or "" */
    char request_id[80];  /* X-Request-Id header or "" */
    char cache[64];       /* Cache-Control header or "" */
    cJSON *json;          /* body parsed, or NULL */
};

/* libcurl callbacks that fill a struct resp (`ud`): the body, and the headers it keeps. */
size_t resp_on_body(char *p, size_t size, size_t n, void *ud);
size_t resp_on_header(char *p, size_t size, size_t n, void *ud);

/* Keeps the header line `p` (`len` bytes) in `r` when it is one that struct resp has. */
void resp_take_header(const char *p, size_t len, struct resp *r);

/*
 * The request header list of a test request (curl_slist_free_all it): the lines of
 * `headers` (NULL-terminated, may be NULL), "Content-Type: application/json" when
 * `json_body` and `headers` name no Content-Type, and "Expect:" (no 100-continue).
 */
struct curl_slist *resp_headers(const char *const *headers, int json_body);

/* Sets up `c` for one request: `method` to `url`, with `body` (NULL: none) and the header
 * list `hl` (resp_headers()). */
void resp_request(CURL *c, const char *url, const char *method, const char *body,
                  struct curl_slist *hl);

/* Sends the answer of `c` to `on_body` and `on_header` (both called with `ud`), gives up
 * after `timeout_ms` and uses no signals (the clients run threads). */
void resp_capture(CURL *c, curl_write_callback on_body, curl_write_callback on_header, void *ud,
                  long timeout_ms);

/* Performs the request of `c`, whose answer goes to `r` (resp_capture with resp_on_body
 * and resp_on_header); sets r->status when an answer came. Returns libcurl's code. */
CURLcode resp_perform(CURL *c, struct resp *r);

/* Finishes `r` after the transfer: an empty body when none came, and the body parsed. */
void resp_parse(struct resp *r);

/* Frees what `r` holds and zeroes it. */
void resp_free(struct resp *r);

/* The problem `code` of an answer, or "". */
const char *problem_code(const struct resp *r);

/* A line of a stream (an event stream's) being received. */
struct resp_line {
    char text[8192]; /* its bytes so far (NUL-terminated once whole) */
    size_t len;      /* how many */
};

/* Feeds the `n` bytes at `p` to `b`: on_line(ctx, line) for every whole line, its '\n'
 * taken off (a line longer than fits is cut). */
void resp_lines(struct resp_line *b, const char *p, size_t n,
                void (*on_line)(void *ctx, const char *line), void *ctx);

/* A CURLOPT_XFERINFOFUNCTION that aborts the transfer once the atomic_int at `stop` (its
 * CURLOPT_XFERINFODATA) is set: a stream's reader told to go away. */
int resp_abort_when(void *stop, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                    curl_off_t ulnow);

/* The status of `r`, its problem's code put into `code` ("" when it has none); frees `r`. */
long resp_done(struct resp *r, char *code, size_t cap);

#endif
