/* webhook.c: the delivery workers (libcurl's multi interface), URL checks, secrets and
 * signatures.
 *
 * Each worker thread runs many transfers at once on one multi handle: it claims due
 * deliveries from the outbox (store_webhook_claim: rows other servers hold are skipped,
 * and a claimed row is leased so that no other server takes it while its POST is in
 * flight), starts a transfer for each, and records each outcome as it ends. So a receiver
 * that never answers holds one slot of WEBHOOK_IN_FLIGHT for WEBHOOK_TIMEOUT_MS, not a
 * worker. Two limits keep one receiver host from taking the slots of others: at most
 * WEBHOOK_PER_HOST transfers to one host (the claim skips full hosts; a claimed delivery
 * that finds its host full is put back unattempted), and a circuit breaker: after
 * WEBHOOK_BREAKER_FAILURES transfers in a row that got no answer (timeout, refused, no
 * address ...), the host is skipped for WEBHOOK_BREAKER_MS, doubling up to
 * WEBHOOK_BACKOFF_MAX_MS while it keeps failing; its waiting deliveries are rescheduled in
 * the database meanwhile, and once the time is up one delivery tries it (half-open): an
 * answer closes the breaker, none opens it again. The limit and the breaker also hold per
 * address dialled (struct host, is_addr), so that many host names of one address (a
 * wildcard domain, the spellings of an IP) share one. The limits and the breaker are each
 * worker's own (per server and thread). A game may have several webhooks (the creator's
 * and one per seat, migrations/0006): each is a delivery row of its own per event, in
 * order per webhook, with its own secret; the limits count transfers, whoever's they are.
 *
 * A worker sleeps until a commit kicks it (webhook_kick: after this server's commit that
 * wrote deliveries, or on a notification of another server's), a transfer ends, or
 * WEBHOOK_POLL_MS passes (retries that fall due, and deliveries of other servers' commits
 * that no notification announced). Unless WEBHOOK_ALLOW_PRIVATE=1, every connection is
 * checked on the address actually dialled (CURLOPT_OPENSOCKETFUNCTION, so that DNS
 * rebinding cannot slip past): special-purpose ranges and this host's own addresses are
 * refused (netaddr.h); no proxy is used and redirects are not followed, so that players
 * cannot make the server call into its own network. What an attempt got is shown to the
 * game's seats only as a generic text ("timeout", "refused", "HTTP 500" ...); the detail
 * (libcurl's message, the address) goes to the server log.
 */
#include "webhook.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>

#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "auth.h"
#include "log.h"
#include "metrics.h"
#include "netaddr.h"
#include "req.h"
#include "store.h"
#include "store_webhooks.h"
#include "webhook_apps.h"

#define MAX_WORKERS 8
#define CLAIM_MAX   64    /* deliveries one claim takes at most */
#define LEASE_EXTRA 30000 /* a claim's lease: the attempt's timeout plus this (ms) */
#define ERROR_MAX   200   /* bytes of an error kept */

static int timeout_ms = 10000;
static int backoff_ms = 2000;
static int backoff_max_ms = 600000;
static int max_attempts = 8;
static int poll_ms = 1000;
static int allow_private;
static int in_flight_max = 256;
static int per_host = 8;
static int breaker_failures = 5;
static int breaker_ms = 30000;

/* A receiver host as one worker sees it: its transfers in flight and its breaker. Hosts
 * are kept twice: by the URL's host name (webhooks.host: the claim skips a blocked one,
 * its waiting deliveries are rescheduled in the database) and by the address a transfer
 * dials (is_addr, named "ip <address>"): many names of one address (a wildcard domain,
 * the spellings of one IP) share its WEBHOOK_PER_HOST transfers and its breaker. */
struct host {
    struct host *next;    /* the worker's list */
    char *name;           /* webhooks.host, or "ip <address>" */
    int is_addr;          /* 1: an address (no rows of its own to reschedule) */
    int in_flight;        /* transfers to it now */
    int failures;         /* transfers in a row that got no answer */
    long long open_until; /* the breaker: skipped until then (monotonic ms); 0: closed */
    int open_ms;          /* the interval it was last opened for, 0 while closed */
    int probing;          /* half-open: the one trial transfer is in flight */
    long long last_ms;    /* when its last transfer ended (monotonic ms) */
};

struct worker;

/* One transfer in flight. */
struct xfer {
    struct xfer *prev, *next;            /* the worker's list of transfers */
    struct worker *w;                    /* its worker */
    CURL *easy;                          /* its handle */
    struct store_delivery d;             /* what it delivers */
    struct host *h;                      /* where to */
    char *body;                          /* the signed body */
    struct curl_slist *hdrs;             /* its headers */
    char curl_err[CURL_ERROR_SIZE];      /* libcurl's message */
    int blocked;                         /* 1 when an address was refused */
    char blocked_addr[INET6_ADDRSTRLEN]; /* the last one */
    const char *blocked_why;             /* and why (netaddr_refused) */
    struct host *ah;                     /* the address it dialled (counted), or NULL */
    long long addr_wait;                 /* > 0: its address was blocked: put it back
                                            unattempted, due in this many ms */
};

#define UNRECORDED_MAX      64  /* outcomes a worker keeps to record again */
#define UNRECORDED_RETRY_MS 250 /* how often it tries */

/* The outcome of an attempt that the database did not take (it was away: a restart, a
 * failover): recorded again until the claim's lease would run out, so that the webhook's
 * next events do not wait for the lease after the database is back. */
struct unrecorded {
    char hook[24];       /* store_delivery.hook */
    char game[48];       /* store_delivery.game, for the log */
    char kind[12];       /* store_delivery.kind */
    int seq;             /* the event, chat message or tournament's event */
    int ok;              /* the arguments of store_webhook_done() ... */
    int status;          /* ... */
    char err[ERROR_MAX]; /* ... ("" for none) */
    int delay;           /* ... */
    int last;            /* ... */
    long long until;     /* mono_ms() after which the lease may have run out: dropped */
};

/* A delivery thread. */
struct worker {
    pthread_t thread;   /* the thread */
    CURLM *multi;       /* its transfers */
    struct host *hosts; /* hosts with transfers in flight or a breaker that is not closed */
    struct xfer *xfers; /* transfers in flight */
    int in_flight;      /* how many */
    unsigned rng;       /* jitter */
    struct unrecorded unrec[UNRECORDED_MAX]; /* outcomes to record again */
    int nunrec;                              /* entries in unrec */
    long long unrec_next;                    /* mono_ms() of the next try */
};

static struct worker workers[MAX_WORKERS];
static int nworkers;
static atomic_int stop_flag;
static atomic_int drain_flag;      /* 1 once webhook_drain(): no more claims */
static atomic_int total_in_flight; /* transfers in flight on every worker */
static pthread_mutex_t wlock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long kicks; /* guarded by wlock: grows with every kick */

/* 1 when `host` (as in a URL: IPv6 in brackets) is an IP address a webhook may not reach;
 * names are checked when they are resolved, at each connection. */
static int literal_refused(const char *host)
{
    struct sockaddr_storage ss;
    return netaddr_parse(host, &ss) == 0 && netaddr_refused((const struct sockaddr *)&ss);
}

int webhook_url_check(const char *url, char *why, size_t cap)
{
    size_t len = strlen(url);
    if (len == 0 || len > STORE_URL_MAX) {
        snprintf(why, cap, "The URL must be 1 to %d bytes long.", STORE_URL_MAX);
        return -1;
    }
    for (const unsigned char *p = (const unsigned char *)url; *p; p++) {
        if (*p <= 0x20 || *p >= 0x7f) {
            snprintf(why, cap,
                     "The URL must be printable ASCII without spaces (percent-encode "
                     "the rest, punycode for hosts).");
            return -1;
        }
    }
    if (strncasecmp(url, "http://", 7) != 0 && strncasecmp(url, "https://", 8) != 0) {
        snprintf(why, cap, "Only http:// and https:// URLs can be called back.");
        return -1;
    }
    CURLU *u = curl_url();
    if (!u) {
        snprintf(why, cap, "Out of memory.");
        return -1;
    }
    char *host = NULL;
    int rc = -1;
    if (curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK) {
        snprintf(why, cap, "The URL cannot be parsed.");
    } else if (curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK || !host || !host[0]) {
        snprintf(why, cap, "The URL has no host.");
    } else if (!allow_private && literal_refused(host)) {
        snprintf(why, cap,
                 "The URL's host is not a public address (loopback, private, link-local, "
                 "reserved or this server's own).");
    } else {
        rc = 0;
    }
    curl_free(host);
    curl_url_cleanup(u);
    return rc;
}

int webhook_secret_new(char out[WEBHOOK_SECRET_LEN + 1])
{
    return auth_token_new(out);
}

int webhook_sign(const char *secret, const char *body, size_t len, char out[72])
{
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (!HMAC(EVP_sha256(), secret, (int)strlen(secret), (const unsigned char *)body, len, mac,
              &n) ||
        n != 32)
        return -1;
    static const char hex[] = "0123456789abcdef";
    memcpy(out, "sha256=", 7);
    for (unsigned i = 0; i < n; i++) {
        out[7 + 2 * i] = hex[mac[i] >> 4];
        out[8 + 2 * i] = hex[mac[i] & 15];
    }
    out[7 + 2 * n] = '\0';
    return 0;
}

int webhook_secret_std(const char *secret, char out[WEBHOOK_STD_SECRET_LEN + 1])
{
    if (strlen(secret) != WEBHOOK_SECRET_LEN) return -1;
    memcpy(out, "whsec_", 6);
    /* 43 bytes: 60 digits (the last two '=' padding) and the NUL. */
    if (EVP_EncodeBlock((unsigned char *)out + 6, (const unsigned char *)secret,
                        WEBHOOK_SECRET_LEN) != WEBHOOK_STD_SECRET_LEN - 6)
        return -1;
    return 0;
}

int webhook_sign_std(const char *secret, const char *id, long long ts, const char *body, size_t len,
                     char out[WEBHOOK_STD_SIG_LEN + 1])
{
    char head[160];
    int hn = snprintf(head, sizeof head, "%s.%lld.", id, ts);
    if (hn < 0 || (size_t)hn >= sizeof head) return -1;
    char *msg = malloc((size_t)hn + len);
    if (!msg) return -1;
    memcpy(msg, head, (size_t)hn);
    memcpy(msg + hn, body, len);
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    int rc = -1;
    if (HMAC(EVP_sha256(), secret, (int)strlen(secret), (const unsigned char *)msg,
             (size_t)hn + len, mac, &n) &&
        n == 32) {
        memcpy(out, "v1,", 3);
        rc = EVP_EncodeBlock((unsigned char *)out + 3, mac, 32) == WEBHOOK_STD_SIG_LEN - 3 ? 0 : -1;
    }
    free(msg);
    return rc;
}

static long long mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int addr_take(struct xfer *x, const struct sockaddr *sa);

/* Refuses a connection to an address a webhook may not reach (unless allowed), and one to
 * an address that may take no more transfers now (addr_take()). */
static curl_socket_t open_socket(void *clientp, curlsocktype purpose, struct curl_sockaddr *addr)
{
    struct xfer *x = clientp;
    if (purpose == CURLSOCKTYPE_IPCXN && !allow_private) {
        const char *why = netaddr_refused(&addr->addr);
        if (why) {
            x->blocked = 1;
            x->blocked_why = why;
            const void *raw = addr->family == AF_INET6
                                  ? (const void *)&((struct sockaddr_in6 *)&addr->addr)->sin6_addr
                                  : (const void *)&((struct sockaddr_in *)&addr->addr)->sin_addr;
            if (!inet_ntop(addr->family, raw, x->blocked_addr, sizeof x->blocked_addr))
                snprintf(x->blocked_addr, sizeof x->blocked_addr, "?");
            return CURL_SOCKET_BAD;
        }
    }
    if (purpose == CURLSOCKTYPE_IPCXN && addr_take(x, &addr->addr)) return CURL_SOCKET_BAD;
    return socket(addr->family, addr->socktype, addr->protocol);
}

#define ADDR_RETRY_MS 500 /* a delivery whose address is full is put back for this long */

static struct host *host_get(struct worker *w, const char *name);
static int host_blocked(const struct host *h, long long now);
static long long mono_ms(void);

/* Counts a connection of `x` to `sa` against that address's limit and breaker (struct host,
 * is_addr). Returns 0, or -1 when no transfer to it may start now (x->addr_wait set). */
static int addr_take(struct xfer *x, const struct sockaddr *sa)
{
    if (x->ah) return 0; /* another address of the same transfer: counted once */
    char ip[INET6_ADDRSTRLEN] = "?", name[INET6_ADDRSTRLEN + 4];
    const void *raw =
        sa->sa_family == AF_INET6
            ? (const void *)&((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr
            : (const void *)&((const struct sockaddr_in *)(const void *)sa)->sin_addr;
    if (sa->sa_family != AF_INET && sa->sa_family != AF_INET6) return 0;
    if (!inet_ntop(sa->sa_family, raw, ip, sizeof ip)) return 0;
    snprintf(name, sizeof name, "ip %s", ip);
    struct host *h = host_get(x->w, name);
    if (!h) return 0;
    h->is_addr = 1;
    long long now = mono_ms();
    if (host_blocked(h, now)) {
        x->addr_wait = h->open_until > now ? h->open_until - now : ADDR_RETRY_MS;
        return -1;
    }
    if (h->open_until) h->probing = 1; /* half-open: this one tries the address */
    h->in_flight++;
    x->ah = h;
    return 0;
}

static size_t discard(char *p, size_t size, size_t n, void *ud)
{
    (void)p;
    (void)ud;
    return size * n;
}

/* The delay before attempt `attempt` + 1, with up to a tenth of jitter. */
static int retry_delay(int attempt, unsigned *rng)
{
    long long d = backoff_ms;
    for (int i = 1; i < attempt && d < backoff_max_ms; i++) d *= 2;
    if (d > backoff_max_ms) d = backoff_max_ms;
    *rng = *rng * 1103515245u + 12345u;
    long long jitter = d / 10 ? (long long)(*rng >> 8) % (d / 10 + 1) : 0;
    return (int)(d - jitter);
}

/* The worker's entry of host `name`, made when missing; NULL without memory. */
static struct host *host_get(struct worker *w, const char *name)
{
    for (struct host *h = w->hosts; h; h = h->next)
        if (strcmp(h->name, name) == 0) return h;
    struct host *h = calloc(1, sizeof *h);
    if (h) h->name = strdup(name);
    if (!h || !h->name) {
        free(h);
        return NULL;
    }
    h->next = w->hosts;
    w->hosts = h;
    return h;
}

/* Forgets host entries with nothing in flight and a closed breaker, and those whose breaker
 * ran out long ago (after that, a host starts afresh). */
static void hosts_prune(struct worker *w, long long now)
{
    long long keep = backoff_max_ms > breaker_ms ? backoff_max_ms : breaker_ms;
    for (struct host **pp = &w->hosts; *pp;) {
        struct host *h = *pp;
        int idle = h->in_flight == 0 &&
                   ((h->open_until == 0 && (h->failures == 0 || now > h->last_ms + keep)) ||
                    (h->open_until && now > h->open_until + keep + h->open_ms));
        if (!idle) {
            pp = &h->next;
            continue;
        }
        *pp = h->next;
        free(h->name);
        free(h);
    }
}

/* 1 when no transfer to `h` may start now: full, its breaker open, or half-open with its
 * trial in flight. */
static int host_blocked(const struct host *h, long long now)
{
    if (h->in_flight >= per_host) return 1;
    if (!h->open_until) return 0;
    return now < h->open_until || h->probing || h->in_flight > 0;
}

/* Puts claimed delivery `d` back unattempted, due in `delay_ms`; frees it. */
static void put_back(struct store_delivery *d, long long delay_ms)
{
    if (delay_ms > 86400000) delay_ms = 86400000;
    if (store_webhook_defer(d->hook, d->kind, d->seq, (int)delay_ms) != STORE_OK) {
        char seq[16];
        snprintf(seq, sizeof seq, "%d", d->seq);
        log_kv(LOG_WARN, "webhook delivery not put back (the lease runs out)", "game", d->game,
               "seq", seq, NULL);
    }
    store_delivery_free(d);
}

static void xfer_free(struct xfer *x)
{
    if (x->easy) curl_easy_cleanup(x->easy);
    curl_slist_free_all(x->hdrs);
    free(x->body);
    store_delivery_free(&x->d);
    free(x);
}

/*
 * The tilehall body of `x->d` into x->body: {"game", "timestamp", "event": <the event>}, for
 * a chat message {"game", "timestamp", "chat": <the message as GET .../chat shows it>}, for a
 * tournament's event {"tournament", "timestamp", "event": <the event as GET
 * /v1/tournaments/{id}/events shows it>}; its length into *n, the event's type (or "chat")
 * into `type`. Returns 0 or -1.
 */
static int tilehall_body(struct xfer *x, long long ts, size_t *n, char type[64])
{
    const struct store_delivery *d = &x->d;
    int chat = strcmp(d->kind, STORE_DELIVERY_CHAT) == 0;
    int tourney = strcmp(d->kind, STORE_DELIVERY_TOURNAMENT) == 0;
    cJSON *ev = cJSON_Parse(d->payload);
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(ev, "type");
    snprintf(type, 64, "%s", chat ? "chat" : cJSON_IsString(t) ? t->valuestring : "unknown");
    cJSON_Delete(ev);
    size_t blen = strlen(d->payload) + 96;
    x->body = malloc(blen);
    if (!x->body) return -1;
    int len =
        snprintf(x->body, blen, "{\"%s\":\"%s\",\"timestamp\":%lld,\"%s\":%s}",
                 tourney ? "tournament" : "game", d->game, ts, chat ? "chat" : "event", d->payload);
    if (len < 0 || (size_t)len >= blen) return -1;
    *n = (size_t)len;
    return 0;
}

/* Builds the signed request of `x->d` on a new handle, its body `app` when the webhook is a
 * chat app's (taken), else tilehall_body(). Returns 0 or -1. */
static int xfer_build(struct xfer *x, struct webhook_app_request *app)
{
    const struct store_delivery *d = &x->d;
    long long ts = (long long)time(NULL);
    size_t n = 0;
    char type[64], type_h[96], ctype_h[128];
    if (app && app->body) {
        x->body = app->body;
        n = app->len;
        app->body = NULL;
        snprintf(type, sizeof type, "%s",
                 strcmp(d->kind, STORE_DELIVERY_CHAT) == 0 ? "chat" : "message");
        snprintf(ctype_h, sizeof ctype_h, "Content-Type: %s", app->content_type);
    } else {
        if (tilehall_body(x, ts, &n, type)) return -1;
        snprintf(ctype_h, sizeof ctype_h, "Content-Type: application/json");
    }
    snprintf(type_h, sizeof type_h, "X-Tilehall-Event: %s", type);
    char sig[72], sig_h[96], delivery_h[400], ts_h[64], attempt_h[64], what[32];
    char msg_id[128], std_sig[WEBHOOK_STD_SIG_LEN + 1], id_h[160], std_ts_h[64], std_sig_h[80];
    if (webhook_sign(d->secret, x->body, n, sig)) return -1;
    /* A chat message's numbers are their own, as a tournament's events are: "chat:<seq>"
     * and "tournament:<seq>" keep them apart from a game's events. */
    snprintf(what, sizeof what, "%s%s%d", strcmp(d->kind, STORE_DELIVERY_EVENT) ? d->kind : "",
             strcmp(d->kind, STORE_DELIVERY_EVENT) ? ":" : "", d->seq);
    /* Standard Webhooks: the message's id is the same in every attempt of it. */
    snprintf(msg_id, sizeof msg_id, "%s:%s:%s", d->game, d->hook, what);
    if (webhook_sign_std(d->secret, msg_id, ts, x->body, n, std_sig)) return -1;
    snprintf(sig_h, sizeof sig_h, "X-Tilehall-Signature: %s", sig);
    snprintf(delivery_h, sizeof delivery_h, "X-Tilehall-Delivery: %s:%s", d->game, what);
    snprintf(ts_h, sizeof ts_h, "X-Tilehall-Timestamp: %lld", ts);
    snprintf(attempt_h, sizeof attempt_h, "X-Tilehall-Attempt: %d", d->attempt);
    snprintf(id_h, sizeof id_h, "webhook-id: %s", msg_id);
    snprintf(std_ts_h, sizeof std_ts_h, "webhook-timestamp: %lld", ts);
    snprintf(std_sig_h, sizeof std_sig_h, "webhook-signature: %s", std_sig);
    const char *lines[] = {ctype_h, "Expect:", sig_h, type_h,   delivery_h,
                           ts_h,    attempt_h, id_h,  std_ts_h, std_sig_h};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        struct curl_slist *nh = curl_slist_append(x->hdrs, lines[i]);
        if (!nh) return -1;
        x->hdrs = nh;
    }
    CURL *c = x->easy = curl_easy_init();
    if (!c) return -1;
    curl_easy_setopt(c, CURLOPT_PRIVATE, x);
    curl_easy_setopt(c, CURLOPT_URL, d->url);
    curl_easy_setopt(c, CURLOPT_POST, 1L);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, x->body);
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)n);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, x->hdrs);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "tilehall-webhook/1");
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)timeout_ms);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, (long)(timeout_ms < 5000 ? timeout_ms : 5000));
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(c, CURLOPT_PROXY, "");
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
#endif
    curl_easy_setopt(c, CURLOPT_OPENSOCKETFUNCTION, open_socket);
    curl_easy_setopt(c, CURLOPT_OPENSOCKETDATA, x);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, x->curl_err);
    return 0;
}

/* Records the outcome of claimed `d` that was not sent (no transfer): `ok` (nothing to send
 * for it), else a failed attempt with the public error `err`; frees it. */
static void unsent(struct worker *w, struct store_delivery *d, int ok, const char *err)
{
    int last = !ok && d->attempt >= max_attempts;
    int delay = ok ? 0 : retry_delay(d->attempt, &w->rng);
    if (store_webhook_done(d->hook, d->kind, d->seq, ok, 0, ok ? NULL : err, delay, last) !=
        STORE_OK) {
        char seq[16];
        snprintf(seq, sizeof seq, "%d", d->seq);
        log_kv(LOG_WARN, "webhook outcome not recorded (the lease runs out)", "game", d->game,
               "seq", seq, NULL);
    }
    store_delivery_free(d);
}

/*
 * A chat app's request for claimed `d` into `app` (empty for a tilehall webhook). Returns 0
 * when it is to be sent; else 1 after dealing with `d` (recorded as delivered when there is
 * nothing to send, put back when the game cannot be read now, a failed attempt when the
 * request cannot be built).
 */
static int app_request(struct worker *w, struct store_delivery *d, struct webhook_app_request *app)
{
    memset(app, 0, sizeof *app);
    if (!strcmp(d->format, "tilehall") || !d->format[0]) return 0;
    int rc = webhook_app_request(d, app);
    if (rc == 0) return 0;
    if (rc == WEBHOOK_APP_NOTHING) {
        metrics_delivery(METRICS_DELIVERED);
        unsent(w, d, 1, NULL);
    } else if (rc == WEBHOOK_APP_UNAVAILABLE) {
        put_back(d, 1000);
    } else {
        char seq[16];
        snprintf(seq, sizeof seq, "%d", d->seq);
        log_kv(LOG_ERROR, "webhook message cannot be built", "game", d->game, "seq", seq, "format",
               d->format, NULL);
        metrics_delivery(d->attempt >= max_attempts ? METRICS_GAVE_UP : METRICS_RETRY);
        unsent(w, d, 0, "message not built");
    }
    return 1;
}

/* Starts delivering claimed `d` (taken over), unless its host is blocked: then it goes back. */
static void xfer_start(struct worker *w, struct store_delivery *d, long long now)
{
    struct host *h = host_get(w, d->host);
    if (!h) {
        put_back(d, 1000);
        return;
    }
    if (host_blocked(h, now)) {
        put_back(d, h->open_until > now ? h->open_until - now : 0);
        return;
    }
    struct webhook_app_request app;
    if (app_request(w, d, &app)) return;
    struct xfer *x = calloc(1, sizeof *x);
    if (!x) {
        webhook_app_request_free(&app);
        put_back(d, 1000);
        return;
    }
    x->d = *d;
    memset(d, 0, sizeof *d);
    x->w = w;
    x->h = h;
    int built = xfer_build(x, &app);
    webhook_app_request_free(&app);
    if (built || curl_multi_add_handle(w->multi, x->easy) != CURLM_OK) {
        char seq[16];
        snprintf(seq, sizeof seq, "%d", x->d.seq);
        log_kv(LOG_ERROR, "webhook delivery cannot start", "game", x->d.game, "seq", seq, NULL);
        put_back(&x->d, 1000);
        xfer_free(x);
        return;
    }
    if (h->open_until) h->probing = 1; /* half-open: this one tries the host */
    h->in_flight++;
    w->in_flight++;
    atomic_fetch_add(&total_in_flight, 1);
    x->next = w->xfers;
    if (w->xfers) w->xfers->prev = x;
    w->xfers = x;
}

/* Unlinks `x` from its worker and host and frees it. */
static void xfer_end(struct xfer *x)
{
    struct worker *w = x->w;
    curl_multi_remove_handle(w->multi, x->easy);
    if (x->prev)
        x->prev->next = x->next;
    else
        w->xfers = x->next;
    if (x->next) x->next->prev = x->prev;
    x->h->in_flight--;
    if (x->ah) x->ah->in_flight--;
    w->in_flight--;
    atomic_fetch_sub(&total_in_flight, 1);
    xfer_free(x);
}

/* What a seat may read of a failed attempt: no host names, addresses, ports or libcurl's
 * words (those would let a player map the server's network), only the kind of failure. */
static void public_error(CURLcode rc, long code, int blocked, char *out, size_t cap)
{
    if (rc == CURLE_OK)
        snprintf(out, cap, "HTTP %ld", code);
    else if (blocked || rc == CURLE_COULDNT_RESOLVE_HOST)
        snprintf(out, cap, "no public address");
    else if (rc == CURLE_OPERATION_TIMEDOUT)
        snprintf(out, cap, "timeout");
    else if (rc == CURLE_COULDNT_CONNECT)
        snprintf(out, cap, "refused");
    else if (rc == CURLE_SSL_CONNECT_ERROR || rc == CURLE_PEER_FAILED_VERIFICATION ||
             rc == CURLE_SSL_CERTPROBLEM || rc == CURLE_SSL_CIPHER ||
             rc == CURLE_SSL_CACERT_BADFILE || rc == CURLE_SSL_ISSUER_ERROR)
        snprintf(out, cap, "TLS error");
    else
        snprintf(out, cap, "connection failed");
}

/* Opens `h`'s breaker (again: for twice as long, up to the retries' cap). */
static void breaker_open(struct host *h, long long now)
{
    long long cap = backoff_max_ms > breaker_ms ? backoff_max_ms : breaker_ms;
    long long ms = h->open_ms ? 2LL * h->open_ms : breaker_ms;
    if (ms > cap) ms = cap;
    h->open_ms = (int)ms;
    h->open_until = now + ms;
    h->probing = 0;
    char fails[16], ms_s[16];
    snprintf(fails, sizeof fails, "%d", h->failures);
    snprintf(ms_s, sizeof ms_s, "%lld", ms);
    log_kv(LOG_WARN, "webhook host skipped (circuit breaker open)", "host", h->name, "failures",
           fails, "ms", ms_s, NULL);
    /* An address's deliveries are put back as they try to connect to it (addr_take()). */
    if (!h->is_addr && store_webhook_host_defer(h->name, (int)ms) != STORE_OK)
        log_kv(LOG_WARN, "webhook host's deliveries not rescheduled", "host", h->name, NULL);
}

/* Records the outcome of transfer `x`, which ended with `rc`, and ends it. */
static void xfer_done(struct xfer *x, CURLcode rc, long long now)
{
    struct worker *w = x->w;
    struct host *h = x->h;
    const struct store_delivery *d = &x->d;
    if (x->addr_wait > 0 && !x->ah) {
        /* Its address was full or its breaker open: no attempt, back to the outbox. */
        if (h->open_until) h->probing = 0;
        put_back(&x->d, x->addr_wait);
        xfer_end(x);
        return;
    }
    long code = 0;
    curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &code);
    int answered = rc == CURLE_OK && code >= 100;
    int ok = answered && code >= 200 && code < 300;
    /* The name's breaker, and the address's when it dialled one. */
    struct host *both[2] = {h, x->ah};
    for (int i = 0; i < 2; i++) {
        struct host *b = both[i];
        if (!b) continue;
        b->last_ms = now;
        if (answered) { /* the host answers: its breaker closes */
            b->failures = 0;
            b->open_until = 0;
            b->open_ms = 0;
            b->probing = 0;
        } else {
            b->failures++;
            if (b->probing || (!b->open_until && b->failures >= breaker_failures))
                breaker_open(b, now);
        }
    }
    if (x->ah && x->ah->open_until > h->open_until) h = x->ah; /* the retry waits for both */
    int last = !ok && d->attempt >= max_attempts;
    long long delay = ok ? 0 : retry_delay(d->attempt, &w->rng);
    if (!ok && h->open_until > now + delay) delay = h->open_until - now;
    if (delay > 86400000) delay = 86400000;
    char err[ERROR_MAX] = "", seq[16], attempt[16];
    if (!ok) public_error(answered ? CURLE_OK : rc, code, x->blocked, err, sizeof err);
    snprintf(seq, sizeof seq, "%d", d->seq);
    snprintf(attempt, sizeof attempt, "%d", d->attempt);
    metrics_delivery(ok ? METRICS_DELIVERED : last ? METRICS_GAVE_UP : METRICS_RETRY);
    if (!ok) {
        char detail[CURL_ERROR_SIZE + INET6_ADDRSTRLEN + 96];
        if (x->blocked)
            snprintf(detail, sizeof detail, "address %s refused: %s", x->blocked_addr,
                     x->blocked_why);
        else if (!answered)
            snprintf(detail, sizeof detail, "%s",
                     x->curl_err[0] ? x->curl_err : curl_easy_strerror(rc));
        else
            snprintf(detail, sizeof detail, "HTTP %ld", code);
        log_kv(last ? LOG_WARN : LOG_INFO,
               last ? "webhook delivery given up" : "webhook delivery failed", "game", d->game,
               "seq", seq, "webhook", d->hook, "attempt", attempt, "host", d->host, "error", detail,
               NULL);
    } else {
        log_kv(LOG_DEBUG, "webhook delivered", "game", d->game, "seq", seq, "webhook", d->hook,
               NULL);
    }
    if (store_webhook_done(d->hook, d->kind, d->seq, ok, answered ? (int)code : 0, ok ? NULL : err,
                           (int)delay, last) != STORE_OK) {
        if (w->nunrec < UNRECORDED_MAX) {
            struct unrecorded *u = &w->unrec[w->nunrec++];
            snprintf(u->hook, sizeof u->hook, "%s", d->hook);
            snprintf(u->game, sizeof u->game, "%s", d->game);
            snprintf(u->kind, sizeof u->kind, "%s", d->kind);
            u->seq = d->seq;
            u->ok = ok;
            u->status = answered ? (int)code : 0;
            snprintf(u->err, sizeof u->err, "%s", ok ? "" : err);
            u->delay = (int)delay;
            u->last = last;
            u->until = now + LEASE_EXTRA / 2;
            w->unrec_next = now + UNRECORDED_RETRY_MS;
            log_kv(LOG_WARN, "webhook outcome not recorded yet (tried again)", "game", d->game,
                   "seq", seq, NULL);
        } else {
            log_kv(LOG_WARN, "webhook outcome not recorded (the lease runs out)", "game", d->game,
                   "seq", seq, NULL);
        }
    }
    xfer_end(x);
}

/* Tries again to record the outcomes the database did not take (struct unrecorded). */
static void unrecorded_retry(struct worker *w, long long now)
{
    if (!w->nunrec || now < w->unrec_next) return;
    w->unrec_next = now + UNRECORDED_RETRY_MS;
    int kept = 0;
    for (int i = 0; i < w->nunrec; i++) {
        struct unrecorded *u = &w->unrec[i];
        if (store_webhook_done(u->hook, u->kind, u->seq, u->ok, u->status, u->ok ? NULL : u->err,
                               u->delay, u->last) == STORE_OK)
            continue;
        if (now >= u->until) {
            char seq[16];
            snprintf(seq, sizeof seq, "%d", u->seq);
            log_kv(LOG_WARN, "webhook outcome not recorded (the lease runs out)", "game", u->game,
                   "seq", seq, NULL);
            continue;
        }
        if (kept != i) w->unrec[kept] = *u;
        kept++;
    }
    w->nunrec = kept;
}

/*
 * Claims what this worker has room for, skipping hosts it may not start now, and starts
 * it. Returns how many it claimed (0 also when the database did not answer).
 */
static int claim(struct worker *w, long long now)
{
    int room = in_flight_max - w->in_flight;
    if (room > CLAIM_MAX) room = CLAIM_MAX;
    if (room <= 0) return 0;
    hosts_prune(w, now);
    int nskip = 0;
    for (const struct host *h = w->hosts; h; h = h->next)
        nskip += !h->is_addr && host_blocked(h, now);
    const char **skip = malloc(sizeof *skip * (size_t)(nskip ? nskip : 1));
    struct store_delivery *d = malloc(sizeof *d * (size_t)room);
    int n = 0;
    if (!skip || !d) goto out;
    nskip = 0;
    for (const struct host *h = w->hosts; h; h = h->next)
        if (!h->is_addr && host_blocked(h, now)) skip[nskip++] = h->name;
    if (store_webhook_claim(timeout_ms + LEASE_EXTRA, skip, nskip, per_host, d, room, &n) !=
        STORE_OK)
        n = 0;
    for (int i = 0; i < n; i++) xfer_start(w, &d[i], now);
out:
    free(skip);
    free(d);
    return n;
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    unsigned long claimed_at_kick = 0;
    long long last_claim = 0;
    int again = 1; /* look for deliveries at once */
    while (!atomic_load(&stop_flag)) {
        long long now = mono_ms();
        pthread_mutex_lock(&wlock);
        unsigned long k = kicks;
        pthread_mutex_unlock(&wlock);
        unrecorded_retry(w, now);
        if (w->in_flight < in_flight_max && !atomic_load(&drain_flag) &&
            (again || k != claimed_at_kick || now - last_claim >= poll_ms)) {
            claimed_at_kick = k;
            last_claim = now;
            again = claim(w, now) > 0;
        }
        int running = 0;
        curl_multi_perform(w->multi, &running);
        CURLMsg *m;
        int left;
        while ((m = curl_multi_info_read(w->multi, &left)) != NULL) {
            if (m->msg != CURLMSG_DONE) continue;
            struct xfer *x = NULL;
            curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&x);
            CURLcode rc = m->data.result;
            if (x) xfer_done(x, rc, mono_ms());
            again = 1; /* a slot is free, maybe of a host that was full */
        }
        if (again && w->in_flight < in_flight_max && !atomic_load(&drain_flag)) continue;
        long long wait = poll_ms - (mono_ms() - last_claim);
        if (wait < 1) wait = 1;
        if (wait > poll_ms) wait = poll_ms;
        if (atomic_load(&drain_flag)) wait = poll_ms; /* no claims: transfers' sockets wake it */
        if (w->nunrec && wait > UNRECORDED_RETRY_MS) wait = UNRECORDED_RETRY_MS;
        curl_multi_poll(w->multi, NULL, 0, (int)wait, NULL);
    }
    /* Stopping: what is in flight is cut short and put back for any server, unattempted. */
    while (w->xfers) {
        struct xfer *x = w->xfers;
        if (store_webhook_defer(x->d.hook, x->d.kind, x->d.seq, 0) != STORE_OK)
            log_kv(LOG_WARN, "webhook delivery not put back (the lease runs out)", "game",
                   x->d.game, NULL);
        xfer_end(x);
    }
    hosts_prune(w, 1LL << 62);
    return NULL;
}

int webhook_start(const struct cfg *cfg)
{
    timeout_ms = cfg->webhook_timeout_ms;
    backoff_ms = cfg->webhook_backoff_ms;
    backoff_max_ms = cfg->webhook_backoff_max_ms;
    if (backoff_max_ms < backoff_ms) backoff_max_ms = backoff_ms;
    max_attempts = cfg->webhook_max_attempts;
    poll_ms = cfg->webhook_poll_ms;
    allow_private = cfg->webhook_allow_private;
    in_flight_max = cfg->webhook_in_flight;
    per_host = cfg->webhook_per_host;
    breaker_failures = cfg->webhook_breaker_failures;
    breaker_ms = cfg->webhook_breaker_ms;
    webhook_apps_set_public_url(cfg->public_url);
    atomic_store(&stop_flag, 0);
    atomic_store(&drain_flag, 0);
    int want = cfg->webhook_workers < MAX_WORKERS ? cfg->webhook_workers : MAX_WORKERS;
    pthread_mutex_lock(&wlock);
    for (nworkers = 0; nworkers < want; nworkers++) {
        struct worker *w = &workers[nworkers];
        memset(w, 0, sizeof *w);
        w->rng = (unsigned)(nworkers + 1) * 2654435761u ^ (unsigned)time(NULL);
        w->multi = curl_multi_init();
        if (!w->multi || pthread_create(&w->thread, NULL, worker_main, w) != 0) {
            if (w->multi) curl_multi_cleanup(w->multi);
            w->multi = NULL;
            pthread_mutex_unlock(&wlock);
            log_kv(LOG_ERROR, "cannot start a webhook worker", NULL);
            webhook_stop();
            return -1;
        }
    }
    pthread_mutex_unlock(&wlock);
    return 0;
}

void webhook_kick(void)
{
    pthread_mutex_lock(&wlock);
    kicks++;
    for (int i = 0; i < nworkers; i++)
        if (workers[i].multi) curl_multi_wakeup(workers[i].multi);
    pthread_mutex_unlock(&wlock);
}

void webhook_drain(void)
{
    atomic_store(&drain_flag, 1);
    webhook_kick();
}

int webhook_in_flight(void)
{
    return atomic_load(&total_in_flight);
}

void webhook_stop(void)
{
    atomic_store(&stop_flag, 1);
    webhook_kick();
    for (int i = 0; i < nworkers; i++) pthread_join(workers[i].thread, NULL);
    pthread_mutex_lock(&wlock);
    for (int i = 0; i < nworkers; i++) {
        curl_multi_cleanup(workers[i].multi);
        workers[i].multi = NULL;
    }
    nworkers = 0;
    pthread_mutex_unlock(&wlock);
}
