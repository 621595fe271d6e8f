/* tiles.h: tile types as data (edges, features, extras), their rotations, and the catalogues. */
#ifndef CC_TILES_H
#define CC_TILES_H

#include <stddef.h>
#include <stdint.h>

#include "nodiscard.h"

#define CC_MAX_TILE_FEATURES 10 /* X and hills H have 8; room for one more kind */
#define CC_MAX_TILE_TYPES    80 /* classic: 24 land, 10 river, 17 inns, 24 traders types */
#define CC_MAX_PORTS         2  /* port cities on one discovery tile */
#define CC_NO_FEATURE        0xFF

/* The rulesets. The numeric values are stored in snapshots: never renumber. */
enum cc_ruleset {
    CC_RULESET_CLASSIC = 0,
    CC_RULESET_HILLS = 1,
    CC_RULESET_DISCOVERY = 2,
    CC_RULESET_COUNT
};

/*
 * The sets a tile type comes from: the base game of its ruleset, or an expansion inside
 * it (each with its module in core/modules.c). A catalogue line `@set NAME` puts the
 * types that follow into that set. Values are generated into the data: never renumber.
 */
enum cc_set {
    CC_SET_BASE = 0, /* the ruleset's own tiles */
    CC_SET_RIVER,    /* classic: the River */
    CC_SET_INNS,     /* classic: Inns & Cathedrals */
    CC_SET_TRADERS,  /* classic: Traders & Builders */
    CC_SET_COUNT
};

/* What a whole tile edge is. Values are stored: never renumber. */
enum cc_edge {
    CC_EDGE_FIELD = 0,
    CC_EDGE_ROAD,
    CC_EDGE_CITY,
    CC_EDGE_RIVER,
    CC_EDGE_TRAIL,
    CC_EDGE_FARMLAND,
    CC_EDGE_MEADOW,
    CC_EDGE_MOUNTAIN,
    CC_EDGE_GRASS,
    CC_EDGE_SEA,
    CC_EDGE_COUNT
};

/* What a feature (a connected piece of one tile) is. Values are stored: never renumber. */
enum cc_kind {
    CC_KIND_CITY = 0,
    CC_KIND_ROAD,
    CC_KIND_FIELD,
    CC_KIND_MONASTERY,
    CC_KIND_RIVER,
    CC_KIND_TRAIL,
    CC_KIND_FARMLAND,
    CC_KIND_MEADOW,
    CC_KIND_MOUNTAIN,
    CC_KIND_GRASS,
    CC_KIND_SEA,
    CC_KIND_COUNT
};

/* Where a road or trail segment ends on its own tile (notation `>jct`, `>city` ...). */
enum cc_end {
    CC_END_NONE = 0,
    CC_END_JUNCTION,
    CC_END_CITY,
    CC_END_MONASTERY,
    CC_END_FARM,
    CC_END_DEAD /* `>end`: ends on the tile at nothing in particular (Traders `TW`) */
};

/* Goods of Traders & Builders, printed on city segments (`+wine` ...). */
enum cc_goods { CC_GOODS_WINE = 0, CC_GOODS_GRAIN, CC_GOODS_CLOTH, CC_GOODS_COUNT };

/* Harvest tokens of hills, in the rules' tie-break order; the scarecrow is wild. */
enum cc_crop {
    CC_CROP_APPLE = 0,
    CC_CROP_STRAWBERRY,
    CC_CROP_PUMPKIN,
    CC_CROP_SUNFLOWER,
    CC_CROP_GRAIN,
    CC_CROP_SCARECROW,
    CC_CROP_COUNT
};

/* Animals printed on hills tiles. */
enum cc_animal {
    CC_ANIMAL_CHICKEN = 0,
    CC_ANIMAL_COW,
    CC_ANIMAL_HORSE,
    CC_ANIMAL_SHEEP,
    CC_ANIMAL_PIG,
    CC_ANIMAL_COUNT
};

/*
 * Locations on a tile, in board directions, numbered clockwise from the north-west
 * corner. Slot 3*s+1 is the middle of side s (N=0, E=1, S=2, W=3); 3*s is the first
 * half of that side going clockwise, 3*s+2 the second. CC_LOC_C is the centre.
 * A rotation by 90 degrees clockwise adds 3 to every edge slot (mod 12).
 */
enum cc_location {
    CC_LOC_NW = 0,
    CC_LOC_N,
    CC_LOC_NE,
    CC_LOC_EN,
    CC_LOC_E,
    CC_LOC_ES,
    CC_LOC_SE,
    CC_LOC_S,
    CC_LOC_SW,
    CC_LOC_WS,
    CC_LOC_W,
    CC_LOC_WN,
    CC_LOC_C,
    CC_LOC_COUNT
};

#define CC_EDGE_SLOTS_MASK 0x0FFFu /* the twelve edge slots */
#define CC_CENTRE_MASK     0x1000u /* the centre */

/* One feature of a tile type, at rotation 0. */
struct cc_feature_type {
    uint8_t kind;                   /* enum cc_kind */
    uint8_t end;                    /* enum cc_end: where a road or trail stops on this tile */
    uint16_t slots;                 /* locations it covers: bits of enum cc_location */
    uint8_t pennants;               /* city pennants */
    uint8_t ports;                  /* discovery: port cities on this region */
    uint16_t touches;               /* fields/meadows: bit i set when it touches feature i */
    uint8_t harvest[CC_CROP_COUNT]; /* hills farmland: harvest symbols by crop */
    uint8_t inn;                    /* classic road: 1 with an inn (`+inn`, Inns & Cathedrals) */
    uint8_t cathedral;              /* classic city: 1 with a cathedral (`+cathedral`) */
    uint8_t goods[CC_GOODS_COUNT];  /* classic city: goods symbols by kind (Traders) */
};

/* A tile type: the catalogue entry plus tables precomputed for its four rotations. */
struct cc_tile_type {
    char id[4];        /* "A", "RB" ... NUL-terminated */
    uint8_t count;     /* copies in the standard deck */
    uint8_t is_start;  /* the ruleset's start tile is of this type */
    uint8_t is_river;  /* has river edges */
    uint8_t set;       /* enum cc_set: the base game or the expansion it comes from */
    uint8_t edges[4];  /* enum cc_edge of N, E, S, W at rotation 0 */
    uint8_t nfeatures; /* entries used in features[] */
    struct cc_feature_type features[CC_MAX_TILE_FEATURES]; /* at rotation 0 */
    uint8_t animals[CC_ANIMAL_COUNT];                      /* hills: animals printed on the tile */
    uint8_t nports;                                        /* discovery: port cities on the tile */
    uint8_t port_land[CC_MAX_PORTS];                       /* feature index of each port's land */
    uint8_t port_sea[CC_MAX_PORTS];                        /* feature index of each port's sea */
    uint8_t slot_feature[4][CC_LOC_COUNT];                 /* per rotation: location -> feature */
    uint16_t edge_code[4]; /* per rotation: 4 bits per side, N low */
};

/* A ruleset's catalogue: its tile types, in catalogue order. */
struct cc_tileset {
    uint8_t ruleset;                              /* enum cc_ruleset */
    uint8_t ntypes;                               /* entries used in types[] */
    uint8_t start_type;                           /* index of the start tile type */
    uint8_t land_count;                           /* tiles of the base set (CC_SET_BASE) */
    struct cc_tile_type types[CC_MAX_TILE_TYPES]; /* the types */
};

/* Result of parsing a catalogue text. */
enum cc_parse_status {
    CC_PARSE_OK = 0,
    CC_PARSE_SYNTAX,      /* a line does not follow the notation */
    CC_PARSE_UNKNOWN,     /* an unknown edge letter, feature kind, symbol or half-side */
    CC_PARSE_TOO_MANY,    /* more types, features or ports than the fixed limits */
    CC_PARSE_INCONSISTENT /* a location covered twice or not at all, or edges disagree */
};

/*
 * Parses a catalogue in the notation of the rules (lines "ID COUNT E E E E | f ; f ...",
 * blank lines and lines starting with '#' or '`' ignored, `#` after a line ends it; a line
 * "@set NAME" puts the types after it into set NAME, the base set until the first) for
 * `ruleset` into `out`, checking that every edge location of every type belongs to
 * exactly one feature and agrees with the edge letters. On failure returns the status
 * and the 1-based line number in *line (if line is not NULL); `out` is then unspecified.
 * Pure: no allocation, no I/O.
 */
enum cc_parse_status cc_tileset_parse(struct cc_tileset *out, enum cc_ruleset ruleset,
                                      const char *text, size_t len, int *line) NODISCARD;

/* The compiled-in catalogue of a ruleset (the classic one includes the river tiles),
 * or NULL for an unknown ruleset. The data is constant and lives for the program. */
const struct cc_tileset *cc_tileset_get(enum cc_ruleset ruleset) NODISCARD;

/* Index of the tile type with this id in `ts`, or -1. */
int cc_tileset_find(const struct cc_tileset *ts, const char *id) NODISCARD;

/* Stable names, for the API and the notation. NULL for out-of-range values. */
const char *cc_ruleset_name(enum cc_ruleset r);
const char *cc_kind_name(enum cc_kind k);
const char *cc_location_name(enum cc_location loc);
const char *cc_crop_name(enum cc_crop c);
const char *cc_animal_name(enum cc_animal a);
const char *cc_end_name(enum cc_end e);
const char *cc_edge_name(enum cc_edge e);
const char *cc_set_name(enum cc_set s);
const char *cc_goods_name(enum cc_goods g);

/* The set with this name ("base", "river" ...), or -1. */
int cc_set_parse(const char *name) NODISCARD;

/* The ruleset whose expansion set `s` is, or -1 (the base set, or out of range). */
int cc_set_ruleset(enum cc_set s) NODISCARD;

/* The location with this API name ("N", "WS", "C" ...), or -1. */
int cc_location_parse(const char *name) NODISCARD;

/* The ruleset with this name, or -1. */
int cc_ruleset_parse(const char *name) NODISCARD;

/* Location `loc` of a tile rotated by `rot` quarter turns clockwise, in board terms. */
static inline int cc_location_rotate(int loc, int rot)
{
    return loc == CC_LOC_C ? CC_LOC_C : (loc + 3 * rot) % 12;
}

/* Slots of feature mask `m` turned by `rot` quarter turns (the centre stays). */
static inline uint16_t cc_rotate_slots(uint16_t m, unsigned rot)
{
    uint16_t edges = m & CC_EDGE_SLOTS_MASK;
    unsigned k = 3 * (rot & 3);
    edges = (uint16_t)(((edges << k) | (edges >> (12 - k))) & CC_EDGE_SLOTS_MASK);
    return (uint16_t)(edges | (m & CC_CENTRE_MASK));
}

#endif
