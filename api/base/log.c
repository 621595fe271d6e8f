/* log.c: JSON lines on stderr. */
#include "log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "utf8.h"

static enum log_level min_level = LOG_INFO;
static const char *const level_names[] = {"debug", "info", "warn", "error"};
static _Thread_local const char *request_id; /* the thread's current request, or NULL */

void log_set_request_id(const char *id)
{
    request_id = id;
}

const char *log_request_id(void)
{
    return request_id;
}

int log_set_level(const char *name)
{
    for (int i = 0; i < 4; i++) {
        if (strcmp(name, level_names[i]) == 0) {
            min_level = (enum log_level)i;
            return 0;
        }
    }
    return -1;
}

int log_enabled(enum log_level lvl)
{
    return lvl >= min_level;
}

#define LOG_LINE_MAX 2048 /* bytes of one log line; longer values are cut short */
#define LOG_LINE_END 8    /* kept free for closing a cut string and the line */

/* A log line being built. */
struct line {
    char buf[LOG_LINE_MAX]; /* the text */
    size_t n;               /* bytes in buf */
};

/* Appends `len` bytes of `s` if they fit before the reserve; returns 0 or -1. */
static int put(struct line *l, const char *s, size_t len)
{
    if (l->n + len > LOG_LINE_MAX - LOG_LINE_END) return -1;
    memcpy(l->buf + l->n, s, len);
    l->n += len;
    return 0;
}

/* Appends `s` as a JSON string literal, cut short (but closed, and on a character's
 * boundary) when the line is full; bytes that are not UTF-8 become \ufffd, so the line
 * stays valid UTF-8 JSON whatever a client sent. Returns 0, or -1 when it was cut or did
 * not fit at all. */
static int put_json_string(struct line *l, const char *s)
{
    if (put(l, "\"", 1)) return -1;
    size_t used;
    l->n += utf8_json_escape(s, l->buf + l->n, LOG_LINE_MAX - LOG_LINE_END - l->n, &used);
    l->buf[l->n++] = '"'; /* the reserve has room for it */
    return s[used] ? -1 : 0;
}

void log_kv(enum log_level lvl, const char *msg, ...)
{
    if (!log_enabled(lvl)) return;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    struct line l;
    l.n = strftime(l.buf, sizeof l.buf, "{\"ts\":\"%Y-%m-%dT%H:%M:%S", &tm);
    l.n += (size_t)snprintf(l.buf + l.n, sizeof l.buf - l.n,
                            ".%03ldZ\",\"level\":\"%s\",\"msg\":", ts.tv_nsec / 1000000,
                            level_names[lvl]);
    (void)put_json_string(&l, msg);
    if (request_id) {
        size_t mark = l.n;
        static const char key[] = ",\"request_id\":";
        if (put(&l, key, sizeof key - 1) || put_json_string(&l, request_id)) l.n = mark;
    }
    va_list ap;
    va_start(ap, msg);
    for (;;) {
        const char *k = va_arg(ap, const char *);
        if (!k) break;
        const char *v = va_arg(ap, const char *);
        if (!v) continue;
        size_t mark = l.n;
        if (put(&l, ",", 1) || put_json_string(&l, k) || put(&l, ":", 1)) {
            l.n = mark; /* no key without its value */
            break;
        }
        (void)put_json_string(&l, v);
    }
    va_end(ap);
    l.buf[l.n++] = '}';
    l.buf[l.n++] = '\n';
    /* One write per line: lines of several threads never interleave (no lock needed). */
    size_t off = 0;
    while (off < l.n) {
        ssize_t w = write(STDERR_FILENO, l.buf + off, l.n - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        off += (size_t)w;
    }
}
