/* buf.c: a growable text buffer with a size limit: doubling growth, capped at the limit. */
#include "buf.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIRST_CAP 1024 /* bytes of the first allocation (less when the limit is lower) */

void buf_init(struct buf *b, size_t max)
{
    assert(max <= SIZE_MAX / 2);
    b->p = NULL;
    b->len = 0;
    b->cap = 0;
    b->max = max;
    b->err = BUF_OK;
}

void buf_free(struct buf *b)
{
    if (!b) return;
    free(b->p);
    buf_init(b, b->max);
}

void buf_reset(struct buf *b)
{
    b->len = 0;
    b->err = BUF_OK;
    if (b->p) b->p[0] = '\0';
}

/* Records failure `st` (the first one stays) and returns it. */
static enum buf_status fail(struct buf *b, enum buf_status st)
{
    if (!b->err) b->err = st;
    return st;
}

enum buf_status buf_grow(struct buf *b, size_t n)
{
    if (n > b->max - b->len) return fail(b, BUF_TOO_BIG);
    size_t need = b->len + n + 1; /* at most max + 1: no overflow (max <= SIZE_MAX / 2) */
    size_t cap = b->cap ? b->cap : FIRST_CAP;
    while (cap < need) cap *= 2; /* cap < need <= SIZE_MAX / 2 + 1: no overflow */
    if (cap > b->max + 1) cap = b->max + 1;
    char *p = realloc(b->p, cap);
    if (!p) return fail(b, BUF_NOMEM);
    if (!b->p) p[0] = '\0';
    b->p = p;
    b->cap = cap;
    return BUF_OK;
}

/* Whether `n` more bytes and the NUL fit the allocation (which is within the limit). */
static int fits(const struct buf *b, size_t n)
{
    return n < b->cap - b->len; /* cap 0 (nothing allocated): never */
}

enum buf_status buf_add(struct buf *b, const void *data, size_t n)
{
    if (b->err || !n) return b->err;
    if (!fits(b, n)) {
        enum buf_status st = buf_grow(b, n);
        if (st) return st;
    }
    memcpy(b->p + b->len, data, n);
    b->len += n;
    b->p[b->len] = '\0';
    return BUF_OK;
}

enum buf_status buf_adds(struct buf *b, const char *s)
{
    return buf_add(b, s, strlen(s));
}

enum buf_status buf_vaddf(struct buf *b, const char *fmt, va_list ap)
{
    if (b->err) return b->err;
    va_list again;
    va_copy(again, ap);
    /* First into the room there is (often enough), else measured, grown, written again. */
    size_t room = b->p ? b->cap - b->len : 0;
    int n = vsnprintf(b->p ? b->p + b->len : NULL, room, fmt, ap);
    enum buf_status st = BUF_OK;
    if (n < 0) {
        st = fail(b, BUF_BAD_FORMAT);
    } else if ((size_t)n >= room) {
        st = buf_grow(b, (size_t)n);
        if (!st && vsnprintf(b->p + b->len, (size_t)n + 1, fmt, again) != n)
            st = fail(b, BUF_BAD_FORMAT);
    } /* else it fitted the allocation, which never passes the limit */
    va_end(again);
    if (st == BUF_OK)
        b->len += (size_t)n;
    else if (b->p)
        b->p[b->len] = '\0'; /* drop whatever vsnprintf() wrote past the text */
    return st;
}

enum buf_status buf_addf(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    enum buf_status st = buf_vaddf(b, fmt, ap);
    va_end(ap);
    return st;
}

void buf_putf(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (buf_vaddf(b, fmt, ap)) {
        /* remembered by b */
    }
    va_end(ap);
}

void buf_truncate(struct buf *b, size_t len)
{
    assert(len <= b->len);
    b->len = len;
    if (b->p) b->p[len] = '\0';
}

char *buf_take(struct buf *b, size_t *len)
{
    char *s = b->err ? NULL : b->p;
    size_t n = b->len;
    if (!s) {
        free(b->p);
        s = b->err ? NULL : calloc(1, 1);
        n = 0;
    }
    if (len) *len = s ? n : 0;
    buf_init(b, b->max);
    return s;
}

const char *buf_ptr(const struct buf *b)
{
    return b->p ? b->p : "";
}

size_t buf_len(const struct buf *b)
{
    return b->len;
}

enum buf_status buf_err(const struct buf *b)
{
    return b->err;
}
