/* tileparse.c: the catalogue notation of docs/rules/ parsed into tile types. */
#include <stdbool.h>
#include <string.h>

#include "tiles.h"

/* How a kind of edge is divided into its three slots. */
enum edge_shape {
    SHAPE_WHOLE, /* one feature covers the whole side (city, farmland, regions) */
    SHAPE_LINE,  /* a road, trail or river in the middle, open land on both halves */
    SHAPE_OPEN   /* open land (field, meadow) over the whole side */
};

struct edge_letter {
    char letter;   /* in the notation */
    uint8_t edge;  /* enum cc_edge */
    uint8_t kind;  /* enum cc_kind of the feature owning the middle slot */
    uint8_t shape; /* enum edge_shape */
};

static const struct edge_letter classic_edges[] = {{'C', CC_EDGE_CITY, CC_KIND_CITY, SHAPE_WHOLE},
                                                   {'R', CC_EDGE_ROAD, CC_KIND_ROAD, SHAPE_LINE},
                                                   {'F', CC_EDGE_FIELD, CC_KIND_FIELD, SHAPE_OPEN},
                                                   {'I', CC_EDGE_RIVER, CC_KIND_RIVER, SHAPE_LINE},
                                                   {0, 0, 0, 0}};
static const struct edge_letter hills_edges[] = {
    {'A', CC_EDGE_FARMLAND, CC_KIND_FARMLAND, SHAPE_WHOLE},
    {'T', CC_EDGE_TRAIL, CC_KIND_TRAIL, SHAPE_LINE},
    {'M', CC_EDGE_MEADOW, CC_KIND_MEADOW, SHAPE_OPEN},
    {0, 0, 0, 0}};
static const struct edge_letter discovery_edges[] = {
    {'M', CC_EDGE_MOUNTAIN, CC_KIND_MOUNTAIN, SHAPE_WHOLE},
    {'G', CC_EDGE_GRASS, CC_KIND_GRASS, SHAPE_WHOLE},
    {'S', CC_EDGE_SEA, CC_KIND_SEA, SHAPE_WHOLE},
    {0, 0, 0, 0}};

static const struct edge_letter *edge_table(enum cc_ruleset r)
{
    switch (r) {
    case CC_RULESET_CLASSIC:
        return classic_edges;
    case CC_RULESET_HILLS:
        return hills_edges;
    case CC_RULESET_DISCOVERY:
        return discovery_edges;
    default:
        return NULL;
    }
}

/* A bounded view into the text. */
struct span {
    const char *p; /* first character */
    size_t n;      /* length */
};

static struct span trim(struct span s)
{
    while (s.n > 0 && (*s.p == ' ' || *s.p == '\t' || *s.p == '\r')) s.p++, s.n--;
    while (s.n > 0 && (s.p[s.n - 1] == ' ' || s.p[s.n - 1] == '\t' || s.p[s.n - 1] == '\r')) s.n--;
    return s;
}

static bool span_is(struct span s, const char *word)
{
    size_t n = strlen(word);
    return s.n == n && memcmp(s.p, word, n) == 0;
}

/* Splits `s` at the first `sep`: `head` before it, returns the rest after it (or empty). */
static struct span split(struct span s, char sep, struct span *head)
{
    const char *q = memchr(s.p, sep, s.n);
    if (!q) {
        *head = s;
        return (struct span){s.p + s.n, 0};
    }
    *head = (struct span){s.p, (size_t)(q - s.p)};
    return (struct span){q + 1, s.n - (size_t)(q - s.p) - 1};
}

static int side_index(struct span s)
{
    if (s.n != 1) return -1;
    switch (s.p[0]) {
    case 'N':
        return 0;
    case 'E':
        return 1;
    case 'S':
        return 2;
    case 'W':
        return 3;
    default:
        break;
    }
    return -1;
}

/* The slot of a half-side name (Nw, Ne, En ...), or -1; `C` is the centre (a field walled in
 * by cities that touches no side). */
static int half_slot(struct span s)
{
    if (span_is(s, "C")) return CC_LOC_C;
    static const char *const names[12] = {"Nw", "", "Ne", "En", "", "Es",
                                          "Se", "", "Sw", "Ws", "", "Wn"};
    for (int i = 0; i < 12; i++)
        if (names[i][0] && span_is(s, names[i])) return i;
    return -1;
}

static bool parse_uint(struct span s, unsigned max, unsigned *out)
{
    unsigned v = 0;
    if (s.n == 0 || s.n > 6) return false;
    for (size_t i = 0; i < s.n; i++) {
        if (s.p[i] < '0' || s.p[i] > '9') return false;
        v = v * 10 + (unsigned)(s.p[i] - '0');
    }
    if (v > max) return false;
    *out = v;
    return true;
}

/* Parses "N,E,S" into a mask of sides. */
static bool parse_sides(struct span s, unsigned *sides)
{
    *sides = 0;
    while (s.n > 0) {
        struct span item;
        s = split(s, ',', &item);
        int side = side_index(trim(item));
        if (side < 0 || (*sides & (1u << side))) return false;
        *sides |= 1u << side;
    }
    return *sides != 0;
}

static uint16_t whole_slots(unsigned sides)
{
    uint16_t m = 0;
    for (int s = 0; s < 4; s++)
        if (sides & (1u << s)) m |= (uint16_t)(7u << (3 * s));
    return m;
}

static uint16_t middle_slots(unsigned sides)
{
    uint16_t m = 0;
    for (int s = 0; s < 4; s++)
        if (sides & (1u << s)) m |= (uint16_t)(1u << (3 * s + 1));
    return m;
}

/* State while one tile line is parsed. */
struct tile_draft {
    struct cc_tile_type *t;                     /* being filled */
    unsigned touch_sides[CC_MAX_TILE_FEATURES]; /* fields: sides named after '@' */
    int port_land_side[CC_MAX_PORTS];           /* discovery: side of each port's land */
    int port_sea_side[CC_MAX_PORTS];            /* discovery: side of each port's sea */
};

static struct cc_feature_type *add_feature(struct cc_tile_type *t, enum cc_kind kind)
{
    if (t->nfeatures >= CC_MAX_TILE_FEATURES) return NULL;
    struct cc_feature_type *f = &t->features[t->nfeatures++];
    memset(f, 0, sizeof *f);
    f->kind = (uint8_t)kind;
    return f;
}

static enum cc_parse_status parse_end(struct span s, uint8_t *end)
{
    if (span_is(s, "jct"))
        *end = CC_END_JUNCTION;
    else if (span_is(s, "city"))
        *end = CC_END_CITY;
    else if (span_is(s, "mon"))
        *end = CC_END_MONASTERY;
    else if (span_is(s, "farm"))
        *end = CC_END_FARM;
    else if (span_is(s, "end"))
        *end = CC_END_DEAD;
    else
        return CC_PARSE_UNKNOWN;
    return CC_PARSE_OK;
}

/* "W,E", "S>jct" or "S>city+inn": a road, trail or river segment (an inn: classic roads). */
static enum cc_parse_status parse_line_feature(struct tile_draft *d, enum cc_kind kind,
                                               struct span args)
{
    struct span body, sides_s;
    struct span extra = split(args, '+', &body);
    struct span end_s = split(body, '>', &sides_s);
    unsigned sides;
    if (!parse_sides(sides_s, &sides)) return CC_PARSE_SYNTAX;
    struct cc_feature_type *f = add_feature(d->t, kind);
    if (!f) return CC_PARSE_TOO_MANY;
    f->slots = middle_slots(sides);
    while (extra.n > 0) {
        struct span item;
        extra = split(extra, '+', &item);
        if (kind != CC_KIND_ROAD || !span_is(trim(item), "inn")) return CC_PARSE_UNKNOWN;
        f->inn = 1;
    }
    if (end_s.n > 0) return parse_end(trim(end_s), &f->end);
    return CC_PARSE_OK;
}

/* One `+WORD` of a classic city: a pennant, a cathedral or a goods symbol. */
static enum cc_parse_status parse_city_extra(struct cc_feature_type *f, struct span word)
{
    if (span_is(word, "p")) {
        f->pennants++;
        return CC_PARSE_OK;
    }
    if (span_is(word, "cathedral")) {
        f->cathedral = 1;
        return CC_PARSE_OK;
    }
    for (int g = 0; g < CC_GOODS_COUNT; g++)
        if (span_is(word, cc_goods_name((enum cc_goods)g))) {
            f->goods[g]++;
            return CC_PARSE_OK;
        }
    return CC_PARSE_UNKNOWN;
}

/* "Nw,Ne@N,S": a field or meadow segment and the whole-side features it touches. */
static enum cc_parse_status parse_open_feature(struct tile_draft *d, enum cc_kind kind,
                                               struct span args)
{
    struct span halves_s;
    struct span touch_s = split(args, '@', &halves_s);
    struct cc_feature_type *f = add_feature(d->t, kind);
    if (!f) return CC_PARSE_TOO_MANY;
    while (halves_s.n > 0) {
        struct span item;
        halves_s = split(halves_s, ',', &item);
        int slot = half_slot(trim(item));
        if (slot < 0) return CC_PARSE_UNKNOWN;
        if (f->slots & (1u << slot)) return CC_PARSE_INCONSISTENT;
        f->slots |= (uint16_t)(1u << slot);
    }
    if (f->slots == 0) return CC_PARSE_SYNTAX;
    if (touch_s.n > 0 && !parse_sides(touch_s, &d->touch_sides[d->t->nfeatures - 1]))
        return CC_PARSE_SYNTAX;
    return CC_PARSE_OK;
}

/* "N,W+p" (classic city) or "N,E[apple,pumpkin]" (hills farmland) or "N,E" (regions). */
static enum cc_parse_status parse_whole_feature(struct tile_draft *d, enum cc_kind kind,
                                                struct span args)
{
    struct span sides_s;
    struct span extra = split(args, kind == CC_KIND_FARMLAND ? '[' : '+', &sides_s);
    unsigned sides;
    if (!parse_sides(sides_s, &sides)) return CC_PARSE_SYNTAX;
    struct cc_feature_type *f = add_feature(d->t, kind);
    if (!f) return CC_PARSE_TOO_MANY;
    f->slots = whole_slots(sides);
    if (extra.n == 0) return CC_PARSE_OK;
    if (kind == CC_KIND_CITY) {
        /* "+p" once per pennant ("+p+p"), "+cathedral", "+wine" ... in any order */
        struct span rest = extra;
        for (;;) {
            struct span item;
            rest = split(rest, '+', &item);
            enum cc_parse_status st = parse_city_extra(f, trim(item));
            if (st != CC_PARSE_OK) return st;
            if (rest.n == 0) break;
        }
        return CC_PARSE_OK;
    }
    if (kind != CC_KIND_FARMLAND || extra.p[extra.n - 1] != ']') return CC_PARSE_SYNTAX;
    struct span list = {extra.p, extra.n - 1};
    while (list.n > 0) {
        struct span item;
        list = split(list, ',', &item);
        item = trim(item);
        int crop = -1;
        for (int c = 0; c < CC_CROP_COUNT; c++)
            if (span_is(item, cc_crop_name((enum cc_crop)c))) crop = c;
        if (crop < 0) return CC_PARSE_UNKNOWN;
        f->harvest[crop]++;
    }
    return CC_PARSE_OK;
}

/* "sheep2,pig1" */
static enum cc_parse_status parse_animals(struct cc_tile_type *t, struct span args)
{
    while (args.n > 0) {
        struct span item;
        args = split(args, ',', &item);
        item = trim(item);
        int found = -1;
        for (int a = 0; a < CC_ANIMAL_COUNT; a++) {
            const char *name = cc_animal_name((enum cc_animal)a);
            size_t n = strlen(name);
            if (item.n > n && memcmp(item.p, name, n) == 0) {
                unsigned count;
                if (!parse_uint((struct span){item.p + n, item.n - n}, 9, &count))
                    return CC_PARSE_SYNTAX;
                t->animals[a] = (uint8_t)(t->animals[a] + count);
                found = a;
            }
        }
        if (found < 0) return CC_PARSE_UNKNOWN;
    }
    return CC_PARSE_OK;
}

/* "N@E": a port city between the land containing side N and the sea containing side E. */
static enum cc_parse_status parse_port(struct tile_draft *d, struct span args)
{
    struct span land_s;
    struct span sea_s = split(args, '@', &land_s);
    int land = side_index(trim(land_s)), sea = side_index(trim(sea_s));
    if (land < 0 || sea < 0) return CC_PARSE_SYNTAX;
    if (d->t->nports >= CC_MAX_PORTS) return CC_PARSE_TOO_MANY;
    d->port_land_side[d->t->nports] = land;
    d->port_sea_side[d->t->nports] = sea;
    d->t->nports++;
    return CC_PARSE_OK;
}

static enum cc_parse_status parse_feature(struct tile_draft *d, enum cc_ruleset r, struct span f)
{
    struct span name;
    struct span args = split(f, ':', &name);
    name = trim(name);
    args = trim(args);
    if (span_is(name, "start") && args.n == 0) {
        d->t->is_start = 1;
        return CC_PARSE_OK;
    }
    switch (r) {
    case CC_RULESET_CLASSIC:
        if (span_is(name, "city")) return parse_whole_feature(d, CC_KIND_CITY, args);
        if (span_is(name, "road")) return parse_line_feature(d, CC_KIND_ROAD, args);
        if (span_is(name, "field")) return parse_open_feature(d, CC_KIND_FIELD, args);
        if (span_is(name, "mon") && args.n == 0) {
            struct cc_feature_type *m = add_feature(d->t, CC_KIND_MONASTERY);
            if (!m) return CC_PARSE_TOO_MANY;
            m->slots = CC_CENTRE_MASK;
            return CC_PARSE_OK;
        }
        break;
    case CC_RULESET_HILLS:
        if (span_is(name, "farm")) return parse_whole_feature(d, CC_KIND_FARMLAND, args);
        if (span_is(name, "trail")) return parse_line_feature(d, CC_KIND_TRAIL, args);
        if (span_is(name, "meadow")) return parse_open_feature(d, CC_KIND_MEADOW, args);
        if (span_is(name, "animals")) return parse_animals(d->t, args);
        break;
    case CC_RULESET_DISCOVERY:
        if (span_is(name, "mountain")) return parse_whole_feature(d, CC_KIND_MOUNTAIN, args);
        if (span_is(name, "grass")) return parse_whole_feature(d, CC_KIND_GRASS, args);
        if (span_is(name, "sea")) return parse_whole_feature(d, CC_KIND_SEA, args);
        if (span_is(name, "city")) return parse_port(d, args);
        break;
    default:
        break;
    }
    return CC_PARSE_UNKNOWN;
}

/* The feature of `t` covering `slot`, or CC_NO_FEATURE. */
static uint8_t owner_of(const struct cc_tile_type *t, int slot)
{
    for (int i = 0; i < t->nfeatures; i++)
        if (t->features[i].slots & (1u << slot)) return (uint8_t)i;
    return CC_NO_FEATURE;
}

static bool is_open_kind(uint8_t kind)
{
    return kind == CC_KIND_FIELD || kind == CC_KIND_MEADOW;
}

/* After the features are read: complete the slots and check them against the edges. */
static enum cc_parse_status finish_tile(struct tile_draft *d, const struct edge_letter *letters,
                                        const uint8_t shape[4])
{
    struct cc_tile_type *t = d->t;
    /* A river tile's river is one feature through all its river sides. */
    uint16_t river = 0;
    for (int s = 0; s < 4; s++)
        if (t->edges[s] == CC_EDGE_RIVER) river |= (uint16_t)(1u << (3 * s + 1));
    if (river) {
        struct cc_feature_type *f = add_feature(t, CC_KIND_RIVER);
        if (!f) return CC_PARSE_TOO_MANY;
        f->slots = river;
        t->is_river = 1;
    }
    /* No slot may be claimed twice. */
    uint16_t seen = 0;
    for (int i = 0; i < t->nfeatures; i++) {
        if (seen & t->features[i].slots) return CC_PARSE_INCONSISTENT;
        seen |= t->features[i].slots;
    }
    for (int s = 0; s < 4; s++) {
        uint8_t kind = 0;
        for (const struct edge_letter *l = letters; l->letter; l++)
            if (l->edge == t->edges[s]) kind = l->kind;
        uint8_t first = owner_of(t, 3 * s), mid = owner_of(t, 3 * s + 1),
                second = owner_of(t, 3 * s + 2);
        switch (shape[s]) {
        case SHAPE_WHOLE:
            if (mid == CC_NO_FEATURE || first != mid || second != mid ||
                t->features[mid].kind != kind)
                return CC_PARSE_INCONSISTENT;
            break;
        case SHAPE_LINE:
            if (mid == CC_NO_FEATURE || t->features[mid].kind != kind || first == CC_NO_FEATURE ||
                second == CC_NO_FEATURE || !is_open_kind(t->features[first].kind) ||
                !is_open_kind(t->features[second].kind))
                return CC_PARSE_INCONSISTENT;
            break;
        case SHAPE_OPEN:
            /* Both halves of an open side are one field; its middle belongs to it too. */
            if (mid != CC_NO_FEATURE || first == CC_NO_FEATURE || first != second ||
                t->features[first].kind != kind)
                return CC_PARSE_INCONSISTENT;
            t->features[first].slots |= (uint16_t)(1u << (3 * s + 1));
            break;
        }
    }
    for (int i = 0; i < t->nfeatures; i++) {
        struct cc_feature_type *f = &t->features[i];
        /* Only a monastery, or a field walled in by cities (`field:C`), lies in the centre
         * alone; every other feature reaches a side. */
        bool centre_only = f->kind == CC_KIND_MONASTERY || f->kind == CC_KIND_FIELD;
        if ((f->slots & CC_EDGE_SLOTS_MASK) == 0 && !(centre_only && f->slots == CC_CENTRE_MASK))
            return CC_PARSE_INCONSISTENT;
        for (int s = 0; s < 4; s++) {
            if (!(d->touch_sides[i] & (1u << s))) continue;
            uint8_t o = owner_of(t, 3 * s + 1);
            if (o == CC_NO_FEATURE || shape[s] != SHAPE_WHOLE) return CC_PARSE_INCONSISTENT;
            f->touches |= (uint16_t)(1u << o);
        }
    }
    for (int p = 0; p < t->nports; p++) {
        uint8_t land = owner_of(t, 3 * d->port_land_side[p] + 1);
        uint8_t sea = owner_of(t, 3 * d->port_sea_side[p] + 1);
        if (land == CC_NO_FEATURE || sea == CC_NO_FEATURE || t->features[sea].kind != CC_KIND_SEA ||
            (t->features[land].kind != CC_KIND_MOUNTAIN && t->features[land].kind != CC_KIND_GRASS))
            return CC_PARSE_INCONSISTENT;
        t->port_land[p] = land;
        t->port_sea[p] = sea;
        t->features[land].ports++;
        t->features[sea].ports++;
    }
    for (int r = 0; r < 4; r++) {
        t->edge_code[r] = 0;
        for (int s = 0; s < 4; s++)
            t->edge_code[r] |= (uint16_t)(t->edges[(s - r + 4) % 4] << (4 * s));
        for (int loc = 0; loc < CC_LOC_COUNT; loc++) {
            int src = loc == CC_LOC_C ? CC_LOC_C : (loc - 3 * r + 12) % 12;
            t->slot_feature[r][loc] = owner_of(t, src);
        }
    }
    return CC_PARSE_OK;
}

static enum cc_parse_status parse_tile_line(struct cc_tileset *ts, enum cc_ruleset r,
                                            struct span line)
{
    const struct edge_letter *letters = edge_table(r);
    if (ts->ntypes >= CC_MAX_TILE_TYPES) return CC_PARSE_TOO_MANY;
    struct cc_tile_type *t = &ts->types[ts->ntypes];
    memset(t, 0, sizeof *t);
    struct tile_draft d;
    memset(&d, 0, sizeof d);
    d.t = t;

    if (!memchr(line.p, '|', line.n)) return CC_PARSE_SYNTAX;
    struct span head;
    struct span body = split(line, '|', &head);
    /* head: ID COUNT E E E E */
    struct span words[6];
    int nw = 0;
    head = trim(head);
    while (head.n > 0) {
        if (nw == 6) return CC_PARSE_SYNTAX;
        struct span w;
        head = trim(split(head, ' ', &w));
        words[nw++] = trim(w);
    }
    if (nw != 6 || words[0].n == 0 || words[0].n >= sizeof t->id) return CC_PARSE_SYNTAX;
    for (size_t i = 0; i < words[0].n; i++)
        if (!((words[0].p[i] >= 'A' && words[0].p[i] <= 'Z') ||
              (words[0].p[i] >= '0' && words[0].p[i] <= '9')))
            return CC_PARSE_SYNTAX;
    memcpy(t->id, words[0].p, words[0].n);
    for (int i = 0; i < ts->ntypes; i++)
        if (strcmp(ts->types[i].id, t->id) == 0) return CC_PARSE_INCONSISTENT;
    unsigned count;
    if (!parse_uint(words[1], 200, &count) || count == 0) return CC_PARSE_SYNTAX;
    t->count = (uint8_t)count;
    uint8_t shape[4];
    for (int s = 0; s < 4; s++) {
        const struct edge_letter *l = letters;
        while (l->letter && !(words[2 + s].n == 1 && words[2 + s].p[0] == l->letter)) l++;
        if (!l->letter) return CC_PARSE_UNKNOWN;
        t->edges[s] = l->edge;
        shape[s] = l->shape;
    }
    body = trim(body);
    while (body.n > 0) {
        struct span f;
        body = trim(split(body, ';', &f));
        f = trim(f);
        if (f.n == 0) return CC_PARSE_SYNTAX;
        enum cc_parse_status st = parse_feature(&d, r, f);
        if (st != CC_PARSE_OK) return st;
    }
    enum cc_parse_status st = finish_tile(&d, letters, shape);
    if (st != CC_PARSE_OK) return st;
    ts->ntypes++;
    return CC_PARSE_OK;
}

/* "@set NAME": the set of the types that follow, into *set. */
static enum cc_parse_status parse_set_line(struct span line, int *set)
{
    static const char prefix[] = "@set ";
    if (line.n <= sizeof prefix - 1 || memcmp(line.p, prefix, sizeof prefix - 1) != 0)
        return CC_PARSE_SYNTAX;
    struct span name = {line.p + sizeof prefix - 1, line.n - (sizeof prefix - 1)};
    name = trim(name);
    char buf[16];
    if (name.n == 0 || name.n >= sizeof buf) return CC_PARSE_UNKNOWN;
    memcpy(buf, name.p, name.n);
    buf[name.n] = '\0';
    *set = cc_set_parse(buf);
    return *set < 0 ? CC_PARSE_UNKNOWN : CC_PARSE_OK;
}

enum cc_parse_status cc_tileset_parse(struct cc_tileset *out, enum cc_ruleset ruleset,
                                      const char *text, size_t len, int *line)
{
    memset(out, 0, sizeof *out);
    if (!edge_table(ruleset)) return CC_PARSE_UNKNOWN;
    out->ruleset = (uint8_t)ruleset;
    struct span rest = {text, len};
    int lineno = 0;
    int starts = 0;
    int set = CC_SET_BASE; /* of the types that follow: "@set NAME" lines change it */
    while (rest.n > 0) {
        struct span l;
        rest = split(rest, '\n', &l);
        lineno++;
        if (line) *line = lineno;
        /* '#' begins a comment anywhere; a fence line of markdown is skipped. */
        const char *hash = memchr(l.p, '#', l.n);
        if (hash) l.n = (size_t)(hash - l.p);
        l = trim(l);
        if (l.n == 0 || l.p[0] == '`') continue;
        if (memchr(l.p, '\0', l.n)) return CC_PARSE_SYNTAX;
        if (l.p[0] == '@') {
            enum cc_parse_status st = parse_set_line(l, &set);
            if (st != CC_PARSE_OK) return st;
            continue;
        }
        enum cc_parse_status st = parse_tile_line(out, ruleset, l);
        if (st != CC_PARSE_OK) return st;
        struct cc_tile_type *t = &out->types[out->ntypes - 1];
        t->set = (uint8_t)set;
        if (t->is_start && set == CC_SET_BASE) {
            out->start_type = (uint8_t)(out->ntypes - 1);
            starts++;
        }
        if (set == CC_SET_BASE) {
            if (out->land_count + t->count > 255) return CC_PARSE_TOO_MANY;
            out->land_count = (uint8_t)(out->land_count + t->count);
        }
    }
    if (line) *line = lineno;
    if (out->ntypes == 0 || starts != 1) return CC_PARSE_INCONSISTENT;
    return CC_PARSE_OK;
}
