/* hook.c: the webhook receiver of the integration tests (hook.h). */
#include "hook.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "hard.h"

void header_of(const char *h, const char *name, char *dst, size_t cap)
{
    dst[0] = '\0';
    size_t nl = strlen(name);
    for (const char *p = h; p && *p; p = strstr(p, "\r\n") ? strstr(p, "\r\n") + 2 : NULL) {
        if (strncasecmp(p, name, nl) == 0 && p[nl] == ':') {
            const char *v = p + nl + 1;
            while (*v == ' ') v++;
            snprintf(dst, cap, "%.*s", (int)strcspn(v, "\r\n"), v);
            return;
        }
    }
}

long hook_read_request(int c, char *buf, size_t cap, int ms, char **body)
{
    size_t len = 0;
    char *end = NULL;
    long body_len = -1;
    for (;;) {
        struct pollfd pf = {c, POLLIN, 0};
        if (poll(&pf, 1, ms) <= 0) return -1;
        ssize_t n = read(c, buf + len, cap - 1 - len);
        if (n <= 0) return -1;
        len += (size_t)n;
        buf[len] = '\0';
        if (!end && (end = strstr(buf, "\r\n\r\n")) != NULL) {
            char cl[32];
            *end = '\0';
            header_of(buf, "Content-Length", cl, sizeof cl);
            *end = '\r';
            body_len = strtol(cl, NULL, 10);
        }
        if (end && (long)(len - (size_t)(end + 4 - buf)) >= body_len) break;
        if (len >= cap - 1) return -1;
    }
    *body = end + 4;
    return body_len;
}

/* Serves one connection. */
static void serve(struct listener *l, int c)
{
    char *buf = malloc(HOOK_BODY_MAX), *body;
    long body_len = buf ? hook_read_request(c, buf, HOOK_BODY_MAX, 5000, &body) : -1;
    if (body_len < 0) {
        free(buf);
        return;
    }
    char *end = body - 4;
    *end = '\0';
    int status;
    pthread_mutex_lock(&l->lock);
    if (l->fail_first > 0) {
        l->fail_first--;
        status = 500;
    } else {
        status = l->status ? l->status : 200;
    }
    int delay = l->delay_ms;
    if (l->n < HOOK_MAX) {
        struct hook_req *r = &l->req[l->n];
        memset(r, 0, sizeof *r);
        sscanf(buf, "POST %63s", r->path);
        header_of(buf, "X-Tilehall-Signature", r->sig, sizeof r->sig);
        header_of(buf, "X-Tilehall-Event", r->event, sizeof r->event);
        header_of(buf, "X-Tilehall-Delivery", r->delivery, sizeof r->delivery);
        header_of(buf, "X-Tilehall-Timestamp", r->ts, sizeof r->ts);
        header_of(buf, "Content-Type", r->ctype, sizeof r->ctype);
        header_of(buf, "webhook-id", r->wid, sizeof r->wid);
        header_of(buf, "webhook-timestamp", r->wts, sizeof r->wts);
        header_of(buf, "webhook-signature", r->wsig, sizeof r->wsig);
        char at[16];
        header_of(buf, "X-Tilehall-Attempt", at, sizeof at);
        r->attempt = (int)strtol(at, NULL, 10);
        r->answered = status;
        r->body = malloc((size_t)body_len + 1);
        if (r->body) {
            memcpy(r->body, end + 4, (size_t)body_len);
            r->body[body_len] = '\0';
            r->body_len = body_len;
        }
        l->n++;
    }
    pthread_mutex_unlock(&l->lock);
    if (delay) usleep((useconds_t)delay * 1000);
    char answer[128];
    int n = snprintf(answer, sizeof answer,
                     "HTTP/1.1 %d X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", status);
    ssize_t w = write(c, answer, (size_t)n);
    (void)w;
    free(buf);
}

static void *listener_main(void *p)
{
    struct listener *l = p;
    while (!atomic_load(&l->stop)) {
        int c = hard_accept(l->fd, 100);
        if (c < 0) continue;
        pthread_mutex_lock(&l->lock);
        l->accepted++;
        int shut = l->close_all;
        pthread_mutex_unlock(&l->lock);
        if (!shut) serve(l, c);
        close(c);
    }
    return NULL;
}

struct listener *listener_start(void)
{
    struct listener *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    l->fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t alen = sizeof a;
    int one = 1;
    setsockopt(l->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (l->fd < 0 || bind(l->fd, (struct sockaddr *)&a, sizeof a) ||
        getsockname(l->fd, (struct sockaddr *)&a, &alen) || listen(l->fd, 16)) {
        if (l->fd >= 0) close(l->fd);
        free(l);
        return NULL;
    }
    l->port = ntohs(a.sin_port);
    pthread_mutex_init(&l->lock, NULL);
    if (pthread_create(&l->thread, NULL, listener_main, l) != 0) {
        close(l->fd);
        free(l);
        return NULL;
    }
    return l;
}

void listener_stop(struct listener *l)
{
    if (!l) return;
    atomic_store(&l->stop, 1);
    pthread_join(l->thread, NULL);
    close(l->fd);
    for (int i = 0; i < l->n && i < HOOK_MAX; i++) free(l->req[i].body);
    pthread_mutex_destroy(&l->lock);
    free(l);
}

int listener_wait_ok(struct listener *l, int n, long ms)
{
    for (long t = 0; t <= ms; t += 20) {
        pthread_mutex_lock(&l->lock);
        int ok = 0;
        for (int i = 0; i < l->n; i++) ok += l->req[i].answered / 100 == 2;
        pthread_mutex_unlock(&l->lock);
        if (ok >= n) return 1;
        usleep(20000);
    }
    return 0;
}

int listener_count(struct listener *l)
{
    pthread_mutex_lock(&l->lock);
    int n = l->n;
    pthread_mutex_unlock(&l->lock);
    return n;
}

int hook_signature_ok(const char *secret, const struct hook_req *r)
{
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (!HMAC(EVP_sha256(), secret, (int)strlen(secret), (const unsigned char *)r->body,
              (size_t)r->body_len, mac, &n))
        return 0;
    char hex[2 * EVP_MAX_MD_SIZE + 8] = "sha256=";
    for (unsigned i = 0; i < n; i++) snprintf(hex + 7 + 2 * i, 3, "%02x", mac[i]);
    return strcmp(hex, r->sig) == 0;
}
