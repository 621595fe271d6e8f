/* json_out.c: a compact JSON writer: no tree, one buffer, integers without printf. */
#include "json_out.h"

#include <stdlib.h>
#include <string.h>

#define FIRST_CAP 4096 /* bytes of the first allocation */

void json_out_init(struct json_out *o)
{
    memset(o, 0, sizeof *o);
}

void json_out_free(struct json_out *o)
{
    free(o->buf);
    json_out_init(o);
}

char *json_out_take(struct json_out *o, size_t *len)
{
    char *s = o->failed ? NULL : o->buf;
    if (!s) {
        free(o->buf);
        s = o->failed ? NULL : calloc(1, 1);
    }
    if (len) *len = s ? o->len : 0;
    json_out_init(o);
    return s;
}

/* Makes room for `n` more bytes and the NUL. Returns 0, or -1 (failed) when out of memory. */
static int reserve(struct json_out *o, size_t n)
{
    if (o->failed) return -1;
    if (o->len + n + 1 <= o->cap) return 0;
    size_t cap = o->cap ? o->cap : FIRST_CAP;
    while (cap < o->len + n + 1) cap *= 2;
    char *nb = realloc(o->buf, cap);
    if (!nb) {
        o->failed = 1;
        return -1;
    }
    o->buf = nb;
    o->cap = cap;
    return 0;
}

/* Appends `n` bytes (room reserved by the caller). */
static void put(struct json_out *o, const char *s, size_t n)
{
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len] = '\0';
}

/* Appends `n` bytes, with the comma a value needs. */
static void value(struct json_out *o, const char *s, size_t n)
{
    if (reserve(o, n + 1)) return;
    if (o->comma) put(o, ",", 1);
    put(o, s, n);
    o->comma = 1;
}

void json_out_begin_object(struct json_out *o)
{
    value(o, "{", 1);
    o->comma = 0;
}

void json_out_end_object(struct json_out *o)
{
    if (reserve(o, 1)) return;
    put(o, "}", 1);
    o->comma = 1;
}

void json_out_begin_array(struct json_out *o)
{
    value(o, "[", 1);
    o->comma = 0;
}

void json_out_end_array(struct json_out *o)
{
    if (reserve(o, 1)) return;
    put(o, "]", 1);
    o->comma = 1;
}

void json_out_key(struct json_out *o, const char *key)
{
    size_t n = strlen(key);
    if (reserve(o, n + 4)) return;
    if (o->comma) put(o, ",", 1);
    put(o, "\"", 1);
    put(o, key, n);
    put(o, "\":", 2);
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

void json_out_string(struct json_out *o, const char *s)
{
    if (!s) {
        json_out_null(o);
        return;
    }
    static const char hex[] = "0123456789abcdef";
    size_t n = strlen(s);
    /* At most 6 bytes per input byte (\u00XX), the quotes and a comma. */
    if (reserve(o, 6 * n + 3)) return;
    if (o->comma) put(o, ",", 1);
    char *d = o->buf + o->len;
    *d++ = '"';
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
    *d = '\0';
    o->len = (size_t)(d - o->buf);
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

void json_out_kint(struct json_out *o, const char *key, long long v)
{
    json_out_key(o, key);
    json_out_int(o, v);
}

void json_out_kstring(struct json_out *o, const char *key, const char *s)
{
    json_out_key(o, key);
    json_out_string(o, s);
}
