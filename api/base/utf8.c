/* utf8.c: UTF-8 checks, cuts and JSON escaping (the well-formed sequences of Unicode's
 * table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF). */
#include "utf8.h"

#include <limits.h>
#include <string.h>

size_t utf8_next(const char *s, size_t left, uint32_t *cp)
{
    const unsigned char *p = (const unsigned char *)s;
    if (left == 0) return 0;
    unsigned c = p[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t n;
    unsigned lo = 0x80, hi = 0xBF; /* the range of the second byte */
    uint32_t v;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2, v = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3, v = c & 0x0F;
        if (c == 0xE0) lo = 0xA0; /* overlong below U+0800 */
        if (c == 0xED) hi = 0x9F; /* surrogates U+D800-U+DFFF */
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4, v = c & 0x07;
        if (c == 0xF0) lo = 0x90; /* overlong below U+10000 */
        if (c == 0xF4) hi = 0x8F; /* above U+10FFFF */
    } else {
        return 0; /* a continuation byte, 0xC0, 0xC1 (overlong), 0xF5-0xFF */
    }
    if (left < n || p[1] < lo || p[1] > hi) return 0;
    v = v << 6 | (p[1] & 0x3F);
    for (size_t i = 2; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        v = v << 6 | (p[i] & 0x3F);
    }
    *cp = v;
    return n;
}

int utf8_valid(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        uint64_t w;
        if (len - i >= 8 && (memcpy(&w, s + i, 8), (w & 0x8080808080808080u) == 0)) {
            i += 8; /* eight ASCII bytes at once */
            continue;
        }
        if ((unsigned char)s[i] < 0x80) {
            i++;
            continue;
        }
        uint32_t cp;
        size_t n = utf8_next(s + i, len - i, &cp);
        if (n == 0) return 0;
        i += n;
    }
    return 1;
}

int utf8_fit(const char *s, size_t max)
{
    if (max > INT_MAX) max = INT_MAX;
    size_t i = 0;
    while (s[i]) {
        uint32_t cp;
        /* A NUL ends s, and never continues a sequence: reading on to it stays inside. */
        size_t n = utf8_next(s + i, 4, &cp);
        if (n == 0 || i + n > max) break;
        i += n;
    }
    return (int)i;
}

/* One range of refused code points. */
struct range {
    uint32_t lo, hi; /* first and last, inclusive */
};

/* Unicode 15.1's Cc, Cf, Zl and Zp (and the unassigned U+2065 among them), in order. */
static const struct range refused[] = {
    {0x0000, 0x001F},   {0x007F, 0x009F},   {0x00AD, 0x00AD},   {0x0600, 0x0605},
    {0x061C, 0x061C},   {0x06DD, 0x06DD},   {0x070F, 0x070F},   {0x0890, 0x0891},
    {0x08E2, 0x08E2},   {0x180E, 0x180E},   {0x200B, 0x200F},   {0x2028, 0x202E},
    {0x2060, 0x206F},   {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD},
    {0x110CD, 0x110CD}, {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A},
    {0xE0000, 0xE007F},
};

int utf8_refused_in_name(uint32_t cp)
{
    for (size_t i = 0; i < sizeof refused / sizeof refused[0] && refused[i].lo <= cp; i++)
        if (cp <= refused[i].hi) return 1;
    return 0;
}

/* The visible code points (utf8_visible), in order: made by tools/gen-visible.py. */
static const struct range visible[] = {
#include "utf8_visible.inc"
};

int utf8_visible(uint32_t cp)
{
    size_t lo = 0, hi = sizeof visible / sizeof visible[0];
    while (lo < hi) { /* the first range whose last code point is at or above cp */
        size_t mid = lo + (hi - lo) / 2;
        if (visible[mid].hi < cp)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < sizeof visible / sizeof visible[0] && visible[lo].lo <= cp;
}

int utf8_space(uint32_t cp)
{
    static const struct range spaces[] = {
        {0x0020, 0x0020}, {0x00A0, 0x00A0}, {0x115F, 0x1160}, {0x1680, 0x1680},
        {0x2000, 0x200A}, {0x202F, 0x202F}, {0x205F, 0x205F}, {0x2800, 0x2800},
        {0x3000, 0x3000}, {0x3164, 0x3164}, {0xFFA0, 0xFFA0},
    };
    for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
        if (cp >= spaces[i].lo && cp <= spaces[i].hi) return 1;
    return 0;
}

size_t utf8_json_escape(const char *s, char *out, size_t cap, size_t *used)
{
    static const char hex[] = "0123456789abcdef";
    size_t i = 0, o = 0, len = strlen(s);
    while (i < len) {
        unsigned char c = (unsigned char)s[i];
        char esc[6];
        const char *w = esc;
        size_t wn, in = 1;
        uint32_t cp;
        if (c == '"' || c == '\\') {
            esc[0] = '\\', esc[1] = (char)c, wn = 2;
        } else if (c < 0x20) {
            memcpy(esc, "\\u00", 4);
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            wn = 6;
        } else if (c < 0x80) {
            w = s + i, wn = 1;
        } else if ((in = utf8_next(s + i, len - i, &cp)) != 0) {
            w = s + i, wn = in;
        } else {
            w = "\\ufffd", wn = 6, in = 1;
        }
        if (o + wn > cap) break;
        memcpy(out + o, w, wn);
        o += wn;
        i += in;
    }
    if (used) *used = i;
    return o;
}
