/* uri_test.c: request targets: paths decoded for routing, queries split (api/http/uri.c). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "uri.h"

static const struct {
    const char *raw;
    enum uri_status want;
    const char *decoded;
} paths[] = {
    {"/healthz", URI_OK, "/healthz"},
    {"/v1/g%61mes", URI_OK, "/v1/games"},
    {"/v1/G%41", URI_OK, "/v1/GA"},
    {"/a%20b", URI_OK, "/a b"},
    {"/a+b", URI_OK, "/a+b"}, /* '+' is a space only in a query */
    {"/100%", URI_OK, "/100%"},
    {"/x%4", URI_OK, "/x%4"},
    {"/x%zz", URI_OK, "/x%zz"},
    {"/healthz%00junk", URI_BAD, NULL},
    {"/v1%2fgames", URI_BAD, NULL},
    {"/v1%2Fgames", URI_BAD, NULL},
    {"/v1%2f", URI_BAD, NULL},
    {"%00", URI_BAD, NULL},
    {"", URI_OK, ""},
};

Test(uri, path_decode)
{
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        char out[64];
        size_t len = strlen(paths[i].raw);
        enum uri_status s = uri_path_decode(paths[i].raw, len, out, sizeof out);
        cr_expect_eq(s, paths[i].want, "%s: status %d", paths[i].raw, s);
        if (paths[i].decoded && s == URI_OK)
            cr_expect_str_eq(out, paths[i].decoded, "%s", paths[i].raw);
    }
    char small[4];
    cr_expect_eq(uri_path_decode("/abcd", 5, small, sizeof small), URI_BAD, "no room");
}

static const struct {
    const char *query;
    enum uri_status want;
    size_t n;
    int more;
    const char *pairs[6]; /* name, value, name, value ... */
} queries[] = {
    {"", URI_OK, 0, 0, {NULL}},
    {"a=1", URI_OK, 1, 0, {"a", "1"}},
    {"a=1&b=2", URI_OK, 2, 0, {"a", "1", "b", "2"}},
    {"a&b=", URI_OK, 2, 0, {"a", "", "b", ""}},
    {"a=x+y&b=%41%42", URI_OK, 2, 0, {"a", "x y", "b", "AB"}},
    {"a=%2F&%61=1", URI_OK, 2, 0, {"a", "/", "a", "1"}},
    {"&&a=1&&", URI_OK, 1, 0, {"a", "1"}},
    {"a=b=c", URI_OK, 1, 0, {"a", "b=c"}},
    {"a=%zz", URI_OK, 1, 0, {"a", "%zz"}},
    {"a=%00", URI_BAD, 0, 0, {NULL}},
    {"%00=1", URI_BAD, 0, 0, {NULL}},
    {"a=1&b=2&c=3", URI_OK, 2, 1, {"a", "1", "b", "2"}},
};

Test(uri, query_split)
{
    for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++) {
        char q[64];
        snprintf(q, sizeof q, "%s", queries[i].query);
        struct api_query out[2];
        size_t n;
        int more;
        enum uri_status s = uri_query_split(q, out, 2, &n, &more);
        cr_expect_eq(s, queries[i].want, "%s: status %d", queries[i].query, s);
        if (s != URI_OK) continue;
        cr_expect_eq(n, queries[i].n, "%s: %zu pairs", queries[i].query, n);
        cr_expect_eq(more, queries[i].more, "%s: more %d", queries[i].query, more);
        for (size_t k = 0; k < n && k < queries[i].n; k++) {
            cr_expect_str_eq(out[k].name, queries[i].pairs[2 * k], "%s: name %zu", queries[i].query,
                             k);
            cr_expect_str_eq(out[k].value, queries[i].pairs[2 * k + 1], "%s: value %zu",
                             queries[i].query, k);
        }
    }
}

Test(uri, query_limit)
{
    static char q[URI_MAX + 1];
    struct api_query out[API_MAX_QUERY];
    size_t n;
    int more;
    int o = 0;
    for (int i = 0; i < URI_MAX_PARAMS; i++)
        o += snprintf(q + o, sizeof q - (size_t)o, "%sa=1", i ? "&" : "");
    cr_expect_eq(uri_query_split(q, out, API_MAX_QUERY, &n, &more), URI_OK, "64 parameters");
    cr_expect_eq(n, API_MAX_QUERY);
    cr_expect_eq(more, 1);
    o = 0;
    for (int i = 0; i <= URI_MAX_PARAMS; i++)
        o += snprintf(q + o, sizeof q - (size_t)o, "%sa=1", i ? "&" : "");
    cr_expect_eq(uri_query_split(q, out, API_MAX_QUERY, &n, &more), URI_TOO_MANY, "65 parameters");
}
