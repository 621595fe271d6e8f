/* bot.c: computer players: random, greedy and mcts moves over what the seat to move knows. */
#include <string.h>

#include "bot_internal.h"
#include "hand.h"
#include "modules.h"
#include "rng.h"

_Static_assert(CC_BOT_MAX_FOLLOWUPS <= UINT8_MAX, "nfollow[] counts them in a byte");

/* Sorts the pile's tiles deck[a..b) by type (a counting sort). */
static void sort_pile(uint8_t *deck, unsigned a, unsigned b)
{
    unsigned count[CC_MAX_TILE_TYPES] = {0};
    for (unsigned i = a; i < b; i++) count[deck[i]]++;
    for (unsigned t = 0; t < CC_MAX_TILE_TYPES; t++)
        for (unsigned n = 0; n < count[t]; n++) deck[a++] = (uint8_t)t;
}

/* What a player knows of where a pile tile comes: the class its module gives it (the
 * River's tiles come before the land, the lake last of them), else the land's; the order
 * within each class is unknown. */
static unsigned pile_class(const struct cc_tile_type *t)
{
    const struct cc_module *m = cc_module_of_set(t->set);
    return m && m->pile_class ? m->pile_class(t) : 0xFFu;
}

/* The end of the run of tiles of one pile_class() that starts at deck[a] of `g` (a below
 * deck_len): a player knows the runs' order, not the order within each. */
static unsigned pile_run_end(const struct cc_game *g, const struct cc_tile_type *types, unsigned a)
{
    unsigned cls = pile_class(&types[g->deck[a]]), b = a + 1;
    while (b < g->deck_len && pile_class(&types[g->deck[b]]) == cls) b++;
    return b;
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
        for (unsigned a = r->deck_pos, b; a < r->deck_len; a = b) {
            b = pile_run_end(r, types, a);
            sort_pile(r->deck, a, b);
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

/* Adds to `out` one choice of `follow` with `figure` per distinct feature among the locations
 * in `mask` (its first location) of tile type `t` turned `rot`; returns the new count. */
static unsigned per_feature(const struct cc_tile_type *t, unsigned rot, unsigned mask,
                            uint8_t follow, uint8_t figure, struct followup *out, unsigned n)
{
    unsigned seen = 0; /* features already listed */
    for (unsigned loc = 0; loc < CC_LOC_COUNT; loc++) {
        if (!(mask & (1u << loc))) continue;
        unsigned f = t->slot_feature[rot][loc];
        if (f == CC_NO_FEATURE || (seen & (1u << f))) continue;
        seen |= 1u << f;
        out[n++] = (struct followup){.follow = follow, .loc = (uint8_t)loc, .figure = figure};
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
    n = per_feature(t, p->rot, p->follower, CC_FOLLOW_FOLLOWER, CC_PIECE_FOLLOWER, out, n);
    n = per_feature(t, p->rot, p->stable, CC_FOLLOW_STABLE, CC_PIECE_FOLLOWER, out, n);
    /* The figures of the expansions of classic, each deployed as the turn's follow-up. */
    n = per_feature(t, p->rot, p->large, CC_FOLLOW_FOLLOWER, CC_PIECE_LARGE, out, n);
    n = per_feature(t, p->rot, p->builder, CC_FOLLOW_FOLLOWER, CC_PIECE_BUILDER, out, n);
    n = per_feature(t, p->rot, p->pig, CC_FOLLOW_FOLLOWER, CC_PIECE_PIG, out, n);
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
    a->figure = f->figure;
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

/* What greedy adds to the margin for the builder (traders), whose worth is turns, not points:
 * an extra turn the move has earned (the mover draws again) is worth about what a tile
 * brings; the builder out on the board, a chance of such a turn later. */
#define BOT_EXTRA_TURN_POINTS  4
#define BOT_BUILDER_OUT_POINTS 1

/* Greedy's value of the position `g` after a move of `seat`: the margin, and the builder's
 * turns as above. */
static int value(const struct cc_game *g, unsigned seat)
{
    int v = margin(g, seat);
    if (!cc_figure_in_game(g, CC_PIECE_BUILDER)) return v;
    if (g->extra_turn && g->seat == seat && g->phase == CC_PHASE_DRAW) v += BOT_EXTRA_TURN_POINTS;
    if (g->players[seat].builders == 0) v += BOT_BUILDER_OUT_POINTS;
    return v;
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
            int m = value(&s->work, seat);
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

/* Tuning of the mcts level (bench-ai measured them; see cc_bot_think()). */
#ifndef MCTS_PLAYOUT_TURNS
#define MCTS_PLAYOUT_TURNS 12 /* placements a playout plays after the root move */
#endif
#ifndef MCTS_FOLLOW_PCT
#define MCTS_FOLLOW_PCT 30 /* percent of playout moves that take a follow-up when one exists */
#endif
#ifndef MCTS_SCALE
#define MCTS_SCALE 12 /* points of margin gained that make a reward of 3/4 */
#endif
#ifndef MCTS_UCB_C
#define MCTS_UCB_C 0.25 /* UCB1's exploration constant, rewards being in [0, 1] */
#endif
#ifndef MCTS_WIDEN_BASE
#define MCTS_WIDEN_BASE 4 /* root moves searched from the start */
#endif
#ifndef MCTS_WIDEN_PER_SQRT
#define MCTS_WIDEN_PER_SQRT 0.5 /* more root moves per square root of the iterations */
#endif
#ifndef MCTS_WIDEN_PER_SQRT_FIGURES
/* MCTS_WIDEN_PER_SQRT in games with the modules' figures (the expansions of classic): many
 * more moves a turn and rewards that swing wide (cathedrals, goods), where a wider search
 * seemed to pick lucky weak moves: mcts against greedy with both expansions on the same 40
 * decks won 58 % thinking 100 ms a move and 80 % thinking 30 ms (about 46 root moves
 * searched against 26). This keeps 100 ms to about 26: 70.1 % of 87 games against 59.3 %
 * of 54 without (bench-ai, 100 ms; not yet a significant difference). */
#define MCTS_WIDEN_PER_SQRT_FIGURES 0.27
#endif
#ifndef MCTS_WIDEN_MAX_FIGURES
/* The most root moves searched in games with the modules' figures: the 26 that 100 ms bought
 * when MCTS_WIDEN_PER_SQRT_FIGURES was measured. Random playouts flatter some weak moves (a
 * follower where a random opponent never contests it), and greedy's ranking keeps those out;
 * without a bound, a faster search (more iterations in the same time) searched ever more
 * moves and let them in: about 39 at 100 ms once an iteration took 5 us instead of 8
 * (17,000 iterations a move instead of 11,000). */
#define MCTS_WIDEN_MAX_FIGURES 26
#endif
#ifndef MCTS_WIN_PCT
#define MCTS_WIN_PCT 0 /* percent of the reward that is the projected win (else the margin) */
#endif
#ifndef MCTS_PRIOR_VISITS
/* Virtual visits rewarded by greedy's margin gain (a prior) a root move starts with: they
 * made hills and discovery stronger (74 % against 52-63 %), classic weaker (74 % against
 * 86 % on the same 56 games), so classic goes without. */
#define MCTS_PRIOR_VISITS(ruleset) ((ruleset) == CC_RULESET_CLASSIC ? 0 : 20)
#endif
#define MCTS_CLOCK_EVERY 8 /* iterations between two looks at the clock */

/* Whether the game has figures its modules bring (the large follower, builder, pig). */
static bool has_module_figures(const struct cc_game *g)
{
    for (unsigned k = 0; k < CC_PIECE_KIND_COUNT; k++)
        if (cc_module_of_figure(g, k)) return true;
    return false;
}

/* Whether child a ranks before child b: greedy's margin, then the seeded key. */
static bool ranks_before(const struct cc_bot_child *a, const struct cc_bot_child *b)
{
    return a->prior != b->prior ? a->prior > b->prior : a->key < b->key;
}

/* Every move of root into children[] with greedy's margin (the best CC_BOT_MCTS_CHILDREN
 * when there are more), sorted best first. */
static enum cc_status rank_moves(struct cc_bot_scratch *s, struct cc_rng *rng)
{
    const struct cc_game *r = &s->root;
    struct followup fu[CC_BOT_MAX_FOLLOWUPS];
    s->nchildren = 0;
    memcpy(&s->work, r, sizeof s->work);
    for (size_t k = 0; k < s->nlist; k++) {
        unsigned nf = followups(r, &s->list[k], fu);
        for (unsigned j = 0; j < nf; j++) {
            struct cc_bot_child c = {0};
            make_action(r, &s->list[k], &fu[j], &c.action);
            if (cc_game_apply(&s->work, &c.action, NULL) != CC_OK) return CC_ERR_CORRUPT;
            c.prior = value(&s->work, r->seat);
            c.key = (uint32_t)cc_rng_next(rng);
            cc_game_reset(&s->work, r);
            if (s->nchildren < CC_BOT_MCTS_CHILDREN) {
                s->children[s->nchildren++] = c;
                continue;
            }
            unsigned worst = 0; /* full: c replaces the worst kept, if better */
            for (unsigned i = 1; i < s->nchildren; i++)
                if (ranks_before(&s->children[worst], &s->children[i])) worst = i;
            if (ranks_before(&c, &s->children[worst])) s->children[worst] = c;
        }
    }
    /* Shell sort (no libc qsort: it may allocate), best first; the order is total. */
    static const unsigned gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
    for (unsigned gi = 0; gi < sizeof gaps / sizeof gaps[0]; gi++) {
        unsigned gap = gaps[gi];
        for (unsigned i = gap; i < s->nchildren; i++) {
            struct cc_bot_child c = s->children[i];
            unsigned j = i;
            for (; j >= gap && ranks_before(&c, &s->children[j - gap]); j -= gap)
                s->children[j] = s->children[j - gap];
            s->children[j] = c;
        }
    }
    return s->nchildren ? CC_OK : CC_ERR_CORRUPT;
}

/* Deals the tiles the mover of sim (a copy of the canonical root) cannot see anew: without
 * hands each run of one pile_class() in the rest of the pile is shuffled; with hands the
 * other seats' hands and the pile are pooled, shuffled and dealt back (the drawn part of
 * the pile amended as canonicalize() does). */
static void determinize(struct cc_game *g, struct cc_rng *rng)
{
    if (!cc_hand_mode(g)) {
        const struct cc_tile_type *types = cc_tileset_get((enum cc_ruleset)g->ruleset)->types;
        for (unsigned a = g->deck_pos, b; a < g->deck_len; a = b) {
            b = pile_run_end(g, types, a);
            cc_rng_shuffle(rng, g->deck + a, b - a);
        }
        return;
    }
    uint8_t pool[CC_MAX_DECK + CC_MAX_PLAYERS * CC_HAND_SIZE];
    int drawn[CC_MAX_TILE_TYPES] = {0};
    unsigned n = 0;
    for (unsigned i = g->nremoved; i < g->deck_pos; i++) drawn[g->deck[i]]++;
    for (unsigned s = 0; s < g->nplayers; s++)
        for (unsigned k = 0; s != g->seat && k < CC_HAND_SIZE; k++)
            if (g->players[s].hand[k] != CC_NO_TILE) {
                drawn[g->players[s].hand[k]]--;
                pool[n++] = g->players[s].hand[k];
            }
    if (n == 0) { /* no other hand holds a tile: only the pile's order is unknown */
        cc_rng_shuffle(rng, g->deck + g->deck_pos, (unsigned)(g->deck_len - g->deck_pos));
        return;
    }
    for (unsigned i = g->deck_pos; i < g->deck_len; i++) pool[n++] = g->deck[i];
    cc_rng_shuffle(rng, pool, n);
    unsigned j = 0;
    for (unsigned s = 0; s < g->nplayers; s++)
        for (unsigned k = 0; s != g->seat && k < CC_HAND_SIZE; k++)
            if (g->players[s].hand[k] != CC_NO_TILE) {
                g->players[s].hand[k] = pool[j];
                drawn[pool[j++]]++;
            }
    unsigned i = g->nremoved;
    for (unsigned t = 0; t < CC_MAX_TILE_TYPES; t++)
        for (int c = 0; c < drawn[t]; c++) g->deck[i++] = (uint8_t)t;
    for (; j < n; j++) g->deck[i++] = pool[j];
}

/* One move of a playout for the seat to move of sim: a uniform placement, with a uniform
 * follow-up in MCTS_FOLLOW_PCT percent of the moves that allow one. */
static enum cc_status playout_move(struct cc_bot_scratch *s, struct cc_rng *rng)
{
    struct cc_game *g = &s->sim;
    /* The same placement as plist[cc_rng_below(rng, n)] of cc_legal_placements(), without
     * listing them all (the playout's hottest step). */
    struct cc_placement chosen;
    size_t n = cc_random_placement(g, rng, &chosen);
    if (n == 0 || n > CC_MAX_PLACEMENTS) return CC_ERR_CORRUPT;
    struct cc_placement *p = &chosen;
    cc_placement_followups(g, p);
    struct followup fu[CC_BOT_MAX_FOLLOWUPS];
    unsigned nf = followups(g, p, fu), pick = 0;
    if (nf > 1 && cc_rng_below(rng, 100) < MCTS_FOLLOW_PCT) pick = 1 + cc_rng_below(rng, nf - 1);
    struct cc_action a;
    make_action(g, p, &fu[pick], &a);
    return cc_game_apply(g, &a, NULL);
}

/* One simulation through child c: a new deal, the move, a playout; its reward in [0, 1]. */
static enum cc_status simulate(struct cc_bot_scratch *s, const struct cc_bot_child *c, int base,
                               struct cc_rng *rng, double *reward)
{
    struct cc_game *g = &s->sim;
    unsigned seat = s->root.seat;
    memcpy(g, &s->root, sizeof *g);
    determinize(g, rng);
    if (cc_game_apply(g, &c->action, NULL) != CC_OK) return CC_ERR_CORRUPT;
    for (unsigned placed = 0; g->phase != CC_PHASE_FINISHED && placed < MCTS_PLAYOUT_TURNS;) {
        if (g->phase == CC_PHASE_DRAW) {
            struct cc_action d = {.kind = CC_ACTION_DRAW, .seat = g->seat, .tile = CC_NO_TILE};
            if (cc_game_apply(g, &d, NULL) != CC_OK) return CC_ERR_CORRUPT;
            continue;
        }
        enum cc_status st = playout_move(s, rng);
        if (st != CC_OK) return st;
        placed++;
    }
    int m = margin(g, seat);
    double d = m - base, win = m > 0 ? 1 : m == 0 ? 0.5 : 0;
    *reward = (100 - MCTS_WIN_PCT) / 100.0 * (0.5 + 0.5 * d / ((d < 0 ? -d : d) + MCTS_SCALE)) +
              MCTS_WIN_PCT / 100.0 * win;
    return CC_OK;
}

/* sqrt without libm (Newton's method; x >= 0). UCB1 asks it for every child searched in
 * every iteration, so it starts close: halving the exponent's bits gives the root within 7 %,
 * and Newton's steps square the error (7e-2, 2e-3, 2e-6, 2e-12, 2e-24): five steps reach the
 * double's precision where the old start (x itself) took up to 30. */
static double root2(double x)
{
    if (x <= 0) return 0;
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    bits = (bits >> 1) + (UINT64_C(0x3FF0000000000000) >> 1);
    double r;
    memcpy(&r, &bits, sizeof r);
    for (int i = 0; i < 5; i++) r = (r + x / r) / 2;
    return r;
}

/* ln without libm, for UCB1's numerator (x >= 1): ln x = 2 atanh((x-1)/(x+1)). */
static double log_e(double x)
{
    int k = 0;
    while (x > 2) {
        x /= 2;
        k++;
    }
    double y = (x - 1) / (x + 1), y2 = y * y, sum = 0, term = y;
    for (int i = 1; i < 40; i += 2) {
        sum += term / i;
        term *= y2;
    }
    return 2 * sum + k * 0.69314718055994531;
}

/* The search; children[] ranked already. */
static enum cc_status mcts(struct cc_bot_scratch *s, const struct cc_bot_budget *b, uint64_t t0,
                           struct cc_rng *rng, struct cc_action *out)
{
    uint32_t limit = b->iterations;
    bool timed = b->think_us && b->now_us;
    if (!limit && !timed) limit = CC_BOT_MCTS_DEFAULT_ITERATIONS;
    int base = margin(&s->root, s->root.seat);
    uint32_t prior = MCTS_PRIOR_VISITS(s->root.ruleset);
    for (uint32_t i = 0; prior && i < s->nchildren; i++) {
        double d = s->children[i].prior - base;
        s->children[i].visits = prior;
        s->children[i].reward = prior * (0.5 + 0.5 * d / ((d < 0 ? -d : d) + MCTS_SCALE));
    }
    bool figures = has_module_figures(&s->root);
    double widen = figures ? MCTS_WIDEN_PER_SQRT_FIGURES : MCTS_WIDEN_PER_SQRT;
    uint32_t widest = figures ? MCTS_WIDEN_MAX_FIGURES : CC_BOT_MCTS_CHILDREN;
    uint32_t it = 0;
    if (s->nchildren > 1) {
        for (; !limit || it < limit; it++) {
            if (timed && it % MCTS_CLOCK_EVERY == 0 && b->now_us(b->now_ctx) - t0 >= b->think_us)
                break;
            uint32_t active = MCTS_WIDEN_BASE + (uint32_t)(widen * root2(it));
            if (active > widest) active = widest;
            if (active > s->nchildren) active = s->nchildren;
            struct cc_bot_child *pick = NULL;
            double best = -1, lg = log_e(it + 1.0);
            for (uint32_t i = 0; i < active; i++) {
                struct cc_bot_child *c = &s->children[i];
                if (c->visits == 0) {
                    pick = c;
                    break;
                }
                double u = c->reward / c->visits + MCTS_UCB_C * root2(lg / c->visits);
                if (u > best) {
                    best = u;
                    pick = c;
                }
            }
            double r;
            enum cc_status st = simulate(s, pick, base, rng, &r);
            if (st != CC_OK) return st;
            pick->visits++;
            pick->reward += r;
        }
    }
    s->iterations = it;
    const struct cc_bot_child *best = &s->children[0]; /* no iteration: greedy's choice */
    for (uint32_t i = 1; i < s->nchildren; i++) {
        const struct cc_bot_child *c = &s->children[i];
        if (c->visits > best->visits || (c->visits == best->visits && c->visits &&
                                         c->reward / c->visits > best->reward / best->visits))
            best = c;
    }
    *out = best->action;
    return CC_OK;
}

enum cc_status cc_bot_think(const struct cc_game *g, enum cc_bot_level level, uint64_t seed,
                            const struct cc_bot_budget *budget, struct cc_bot_scratch *s,
                            struct cc_action *out)
{
    static const struct cc_bot_budget none = {0};
    if (!budget) budget = &none;
    uint64_t t0 = budget->think_us && budget->now_us ? budget->now_us(budget->now_ctx) : 0;
    if ((unsigned)level >= CC_BOT_LEVEL_COUNT) return CC_ERR_BAD_OPTION;
    if (g->phase == CC_PHASE_FINISHED) return CC_ERR_GAME_FINISHED;
    memset(out, 0, sizeof *out);
    out->seat = g->seat;
    out->tile = CC_NO_TILE;
    s->iterations = 0;
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
    if (level == CC_BOT_GREEDY) return greedy(s, &rng, out);
    if (level == CC_BOT_HARD) return cc_bot_hard(s, budget, t0, &rng, out);
    enum cc_status st = rank_moves(s, &rng);
    if (st != CC_OK) return st;
    return mcts(s, budget, t0, &rng, out);
}

enum cc_status cc_bot_choose(const struct cc_game *g, enum cc_bot_level level, uint64_t seed,
                             struct cc_bot_scratch *s, struct cc_action *out)
{
    return cc_bot_think(g, level, seed, NULL, s, out);
}

static const char *const level_names[CC_BOT_LEVEL_COUNT] = {"random", "greedy", "mcts", "hard"};

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

/* What bot_hard.c shares (bot_internal.h). */
unsigned cc_bot_followups(const struct cc_game *g, const struct cc_placement *p,
                          struct followup out[CC_BOT_MAX_FOLLOWUPS])
{
    return followups(g, p, out);
}

void cc_bot_action(const struct cc_game *g, const struct cc_placement *p, const struct followup *f,
                   struct cc_action *a)
{
    make_action(g, p, f, a);
}

int cc_bot_value(const struct cc_game *g, unsigned seat)
{
    return value(g, seat);
}

void cc_bot_determinize(struct cc_game *g, struct cc_rng *rng)
{
    determinize(g, rng);
}

double cc_bot_sqrt(double x)
{
    return root2(x);
}

double cc_bot_ln(double x)
{
    return log_e(x);
}
