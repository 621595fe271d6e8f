/* json_out.c: a compact JSON writer: no tree, one buffer, integers without printf. */
#include "json_out.h"

#include <string.h>

void json_out_init(struct json_out *o)
{
    buf_init(&o->buf, JSON_OUT_MAX);
    o->comma = 0;
}

void json_out_free(struct json_out *o)
{
    buf_free(&o->buf);
    o->comma = 0;
}

char *json_out_take(struct json_out *o, size_t *len)
{
    o->comma = 0;
    return buf_take(&o->buf, len);
}

/*
 * Each piece is written straight into the buffer's room (buf_room(), then buf_added()). A
 * failure is remembered by the buffer: the calls after it do nothing, json_out_take()
 * reports it.
 */

void json_out_reserve(struct json_out *o, size_t n)
{
    (void)!buf_room(&o->buf, n);
}

/* Appends the byte `c`. */
static void put1(struct json_out *o, char c)
{
    char *d = buf_room(&o->buf, 1);
    if (!d) return;
    *d = c;
    buf_added(&o->buf, 1);
}

/* Appends `n` bytes, with the comma a value needs. */
static void value(struct json_out *o, const char *s, size_t n)
{
    char *d = buf_room(&o->buf, n + (o->comma ? 1 : 0)), *e = d;
    if (!d) return;
    if (o->comma) *e++ = ',';
    memcpy(e, s, n);
    buf_added(&o->buf, (size_t)(e - d) + n);
    o->comma = 1;
}

/* Opens an object or an array with `c`: a value, whose first member needs no comma. */
static void open_with(struct json_out *o, char c)
{
    value(o, &c, 1);
    o->comma = 0;
}

/* Closes it with `c`: a value written after it needs a comma. */
static void close_with(struct json_out *o, char c)
{
    put1(o, c);
    o->comma = 1;
}

void json_out_begin_object(struct json_out *o)
{
    open_with(o, '{');
}

void json_out_end_object(struct json_out *o)
{
    close_with(o, '}');
}

void json_out_begin_array(struct json_out *o)
{
    open_with(o, '[');
}

void json_out_end_array(struct json_out *o)
{
    close_with(o, ']');
}

void json_out_key(struct json_out *o, const char *key)
{
    size_t n = strlen(key);
    char *d = buf_room(&o->buf, n + 3 + (o->comma ? 1 : 0)), *e = d;
    if (!d) return;
    if (o->comma) *e++ = ',';
    *e++ = '"';
    memcpy(e, key, n);
    e += n;
    *e++ = '"';
    *e++ = ':';
    buf_added(&o->buf, (size_t)(e - d));
    o->comma = 0;
}

void json_out_int(struct json_out *o, long long v)
{
    char digits[24], *p = digits + sizeof digits;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) *--p = '-';
    value(o, p, (size_t)(digits + sizeof digits - p));
}

/* Bytes of byte `c` in a JSON string: 1, 2 (\" \\ \b \f \n \r \t) or 6 (\u00XX). */
static size_t escaped_len(unsigned char c)
{
    if (c == '"' || c == '\\') return 2;
    if (c >= 0x20) return 1;
    return c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t' ? 2 : 6;
}

void json_out_string(struct json_out *o, const char *s)
{
    if (!s) {
        json_out_null(o);
        return;
    }
    static const char hex[] = "0123456789abcdef";
    /* The exact size first, so that only what is written counts against the limit. */
    size_t n = 0, len = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++, len++) n += escaped_len(*p);
    char *d = buf_room(&o->buf, n + 2 + (o->comma ? 1 : 0)), *start = d;
    if (!d) return;
    if (o->comma) *d++ = ',';
    *d++ = '"';
    if (n == len) {
        /* Nothing to escape (the API's names, most texts): copied as it is. */
        memcpy(d, s, len);
        d[len] = '"';
        buf_added(&o->buf, (size_t)(d - start) + len + 1);
        o->comma = 1;
        return;
    }
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned char c = *p;
        if (c == '"' || c == '\\') {
            *d++ = '\\';
            *d++ = (char)c;
        } else if (c < 0x20) {
            *d++ = '\\';
            switch (c) {
            case '\b':
                *d++ = 'b';
                break;
            case '\f':
                *d++ = 'f';
                break;
            case '\n':
                *d++ = 'n';
                break;
            case '\r':
                *d++ = 'r';
                break;
            case '\t':
                *d++ = 't';
                break;
            default:
                *d++ = 'u';
                *d++ = '0';
                *d++ = '0';
                *d++ = hex[c >> 4];
                *d++ = hex[c & 15];
            }
        } else {
            *d++ = (char)c;
        }
    }
    *d++ = '"';
    buf_added(&o->buf, (size_t)(d - start));
    o->comma = 1;
}

void json_out_null(struct json_out *o)
{
    value(o, "null", 4);
}

void json_out_bool(struct json_out *o, int v)
{
    if (v)
        value(o, "true", 4);
    else
        value(o, "false", 5);
}

void json_out_raw(struct json_out *o, const char *json, size_t len)
{
    value(o, json, len);
}

size_t json_out_len(const struct json_out *o)
{
    return o->buf.len;
}

void json_out_repeat(struct json_out *o, size_t from, size_t len)
{
    if (from > o->buf.len || len > o->buf.len - from) {
        o->buf.err = BUF_NOMEM; /* (a writer's mistake: never a wrong document) */
        return;
    }
    char *d = buf_room(&o->buf, len); /* (may move the text: the source is found after) */
    if (!d) return;
    memcpy(d, o->buf.p + from, len);
    buf_added(&o->buf, len);
    o->comma = 1;
}

void json_out_kint(struct json_out *o, const char *key, long long v)
{
    json_out_key(o, key);
    json_out_int(o, v);
}

void json_out_kint_or_null(struct json_out *o, const char *key, int present, long long v)
{
    json_out_key(o, key);
    if (present)
        json_out_int(o, v);
    else
        json_out_null(o);
}

void json_out_kstring(struct json_out *o, const char *key, const char *s)
{
    json_out_key(o, key);
    json_out_string(o, s);
}
