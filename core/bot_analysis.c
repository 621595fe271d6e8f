/*
 * bot_analysis.c: the review of one placement (analysis.h). The hard level searches the
 * position as the mover saw it; then a few candidate moves (the one played, hard's choice,
 * the next best by hard's ranking) are valued over the same deals of the unseen tiles
 * (common random numbers: the difference between two candidates is the moves', not the
 * luck of the deals), each deal played on by a round of hard's replies and scored by its
 * leaf value. The search and the playouts are in the caller's scratch: nothing allocated.
 */
#include <string.h>

#include "bot_analysis.h"
#include "bot_internal.h"

/* Whether two actions are the same move (their fields, not their padding). */
static bool same_move(const struct cc_action *a, const struct cc_action *b)
{
    return a->kind == b->kind && a->seat == b->seat && a->x == b->x && a->y == b->y &&
           a->rot == b->rot && a->tile == b->tile && a->follow == b->follow &&
           (a->follow == CC_FOLLOW_NONE ||
            (a->loc == b->loc && a->fx == b->fx && a->fy == b->fy && a->figure == b->figure));
}

/* Adds `a` to cand[0, *n) unless it is there or the list is full. */
static void add_candidate(struct cc_action cand[CC_ANALYSIS_CANDIDATES], unsigned *n,
                          const struct cc_action *a)
{
    for (unsigned i = 0; i < *n; i++)
        if (same_move(&cand[i], a)) return;
    if (*n < CC_ANALYSIS_CANDIDATES) cand[(*n)++] = *a;
}

/* The mean leaf margin of move `a` over deals 0 .. deals - 1 (deal k seeded by seed and k
 * alone, so that every candidate meets the same deals). */
static enum cc_status value_of(struct cc_bot_scratch *s, const struct cc_action *a, uint32_t deals,
                               uint64_t seed, double *out)
{
    double sum = 0;
    for (uint32_t k = 0; k < deals; k++) {
        struct cc_rng rng;
        struct cc_bot_eval e;
        cc_rng_seed(&rng, seed ^ (0x9e3779b97f4a7c15ull * (k + 1)));
        enum cc_status st = cc_bot_hard_playout(s, a, &rng, &e);
        if (st != CC_OK) return st;
        sum += e.margin;
    }
    *out = sum / deals;
    return CC_OK;
}

enum cc_status cc_analyse_move(const struct cc_game *g, const struct cc_action *played,
                               const struct cc_analysis_budget *b, uint64_t seed,
                               struct cc_bot_scratch *s, struct cc_move_review *out)
{
    memset(out, 0, sizeof *out);
    if (g->phase != CC_PHASE_PLACE)
        return g->phase == CC_PHASE_FINISHED ? CC_ERR_GAME_FINISHED : CC_ERR_WRONG_PHASE;
    out->seat = g->seat;
    struct cc_bot_budget hard = {.iterations = b->iterations};
    struct cc_action choice, cand[CC_ANALYSIS_CANDIDATES];
    unsigned n = 0;
    /* With no iterations asked hard still ranks the moves (iterations 0 means no bound to
     * cc_bot_think: one is the least search there is). */
    if (!hard.iterations) hard.iterations = 1;
    enum cc_status st = cc_bot_think(g, CC_BOT_HARD, seed, &hard, s, &choice);
    if (st != CC_OK) return st;
    add_candidate(cand, &n, played);
    add_candidate(cand, &n, &choice);
    for (uint32_t i = 0; i < s->ngroups && n < CC_ANALYSIS_CANDIDATES; i++)
        add_candidate(cand, &n, &s->children[s->groups[i].slot * CC_BOT_HARD_FOLLOWUPS].action);
    uint32_t deals = b->deals ? b->deals : 1;
    uint64_t deal_seed = seed ^ 0xa0761d6478bd642full;
    out->candidates = (uint8_t)n;
    st = value_of(s, played, deals, deal_seed, &out->played);
    if (st != CC_OK) return st;
    out->best = out->played;
    out->best_move = *played;
    for (unsigned i = 1; i < n; i++) {
        double v;
        st = value_of(s, &cand[i], deals, deal_seed, &v);
        if (st != CC_OK) return st;
        if (v > out->best) {
            out->best = v;
            out->best_move = cand[i];
        }
    }
    out->loss = out->best - out->played;
    out->label = (uint8_t)cc_move_label_of(out->loss);
    return CC_OK;
}

enum cc_move_label cc_move_label_of(double loss)
{
    if (loss < CC_LOSS_GOOD) return CC_MOVE_BEST;
    if (loss < CC_LOSS_INACCURACY) return CC_MOVE_GOOD;
    if (loss < CC_LOSS_MISTAKE) return CC_MOVE_INACCURACY;
    if (loss < CC_LOSS_BLUNDER) return CC_MOVE_MISTAKE;
    return CC_MOVE_BLUNDER;
}

static const char *const label_names[CC_MOVE_LABEL_COUNT] = {"best", "good", "inaccuracy",
                                                             "mistake", "blunder"};

const char *cc_move_label_name(enum cc_move_label label)
{
    return (unsigned)label < CC_MOVE_LABEL_COUNT ? label_names[label] : NULL;
}
