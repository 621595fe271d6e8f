/* codes_test.c: api/base/codes.c, the one list of problem codes: every code is snake_case and
 * listed once, the engine's status names are known but "ok", and what a decoder answers
 * with (the clock's and the computer players' refusals, added after the list's first copy
 * in the fuzz harness) is known. */
#include <criterion/criterion.h>
#include <string.h>

#include "codes.h"
#include "json_in.h"
#include "status.h"

Test(codes, service_codes_are_snake_case_and_listed_once)
{
    size_t n = api_service_code_count();
    cr_assert_gt(n, 40, "only %zu service codes", n);
    for (size_t i = 0; i < n; i++) {
        const char *c = api_service_code(i);
        cr_assert(c && c[0] >= 'a' && c[0] <= 'z', "code %zu", i);
        cr_expect_eq(strspn(c, "abcdefghijklmnopqrstuvwxyz0123456789_"), strlen(c), "%s", c);
        cr_expect(api_code_known(c), "%s", c);
        for (size_t j = i + 1; j < n; j++)
            cr_expect_str_neq(c, api_service_code(j), "%s listed twice", c);
        for (int s = 0; s < CC_STATUS_COUNT; s++)
            cr_expect_str_neq(c, cc_status_name((enum cc_status)s), "%s is an engine status", c);
    }
    cr_expect_null(api_service_code(n));
}

Test(codes, engine_names_known_but_ok)
{
    for (int s = CC_OK + 1; s < CC_STATUS_COUNT; s++)
        cr_expect(api_code_known(cc_status_name((enum cc_status)s)), "%s",
                  cc_status_name((enum cc_status)s));
    cr_expect_not(api_code_known("ok"));
    cr_expect_not(api_code_known("unknown"));
    cr_expect_not(api_code_known(""));
    cr_expect_not(api_code_known(NULL));
    cr_expect_not(api_code_known("invalid_json "));
}

/* The bodies that aborted the fuzz harness while it kept its own copy of the codes. */
Test(codes, decoder_refusals_are_known)
{
    static const char *const bodies[] = {
        "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"clock\":4}",
        "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"clock\":{\"turn_seconds\":1}}",
        "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"clock\":{\"turn_seconds\":60,"
        "\"on_timeout\":\"x\"}}",
        "{\"players\":[{\"name\":\"A\"},{\"bot\":\"genius\"}]}",
        "{\"players\":[{\"name\":\"A\"},{\"bot\":\"random\",\"think_ms\":5}]}",
        "{\"players\":[{\"name\":\"A\"}]}",
        "{\"players\":",
    };
    static struct json_new_game ng;
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        struct json_err err;
        memset(&err, 0, sizeof err);
        cr_assert_eq(json_in_new_game(bodies[i], strlen(bodies[i]), &ng, &err), -1, "%s",
                     bodies[i]);
        cr_expect(api_code_known(err.code), "%s: code %s", bodies[i], err.code);
    }
}
