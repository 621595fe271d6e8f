/* tileset.c: the compiled-in catalogues (generated from core/tilesets by tools/tilegen). */
#include <string.h>

#include "tiles.h"

/* Generated constant data: one entry per ruleset; ntypes is 0 for a missing catalogue. */
extern const struct cc_tileset cc_tileset_data[CC_RULESET_COUNT];

const struct cc_tileset *cc_tileset_get(enum cc_ruleset ruleset)
{
    if ((unsigned)ruleset >= CC_RULESET_COUNT || cc_tileset_data[ruleset].ntypes == 0) return NULL;
    return &cc_tileset_data[ruleset];
}

int cc_tileset_find(const struct cc_tileset *ts, const char *id)
{
    for (int i = 0; i < ts->ntypes; i++)
        if (strcmp(ts->types[i].id, id) == 0) return i;
    return -1;
}
