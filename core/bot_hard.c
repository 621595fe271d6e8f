/*
 * bot_hard.c: the hard level. A determinized search with a two-level action: the root's
 * placements (each with its best follow-ups) are the first level, a placement's follow-ups
 * the second; both widen progressively (UCB1 among the best few by their leaf value, more
 * of them as their visits grow). An iteration deals the unseen tiles anew, plays the move,
 * lets every seat in turn reply with its best move by the leaf value (cc_bot_evaluate():
 * the projected margin, figures in hand, the seat to move, the tie rule) for one round,
 * and rewards the leaf value reached. When at most HARD_EXACT_TILES tiles are left after
 * the mover's, the rest is solved instead: every move of every seat, every tile that may
 * come, each seat taking its best (max^n; alpha cut-offs in 2-player games).
 * Nothing is allocated: the tree is the scratch's children[] and groups[], the plies are
 * sim and deep[].
 */
#include <string.h>

#include "bot_internal.h"
#include "hand.h"

/* Tuning (bench-ai measured it). */
#ifndef HARD_SCALE
#define HARD_SCALE 10.0 /* points of leaf margin gained that make a reward of 3/4 */
#endif
#ifndef HARD_WIN_WEIGHT
#define HARD_WIN_WEIGHT 0.5 /* share of the reward that is the win, at the end of the pile */
#endif
#ifndef HARD_UCB_C
#define HARD_UCB_C 0.2 /* UCB1's exploration constant, rewards being in [0, 1] */
#endif
#ifndef HARD_WIDEN_BASE
#define HARD_WIDEN_BASE 3 /* placements searched from the start */
#endif
#ifndef HARD_WIDEN_PER_SQRT
#define HARD_WIDEN_PER_SQRT 0.4 /* more placements per square root of the iterations */
#endif
#ifndef HARD_FOLLOW_BASE
#define HARD_FOLLOW_BASE 2 /* follow-ups of a placement searched from its start */
#endif
#ifndef HARD_FOLLOW_PER_SQRT
#define HARD_FOLLOW_PER_SQRT 0.4 /* more per square root of the placement's visits */
#endif
#ifndef HARD_PRIOR_VISITS
#define HARD_PRIOR_VISITS 3 /* virtual visits rewarded by the leaf value a move starts with */
#endif
#ifndef HARD_MAX_PLIES
#define HARD_MAX_PLIES 4 /* replies an iteration plays at most (one round of the seats) */
#endif
#ifndef HARD_EXACT_TILES
#define HARD_EXACT_TILES 1 /* tiles left after the mover's at which the rest is solved */
#endif
#ifndef HARD_EXACT_NODES
#define HARD_EXACT_NODES 200000 /* positions the exact search may try (else partly solved) */
#endif
#define HARD_EXACT_WIN   1000.0 /* the exact search's value of a win, in points of margin */
#define HARD_CLOCK_EVERY 4      /* iterations between two looks at the clock */

_Static_assert(CC_BOT_HARD_GROUPS <= UINT16_MAX, "a group's slot is 16 bits");
_Static_assert(HARD_MAX_PLIES >= 1, "an iteration replies at least once");

/* What an iteration's leaf is worth to the mover, in [0, 1]: the margin gained over the
 * root's (squashed) and, more as the pile runs out, the share of the win. */
static double reward_of(const struct cc_bot_eval *e, double base, double progress)
{
    double d = e->margin - base, w = HARD_WIN_WEIGHT * progress;
    return (1 - w) * (0.5 + 0.5 * d / ((d < 0 ? -d : d) + HARD_SCALE)) + w * e->win;
}

/* How far the game is, in [0, 1]: the part of the pile drawn. */
static double progress_of(const struct cc_game *g)
{
    return g->deck_len ? (double)g->deck_pos / g->deck_len : 1;
}

/* Whether child a ranks before child b: its prior reward (kept in reward), then its key. */
static bool ranks_before(const struct cc_bot_child *a, const struct cc_bot_child *b)
{
    return a->reward != b->reward ? a->reward > b->reward : a->key < b->key;
}

/* Puts the follow-ups of one placement, kept[0, n) ranked, into a group: a new one while
 * there is room, else in place of the worst group if this one is better. */
static void keep_group(struct cc_bot_scratch *s, const struct cc_bot_child *kept, unsigned n)
{
    uint32_t gi = s->ngroups;
    if (gi == CC_BOT_HARD_GROUPS) {
        gi = 0;
        for (uint32_t i = 1; i < s->ngroups; i++)
            if (s->groups[i].prior < s->groups[gi].prior) gi = i;
        if (kept[0].reward <= s->groups[gi].prior) return;
    } else {
        s->groups[gi].slot = (uint16_t)gi;
        s->ngroups++;
    }
    struct cc_bot_group *g = &s->groups[gi];
    g->count = (uint8_t)n;
    g->prior = kept[0].reward;
    memcpy(&s->children[g->slot * CC_BOT_HARD_FOLLOWUPS], kept, n * sizeof *kept);
}

/* Every move of root, valued by the leaf value after it, into groups best first; then each
 * move and group starts with HARD_PRIOR_VISITS virtual visits of its prior reward. */
static enum cc_status rank_groups(struct cc_bot_scratch *s, struct cc_rng *rng)
{
    const struct cc_game *r = &s->root;
    double base, progress = progress_of(r);
    struct cc_bot_eval e;
    cc_bot_evaluate(r, r->seat, &e);
    base = e.margin;
    struct followup fu[CC_BOT_MAX_FOLLOWUPS];
    s->ngroups = 0;
    memcpy(&s->work, r, sizeof s->work);
    for (size_t k = 0; k < s->nlist; k++) {
        struct cc_bot_child kept[CC_BOT_HARD_FOLLOWUPS];
        unsigned nf = cc_bot_followups(r, &s->list[k], fu), n = 0;
        for (unsigned j = 0; j < nf; j++) {
            struct cc_bot_child c = {0};
            cc_bot_action(r, &s->list[k], &fu[j], &c.action);
            if (cc_game_apply(&s->work, &c.action, NULL) != CC_OK) return CC_ERR_CORRUPT;
            cc_bot_evaluate(&s->work, r->seat, &e);
            cc_game_reset(&s->work, r);
            c.prior = (int32_t)e.margin;
            c.reward = reward_of(&e, base, progress);
            c.key = (uint32_t)cc_rng_next(rng);
            unsigned i = n < CC_BOT_HARD_FOLLOWUPS ? n++ : n; /* insertion, best first */
            for (; i > 0 && ranks_before(&c, &kept[i - 1]); i--)
                if (i < CC_BOT_HARD_FOLLOWUPS) kept[i] = kept[i - 1];
            if (i < CC_BOT_HARD_FOLLOWUPS) kept[i] = c;
        }
        keep_group(s, kept, n);
    }
    for (uint32_t i = 1; i < s->ngroups; i++) { /* insertion sort, best first, stable */
        struct cc_bot_group g = s->groups[i];
        uint32_t j = i;
        for (; j > 0 && g.prior > s->groups[j - 1].prior; j--) s->groups[j] = s->groups[j - 1];
        s->groups[j] = g;
    }
    s->nchildren = 0;
    for (uint32_t i = 0; i < s->ngroups; i++) {
        struct cc_bot_group *g = &s->groups[i];
        g->visits = HARD_PRIOR_VISITS;
        g->reward = HARD_PRIOR_VISITS * g->prior;
        for (unsigned j = 0; j < g->count; j++) {
            struct cc_bot_child *c = &s->children[g->slot * CC_BOT_HARD_FOLLOWUPS + j];
            c->visits = HARD_PRIOR_VISITS;
            c->reward *= HARD_PRIOR_VISITS;
        }
        s->nchildren += g->count;
    }
    return s->ngroups ? CC_OK : CC_ERR_CORRUPT;
}

/* The entry, among the first `active` of n (visits, reward sum), with the highest UCB1. */
#define UCB_PICK(items, n, active, total, pick)                                                    \
    do {                                                                                           \
        double best_ = -1, lg_ = cc_bot_ln((total) + 1.0);                                         \
        for (uint32_t i_ = 0; i_ < (active) && i_ < (n); i_++) {                                   \
            double u_ = (items)[i_].visits                                                         \
                            ? (items)[i_].reward / (items)[i_].visits +                            \
                                  HARD_UCB_C * cc_bot_sqrt(lg_ / (items)[i_].visits)               \
                            : 2;                                                                   \
            if (u_ > best_) {                                                                      \
                best_ = u_;                                                                        \
                (pick) = i_;                                                                       \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* A walk over every move of a position in the place phase: its placements (listed into the
 * caller's array), each with each of its follow-ups. */
struct move_walk {
    const struct cc_game *g;
    const struct cc_placement *list;
    size_t n, k;    /* placements listed; the next to start */
    unsigned nf, j; /* follow-ups of placement k - 1; the next of them */
    struct followup fu[CC_BOT_MAX_FOLLOWUPS];
};

static enum cc_status walk_start(struct move_walk *w, const struct cc_game *g,
                                 struct cc_placement list[CC_MAX_PLACEMENTS])
{
    w->g = g;
    w->list = list;
    w->n = cc_legal_placements(g, list, CC_MAX_PLACEMENTS, true);
    w->k = 0;
    w->nf = w->j = 0;
    return w->n == 0 || w->n > CC_MAX_PLACEMENTS ? CC_ERR_CORRUPT : CC_OK;
}

/* The next move into *a; false after the last. */
static bool walk_next(struct move_walk *w, struct cc_action *a)
{
    while (w->j >= w->nf) {
        if (w->k >= w->n) return false;
        w->nf = cc_bot_followups(w->g, &w->list[w->k++], w->fu);
        w->j = 0;
    }
    cc_bot_action(w->g, &w->list[w->k - 1], &w->fu[w->j++], a);
    return true;
}

/* Applies to `g` (place phase) the best move of its seat to move by the leaf value (a win
 * first when it ends the game), trying each on `trial`; placements listed in s->plist. */
static enum cc_status reply(struct cc_bot_scratch *s, struct cc_game *g, struct cc_game *trial)
{
    struct move_walk w;
    enum cc_status st = walk_start(&w, g, s->plist);
    if (st != CC_OK) return st;
    struct cc_action best = {0}, a;
    double top = -1e18;
    memcpy(trial, g, sizeof *trial);
    while (walk_next(&w, &a)) {
        struct cc_bot_eval e;
        if (cc_game_apply(trial, &a, NULL) != CC_OK) return CC_ERR_CORRUPT;
        cc_bot_evaluate(trial, g->seat, &e);
        double v = e.margin + HARD_EXACT_WIN * e.win * (trial->phase == CC_PHASE_FINISHED);
        cc_game_reset(trial, g);
        if (v > top) {
            top = v;
            best = a;
        }
    }
    return cc_game_apply(g, &best, NULL);
}

/* Draws for the seat to move of `g` (draw phase). */
static enum cc_status draw(struct cc_game *g)
{
    struct cc_action d = {.kind = CC_ACTION_DRAW, .seat = g->seat, .tile = CC_NO_TILE};
    return cc_game_apply(g, &d, NULL);
}

enum cc_status cc_bot_hard_playout(struct cc_bot_scratch *s, const struct cc_action *a,
                                   struct cc_rng *rng, struct cc_bot_eval *out)
{
    struct cc_game *g = &s->sim;
    unsigned seat = s->root.seat, plies = s->root.nplayers;
    if (plies > HARD_MAX_PLIES) plies = HARD_MAX_PLIES;
    memcpy(g, &s->root, sizeof *g);
    cc_bot_determinize(g, rng);
    if (cc_game_apply(g, a, NULL) != CC_OK) return CC_ERR_CORRUPT;
    for (unsigned placed = 0; g->phase != CC_PHASE_FINISHED && placed < plies;) {
        enum cc_status st = g->phase == CC_PHASE_DRAW ? draw(g) : reply(s, g, &s->deep[0]);
        if (st != CC_OK) return st;
        placed += g->phase == CC_PHASE_DRAW || g->phase == CC_PHASE_FINISHED;
    }
    cc_bot_evaluate(g, seat, out);
    return CC_OK;
}

/* One iteration through child c: its playout's leaf value as a reward. */
static enum cc_status simulate(struct cc_bot_scratch *s, const struct cc_bot_child *c, double base,
                               struct cc_rng *rng, double *reward)
{
    struct cc_bot_eval e;
    enum cc_status st = cc_bot_hard_playout(s, &c->action, rng, &e);
    if (st == CC_OK) *reward = reward_of(&e, base, progress_of(&s->root));
    return st;
}

/* The exact search's state. */
struct exact {
    const struct cc_bot_budget *b;
    uint64_t t0;
    uint32_t nodes;  /* positions tried */
    bool stopped;    /* out of nodes or time: the values are unfinished */
    bool plist_busy; /* a ply lists its placements in scratch->plist */
};

/* Each seat's value of `g` as the exact search ranks outcomes: a win first, then margin. */
static void utilities(const struct cc_game *g, double u[CC_MAX_PLAYERS])
{
    for (unsigned p = 0; p < g->nplayers; p++) {
        struct cc_bot_eval e;
        cc_bot_evaluate(g, p, &e);
        u[p] = HARD_EXACT_WIN * e.win + e.margin;
    }
}

static enum cc_status solve(struct cc_bot_scratch *s, const struct cc_game *g, unsigned d,
                            double alpha, unsigned root_seat, struct exact *x,
                            double u[CC_MAX_PLAYERS]);

/* A draw: every tile type the pile may give next, by its count (alpha passes on only when
 * one type is left: an average may not be cut). */
static enum cc_status solve_draw(struct cc_bot_scratch *s, const struct cc_game *g, unsigned d,
                                 double alpha, unsigned root_seat, struct exact *x,
                                 double u[CC_MAX_PLAYERS])
{
    struct cc_game *c = &s->deep[d];
    unsigned total = (unsigned)(g->deck_len - g->deck_pos), done = 0;
    memset(u, 0, CC_MAX_PLAYERS * sizeof *u);
    for (unsigned i = g->deck_pos; i < g->deck_len; i++) {
        bool seen = false;
        for (unsigned j = g->deck_pos; j < i; j++) seen |= g->deck[j] == g->deck[i];
        if (seen) continue;
        unsigned count = 0;
        for (unsigned j = i; j < g->deck_len; j++) count += g->deck[j] == g->deck[i];
        memcpy(c, g, sizeof *c);
        c->deck[i] = c->deck[g->deck_pos]; /* tile i comes first (order of the rest unknown) */
        c->deck[g->deck_pos] = g->deck[i];
        if (draw(c) != CC_OK) return CC_ERR_CORRUPT;
        double v[CC_MAX_PLAYERS];
        enum cc_status st = solve(s, c, d + 1, count == total ? alpha : -1e18, root_seat, x, v);
        if (st != CC_OK || x->stopped) return st;
        for (unsigned p = 0; p < g->nplayers; p++) u[p] += v[p] * count / total;
        done += count;
    }
    return done == total ? CC_OK : CC_ERR_CORRUPT;
}

/* The value of `g` for every seat when each seat takes its best move from now on (ply d:
 * the next ply's game is deep[d]); a place ply of another seat than root_seat in a
 * 2-player game stops as soon as root_seat's value falls to alpha (it cannot matter). */
static enum cc_status solve(struct cc_bot_scratch *s, const struct cc_game *g, unsigned d,
                            double alpha, unsigned root_seat, struct exact *x,
                            double u[CC_MAX_PLAYERS])
{
    if (g->phase == CC_PHASE_FINISHED || d >= CC_BOT_HARD_DEPTH) {
        utilities(g, u);
        return CC_OK;
    }
    x->nodes++;
    if (x->nodes >= HARD_EXACT_NODES || (x->b->think_us && x->b->now_us && x->nodes % 64 == 0 &&
                                         x->b->now_us(x->b->now_ctx) - x->t0 >= x->b->think_us)) {
        x->stopped = true;
        return CC_OK;
    }
    if (g->phase == CC_PHASE_DRAW) return solve_draw(s, g, d, alpha, root_seat, x, u);
    if (x->plist_busy) { /* one listing at a time: deeper than that, the leaf value */
        utilities(g, u);
        return CC_OK;
    }
    x->plist_busy = true;
    struct move_walk w;
    enum cc_status st = walk_start(&w, g, s->plist);
    if (st != CC_OK) return st;
    struct cc_game *c = &s->deep[d];
    struct cc_action a;
    unsigned mover = g->seat;
    bool cut = g->nplayers == 2 && mover != root_seat;
    double top = -1e18;
    memcpy(c, g, sizeof *c);
    while (walk_next(&w, &a)) {
        double v[CC_MAX_PLAYERS];
        if (cc_game_apply(c, &a, NULL) != CC_OK) return CC_ERR_CORRUPT;
        st = solve(s, c, d + 1, -1e18, root_seat, x, v);
        cc_game_reset(c, g);
        if (st != CC_OK || x->stopped) return st;
        if (v[mover] > top) {
            top = v[mover];
            memcpy(u, v, CC_MAX_PLAYERS * sizeof *u);
        }
        if (cut && u[root_seat] <= alpha) break;
    }
    x->plist_busy = false;
    return CC_OK;
}

/* Whether the exact search applies: no hidden hand, few tiles after the mover's. */
static bool solvable(const struct cc_game *r)
{
    return !cc_hand_mode(r) && r->deck_len - r->deck_pos <= HARD_EXACT_TILES;
}

/* The exact search of root's moves, best prior first, into *out; false when stopped
 * before any move was solved. */
static enum cc_status solve_root(struct cc_bot_scratch *s, const struct cc_bot_budget *b,
                                 uint64_t t0, struct cc_action *out, bool *solved)
{
    struct exact x = {.b = b, .t0 = t0};
    unsigned seat = s->root.seat;
    double top = -1e18;
    *solved = false;
    memcpy(&s->work, &s->root, sizeof s->work);
    for (uint32_t i = 0; i < s->ngroups && !x.stopped; i++) {
        const struct cc_bot_group *g = &s->groups[i];
        for (unsigned j = 0; j < g->count && !x.stopped; j++) {
            const struct cc_bot_child *c = &s->children[g->slot * CC_BOT_HARD_FOLLOWUPS + j];
            double v[CC_MAX_PLAYERS];
            x.nodes++;
            if (cc_game_apply(&s->work, &c->action, NULL) != CC_OK) return CC_ERR_CORRUPT;
            enum cc_status st = solve(s, &s->work, 0, top, seat, &x, v);
            cc_game_reset(&s->work, &s->root);
            if (st != CC_OK) return st;
            if (!x.stopped && v[seat] > top) {
                top = v[seat];
                *out = c->action;
                *solved = true;
            }
        }
    }
    s->exact_nodes = x.nodes;
    return CC_OK;
}

enum cc_status cc_bot_hard(struct cc_bot_scratch *s, const struct cc_bot_budget *b, uint64_t t0,
                           struct cc_rng *rng, struct cc_action *out)
{
    s->exact_nodes = 0;
    enum cc_status st = rank_groups(s, rng);
    if (st != CC_OK) return st;
    *out = s->children[s->groups[0].slot * CC_BOT_HARD_FOLLOWUPS].action;
    if (s->nchildren == 1) return CC_OK;
    if (solvable(&s->root)) {
        bool solved;
        st = solve_root(s, b, t0, out, &solved);
        if (st != CC_OK || solved) return st;
    }
    uint32_t limit = b->iterations;
    bool timed = b->think_us && b->now_us;
    if (!limit && !timed) limit = CC_BOT_HARD_DEFAULT_ITERATIONS;
    struct cc_bot_eval e;
    cc_bot_evaluate(&s->root, s->root.seat, &e);
    uint32_t it = 0;
    for (; !limit || it < limit; it++) {
        if (timed && it % HARD_CLOCK_EVERY == 0 && b->now_us(b->now_ctx) - t0 >= b->think_us) break;
        uint32_t active = HARD_WIDEN_BASE + (uint32_t)(HARD_WIDEN_PER_SQRT * cc_bot_sqrt(it));
        uint32_t gi = 0, ci = 0;
        UCB_PICK(s->groups, s->ngroups, active, it, gi);
        struct cc_bot_group *g = &s->groups[gi];
        struct cc_bot_child *kids = &s->children[g->slot * CC_BOT_HARD_FOLLOWUPS];
        uint32_t fa = HARD_FOLLOW_BASE + (uint32_t)(HARD_FOLLOW_PER_SQRT * cc_bot_sqrt(g->visits));
        UCB_PICK(kids, g->count, fa, g->visits, ci);
        double r;
        st = simulate(s, &kids[ci], e.margin, rng, &r);
        if (st != CC_OK) return st;
        kids[ci].visits++;
        kids[ci].reward += r;
        g->visits++;
        g->reward += r;
    }
    s->iterations = it;
    if (it == 0) return CC_OK; /* no iteration: the best by the leaf value */
    const struct cc_bot_group *bg = &s->groups[0];
    for (uint32_t i = 1; i < s->ngroups; i++) {
        const struct cc_bot_group *g = &s->groups[i];
        if (g->visits > bg->visits ||
            (g->visits == bg->visits && g->reward / g->visits > bg->reward / bg->visits))
            bg = g;
    }
    const struct cc_bot_child *kids = &s->children[bg->slot * CC_BOT_HARD_FOLLOWUPS], *bc = kids;
    for (unsigned j = 1; j < bg->count; j++)
        if (kids[j].visits > bc->visits ||
            (kids[j].visits == bc->visits &&
             kids[j].reward / kids[j].visits > bc->reward / bc->visits))
            bc = &kids[j];
    *out = bc->action;
    return CC_OK;
}
