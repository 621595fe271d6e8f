/* params.c: strict parsing of query parameters and request headers. */
#include "params.h"

#include <limits.h>
#include <string.h>

/* Reads `n` decimal digits at `s` (n >= 1, all digits) into *out unless above `max`. */
static int digits_value(const char *s, size_t n, long max, long *out)
{
    if (n == 0 || n > 18) return -1;
    long x = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        x = x * 10 + (s[i] - '0'); /* 18 digits cannot overflow a 64-bit long */
    }
    if (x > max) return -1;
    *out = x;
    return 0;
}

int params_uint(const char *v, long max, long *out)
{
    *out = 0;
    if (!v) return 0;
    long x;
    if (digits_value(v, strlen(v), max, &x)) return -1;
    *out = x;
    return 0;
}

enum params_match params_if_match(const char *h, long *version)
{
    if (!h) return PARAMS_MATCH_NONE;
    while (*h == ' ' || *h == '\t') h++;
    size_t n = strlen(h);
    while (n && (h[n - 1] == ' ' || h[n - 1] == '\t')) n--;
    if (n == 1 && h[0] == '*') return PARAMS_MATCH_ANY;
    int weak = n >= 2 && h[0] == 'W' && h[1] == '/';
    if (weak) h += 2, n -= 2;
    if (n >= 2 && h[0] == '"' && h[n - 1] == '"') h++, n -= 2;
    long v;
    if (digits_value(h, n, INT_MAX, &v)) return PARAMS_MATCH_BAD;
    *version = v;
    return weak ? PARAMS_MATCH_WEAK : PARAMS_MATCH_VERSION;
}

int params_idem_key_ok(const char *key)
{
    if (!key) return 0;
    size_t len = strlen(key);
    if (len < 1 || len > PARAMS_IDEM_KEY_MAX) return 0;
    for (size_t i = 0; i < len; i++)
        if (key[i] < 0x20 || key[i] > 0x7E) return 0;
    return 1;
}
