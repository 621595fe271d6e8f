/* buf.h: a growable text buffer with a size limit (every text the service builds). */
#ifndef API_BUF_H
#define API_BUF_H

#include <assert.h>
#include <stdarg.h>
#include <stddef.h>

#include "nodiscard.h"

/* Why an append failed (BUF_OK: it did not). */
enum buf_status {
    BUF_OK = 0,     /* appended */
    BUF_NOMEM,      /* out of memory */
    BUF_TOO_BIG,    /* the text would pass the buffer's limit */
    BUF_BAD_FORMAT, /* vsnprintf() failed (an encoding error) */
};

/*
 * A text being written: heap, NUL-terminated, at most `max` bytes (the NUL not counted).
 * The first failed append is remembered: it and every append after it add nothing and
 * return it, the text stays what it was before that append, and buf_take() gives NULL,
 * until buf_reset() or buf_free(). A writer may thus append without looking and check
 * once at the end. The fields are read through the functions below.
 */
struct buf {
    char *p;             /* the text, NULL until the first byte is appended */
    size_t len;          /* bytes of text */
    size_t cap;          /* bytes allocated (the NUL included), at most max + 1 */
    size_t max;          /* bytes of text at most */
    enum buf_status err; /* the first failure since init or reset, else BUF_OK */
};

/* An empty buffer that will hold at most `max` bytes (0 to SIZE_MAX / 2; 0 makes a buffer
 * that takes nothing but empty appends). Allocates nothing. */
void buf_init(struct buf *b, size_t max);

/* Frees the text and empties `b` (its limit stays: it may be used again); b may be NULL. */
void buf_free(struct buf *b);

/* Empties `b` and forgets a failure; keeps its memory for the next text. */
void buf_reset(struct buf *b);

/*
 * Appends `n` bytes of `data` (which may hold NUL bytes). Returns BUF_OK; or BUF_TOO_BIG
 * when the text would pass the limit, BUF_NOMEM when memory runs out, or the failure
 * remembered from before, each with the text unchanged.
 */
enum buf_status buf_add(struct buf *b, const void *data, size_t n) NODISCARD;

/* Appends the NUL-terminated string `s`, as buf_add() does. */
enum buf_status buf_adds(struct buf *b, const char *s) NODISCARD;

/*
 * Appends the text that printf() would write for `fmt` and its arguments. Fails as
 * buf_add() does, or with BUF_BAD_FORMAT when vsnprintf() fails; the text is then
 * unchanged (never a part of the formatted text).
 */
enum buf_status buf_addf(struct buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3))) NODISCARD;

/* buf_addf() for a writer that checks once at the end: a failure is remembered by `b`
 * (buf_err(), buf_take()), not returned. */
void buf_putf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* buf_addf() with a va_list (which it uses up, as vsnprintf() does). */
enum buf_status buf_vaddf(struct buf *b, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0))) NODISCARD;

/* Grows the allocation of `b` to hold `n` more bytes and the NUL within its limit (the
 * text unchanged): BUF_OK, or the failure, remembered as buf_add() does. */
enum buf_status buf_grow(struct buf *b, size_t n) NODISCARD;

/*
 * Makes room for `n` more bytes and returns where they go (just after the text), for a
 * writer that puts them there itself and then counts them with buf_added(). NULL when the
 * text would pass the limit or memory runs out, remembered as buf_add() does. The text is
 * unchanged either way. Inline: the JSON writer calls it for every piece it writes.
 */
static inline char *buf_room(struct buf *b, size_t n) NODISCARD;
static inline char *buf_room(struct buf *b, size_t n)
{
    if (b->err) return NULL;
    /* n more bytes and the NUL fit the allocation (cap 0, nothing allocated: never) */
    if (!(n < b->cap - b->len) && buf_grow(b, n)) return NULL;
    return b->p + b->len;
}

/* Counts `n` bytes written at buf_room() as text (at most as many as room was made for). */
static inline void buf_added(struct buf *b, size_t n)
{
    assert(n < b->cap - b->len);
    b->len += n;
    b->p[b->len] = '\0';
}

/* Shortens the text to its first `len` bytes (at most buf_len()): undoes what was appended
 * since buf_len() was `len`. A remembered failure stays. */
void buf_truncate(struct buf *b, size_t len);

/*
 * Hands the text over: a malloc'd NUL-terminated string of *len bytes (len may be NULL)
 * that the caller frees ("" when nothing was appended), or NULL after a failure (or when
 * memory runs out). `b` is empty afterwards, its failure forgotten, its limit kept.
 */
char *buf_take(struct buf *b, size_t *len) NODISCARD;

/* The text (NUL-terminated, "" while empty), valid until the next call that changes `b`. */
const char *buf_ptr(const struct buf *b);

/* Bytes of text. */
size_t buf_len(const struct buf *b);

/* The failure remembered since buf_init() or buf_reset(), else BUF_OK. */
enum buf_status buf_err(const struct buf *b);

#endif
