/* webhook.c: the delivery workers (libcurl), URL checks, secrets and signatures.
 *
 * Each worker claims due deliveries from the outbox (store_webhook_claim: rows other
 * servers hold are skipped, and a claimed row is leased so that no other server takes it
 * while its POST is in flight), POSTs each, and records the outcome. It sleeps until a
 * commit kicks it (webhook_kick: after this server's commit that wrote deliveries, or on a
 * notification of another server's) or WEBHOOK_POLL_MS passes (retries that fall due, and
 * deliveries of other servers' commits that no notification announced). Unless
 * WEBHOOK_ALLOW_PRIVATE=1, a connection to a loopback, private, link-local or multicast address is
 * refused (checked on the address actually dialled), no proxy is used and redirects are not
 * followed, so that players cannot make the server call into its own network.
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
#include "req.h"
#include "store.h"

#define MAX_WORKERS 32
#define CLAIM_BATCH 4     /* deliveries one worker claims at once */
#define LEASE_EXTRA 30000 /* a claim's lease: the attempt's timeout plus this (ms) */
#define ERROR_MAX   200   /* bytes of an error kept */

static int timeout_ms = 10000;
static int backoff_ms = 2000;
static int backoff_max_ms = 600000;
static int max_attempts = 8;
static int poll_ms = 1000;
static int allow_private;

static pthread_t workers[MAX_WORKERS];
static int nworkers;
static atomic_int stop_flag;
static pthread_mutex_t wlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wcond = PTHREAD_COND_INITIALIZER;
static unsigned long kicks; /* guarded by wlock: grows with every kick */

static int private_address(const struct sockaddr *sa);

/* 1 when `host` (as in a URL: IPv6 in brackets) is an IP address that private_address()
 * refuses; names are checked when they are resolved, at each connection. */
static int literal_private(const char *host)
{
    char h[64];
    size_t n = strlen(host);
    if (host[0] == '[' && n > 2 && host[n - 1] == ']' && n - 2 < sizeof h) {
        memcpy(h, host + 1, n - 2);
        h[n - 2] = '\0';
        struct sockaddr_in6 a6 = {0};
        a6.sin6_family = AF_INET6;
        return inet_pton(AF_INET6, h, &a6.sin6_addr) == 1 &&
               private_address((const struct sockaddr *)&a6);
    }
    struct sockaddr_in a4 = {0};
    a4.sin_family = AF_INET;
    return inet_pton(AF_INET, host, &a4.sin_addr) == 1 &&
           private_address((const struct sockaddr *)&a4);
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
    } else if (!allow_private && literal_private(host)) {
        snprintf(why, cap, "The URL's host is a loopback, private or link-local address.");
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

/* 1 for an address a webhook may not reach unless WEBHOOK_ALLOW_PRIVATE=1. */
static int private_address(const struct sockaddr *sa)
{
    if (sa->sa_family == AF_INET) {
        uint32_t a = ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr);
        return (a >> 24) == 0 || (a >> 24) == 10 || (a >> 24) == 127 ||
               (a >> 16) == 0xa9fe ||              /* 169.254/16 */
               (a >> 20) == 0xac1 ||               /* 172.16/12 */
               (a >> 16) == 0xc0a8 ||              /* 192.168/16 */
               (a >> 22) == (0x64400000u >> 22) || /* 100.64/10 */
               (a >> 28) >= 0xe;                   /* multicast, reserved, broadcast */
    }
    if (sa->sa_family == AF_INET6) {
        const uint8_t *b = ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;
        static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
        if (memcmp(b, mapped, 12) == 0) {
            struct sockaddr_in v4 = {0};
            v4.sin_family = AF_INET;
            memcpy(&v4.sin_addr, b + 12, 4);
            return private_address((const struct sockaddr *)&v4);
        }
        int zero = 1;
        for (int i = 0; i < 15; i++) zero &= b[i] == 0;
        return (zero && (b[15] == 0 || b[15] == 1)) ||    /* :: and ::1 */
               (b[0] & 0xfe) == 0xfc ||                   /* fc00::/7 */
               (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) || /* fe80::/10 */
               b[0] == 0xff;                              /* multicast */
    }
    return 1;
}

/* One attempt's state for libcurl's callbacks. */
struct attempt {
    int blocked; /* 1 when the address was refused */
};

static curl_socket_t open_socket(void *clientp, curlsocktype purpose, struct curl_sockaddr *addr)
{
    struct attempt *at = clientp;
    if (purpose == CURLSOCKTYPE_IPCXN && !allow_private && private_address(&addr->addr)) {
        at->blocked = 1;
        return CURL_SOCKET_BAD;
    }
    return socket(addr->family, addr->socktype, addr->protocol);
}

static size_t discard(char *p, size_t size, size_t n, void *ud)
{
    (void)p;
    (void)ud;
    return size * n;
}

static int on_progress(void *ud, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
    (void)ud;
    (void)dt;
    (void)dn;
    (void)ut;
    (void)un;
    return atomic_load(&stop_flag) ? 1 : 0; /* nonzero aborts the transfer */
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

/*
 * POSTs delivery `d` with handle `c`. Returns 1 when answered 2xx; else 0 with the HTTP
 * status in *status (0: none) and what went wrong in `err`.
 */
static int post(CURL *c, const struct store_delivery *d, int *status, char *err, size_t cap)
{
    *status = 0;
    err[0] = '\0';
    cJSON *ev = cJSON_Parse(d->payload);
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(ev, "type");
    char type_h[96];
    snprintf(type_h, sizeof type_h, "X-Tilehall-Event: %s",
             cJSON_IsString(type) ? type->valuestring : "unknown");
    cJSON_Delete(ev);
    long long ts = (long long)time(NULL);
    size_t blen = strlen(d->payload) + 96;
    char *body = malloc(blen);
    if (!body) {
        snprintf(err, cap, "out of memory");
        return 0;
    }
    int n = snprintf(body, blen, "{\"game\":\"%s\",\"timestamp\":%lld,\"event\":%s}", d->game, ts,
                     d->payload);
    char sig[72], sig_h[96], delivery_h[400], ts_h[64], attempt_h[64];
    if (n < 0 || (size_t)n >= blen || webhook_sign(d->secret, body, (size_t)n, sig)) {
        free(body);
        snprintf(err, cap, "cannot sign the body");
        return 0;
    }
    snprintf(sig_h, sizeof sig_h, "X-Tilehall-Signature: %s", sig);
    snprintf(delivery_h, sizeof delivery_h, "X-Tilehall-Delivery: %s:%d", d->game, d->seq);
    snprintf(ts_h, sizeof ts_h, "X-Tilehall-Timestamp: %lld", ts);
    snprintf(attempt_h, sizeof attempt_h, "X-Tilehall-Attempt: %d", d->attempt);
    struct curl_slist *h = NULL;
    const char *lines[] = {
        "Content-Type: application/json", "Expect:", sig_h, type_h, delivery_h, ts_h, attempt_h};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        struct curl_slist *nh = curl_slist_append(h, lines[i]);
        if (!nh) break;
        h = nh;
    }
    struct attempt at = {0};
    char curl_err[CURL_ERROR_SIZE] = "";
    curl_easy_reset(c);
    curl_easy_setopt(c, CURLOPT_URL, d->url);
    curl_easy_setopt(c, CURLOPT_POST, 1L);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)n);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
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
    curl_easy_setopt(c, CURLOPT_OPENSOCKETDATA, &at);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, curl_err);
    CURLcode rc = curl_easy_perform(c);
    long code = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
    curl_slist_free_all(h);
    free(body);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, NULL);
    *status = (int)code;
    if (rc == CURLE_OK && code >= 200 && code < 300) return 1;
    if (at.blocked)
        snprintf(err, cap, "the address is private or loopback (WEBHOOK_ALLOW_PRIVATE=0)");
    else if (rc == CURLE_ABORTED_BY_CALLBACK)
        snprintf(err, cap, "interrupted: the server stopped");
    else if (rc != CURLE_OK)
        snprintf(err, cap, "%s", curl_err[0] ? curl_err : curl_easy_strerror(rc));
    else
        snprintf(err, cap, "HTTP %ld", code);
    return 0;
}

/* Waits for a kick or poll_ms, unless one came since `seen`. */
static void idle(unsigned long seen)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += poll_ms / 1000;
    ts.tv_nsec += (long)(poll_ms % 1000) * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&wlock);
    while (kicks == seen && !atomic_load(&stop_flag))
        if (pthread_cond_timedwait(&wcond, &wlock, &ts) != 0) break;
    pthread_mutex_unlock(&wlock);
}

static void *worker_main(void *arg)
{
    unsigned rng = (unsigned)(uintptr_t)arg * 2654435761u ^ (unsigned)time(NULL);
    CURL *c = curl_easy_init();
    if (!c) {
        log_kv(LOG_ERROR, "webhook worker: no curl handle", NULL);
        return NULL;
    }
    while (!atomic_load(&stop_flag)) {
        pthread_mutex_lock(&wlock);
        unsigned long seen = kicks;
        pthread_mutex_unlock(&wlock);
        struct store_delivery d[CLAIM_BATCH];
        int n = 0;
        enum store_status s = store_webhook_claim(timeout_ms + LEASE_EXTRA, d, CLAIM_BATCH, &n);
        if (s != STORE_OK || n == 0) {
            idle(seen);
            continue;
        }
        for (int i = 0; i < n; i++) {
            int status = 0;
            char err[ERROR_MAX];
            char seq[16];
            snprintf(seq, sizeof seq, "%d", d[i].seq);
            int ok = post(c, &d[i], &status, err, sizeof err);
            int last = !ok && d[i].attempt >= max_attempts;
            int delay = ok ? 0 : retry_delay(d[i].attempt, &rng);
            metrics_delivery(ok ? METRICS_DELIVERED : last ? METRICS_GAVE_UP : METRICS_RETRY);
            if (!ok)
                log_kv(last ? LOG_WARN : LOG_INFO,
                       last ? "webhook delivery given up" : "webhook delivery failed", "game",
                       d[i].game, "seq", seq, "error", err, NULL);
            else
                log_kv(LOG_DEBUG, "webhook delivered", "game", d[i].game, "seq", seq, NULL);
            if (store_webhook_done(d[i].game, d[i].seq, ok, status, ok ? NULL : err, delay, last) !=
                STORE_OK)
                log_kv(LOG_WARN, "webhook outcome not recorded (the lease runs out)", "game",
                       d[i].game, "seq", seq, NULL);
            store_delivery_free(&d[i]);
        }
    }
    curl_easy_cleanup(c);
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
    atomic_store(&stop_flag, 0);
    int want = cfg->webhook_workers < MAX_WORKERS ? cfg->webhook_workers : MAX_WORKERS;
    for (nworkers = 0; nworkers < want; nworkers++) {
        if (pthread_create(&workers[nworkers], NULL, worker_main,
                           (void *)(uintptr_t)(nworkers + 1)) != 0) {
            log_kv(LOG_ERROR, "cannot start a webhook worker", NULL);
            webhook_stop();
            return -1;
        }
    }
    return 0;
}

void webhook_kick(void)
{
    pthread_mutex_lock(&wlock);
    kicks++;
    pthread_cond_broadcast(&wcond);
    pthread_mutex_unlock(&wlock);
}

void webhook_stop(void)
{
    atomic_store(&stop_flag, 1);
    webhook_kick();
    for (int i = 0; i < nworkers; i++) pthread_join(workers[i], NULL);
    nworkers = 0;
}
