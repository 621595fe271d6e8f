/* snapshot.c: a game encoded compactly (versioned), and decoded with every check. */
#include <string.h>

#include "board.h"
#include "game.h"
#include "modules.h"
#include "rules.h"

/* A bounded writer: once it overflows it stays failed. */
struct writer {
    uint8_t *p;  /* buffer */
    size_t cap;  /* its size */
    size_t n;    /* bytes written */
    bool failed; /* something did not fit */
};

static void put(struct writer *w, const void *src, size_t n)
{
    if (w->failed || n > w->cap - w->n) {
        w->failed = true;
        return;
    }
    memcpy(w->p + w->n, src, n);
    w->n += n;
}

static void put8(struct writer *w, unsigned v)
{
    uint8_t b = (uint8_t)v;
    put(w, &b, 1);
}

static void put16(struct writer *w, unsigned v)
{
    uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    put(w, b, 2);
}

static void put64(struct writer *w, uint64_t v)
{
    for (int i = 0; i < 8; i++) put8(w, (unsigned)(v >> (8 * i)) & 0xFF);
}

/* A bounded reader: reads past the end fail and yield zeros. */
struct reader {
    const uint8_t *p; /* buffer */
    size_t len;       /* its length */
    size_t n;         /* bytes read */
    bool failed;      /* a read went past the end */
};

static void get(struct reader *r, void *dst, size_t n)
{
    if (r->failed || n > r->len - r->n) {
        r->failed = true;
        memset(dst, 0, n);
        return;
    }
    memcpy(dst, r->p + r->n, n);
    r->n += n;
}

static unsigned get8(struct reader *r)
{
    uint8_t b;
    get(r, &b, 1);
    return b;
}

static unsigned get16(struct reader *r)
{
    uint8_t b[2];
    get(r, b, 2);
    return (unsigned)b[0] | (unsigned)b[1] << 8;
}

static uint64_t get64(struct reader *r)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)get8(r) << (8 * i);
    return v;
}

static const uint8_t magic[2] = {'T', 'H'};

/* Version 1 (before the expansions of classic): no expansion options, no extra turn, twelve
 * columns, no large followers, builders, pigs or goods. It still decodes, and a game without
 * an expansion (where all of these are zero) is still written in it: the snapshots of such
 * games stay what they were, byte for byte. */
#define V1_COLUMNS 12
_Static_assert(CC_COL_GOODS == V1_COLUMNS, "version 1 columns are the first twelve");

size_t cc_game_encode(const struct cc_game *g, uint8_t *buf, size_t cap)
{
    struct writer w = {buf, cap, 0, false};
    bool v1 = g->options.expansions == 0;
    put(&w, magic, 2);
    put8(&w, v1 ? 1 : CC_SNAPSHOT_VERSION);
    put8(&w, g->ruleset);
    put8(&w, g->nplayers);
    put8(&w, g->options.edition);
    put8(&w, g->options.river);
    put8(&w, g->options.draw);
    if (!v1) {
        put8(&w, g->options.expansions);
        put8(&w, g->options.inn_final);
    }
    put8(&w, g->phase);
    put8(&w, g->seat);
    put8(&w, g->drawn);
    put8(&w, g->river_open_side);
    put8(&w, g->river_last_turn);
    put8(&w, g->river_tile);
    if (!v1) put8(&w, g->extra_turn);
    put16(&w, g->turn);
    put64(&w, g->seed);
    put16(&w, (uint16_t)g->start);
    put8(&w, (unsigned)g->custom_deck);
    put16(&w, g->deck_len);
    put16(&w, g->deck_pos);
    put(&w, g->deck, g->deck_len);
    put16(&w, g->nremoved);
    put(&w, g->removed, g->nremoved);
    put16(&w, g->ndiscarded);
    put(&w, g->discarded, g->ndiscarded);
    for (unsigned s = 0; s < g->nplayers; s++) {
        const struct cc_player *p = &g->players[s];
        put16(&w, (uint16_t)p->score);
        for (int c = 0; c < (v1 ? V1_COLUMNS : CC_COL_COUNT); c++)
            put16(&w, (uint16_t)p->columns[c]);
        put8(&w, p->followers);
        put8(&w, p->stables);
        put(&w, p->harvest, CC_CROP_COUNT);
        put(&w, p->hand, CC_HAND_SIZE);
        if (v1) continue;
        put8(&w, p->large);
        put8(&w, p->builders);
        put8(&w, p->pigs);
        put(&w, p->goods, CC_GOODS_COUNT);
    }
    put(&w, g->harvest_supply, CC_CROP_COUNT);
    put16(&w, g->nboard);
    for (unsigned i = 0; i < g->nboard; i++) {
        put16(&w, (uint16_t)g->board[i].x);
        put16(&w, (uint16_t)g->board[i].y);
        put8(&w, g->board[i].type);
        put8(&w, g->board[i].rot);
    }
    unsigned npieces = 0;
    for (int i = 0; i < CC_MAX_PIECES; i++) npieces += g->pieces[i].used;
    put8(&w, npieces);
    for (int i = 0; i < CC_MAX_PIECES; i++) {
        const struct cc_piece *pc = &g->pieces[i];
        if (!pc->used) continue;
        put8(&w, (unsigned)i);
        put8(&w, pc->seat);
        put8(&w, pc->kind);
        put8(&w, pc->tile);
        put8(&w, pc->loc);
        put8(&w, pc->feature);
    }
    /* Resignations (resign.c): a trailing byte, only when some seat resigned, so that every
     * other game encodes as before and snapshots from before resignations decode. */
    if (g->resigned) put8(&w, g->resigned);
    return w.failed ? 0 : w.n;
}

enum cc_status cc_game_decode(struct cc_game *g, const uint8_t *buf, size_t len)
{
    struct reader r = {buf, len, 0, false};
    uint8_t m[2];
    get(&r, m, 2);
    unsigned version = get8(&r);
    if (r.failed || memcmp(m, magic, 2) != 0 || version < 1 || version > CC_SNAPSHOT_VERSION)
        return CC_ERR_CORRUPT;
    bool v1 = version == 1;
    memset(g, 0, sizeof *g);
    g->ruleset = (uint8_t)get8(&r);
    const struct cc_tileset *ts = cc_tileset_get((enum cc_ruleset)g->ruleset);
    if (!ts || !cc_rules_of((enum cc_ruleset)g->ruleset)) return CC_ERR_CORRUPT;
    g->nplayers = (uint8_t)get8(&r);
    if (g->nplayers < CC_MIN_PLAYERS || g->nplayers > (v1 ? CC_BASE_MAX_PLAYERS : CC_MAX_PLAYERS))
        return CC_ERR_CORRUPT;
    g->options.edition = (uint8_t)get8(&r);
    g->options.river = (uint8_t)get8(&r);
    g->options.draw = (uint8_t)get8(&r);
    if (!v1) {
        g->options.expansions = (uint8_t)get8(&r);
        g->options.inn_final = (uint8_t)get8(&r);
        /* A game without an expansion is written in version 1: one encoding per game. */
        if (g->options.expansions == 0) return CC_ERR_CORRUPT;
    }
    cc_modules_switch_on(g);
    g->phase = (uint8_t)get8(&r);
    g->seat = (uint8_t)get8(&r);
    g->drawn = (uint8_t)get8(&r);
    g->river_open_side = (uint8_t)get8(&r);
    g->river_last_turn = (uint8_t)get8(&r);
    g->river_tile = (uint8_t)get8(&r);
    if (!v1) g->extra_turn = (uint8_t)get8(&r);
    g->turn = (uint16_t)get16(&r);
    g->seed = get64(&r);
    g->start = (int16_t)(uint16_t)get16(&r);
    g->custom_deck = (int16_t)get8(&r);
    g->deck_len = (uint16_t)get16(&r);
    g->deck_pos = (uint16_t)get16(&r);
    if (g->deck_len > CC_MAX_DECK) return CC_ERR_CORRUPT;
    get(&r, g->deck, g->deck_len);
    g->nremoved = (uint16_t)get16(&r);
    if (g->nremoved > CC_MAX_DECK) return CC_ERR_CORRUPT;
    get(&r, g->removed, g->nremoved);
    g->ndiscarded = (uint16_t)get16(&r);
    if (g->ndiscarded > CC_MAX_DECK) return CC_ERR_CORRUPT;
    get(&r, g->discarded, g->ndiscarded);
    for (unsigned s = 0; s < g->nplayers; s++) {
        struct cc_player *p = &g->players[s];
        p->score = (int16_t)(uint16_t)get16(&r);
        for (int c = 0; c < (v1 ? V1_COLUMNS : CC_COL_COUNT); c++)
            p->columns[c] = (int16_t)(uint16_t)get16(&r);
        p->followers = (uint8_t)get8(&r);
        p->stables = (uint8_t)get8(&r);
        get(&r, p->harvest, CC_CROP_COUNT);
        get(&r, p->hand, CC_HAND_SIZE);
        if (v1) continue;
        p->large = (uint8_t)get8(&r);
        p->builders = (uint8_t)get8(&r);
        p->pigs = (uint8_t)get8(&r);
        get(&r, p->goods, CC_GOODS_COUNT);
    }
    get(&r, g->harvest_supply, CC_CROP_COUNT);
    g->nboard = (uint16_t)get16(&r);
    if (g->nboard == 0 || g->nboard > CC_MAX_BOARD) return CC_ERR_CORRUPT;
    for (unsigned i = 0; i < g->nboard; i++) {
        g->board[i].x = (int16_t)(uint16_t)get16(&r);
        g->board[i].y = (int16_t)(uint16_t)get16(&r);
        g->board[i].type = (uint8_t)get8(&r);
        g->board[i].rot = (uint8_t)get8(&r);
    }
    unsigned npieces = get8(&r);
    if (npieces > CC_MAX_PIECES) return CC_ERR_CORRUPT;
    int last = -1;
    for (unsigned k = 0; k < npieces; k++) {
        int i = (int)get8(&r);
        if (i <= last || i >= CC_MAX_PIECES) return CC_ERR_CORRUPT;
        last = i;
        struct cc_piece *pc = &g->pieces[i];
        pc->used = 1;
        g->pieces_used |= 1ull << i;
        pc->seat = (uint8_t)get8(&r);
        pc->kind = (uint8_t)get8(&r);
        pc->tile = (uint8_t)get8(&r);
        pc->loc = (uint8_t)get8(&r);
        pc->feature = (uint8_t)get8(&r);
    }
    if (!r.failed && r.n < len) {
        /* The resigned seats (written only when there are any: never 0). */
        g->resigned = (uint8_t)get8(&r);
        if (g->resigned == 0) return CC_ERR_CORRUPT;
    }
    if (r.failed || r.n != len) return CC_ERR_CORRUPT;
    if (!cc_board_rebuild(g)) return CC_ERR_CORRUPT;
    return cc_game_check(g);
}
