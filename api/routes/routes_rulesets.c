/* routes_rulesets.c: GET /v1/rulesets and GET /v1/rulesets/{ruleset}/tiles. */
#include <string.h>

#include <cjson/cJSON.h>

#include "game.h"
#include "options.h"
#include "problem.h"
#include "routes.h"
#include "rulesets.h"
#include "tiles.h"

/* Types of the catalogue in the sets the API offers. */
static unsigned offered_types(const struct cc_tileset *ts)
{
    unsigned n = 0;
    for (unsigned i = 0; i < ts->ntypes; i++) n += api_set_offered((enum cc_set)ts->types[i].set);
    return n;
}

/* Sum of the counts of the catalogue (the sets the API offers). */
static unsigned total_tiles(const struct cc_tileset *ts)
{
    unsigned n = 0;
    for (unsigned i = 0; i < ts->ntypes; i++)
        if (api_set_offered((enum cc_set)ts->types[i].set)) n += ts->types[i].count;
    return n;
}

/* The most players a game of ruleset `r` may have with its options at their largest (every
 * member of each set option): 6 with an expansion of classic. */
static unsigned most_players(enum cc_ruleset r)
{
    struct cc_options o;
    memset(&o, 0, sizeof o);
    cc_options_default(&o);
    for (unsigned i = 0; i < CC_OPT_COUNT; i++) {
        const struct cc_option_def *d = cc_option_def((enum cc_option_id)i);
        if (d->kind == CC_OPTION_SET && api_option_offered((enum cc_option_id)i, r))
            cc_option_set(&o, (enum cc_option_id)i, cc_option_limit(d) - 1);
    }
    return cc_max_players(&o);
}

static cJSON *ruleset_json(enum cc_ruleset r, const struct cc_tileset *ts)
{
    const struct api_ruleset_info *info = api_ruleset_info(r);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", cc_ruleset_name(r));
    cJSON_AddStringToObject(o, "title", info->title);
    cJSON *p = cJSON_AddObjectToObject(o, "players");
    cJSON_AddNumberToObject(p, "min", CC_MIN_PLAYERS);
    cJSON_AddNumberToObject(p, "max", CC_BASE_MAX_PLAYERS);
    /* 6 with any expansion of classic. */
    unsigned most = most_players(r);
    if (most > CC_BASE_MAX_PLAYERS) cJSON_AddNumberToObject(p, "max_with_expansions", most);
    cJSON_AddNumberToObject(o, "followers", cc_ruleset_followers(r));
    if (info->stables) cJSON_AddNumberToObject(o, "stables", info->stables);
    api_options_describe(cJSON_AddArrayToObject(o, "options"), r);
    cJSON *cols = cJSON_AddArrayToObject(o, "columns");
    unsigned mask = cc_ruleset_columns(r);
    for (int c = 0; c < CC_COL_COUNT; c++)
        if (mask & (1u << c))
            cJSON_AddItemToArray(cols, cJSON_CreateString(cc_column_name((enum cc_column)c)));
    cJSON *t = cJSON_AddObjectToObject(o, "tiles");
    cJSON_AddNumberToObject(t, "types", offered_types(ts));
    cJSON_AddNumberToObject(t, "total", total_tiles(ts));
    cJSON_AddNumberToObject(t, "deck", ts->land_count);
    cJSON_AddStringToObject(t, "start", ts->types[ts->start_type].id);
    cJSON_AddStringToObject(t, "provenance", info->provenance);
    return o;
}

void routes_rulesets(const struct api_request *req, struct api_response *resp, const char *arg)
{
    (void)arg;
    (void)req;
    cJSON *o = cJSON_CreateObject();
    cJSON *arr = cJSON_AddArrayToObject(o, "rulesets");
    for (int r = 0; r < CC_RULESET_COUNT; r++) {
        const struct cc_tileset *ts = cc_tileset_get((enum cc_ruleset)r);
        if (ts) cJSON_AddItemToArray(arr, ruleset_json((enum cc_ruleset)r, ts));
    }
    api_reply_json(resp, 200, o);
}

static const char *crop_name(int c)
{
    return cc_crop_name((enum cc_crop)c);
}

static const char *goods_name(int k)
{
    return cc_goods_name((enum cc_goods)k);
}

static const char *animal_name(int a)
{
    return cc_animal_name((enum cc_animal)a);
}

/* Adds `key`: {name: count} to `o` for each nonzero of the `n` counts (named by index by
 * `name`); nothing when every count is 0. */
static void add_counts(cJSON *o, const char *key, const uint8_t *counts, int n,
                       const char *(*name)(int))
{
    int any = 0;
    for (int i = 0; i < n; i++) any |= counts[i];
    if (!any) return;
    cJSON *obj = cJSON_AddObjectToObject(o, key);
    for (int i = 0; i < n; i++)
        if (counts[i]) cJSON_AddNumberToObject(obj, name(i), counts[i]);
}

static cJSON *feature_json(const struct cc_feature_type *f)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kind", cc_kind_name((enum cc_kind)f->kind));
    cJSON *locs = cJSON_AddArrayToObject(o, "locations");
    for (int l = 0; l < CC_LOC_COUNT; l++)
        if (f->slots & (1u << l))
            cJSON_AddItemToArray(locs, cJSON_CreateString(cc_location_name((enum cc_location)l)));
    if (f->pennants) cJSON_AddNumberToObject(o, "pennants", f->pennants);
    if (f->inn) cJSON_AddTrueToObject(o, "inn");
    if (f->cathedral) cJSON_AddTrueToObject(o, "cathedral");
    add_counts(o, "goods", f->goods, CC_GOODS_COUNT, goods_name);
    add_counts(o, "harvest", f->harvest, CC_CROP_COUNT, crop_name);
    if (f->touches && (f->kind == CC_KIND_FIELD || f->kind == CC_KIND_MEADOW)) {
        cJSON *t = cJSON_AddArrayToObject(o, f->kind == CC_KIND_FIELD ? "cities" : "farmlands");
        for (int i = 0; i < CC_MAX_TILE_FEATURES; i++)
            if (f->touches & (1u << i)) cJSON_AddItemToArray(t, cJSON_CreateNumber(i));
    }
    if (f->end != CC_END_NONE) {
        const char *end = cc_end_name((enum cc_end)f->end);
        if (end) cJSON_AddStringToObject(o, "end", end);
    }
    if (f->ports) cJSON_AddNumberToObject(o, "ports", f->ports);
    return o;
}

static cJSON *tile_json(const struct cc_tile_type *t)
{
    static const char *const sides[4] = {"N", "E", "S", "W"};
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", t->id);
    cJSON_AddNumberToObject(o, "count", t->count);
    if (t->is_start) cJSON_AddTrueToObject(o, "start");
    /* A tile of an expansion: a true member named by its set ("river": true). */
    if (t->set != CC_SET_BASE) cJSON_AddTrueToObject(o, cc_set_name((enum cc_set)t->set));
    cJSON *e = cJSON_AddObjectToObject(o, "edges");
    for (int s = 0; s < 4; s++)
        cJSON_AddStringToObject(e, sides[s], cc_edge_name((enum cc_edge)t->edges[s]));
    cJSON *fs = cJSON_AddArrayToObject(o, "features");
    for (unsigned i = 0; i < t->nfeatures; i++)
        cJSON_AddItemToArray(fs, feature_json(&t->features[i]));
    add_counts(o, "animals", t->animals, CC_ANIMAL_COUNT, animal_name);
    if (t->nports) {
        cJSON *ps = cJSON_AddArrayToObject(o, "ports");
        for (unsigned i = 0; i < t->nports && i < CC_MAX_PORTS; i++) {
            cJSON *p = cJSON_CreateObject();
            cJSON_AddItemToArray(ps, p);
            cJSON_AddNumberToObject(p, "land", t->port_land[i]);
            cJSON_AddNumberToObject(p, "sea", t->port_sea[i]);
        }
    }
    return o;
}

void routes_tiles(const struct api_request *req, struct api_response *resp, const char *name)
{
    (void)req;
    int r = cc_ruleset_parse(name);
    const struct cc_tileset *ts = r >= 0 ? cc_tileset_get((enum cc_ruleset)r) : NULL;
    if (!ts) {
        problem_reply(resp, 404, "not_found", "There is no such ruleset (see GET /v1/rulesets).");
        return;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "ruleset", cc_ruleset_name((enum cc_ruleset)r));
    cJSON_AddStringToObject(o, "provenance", api_ruleset_info((enum cc_ruleset)r)->provenance);
    cJSON_AddStringToObject(o, "start", ts->types[ts->start_type].id);
    cJSON_AddNumberToObject(o, "total", total_tiles(ts));
    cJSON *arr = cJSON_AddArrayToObject(o, "tiles");
    for (unsigned i = 0; i < ts->ntypes; i++)
        if (api_set_offered((enum cc_set)ts->types[i].set))
            cJSON_AddItemToArray(arr, tile_json(&ts->types[i]));
    api_reply_json(resp, 200, o);
}
