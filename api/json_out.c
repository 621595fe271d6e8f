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

/* Appends `n` bytes. A failure is remembered by the buffer: json_out_take() reports it. */
static void put(struct json_out *o, const char *s, size_t n)
{
    if (buf_add(&o->buf, s, n)) return;
}

/* Appends `n` bytes, with the comma a value needs. */
static void value(struct json_out *o, const char *s, size_t n)
{
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
    put(o, "]", 1);
    o->comma = 1;
}

void json_out_key(struct json_out *o, const char *key)
{
    size_t n = strlen(key);
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
    if (o->comma) put(o, ",", 1);
    put(o, "\"", 1);
    /* Runs of bytes that need no escape go in as they are, each escape after them. */
    const char *run = s, *p = s;
    for (; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        put(o, run, (size_t)(p - run));
        run = p + 1;
        char esc[6] = {'\\', (char)c};
        size_t n = 2;
        switch (c) {
        case '"':
        case '\\':
            break;
        case '\b':
            esc[1] = 'b';
            break;
        case '\f':
            esc[1] = 'f';
            break;
        case '\n':
            esc[1] = 'n';
            break;
        case '\r':
            esc[1] = 'r';
            break;
        case '\t':
            esc[1] = 't';
            break;
        default:
            esc[1] = 'u';
            esc[2] = '0';
            esc[3] = '0';
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            n = 6;
        }
        put(o, esc, n);
    }
    put(o, run, (size_t)(p - run));
    put(o, "\"", 1);
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
