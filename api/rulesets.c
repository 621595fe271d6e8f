/* rulesets.c: the API's one description of each ruleset and option (see rulesets.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "json_in.h"
#include "rulesets.h"

static const struct api_option_info option_infos[CC_OPT_COUNT] = {
    [CC_OPT_EDITION] = {.description = "standard: 3 points per completed city for each farm; "
                                       "original: 4 per city, scored city by city, with the "
                                       "two-tile city rule.",
                        .phrase = {", standard edition", ", original edition"}},
    [CC_OPT_RIVER] = {.description = "Play with the River.",
                      .phrase = {NULL, ", with the River"},
                      .key_sample = "river",
                      .key_label = "river"},
    [CC_OPT_DRAW] = {.description = "pile: draw a tile each turn; hand: the hand-of-two variant.",
                     .phrase = {", draw pile", ", hand of two"}},
};

static const struct api_ruleset_info ruleset_infos[CC_RULESET_COUNT] = {
    [CC_RULESET_CLASSIC] = {.title = "Carcassonne",
                            .provenance = "published",
                            .key = {{"city", "city"},
                                    {"road", "road"},
                                    {"field", "field"},
                                    {"monastery", "monastery"},
                                    {"pennant", "pennant"}},
                            .farmers_lie = 1,
                            .pieces = "farmers lie, the others stand"},
    [CC_RULESET_HILLS] = {.title = "Carcassonne: Over Hill and Dale",
                          .provenance = "reconstruction",
                          .stables = 2,
                          .harvest = 1,
                          .hikes = 1,
                          .key = {{"farmland", "farmland"},
                                  {"trail", "trail"},
                                  {"meadow", "meadow"},
                                  {"harvest", "harvest"},
                                  {"animals", "animals"}},
                          .stable_swatch = 1,
                          .pieces = "hiker or farmer, stable"},
    [CC_RULESET_DISCOVERY] = {.title = "Carcassonne: The Discovery",
                              .provenance = "reconstruction",
                              .key = {{"mountain", "mountain"},
                                      {"grass", "grassland"},
                                      {"sea", "sea"},
                                      {"port", "port city"}},
                              .pieces = "brigand, navigator or explorer",
                              .withdrawals = 1},
};

const struct api_ruleset_info *api_ruleset_info(enum cc_ruleset r)
{
    return (unsigned)r < CC_RULESET_COUNT ? &ruleset_infos[r] : NULL;
}

const struct api_option_info *api_option_info(enum cc_option_id id)
{
    return (unsigned)id < CC_OPT_COUNT ? &option_infos[id] : NULL;
}

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
        if (cc_option_in_ruleset((enum cc_option_id)i, r))
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

void api_options_describe(cJSON *arr, enum cc_ruleset r)
{
    for (unsigned i = 0; i < CC_OPT_COUNT; i++) {
        if (!cc_option_in_ruleset((enum cc_option_id)i, r)) continue;
        const struct cc_option_def *d = cc_option_def((enum cc_option_id)i);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(arr, o);
        cJSON_AddStringToObject(o, "name", d->name);
        if (cc_option_is_bool(d)) {
            cJSON_AddStringToObject(o, "type", "boolean");
            cJSON_AddBoolToObject(o, "default", d->fallback != 0);
        } else {
            bool set = d->kind == CC_OPTION_SET;
            cJSON_AddStringToObject(o, "type", set ? "array" : "string");
            cJSON *vals = cJSON_AddArrayToObject(o, "values");
            for (unsigned k = 0; k < d->nvalues; k++)
                cJSON_AddItemToArray(vals, cJSON_CreateString(d->values[k]));
            if (set) {
                cJSON *def = cJSON_AddArrayToObject(o, "default");
                for (unsigned k = 0; k < d->nvalues; k++)
                    if (d->fallback >> k & 1u)
                        cJSON_AddItemToArray(def, cJSON_CreateString(d->values[k]));
            } else {
                cJSON_AddStringToObject(o, "default", d->values[d->fallback]);
            }
        }
        cJSON_AddStringToObject(o, "description", option_infos[i].description);
    }
}
