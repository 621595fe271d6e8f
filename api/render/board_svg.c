/* board_svg.c: a game's board as a picture (SVG 1.1), drawn from the tile catalogue. */
#include "board_svg.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board_marks.h"
#include "buf.h"
#include "rulesets.h"

/*
 * Geometry. Every coordinate is an integer, so the output never depends on the locale or
 * on floating point. A tile is TILE px square; shapes are written for one side (north, or
 * the north-west corner) and turned a quarter at a time about the tile's centre.
 */
#define TILE         60 /* px per tile side */
#define HALF         30 /* the centre */
#define CAP_DEPTH    18 /* how far a one-sided area reaches into the tile at its middle */
#define MARGIN       28 /* around the board, room for the coordinate labels */
#define ROW_H        22 /* one player line of the legend */
#define CHAR_W       7  /* a generous width of one character of the 12 px font */
#define NAME_CHARS   40 /* characters of a name shown at most */
#define GROUND_INSET 12 /* how far inside the tile a piece on a field or meadow stands */

struct pt {
    int x, y; /* px, tile-local or absolute */
};

/* The output is a struct buf of at most BOARD_SVG_MAX bytes, which remembers a failure (out
 * of memory or over the limit): everything after it is dropped, board_svg_new() checks it
 * once at the end. */

static void put(struct buf *b, const char *s)
{
    if (buf_adds(b, s)) return;
}

/* Length of the UTF-8 sequence at s (at most `left` bytes) that XML 1.0 allows as text,
 * or 0 when it is malformed, a control character or a non-character. */
static size_t text_char_len(const unsigned char *s, size_t left)
{
    unsigned c = s[0];
    if (c < 0x80) return (c < 0x20 || c == 0x7F) ? 0 : 1;
    size_t n;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F; /* no surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else
        return 0;
    if (left < n || s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF) return 0;
    if (n == 3 && c == 0xEF && s[1] == 0xBF && s[2] >= 0xBE) return 0; /* U+FFFE, U+FFFF */
    return n;
}

/* The entity that stands for markup character `c` in XML text, or NULL for any other. */
static const char *entity_of(unsigned char c)
{
    static const struct {
        char c;
        const char *entity;
    } entities[] = {
        {'&', "&amp;"}, {'<', "&lt;"}, {'>', "&gt;"}, {'"', "&quot;"}, {'\'', "&apos;"}};
    for (size_t i = 0; i < sizeof entities / sizeof entities[0]; i++)
        if (entities[i].c == (char)c) return entities[i].entity;
    return NULL;
}

/* Writes `s` as XML text (also fit for an attribute value): the five markup characters as
 * entities, anything that is not UTF-8 text as '?', at most `max_chars` characters (then an
 * ellipsis). */
static void put_text(struct buf *b, const char *s, size_t max_chars)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t left = strlen(s), chars = 0;
    while (left > 0) {
        if (chars == max_chars) {
            put(b, "\xE2\x80\xA6");
            return;
        }
        size_t n = text_char_len(u, left);
        const char *entity = n == 0 ? "?" : n == 1 ? entity_of(u[0]) : NULL;
        if (entity) {
            put(b, entity);
        } else {
            char one[5];
            memcpy(one, u, n);
            one[n] = '\0';
            put(b, one);
        }
        if (n == 0) n = 1;
        u += n;
        left -= n;
        chars++;
    }
}

/* ---- Tile geometry ---------------------------------------------------------------- */

/* Point (x, y) of a tile turned `q` quarter turns clockwise about the centre. */
static struct pt turn(int x, int y, unsigned q)
{
    for (unsigned i = 0; i < (q & 3); i++) {
        int nx = TILE - y;
        y = x;
        x = nx;
    }
    return (struct pt){x, y};
}

/* Corner k: 0 NW, 1 NE, 2 SE, 3 SW (side k runs from corner k to corner k + 1). */
static struct pt corner(unsigned k)
{
    return turn(0, 0, k);
}

/* The middle of side k (0 N, 1 E, 2 S, 3 W). */
static struct pt side_mid(unsigned k)
{
    return turn(HALF, 0, k);
}

/* Writes " x,y" for tile-local point p of the tile whose corner is at (ox, oy). */
static void put_pt(struct buf *b, int ox, int oy, struct pt p)
{
    buf_putf(b, " %d,%d", ox + p.x, oy + p.y);
}

/* The two control points of the curve that bounds a one-sided area of side k, going from
 * corner k to corner k + 1: it bows CAP_DEPTH px into the tile and leaves the corners at
 * less than 45 degrees, so two such areas on neighbouring sides never touch. */
static void cap_controls(unsigned k, struct pt *c1, struct pt *c2)
{
    *c1 = turn(26, 24, k);
    *c2 = turn(34, 24, k);
}

static unsigned popcount4(unsigned m)
{
    return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1);
}

/* The sides (bit s for side s, N = 0) whose middle slot is in `slots`. */
static unsigned sides_of(uint16_t slots)
{
    unsigned sides = 0;
    for (unsigned s = 0; s < 4; s++)
        if (slots & (1u << (3 * s + 1))) sides |= 1u << s;
    return sides;
}

/* Two neighbouring sides: the first of them going clockwise in *first. */
static bool adjacent_pair(unsigned sides, unsigned *first)
{
    if (popcount4(sides) != 2) return false;
    for (unsigned k = 0; k < 4; k++)
        if ((sides & (1u << k)) && (sides & (1u << ((k + 1) & 3)))) {
            *first = k;
            return true;
        }
    return false;
}

/*
 * The outline of an area covering `sides` (a city, farmland, mountain ...): one side is a
 * cap bounded by a curve; two neighbouring sides the triangle cut off by the diagonal;
 * otherwise the whole tile less a cap on each side it does not cover (so a cap and the
 * area on the other sides fit together exactly).
 */
static void put_area_path(struct buf *b, int ox, int oy, unsigned sides)
{
    struct pt c1, c2;
    unsigned k;
    put(b, "M");
    if (popcount4(sides) == 1) {
        for (k = 0; !(sides & (1u << k)); k++) continue;
        cap_controls(k, &c1, &c2);
        put_pt(b, ox, oy, corner(k));
        put(b, " L");
        put_pt(b, ox, oy, corner(k + 1));
        put(b, " C");
        put_pt(b, ox, oy, c2);
        put_pt(b, ox, oy, c1);
        put_pt(b, ox, oy, corner(k));
    } else if (adjacent_pair(sides, &k)) {
        put_pt(b, ox, oy, corner(k));
        put(b, " L");
        put_pt(b, ox, oy, corner(k + 1));
        put_pt(b, ox, oy, corner(k + 2));
    } else {
        put_pt(b, ox, oy, corner(0));
        for (k = 0; k < 4; k++) {
            if (sides & (1u << k)) {
                put(b, " L");
            } else {
                cap_controls(k, &c1, &c2);
                put(b, " C");
                put_pt(b, ox, oy, c1);
                put_pt(b, ox, oy, c2);
            }
            put_pt(b, ox, oy, corner(k + 1));
        }
    }
    put(b, " Z");
}

/* Where a piece stands on an area covering `sides`, and the spots for its extras
 * (pennants, harvest symbols), tile-local. */
static struct pt area_spot(unsigned sides, int which)
{
    unsigned k;
    unsigned n = popcount4(sides);
    if (n == 1) {
        for (k = 0; !(sides & (1u << k)); k++) continue;
        static const struct pt cap[3] = {{30, 9}, {15, 6}, {45, 6}};
        return turn(cap[which].x, cap[which].y, k);
    }
    if (adjacent_pair(sides, &k)) {
        static const struct pt tri[3] = {{40, 18}, {51, 8}, {26, 6}};
        return turn(tri[which].x, tri[which].y, k);
    }
    if (n == 2) { /* opposite sides: a band */
        k = (sides & 1u) ? 0 : 1;
        static const struct pt band[3] = {{30, 30}, {30, 8}, {30, 52}};
        return turn(band[which].x, band[which].y, k);
    }
    if (n == 3) {
        for (k = 0; sides & (1u << k); k++) continue; /* the side not covered */
        static const struct pt three[3] = {{30, 26}, {10, 10}, {50, 10}};
        return turn(three[which].x, three[which].y, k + 2);
    }
    static const struct pt full[3] = {{30, 30}, {14, 14}, {46, 14}};
    return turn(full[which].x, full[which].y, 0);
}

/* How far from the middle of side `s`, walking to the centre, a line enters an area over
 * `sides` (the area never covers side s itself); HALF when it never does. */
static int area_entry(unsigned sides, unsigned s)
{
    unsigned opp = (s + 2) & 3, k;
    unsigned n = popcount4(sides);
    if (n == 1) return (sides & (1u << opp)) ? TILE - CAP_DEPTH : HALF;
    if (adjacent_pair(sides, &k)) return HALF;
    return CAP_DEPTH;
}

/* The anchor of a location on the tile (side middles, half-sides at 1/4 and 3/4 of a
 * side, the centre), `inset` px inside the tile. */
static struct pt location_anchor(unsigned loc, int inset)
{
    if (loc >= CC_LOC_C) return (struct pt){HALF, HALF};
    static const int along[3] = {15, 30, 45};
    return turn(along[loc % 3], inset, loc / 3);
}

/* ---- Colours ---------------------------------------------------------------------- */

static const char *const seat_fill[CC_MAX_PLAYERS] = {"#1f5fd6", "#d62b2b", "#1f9e3a",
                                                      "#f2cc1d", "#222222", "#8a8a8a"};
static const char *const seat_name[CC_MAX_PLAYERS] = {"blue",   "red",   "green",
                                                      "yellow", "black", "grey"};

/* Fill and outline of each kind of area, and the ground colour of fields and meadows. */
struct kind_style {
    const char *fill;   /* area fill */
    const char *stroke; /* its outline */
};

static struct kind_style kind_style(unsigned kind)
{
    static const struct kind_style styles[CC_KIND_COUNT] = {
        [CC_KIND_CITY] = {"#c99a5b", "#7a5a2e"},     [CC_KIND_FARMLAND] = {"#e9c649", "#a8871c"},
        [CC_KIND_MOUNTAIN] = {"#9d8f80", "#5e5246"}, [CC_KIND_GRASS] = {"#bfdc73", "#7f9c3a"},
        [CC_KIND_SEA] = {"#5ea9dc", "#2f6f9f"},      [CC_KIND_MEADOW] = {"#a9d47c", "#a9d47c"},
    };
    static const struct kind_style field = {"#8fc163", "#8fc163"}; /* and any other kind */
    return kind < CC_KIND_COUNT && styles[kind].fill ? styles[kind] : field;
}

static bool is_area(unsigned kind)
{
    return kind == CC_KIND_CITY || kind == CC_KIND_FARMLAND || kind == CC_KIND_MOUNTAIN ||
           kind == CC_KIND_GRASS || kind == CC_KIND_SEA;
}

static bool is_line(unsigned kind)
{
    return kind == CC_KIND_ROAD || kind == CC_KIND_TRAIL || kind == CC_KIND_RIVER;
}

static bool is_ground(unsigned kind)
{
    return kind == CC_KIND_FIELD || kind == CC_KIND_MEADOW;
}

static const char *const crop_fill[CC_CROP_COUNT] = {"#d8262e", "#e8467c", "#f08a1c",
                                                     "#ffd42a", "#d9b25f", "#7b4f2a"};
static const char *const animal_fill[CC_ANIMAL_COUNT] = {"#f3d34a", "#3b3b3b", "#8b5a2b", "#ffffff",
                                                         "#f29bb0"};

/* ---- One tile --------------------------------------------------------------------- */

/* A placed tile's features in board directions. */
struct tile_view {
    const struct cc_tile_type *t;         /* the type */
    unsigned rot;                         /* quarter turns clockwise */
    int ox, oy;                           /* its north-west corner, px */
    uint16_t slots[CC_MAX_TILE_FEATURES]; /* per feature: slots, turned */
    unsigned sides[CC_MAX_TILE_FEATURES]; /* per feature: sides whose middle it holds */
    struct pt monastery;                  /* where the monastery stands (tile-local) */
    struct pt busy[4];                    /* where pieces on it stand (tile-local) ... */
    unsigned nbusy;                       /* ... how many: marks that may go elsewhere do */
};

static void view_init(struct tile_view *v, const struct cc_tile_type *t, unsigned rot, int ox,
                      int oy)
{
    memset(v, 0, sizeof *v);
    v->t = t;
    v->rot = rot & 3;
    v->ox = ox;
    v->oy = oy;
    bool river = false;
    for (unsigned f = 0; f < t->nfeatures; f++) {
        v->slots[f] = cc_rotate_slots(t->features[f].slots, v->rot);
        v->sides[f] = sides_of(v->slots[f]);
        river |= t->features[f].kind == CC_KIND_RIVER;
    }
    /* A monastery stands in the centre; beside a river, on the first open side's half. */
    v->monastery = (struct pt){HALF, HALF};
    if (river) {
        for (unsigned s = 0; s < 4; s++) {
            unsigned f = t->slot_feature[v->rot][3 * s + 1];
            if (f < t->nfeatures && is_ground(t->features[f].kind)) {
                v->monastery = turn(HALF, 14, s);
                break;
            }
        }
    }
}

/* The ground (fields and meadows; else the largest area) and the feature it stands for,
 * or CC_NO_FEATURE for a field. */
static unsigned ground_feature(const struct tile_view *v, const char **fill)
{
    unsigned best = CC_NO_FEATURE, best_n = 0;
    for (unsigned f = 0; f < v->t->nfeatures; f++) {
        unsigned kind = v->t->features[f].kind;
        if (is_ground(kind)) {
            *fill = kind_style(kind).fill;
            return CC_NO_FEATURE;
        }
        if (is_area(kind) && popcount4(v->sides[f]) > best_n) {
            best = f;
            best_n = popcount4(v->sides[f]);
        }
    }
    *fill = best == CC_NO_FEATURE ? kind_style(CC_KIND_FIELD).fill
                                  : kind_style(v->t->features[best].kind).fill;
    return best;
}

/* The end of a line feature `f` that leaves through side s and stops on the tile. */
static struct pt line_end(const struct tile_view *v, unsigned f, unsigned s)
{
    const struct cc_feature_type *ft = &v->t->features[f];
    unsigned target = ft->end == CC_END_CITY   ? CC_KIND_CITY
                      : ft->end == CC_END_FARM ? CC_KIND_FARMLAND
                                               : CC_KIND_COUNT;
    if (ft->end == CC_END_MONASTERY) return v->monastery;
    if (target == CC_KIND_COUNT) return (struct pt){HALF, HALF};
    int d = -1;
    for (unsigned o = 0; o < v->t->nfeatures; o++)
        if (v->t->features[o].kind == target) {
            int e = area_entry(v->sides[o], s);
            if (d < 0 || e < d) d = e;
        }
    return turn(HALF, d < 0 ? HALF : d, s);
}

/* The path of line feature `f`; where a piece on it stands in *spot. */
static void put_line_path(struct buf *b, const struct tile_view *v, unsigned f, struct pt *spot)
{
    const struct cc_feature_type *ft = &v->t->features[f];
    unsigned sides = v->sides[f], first = 4, n = popcount4(sides);
    for (unsigned s = 0; s < 4; s++)
        if ((sides & (1u << s)) && first == 4) first = s;
    *spot = (struct pt){HALF, HALF};
    if (first == 4) return;
    struct pt a = side_mid(first);
    if (n == 2 && ft->end == CC_END_NONE) {
        unsigned second = first + 1;
        while (!(sides & (1u << second))) second++;
        struct pt c = side_mid(second);
        put(b, "M");
        put_pt(b, v->ox, v->oy, a);
        if (second == first + 2) {
            put(b, " L");
            *spot = (struct pt){(a.x + c.x) / 2, (a.y + c.y) / 2};
        } else {
            put(b, " Q");
            put_pt(b, v->ox, v->oy, (struct pt){HALF, HALF});
            *spot = (struct pt){(a.x + c.x + 2 * HALF) / 4, (a.y + c.y + 2 * HALF) / 4};
        }
        put_pt(b, v->ox, v->oy, c);
        return;
    }
    /* Ends on the tile (or a spring, a lake): each side to where it stops. */
    for (unsigned s = 0; s < 4; s++) {
        if (!(sides & (1u << s))) continue;
        struct pt m = side_mid(s), e = line_end(v, f, s);
        buf_putf(b, "%sM", s == first ? "" : " ");
        put_pt(b, v->ox, v->oy, m);
        put(b, " L");
        put_pt(b, v->ox, v->oy, e);
        if (s == first) *spot = (struct pt){(m.x + e.x) / 2, (m.y + e.y) / 2};
    }
}

/* How far (px, the larger of the two axes) `p` is from the nearest piece on the tile. */
static int clearance(const struct tile_view *v, struct pt p)
{
    int best = TILE;
    for (unsigned i = 0; i < v->nbusy; i++) {
        int dx = abs(p.x - v->busy[i].x), dy = abs(p.y - v->busy[i].y);
        int d = dx > dy ? dx : dy;
        if (d < best) best = d;
    }
    return best;
}

/* Where the sign of an inn on road `f` stands: beside the road near the first side it
 * leaves by (a piece on the road stands farther in), inside a bend, on the side away from a
 * city's edge (a city's wall reaches towards the road there); if a piece on the tile would
 * hide it there, across the road, or on the road at the side. */
static struct pt inn_spot(const struct tile_view *v, unsigned f)
{
    unsigned sides = v->sides[f], first = 0;
    while (first < 4 && !(sides & (1u << first))) first++;
    if (first == 4) return (struct pt){HALF, HALF};
    /* Walking in from side `first`, side first + 1 lies on the turned tile's +x. */
    unsigned plus_side = (first + 1) & 3, minus_side = (first + 3) & 3;
    bool plus = !(sides & (1u << minus_side)) || v->t->features[f].end != CC_END_NONE;
    bool plus_city = v->t->edges[(plus_side - v->rot) & 3] == CC_EDGE_CITY;
    bool minus_city = v->t->edges[(minus_side - v->rot) & 3] == CC_EDGE_CITY;
    if (plus ? plus_city && !minus_city : minus_city && !plus_city) plus = !plus;
    const struct pt spots[3] = {turn(plus ? HALF + 13 : HALF - 13, 9, first),
                                turn(plus ? HALF - 13 : HALF + 13, 9, first), turn(HALF, 7, first)};
    unsigned best = 0;
    for (unsigned i = 0; i < 3; i++) {
        if (clearance(v, spots[i]) >= 16) return spots[i];
        if (clearance(v, spots[i]) > clearance(v, spots[best])) best = i;
    }
    return spots[best];
}

/* The lines of kind `kind` on the tile (rivers first, then roads and trails over them:
 * the bridges). */
static void put_lines(struct buf *b, const struct tile_view *v, unsigned kind)
{
    for (unsigned f = 0; f < v->t->nfeatures; f++) {
        const struct cc_feature_type *ft = &v->t->features[f];
        if (ft->kind != kind) continue;
        struct pt spot;
        /* An outline, then the line itself. */
        static const char *const under[] = {
            [CC_KIND_ROAD] = "stroke=\"#6b5a45\" stroke-width=\"7\"",
            [CC_KIND_TRAIL] = "stroke=\"#6e4623\" stroke-width=\"6\"",
            [CC_KIND_RIVER] = "stroke=\"#2a5f9c\" stroke-width=\"11\"",
        };
        static const char *const over[] = {
            [CC_KIND_ROAD] = "stroke=\"#f6f1e4\" stroke-width=\"4\"",
            [CC_KIND_TRAIL] = "stroke=\"#c99a62\" stroke-width=\"3\" stroke-dasharray=\"4 3\"",
            [CC_KIND_RIVER] = "stroke=\"#4f9ee6\" stroke-width=\"8\"",
        };
        for (int layer = 0; layer < 2; layer++) {
            buf_putf(b, "<path class=\"%s\" fill=\"none\" %s d=\"",
                     cc_kind_name((enum cc_kind)kind), layer ? over[kind] : under[kind]);
            put_line_path(b, v, f, &spot);
            put(b, "\"/>");
        }
        /* An inn: its sign beside the road, near where it enters the tile. */
        if (ft->inn) {
            struct pt at = inn_spot(v, f);
            mark_inn(b, v->ox + at.x, v->oy + at.y);
        }
        /* A spring or a lake: a pond where the river stops. */
        if (kind == CC_KIND_RIVER && popcount4(v->sides[f]) == 1)
            buf_putf(b, "<circle cx=\"%d\" cy=\"%d\" r=\"9\" fill=\"#4f9ee6\" stroke=\"#2a5f9c\"/>",
                     v->ox + HALF, v->oy + HALF);
    }
}

static void put_pennant(struct buf *b, int x, int y)
{
    buf_putf(b,
             "<path class=\"pennant\" d=\"M%d,%d h8 v4 c0,3 -2,5 -4,6 c-2,-1 -4,-3 -4,-6 z\" "
             "fill=\"#2b55b5\" stroke=\"#ffffff\" stroke-width=\"1\"/>",
             x - 4, y - 5);
}

static void put_crop(struct buf *b, int x, int y, unsigned crop)
{
    buf_putf(b, "<g class=\"harvest\"><title>%s</title>", cc_crop_name((enum cc_crop)crop));
    if (crop == CC_CROP_SCARECROW)
        buf_putf(b,
                 "<path d=\"M%d,%d v9 M%d,%d h8\" stroke=\"#5a3a1c\" stroke-width=\"1.6\"/>"
                 "<circle cx=\"%d\" cy=\"%d\" r=\"2\" fill=\"#e9d7a9\" stroke=\"#5a3a1c\" "
                 "stroke-width=\"0.8\"/>",
                 x, y - 4, x - 4, y - 1, x, y - 5);
    else
        buf_putf(b,
                 "<circle cx=\"%d\" cy=\"%d\" r=\"3.5\" fill=\"%s\" stroke=\"#4a3416\" "
                 "stroke-width=\"0.8\"/>",
                 x, y, crop_fill[crop]);
    put(b, "</g>");
}

/* Where the (first) goods symbol of a city over `sides` goes, tile-local: a disc of radius 8
 * wholly inside the city and clear of a follower on it (area_spot(sides, 0)). */
static struct pt goods_spot(unsigned sides)
{
    unsigned k, n = popcount4(sides);
    if (adjacent_pair(sides, &k)) return turn(22, 9, k);   /* towards corner k, off the diagonal */
    if (n == 2) return turn(30, 11, (sides & 1u) ? 0 : 1); /* a band: near its first end */
    if (n == 3) {
        for (k = 0; sides & (1u << k); k++) continue;
        return turn(12, 12, k + 2);
    }
    return n == 4 ? (struct pt){14, 14} : area_spot(sides, 1);
}

/* Pennants and harvest symbols of area feature f, at its extra spots (then in a row). */
static void put_area_extras(struct buf *b, const struct tile_view *v, unsigned f)
{
    const struct cc_feature_type *ft = &v->t->features[f];
    unsigned n = 0;
    for (unsigned i = 0; i < ft->pennants; i++, n++) {
        struct pt p = area_spot(v->sides[f], 1 + (int)(n % 2));
        put_pennant(b, v->ox + p.x + 9 * (int)(n / 2), v->oy + p.y);
    }
    for (unsigned c = 0; c < CC_CROP_COUNT; c++)
        for (unsigned i = 0; i < ft->harvest[c]; i++, n++) {
            struct pt p = area_spot(v->sides[f], 1 + (int)(n % 2));
            put_crop(b, v->ox + p.x + 8 * (int)(n / 2), v->oy + p.y, c);
        }
    struct pt at = goods_spot(v->sides[f]);
    for (unsigned k = 0, i = 0; k < CC_GOODS_COUNT; k++)
        for (unsigned j = 0; j < ft->goods[k]; j++, i++)
            mark_goods(b, v->ox + at.x + 17 * (int)(i % 2), v->oy + at.y + 17 * (int)(i / 2), k);
    /* A cathedral in a whole-tile city stands in its lower right, clear of a piece in the
     * middle and of the pennants along the top; elsewhere at the next extra spot. */
    if (ft->cathedral) {
        struct pt p = popcount4(v->sides[f]) == 4 ? (struct pt){45, 43}
                                                  : area_spot(v->sides[f], 1 + (int)(n % 2));
        mark_cathedral(b, v->ox + p.x, v->oy + p.y);
    }
}

/* The port cities of the tile: on the shore of a cap, or where two areas meet. */
static void put_ports(struct buf *b, const struct tile_view *v)
{
    struct pt seen[CC_MAX_PORTS];
    for (unsigned p = 0; p < v->t->nports && p < CC_MAX_PORTS; p++) {
        unsigned land = v->t->port_land[p], sea = v->t->port_sea[p];
        struct pt at = {HALF, HALF};
        unsigned k;
        unsigned cap = popcount4(v->sides[land]) == 1  ? v->sides[land]
                       : popcount4(v->sides[sea]) == 1 ? v->sides[sea]
                                                       : 0;
        if (cap) {
            for (k = 0; !(cap & (1u << k)); k++) continue;
            at = turn(17, 14, k); /* on the shore, beside a piece in the cap */
        }
        for (unsigned q = 0; q < p; q++)
            if (seen[q].x == at.x && seen[q].y == at.y) at.x += 9;
        seen[p] = at;
        buf_putf(b,
                 "<g class=\"port\"><title>port city</title><circle cx=\"%d\" cy=\"%d\" r=\"5\" "
                 "fill=\"#ffffff\" stroke=\"#9c2a1f\" stroke-width=\"2\"/><circle cx=\"%d\" "
                 "cy=\"%d\" r=\"2\" fill=\"#9c2a1f\"/></g>",
                 v->ox + at.x, v->oy + at.y, v->ox + at.x, v->oy + at.y);
    }
}

/* The animals of the tile, in a little herd in a corner that is meadow on both sides. */
static void put_animals(struct buf *b, const struct tile_view *v)
{
    unsigned total = 0;
    for (unsigned a = 0; a < CC_ANIMAL_COUNT; a++) total += v->t->animals[a];
    if (total == 0) return;
    static const unsigned order[4] = {2, 3, 1, 0}; /* SE, SW, NE, NW */
    unsigned k = 2;
    for (unsigned i = 0; i < 4; i++) {
        unsigned c = order[i];
        unsigned before = v->t->slot_feature[v->rot][(3 * c + 11) % 12];
        unsigned after = v->t->slot_feature[v->rot][3 * c];
        if (before == after && after < v->t->nfeatures && is_ground(v->t->features[after].kind)) {
            k = c;
            break;
        }
    }
    put(b, "<g class=\"animals\"><title>");
    const char *sep = "";
    for (unsigned a = 0; a < CC_ANIMAL_COUNT; a++)
        if (v->t->animals[a]) {
            buf_putf(b, "%s%u %s", sep, v->t->animals[a], cc_animal_name((enum cc_animal)a));
            sep = ", ";
        }
    put(b, "</title>");
    /* A grid of three columns from the corner, turned with it (the corner is k). */
    unsigned n = 0;
    for (unsigned a = 0; a < CC_ANIMAL_COUNT; a++)
        for (unsigned i = 0; i < v->t->animals[a]; i++, n++) {
            struct pt p = turn(7 + 8 * (int)(n % 3), 6 + 6 * (int)(n / 3), k);
            buf_putf(
                b,
                "<ellipse cx=\"%d\" cy=\"%d\" rx=\"3.5\" ry=\"2.6\" fill=\"%s\" stroke=\"#333333\" "
                "stroke-width=\"0.7\"/>",
                v->ox + p.x, v->oy + p.y, animal_fill[a]);
        }
    put(b, "</g>");
}

static void put_monastery(struct buf *b, int x, int y)
{
    buf_putf(b,
             "<g class=\"monastery\"><path d=\"M%d,%d h14 v10 h-14 z\" fill=\"#efe6d2\" "
             "stroke=\"#4a3b2a\"/><path d=\"M%d,%d L%d,%d L%d,%d z\" fill=\"#b0452c\" "
             "stroke=\"#4a3b2a\"/><path d=\"M%d,%d h4 v5 h-4 z\" fill=\"#4a3b2a\"/></g>",
             x - 7, y - 3, x - 9, y - 3, x, y - 11, x + 9, y - 3, x - 2, y + 2);
}

/*
 * A field walled in the middle of the tile (`field:C` of the expansions) shows only where
 * the cities around it would otherwise meet: between two triangles along their diagonal,
 * or between a cap and a band or a three-sided city at the cap's inner edge. Finds that
 * strip for field `f`: its centre (tile-local) in *at, its half-lengths in *rx and *ry and
 * its turn in *deg; false when the field is not walled in or shows as the ground anyway.
 */
static bool walled_field(const struct tile_view *v, unsigned f, struct pt *at, int *rx, int *ry,
                         int *deg)
{
    const struct cc_feature_type *ft = &v->t->features[f];
    if (ft->kind != CC_KIND_FIELD || ft->slots != CC_CENTRE_MASK) return false;
    for (unsigned c = 0; c < v->t->nfeatures; c++) {
        if (!(ft->touches & (1u << c)) || v->t->features[c].kind != CC_KIND_CITY) continue;
        unsigned sides = v->sides[c], k;
        for (unsigned o = 0; o < v->t->nfeatures; o++) {
            if (o == c || !(ft->touches & (1u << o))) continue;
            unsigned other = v->sides[o], n = popcount4(other);
            if (adjacent_pair(sides, &k) && other == (15u & ~sides)) {
                *at = (struct pt){HALF, HALF};
                *rx = 34;
                *ry = 5;
                *deg = k % 2 ? -45 : 45;
                return true;
            }
            if (popcount4(sides) == 1 && (n >= 3 || (n == 2 && !adjacent_pair(other, &k)))) {
                for (k = 0; !(sides & (1u << k)); k++) continue;
                *at = turn(HALF, CAP_DEPTH, k);
                *rx = 17;
                *ry = 4;
                *deg = k % 2 ? 90 : 0;
                return true;
            }
        }
    }
    return false;
}

/* Draws a tile of type t turned `rot` with its north-west corner at (ox, oy). */
static void put_tile_body(struct buf *b, const struct tile_view *v)
{
    const struct cc_tile_type *t = v->t;
    const char *ground;
    unsigned gf = ground_feature(v, &ground);
    buf_putf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>", v->ox, v->oy,
             TILE, TILE, ground);
    /* Areas, the largest first, so that caps lie on bands and three-sided areas. */
    for (unsigned n = 4; n >= 1; n--)
        for (unsigned f = 0; f < t->nfeatures; f++) {
            unsigned kind = t->features[f].kind;
            if (!is_area(kind) || f == gf || popcount4(v->sides[f]) != n) continue;
            struct kind_style st = kind_style(kind);
            buf_putf(b, "<path class=\"%s\" fill=\"%s\" stroke=\"%s\" stroke-width=\"1\" d=\"",
                     cc_kind_name((enum cc_kind)kind), st.fill, st.stroke);
            put_area_path(b, v->ox, v->oy, v->sides[f]);
            put(b, "\"/>");
        }
    for (unsigned f = 0; f < t->nfeatures; f++) {
        struct pt at;
        int rx, ry, deg;
        if (walled_field(v, f, &at, &rx, &ry, &deg))
            buf_putf(b,
                     "<ellipse class=\"walled-field\" cx=\"%d\" cy=\"%d\" rx=\"%d\" ry=\"%d\" "
                     "transform=\"rotate(%d %d %d)\" fill=\"%s\" stroke=\"%s\"/>",
                     v->ox + at.x, v->oy + at.y, rx, ry, deg, v->ox + at.x, v->oy + at.y,
                     kind_style(CC_KIND_FIELD).fill, kind_style(CC_KIND_CITY).stroke);
    }
    put_lines(b, v, CC_KIND_RIVER);
    put_lines(b, v, CC_KIND_ROAD);
    put_lines(b, v, CC_KIND_TRAIL);
    /* A junction where three or four lines end. */
    unsigned junctions = 0;
    for (unsigned f = 0; f < t->nfeatures; f++) junctions += t->features[f].end == CC_END_JUNCTION;
    if (junctions >= 2)
        buf_putf(b,
                 "<rect class=\"junction\" x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" rx=\"2\" "
                 "fill=\"#7d6a52\" stroke=\"#3f3428\"/>",
                 v->ox + HALF - 5, v->oy + HALF - 5);
    for (unsigned f = 0; f < t->nfeatures; f++) {
        if (t->features[f].kind == CC_KIND_MONASTERY)
            put_monastery(b, v->ox + v->monastery.x, v->oy + v->monastery.y);
        if (is_area(t->features[f].kind)) put_area_extras(b, v, f);
    }
    put_ports(b, v);
    put_animals(b, v);
}

/* Where a piece on feature f (placed at location loc) stands, tile-local. */
static struct pt piece_spot(const struct tile_view *v, unsigned f, unsigned loc)
{
    if (f >= v->t->nfeatures) return location_anchor(loc, GROUND_INSET);
    unsigned kind = v->t->features[f].kind;
    if (kind == CC_KIND_MONASTERY) return (struct pt){v->monastery.x + 12, v->monastery.y + 4};
    struct pt walled;
    int rx, ry, deg;
    if (walled_field(v, f, &walled, &rx, &ry, &deg)) return walled;
    if (is_area(kind)) return area_spot(v->sides[f], 0);
    if (is_line(kind)) {
        struct buf scratch;
        struct pt spot;
        buf_init(&scratch, 0); /* takes nothing: only the spot is wanted */
        put_line_path(&scratch, v, f, &spot);
        buf_free(&scratch);
        return spot;
    }
    return location_anchor(loc, GROUND_INSET);
}

/* Where piece `pc` on the tile of `v` stands, tile-local. */
static struct pt piece_anchor(const struct tile_view *v, const struct cc_piece *pc)
{
    return pc->kind == CC_PIECE_STABLE ? location_anchor(pc->loc, GROUND_INSET)
                                       : piece_spot(v, pc->feature, pc->loc);
}

/* ---- Pieces ----------------------------------------------------------------------- */

/* A follower (standing; lying on fields and meadows: a farmer) or a stable at (x, y). */
static void put_piece(struct buf *b, const char *cls, unsigned seat, unsigned kind, bool lying,
                      int x, int y, const char *title_extra)
{
    const char *fill = seat < CC_MAX_PLAYERS ? seat_fill[seat] : "#888888";
    const char *edge = seat == 4 ? "#ffffff" : "#111111";
    /* The figures of the expansions of classic (board_marks.c). */
    if (mark_figure(b, cls, kind, seat, fill, edge, lying, x, y, title_extra)) return;
    if (kind == CC_PIECE_STABLE) {
        buf_putf(b,
                 "<g class=\"%s stable\"><title>stable of seat %u%s</title><path "
                 "d=\"M%d,%d v-7 l7,-6 l7,6 v7 z\" fill=\"%s\" stroke=\"%s\" stroke-width=\"1.2\"/>"
                 "<path d=\"M%d,%d h3 v-4 h-3 z\" fill=\"%s\"/></g>",
                 cls, seat, title_extra, x - 7, y + 6, fill, edge, x - 1, y + 6, edge);
        return;
    }
    buf_putf(b,
             "<path class=\"%s follower\" transform=\"translate(%d,%d)%s\" d=\"%s\" "
             "fill=\"%s\" stroke=\"%s\" stroke-width=\"1.2\" stroke-linejoin=\"round\"><title>"
             "follower of seat %u%s</title></path>",
             cls, x, y, lying ? " rotate(-90)" : "", mark_follower_path, fill, edge, seat,
             title_extra);
}

/* ---- The document ----------------------------------------------------------------- */

static const char *display_name(const char *const names[CC_MAX_PLAYERS], unsigned seat,
                                char fallback[16])
{
    if (names && names[seat]) return names[seat];
    snprintf(fallback, 16, "Seat %u", seat);
    return fallback;
}

static const char *tile_id(const struct cc_game *g, unsigned type)
{
    const struct cc_tileset *ts = cc_tileset_get((enum cc_ruleset)g->ruleset);
    return ts && type < ts->ntypes ? ts->types[type].id : "?";
}

/* "classic, standard edition, with the River" and the like. */
static void put_ruleset_line(struct buf *b, const struct cc_game *g)
{
    const char *rs = cc_ruleset_name((enum cc_ruleset)g->ruleset);
    put(b, rs ? rs : "?");
    /* Each option of the ruleset says its value in its own words (api/rulesets.c); a set
     * each member it has. The words are plain text ("Inns & Cathedrals"): escaped. */
    for (unsigned i = 0; i < CC_OPT_COUNT; i++) {
        if (!api_option_offered((enum cc_option_id)i, (enum cc_ruleset)g->ruleset)) continue;
        const struct cc_option_def *d = cc_option_def((enum cc_option_id)i);
        const char *const *phrase = api_option_info((enum cc_option_id)i)->phrase;
        unsigned v = cc_option_get(&g->options, (enum cc_option_id)i);
        for (unsigned k = 0; k < CC_MAX_OPTION_VALUES; k++) {
            bool says = d->kind == CC_OPTION_SET ? (v >> k & 1u) != 0 : k == v;
            if (says && phrase[k]) put_text(b, phrase[k], SIZE_MAX);
        }
    }
    buf_putf(b, " \xC2\xB7 turn %u \xC2\xB7 %u tiles to come", g->turn, cc_tiles_remaining(g));
}

/* A small picture of tile type `type` at rotation 0 with its corner at (x, y). */
static void put_loose_tile(struct buf *b, const struct cc_game *g, unsigned type, int x, int y)
{
    const struct cc_tileset *ts = cc_tileset_get((enum cc_ruleset)g->ruleset);
    if (!ts || type >= ts->ntypes) return;
    struct tile_view v;
    view_init(&v, &ts->types[type], 0, x, y);
    buf_putf(b, "<g class=\"loose-tile\"><title>tile %s</title>", ts->types[type].id);
    put_tile_body(b, &v);
    buf_putf(b,
             "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#333333\" "
             "stroke-width=\"1\"/></g>",
             x, y, TILE, TILE);
}

/* Widens *right to cover a text written at x since buffer offset `from`: characters
 * outside tags (an entity counts as one) at `cw` px each. */
static void measure(const struct buf *b, size_t from, int x, int cw, int *right)
{
    if (buf_err(b)) return;
    int chars = 0;
    bool tag = false, entity = false;
    const char *text = buf_ptr(b);
    for (size_t i = from; i < buf_len(b); i++) {
        unsigned char c = (unsigned char)text[i];
        if (tag) {
            tag = c != '>';
        } else if (c == '<') {
            tag = true;
        } else if (entity) {
            entity = c != ';';
        } else if ((c & 0xC0) != 0x80) {
            chars++;
            entity = c == '&';
        }
    }
    if (x + chars * cw > *right) *right = x + chars * cw;
}

/* The name of a key entry whose sample, `sample_w` px wide, starts at *x, on the line at
 * y; *x moves past it. */
static void put_key_label(struct buf *b, int *x, int y, int sample_w, const char *label, int *right)
{
    size_t from = buf_len(b);
    int tx = *x + sample_w + 5;
    buf_putf(b, "<text x=\"%d\" y=\"%d\" font-size=\"11\">%s</text>", tx, y, label);
    int end = 0;
    measure(b, from, tx, 8, &end);
    if (end > *right) *right = end;
    *x = end + 14;
}

/* One entry of the key: a small sample and its name. */
static void put_key_item(struct buf *b, int *x, int y, const char *what, const char *label,
                         int *right)
{
    int cx = *x + 8, cy = y - 4;
    if (!strcmp(what, "road") || !strcmp(what, "trail") || !strcmp(what, "river")) {
        static const char *const styles[3][2] = {
            {"#6b5a45\" stroke-width=\"7", "#f6f1e4\" stroke-width=\"4"},
            {"#6e4623\" stroke-width=\"6", "#c99a62\" stroke-width=\"3\" stroke-dasharray=\"4 3"},
            {"#2a5f9c\" stroke-width=\"11", "#4f9ee6\" stroke-width=\"8"},
        };
        int k = what[0] == 'r' ? (what[2] == 'a' ? 0 : 2) : 1;
        for (int layer = 0; layer < 2; layer++)
            buf_putf(b, "<path d=\"M%d,%d h16\" stroke=\"%s\"/>", *x, cy, styles[k][layer]);
    } else if (!strcmp(what, "monastery")) {
        put_monastery(b, cx, cy + 2);
    } else if (!strcmp(what, "pennant")) {
        put_pennant(b, cx, cy + 1);
    } else if (!strcmp(what, "harvest")) {
        put_crop(b, cx - 4, cy, CC_CROP_APPLE);
        put_crop(b, cx + 4, cy, CC_CROP_SUNFLOWER);
    } else if (!strcmp(what, "animals")) {
        buf_putf(
            b,
            "<ellipse cx=\"%d\" cy=\"%d\" rx=\"3.5\" ry=\"2.6\" fill=\"%s\" stroke=\"#333333\" "
            "stroke-width=\"0.7\"/><ellipse cx=\"%d\" cy=\"%d\" rx=\"3.5\" ry=\"2.6\" fill=\"%s\" "
            "stroke=\"#333333\" stroke-width=\"0.7\"/>",
            cx - 4, cy, animal_fill[CC_ANIMAL_SHEEP], cx + 4, cy, animal_fill[CC_ANIMAL_PIG]);
    } else if (!strcmp(what, "port")) {
        buf_putf(b,
                 "<circle cx=\"%d\" cy=\"%d\" r=\"5\" fill=\"#ffffff\" stroke=\"#9c2a1f\" "
                 "stroke-width=\"2\"/><circle cx=\"%d\" cy=\"%d\" r=\"2\" fill=\"#9c2a1f\"/>",
                 cx, cy, cx, cy);
    } else {
        int kind = -1;
        for (int k = 0; k < CC_KIND_COUNT; k++)
            if (!strcmp(what, cc_kind_name((enum cc_kind)k))) kind = k;
        struct kind_style st = kind_style(kind < 0 ? CC_KIND_FIELD : (unsigned)kind);
        buf_putf(b,
                 "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\" stroke=\"%s\"/>",
                 *x + 1, cy - 7, st.fill,
                 kind == CC_KIND_FIELD || kind == CC_KIND_MEADOW ? "#5d7a3a" : st.stroke);
    }
    put_key_label(b, x, y, 16, label, right);
}

/* The key to the pictures of the game's ruleset, on the line at y. */
static void put_key(struct buf *b, const struct cc_game *g, int y, int *right)
{
    const struct api_ruleset_info *info = api_ruleset_info((enum cc_ruleset)g->ruleset);
    if (!info) info = api_ruleset_info(CC_RULESET_CLASSIC);
    int x = 12;
    put(b, "<g class=\"key\">");
    for (unsigned i = 0; info->key[i][0]; i++)
        put_key_item(b, &x, y, info->key[i][0], info->key[i][1], right);
    /* The options that add to the pictures when on (the River) add to the key. */
    for (unsigned i = 0; i < CC_OPT_COUNT; i++) {
        const struct api_option_info *oi = api_option_info((enum cc_option_id)i);
        if (oi->key_sample &&
            api_option_offered((enum cc_option_id)i, (enum cc_ruleset)g->ruleset) &&
            cc_option_get(&g->options, (enum cc_option_id)i) != 0)
            put_key_item(b, &x, y, oi->key_sample, oi->key_label, right);
    }
    /* The pieces: in classic farmers lie on their fields, the others stand. */
    put_piece(b, "swatch", 4, CC_PIECE_FOLLOWER, info->farmers_lie != 0, x + 8, y - 4, "");
    if (info->stable_swatch) put_piece(b, "swatch", 4, CC_PIECE_STABLE, false, x + 26, y - 5, "");
    int tx = x + (info->stable_swatch ? 39 : 21);
    size_t from = buf_len(b);
    buf_putf(b, "<text x=\"%d\" y=\"%d\" font-size=\"11\">%s</text>", tx, y, info->pieces);
    measure(b, from, tx, CHAR_W, right);
    put(b, "</g>");
}

/* The key to the marks and figures of the expansions of classic the game has, on a line of
 * its own at y (the base game's key is full). Returns false, writing nothing, without one. */
static bool put_expansion_key(struct buf *b, const struct cc_game *g, int y, int *right)
{
    unsigned exp = cc_option_in_ruleset(CC_OPT_EXPANSIONS, (enum cc_ruleset)g->ruleset)
                       ? cc_option_get(&g->options, CC_OPT_EXPANSIONS)
                       : 0;
    if (!(exp & (CC_EXP_INNS | CC_EXP_TRADERS))) return false;
    int x = 12, cy = y - 4;
    put(b, "<g class=\"key expansions\">");
    if (exp & CC_EXP_INNS) {
        mark_inn(b, x + 8, cy);
        put_key_label(b, &x, y, 16, "inn", right);
        mark_cathedral(b, x + 9, cy + 3);
        put_key_label(b, &x, y, 18, "cathedral", right);
    }
    if (exp & CC_EXP_TRADERS)
        for (unsigned k = 0; k < CC_GOODS_COUNT; k++) {
            mark_goods(b, x + 8, cy, k);
            put_key_label(b, &x, y, 16, cc_goods_name((enum cc_goods)k), right);
        }
    /* The figures at their size on the board (the large follower's is the point). */
    static const struct {
        unsigned expansion, kind;
        int left, width; /* px of the sample left of its anchor, and in all */
    } figures[] = {{CC_EXP_INNS, CC_PIECE_LARGE, 10, 21},
                   {CC_EXP_TRADERS, CC_PIECE_BUILDER, 6, 20},
                   {CC_EXP_TRADERS, CC_PIECE_PIG, 13, 27}};
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++) {
        if (!(exp & figures[i].expansion)) continue;
        /* Grey, not the black of the follower's sample: a black pig outlined in white
         * reads as a cow. */
        put_piece(b, "swatch", 5, figures[i].kind, false, x + figures[i].left, cy - 1, "");
        put_key_label(b, &x, y, figures[i].width, mark_figure_name(figures[i].kind), right);
    }
    put(b, "</g>");
    return true;
}

/* The figures of the expansions left in player `p`'s supply and the goods tokens they
 * hold, after the followers on their legend line. */
static void put_expansion_supply(struct buf *b, const struct cc_game *g, const struct cc_player *p)
{
    unsigned exp = cc_option_in_ruleset(CC_OPT_EXPANSIONS, (enum cc_ruleset)g->ruleset)
                       ? cc_option_get(&g->options, CC_OPT_EXPANSIONS)
                       : 0;
    if (exp & CC_EXP_INNS) buf_putf(b, ", %u large follower%s", p->large, p->large == 1 ? "" : "s");
    if (exp & CC_EXP_TRADERS) {
        buf_putf(b, ", %u builder%s, %u pig%s", p->builders, p->builders == 1 ? "" : "s", p->pigs,
                 p->pigs == 1 ? "" : "s");
        const char *sep = " \xC2\xB7 goods: ";
        for (unsigned k = 0; k < CC_GOODS_COUNT; k++)
            if (p->goods[k]) {
                buf_putf(b, "%s%u %s", sep, p->goods[k], cc_goods_name((enum cc_goods)k));
                sep = ", ";
            }
    }
}

/* The players' seats, names, colours and scores, the turn, a key, and the tile(s) to
 * place, into `b` (which is then appended to the document). The legend's width and height
 * in *w and *h. */
static void put_legend(struct buf *b, const struct cc_game *g,
                       const char *const names[CC_MAX_PLAYERS], int *w, int *h)
{
    char fb[16];
    int right = 0;
    size_t from;
    put(b, "<g class=\"legend\">");
    from = buf_len(b);
    put(b, "<text x=\"12\" y=\"22\" font-size=\"14\" font-weight=\"bold\">");
    put_ruleset_line(b, g);
    put(b, "</text>");
    measure(b, from, 12, 9, &right);
    /* The turn. */
    from = buf_len(b);
    put(b, "<text x=\"12\" y=\"42\">");
    if (g->phase == CC_PHASE_FINISHED) {
        put(b, "Game over. ");
        unsigned w_mask = cc_winners(g), nw = 0;
        for (unsigned s = 0; s < g->nplayers; s++) nw += (w_mask >> s) & 1;
        put(b, nw > 1 ? "Winners: " : "Winner: ");
        const char *sep = "";
        for (unsigned s = 0; s < g->nplayers; s++)
            if (w_mask & (1u << s)) {
                put(b, sep);
                put_text(b, display_name(names, s, fb), NAME_CHARS);
                sep = ", ";
            }
    } else if (g->seat < g->nplayers) {
        put_text(b, display_name(names, g->seat, fb), NAME_CHARS);
        buf_putf(b, " (seat %u, %s) ", g->seat, seat_name[g->seat]);
        if (cc_game_uses_hand(g))
            put(b, "places a tile from the hand");
        else if (g->phase == CC_PHASE_DRAW)
            put(b, "draws a tile");
        else
            buf_putf(b, "places tile %s", tile_id(g, g->drawn));
        if (g->extra_turn) put(b, " (the builder's extra turn)");
    }
    put(b, "</text>");
    measure(b, from, 12, CHAR_W, &right);
    /* The players. */
    int y = 58;
    for (unsigned s = 0; s < g->nplayers && s < CC_MAX_PLAYERS; s++, y += ROW_H) {
        const struct cc_player *p = &g->players[s];
        bool to_move = g->phase != CC_PHASE_FINISHED && s == g->seat;
        buf_putf(b, "<g class=\"player\" id=\"seat_%u\">", s);
        if (to_move)
            buf_putf(b, "<path class=\"to-move\" d=\"M4,%d l7,5 l-7,5 z\" fill=\"#333333\"/>",
                     y + 1);
        put_piece(b, "swatch", s, CC_PIECE_FOLLOWER, false, 22, y + 6, "");
        from = buf_len(b);
        buf_putf(b, "<text x=\"36\" y=\"%d\"%s>", y + 11, to_move ? " font-weight=\"bold\"" : "");
        put_text(b, display_name(names, s, fb), NAME_CHARS);
        buf_putf(b, " \xE2\x80\x94 %d point%s \xC2\xB7 %u follower%s", p->score,
                 p->score == 1 ? "" : "s", p->followers, p->followers == 1 ? "" : "s");
        const struct api_ruleset_info *info = api_ruleset_info((enum cc_ruleset)g->ruleset);
        if (info && info->stables)
            buf_putf(b, ", %u stable%s", p->stables, p->stables == 1 ? "" : "s");
        put_expansion_supply(b, g, p);
        if (info && info->harvest) {
            const char *sep = " \xC2\xB7 harvest: ";
            for (unsigned c = 0; c < CC_CROP_COUNT; c++)
                if (p->harvest[c]) {
                    buf_putf(b, "%s%u %s", sep, p->harvest[c], cc_crop_name((enum cc_crop)c));
                    sep = ", ";
                }
        }
        if (cc_game_uses_hand(g)) {
            const char *sep = " \xC2\xB7 hand: ";
            for (unsigned k = 0; k < CC_HAND_SIZE; k++)
                if (p->hand[k] != CC_NO_TILE) {
                    buf_putf(b, "%s%s", sep, tile_id(g, p->hand[k]));
                    sep = ", ";
                }
        }
        put(b, "</text>");
        measure(b, from, 36, to_move ? 8 : CHAR_W, &right);
        put(b, "</g>");
    }
    put_key(b, g, y + 10, &right);
    y += 22;
    if (put_expansion_key(b, g, y + 14, &right)) y += 28; /* the large follower is tall */
    /* The tile(s) to place, drawn at rotation 0 (the catalogue's orientation), right of
     * the text. */
    unsigned loose[CC_HAND_SIZE], nloose = 0;
    if (g->phase != CC_PHASE_FINISHED && g->seat < g->nplayers) {
        if (cc_game_uses_hand(g)) {
            for (unsigned k = 0; k < CC_HAND_SIZE; k++)
                if (g->players[g->seat].hand[k] != CC_NO_TILE)
                    loose[nloose++] = g->players[g->seat].hand[k];
        } else if (g->phase == CC_PHASE_PLACE && g->drawn != CC_NO_TILE) {
            loose[nloose++] = g->drawn;
        }
    }
    if (nloose) {
        int area = (int)nloose * (TILE + 12) + 12;
        if (area < 150) area = 150;
        int x0 = right + 24, mid = x0 + area / 2;
        buf_putf(b,
                 "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s (rotation "
                 "0)</text>",
                 mid, 22, nloose > 1 ? "hand" : "to place");
        int tx = mid - ((int)nloose * (TILE + 12) - 12) / 2;
        for (unsigned i = 0; i < nloose; i++, tx += TILE + 12) {
            put_loose_tile(b, g, loose[i], tx, 30);
            buf_putf(b, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s</text>",
                     tx + HALF, 30 + TILE + 13, tile_id(g, loose[i]));
        }
        right = x0 + area;
        if (y < 30 + TILE + 20) y = 30 + TILE + 20;
    }
    put(b, "</g>");
    *w = right + 12;
    *h = y;
}

char *board_svg_new(const struct cc_game *g, const char *const names[CC_MAX_PLAYERS])
{
    const struct cc_tileset *ts = cc_tileset_get((enum cc_ruleset)g->ruleset);
    if (!ts) return NULL;
    unsigned nboard = g->nboard <= CC_MAX_BOARD ? g->nboard : CC_MAX_BOARD;
    int minx = 0, maxx = 0, miny = 0, maxy = 0;
    for (unsigned i = 0; i < nboard; i++) {
        const struct cc_placed *p = &g->board[i];
        if (i == 0 || p->x < minx) minx = p->x;
        if (i == 0 || p->x > maxx) maxx = p->x;
        if (i == 0 || p->y < miny) miny = p->y;
        if (i == 0 || p->y > maxy) maxy = p->y;
    }
    struct buf legend;
    buf_init(&legend, BOARD_SVG_MAX);
    int legend_w, legend_h;
    put_legend(&legend, g, names, &legend_w, &legend_h);
    if (buf_err(&legend)) {
        buf_free(&legend);
        return NULL;
    }
    int board_w = (maxx - minx + 1) * TILE + 2 * MARGIN;
    int board_h = (maxy - miny + 1) * TILE + 2 * MARGIN;
    int w = legend_w > board_w ? legend_w : board_w;
    int h = legend_h + board_h;
    /* The board is centred under the legend when the legend is wider. */
    int bx = (w - board_w) / 2 + MARGIN, by = legend_h + MARGIN;

    struct buf b;
    buf_init(&b, BOARD_SVG_MAX);
    buf_putf(&b,
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
             "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Verdana, sans-serif\" "
             "font-size=\"12\" fill=\"#222222\">\n",
             w, h, w, h);
    put(&b, "<title>");
    put_ruleset_line(&b, g);
    put(&b, "</title>\n");
    buf_putf(&b, "<rect width=\"%d\" height=\"%d\" fill=\"#f3eee3\"/>\n", w, h);
    put(&b, buf_ptr(&legend));
    buf_free(&legend);
    put(&b, "\n");
    buf_putf(&b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#e4dccb\"/>\n",
             bx - MARGIN + 4, by - MARGIN + 4, board_w - 8, board_h - 8);
    /* Coordinates: x over the columns, y left of the rows. */
    put(&b, "<g class=\"coords\" font-size=\"9\" fill=\"#6a6256\" text-anchor=\"middle\">");
    for (int x = minx; x <= maxx; x++)
        buf_putf(&b, "<text x=\"%d\" y=\"%d\">%d</text>", bx + (x - minx) * TILE + HALF, by - 8, x);
    for (int y = miny; y <= maxy; y++)
        buf_putf(&b, "<text x=\"%d\" y=\"%d\">%d</text>", bx - 13,
                 by + (y - miny) * TILE + HALF + 3, y);
    put(&b, "</g>\n");

    /* The tiles, in the order they were placed. */
    for (unsigned i = 0; i < nboard; i++) {
        const struct cc_placed *p = &g->board[i];
        if (p->type >= ts->ntypes) continue;
        struct tile_view v;
        view_init(&v, &ts->types[p->type], p->rot, bx + (p->x - minx) * TILE,
                  by + (p->y - miny) * TILE);
        /* A tile with an inn keeps its sign clear of the pieces on it. */
        bool inn = false;
        for (unsigned f = 0; f < v.t->nfeatures; f++) inn |= v.t->features[f].inn != 0;
        for (unsigned k = 0; inn && k < CC_MAX_PIECES && v.nbusy < 4; k++)
            if (g->pieces[k].used && g->pieces[k].tile == i)
                v.busy[v.nbusy++] = piece_anchor(&v, &g->pieces[k]);
        buf_putf(&b,
                 "<g class=\"tile\" id=\"tile_%d_%d\"><title>%s at (%d, %d), rotation %u</title>",
                 p->x, p->y, ts->types[p->type].id, p->x, p->y, 90u * (p->rot & 3));
        put_tile_body(&b, &v);
        buf_putf(&b,
                 "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                 "stroke=\"#4d463c\" stroke-width=\"0.6\"/></g>\n",
                 v.ox, v.oy, TILE, TILE);
    }
    /* The last tile placed, outlined. */
    if (nboard > 1) {
        const struct cc_placed *p = &g->board[nboard - 1];
        buf_putf(&b,
                 "<rect class=\"last-placed\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                 "fill=\"none\" stroke=\"#ff7a00\" stroke-width=\"2.5\"/>\n",
                 bx + (p->x - minx) * TILE + 1, by + (p->y - miny) * TILE + 1, TILE - 2, TILE - 2);
    }
    /* The pieces, over every tile. */
    put(&b, "<g class=\"pieces\">");
    for (unsigned i = 0; i < CC_MAX_PIECES; i++) {
        const struct cc_piece *pc = &g->pieces[i];
        if (!pc->used || pc->tile >= nboard) continue;
        const struct cc_placed *p = &g->board[pc->tile];
        if (p->type >= ts->ntypes) continue;
        struct tile_view v;
        view_init(&v, &ts->types[p->type], p->rot, bx + (p->x - minx) * TILE,
                  by + (p->y - miny) * TILE);
        struct pt at = piece_anchor(&v, pc);
        bool lying = pc->feature < v.t->nfeatures && is_ground(v.t->features[pc->feature].kind);
        char extra[64];
        const char *loc = cc_location_name((enum cc_location)pc->loc);
        snprintf(extra, sizeof extra, " on (%d, %d) at %s", p->x, p->y, loc ? loc : "?");
        put_piece(&b, "piece", pc->seat, pc->kind, lying, v.ox + at.x, v.oy + at.y, extra);
    }
    put(&b, "</g>\n</svg>\n");
    return buf_take(&b, NULL); /* NULL after a failure */
}
