/* hook.h: a webhook receiver for the integration tests (t_webhook.c, t_inbox.c): it
 * listens on 127.0.0.1, keeps each request's headers and body, and answers as told. */
#ifndef ITEST_HOOK_H
#define ITEST_HOOK_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#define HOOK_MAX      512       /* requests a listener keeps */
#define HOOK_BODY_MAX (4 << 20) /* bytes of one request at most (a chat app's board PNG) */

/* One request the listener got. */
struct hook_req {
    char path[64];     /* its path */
    char sig[80];      /* X-Tilehall-Signature */
    char event[40];    /* X-Tilehall-Event */
    char delivery[96]; /* X-Tilehall-Delivery */
    char ts[24];       /* X-Tilehall-Timestamp */
    int attempt;       /* X-Tilehall-Attempt */
    char wid[128];     /* webhook-id (Standard Webhooks) */
    char wts[24];      /* webhook-timestamp */
    char wsig[80];     /* webhook-signature */
    char ctype[128];   /* Content-Type (a multipart boundary too) */
    int answered;      /* the status it was answered */
    char *body;        /* malloc'd (NUL after its last byte) */
    long body_len;     /* its bytes (a multipart body may hold NULs: a PNG) */
};

/* A webhook receiver on 127.0.0.1 (one connection at a time, each closed after its answer). */
struct listener {
    int fd;                        /* listening socket */
    int port;                      /* its port */
    pthread_t thread;              /* the accept loop */
    atomic_int stop;               /* 1: end */
    pthread_mutex_t lock;          /* guards what follows */
    int n;                         /* requests */
    struct hook_req req[HOOK_MAX]; /* the first HOOK_MAX requests */
    int fail_first;                /* answer 500 to this many more requests */
    int status;                    /* else answer this (0: 200) */
    int delay_ms;                  /* wait this long before answering */
    int close_all;                 /* 1: close every connection at once, unanswered */
    int accepted;                  /* connections accepted */
};

/* Copies the value of header `name` from the header block `h` into dst ("" when absent). */
void header_of(const char *h, const char *name, char *dst, size_t cap);

/* Reads one HTTP request from the socket `c` into `buf` (`cap` bytes, NUL-terminated): its
 * head and as much body as its Content-Length says, waiting at most `ms` for each read. The
 * body's length, where it starts into *body; or -1 (closed, too slow or too long). */
long hook_read_request(int c, char *buf, size_t cap, int ms, char **body);

/* Starts a listener on a free port of 127.0.0.1 (one connection at a time, each closed after
 * its answer, 200 unless fail_first, status, delay_ms or close_all say otherwise); NULL on
 * failure. Stop it with listener_stop. */
struct listener *listener_start(void);

/* Stops `l` (may be NULL) and frees it with the requests it kept. */
void listener_stop(struct listener *l);

/* Waits up to `ms` until `l` got `n` requests answered 2xx; 1 if so. */
int listener_wait_ok(struct listener *l, int n, long ms);

/* Requests the listener got so far. */
int listener_count(struct listener *l);

/* 1 when request `r`'s X-Tilehall-Signature is "sha256=" + the hex HMAC-SHA256 of its body
 * under `secret`. */
int hook_signature_ok(const char *secret, const struct hook_req *r);

#endif
