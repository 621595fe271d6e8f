/* tilenames.c: the stable names of rulesets, kinds, locations, crops, animals and edges. */
#include <string.h>

#include "tiles.h"

static const char *const ruleset_names[CC_RULESET_COUNT] = {"classic", "hills", "discovery"};

static const char *const set_names[CC_SET_COUNT] = {"base", "river", "inns", "traders"};

/* The ruleset each expansion's set belongs to (the base set belongs to every ruleset). */
static const int8_t set_rulesets[CC_SET_COUNT] = {-1, CC_RULESET_CLASSIC, CC_RULESET_CLASSIC,
                                                  CC_RULESET_CLASSIC};

static const char *const kind_names[CC_KIND_COUNT] = {
    "city",     "road",   "field",    "monastery", "river", "trail",
    "farmland", "meadow", "mountain", "grassland", "sea"};

static const char *const location_names[CC_LOC_COUNT] = {"NW", "N",  "NE", "EN", "E",  "ES", "SE",
                                                         "S",  "SW", "WS", "W",  "WN", "C"};

static const char *const crop_names[CC_CROP_COUNT] = {"apple",     "strawberry", "pumpkin",
                                                      "sunflower", "grain",      "scarecrow"};

static const char *const animal_names[CC_ANIMAL_COUNT] = {"chicken", "cow", "horse", "sheep",
                                                          "pig"};

static const char *const end_names[] = {"none", "junction", "city", "monastery", "farmland", "end"};

static const char *const edge_names[CC_EDGE_COUNT] = {"field",     "road",     "city",   "river",
                                                      "trail",     "farmland", "meadow", "mountain",
                                                      "grassland", "sea"};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* names[i] of a table of n names, NULL when i is out of range. */
static const char *name_at(const char *const *names, size_t n, unsigned i)
{
    return i < n ? names[i] : NULL;
}

/* Defines `const char *fn(type v)`: the name of v in `table`, NULL when it has none. */
#define NAME_OF(fn, type, table)                                                                   \
    const char *fn(type v)                                                                         \
    {                                                                                              \
        return name_at(table, COUNT(table), (unsigned)v);                                          \
    }

/* The index of `name` in a table of n names, -1 when it is none of them. */
static int index_of(const char *const *names, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(name, names[i]) == 0) return (int)i;
    return -1;
}

NAME_OF(cc_ruleset_name, enum cc_ruleset, ruleset_names)
NAME_OF(cc_kind_name, enum cc_kind, kind_names)
NAME_OF(cc_location_name, enum cc_location, location_names)
NAME_OF(cc_crop_name, enum cc_crop, crop_names)
NAME_OF(cc_animal_name, enum cc_animal, animal_names)
NAME_OF(cc_end_name, enum cc_end, end_names)

static const char *const goods_names[CC_GOODS_COUNT] = {"wine", "grain", "cloth"};

NAME_OF(cc_goods_name, enum cc_goods, goods_names)
NAME_OF(cc_edge_name, enum cc_edge, edge_names)

int cc_location_parse(const char *name)
{
    return index_of(location_names, COUNT(location_names), name);
}

int cc_ruleset_parse(const char *name)
{
    return index_of(ruleset_names, COUNT(ruleset_names), name);
}

NAME_OF(cc_set_name, enum cc_set, set_names)

int cc_set_parse(const char *name)
{
    return index_of(set_names, COUNT(set_names), name);
}

int cc_set_ruleset(enum cc_set s)
{
    return (unsigned)s < CC_SET_COUNT ? set_rulesets[s] : -1;
}
