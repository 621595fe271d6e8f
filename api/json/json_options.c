/* json_options.c: the "options" of a new game, decoded from JSON by the rows of the
 * engine's options table (core/options.h); declared in json_in.h. */
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "json_in.h"
#include "options.h"
#include "rulesets.h"

/* The names of `d`'s values quoted and joined into list[] ("a" or "b"; "a", "b" or "c";
 * with `last` for "or"). */
static void value_list(const struct cc_option_def *d, const char *last, char *list, size_t cap)
{
    size_t at = 0;
    list[0] = '\0';
    for (unsigned i = 0; i < d->nvalues && at < cap; i++) {
        const char *sep = i == 0 ? "" : i + 1 == d->nvalues ? last : ", ";
        int n = snprintf(list + at, cap - at, "%s\"%s\"", sep, d->values[i]);
        if (n < 0) break;
        at += (size_t)n;
    }
}

/* The index of value name `c` (a JSON string) among `d`'s, or -1. */
static int value_index(const cJSON *c, const struct cc_option_def *d)
{
    for (unsigned i = 0; i < d->nvalues; i++)
        if (cJSON_IsString(c) && strcmp(c->valuestring, d->values[i]) == 0) return (int)i;
    return -1;
}

int api_option_value_decode(const cJSON *c, const struct cc_option_def *d, unsigned *value,
                            struct json_err *err)
{
    char list[160];
    const char *bad = cc_status_name(CC_ERR_BAD_OPTION);
    switch (d->kind) {
    case CC_OPTION_BOOL:
        if (!cJSON_IsBool(c))
            return json_fail(err, bad, "options.%s must be true or false.", d->name);
        *value = cJSON_IsTrue(c) ? 1u : 0u;
        return 0;
    case CC_OPTION_SET: {
        /* A set: order and repeats do not matter. */
        unsigned bits = 0;
        int ok = cJSON_IsArray(c);
        for (const cJSON *m = ok ? c->child : NULL; m && ok; m = m->next) {
            int i = value_index(m, d);
            ok = i >= 0;
            if (ok) bits |= 1u << i;
        }
        if (ok) {
            *value = bits;
            return 0;
        }
        value_list(d, " and ", list, sizeof list);
        return json_fail(err, bad, "options.%s must be an array of names among %s.", d->name, list);
    }
    default: {
        int i = value_index(c, d);
        if (i >= 0) {
            *value = (unsigned)i;
            return 0;
        }
        value_list(d, " or ", list, sizeof list);
        return json_fail(err, bad, "options.%s must be %s.", d->name, list);
    }
    }
}

int api_options_decode(const cJSON *v, enum cc_ruleset r, struct cc_options *o,
                       struct json_err *err)
{
    memset(o, 0, sizeof *o);
    cc_options_default(o);
    if (!v) return 0;
    if (!cJSON_IsObject(v)) return json_fail(err, "invalid_body", "\"options\" must be an object.");
    const char *allowed[CC_OPT_COUNT + 1];
    unsigned n = 0;
    for (unsigned i = 0; i < CC_OPT_COUNT; i++)
        if (api_option_offered((enum cc_option_id)i, r))
            allowed[n++] = cc_option_def((enum cc_option_id)i)->name;
    allowed[n] = NULL;
    if (json_check_fields(v, allowed, "options.", err)) return -1;
    for (unsigned i = 0; i < CC_OPT_COUNT; i++) {
        const struct cc_option_def *d = cc_option_def((enum cc_option_id)i);
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(v, d->name);
        if (!c) continue;
        unsigned value = 0;
        if (api_option_value_decode(c, d, &value, err)) return -1;
        cc_option_set(o, (enum cc_option_id)i, value);
    }
    int bad, other;
    enum cc_status st = cc_options_check(r, o, &bad, &other);
    if (st != CC_OK && other >= 0)
        return json_fail(err, cc_status_name(st), "options.%s and options.%s cannot go together.",
                         cc_option_def((enum cc_option_id)bad)->name,
                         cc_option_def((enum cc_option_id)other)->name);
    if (st != CC_OK)
        return json_fail(err, cc_status_name(st), "options.%s is not an option of %s.",
                         bad >= 0 ? cc_option_def((enum cc_option_id)bad)->name : "?",
                         cc_ruleset_name(r));
    return 0;
}
