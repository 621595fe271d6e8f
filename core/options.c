/* options.c: the table of options; a new option is one row here (and its byte in struct
 * cc_options, and one row of the API's description in api/game/rulesets.c). */
#include <stddef.h>

#include "options.h"

#define RULESET(r) (1u << (r))

const struct cc_option_def cc_option_defs[CC_OPT_COUNT] = {
    [CC_OPT_EDITION] = {.name = "edition",
                        .offset = offsetof(struct cc_options, edition),
                        .kind = CC_OPTION_CHOICE,
                        .nvalues = 2,
                        .values = {"standard", "original"}, /* by enum cc_edition */
                        .fallback = CC_EDITION_STANDARD,
                        .rulesets = RULESET(CC_RULESET_CLASSIC)},
    [CC_OPT_RIVER] = {.name = "river",
                      .offset = offsetof(struct cc_options, river),
                      .kind = CC_OPTION_BOOL,
                      .nvalues = 2,
                      .fallback = 0,
                      .rulesets = RULESET(CC_RULESET_CLASSIC)},
    [CC_OPT_DRAW] = {.name = "draw",
                     .offset = offsetof(struct cc_options, draw),
                     .kind = CC_OPTION_CHOICE,
                     .nvalues = 2,
                     .values = {"pile", "hand"}, /* by enum cc_draw_mode */
                     .fallback = CC_DRAW_PILE,
                     .rulesets = RULESET(CC_RULESET_DISCOVERY)},
    [CC_OPT_EXPANSIONS] = {.name = "expansions",
                           .offset = offsetof(struct cc_options, expansions),
                           .kind = CC_OPTION_SET,
                           .nvalues = 2,
                           .values = {"inns", "traders"}, /* by bit of enum cc_expansion */
                           .fallback = 0,
                           .rulesets = RULESET(CC_RULESET_CLASSIC)},
    [CC_OPT_INN_FINAL] = {.name = "inn_cathedral_final",
                          .offset = offsetof(struct cc_options, inn_final),
                          .kind = CC_OPTION_CHOICE,
                          .nvalues = 2,
                          .values = {"zero", "ignore"}, /* by enum cc_inn_final */
                          .fallback = CC_INN_FINAL_ZERO,
                          .rulesets = RULESET(CC_RULESET_CLASSIC)},
};

#define REFUSE(oa, a_value, ob, b_value)                                                           \
    {                                                                                              \
        .a = (oa), .va = (a_value), .b = (ob), .vb = (b_value),                                    \
        .status = CC_ERR_INCOMPATIBLE_OPTIONS                                                      \
    }

/* Each refused combination of values (a set option: each value of the set that holds the
 * refused member). Traders' pig has no rule for the original edition's farm count; the
 * final rule of inns and cathedrals means nothing without inns. */
static const struct cc_option_refusal option_refusals[] = {
    REFUSE(CC_OPT_EXPANSIONS, CC_EXP_TRADERS, CC_OPT_EDITION, CC_EDITION_ORIGINAL),
    REFUSE(CC_OPT_EXPANSIONS, CC_EXP_TRADERS | CC_EXP_INNS, CC_OPT_EDITION, CC_EDITION_ORIGINAL),
    REFUSE(CC_OPT_INN_FINAL, CC_INN_FINAL_IGNORE, CC_OPT_EXPANSIONS, 0),
    REFUSE(CC_OPT_INN_FINAL, CC_INN_FINAL_IGNORE, CC_OPT_EXPANSIONS, CC_EXP_TRADERS),
    {.status = CC_OK}, /* the end */
};

const struct cc_option_refusal *cc_option_refusal_at(unsigned i)
{
    for (unsigned k = 0; k <= i; k++)
        if (option_refusals[k].status == CC_OK) return NULL;
    return &option_refusals[i];
}

const struct cc_option_def *cc_option_def(enum cc_option_id id)
{
    return (unsigned)id < CC_OPT_COUNT ? &cc_option_defs[id] : NULL;
}

int cc_option_in_ruleset(enum cc_option_id id, enum cc_ruleset r)
{
    return (unsigned)id < CC_OPT_COUNT && (unsigned)r < CC_RULESET_COUNT &&
           (cc_option_defs[id].rulesets >> r & 1u);
}

void cc_option_set(struct cc_options *o, enum cc_option_id id, unsigned value)
{
    ((uint8_t *)o)[cc_option_defs[id].offset] = (uint8_t)value;
}

void cc_options_default(struct cc_options *o)
{
    for (unsigned i = 0; i < CC_OPT_COUNT; i++)
        cc_option_set(o, (enum cc_option_id)i, cc_option_defs[i].fallback);
}

int cc_options_in_range(const struct cc_options *o)
{
    for (unsigned i = 0; i < CC_OPT_COUNT; i++)
        if (cc_option_get(o, (enum cc_option_id)i) >= cc_option_limit(&cc_option_defs[i])) return 0;
    return 1;
}

enum cc_status cc_options_check(enum cc_ruleset r, const struct cc_options *o, int *bad, int *other)
{
    *bad = *other = -1;
    for (unsigned i = 0; i < CC_OPT_COUNT; i++) {
        unsigned v = cc_option_get(o, (enum cc_option_id)i);
        const struct cc_option_def *d = &cc_option_defs[i];
        if (v >= cc_option_limit(d) || (!(d->rulesets >> r & 1u) && v != d->fallback)) {
            *bad = (int)i;
            return CC_ERR_BAD_OPTION;
        }
    }
    for (const struct cc_option_refusal *f = option_refusals; f->status != CC_OK; f++) {
        if (cc_option_get(o, (enum cc_option_id)f->a) == f->va &&
            cc_option_get(o, (enum cc_option_id)f->b) == f->vb) {
            *bad = f->a;
            *other = f->b;
            return (enum cc_status)f->status;
        }
    }
    return CC_OK;
}
