/* bot.c: computer players: random and greedy moves over what the seat to move knows. */
#include <string.h>

#include "bot.h"
#include "hand.h"
#include "rng.h"

/* One follow-up choice of a placement: the fields of struct cc_action it sets. */
struct followup {
    uint8_t follow; /* enum cc_followup */
    uint8_t loc;    /* as in struct cc_action */
    int16_t fx, fy; /* hike/withdraw: the square of the piece */
};

/* Sorts the pile's tiles deck[a..b) by type (a counting sort). */
static void sort_pile(uint8_t *deck, unsigned a, unsigned b)
{
    unsigned count[CC_MAX_TILE_TYPES] = {0};
    for (unsigned i = a; i < b; i++) count[deck[i]]++;
    for (unsigned t = 0; t < CC_MAX_TILE_TYPES; t++)
        for (unsigned n = 0; n < count[t]; n++) deck[a++] = (uint8_t)t;
}

/* What a player knows of where a pile tile comes: River tiles with two river sides before
 * the one with one (the lake), before land tiles; the order within each class is unknown. */
static unsigned pile_class(const struct cc_tile_type *t)
{
    if (!t->is_river) return 2;
    unsigned rivers = 0;
    for (unsigned s = 0; s < 4; s++) rivers += t->edges[s] == CC_EDGE_RIVER;
    return rivers == 1;
}

/*
 * Puts every tile the seat to move cannot see in a canonical order, so that any two
 * positions differing only in hidden information become alike. Without hands: each run of
 * tiles of one class (pile_class) in the rest of the pile is sorted by type. In the hand
 * variant: the rest of the pile and the other seats' hands (which keep their sizes) are
 * pooled, sorted by type and dealt back, other hands first in seat order, then the pile;
 * the drawn part of the pile after the tiles removed face up is rewritten, sorted, to match
 * (so the copy still passes cc_game_check()). The seed (which fixes the shuffle) is cleared.
 */
static void canonicalize(struct cc_game *r)
{
    r->seed = 0;
    if (!cc_hand_mode(r)) {
        const struct cc_tile_type *types = cc_tileset_get((enum cc_ruleset)r->ruleset)->types;
        unsigned a = r->deck_pos;
        while (a < r->deck_len) {
            unsigned cls = pile_class(&types[r->deck[a]]), b = a + 1;
            while (b < r->deck_len && pile_class(&types[r->deck[b]]) == cls) b++;
            sort_pile(r->deck, a, b);
            a = b;
        }
        return;
    }
    int pool[CC_MAX_TILE_TYPES] = {0}, drawn[CC_MAX_TILE_TYPES] = {0};
    for (unsigned i = r->deck_pos; i < r->deck_len; i++) pool[r->deck[i]]++;
    for (unsigned i = r->nremoved; i < r->deck_pos; i++) drawn[r->deck[i]]++;
    for (unsigned s = 0; s < r->nplayers; s++) {
        for (unsigned k = 0; s != r->seat && k < CC_HAND_SIZE; k++) {
            uint8_t t = r->players[s].hand[k];
            if (t == CC_NO_TILE) continue;
            pool[t]++;
            drawn[t]--;
        }
    }
    unsigned type = 0;
    for (unsigned s = 0; s < r->nplayers; s++) {
        for (unsigned k = 0; s != r->seat && k < CC_HAND_SIZE; k++) {
            if (r->players[s].hand[k] == CC_NO_TILE) continue;
            while (pool[type] == 0) type++;
            pool[type]--;
            drawn[type]++;
            r->players[s].hand[k] = (uint8_t)type;
        }
    }
    unsigned i = r->nremoved;
    for (unsigned t = 0; t < CC_MAX_TILE_TYPES; t++)
        for (int n = 0; n < drawn[t]; n++) r->deck[i++] = (uint8_t)t;
    for (unsigned t = 0; t < CC_MAX_TILE_TYPES; t++)
        for (int n = 0; n < pool[t]; n++) r->deck[i++] = (uint8_t)t;
}

/* Adds to `out` one choice of `follow` per distinct feature among the locations in `mask`
 * (its first location) of tile type `t` turned `rot`; returns the new count. */
static unsigned per_feature(const struct cc_tile_type *t, unsigned rot, unsigned mask,
                            uint8_t follow, struct followup *out, unsigned n)
{
    unsigned seen = 0; /* features already listed */
    for (unsigned loc = 0; loc < CC_LOC_COUNT; loc++) {
        if (!(mask & (1u << loc))) continue;
        unsigned f = t->slot_feature[rot][loc];
        if (f == CC_NO_FEATURE || (seen & (1u << f))) continue;
        seen |= 1u << f;
        out[n++] = (struct followup){.follow = follow, .loc = (uint8_t)loc};
    }
    return n;
}

/* The follow-up choices of placement `p` (masks filled) of the seat to move, in the order
 * of enum cc_bot_level's comment; returns how many (at least 1: none). */
static unsigned followups(const struct cc_game *g, const struct cc_placement *p,
                          struct followup out[CC_BOT_MAX_FOLLOWUPS])
{
    const struct cc_tile_type *t = &cc_tileset_get((enum cc_ruleset)g->ruleset)->types[p->tile];
    unsigned n = 0;
    out[n++] = (struct followup){.follow = CC_FOLLOW_NONE};
    n = per_feature(t, p->rot, p->follower, CC_FOLLOW_FOLLOWER, out, n);
    n = per_feature(t, p->rot, p->stable, CC_FOLLOW_STABLE, out, n);
    for (unsigned k = 0; p->hike >> (4 * k); k++) {
        int16_t x, y;
        if (!cc_hike_origin(g, k, &x, &y)) break;
        for (unsigned side = 0; side < 4; side++)
            if (p->hike & (1u << (4 * k + side)))
                out[n++] = (struct followup){
                    .follow = CC_FOLLOW_HIKE, .loc = (uint8_t)side, .fx = x, .fy = y};
    }
    if (g->ruleset == CC_RULESET_DISCOVERY) {
        for (unsigned i = 0; i < CC_MAX_PIECES; i++) {
            const struct cc_piece *pc = &g->pieces[i];
            if (!pc->used || pc->seat != g->seat || pc->kind != CC_PIECE_FOLLOWER) continue;
            const struct cc_placed *on = &g->board[pc->tile];
            out[n++] = (struct followup){
                .follow = CC_FOLLOW_WITHDRAW, .loc = pc->loc, .fx = on->x, .fy = on->y};
        }
    }
    return n;
}

/* The action of placement `p` with follow-up `f` by the seat to move of `g`. */
static void make_action(const struct cc_game *g, const struct cc_placement *p,
                        const struct followup *f, struct cc_action *a)
{
    memset(a, 0, sizeof *a);
    a->kind = CC_ACTION_PLACE;
    a->seat = g->seat;
    a->x = p->x;
    a->y = p->y;
    a->rot = p->rot;
    a->tile = cc_hand_mode(g) ? p->tile : CC_NO_TILE;
    a->follow = f->follow;
    a->loc = f->loc;
    a->fx = f->fx;
    a->fy = f->fy;
}

size_t cc_bot_moves(const struct cc_game *g, struct cc_bot_scratch *s)
{
    memcpy(&s->root, g, sizeof s->root);
    canonicalize(&s->root);
    s->nlist = 0;
    if (s->root.phase != CC_PHASE_PLACE) return 0;
    size_t n = cc_legal_placements(&s->root, s->list, CC_MAX_PLACEMENTS, true);
    if (n > CC_MAX_PLACEMENTS) return 0; /* cannot happen: the bound is the frontier's */
    s->nlist = n;
    size_t moves = 0;
    struct followup fu[CC_BOT_MAX_FOLLOWUPS];
    for (size_t i = 0; i < n; i++) {
        s->nfollow[i] = (uint8_t)followups(&s->root, &s->list[i], fu);
        moves += s->nfollow[i];
    }
    return moves;
}

bool cc_bot_move(const struct cc_bot_scratch *s, size_t i, struct cc_action *out)
{
    for (size_t k = 0; k < s->nlist; k++) {
        if (i >= s->nfollow[k]) {
            i -= s->nfollow[k];
            continue;
        }
        struct followup fu[CC_BOT_MAX_FOLLOWUPS];
        followups(&s->root, &s->list[k], fu);
        make_action(&s->root, &s->list[k], &fu[i], out);
        return true;
    }
    return false;
}

/* The mover's projected final score minus the best other seat's, after the move. */
static int margin(const struct cc_game *g, unsigned seat)
{
    struct cc_player pl[CC_MAX_PLAYERS];
    cc_projected_scores(g, pl);
    int best = -32768;
    for (unsigned s = 0; s < g->nplayers; s++)
        if (s != seat && !cc_seat_resigned(g, s) && pl[s].score > best) best = pl[s].score;
    return pl[seat].score - best;
}

/* Greedy: every move applied to a copy of root; the best margin, ties by `rng`. */
static enum cc_status greedy(struct cc_bot_scratch *s, struct cc_rng *rng, struct cc_action *out)
{
    const struct cc_game *r = &s->root;
    unsigned seat = r->seat;
    int best = 0;
    uint32_t ties = 0;
    struct followup fu[CC_BOT_MAX_FOLLOWUPS];
    memcpy(&s->work, r, sizeof s->work); /* then reset after each move: a partial copy */
    for (size_t k = 0; k < s->nlist; k++) {
        unsigned nf = followups(r, &s->list[k], fu);
        for (unsigned j = 0; j < nf; j++) {
            struct cc_action a;
            make_action(r, &s->list[k], &fu[j], &a);
            if (cc_game_apply(&s->work, &a, NULL) != CC_OK) return CC_ERR_CORRUPT;
            int m = margin(&s->work, seat);
            cc_game_reset(&s->work, r);
            if (ties == 0 || m > best) {
                best = m;
                ties = 1;
                *out = a;
            } else if (m == best && cc_rng_below(rng, ++ties) == 0) {
                *out = a; /* each of the tied moves is kept with probability 1/ties */
            }
        }
    }
    return ties ? CC_OK : CC_ERR_CORRUPT;
}

enum cc_status cc_bot_choose(const struct cc_game *g, enum cc_bot_level level, uint64_t seed,
                             struct cc_bot_scratch *s, struct cc_action *out)
{
    if ((unsigned)level >= CC_BOT_LEVEL_COUNT) return CC_ERR_BAD_OPTION;
    if (g->phase == CC_PHASE_FINISHED) return CC_ERR_GAME_FINISHED;
    memset(out, 0, sizeof *out);
    out->seat = g->seat;
    out->tile = CC_NO_TILE;
    if (g->phase == CC_PHASE_DRAW) {
        out->kind = CC_ACTION_DRAW;
        return CC_OK;
    }
    size_t n = cc_bot_moves(g, s);
    if (n == 0) return CC_ERR_CORRUPT;
    struct cc_rng rng;
    cc_rng_seed(&rng, seed);
    if (level == CC_BOT_RANDOM) {
        size_t i = n <= UINT32_MAX ? cc_rng_below(&rng, (uint32_t)n) : 0;
        return cc_bot_move(s, i, out) ? CC_OK : CC_ERR_CORRUPT;
    }
    return greedy(s, &rng, out);
}

static const char *const level_names[CC_BOT_LEVEL_COUNT] = {"random", "greedy"};

const char *cc_bot_level_name(enum cc_bot_level level)
{
    return (unsigned)level < CC_BOT_LEVEL_COUNT ? level_names[level] : NULL;
}

bool cc_bot_level_parse(const char *name, enum cc_bot_level *out)
{
    for (unsigned i = 0; i < CC_BOT_LEVEL_COUNT; i++) {
        if (strcmp(name, level_names[i]) != 0) continue;
        *out = (enum cc_bot_level)i;
        return true;
    }
    return false;
}
