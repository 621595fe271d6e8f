/* rulesets_test.c: the API's description of rulesets and options covers the engine's
 * tables, and "options" decode from them. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "json_game.h"
#include "json_in.h"
#include "json_out.h"
#include "rulesets.h"

Test(rulesets, every_option_and_ruleset_is_described)
{
    for (int i = 0; i < CC_OPT_COUNT; i++) {
        const struct api_option_info *oi = api_option_info((enum cc_option_id)i);
        const struct cc_option_def *d = cc_option_def((enum cc_option_id)i);
        cr_assert_not_null(oi);
        /* Every option of the engine is offered, the expansions of classic included. */
        cr_expect_not_null(oi->description, "%s", d->name);
        cr_expect_eq(api_option_offered((enum cc_option_id)i, CC_RULESET_CLASSIC),
                     cc_option_in_ruleset((enum cc_option_id)i, CC_RULESET_CLASSIC), "%s", d->name);
        if (oi->key_sample) cr_expect_not_null(oi->key_label, "%s", d->name);
    }
    cr_expect_null(api_option_info(CC_OPT_COUNT));
    for (int r = 0; r < CC_RULESET_COUNT; r++) {
        const struct api_ruleset_info *ri = api_ruleset_info((enum cc_ruleset)r);
        cr_assert_not_null(ri);
        cr_expect_not_null(ri->title);
        cr_expect_not_null(ri->pieces);
        cr_expect_not_null(ri->key[0][0]);
    }
}

/* Decodes `json` as the options of a game of `r`; returns 0 or -1 with *err. */
static int decode(const char *json, enum cc_ruleset r, struct cc_options *o, struct json_err *err)
{
    cJSON *v = cJSON_Parse(json);
    cr_assert_not_null(v);
    int rc = api_options_decode(v, r, o, err);
    cJSON_Delete(v);
    return rc;
}

Test(rulesets, options_decode_from_the_table)
{
    struct cc_options o;
    struct json_err err;
    cr_assert_eq(
        decode("{\"edition\": \"original\", \"river\": true}", CC_RULESET_CLASSIC, &o, &err), 0);
    cr_expect_eq(o.edition, CC_EDITION_ORIGINAL);
    cr_expect_eq(o.river, 1);
    cr_assert_eq(decode("{\"draw\": \"hand\"}", CC_RULESET_DISCOVERY, &o, &err), 0);
    cr_expect_eq(o.draw, CC_DRAW_HAND);
    cr_expect_eq(decode("{\"draw\": \"hand\"}", CC_RULESET_CLASSIC, &o, &err), -1);
    cr_expect_str_eq(err.code, "unknown_field");
    cr_expect_eq(decode("{\"river\": 1}", CC_RULESET_CLASSIC, &o, &err), -1);
    cr_expect_str_eq(err.code, "bad_option");
    cr_expect_str_eq(err.detail, "options.river must be true or false.");
    cr_expect_eq(decode("{\"edition\": \"first\"}", CC_RULESET_CLASSIC, &o, &err), -1);
    cr_expect_str_eq(err.code, "bad_option");
    cr_expect_str_eq(err.detail, "options.edition must be \"standard\" or \"original\".");
    cr_expect_eq(decode("{\"river\": true}", CC_RULESET_HILLS, &o, &err), -1);
    cr_expect_str_eq(err.code, "unknown_field");
    /* The expansions of classic: a set, and their refused combinations naming both. */
    cr_assert_eq(decode("{\"expansions\": [\"traders\", \"inns\"], \"inn_cathedral_final\": "
                        "\"ignore\"}",
                        CC_RULESET_CLASSIC, &o, &err),
                 0);
    cr_expect_eq(o.expansions, CC_EXP_INNS | CC_EXP_TRADERS);
    cr_expect_eq(o.inn_final, CC_INN_FINAL_IGNORE);
    cr_expect_eq(decode("{\"expansions\": [\"traders\"], \"edition\": \"original\"}",
                        CC_RULESET_CLASSIC, &o, &err),
                 -1);
    cr_expect_str_eq(err.code, "incompatible_options");
    cr_expect_str_eq(err.detail, "options.expansions and options.edition cannot go together.");
    cr_expect_eq(decode("{\"inn_cathedral_final\": \"ignore\"}", CC_RULESET_CLASSIC, &o, &err), -1);
    cr_expect_str_eq(err.code, "incompatible_options");
    cr_expect_eq(decode("{\"expansions\": [\"inns\"]}", CC_RULESET_HILLS, &o, &err), -1);
    cr_expect_str_eq(err.code, "unknown_field");
    cr_expect_eq(decode("[]", CC_RULESET_CLASSIC, &o, &err), -1);
    cr_expect_str_eq(err.code, "invalid_body");
    cr_assert_eq(api_options_decode(NULL, CC_RULESET_CLASSIC, &o, &err), 0);
    cr_expect_eq(o.edition, CC_EDITION_STANDARD);
    cr_expect_eq(o.river, 0);
}

Test(rulesets, options_described_from_the_table)
{
    cJSON *arr = cJSON_CreateArray();
    api_options_describe(arr, CC_RULESET_CLASSIC);
    cr_assert_eq(cJSON_GetArraySize(arr), 4);
    const cJSON *ed = cJSON_GetArrayItem(arr, 0), *river = cJSON_GetArrayItem(arr, 1);
    const cJSON *exp = cJSON_GetArrayItem(arr, 2), *inn = cJSON_GetArrayItem(arr, 3);
    cr_expect_str_eq(cJSON_GetObjectItem(exp, "name")->valuestring, "expansions");
    cr_expect_str_eq(cJSON_GetObjectItem(exp, "type")->valuestring, "array");
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(exp, "default")), 0);
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(exp, "values")), 2);
    cr_expect_str_eq(cJSON_GetObjectItem(inn, "name")->valuestring, "inn_cathedral_final");
    cr_expect_str_eq(cJSON_GetObjectItem(inn, "default")->valuestring, "zero");
    cr_expect_str_eq(cJSON_GetObjectItem(ed, "name")->valuestring, "edition");
    cr_expect_str_eq(cJSON_GetObjectItem(ed, "default")->valuestring, "standard");
    cr_expect_str_eq(cJSON_GetObjectItem(river, "type")->valuestring, "boolean");
    cr_expect(cJSON_IsFalse(cJSON_GetObjectItem(river, "default")));
    cJSON_Delete(arr);
}

/* An option of the kind the expansions will be ("expansions": ["inns", "traders"]). */
static const struct cc_option_def set_option = {
    .name = "expansions",
    .kind = CC_OPTION_SET,
    .nvalues = 2,
    .values = {"inns", "traders"},
};

/* `json` decoded as a value of set_option: 0 and *value, or -1 with *err. */
static int decode_set(const char *json, unsigned *value, struct json_err *err)
{
    cJSON *v = cJSON_Parse(json);
    cr_assert_not_null(v);
    int rc = api_option_value_decode(v, &set_option, value, err);
    cJSON_Delete(v);
    return rc;
}

Test(rulesets, set_options_decode_and_encode)
{
    unsigned v = 99;
    struct json_err err;
    cr_assert_eq(decode_set("[\"traders\", \"inns\", \"traders\"]", &v, &err), 0);
    cr_expect_eq(v, 3);
    cr_assert_eq(decode_set("[]", &v, &err), 0);
    cr_expect_eq(v, 0);
    cr_expect_eq(decode_set("[\"inns\", \"bridges\"]", &v, &err), -1);
    cr_expect_str_eq(err.code, "bad_option");
    cr_expect_str_eq(
        err.detail, "options.expansions must be an array of names among \"inns\" and \"traders\".");
    cr_expect_eq(decode_set("\"inns\"", &v, &err), -1);
    cr_expect_str_eq(err.code, "bad_option");
    cr_expect_eq(cc_option_limit(&set_option), 4);
    struct json_out o;
    json_out_init(&o);
    json_option_value(&o, &set_option, 2);
    size_t len = 0;
    char *s = json_out_take(&o, &len);
    cr_assert_not_null(s);
    cr_expect_str_eq(s, "[\"traders\"]");
    free(s);
}
