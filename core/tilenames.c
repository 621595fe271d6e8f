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

const char *cc_ruleset_name(enum cc_ruleset r)
{
    return (unsigned)r < CC_RULESET_COUNT ? ruleset_names[r] : NULL;
}

const char *cc_kind_name(enum cc_kind k)
{
    return (unsigned)k < CC_KIND_COUNT ? kind_names[k] : NULL;
}

const char *cc_location_name(enum cc_location loc)
{
    return (unsigned)loc < CC_LOC_COUNT ? location_names[loc] : NULL;
}

const char *cc_crop_name(enum cc_crop c)
{
    return (unsigned)c < CC_CROP_COUNT ? crop_names[c] : NULL;
}

const char *cc_animal_name(enum cc_animal a)
{
    return (unsigned)a < CC_ANIMAL_COUNT ? animal_names[a] : NULL;
}

const char *cc_end_name(enum cc_end e)
{
    return (unsigned)e < sizeof end_names / sizeof end_names[0] ? end_names[e] : NULL;
}

static const char *const goods_names[CC_GOODS_COUNT] = {"wine", "grain", "cloth"};

const char *cc_goods_name(enum cc_goods g)
{
    return (unsigned)g < CC_GOODS_COUNT ? goods_names[g] : NULL;
}

const char *cc_edge_name(enum cc_edge e)
{
    return (unsigned)e < CC_EDGE_COUNT ? edge_names[e] : NULL;
}

int cc_location_parse(const char *name)
{
    for (int i = 0; i < CC_LOC_COUNT; i++)
        if (strcmp(name, location_names[i]) == 0) return i;
    return -1;
}

int cc_ruleset_parse(const char *name)
{
    for (int i = 0; i < CC_RULESET_COUNT; i++)
        if (strcmp(name, ruleset_names[i]) == 0) return i;
    return -1;
}

const char *cc_set_name(enum cc_set s)
{
    return (unsigned)s < CC_SET_COUNT ? set_names[s] : NULL;
}

int cc_set_parse(const char *name)
{
    for (int i = 0; i < CC_SET_COUNT; i++)
        if (strcmp(name, set_names[i]) == 0) return i;
    return -1;
}

int cc_set_ruleset(enum cc_set s)
{
    return (unsigned)s < CC_SET_COUNT ? set_rulesets[s] : -1;
}
