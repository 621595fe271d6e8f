/* canon_test.c: canonical JSON of request bodies (api/base/canon.c): what makes two requests
 * with one Idempotency-Key the same. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"

static const struct {
    const char *in;
    const char *want; /* NULL: refused */
} cases[] = {
    {"", "{}"},
    {"  \r\n\t", "{}"},
    {"{}", "{}"},
    {" { } ", "{}"},
    {"{\"y\":-1,\"x\":0,\"rotation\":180}", "{\"rotation\":180,\"x\":0,\"y\":-1}"},
    {"{ \"x\" : 0 ,\n \"y\" : -1 }", "{\"x\":0,\"y\":-1}"},
    {"{\"b\":{\"d\":1,\"c\":[{\"f\":1,\"e\":2}]},\"a\":null}",
     "{\"a\":null,\"b\":{\"c\":[{\"e\":2,\"f\":1}],\"d\":1}}"},
    {"[3,1,2]", "[3,1,2]"}, /* arrays keep their order */
    {"{\"n\":1.0}", "{\"n\":1}"},
    {"{\"n\":1e0}", "{\"n\":1}"},
    {"{\"n\":-0.5}", "{\"n\":-0.5}"},
    {"{\"n\":1E2}", "{\"n\":100}"},
    {"{\"s\":\"\\u00e9\"}", "{\"s\":\"\xC3\xA9\"}"},
    {"{\"s\":\"\xC3\xA9\"}", "{\"s\":\"\xC3\xA9\"}"},
    {"{\"s\":\"a\\/b\"}", "{\"s\":\"a/b\"}"},
    {"{\"s\":\"\\\"\\\\\\n\"}", "{\"s\":\"\\\"\\\\\\n\"}"},
    {"{\"\\u0062\":1,\"a\":2}", "{\"a\":2,\"b\":1}"},           /* sorted after unescaping */
    {"{\"B\":1,\"a\":2,\"_\":3}", "{\"B\":1,\"_\":3,\"a\":2}"}, /* bytewise */
    {"{\"t\":true,\"f\":false}", "{\"f\":false,\"t\":true}"},
    {"{", NULL},
    {"{} x", NULL},
    {"nope", NULL},
};

Test(canon, cases)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = (char *)1;
        size_t len = 1;
        int rc = canon_json(cases[i].in, strlen(cases[i].in), &out, &len);
        if (!cases[i].want) {
            cr_expect_eq(rc, -1, "%s: accepted", cases[i].in);
            cr_expect_null(out, "%s", cases[i].in);
            continue;
        }
        cr_expect_eq(rc, 0, "%s: refused", cases[i].in);
        if (rc) continue;
        cr_expect_str_eq(out, cases[i].want, "%s", cases[i].in);
        cr_expect_eq(len, strlen(cases[i].want), "%s", cases[i].in);
        free(out);
    }
}

Test(canon, only_its_length_is_read)
{
    /* The body is not NUL-terminated at its length: nothing past it counts. */
    const char body[] = "{\"a\":1}garbage";
    char *out = NULL;
    size_t len = 0;
    cr_assert_eq(canon_json(body, 7, &out, &len), 0);
    cr_expect_str_eq(out, "{\"a\":1}");
    free(out);
}
