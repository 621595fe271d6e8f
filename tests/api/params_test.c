/* params_test.c: the decoders of query strings and headers as tables: query integers
 * (params_uint: `after`, `wait`), If-Match (params_if_match), Idempotency-Key
 * (params_idem_key_ok), the bearer token of Authorization (auth_bearer) and the game ids
 * of paths (auth_uuid_valid). */
#include <criterion/criterion.h>
#include <limits.h>
#include <string.h>

#include "auth.h"
#include "params.h"

Test(params, query_integers)
{
    static const struct {
        const char *v; /* NULL: the parameter is absent */
        long max;
        int rc;
        long out;
    } cases[] = {
        {NULL, 60, 0, 0},
        {"0", 60, 0, 0},
        {"7", 60, 0, 7},
        {"60", 60, 0, 60},
        {"0060", 60, 0, 60},
        {"61", 60, -1, 0},
        {"2147483647", INT_MAX, 0, INT_MAX},
        {"2147483648", INT_MAX, -1, 0},
        {"999999999999999999", LONG_MAX, 0, 999999999999999999L}, /* 18 digits */
        {"1000000000000000000", LONG_MAX, -1, 0},                 /* 19 */
        {"000000000000000001", 60, 0, 1},
        {"0000000000000000001", 60, -1, 0},
        {"", 60, -1, 0},
        {"-1", 60, -1, 0},
        {"+1", 60, -1, 0},
        {" 1", 60, -1, 0},
        {"1 ", 60, -1, 0},
        {"1.0", 60, -1, 0},
        {"1e1", 60, -1, 0},
        {"0x1", 60, -1, 0},
        {"a", 60, -1, 0},
        {"\xd9\xa1", 60, -1, 0}, /* an Arabic-Indic digit one */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        long out = 12345;
        int rc = params_uint(cases[i].v, cases[i].max, &out);
        const char *v = cases[i].v ? cases[i].v : "(absent)";
        cr_expect_eq(rc, cases[i].rc, "\"%s\" (max %ld): %d", v, cases[i].max, rc);
        cr_expect_eq(out, cases[i].out, "\"%s\" (max %ld): %ld", v, cases[i].max, out);
    }
}

Test(params, if_match)
{
    static const struct {
        const char *h; /* NULL: no header */
        enum params_match m;
        long version; /* on PARAMS_MATCH_VERSION and _WEAK */
    } cases[] = {
        {NULL, PARAMS_MATCH_NONE, 0},
        {"*", PARAMS_MATCH_ANY, 0},
        {"  *\t", PARAMS_MATCH_ANY, 0},
        {"\"7\"", PARAMS_MATCH_VERSION, 7},
        {"W/\"7\"", PARAMS_MATCH_WEAK, 7},
        {"7", PARAMS_MATCH_VERSION, 7},
        {" \"0\" ", PARAMS_MATCH_VERSION, 0},
        {"\"2147483647\"", PARAMS_MATCH_VERSION, INT_MAX},
        {"\"007\"", PARAMS_MATCH_VERSION, 7},
        {"\"2147483648\"", PARAMS_MATCH_BAD, 0},
        {"", PARAMS_MATCH_BAD, 0},
        {"  ", PARAMS_MATCH_BAD, 0},
        {"**", PARAMS_MATCH_BAD, 0},
        {"\"*\"", PARAMS_MATCH_BAD, 0},
        {"\"\"", PARAMS_MATCH_BAD, 0},
        {"\"7", PARAMS_MATCH_BAD, 0},
        {"7\"", PARAMS_MATCH_BAD, 0},
        {"w/\"7\"", PARAMS_MATCH_BAD, 0},
        {"W/", PARAMS_MATCH_BAD, 0},
        {"W/W/\"7\"", PARAMS_MATCH_BAD, 0},
        {"\"7\", \"8\"", PARAMS_MATCH_BAD, 0},
        {"\"-1\"", PARAMS_MATCH_BAD, 0},
        {"\" 7\"", PARAMS_MATCH_BAD, 0},
        {"\"7a\"", PARAMS_MATCH_BAD, 0},
        {"'7'", PARAMS_MATCH_BAD, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        long version = -1;
        enum params_match m = params_if_match(cases[i].h, &version);
        const char *h = cases[i].h ? cases[i].h : "(absent)";
        cr_expect_eq(m, cases[i].m, "If-Match %s: %d", h, m);
        int has_version = m == PARAMS_MATCH_VERSION || m == PARAMS_MATCH_WEAK;
        if (has_version && cases[i].m == m)
            cr_expect_eq(version, cases[i].version, "If-Match %s: %ld", h, version);
        else
            cr_expect_eq(version, -1, "If-Match %s: version written", h);
    }
}

Test(params, idempotency_keys)
{
    static const char k64[] = "0123456789012345678901234567890123456789012345678901234567890123";
    static const char k65[] = "01234567890123456789012345678901234567890123456789012345678901234";
    static const struct {
        const char *key;
        int ok;
    } cases[] = {
        {NULL, 0},     {"", 0},       {"a", 1},     {k64, 1},       {k65, 0},    {"a b", 1},
        {"~!@#$%", 1}, {"key\t1", 0}, {"key\n", 0}, {"key\x7f", 0}, {"\x1f", 0}, {"caf\xc3\xa9", 0},
        {" ", 1},
    };
    cr_assert_eq(strlen(k64), PARAMS_IDEM_KEY_MAX);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        cr_expect_eq(params_idem_key_ok(cases[i].key), cases[i].ok, "key \"%s\"",
                     cases[i].key ? cases[i].key : "(absent)");
}

Test(auth, bearer_tokens)
{
    static const struct {
        const char *h;     /* Authorization, NULL: absent */
        const char *token; /* what auth_bearer finds, NULL: none */
    } cases[] = {
        {NULL, NULL},
        {"", NULL},
        {"Bearer abc", "abc"},
        {"bearer abc", "abc"},
        {"BEARER abc", "abc"},
        {"Bearer    abc", "abc"},
        {"Bearer abc def", "abc def"}, /* the token is checked against the store, not here */
        {"Bearer abc ", "abc "},
        {"Bearer ", NULL},
        {"Bearer    ", NULL},
        {"Bearer", NULL},
        {"Bearerabc", NULL},
        {"Bearer\tabc", NULL},
        {" Bearer abc", NULL},
        {"Basic YWxhZGRpbjpvcGVuc2VzYW1l", NULL},
        {"Token abc", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *h = cases[i].h ? cases[i].h : "(absent)";
        const char *t = auth_bearer(cases[i].h);
        if (!cases[i].token) {
            cr_expect_null(t, "\"%s\": found \"%s\"", h, t);
        } else {
            cr_expect(t != NULL && strcmp(t, cases[i].token) == 0, "\"%s\": \"%s\"", h,
                      t ? t : "(none)");
            /* It points into the header, after the scheme. */
            cr_expect(t >= cases[i].h + 7 && t < cases[i].h + strlen(cases[i].h), "\"%s\"", h);
        }
    }
}

Test(auth, game_ids)
{
    static const struct {
        const char *s;
        int ok;
    } cases[] = {
        {"0b5f4c1e-7d2a-4c3b-9e8f-1a2b3c4d5e6f", 1},
        {"0B5F4C1E-7D2A-4C3B-9E8F-1A2B3C4D5E6F", 1},
        {"00000000-0000-0000-0000-000000000000", 1},
        {"0b5f4c1e-7d2a-4c3b-9e8f-1a2b3c4d5e6", 0},
        {"0b5f4c1e-7d2a-4c3b-9e8f-1a2b3c4d5e6f0", 0},
        {"0b5f4c1e7d2a-4c3b-9e8f-1a2b3c4d5e6f0", 0},
        {"0b5f4c1e-7d2a-4c3b-9e8f_1a2b3c4d5e6f", 0},
        {"0b5f4c1g-7d2a-4c3b-9e8f-1a2b3c4d5e6f", 0},
        {"{b5f4c1e-7d2a-4c3b-9e8f-1a2b3c4d5e6f}", 0},
        {"0b5f4c1e-7d2a-4c3b-9e8f-1a2b3c4d5e6 ", 0},
        {"", 0},
        {"x", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        cr_expect_eq(auth_uuid_valid(cases[i].s), cases[i].ok, "\"%s\"", cases[i].s);
    char id[AUTH_UUID_LEN + 1];
    cr_assert_eq(auth_uuid_new(id), 0);
    cr_expect(auth_uuid_valid(id), "%s", id);
}
