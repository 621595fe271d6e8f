/* board_svg_test.c: the board picture: well-formed XML (a small checker here, and xmllint)
 * for games of every ruleset at several points, escaped names, the same bytes for the same
 * game, every tile and every piece drawn once, turns drawn the right way round, and a size
 * bound on the largest boards. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "board_svg.h"
#include "randplay.h"

static const char *const plain_names[CC_MAX_PLAYERS] = {"Ann", "Bob", "Cleo", "Dan", "Eve"};

/* ---- A small XML well-formedness checker ------------------------------------------- */

static bool name_char(char c, bool first)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' ||
           (!first && ((c >= '0' && c <= '9') || c == '-' || c == '.'));
}

/* An entity or character reference at s ("&amp;" ...): its length, or 0. */
static size_t entity_len(const char *s)
{
    static const char *const known[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strncmp(s, known[i], strlen(known[i]))) return strlen(known[i]);
    if (s[1] == '#') {
        size_t n = 2;
        while (s[n] >= '0' && s[n] <= '9') n++;
        if (n > 2 && s[n] == ';') return n + 1;
    }
    return 0;
}

/* Checks that `doc` is one well-formed element (after an XML declaration) named `root`:
 * tags nest and match, attribute values are quoted, text and values hold no '<' and no
 * bare '&', no control characters. (Duplicate attributes are left to xmllint.) Returns
 * NULL or what is wrong. */
static const char *xml_problem(const char *doc, const char *root)
{
    enum { DEPTH = 64 };
    char stack[DEPTH][32];
    int depth = 0, elements = 0;
    const char *p = doc;
    if (!strncmp(p, "<?xml ", 6)) {
        p = strstr(p, "?>");
        if (!p) return "unterminated declaration";
        p += 2;
    }
    while (*p) {
        unsigned char c = (unsigned char)*p;
        if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') return "control character";
        if (c == '&') {
            size_t n = entity_len(p);
            if (!n) return "bare &";
            p += n;
            continue;
        }
        if (c == '>') return "stray >";
        if (c != '<') {
            if (depth == 0 && c != '\n' && c != ' ') return "text outside the root";
            p++;
            continue;
        }
        p++;
        bool closing = *p == '/';
        if (closing) p++;
        const char *name = p;
        if (!name_char(*p, true)) return "bad tag name";
        while (name_char(*p, false)) p++;
        size_t nlen = (size_t)(p - name);
        if (nlen >= sizeof stack[0]) return "tag name too long";
        if (closing) {
            if (depth == 0 || strlen(stack[depth - 1]) != nlen ||
                strncmp(stack[depth - 1], name, nlen))
                return "mismatched closing tag";
            depth--;
            while (*p == ' ') p++;
            if (*p != '>') return "bad closing tag";
            p++;
            if (depth == 0) {
                while (*p == '\n' || *p == ' ') p++;
                return *p ? "content after the root" : NULL;
            }
            continue;
        }
        if (depth == 0 && elements > 0) return "a second root";
        if (depth == 0 && (strlen(root) != nlen || strncmp(root, name, nlen))) return "wrong root";
        elements++;
        /* Attributes. */
        for (;;) {
            const char *before = p;
            while (*p == ' ' || *p == '\n') p++;
            if (*p == '/' && p[1] == '>') {
                p += 2;
                break;
            }
            if (*p == '>') {
                if (depth == DEPTH) return "too deep";
                memcpy(stack[depth], name, nlen);
                stack[depth][nlen] = '\0';
                depth++;
                p++;
                break;
            }
            if (p == before) return "no space before an attribute";
            if (!name_char(*p, true)) return "bad attribute name";
            while (name_char(*p, false)) p++;
            if (*p++ != '=') return "attribute without =";
            char q = *p++;
            if (q != '"' && q != '\'') return "unquoted attribute";
            while (*p != q) {
                if (!*p || *p == '<') return "bad attribute value";
                if (*p == '&') {
                    size_t n = entity_len(p);
                    if (!n) return "bare & in an attribute";
                    p += n;
                } else {
                    p++;
                }
            }
            p++;
        }
        if (depth == 0) {
            while (*p == '\n' || *p == ' ') p++;
            return *p ? "content after the root" : NULL;
        }
    }
    return depth ? "unclosed element" : "no root element";
}

/* Runs `xmllint --noout` on the document: true when it finds it well-formed. */
static bool xmllint_ok(const char *doc)
{
    FILE *f = popen("xmllint --noout - 2>&1 >/dev/null", "w");
    cr_assert_not_null(f, "cannot run xmllint (apt-get install libxml2-utils)");
    fputs(doc, f);
    int st = pclose(f);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) != 127,
              "xmllint is missing (apt-get install libxml2-utils)");
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* ---- Helpers ------------------------------------------------------------------------ */

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

static unsigned pieces_on_board(const struct cc_game *g)
{
    unsigned n = 0;
    for (unsigned i = 0; i < CC_MAX_PIECES; i++) n += g->pieces[i].used;
    return n;
}

/* Renders g and checks everything that holds for every picture; returns it (free()). */
static char *render_checked(const struct cc_game *g, const char *const names[CC_MAX_PLAYERS],
                            const char *what)
{
    char *svg = board_svg_new(g, names);
    cr_assert_not_null(svg, "%s: no picture", what);
    const char *bad = xml_problem(svg, "svg");
    cr_assert_null(bad, "%s: not well-formed: %s", what, bad);
    cr_assert(strstr(svg, "xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\""), "%s", what);
    /* Every placed tile once, by its square. */
    cr_assert_eq(count(svg, "<g class=\"tile\""), g->nboard, "%s: %zu tile groups for %u tiles",
                 what, count(svg, "<g class=\"tile\""), g->nboard);
    for (unsigned i = 0; i < g->nboard; i++) {
        char id[48];
        snprintf(id, sizeof id, "id=\"tile_%d_%d\"", g->board[i].x, g->board[i].y);
        cr_assert_eq(count(svg, id), 1, "%s: tile %u (%s) drawn %zu times", what, i, id,
                     count(svg, id));
    }
    /* Every piece once. */
    cr_assert_eq(count(svg, "class=\"piece "), pieces_on_board(g), "%s: %zu pieces drawn, %u", what,
                 count(svg, "class=\"piece "), pieces_on_board(g));
    for (unsigned s = 0; s < g->nplayers; s++) {
        char seat[32];
        snprintf(seat, sizeof seat, "id=\"seat_%u\"", s);
        cr_assert_eq(count(svg, seat), 1, "%s: seat %u in the legend", what, s);
    }
    return svg;
}

/* Snapshots of a random game: after the first action, at two points in the middle (in
 * the place phase, so a drawn tile is shown) and at the end. */
struct snaps {
    struct cc_game at[4]; /* the states */
    unsigned n;           /* taken */
    unsigned actions;     /* actions seen */
};

static void snap_hook(const struct cc_game *g, const struct cc_action *a,
                      const struct cc_events *ev, void *ctx)
{
    (void)a;
    (void)ev;
    struct snaps *s = ctx;
    s->actions++;
    bool take = s->n == 0 || (s->n == 1 && g->nboard >= 12 && g->phase == CC_PHASE_PLACE) ||
                (s->n == 2 && g->nboard >= 40 && g->phase != CC_PHASE_DRAW);
    if (take && s->n < 3) s->at[s->n++] = *g;
}

static struct cc_events events;

/* Plays a random game and returns its snapshots, the final state last. */
static struct snaps *play(uint8_t ruleset, uint8_t nplayers, struct cc_options o, uint64_t seed)
{
    static struct snaps s;
    static struct cc_game g;
    memset(&s, 0, sizeof s);
    cr_assert(randplay_game(&g, &events, ruleset, nplayers, o, seed, NULL, snap_hook, &s),
              "random game %u/%u/%llu", ruleset, nplayers, (unsigned long long)seed);
    s.at[s.n++] = g;
    return &s;
}

struct variant {
    const char *name;      /* for messages */
    uint8_t ruleset;       /* enum cc_ruleset */
    struct cc_options opt; /* options */
};

static const struct variant variants[] = {
    {"classic", CC_RULESET_CLASSIC, {CC_EDITION_STANDARD, 0, 0, 0, 0}},
    {"classic original river", CC_RULESET_CLASSIC, {CC_EDITION_ORIGINAL, 1, 0, 0, 0}},
    {"hills", CC_RULESET_HILLS, {0, 0, 0, 0, 0}},
    {"discovery", CC_RULESET_DISCOVERY, {0, 0, CC_DRAW_PILE, 0, 0}},
    {"discovery hand", CC_RULESET_DISCOVERY, {0, 0, CC_DRAW_HAND, 0, 0}},
    {"classic inns", CC_RULESET_CLASSIC, {CC_EDITION_STANDARD, 0, 0, CC_EXP_INNS, 0}},
    {"classic traders river", CC_RULESET_CLASSIC, {CC_EDITION_STANDARD, 1, 0, CC_EXP_TRADERS, 0}},
    {"classic inns traders",
     CC_RULESET_CLASSIC,
     {CC_EDITION_STANDARD, 0, 0, CC_EXP_INNS | CC_EXP_TRADERS, 0}},
};

/* ---- Tests -------------------------------------------------------------------------- */

Test(board_svg, well_formed_every_ruleset_at_several_points, .timeout = 120)
{
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++)
        for (uint8_t players = 2; players <= 5; players += 3)
            for (uint64_t seed = 1; seed <= 2; seed++) {
                struct snaps *s =
                    play(variants[v].ruleset, players, variants[v].opt, seed * 7919 + v);
                cr_assert_geq(s->n, 3, "%s: snapshots", variants[v].name);
                for (unsigned k = 0; k < s->n; k++) {
                    char what[96];
                    snprintf(what, sizeof what, "%s, %u players, seed %llu, point %u",
                             variants[v].name, players, (unsigned long long)seed, k);
                    char *svg = render_checked(&s->at[k], plain_names, what);
                    cr_assert(xmllint_ok(svg), "%s: xmllint refuses it", what);
                    if (s->at[k].phase == CC_PHASE_FINISHED)
                        cr_assert(strstr(svg, "Game over."), "%s", what);
                    else
                        cr_assert(strstr(svg, "class=\"to-move\""), "%s", what);
                    free(svg);
                }
            }
}

Test(board_svg, names_are_escaped)
{
    static const char *const names[CC_MAX_PLAYERS] = {
        "<script>alert(1)</script>", "Tom & \"Jerry\" 'n' <b>", "\x01\x1f bad\xff\xc3(utf8\x7f",
        "Zo\xc3\xab \xe2\x9c\x93", NULL};
    struct snaps *s = play(CC_RULESET_CLASSIC, 5, (struct cc_options){0}, 42);
    for (unsigned k = 0; k < s->n; k++) {
        char *svg = render_checked(&s->at[k], names, "markup names");
        cr_assert(xmllint_ok(svg), "xmllint refuses it");
        cr_assert_null(strstr(svg, "<script"));
        cr_assert_null(strstr(svg, "<b>"));
        cr_assert(strstr(svg, "&lt;script&gt;alert(1)&lt;/script&gt;"));
        cr_assert(strstr(svg, "Tom &amp; &quot;Jerry&quot; &apos;n&apos; &lt;b&gt;"));
        cr_assert(strstr(svg, "?? bad?\?(utf8?"), "bad bytes become '?'");
        cr_assert(strstr(svg, "Zo\xc3\xab \xe2\x9c\x93"), "UTF-8 text is kept");
        cr_assert(strstr(svg, "Seat 4"), "a missing name is shown as its seat");
        free(svg);
    }
    /* No names at all, and a very long one (cut with an ellipsis). */
    char *svg = render_checked(&s->at[s->n - 1], NULL, "no names");
    cr_assert(strstr(svg, "Seat 0") && strstr(svg, "Seat 1"));
    free(svg);
    char longname[200];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    const char *const long_names[CC_MAX_PLAYERS] = {longname, "b", "c", "d", "e"};
    svg = render_checked(&s->at[s->n - 1], long_names, "a long name");
    cr_assert_null(strstr(svg, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"), "cut at 40");
    cr_assert(strstr(svg, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\xe2\x80\xa6"));
    free(svg);
}

Test(board_svg, same_game_same_bytes)
{
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        struct snaps *s = play(variants[v].ruleset, 3, variants[v].opt, 77);
        for (unsigned k = 0; k < s->n; k++) {
            char *a = board_svg_new(&s->at[k], plain_names);
            /* Through the snapshot encoding too: what the server stores and loads. */
            static uint8_t buf[CC_SNAPSHOT_MAX];
            static struct cc_game copy;
            size_t len = cc_game_encode(&s->at[k], buf, sizeof buf);
            cr_assert_gt(len, 0);
            cr_assert_eq(cc_game_decode(&copy, buf, len), CC_OK);
            char *b = board_svg_new(&copy, plain_names);
            cr_assert(a && b);
            cr_assert_str_eq(a, b, "%s point %u: different bytes", variants[v].name, k);
            free(a);
            free(b);
        }
    }
}

Test(board_svg, pieces_of_every_kind_are_drawn)
{
    /* Over a few hills games: followers standing (hikers, farmers) and stables. */
    bool stables = false, followers = false;
    for (uint64_t seed = 1; seed <= 6 && !(stables && followers); seed++) {
        struct snaps *s = play(CC_RULESET_HILLS, 4, (struct cc_options){0}, seed);
        for (unsigned k = 0; k < s->n; k++) {
            char *svg = render_checked(&s->at[k], plain_names, "hills pieces");
            stables |= strstr(svg, "class=\"piece stable\"") != NULL;
            followers |= strstr(svg, "class=\"piece follower\"") != NULL;
            free(svg);
        }
    }
    cr_assert(stables && followers, "stables and followers seen");
    /* Seat colours: a piece of each seat in a 5-player game shows that seat's colour. */
    struct snaps *s = play(CC_RULESET_CLASSIC, 5, (struct cc_options){0}, 3);
    const struct cc_game *g = &s->at[s->n - 1];
    static const char *const fills[CC_MAX_PLAYERS] = {"#1f5fd6", "#d62b2b", "#1f9e3a", "#f2cc1d",
                                                      "#222222"};
    char *svg = render_checked(g, plain_names, "colours");
    for (unsigned i = 0; i < CC_MAX_PIECES; i++) {
        if (!g->pieces[i].used) continue;
        const struct cc_placed *p = &g->board[g->pieces[i].tile];
        char title[80];
        snprintf(title, sizeof title, "of seat %u on (%d, %d) at %s", g->pieces[i].seat, p->x, p->y,
                 cc_location_name((enum cc_location)g->pieces[i].loc));
        const char *at = strstr(svg, title);
        cr_assert_not_null(at, "piece %u (%s) drawn", i, title);
        /* The fill precedes the title inside the piece's element. */
        const char *start = at;
        while (start > svg && strncmp(start, "class=\"piece ", 13)) start--;
        char fill[32];
        snprintf(fill, sizeof fill, "fill=\"%s\"", fills[g->pieces[i].seat]);
        const char *f = strstr(start, fill);
        cr_assert(f && f < at, "piece %u in its seat's colour", i);
    }
    free(svg);
}

/* The square (tile-local origin) of the tile group of (x, y): its first rect. */
static const char *tile_group(const char *svg, int x, int y, int *ox, int *oy)
{
    char id[48];
    snprintf(id, sizeof id, "id=\"tile_%d_%d\"", x, y);
    const char *g = strstr(svg, id);
    cr_assert_not_null(g, "tile %d,%d", x, y);
    const char *r = strstr(g, "<rect x=\"");
    cr_assert(r && sscanf(r, "<rect x=\"%d\" y=\"%d\"", ox, oy) == 2);
    return g;
}

/* Every coordinate pair "X,Y" in the d attribute of the first `cls` path of the group. */
static unsigned path_points(const char *group, const char *cls, int pts[][2], unsigned cap)
{
    char key[48];
    snprintf(key, sizeof key, "<path class=\"%s\"", cls);
    const char *p = strstr(group, key);
    const char *end = strstr(group, "</g>");
    cr_assert(p && p < end, "a %s path in the tile", cls);
    p = strstr(p, " d=\"") + 4;
    unsigned n = 0;
    while (*p != '"' && n < cap) {
        int x, y, used = 0;
        if (sscanf(p, "%d,%d%n", &x, &y, &used) == 2 && used > 0) {
            pts[n][0] = x;
            pts[n][1] = y;
            n++;
            p += used;
        } else {
            p++;
        }
    }
    return n;
}

Test(board_svg, rotation_is_drawn_as_placed)
{
    /* Classic E (city on the north side) placed east of the start E at rotation 90: its
     * city lies on the east side; a follower on it stands in the east half. */
    const struct cc_tileset *ts = cc_tileset_get(CC_RULESET_CLASSIC);
    int e = cc_tileset_find(ts, "E");
    cr_assert_geq(e, 0);
    static struct cc_game g;
    struct cc_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.ruleset = CC_RULESET_CLASSIC;
    setup.nplayers = 2;
    setup.start = (int16_t)e;
    setup.deck_len = 2;
    setup.deck[0] = setup.deck[1] = (uint8_t)e;
    cr_assert_eq(cc_game_new(&g, &setup, NULL), CC_OK);
    struct cc_action a = {.kind = CC_ACTION_DRAW, .seat = 0, .tile = CC_NO_TILE};
    cr_assert_eq(cc_game_apply(&g, &a, NULL), CC_OK);
    a = (struct cc_action){.kind = CC_ACTION_PLACE,
                           .seat = 0,
                           .x = 1,
                           .y = 0,
                           .rot = 1,
                           .tile = CC_NO_TILE,
                           .follow = CC_FOLLOW_FOLLOWER,
                           .loc = CC_LOC_E};
    cr_assert_eq(cc_game_apply(&g, &a, NULL), CC_OK);
    char *svg = render_checked(&g, plain_names, "E at 90");
    int ox, oy, pts[16][2];
    const char *grp = tile_group(svg, 1, 0, &ox, &oy);
    cr_assert(strstr(grp, "E at (1, 0), rotation 90"));
    unsigned n = path_points(grp, "city", pts, 16);
    cr_assert_geq(n, 3);
    bool ne = false, se = false;
    for (unsigned i = 0; i < n; i++) {
        cr_assert_geq(pts[i][0], ox + 30, "city point %d,%d west of the middle", pts[i][0],
                      pts[i][1]);
        ne |= pts[i][0] == ox + 60 && pts[i][1] == oy;
        se |= pts[i][0] == ox + 60 && pts[i][1] == oy + 60;
    }
    cr_assert(ne && se, "the city covers the east side");
    /* The start tile (rotation 0) has its city on the north side. */
    grp = tile_group(svg, 0, 0, &ox, &oy);
    n = path_points(grp, "city", pts, 16);
    for (unsigned i = 0; i < n; i++) cr_assert_leq(pts[i][1], oy + 30);
    /* The follower. */
    const char *f = strstr(svg, "<path class=\"piece follower\" transform=\"translate(");
    int fx, fy;
    cr_assert(f && sscanf(f, "<path class=\"piece follower\" transform=\"translate(%d,%d)", &fx,
                          &fy) == 2);
    tile_group(svg, 1, 0, &ox, &oy);
    cr_assert(fx > ox + 30 && fx < ox + 60 && fy > oy && fy < oy + 60, "follower at %d,%d", fx, fy);
    /* The tile to place is shown while it is drawn. */
    a = (struct cc_action){.kind = CC_ACTION_DRAW, .seat = 1, .tile = CC_NO_TILE};
    cr_assert_eq(cc_game_apply(&g, &a, NULL), CC_OK);
    free(svg);
    svg = render_checked(&g, plain_names, "drawn");
    cr_assert(strstr(svg, "Bob (seat 1, red) places tile E"));
    cr_assert_eq(count(svg, "class=\"loose-tile\""), 1);
    free(svg);
}

/* Size of the picture of a board of 201 tiles of type `type`, laid out row by row, with
 * 40 pieces: not a game the engine would make, but the worst the renderer can be asked. */
static size_t worst_size(uint8_t ruleset, uint8_t type)
{
    static struct cc_game g;
    memset(&g, 0, sizeof g);
    g.ruleset = ruleset;
    g.nplayers = 5;
    g.phase = CC_PHASE_PLACE;
    g.drawn = type;
    g.options.draw = ruleset == CC_RULESET_DISCOVERY ? CC_DRAW_HAND : CC_DRAW_PILE;
    for (unsigned s = 0; s < 5; s++) {
        g.players[s].score = -999;
        g.players[s].stables = 2;
        memset(g.players[s].harvest, 9, sizeof g.players[s].harvest);
        g.players[s].hand[0] = g.players[s].hand[1] = type;
    }
    g.nboard = CC_MAX_BOARD;
    for (unsigned i = 0; i < CC_MAX_BOARD; i++)
        g.board[i] = (struct cc_placed){.x = (int16_t)(i % 15) - 7,
                                        .y = (int16_t)(i / 15) - 7,
                                        .type = type,
                                        .rot = (uint8_t)(i & 3)};
    const struct cc_tile_type *t = &cc_tileset_get(ruleset)->types[type];
    for (unsigned i = 0; i < CC_MAX_PIECES; i++) {
        unsigned f = i % t->nfeatures, loc = 0;
        while (!(t->features[f].slots & (1u << loc))) loc++;
        g.pieces[i] = (struct cc_piece){.used = 1,
                                        .seat = (uint8_t)(i % 5),
                                        .kind = i % 7 == 6 ? CC_PIECE_STABLE : CC_PIECE_FOLLOWER,
                                        .tile = (uint8_t)(i * 5),
                                        .loc = (uint8_t)loc,
                                        .feature = (uint8_t)f};
    }
    char *svg = board_svg_new(&g, plain_names);
    cr_assert_not_null(svg);
    cr_assert_null(xml_problem(svg, "svg"), "%s", xml_problem(svg, "svg"));
    size_t n = strlen(svg);
    free(svg);
    return n;
}

/* Chooses the placement of action `a` (its kind, place, figure) from the `n` legal ones of
 * `list` at action number `step`. */
typedef void choose_fn(const struct cc_placement *list, size_t n, unsigned step,
                       struct cc_action *a);
/* Called after each action of play_to_end with the number of actions so far. */
typedef void after_fn(const struct cc_game *g, unsigned step, void *ctx);

/* Plays `g` to its end: each seat draws, then places as choose() says; after() (if any)
 * sees every state. */
static void play_to_end(struct cc_game *g, choose_fn *choose, after_fn *after, void *ctx)
{
    static struct cc_placement list[CC_MAX_PLACEMENTS];
    unsigned step = 0;
    while (g->phase != CC_PHASE_FINISHED) {
        struct cc_action a = {.seat = g->seat, .tile = CC_NO_TILE};
        if (g->phase == CC_PHASE_DRAW) {
            a.kind = CC_ACTION_DRAW;
        } else {
            size_t n = cc_legal_placements(g, list, CC_MAX_PLACEMENTS, true);
            cr_assert(n > 0 && n <= CC_MAX_PLACEMENTS);
            choose(list, n, step, &a);
        }
        step++;
        cr_assert_eq(cc_game_apply(g, &a, NULL), CC_OK, "step %u", step);
        if (after) after(g, step, ctx);
    }
}

/* A placement by a fixed stride through the list, and a farmer (NW is a field of X)
 * whenever one may go: farmers stay. */
static void choose_farmer(const struct cc_placement *list, size_t n, unsigned step,
                          struct cc_action *a)
{
    const struct cc_placement *p = &list[(step * 7919u) % n];
    a->kind = CC_ACTION_PLACE;
    a->x = p->x;
    a->y = p->y;
    a->rot = p->rot;
    for (unsigned loc = 0; loc < CC_LOC_COUNT; loc++)
        if (p->follower & (1u << loc)) {
            a->follow = CC_FOLLOW_FOLLOWER;
            a->loc = (uint8_t)loc;
            break;
        }
}

Test(board_svg, size_is_bounded, .timeout = 60)
{
    /* A real game on the largest board: 200 crossroads drawn after the start tile. */
    const struct cc_tileset *ts = cc_tileset_get(CC_RULESET_CLASSIC);
    static struct cc_game g;
    struct cc_setup setup = randplay_setup(CC_RULESET_CLASSIC, 5, (struct cc_options){0}, 5);
    setup.deck_len = CC_MAX_DECK;
    memset(setup.deck, cc_tileset_find(ts, "X"), sizeof setup.deck);
    cr_assert_eq(cc_game_new(&g, &setup, NULL), CC_OK);
    play_to_end(&g, choose_farmer, NULL, NULL);
    cr_assert_eq(g.nboard, CC_MAX_BOARD);
    cr_assert_eq(pieces_on_board(&g), 5 * cc_ruleset_followers(CC_RULESET_CLASSIC));
    char *svg = render_checked(&g, plain_names, "201 tiles");
    size_t real = strlen(svg);
    cr_assert(xmllint_ok(svg));
    free(svg);
    cr_assert_lt(real, 512u * 1024, "201 tiles: %zu bytes", real);
    /* The worst tile type of every ruleset, 201 times, 40 pieces. */
    for (uint8_t r = 0; r < CC_RULESET_COUNT; r++) {
        const struct cc_tileset *rts = cc_tileset_get((enum cc_ruleset)r);
        for (uint8_t t = 0; t < rts->ntypes; t++) {
            size_t n = worst_size(r, t);
            cr_assert_lt(n, 700u * 1024, "%s %s: %zu bytes", cc_ruleset_name(r), rts->types[t].id,
                         n);
        }
    }
}

/* ---- The expansions of classic ------------------------------------------------------ */

/* Occurrences of `needle` in [from, to). */
static size_t count_in(const char *from, const char *to, const char *needle)
{
    size_t n = 0, len = strlen(needle);
    for (const char *p = strstr(from, needle); p && p + len <= to; p = strstr(p + 1, needle)) n++;
    return n;
}

/* The class word and the title's name of each figure (enum cc_piece_kind). */
static const char *const figure_class[CC_PIECE_KIND_COUNT] = {"follower", "stable", "large",
                                                              "builder", "pig"};
static const char *const figure_title[CC_PIECE_KIND_COUNT] = {"follower", "stable",
                                                              "large follower", "builder", "pig"};

/*
 * Checks the marks of the expansions in the picture of `g`: each placed tile's group
 * holds exactly the inns, cathedrals and goods symbols of its type, the board holds no
 * others, each piece is drawn as its figure (its class and title), and each seat's legend
 * line lists its supply of the expansions' figures and its goods. Adds the figures drawn to
 * seen[] (by kind).
 */
static void check_marks(const struct cc_game *g, const char *svg, const char *what,
                        unsigned seen[CC_PIECE_KIND_COUNT])
{
    const struct cc_tileset *ts = cc_tileset_get((enum cc_ruleset)g->ruleset);
    const char *board = strstr(svg, "<g class=\"coords\"");
    cr_assert_not_null(board, "%s: the board", what);
    const char *end = board + strlen(board);
    static const char *const goods_class[CC_GOODS_COUNT] = {
        "class=\"goods wine\"", "class=\"goods grain\"", "class=\"goods cloth\""};
    unsigned inns = 0, cathedrals = 0, goods[CC_GOODS_COUNT] = {0};
    for (unsigned i = 0; i < g->nboard; i++) {
        const struct cc_tile_type *t = &ts->types[g->board[i].type];
        unsigned want_inn = 0, want_cathedral = 0, want_goods[CC_GOODS_COUNT] = {0};
        for (unsigned f = 0; f < t->nfeatures; f++) {
            want_inn += t->features[f].inn;
            want_cathedral += t->features[f].cathedral;
            for (unsigned k = 0; k < CC_GOODS_COUNT; k++) want_goods[k] += t->features[f].goods[k];
        }
        char id[48];
        snprintf(id, sizeof id, "id=\"tile_%d_%d\"", g->board[i].x, g->board[i].y);
        const char *grp = strstr(board, id);
        cr_assert_not_null(grp, "%s: tile %s", what, id);
        const char *grp_end = strchr(grp, '\n');
        cr_assert_not_null(grp_end);
        cr_assert_eq(count_in(grp, grp_end, "class=\"inn\""), want_inn, "%s: %s %s: inns", what,
                     t->id, id);
        cr_assert_eq(count_in(grp, grp_end, "class=\"cathedral\""), want_cathedral,
                     "%s: %s %s: cathedrals", what, t->id, id);
        for (unsigned k = 0; k < CC_GOODS_COUNT; k++)
            cr_assert_eq(count_in(grp, grp_end, goods_class[k]), want_goods[k], "%s: %s %s: %s",
                         what, t->id, id, goods_class[k]);
        /* The field walled in the middle (IC, TC, TD, TF, TG) is drawn as a strip of its
         * own where the cities around it would otherwise meet: TC, TD (a cap on a band) and
         * TG (two triangles); on IC and TF the ground between the cities is the field. */
        size_t walled = !strcmp(t->id, "TC") || !strcmp(t->id, "TD") || !strcmp(t->id, "TG");
        cr_assert_eq(count_in(grp, grp_end, "class=\"walled-field\""), walled,
                     "%s: %s %s: the walled-in field", what, t->id, id);
        inns += want_inn;
        cathedrals += want_cathedral;
        for (unsigned k = 0; k < CC_GOODS_COUNT; k++) goods[k] += want_goods[k];
    }
    cr_assert_eq(count_in(board, end, "class=\"inn\""), inns, "%s: inns on the board", what);
    cr_assert_eq(count_in(board, end, "class=\"cathedral\""), cathedrals, "%s: cathedrals", what);
    for (unsigned k = 0; k < CC_GOODS_COUNT; k++)
        cr_assert_eq(count_in(board, end, goods_class[k]), goods[k], "%s: %s", what,
                     goods_class[k]);
    /* Every piece as its figure. */
    unsigned kinds[CC_PIECE_KIND_COUNT] = {0};
    for (unsigned i = 0; i < CC_MAX_PIECES; i++) {
        const struct cc_piece *pc = &g->pieces[i];
        if (!pc->used) continue;
        cr_assert_lt(pc->kind, CC_PIECE_KIND_COUNT);
        kinds[pc->kind]++;
        const struct cc_placed *p = &g->board[pc->tile];
        char title[96];
        snprintf(title, sizeof title, "<title>%s of seat %u on (%d, %d) at %s</title>",
                 figure_title[pc->kind], pc->seat, p->x, p->y,
                 cc_location_name((enum cc_location)pc->loc));
        const char *at = strstr(board, title);
        cr_assert_not_null(at, "%s: piece %u drawn (%s)", what, i, title);
        const char *start = at;
        while (start > board && strncmp(start, "class=\"piece ", 13)) start--;
        char cls[48];
        snprintf(cls, sizeof cls, "class=\"piece %s\"", figure_class[pc->kind]);
        cr_assert(!strncmp(start, cls, strlen(cls)), "%s: piece %u drawn as a %s", what, i,
                  figure_class[pc->kind]);
        cr_assert_null(
            strstr(start + 1, "class=\"piece ") < at ? strstr(start + 1, "class=\"piece ") : NULL,
            "%s: piece %u: its title is its own", what, i);
    }
    for (unsigned k = 0; k < CC_PIECE_KIND_COUNT; k++) {
        char cls[48];
        snprintf(cls, sizeof cls, "class=\"piece %s\"", figure_class[k]);
        cr_assert_eq(count_in(board, end, cls), kinds[k], "%s: %s drawn", what, cls);
        seen[k] += kinds[k];
    }
    /* The supplies and goods in the legend. */
    unsigned exp = g->options.expansions;
    for (unsigned s = 0; s < g->nplayers; s++) {
        const struct cc_player *pl = &g->players[s];
        char seat[32], text[64];
        snprintf(seat, sizeof seat, "id=\"seat_%u\"", s);
        const char *line = strstr(svg, seat), *line_end = strstr(line, "</g>");
        if (exp & CC_EXP_INNS) {
            snprintf(text, sizeof text, ", %u large follower%s", pl->large,
                     pl->large == 1 ? "" : "s");
            cr_assert_eq(count_in(line, line_end, text), 1, "%s: seat %u: %s", what, s, text);
        }
        if (exp & CC_EXP_TRADERS) {
            snprintf(text, sizeof text, ", %u builder%s, %u pig%s", pl->builders,
                     pl->builders == 1 ? "" : "s", pl->pigs, pl->pigs == 1 ? "" : "s");
            cr_assert_eq(count_in(line, line_end, text), 1, "%s: seat %u: %s", what, s, text);
            for (unsigned k = 0; k < CC_GOODS_COUNT; k++) {
                snprintf(text, sizeof text, "%u %s", pl->goods[k], cc_goods_name((enum cc_goods)k));
                cr_assert_eq(count_in(line, line_end, text), pl->goods[k] ? 1 : 0,
                             "%s: seat %u: %s", what, s, text);
            }
        } else {
            cr_assert_null(strstr(svg, " builder"), "%s: no builder without traders", what);
        }
    }
    cr_assert_eq(count(svg, "(the builder's extra turn)"), g->extra_turn ? 1 : 0, "%s", what);
}

/* A placement by a fixed stride through the list (a pig's when the stride's is not, every
 * third turn: pigs are rare), with a figure of a kind that changes from turn to turn (a
 * pig first whenever one may go: it needs an own farmer first), none every fifth turn. */
static void choose_figures(const struct cc_placement *list, size_t n, unsigned step,
                           struct cc_action *a)
{
    static const uint8_t order[4] = {CC_PIECE_LARGE, CC_PIECE_BUILDER, CC_PIECE_FOLLOWER,
                                     CC_PIECE_FOLLOWER};
    const struct cc_placement *p = &list[(step * 7919u) % n];
    for (size_t q = 0; q < n && step % 3 == 0 && !p->pig; q++)
        if (list[q].pig) p = &list[q];
    a->kind = CC_ACTION_PLACE;
    a->x = p->x;
    a->y = p->y;
    a->rot = p->rot;
    for (unsigned k = 0; k < 5 && step % 5 != 4 && a->follow == CC_FOLLOW_NONE; k++) {
        uint8_t kind = k == 0 ? CC_PIECE_PIG : order[(step + k) % 4];
        unsigned mask = cc_placement_locations(p, kind);
        for (unsigned loc = 0; loc < CC_LOC_COUNT && a->follow == CC_FOLLOW_NONE; loc++)
            if (mask & (1u << loc)) {
                a->follow = CC_FOLLOW_FOLLOWER;
                a->figure = kind;
                a->loc = (uint8_t)loc;
            }
    }
}

/* Renders and checks the state after action `step`; the figures drawn add up in ctx (an
 * unsigned [CC_PIECE_KIND_COUNT]). */
static void check_expansion_state(const struct cc_game *g, unsigned step, void *ctx)
{
    char what[64];
    snprintf(what, sizeof what, "expansion tiles, step %u", step);
    char *svg = render_checked(g, plain_names, what);
    check_marks(g, svg, what, ctx);
    free(svg);
}

/* A game of the expansions' tiles only (every copy of every type of both, in catalogue
 * order), played to its end: placements chosen by a fixed stride through the legal list,
 * each turn deploying the figure of a kind that changes from turn to turn (or none) where
 * the rules allow it. Every state after an action is rendered and checked. */
Test(board_svg, expansion_marks_and_figures_are_drawn, .timeout = 120)
{
    const struct cc_tileset *ts = cc_tileset_get(CC_RULESET_CLASSIC);
    static struct cc_game g;
    struct cc_setup setup = randplay_setup(
        CC_RULESET_CLASSIC, 3, (struct cc_options){.expansions = CC_EXP_INNS | CC_EXP_TRADERS}, 1);
    setup.deck_len = 0;
    unsigned want_inns = 0, want_cathedrals = 0, want_goods[CC_GOODS_COUNT] = {0};
    for (unsigned t = 0; t < ts->ntypes; t++) {
        const struct cc_tile_type *tt = &ts->types[t];
        if (tt->set != CC_SET_INNS && tt->set != CC_SET_TRADERS) continue;
        for (unsigned c = 0; c < tt->count; c++) setup.deck[setup.deck_len++] = (uint8_t)t;
    }
    cr_assert_eq(cc_game_new(&g, &setup, NULL), CC_OK);
    unsigned seen[CC_PIECE_KIND_COUNT] = {0};
    play_to_end(&g, choose_figures, check_expansion_state, seen);
    /* The final board: every symbol of the catalogues that was placed. */
    for (unsigned i = 0; i < g.nboard; i++) {
        const struct cc_tile_type *tt = &ts->types[g.board[i].type];
        for (unsigned f = 0; f < tt->nfeatures; f++) {
            want_inns += tt->features[f].inn;
            want_cathedrals += tt->features[f].cathedral;
            for (unsigned k = 0; k < CC_GOODS_COUNT; k++) want_goods[k] += tt->features[f].goods[k];
        }
    }
    cr_assert_eq(g.ndiscarded, 0, "every tile placed (the counts below are the catalogue's)");
    cr_assert_eq(want_inns, 6);
    cr_assert_eq(want_cathedrals, 2);
    cr_assert(want_goods[CC_GOODS_WINE] == 9 && want_goods[CC_GOODS_GRAIN] == 6 &&
              want_goods[CC_GOODS_CLOTH] == 5);
    char *svg = render_checked(&g, plain_names, "expansion tiles, the end");
    cr_assert(xmllint_ok(svg));
    cr_assert_eq(count(strstr(svg, "<g class=\"coords\""), "class=\"inn\""), 6);
    cr_assert_eq(count(strstr(svg, "<g class=\"coords\""), "class=\"cathedral\""), 2);
    free(svg);
    cr_assert_gt(seen[CC_PIECE_FOLLOWER], 0, "followers drawn");
    cr_assert_gt(seen[CC_PIECE_LARGE], 0, "large followers drawn");
    cr_assert_gt(seen[CC_PIECE_BUILDER], 0, "builders drawn");
    cr_assert_gt(seen[CC_PIECE_PIG], 0, "pigs drawn");
}

/* The first state of a game in the place phase of a builder's extra turn. */
static void extra_turn_hook(const struct cc_game *g, const struct cc_action *a,
                            const struct cc_events *ev, void *ctx)
{
    (void)a;
    (void)ev;
    struct snaps *s = ctx;
    if (s->n == 0 && g->extra_turn && g->phase == CC_PHASE_PLACE) s->at[s->n++] = *g;
}

Test(board_svg, random_expansion_games_and_the_extra_turn, .timeout = 120)
{
    /* Random games of each combination (6 players too): every snapshot's marks and
     * figures; and a builder's extra turn is said in the legend while it lasts. */
    static const uint8_t sets[3] = {CC_EXP_INNS, CC_EXP_TRADERS, CC_EXP_INNS | CC_EXP_TRADERS};
    unsigned seen[CC_PIECE_KIND_COUNT] = {0}, extra_turns = 0;
    for (unsigned e = 0; e < 3; e++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            struct cc_options o = {.expansions = sets[e], .river = seed == 2};
            static const uint8_t nplayers[3] = {3, 6, 2};
            uint8_t players = nplayers[seed - 1];
            struct snaps *s = play(CC_RULESET_CLASSIC, players, o, seed * 31 + e);
            for (unsigned k = 0; k < s->n; k++) {
                char what[80];
                snprintf(what, sizeof what, "expansions %u, %u players, seed %llu, point %u",
                         sets[e], players, (unsigned long long)seed, k);
                char *svg = render_checked(&s->at[k], plain_names, what);
                check_marks(&s->at[k], svg, what, seen);
                free(svg);
            }
            if (!(sets[e] & CC_EXP_TRADERS)) continue;
            static struct snaps x;
            static struct cc_game g;
            memset(&x, 0, sizeof x);
            cr_assert(randplay_game(&g, &events, CC_RULESET_CLASSIC, players, o, seed * 31 + e,
                                    NULL, extra_turn_hook, &x));
            if (x.n == 0) continue;
            char *svg = render_checked(&x.at[0], plain_names, "an extra turn");
            check_marks(&x.at[0], svg, "an extra turn", seen);
            cr_assert(strstr(svg, "places tile ") && strstr(svg, "(the builder's extra turn)"));
            free(svg);
            extra_turns++;
        }
    cr_assert_gt(extra_turns, 0, "an extra turn seen");
    for (unsigned k = 0; k < CC_PIECE_KIND_COUNT; k++)
        if (k != CC_PIECE_STABLE) cr_assert_gt(seen[k], 0, "figure %u drawn", k);
}

/* The markup of the first element of class `cls` up to its title's end, in *len. */
static const char *element(const char *svg, const char *cls, size_t *len)
{
    const char *p = strstr(svg, cls);
    cr_assert_not_null(p, "%s drawn", cls);
    const char *t = strstr(p, "</title>");
    cr_assert_not_null(t);
    *len = (size_t)(t - p);
    return p;
}

Test(board_svg, key_lists_the_expansions_of_the_game)
{
    static const uint8_t sets[4] = {0, CC_EXP_INNS, CC_EXP_TRADERS, CC_EXP_INNS | CC_EXP_TRADERS};
    for (unsigned e = 0; e < 4; e++) {
        static struct cc_game g;
        struct cc_setup setup =
            randplay_setup(CC_RULESET_CLASSIC, 3, (struct cc_options){.expansions = sets[e]}, 9);
        cr_assert_eq(cc_game_new(&g, &setup, NULL), CC_OK);
        char *svg = render_checked(&g, plain_names, "a new game");
        const char *key = strstr(svg, "<g class=\"key expansions\">");
        if (sets[e] == 0) {
            cr_assert_null(key, "no key line of the expansions without one");
            free(svg);
            continue;
        }
        cr_assert_not_null(key);
        const char *key_end = strchr(key, '\n'); /* the legend's end (no tile to place) */
        cr_assert_not_null(key_end);
        bool inns = sets[e] & CC_EXP_INNS, traders = sets[e] & CC_EXP_TRADERS;
        static const struct {
            const char *mark, *label;
            bool traders; /* else inns */
        } items[] = {{"class=\"inn\"", ">inn</text>", false},
                     {"class=\"cathedral\"", ">cathedral</text>", false},
                     {"class=\"swatch large\"", ">large follower</text>", false},
                     {"class=\"goods wine\"", ">wine</text>", true},
                     {"class=\"goods grain\"", ">grain</text>", true},
                     {"class=\"goods cloth\"", ">cloth</text>", true},
                     {"class=\"swatch builder\"", ">builder</text>", true},
                     {"class=\"swatch pig\"", ">pig</text>", true}};
        for (size_t i = 0; i < sizeof items / sizeof items[0]; i++) {
            size_t want = (items[i].traders ? traders : inns) ? 1 : 0;
            cr_assert_eq(count_in(key, key_end, items[i].mark), want, "expansions %u: %s", sets[e],
                         items[i].mark);
            cr_assert_eq(count_in(key, key_end, items[i].label), want, "expansions %u: %s", sets[e],
                         items[i].label);
        }
        /* Each seat's supply: 1 of each figure of the game's expansions, no goods yet. */
        cr_assert_eq(count(svg, ", 1 large follower"), inns ? g.nplayers : 0);
        cr_assert_eq(count(svg, ", 1 builder, 1 pig"), traders ? g.nplayers : 0);
        cr_assert_null(strstr(svg, "goods:"));
        if (inns && traders) {
            /* Four shapes: the large follower is the follower's outline half as large
             * again; the builder and the pig are not the follower's outline at all. */
            size_t n;
            const char *f = element(svg, "class=\"swatch follower\"", &n);
            const char *d = strstr(f, " d=\"");
            cr_assert(d && d < f + n);
            const char *d_end = strchr(d + 4, '"');
            char outline[160];
            size_t dn = (size_t)(d_end - d) + 1;
            cr_assert_lt(dn, sizeof outline);
            memcpy(outline, d, dn);
            outline[dn] = '\0';
            const char *l = element(key, "class=\"swatch large\"", &n);
            char large[512];
            cr_assert_lt(n, sizeof large);
            memcpy(large, l, n);
            large[n] = '\0';
            cr_assert(strstr(large, outline), "the large follower has the follower's outline");
            const char *sc = strstr(large, "scale(");
            double scale = 0;
            cr_assert(sc && sscanf(sc, "scale(%lf", &scale) == 1 && scale >= 1.4,
                      "the large follower is drawn larger: %s", large);
            static const char *const others[] = {"class=\"swatch builder\"",
                                                 "class=\"swatch pig\""};
            for (size_t i = 0; i < 2; i++) {
                const char *o = element(key, others[i], &n);
                char buf[1024];
                cr_assert_lt(n, sizeof buf);
                memcpy(buf, o, n);
                buf[n] = '\0';
                cr_assert_null(strstr(buf, outline), "%s is not a follower's shape", others[i]);
            }
        }
        free(svg);
    }
}
