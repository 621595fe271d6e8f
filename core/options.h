/* options.h: the options of a game as one table (name, values, default, rulesets, refused
 * combinations), read by the engine's checks and by the API's decoding and description. */
#ifndef CC_OPTIONS_H
#define CC_OPTIONS_H

#include <stdint.h>

#include "game_types.h"
#include "nodiscard.h"

#define CC_MAX_OPTION_VALUES 8 /* named values of one option (a set's members: one byte) */

/* The options, in the order the API lists them. Their values live in struct cc_options. */
enum cc_option_id {
    CC_OPT_EDITION = 0, /* classic: enum cc_edition */
    CC_OPT_RIVER,       /* classic: the River expansion (a boolean) */
    CC_OPT_DRAW,        /* discovery: enum cc_draw_mode */
    CC_OPT_EXPANSIONS,  /* classic: a set of enum cc_expansion (inns, traders) */
    CC_OPT_INN_FINAL,   /* classic with inns: enum cc_inn_final */
    CC_OPT_COUNT
};

/* What values an option takes. */
enum cc_option_kind {
    CC_OPTION_BOOL = 0, /* 0 or 1: false or true */
    CC_OPTION_CHOICE,   /* one of the named values: its index */
    CC_OPTION_SET       /* any set of the named values: bit i for values[i] */
};

/* One option: a row of the table. */
struct cc_option_def {
    const char *name;                         /* API name: "edition", "river" ... */
    uint8_t offset;                           /* its byte in struct cc_options */
    uint8_t kind;                             /* enum cc_option_kind */
    uint8_t nvalues;                          /* named values (a boolean: 2, unnamed) */
    const char *values[CC_MAX_OPTION_VALUES]; /* names by value or by bit (none: boolean) */
    uint8_t fallback;                         /* the value when a game does not say */
    uint8_t rulesets;                         /* bit mask of the enum cc_ruleset that have it */
};

/* A combination the rules refuse: option a at value va together with option b at vb. */
struct cc_option_refusal {
    uint8_t a, va;  /* enum cc_option_id and its value */
    uint8_t b, vb;  /* the other option and its value */
    uint8_t status; /* enum cc_status the refusal answers */
};

/* Row `id` of the table, or NULL when out of range. */
const struct cc_option_def *cc_option_def(enum cc_option_id id);

/* Whether a boolean option. */
static inline int cc_option_is_bool(const struct cc_option_def *d)
{
    return d->kind == CC_OPTION_BOOL;
}

/* The values of option `d` are below this bound (a set: every combination of its bits). */
static inline unsigned cc_option_limit(const struct cc_option_def *d)
{
    return d->kind == CC_OPTION_SET ? 1u << d->nvalues : d->nvalues;
}

/* Whether ruleset `r` has option `id`. */
int cc_option_in_ruleset(enum cc_option_id id, enum cc_ruleset r) NODISCARD;

/* The table itself (options.c), read through the functions here. */
extern const struct cc_option_def cc_option_defs[CC_OPT_COUNT];

/* The value of option `id` in `o` (inline: the modules ask it on every placement). */
static inline unsigned cc_option_get(const struct cc_options *o, enum cc_option_id id)
{
    return ((const uint8_t *)o)[cc_option_defs[id].offset];
}

/* Sets option `id` of `o` to `value` (the caller checks the range with cc_options_check). */
void cc_option_set(struct cc_options *o, enum cc_option_id id, unsigned value);

/* Every option of `o` at its default (the options no ruleset has included). */
void cc_options_default(struct cc_options *o);

/*
 * Checks `o` for a game of ruleset `r`: every value in its range, no option of another
 * ruleset away from its default (CC_ERR_BAD_OPTION; *bad = the option), no refused
 * combination (the refusal's status; *bad and *other = its two options). *bad and *other
 * are -1 when not named. Pure.
 */
enum cc_status cc_options_check(enum cc_ruleset r, const struct cc_options *o, int *bad,
                                int *other) NODISCARD;

/* Whether every value of `o` is in its range, whatever the ruleset (snapshot checks). */
int cc_options_in_range(const struct cc_options *o) NODISCARD;

/* The i-th refused combination, or NULL past the last. */
const struct cc_option_refusal *cc_option_refusal_at(unsigned i);

#endif
