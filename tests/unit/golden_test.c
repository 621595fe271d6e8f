/* golden_test.c: runs every tests/golden/<ruleset>/<name>.case (format: tests/golden/FORMAT.md). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "options.h"
#include "testutil.h"

#define MAX_CASES  512
#define MAX_LINE   4096
#define MAX_TOKENS 256

struct golden_param {
    char path[256]; /* the case file, from the top folder */
};

static int by_path(const void *a, const void *b)
{
    return strcmp(((const struct golden_param *)a)->path, ((const struct golden_param *)b)->path);
}

ParameterizedTestParameters(golden, cases)
{
    static const char *const dirs[] = {"tests/golden/classic", "tests/golden/hills",
                                       "tests/golden/discovery"};
    struct golden_param *params = cr_malloc(sizeof *params * MAX_CASES);
    size_t n = 0;
    for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
        DIR *dir = opendir(dirs[d]);
        if (!dir) continue;
        struct dirent *e;
        while ((e = readdir(dir)) && n < MAX_CASES) {
            size_t len = strlen(e->d_name);
            if (len < 6 || strcmp(e->d_name + len - 5, ".case") != 0) continue;
            snprintf(params[n].path, sizeof params[n].path, "%s/%s", dirs[d], e->d_name);
            n++;
        }
        closedir(dir);
    }
    qsort(params, n, sizeof *params, by_path);
    return cr_make_param_array(struct golden_param, params, n, tu_free_params);
}

/* One case being run. */
struct golden {
    const char *path;      /* for messages */
    int line;              /* current line */
    struct cc_setup setup; /* header */
    bool started;          /* game created */
    struct cc_game game;   /* the game */
    const struct cc_tileset *ts;
};

#define FAIL(gd, ...) cr_assert_fail("%s:%d: %s", (gd)->path, (gd)->line, tu_format(__VA_ARGS__))

static int tile_id(struct golden *gd, const char *id)
{
    int t = cc_tileset_find(gd->ts, id);
    if (t < 0) FAIL(gd, "unknown tile %s", id);
    return t;
}

static int parse_int(struct golden *gd, const char *s)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || end == s || v < -100000 || v > 100000) FAIL(gd, "not a number: %s", s);
    return (int)v;
}

static int parse_loc(struct golden *gd, const char *s)
{
    int loc = cc_location_parse(s);
    if (loc < 0) FAIL(gd, "not a location: %s", s);
    return loc;
}

static int parse_side(struct golden *gd, const char *s)
{
    static const char *const sides[4] = {"N", "E", "S", "W"};
    for (int i = 0; i < 4; i++)
        if (strcmp(s, sides[i]) == 0) return i;
    FAIL(gd, "not a side: %s", s);
    return -1;
}

/* "option NAME VALUE" for an option of the table (core/options.c) the lines above do not
 * name: a choice by its value's name, a set as a comma-separated list of members. */
static void set_option(struct golden *gd, const char *name, char *value)
{
    for (int i = 0; i < CC_OPT_COUNT; i++) {
        const struct cc_option_def *d = cc_option_def((enum cc_option_id)i);
        if (strcmp(d->name, name) != 0) continue;
        unsigned v = 0;
        for (char *save = NULL, *m = strtok_r(value, ",", &save); m;
             m = strtok_r(NULL, ",", &save)) {
            unsigned k = 0;
            while (k < d->nvalues && (!d->values[k] || strcmp(d->values[k], m) != 0)) k++;
            if (k == d->nvalues) FAIL(gd, "option %s has no value %s", name, m);
            v = d->kind == CC_OPTION_SET ? v | 1u << k : k;
        }
        cc_option_set(&gd->setup.options, (enum cc_option_id)i, v);
        return;
    }
    FAIL(gd, "unknown option %s", name);
}

static void start_game(struct golden *gd)
{
    if (gd->started) return;
    if (gd->setup.deck_len < 0) FAIL(gd, "a case needs a deck");
    struct cc_events ev;
    ev.n = 0;
    enum cc_status st = cc_game_new(&gd->game, &gd->setup, &ev);
    if (st != CC_OK) FAIL(gd, "cannot create the game: %s", cc_status_name(st));
    gd->started = true;
    tu_check(&gd->game);
}

/* The follow-ups a placement line may name: "WORD [FX FY] LOC", LOC read by `loc`. */
static const struct {
    const char *word;                             /* as in the case file */
    uint8_t follow;                               /* enum cc_follow */
    bool at;                                      /* FX FY (a piece's tile) come first */
    int (*loc)(struct golden *gd, const char *s); /* how LOC is read */
} followups[] = {
    {"follower", CC_FOLLOW_FOLLOWER, false, parse_loc},
    {"stable", CC_FOLLOW_STABLE, false, parse_loc},
    {"hike", CC_FOLLOW_HIKE, true, parse_side},
    {"withdraw", CC_FOLLOW_WITHDRAW, true, parse_loc},
    /* The figures of the expansions of classic: a deployment that names its figure. */
    {"large", CC_FOLLOW_FOLLOWER, false, parse_loc},
    {"builder", CC_FOLLOW_FOLLOWER, false, parse_loc},
    {"pig", CC_FOLLOW_FOLLOWER, false, parse_loc},
};

/* The figure names of the case files, by enum cc_piece_kind. */
static const char *const figure_names[CC_PIECE_KIND_COUNT] = {"follower", "stable", "large",
                                                              "builder", "pig"};

static int parse_figure(struct golden *gd, const char *s)
{
    for (int k = 0; k < CC_PIECE_KIND_COUNT; k++)
        if (strcmp(s, figure_names[k]) == 0) return k;
    FAIL(gd, "not a figure: %s", s);
    return -1;
}

/* Parses "X Y ROT [followup...]" from tok[0..n) into a place action. */
static void parse_place(struct golden *gd, char **tok, int n, struct cc_action *a)
{
    if (n < 3) FAIL(gd, "place needs X Y ROT");
    memset(a, 0, sizeof *a);
    a->kind = CC_ACTION_PLACE;
    a->seat = gd->game.seat;
    a->x = (int16_t)parse_int(gd, tok[0]);
    a->y = (int16_t)parse_int(gd, tok[1]);
    int deg = parse_int(gd, tok[2]);
    if (deg % 90 != 0 || deg < 0 || deg > 270) FAIL(gd, "rotation %d", deg);
    a->rot = (uint8_t)(deg / 90);
    a->tile = CC_NO_TILE;
    a->follow = CC_FOLLOW_NONE;
    for (int i = 3; i < n; i++) {
        size_t f = 0;
        while (f < sizeof followups / sizeof followups[0] && strcmp(tok[i], followups[f].word)) f++;
        if (f < sizeof followups / sizeof followups[0] && i + (followups[f].at ? 3 : 1) < n) {
            a->follow = followups[f].follow;
            if (followups[f].follow == CC_FOLLOW_FOLLOWER)
                a->figure = (uint8_t)parse_figure(gd, tok[i]);
            if (followups[f].at) {
                a->fx = (int16_t)parse_int(gd, tok[++i]);
                a->fy = (int16_t)parse_int(gd, tok[++i]);
            }
            a->loc = (uint8_t)followups[f].loc(gd, tok[++i]);
        } else if (strcmp(tok[i], "tile") == 0 && i + 1 < n) {
            a->tile = (uint8_t)tile_id(gd, tok[++i]);
        } else if (cc_location_parse(tok[i]) >= 0) {
            a->follow = CC_FOLLOW_FOLLOWER;
            a->loc = (uint8_t)cc_location_parse(tok[i]);
        } else {
            FAIL(gd, "unexpected '%s' in a placement", tok[i]);
        }
    }
}

static void apply_ok(struct golden *gd, const struct cc_action *a)
{
    struct cc_events *ev = malloc(sizeof *ev);
    ev->n = 0;
    enum cc_status st = cc_game_apply(&gd->game, a, ev);
    free(ev);
    if (st != CC_OK) FAIL(gd, "refused: %s", cc_status_name(st));
    tu_check(&gd->game);
}

static void draw_if_needed(struct golden *gd)
{
    if (gd->game.phase != CC_PHASE_DRAW) return;
    struct cc_action a = {.kind = CC_ACTION_DRAW, .seat = gd->game.seat};
    apply_ok(gd, &a);
    if (gd->game.phase != CC_PHASE_PLACE) FAIL(gd, "no tile could be drawn: game over");
}

static int column_of(struct golden *gd, const char *name)
{
    for (int c = 0; c < CC_COL_COUNT; c++)
        if (strcmp(name, cc_column_name((enum cc_column)c)) == 0) return c;
    FAIL(gd, "unknown column %s", name);
    return -1;
}

static void check_score(struct golden *gd, const struct cc_player *players, char **tok, int n)
{
    if (n < 2) FAIL(gd, "score needs SEAT TOTAL");
    int seat = parse_int(gd, tok[0]);
    if (seat < 0 || seat >= gd->game.nplayers) FAIL(gd, "no seat %d", seat);
    int total = parse_int(gd, tok[1]);
    const struct cc_player *p = &players[seat];
    if (p->score != total) FAIL(gd, "seat %d has %d points, expected %d", seat, p->score, total);
    for (int i = 2; i < n; i++) {
        char name[32];
        char *eq = strchr(tok[i], '=');
        if (!eq || (size_t)(eq - tok[i]) >= sizeof name) FAIL(gd, "bad column check %s", tok[i]);
        memcpy(name, tok[i], (size_t)(eq - tok[i]));
        name[eq - tok[i]] = 0;
        int c = column_of(gd, name);
        int want = parse_int(gd, eq + 1);
        if (p->columns[c] != want)
            FAIL(gd, "seat %d has %d in %s, expected %d", seat, p->columns[c], name, want);
    }
}

/* "followers X Y ROT LOC..." (kind: follower) or "can FIGURE X Y ROT LOC...". */
static void check_followers(struct golden *gd, char **tok, int n, int kind)
{
    draw_if_needed(gd);
    struct cc_action a;
    parse_place(gd, tok, 3, &a);
    static struct cc_placement list[CC_MAX_PLACEMENTS];
    size_t np = cc_legal_placements(&gd->game, list, CC_MAX_PLACEMENTS, true);
    for (size_t i = 0; i < np; i++) {
        if (list[i].x != a.x || list[i].y != a.y || list[i].rot != a.rot) continue;
        unsigned want = 0;
        for (int k = 3; k < n; k++)
            if (strcmp(tok[k], "-") != 0) want |= 1u << parse_loc(gd, tok[k]);
        if (cc_placement_locations(&list[i], (unsigned)kind) != want)
            FAIL(gd, "%s locations %s, expected %s", figure_names[kind],
                 tu_locations(cc_placement_locations(&list[i], (unsigned)kind)),
                 tu_locations(want));
        return;
    }
    FAIL(gd, "placement %s %s %s is not legal", tok[0], tok[1], tok[2]);
}

static void run_line(struct golden *gd, char **tok, int n)
{
    const char *cmd = tok[0];
    if (strcmp(cmd, "ruleset") == 0 && n == 2 && !gd->started) {
        int r = cc_ruleset_parse(tok[1]);
        if (r < 0 || !cc_tileset_get((enum cc_ruleset)r)) FAIL(gd, "no ruleset %s", tok[1]);
        gd->setup.ruleset = (uint8_t)r;
        gd->ts = cc_tileset_get((enum cc_ruleset)r);
    } else if (strcmp(cmd, "players") == 0 && n == 2 && !gd->started) {
        gd->setup.nplayers = (uint8_t)parse_int(gd, tok[1]);
    } else if (strcmp(cmd, "option") == 0 && n == 3 && !gd->started) {
        if (strcmp(tok[1], "edition") == 0)
            gd->setup.options.edition =
                strcmp(tok[2], "original") == 0 ? CC_EDITION_ORIGINAL : CC_EDITION_STANDARD;
        else if (strcmp(tok[1], "river") == 0)
            gd->setup.options.river = strcmp(tok[2], "on") == 0 || strcmp(tok[2], "true") == 0;
        else if (strcmp(tok[1], "draw") == 0)
            gd->setup.options.draw = strcmp(tok[2], "hand") == 0 ? CC_DRAW_HAND : CC_DRAW_PILE;
        else
            set_option(gd, tok[1], tok[2]);
    } else if (strcmp(cmd, "start") == 0 && n == 2 && !gd->started) {
        gd->setup.start = (int16_t)tile_id(gd, tok[1]);
    } else if (strcmp(cmd, "deck") == 0 && !gd->started) {
        if (gd->setup.deck_len < 0) gd->setup.deck_len = 0;
        for (int i = 1; i < n; i++) {
            if (gd->setup.deck_len >= CC_MAX_DECK) FAIL(gd, "deck too long");
            gd->setup.deck[gd->setup.deck_len++] = (uint8_t)tile_id(gd, tok[i]);
        }
    } else {
        start_game(gd);
        if (strcmp(cmd, "draw") == 0) {
            struct cc_action a = {.kind = CC_ACTION_DRAW, .seat = gd->game.seat};
            apply_ok(gd, &a);
        } else if (strcmp(cmd, "place") == 0) {
            draw_if_needed(gd);
            struct cc_action a;
            parse_place(gd, tok + 1, n - 1, &a);
            apply_ok(gd, &a);
        } else if (strcmp(cmd, "reject") == 0) {
            if (n < 6 || strcmp(tok[n - 2], "->") != 0) FAIL(gd, "reject ... -> CODE");
            draw_if_needed(gd);
            struct cc_action a;
            parse_place(gd, tok + 1, n - 3, &a);
            static struct cc_game before;
            before = gd->game;
            struct cc_events *ev = malloc(sizeof *ev);
            ev->n = 0;
            enum cc_status st = cc_game_apply(&gd->game, &a, ev);
            size_t nev = ev->n;
            free(ev);
            if (strcmp(cc_status_name(st), tok[n - 1]) != 0)
                FAIL(gd, "answered %s, expected %s", cc_status_name(st), tok[n - 1]);
            if (memcmp(&before, &gd->game, sizeof before) != 0 || nev != 0)
                FAIL(gd, "a refused action changed the game");
        } else if (strcmp(cmd, "score") == 0) {
            check_score(gd, gd->game.players, tok + 1, n - 1);
        } else if (strcmp(cmd, "projected") == 0) {
            struct cc_player proj[CC_MAX_PLAYERS];
            cc_projected_scores(&gd->game, proj);
            check_score(gd, proj, tok + 1, n - 1);
        } else if (strcmp(cmd, "placements") == 0 && n == 2) {
            draw_if_needed(gd);
            size_t np = cc_legal_placements(&gd->game, NULL, 0, false);
            if ((int)np != parse_int(gd, tok[1]))
                FAIL(gd, "%zu placements, expected %s", np, tok[1]);
        } else if (strcmp(cmd, "followers") == 0 && n >= 5) {
            check_followers(gd, tok + 1, n - 1, CC_PIECE_FOLLOWER);
        } else if (strcmp(cmd, "can") == 0 && n >= 6) {
            check_followers(gd, tok + 2, n - 2, parse_figure(gd, tok[1]));
        } else if (strcmp(cmd, "holds") == 0 && n == 4) {
            int seat = parse_int(gd, tok[1]), kind = parse_figure(gd, tok[2]);
            if (seat < 0 || seat >= gd->game.nplayers) FAIL(gd, "no seat %d", seat);
            unsigned have = cc_supply_count(&gd->game.players[seat], (enum cc_piece_kind)kind);
            if ((int)have != parse_int(gd, tok[3]))
                FAIL(gd, "seat %d holds %u %s, expected %s", seat, have, tok[2], tok[3]);
        } else if (strcmp(cmd, "goods") == 0 && n == 5) {
            int seat = parse_int(gd, tok[1]);
            if (seat < 0 || seat >= gd->game.nplayers) FAIL(gd, "no seat %d", seat);
            const uint8_t *g = gd->game.players[seat].goods;
            for (int k = 0; k < CC_GOODS_COUNT; k++)
                if (g[k] != parse_int(gd, tok[2 + k]))
                    FAIL(gd, "seat %d holds %d %s, expected %s", seat, g[k],
                         cc_goods_name((enum cc_goods)k), tok[2 + k]);
        } else if (strcmp(cmd, "tomove") == 0 && n == 2) {
            if (gd->game.seat != parse_int(gd, tok[1]))
                FAIL(gd, "seat %d is to move, expected %s", gd->game.seat, tok[1]);
        } else if (strcmp(cmd, "discarded") == 0) {
            int want = (n == 2 && strcmp(tok[1], "-") == 0) ? 0 : n - 1;
            if (gd->game.ndiscarded != want)
                FAIL(gd, "%d tiles set aside, expected %d", gd->game.ndiscarded, want);
            for (int i = 0; i < want; i++)
                if (gd->game.discarded[i] != tile_id(gd, tok[i + 1]))
                    FAIL(gd, "set aside #%d is %s, expected %s", i,
                         gd->ts->types[gd->game.discarded[i]].id, tok[i + 1]);
        } else if (strcmp(cmd, "supply") == 0 && n == 3) {
            int seat = parse_int(gd, tok[1]);
            if (seat < 0 || seat >= gd->game.nplayers) FAIL(gd, "no seat %d", seat);
            if (gd->game.players[seat].followers != parse_int(gd, tok[2]))
                FAIL(gd, "seat %d has %d followers, expected %s", seat,
                     gd->game.players[seat].followers, tok[2]);
        } else if (strcmp(cmd, "finished") == 0 && n == 1) {
            if (gd->game.phase != CC_PHASE_FINISHED) FAIL(gd, "the game is not finished");
        } else if (strcmp(cmd, "active") == 0 && n == 1) {
            if (gd->game.phase == CC_PHASE_FINISHED) FAIL(gd, "the game is finished");
        } else {
            FAIL(gd, "unknown or malformed command '%s'", cmd);
        }
    }
}

ParameterizedTest(struct golden_param *param, golden, cases)
{
    static struct golden gd;
    memset(&gd, 0, sizeof gd);
    gd.path = param->path;
    gd.setup.deck_len = -1;
    gd.setup.start = -1;
    gd.setup.ruleset = CC_RULESET_CLASSIC;
    gd.setup.nplayers = 2;
    gd.ts = cc_tileset_get(CC_RULESET_CLASSIC);
    FILE *f = fopen(param->path, "r");
    cr_assert(f != NULL, "cannot open %s", param->path);
    char buf[MAX_LINE];
    int commands = 0;
    while (fgets(buf, sizeof buf, f)) {
        gd.line++;
        char *hash = strchr(buf, '#');
        if (hash) *hash = 0;
        char *tok[MAX_TOKENS];
        int n = 0;
        for (char *save = NULL, *t = strtok_r(buf, " \t\r\n", &save); t && n < MAX_TOKENS;
             t = strtok_r(NULL, " \t\r\n", &save))
            tok[n++] = t;
        if (n == 0) continue;
        run_line(&gd, tok, n);
        commands++;
    }
    fclose(f);
    cr_assert(commands > 0 && gd.started, "%s: no actions", param->path);
}
